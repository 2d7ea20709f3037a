// Context size the way Claude Code computes it (reference §5.3, §6): input + cache creation + cache
// read + output of the latest main-thread assistant usage (lines of one message share it; the last
// line wins), plus an estimate for what was added after it. A compaction boundary starts over from
// its postTokens. The state is small and serialisable so hooks carry it in the cursor.
import type { ParsedLine } from './entries.ts';

export const CHARS_PER_TOKEN = 4;

export interface ContextState {
  /** Tokens reported by the last main-thread usage (or the boundary's postTokens). */
  reported: number;
  /** Characters of main-thread content appended since then. */
  charsAfter: number;
  usageKey: string | undefined;
  /** Tokens of the first usage in the session: the system prompt, tools and CLAUDE.md (System zone). */
  firstReported: number | undefined;
  compactions: number;
  /** Characters hooks injected since the last compaction (the Ledger zone); older states lack it. */
  injectedChars?: number;
  /** The model of the last main-thread assistant message: decides the window. */
  model?: string | undefined;
}

export const emptyContext = (): ContextState => ({ reported: 0, charsAfter: 0, usageKey: undefined, firstReported: undefined, compactions: 0 });

export function contextTokens(state: ContextState): number {
  return state.reported + Math.ceil(state.charsAfter / CHARS_PER_TOKEN);
}

/** Fold one parsed line into the state (mutates and returns it). */
export function foldContext(state: ContextState, line: ParsedLine): ContextState {
  if (line.sidechain) return state;
  if (line.usage !== undefined) {
    const u = line.usage;
    const total = u.input + u.cacheCreation + u.cacheRead + u.output;
    if (total > 0) {
      // The first request holds the system prompt, tools and CLAUDE.md, plus what was said before
      // it (the first prompt, hook context): that part is conversation, not System.
      state.firstReported ??= Math.max(0, u.input + u.cacheCreation + u.cacheRead - Math.ceil(state.charsAfter / CHARS_PER_TOKEN));
      state.reported = total;
      state.charsAfter = 0;
      state.usageKey = u.key;
      // `<synthetic>` marks client-made messages (errors, interruptions), not a model.
      if (u.model !== undefined && !u.model.startsWith('<')) state.model = u.model;
      return state;
    }
  }
  for (const entry of line.entries) {
    switch (entry.kind) {
      case 'compact-boundary':
        state.compactions += 1;
        state.reported = entry.postTokens ?? 0;
        state.charsAfter = 0;
        state.usageKey = undefined;
        state.injectedChars = 0;
        break;
      case 'hook-context':
        state.injectedChars = (state.injectedChars ?? 0) + entry.text.length;
        state.charsAfter += entry.text.length;
        break;
      case 'compact-summary':
        // With postTokens the summary is already counted; older boundaries have none.
        if (state.reported === 0) state.charsAfter += entry.text.length;
        break;
      case 'user-text':
      case 'tool-result':
      case 'assistant-text':
      case 'thinking':
        state.charsAfter += entry.text.length;
        break;
      case 'tool-use':
        state.charsAfter += inputChars(entry.input) + entry.name.length;
        break;
      default:
        break;
    }
  }
  return state;
}

/**
 * Characters of a tool call's input as JSON. An input nested thousands of levels deep (JSON.parse
 * takes it, JSON.stringify overflows the stack) counts as nothing rather than stop every hook that
 * reads the transcript.
 */
function inputChars(input: unknown): number {
  try {
    return JSON.stringify(input ?? null).length;
  } catch {
    return 0;
  }
}
