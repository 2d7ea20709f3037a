// Remove a temporary tree that a detached process may still be writing into as it exits (a job's
// code cache is written at exit, after the work a test waited for). rmSync's own retries remove the
// children once and then only retry the folder, so a file created meanwhile fails every retry: this
// runs the whole removal again instead.
import { rmSync } from 'node:fs';

export function removeTree(dir: string, attempts = 50): void {
  for (let i = 1; ; i++) {
    try {
      rmSync(dir, { recursive: true, force: true });
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (i >= attempts || (code !== 'ENOTEMPTY' && code !== 'EBUSY')) throw error;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
    }
  }
}
