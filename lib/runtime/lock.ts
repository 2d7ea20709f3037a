// Cross-process locks: `mkdir <file>.lock` is atomic on every local file system. The lock folder
// holds `owner` (pid, host, time), written right after the mkdir. A lock is stale, and taken over,
// when its owner process is gone (same host: checked at once, so a hook killed with -9 blocks
// nobody), when it has had no readable owner for OWNERLESS_MS (its maker died between the mkdir and
// the write), or when it is older than STALE_MS, longer than any hook's deadline, so a live holder
// is never robbed.
//
// This replaces proper-lockfile on the hook path: it loaded graceful-fs (which patches fs), retry and
// signal-exit into every locking hook (~10 ms of startup a call), and its mtime refresh runs on a
// timer that a hook's synchronous work would block anyway.
import { mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export const STALE_MS = 60_000;
/**
 * A lock folder without a readable owner this long after it was made is a crash leftover: the owner
 * is written microseconds after the mkdir. Without this, a kill in between blocked the session's
 * hooks for STALE_MS (Stop waited out its 12 s and archived nothing).
 */
export const OWNERLESS_MS = 2_000;
/** A breaker (see takeOverStale) older than this died while breaking a stale lock. */
const BREAKER_STALE_MS = 5_000;
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
      if (attempt === 0 && takeOverStale(dir, now())) continue;
      return undefined;
    }
    const me = { pid: process.pid, host: hostName(), at: now(), nonce: Math.random().toString(36).slice(2) };
    try {
      // Created exclusively: if this process stalled past OWNERLESS_MS after its mkdir, a contender
      // may have broken the folder and made its own; of the two owner writes, one wins.
      writeFileSync(join(dir, 'owner'), JSON.stringify(me), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // The folder is gone, or another owner is in it: the lock is not ours; try again later.
      if (code === 'ENOENT' || code === 'EEXIST') return undefined;
      // An ownerless lock is taken over after OWNERLESS_MS: holding one would not exclude anybody.
      removeLockDir(dir);
      throw error;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      // Only our own lock: if it was taken over meanwhile (we ran past STALE_MS), leave the new owner's.
      if (readOwner(dir)?.nonce !== me.nonce) return;
      try {
        unlinkSync(join(dir, 'owner'));
        rmdirSync(dir);
      } catch {
        // Not empty: a maker that stalled past OWNERLESS_MS wrote its owner in the moment between the
        // two calls, and holds the lock now. It is theirs to remove.
      }
    };
  }
  return undefined;
}

/**
 * Remove a stale lock so it can be taken. Judging and removing happen under a second, short-lived
 * lock (`<file>.lock.break`), so two contenders never both remove: the second re-reads the owner
 * under it and finds the fresh lock the first one made. (Moving the lock aside and handing it back
 * when it was not the one judged stale could land the handed-back lock on a third contender's new
 * one: two holders.) A breaker holds its lock for microseconds; one older than BREAKER_STALE_MS
 * died holding it and is cleared.
 */
