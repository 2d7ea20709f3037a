// Incremental transcript reading: from a saved cursor, parse only the new complete lines, fold them
// into the context-size state, and hand each to an optional visitor. The returned cursor is what a
// hook saves for next time.
import { type ContextState, emptyContext, foldContext } from './context-size.ts';
import { type ParsedLine, parseLine } from './entries.ts';
import { type LineCursor, type RawLine, type ResetReason, scanLines } from './lines.ts';

export const CURSOR_VERSION = 1;

export interface TranscriptCursor extends LineCursor {
  version: typeof CURSOR_VERSION;
  context: ContextState;
  /** Lines read since the start of the file (not counting the torn tail). */
  lines: number;
  bad: number;
  oversize: number;
}

export interface AdvanceResult {
  cursor: TranscriptCursor;
  newLines: number;
  newBytes: number;
  reset: ResetReason | undefined;
}

export type LineVisitor = (line: ParsedLine, raw: RawLine) => void | Promise<void>;

export function startCursor(): TranscriptCursor {
  return { version: CURSOR_VERSION, offset: 0, anchor: '', context: emptyContext(), lines: 0, bad: 0, oversize: 0 };
}

export async function advanceTranscript(
  path: string,
  from: TranscriptCursor | undefined,
  options?: { visit?: LineVisitor; maxLineBytes?: number; onReset?: (reason: ResetReason) => void; onOversize?: (raw: RawLine) => void },
): Promise<AdvanceResult> {
  const scan = await scanLines(path, from, options?.maxLineBytes === undefined ? undefined : { maxLineBytes: options.maxLineBytes });
  // A rewritten file voids everything we knew about it, and the caller's state too (before any line).
  if (scan.reset !== undefined) options?.onReset?.(scan.reset);
  const base = from === undefined || scan.reset !== undefined ? startCursor() : from;
  const state = { ...base.context };
  const counts = { lines: base.lines, bad: base.bad, oversize: base.oversize };
  let newLines = 0;
  let newBytes = 0;
  for await (const batch of scan.lines)
    for (const raw of batch) {
      newBytes += raw.end - raw.start;
      if (raw.text === undefined) {
        options?.onOversize?.(raw);
        counts.oversize += 1;
        counts.lines += 1;
        newLines += 1;
        continue;
      }
      if (raw.text.trim() === '') continue;
      counts.lines += 1;
      newLines += 1;
      const parsed = parseLine(raw.text);
      if (parsed === undefined) {
        counts.bad += 1;
        continue;
      }
      foldContext(state, parsed);
      if (options?.visit !== undefined) await options.visit(parsed, raw);
    }
  const cursor: TranscriptCursor = { version: CURSOR_VERSION, ...scan.cursor(), context: state, ...counts };
  return { cursor, newLines, newBytes, reset: scan.reset };
}
