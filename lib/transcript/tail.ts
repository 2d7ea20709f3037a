// The context size at the end of a transcript, read from its tail: PostToolUse needs it mid-turn,
// long after the last Stop saved a cursor. Reads backwards block by block to the last main-thread
// assistant usage (or compaction boundary), then folds only the lines after it. A turn's tool results
// and the client's attachments sit between two usages, so this reads kilobytes, not the file.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { type ContextState, emptyContext, foldContext } from './context-size.ts';
import { parseLine } from './entries.ts';

const BLOCK = 64 * 1024;
/** Give up past this much tail: the caller falls back to what the last Stop measured. */
export const TAIL_MAX_BYTES = 8 * 1024 * 1024;

// Synchronous reads: node:fs/promises would cost the hook more to load than this reads.
export async function contextAtEnd(path: string, maxBytes = TAIL_MAX_BYTES): Promise<ContextState | undefined> {
  // Non-blocking, then a regular file only: opening a FIFO for reading waits for a writer, and no
  // deadline fires while the thread waits.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: 'ENOTFILE' });
    const size = stat.size;
    let start = size;
    let tail = Buffer.alloc(0);
    while (start > 0 && size - start < maxBytes) {
      // Doubling the read keeps the re-splitting of the tail linear in what is read.
      const from = Math.max(0, start - Math.max(BLOCK, size - start));
      const block = Buffer.allocUnsafe(start - from);
      readFull(fd, block, from);
      tail = Buffer.concat([block, tail]);
      start = from;
      const lines = tail.toString('utf8').split('\n');
      // The first piece may be a line cut by the block edge, unless the file starts here.
      const complete = start === 0 ? lines : lines.slice(1);
      const at = anchorIndex(complete);
      if (at !== undefined) {
        const state = emptyContext();
        for (const text of complete.slice(at)) {
          const line = text.trim() === '' ? undefined : parseLine(text);
          if (line !== undefined) foldContext(state, line);
        }
        return state;
      }
    }
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Fill `block` from `position` (a read may return less than asked); zeros past a file that shrank. */
function readFull(fd: number, block: Buffer, position: number): void {
  for (let done = 0; done < block.length; ) {
    const n = readSync(fd, block, done, block.length - done, position + done);
    if (n === 0) {
      block.fill(0, done);
      return;
    }
    done += n;
  }
}

/** Index of the last line a context measure can start from: a main-thread usage or a boundary. */
function anchorIndex(lines: readonly string[]): number | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const text = lines[i] as string;
    const usage = text.includes('"usage"') && text.includes('"assistant"');
    const boundary = text.includes('"compact_boundary"');
    if (!usage && !boundary) continue;
    const line = parseLine(text);
    if (line === undefined || line.sidechain) continue;
    if (line.usage !== undefined && line.usage.input + line.usage.cacheCreation + line.usage.cacheRead + line.usage.output > 0) return i;
    if (line.entries.some((e) => e.kind === 'compact-boundary')) return i;
  }
  return undefined;
}
