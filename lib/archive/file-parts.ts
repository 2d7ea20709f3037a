// Split a large file into parts at line boundaries without holding it in memory: one pass finds the
// cut points, then each part is read on its own. Used for tool outputs Claude Code persisted to disk.
import { closeSync, openSync, readSync } from 'node:fs';

const BLOCK = 1024 * 1024;

/** Byte offsets where parts start: about every `partBytes`, moved forward to just after a newline. */
export function cutPoints(file: string, size: number, partBytes: number): number[] {
  const cuts = [0];
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(BLOCK);
    let target = partBytes;
    while (target < size) {
      // Look for a newline in the block starting at the target; none within it: cut hard there.
      const n = readSync(fd, buf, 0, Math.min(BLOCK, size - target), target);
      const nl = buf.subarray(0, n).indexOf(0x0a);
      const cut = nl === -1 || nl > partBytes / 2 ? target : target + nl + 1;
      if (cut >= size) break;
      cuts.push(cut);
      target = cut + partBytes;
    }
  } finally {
    closeSync(fd);
  }
  return cuts;
}

export function readRange(file: string, start: number, end: number): string {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(end - start);
    const n = readSync(fd, buf, 0, end - start, start);
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
