// The L1 brief SessionStart(compact) injects right after a compaction: what the summary may have
// lost. Phase and timeline, then the digest's sections in the phase's priority (decisions and
// constraints by id, open items, next steps, the exact values, failing tests, current files), each
// with the L2 ref of where it was said, cut to the Ledger budget and under Claude Code's cap. Pure.
import { clip, fitSections, prioritized } from './priorities.ts';
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
  const used = [...head, ...tail].join('\n').length + 1;
  if (used > options.maxChars) return undefined;
  const body = fitSections(sections, options.maxChars - used, { passes: [FIRST_PASS, Number.POSITIVE_INFINITY], itemChars: ITEM_CHARS, blankBefore: true });
  return [...head, ...body, ...tail].join('\n');
}
