// The one-line status SessionStart injects: proves the injection path and tells Claude where it is.
export interface StatusInput {
  phase: string;
  contextTokens: number | undefined;
  window: number;
  source: string | undefined;
}

export function statusLine(s: StatusInput): string {
  const parts = [`phase: ${s.phase}`];
  if (s.contextTokens === undefined || s.contextTokens === 0)
    parts.push(s.source === 'startup' || s.source === undefined ? 'context: new session' : 'context: not measured yet');
  else {
    const pct = Math.round((s.contextTokens / s.window) * 100);
    parts.push(`context: ${fmt(s.contextTokens)} of ${fmt(s.window)} tokens (${pct}%)`);
  }
  return `[context-lifecycle] ${parts.join(' · ')}`;
}

const fmt = (n: number) => n.toLocaleString('en-US');
