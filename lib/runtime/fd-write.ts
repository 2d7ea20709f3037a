// Writing to stdout and stderr without their streams: process.stdout and process.stderr each build
// a stream on first use (for a pipe, a net socket: ~5 ms of a start each), for what is one write or
// a few. A non-blocking pipe that is full (EAGAIN) is waited for while `keepTrying` allows (polled
// every 2 ms); a reader that went away (EPIPE, as `ctxl recall … | head`) ends the write.
import { fstatSync, writeSync } from 'node:fs';

/**
 * Write all of `text` to `fd`. `keepTrying(partial)` is asked at each EAGAIN (partial: part of the
 * text is out already). Returns undefined when all was written, else the error code that stopped
 * it: `EPIPE` when the reader left (not an error for a pipe reader such as `head`).
 */
export function writeAll(fd: number, text: string, keepTrying: (partial: boolean) => boolean = () => true): string | undefined {
  const all = Buffer.from(text, 'utf8');
  let bytes = all;
  while (bytes.length > 0) {
    try {
      bytes = bytes.subarray(writeSync(fd, bytes));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      if (code === 'EAGAIN' && keepTrying(bytes.length < all.length)) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
        continue;
      }
      return code;
    }
  }
  return undefined;
}

/**
 * Whether `fd` is a terminal, without loading node:tty (~4 ms): a character device. /dev/null is
 * one too, which only means a progress line written to nowhere.
 */
export function isTerminal(fd: number): boolean {
  try {
    return fstatSync(fd).isCharacterDevice();
  } catch {
    return false;
  }
}
