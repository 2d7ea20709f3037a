// Cross-process locks: `mkdir <file>.lock` is atomic on every local file system. The lock folder
// holds `owner` (pid, host, time). A lock is stale, and taken over, when its owner process is gone
// (same host: checked at once, so a hook killed with -9 blocks nobody) or when it is older than
// STALE_MS, longer than any hook's deadline, so a live holder is never robbed.
//
// This replaces proper-lockfile on the hook path: it loaded graceful-fs (which patches fs), retry and
// signal-exit into every locking hook (~10 ms of startup a call), and its mtime refresh runs on a
// timer that a hook's synchronous work would block anyway.
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export const STALE_MS = 60_000;
const POLL_MS = 25;

export type Release = () => void;

/** Try to take the lock once; undefined when a live owner holds it. */
export function tryLock(file: string, now: () => number = Date.now): Release | undefined {
  const dir = `${file}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      mkdirSync(dir, { mode: 0o700 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (attempt === 0 && isStale(dir, now())) {
        rmSync(dir, { recursive: true, force: true });
        continue;
      }
      return undefined;
    }
    try {
      writeFileSync(join(dir, 'owner'), JSON.stringify({ pid: process.pid, host: hostname(), at: now() }), { mode: 0o600 });
    } catch {
      // The folder alone is the lock; the owner file only speeds up crash recovery.
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      rmSync(dir, { recursive: true, force: true });
    };
  }
  return undefined;
}

/** Take the lock, polling until `waitMs` has passed; undefined if it stayed busy. */
export async function lock(file: string, waitMs: number): Promise<Release | undefined> {
  const until = Date.now() + waitMs;
  for (;;) {
    const release = tryLock(file);
    if (release !== undefined) return release;
    if (Date.now() >= until) return undefined;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

function isStale(dir: string, now: number): boolean {
  let owner: { pid?: unknown; host?: unknown } | undefined;
  try {
    owner = JSON.parse(readFileSync(join(dir, 'owner'), 'utf8')) as { pid?: unknown; host?: unknown };
  } catch {
    owner = undefined;
  }
  if (owner !== undefined && owner.host === hostname() && typeof owner.pid === 'number' && !alive(owner.pid)) return true;
  try {
    return now - statSync(dir).mtimeMs > STALE_MS;
  } catch {
    return true; // it vanished: take it
  }
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
