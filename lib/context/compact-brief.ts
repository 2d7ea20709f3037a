// The L1 brief SessionStart(compact) injects right after a compaction: what the summary may have
// lost. Phase and timeline, then the digest's sections in the phase's priority (decisions and
// constraints by id, open items, next steps, the exact values, failing tests, current files), each
// with the L2 ref of where it was said, cut to the Ledger budget and under Claude Code's cap. Pure.
import { prioritized } from './priorities.ts';
import type { SessionDigest } from './session-digest.ts';

const FIRST_PASS = 4;
const ITEM_CHARS = 400;

export function compactBrief(d: SessionDigest, options: { maxChars: number; recallCommand: string }): string | undefined {
  const sections = prioritized(d, { refs: true });
  if (sections.length === 0 && d.timeline === '') return undefined;
  const head = ['## context-lifecycle: what the compaction summary may have lost', ''];
  const since = d.since === undefined ? '' : ` since ${d.since.slice(0, 16).replace('T', ' ')}${d.trigger === undefined ? '' : `, ${d.trigger}`}`;
  head.push(`Phase: **${d.phase}**${since}.${d.timeline === '' ? '' : ` Timeline: ${d.timeline}.`}`);
  if (d.goal !== undefined) head.push(`Goal: ${clip(d.goal, 300)}`);
  const tail = [
    '',
    `${d.ledgers.length > 0 ? `Phase ledgers: ${d.ledgers.map((l) => `\`${l}\``).join(', ')}. ` : ''}Everything else said or seen is archived: \`${options.recallCommand} <words>\` finds it, \`${options.recallCommand} show <ref>\` prints a ref in full.`,
  ];
  let used = [...head, ...tail].join('\n').length + 1;
  if (used > options.maxChars) return undefined;
  // Newest items first within a section; every section gets a few before any gets more.
  const kept = sections.map(() => [] as string[]);
  for (const limit of [FIRST_PASS, Number.POSITIVE_INFINITY]) {
    for (const [i, section] of sections.entries()) {
      const taken = kept[i] as string[];
      const titleCost = taken.length === 0 ? section.title.length + 3 : 0;
      for (const line of [...section.lines].reverse().slice(taken.length)) {
        if (taken.length >= limit) break;
        const text = `- ${clip(line, ITEM_CHARS)}`;
        const cost = text.length + 1 + (taken.length === 0 ? titleCost : 0);
        if (used + cost > options.maxChars) break;
        taken.push(text);
        used += cost;
      }
    }
  }
  const body: string[] = [];
  for (const [i, section] of sections.entries()) {
    const taken = kept[i] as string[];
    if (taken.length > 0) body.push('', `${section.title}:`, ...taken.reverse());
  }
  return [...head, ...body, ...tail].join('\n');
}

const clip = (t: string, max: number) => (t.length <= max ? t : `${t.slice(0, max - 1)}…`);
