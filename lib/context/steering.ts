// PreCompact's plain text, which Claude Code appends to the compaction prompt's instructions
// (reference §2.4): what to keep word for word for this phase, the decisions and constraints by id,
// and what may be summarised briefly because L2 holds it. Pure and deterministic: the several
// PreCompact calls of one compaction print the same text.
import { prioritized } from './priorities.ts';
import type { SessionDigest } from './session-digest.ts';

export const STEERING_MAX_CHARS = 3_000;
const ITEM_CHARS = 220;
const PER_SECTION = 6;
const FIRST_PASS = 2;

export function steeringText(d: SessionDigest, options: { recallCommand: string; maxChars?: number }): string | undefined {
  const max = options.maxChars ?? STEERING_MAX_CHARS;
  const sections = prioritized(d, { refs: false });
  if (sections.length === 0 && d.ledgers.length === 0) return undefined;
  const head = [
    `Context-lifecycle notes for this summary. The session is in the ${d.phase} phase${d.sequence.includes('→') ? ` (so far: ${d.sequence})` : ''}.`,
    'Keep the following word for word in the summary, with their ids ([D-…] decisions, [C-…] constraints), most important first:',
  ];
  const tail = [
    '',
    `May be summarised briefly: tool outputs, file contents that were read, and earlier discussion: their full text is archived and \`${options.recallCommand} <words>\` finds it${d.ledgers.length > 0 ? `; phase ledgers: ${d.ledgers.map((l) => `\`${l}\``).join(', ')}` : ''}.`,
  ];
  // Every section gets a few items before any gets more, so the ids the header promises are there.
  let used = [...head, ...tail].join('\n').length;
  const kept = sections.map(() => [] as string[]);
  for (const limit of [FIRST_PASS, PER_SECTION]) {
    for (const [i, section] of sections.entries()) {
      const taken = kept[i] as string[];
      for (const line of section.lines.slice(-PER_SECTION).reverse().slice(taken.length)) {
        if (taken.length >= limit) break;
        const text = `- ${clip(line, ITEM_CHARS)}`;
        const cost = text.length + 1 + (taken.length === 0 ? section.title.length + 2 : 0);
        if (used + cost > max) break;
        taken.push(text);
        used += cost;
      }
    }
  }
  const out = [...head];
  for (const [i, section] of sections.entries()) {
    const taken = kept[i] as string[];
    if (taken.length > 0) out.push(`${section.title}:`, ...taken.reverse());
  }
  return [...out, ...tail].join('\n');
}

const clip = (t: string, max: number) => (t.length <= max ? t : `${t.slice(0, max - 1)}…`);
