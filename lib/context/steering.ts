// PreCompact's plain text, which Claude Code appends to the compaction prompt's instructions
// (reference §2.4): what to keep word for word for this phase, the decisions and constraints by id,
// and what may be summarised briefly because L2 holds it. Pure and deterministic: the several
// PreCompact calls of one compaction print the same text.
import { fitSections, prioritized } from './priorities.ts';
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
  const room = max - [...head, ...tail].join('\n').length;
  const sectionsOut = sections.map((sec) => ({ ...sec, lines: sec.lines.slice(-PER_SECTION) }));
  const out = [...head, ...fitSections(sectionsOut, room, { passes: [FIRST_PASS, PER_SECTION], itemChars: ITEM_CHARS, blankBefore: false })];
  return [...out, ...tail].join('\n');
}
