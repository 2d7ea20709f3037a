// Stream the complete lines of a JSONL file from a byte offset. Reads fixed-size chunks, so memory is
// bounded by the longest line kept (lines over `maxLineBytes` are skipped, not buffered), and work
// grows with what is new, not with the file. A torn last line (no newline yet, not valid JSON) is left
// for the next call. The cursor carries the bytes just before its offset: if they differ when we come
// back, the file was rewritten and reading restarts at 0.
//
// Reads are synchronous (node:fs/promises costs a hook 1–6 ms to load, for reads of a regular file
// that take microseconds), with a turn of the event loop every YIELD_BYTES so a hook's deadline timer
// can still fire during a long first read.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const CHUNK = 256 * 1024;
const YIELD_BYTES = 4 * 1024 * 1024;
const ANCHOR_BYTES = 48;
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

export interface LineCursor {
  offset: number;
  /** base64 of up to ANCHOR_BYTES bytes ending at `offset`. */
  anchor: string;
}

export interface RawLine {
  /** Byte offset of the line's first byte. */
  start: number;
  /** Byte offset just past the line's newline (or its last byte at end of file). */
  end: number;
  text: string | undefined; // undefined when the line was over maxLineBytes
  bytes: number;
}

export type ResetReason = 'shrunk' | 'rewritten';

export interface LineScan {
  /** Set when the saved cursor no longer fits the file; reading then starts at 0. */
  reset: ResetReason | undefined;
  size: number;
  /** Complete lines in batches (one per chunk read): one await per 256 KB, not per line. */
  lines: AsyncGenerator<RawLine[]>;
  /** The cursor after the last complete line; known once `lines` is exhausted. */
  cursor: () => LineCursor;
}

export async function scanLines(path: string, from: LineCursor | undefined, options?: { maxLineBytes?: number }): Promise<LineScan> {
  const maxLine = options?.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const fd = openSync(path, 'r');
  let size: number;
  try {
    size = fstatSync(fd).size;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  let start = from?.offset ?? 0;
  let reset: ResetReason | undefined;
  if (start > size) {
    reset = 'shrunk';
    start = 0;
  } else if (start > 0 && from !== undefined && anchorAt(fd, start) !== from.anchor) {
    reset = 'rewritten';
    start = 0;
  }
  let consumed = start;
  let cursor: LineCursor | undefined;

  async function* lines(): AsyncGenerator<RawLine[]> {
    try {
      const buffer = Buffer.allocUnsafe(CHUNK);
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      let oversize = false;
      let lineStart = start;
      let position = start;
      let sinceYield = 0;
      while (position < size) {
        if (sinceYield >= YIELD_BYTES) {
          sinceYield = 0;
          await new Promise((resolve) => setImmediate(resolve));
        }
        const bytesRead = readSync(fd, buffer, 0, Math.min(CHUNK, size - position), position);
        if (bytesRead === 0) break;
        sinceYield += bytesRead;
        let from0 = 0;
        const batch: RawLine[] = [];
        for (;;) {
          const nl = buffer.indexOf(0x0a, from0);
          const stop = nl === -1 || nl >= bytesRead ? bytesRead : nl;
          const piece = stop - from0;
          if (!oversize && pendingBytes + piece > maxLine) {
            oversize = true;
            pending = [];
          }
          const complete = nl !== -1 && nl < bytesRead;
          if (complete && pending.length === 0 && !oversize) {
            // The whole line is inside this read: decode it in place, no copy.
            const end = position + nl + 1;
            batch.push({ start: lineStart, end, text: trimCr(buffer.toString('utf8', from0, stop)), bytes: piece });
            consumed = end;
            pendingBytes = 0;
            lineStart = end;
            from0 = nl + 1;
            continue;
          }
          if (!oversize && piece > 0) pending.push(Buffer.from(buffer.subarray(from0, stop)));
          pendingBytes += piece;
          if (!complete) break;
          const end = position + nl + 1;
          batch.push(makeLine(lineStart, end, pending, pendingBytes, oversize));
          consumed = end;
          pending = [];
          pendingBytes = 0;
          oversize = false;
          lineStart = end;
          from0 = nl + 1;
        }
        position += bytesRead;
        if (batch.length > 0) yield batch;
      }
      // A last line without newline counts only if it is complete JSON; otherwise it may be torn.
      if (pendingBytes > 0 && !oversize) {
        const text = Buffer.concat(pending).toString('utf8');
        if (isCompleteJson(text)) {
          yield [{ start: lineStart, end: size, text, bytes: pendingBytes }];
          consumed = size;
        }
      }
      cursor = { offset: consumed, anchor: anchorAt(fd, consumed) };
    } finally {
      closeSync(fd);
    }
  }
  return {
    reset,
    size,
    lines: lines(),
    cursor: () => {
      if (cursor === undefined) throw new Error('scanLines: cursor() read before the lines were consumed');
      return cursor;
    },
  };
}

function makeLine(start: number, end: number, pending: Buffer[], bytes: number, oversize: boolean): RawLine {
  if (oversize) return { start, end, text: undefined, bytes };
  const buf = pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending);
  return { start, end, text: trimCr(buf.toString('utf8')), bytes };
}

/** Tolerate CRLF files. */
const trimCr = (text: string) => (text.endsWith('\r') ? text.slice(0, -1) : text);

/** Without its newline a line is complete only as a whole object or array: `4` may become `42`. */
function isCompleteJson(text: string): boolean {
  const trimmed = text.trim();
  if (!(trimmed.startsWith('{') && trimmed.endsWith('}')) && !(trimmed.startsWith('[') && trimmed.endsWith(']'))) return false;
  try {
    JSON.parse(trimmed);
    return true;
  } catch {
    return false;
  }
}

function anchorAt(fd: number, offset: number): string {
  if (offset === 0) return '';
  const length = Math.min(ANCHOR_BYTES, offset);
  const buf = Buffer.alloc(length);
  readSync(fd, buf, 0, length, offset - length);
  return buf.toString('base64');
}
