// The one-line status SessionStart injects: proves the injection path and tells Claude where it is.
import { thousands } from './thousands.ts';
export interface StatusInput {
  phase: string;
  contextTokens: number | undefined;
  window: number;
  source: string | undefined;
}

export function statusLine(s: StatusInput): string {
  return `[context-lifecycle] phase: ${s.phase} · context: ${contextPart(s)}`;
}

function contextPart(s: StatusInput): string {
  const known = s.contextTokens !== undefined && s.contextTokens > 0;
  // At SessionStart(compact) the client has not yet written the boundary: the last measure is from
  // before the compaction, so it is given as what was compacted, not as the current size.
  if (s.source === 'compact') return known ? `just compacted (was ${fmt(s.contextTokens ?? 0)} of ${fmt(s.window)} tokens)` : 'just compacted';
  if (!known) return s.source === 'startup' || s.source === undefined ? 'new session' : 'not measured yet';
  const pct = Math.round(((s.contextTokens ?? 0) / s.window) * 100);
  return `${fmt(s.contextTokens ?? 0)} of ${fmt(s.window)} tokens (${pct}%)`;
}

const fmt = thousands;