function takeOverStale(dir: string, now: number): boolean {
  if (!isStale(dir, readOwner(dir), now)) return false;
  const breaker = `${dir}.break`;
  try {
    mkdirSync(breaker, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    try {
      if (now - statSync(breaker).mtimeMs > BREAKER_STALE_MS) rmdirSync(breaker);
    } catch {}
    return false; // someone is breaking it: try again on the next poll
  }
  try {
    // Judged again under the breaker: the lock may have been broken and taken meanwhile. A lock that
    // vanished (released) is not removed: a contender may be making a fresh one in its place.
    let made: number;
    try {
      made = statSync(dir).mtimeMs;
    } catch {
      return true;
    }
    const judged = readOwner(dir);
    if (!staleAt(judged, made, now)) return false;
    return removeStaleLockDir(dir, judged, now);
  } finally {
    try {
      rmdirSync(breaker);
    } catch {}
  }
}

/**
 * Remove a lock folder judged stale, with the owner it was judged by; false when it turned out to be
 * claimed. A maker that stalled past OWNERLESS_MS between its mkdir and its owner write can land
 * that write at any moment here (its exclusive create succeeds whenever no owner file is there), and
 * a folder removed under it leaves it holding a lock that someone else takes next. So only the
 * owner judged is unlinked (none, for a folder judged ownerless), an owner file that appeared is a
 * claim even while it is still empty, and the folder goes by rmdir, which fails if anything landed.
 */
function removeStaleLockDir(dir: string, judged: Owner | undefined, now: number): boolean {
  const ownerFile = join(dir, 'owner');
  if (judged !== undefined) {
    // Nobody can replace this file while it exists (owner files are created exclusively).
    const current = readOwner(dir);
    if (current?.nonce !== judged.nonce || current?.pid !== judged.pid) return false;
    try {
      unlinkSync(ownerFile);
    } catch {}
  } else {
    const file = statSafe(ownerFile);
    if (file !== undefined) {
      // An unreadable owner file is a maker's write in progress, unless it is older than any write
      // takes: then its maker was killed between creating and writing it.
      if (now - file.mtimeMs <= OWNERLESS_MS || readOwner(dir) !== undefined) return false;
      try {
        unlinkSync(ownerFile);
      } catch {}
    }
  }
  try {
    rmdirSync(dir);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') return true; // gone already: a contender's mkdir decides
    if (statSafe(ownerFile) !== undefined) return false;
    // Something other than an owner file (never written by this module): clear that, and never an
    // owner that lands meanwhile. rmSync's recursive walk loads its own module, which is why it is
    // not the first try.
    try {
      for (const name of readdirSync(dir)) if (name !== 'owner') rmSync(join(dir, name), { recursive: true, force: true });
      rmdirSync(dir);
      return true;
    } catch {
      return false;
    }
  }
}

function statSafe(file: string): { mtimeMs: number } | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

/**
 * Our ownerless folder after a failed owner write. Only an rmdir: if this process stalled past
 * OWNERLESS_MS first, the folder may be a contender's by now, with its owner in it. What our failed
 * write left (a partial owner file) is cleared by the next contender after OWNERLESS_MS.
 */
function removeLockDir(dir: string): void {
  try {
    rmdirSync(dir);
  } catch {}
}

interface Owner {
  pid?: unknown;
  host?: unknown;
  nonce?: unknown;
}

function readOwner(dir: string): Owner | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'owner'), 'utf8')) as Owner;
  } catch {
    return undefined;
  }
}

/** Mark a held lock as alive: long work (an index rebuild) calls this so it is never judged stale. */
export function touchLock(file: string): void {
  try {
    const now = new Date();
    utimesSync(`${file}.lock`, now, now);
  } catch {}
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

function isStale(dir: string, owner: Owner | undefined, now: number): boolean {
  try {
    return staleAt(owner, statSync(dir).mtimeMs, now);
  } catch {
    return true; // it vanished: take it
  }
}

/** A lock with this owner, made (or last touched) at `made`, is stale at `now`. */
function staleAt(owner: Owner | undefined, made: number, now: number): boolean {
  if (owner !== undefined && owner.host === hostName() && typeof owner.pid === 'number' && !alive(owner.pid)) return true;
  const age = now - made;
  return age > STALE_MS || (owner === undefined && age > OWNERLESS_MS);
}

let host: string | undefined;

/** gethostname(2). On Linux read from /proc, which spares each locking hook loading node:os (~0.4 ms). */
function hostName(): string {
  if (host === undefined) {
    try {
      host = readFileSync('/proc/sys/kernel/hostname', 'utf8').trim();
    } catch {}
    if (host === undefined || host === '') host = hostname();
  }
  return host;
}

/** This process, as an archive job names its owner. */
export function thisProcess(): { host: string; pid: number } {
  return { host: hostName(), pid: process.pid };
}

/** Whether a process this machine ran is gone (one of another machine may be alive: not gone). */
export function processGone(owner: { host: string; pid: number }): boolean {
  return owner.host === hostName() && !alive(owner.pid);
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !zombie(pid);
}

/**
 * A process that exited but was not reaped still answers kill(pid, 0). Where init reaps slowly (a
 * container whose first process is not an init), a killed hook or job stays such a zombie for
 * seconds or for good, and would hold its lock or job. Linux says so in /proc (elsewhere: false).
 */
function zombie(pid: number): boolean {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return false;
  }
  // pid (comm) state …: the command name may hold spaces and parentheses, the state follows the last ')'.
  const state = stat.charAt(stat.lastIndexOf(')') + 2);
  return state === 'Z' || state === 'X';
}
