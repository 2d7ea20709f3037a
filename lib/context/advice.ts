// What Stop says at a level crossing (pure). The user always hears it once (`systemMessage`: costs
// no model turn); Claude hears it only at L1→L2 and L2→L3 (`additionalContext`: one more turn each).
import { type Budget, LEVEL_NAMES, type Level } from './budget.ts';
import type { SessionDigest } from './session-digest.ts';
import { thousands } from './thousands.ts';

export interface Advice {
  systemMessage: string;
  additionalContext?: string;
}

export function adviceFor(crossed: Level, budget: Budget, digest: SessionDigest | undefined, extra: { ledger?: string; showCommand: string }): Advice {
  const fmt = thousands;
  const use = Math.round(budget.workingUse * 100);
  const where = `working zone ${use}% full (${fmt(budget.contextTokens)} of ${fmt(budget.window)} tokens; Claude Code compacts at ${fmt(budget.autoCompactAt)})`;
  const focus = compactFocus(digest);
  const steps: string[] = [];
  if (crossed >= 1) steps.push('large tool outputs now enter the context as stubs (full text in the archive)');
  if (crossed >= 3 && extra.ledger !== undefined) steps.push(`the phase ledger is written (${extra.ledger}) and its decisions promoted to project memory`);
  const systemMessage = `context-lifecycle ${LEVEL_NAMES[crossed]}: ${where}; ${steps.join('; ')}. To compact on your terms: /compact ${focus}`;
  if (crossed < 2) return { systemMessage };
  const lines = [
    `Context note (context-lifecycle, ${LEVEL_NAMES[crossed]}): the ${where}.`,
    `Large tool outputs reach you as stubs; \`${extra.showCommand} <ref>\` brings any of them back. Prefer targeted reads (offset/limit, grep) over whole files.`,
    'State decisions, constraints and exact values plainly in your replies: they are archived and re-injected after a compaction.',
  ];
  if (crossed >= 3) lines.push('A compaction is near: finish the current step, then end your reply with a short handoff: done, next, open questions.');
  return { systemMessage, additionalContext: lines.join('\n') };
}

/** A `/compact` focus for the phase: what its summary should keep. */
export function compactFocus(d: SessionDigest | undefined): string {
  if (d === undefined) return 'keep the decisions, constraints and open items';
  const ids = d.decisions
    .slice(-4)
    .map((x) => x.id)
    .filter((x): x is string => x !== undefined);
  const decisions = ids.length > 0 ? `decisions ${ids.join(', ')}` : 'the decisions';
  const files = d.files.slice(0, 4).join(', ');
  switch (d.phase) {
    case 'planning':
      return `keep the requirements, the user's constraints and ${decisions}`;
    case 'design':
      return `keep ${decisions}, the interfaces agreed and the constraints`;
    case 'implementation':
      return `keep the state of ${files === '' ? 'the files being changed' : files}, the last test results and ${decisions}`;
    case 'testing':
      return `keep the failing tests${
        d.failures.length > 0
          ? ` (${d.failures
              .slice(-3)
              .map((f) => f.replace(/ \(.*$/, ''))
              .join(', ')})`
          : ''
      }, what was tried and ${decisions}`;
    case 'review':
      return `keep the review findings, open items and ${decisions}`;
    default:
      return `keep ${decisions}, the constraints and the open items`;
  }
}
