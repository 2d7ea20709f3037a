// The moments inside a stale-lock takeover where a stalled maker's owner write can land, made to
// happen: node:fs is wrapped so a test runs the maker's write just before the breaker's rmdir or
// unlink of the lock folder. Whatever lands, one of the two holds the lock, never both.
import * as fs from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OWNERLESS_MS, tryLock } from '../../lib/runtime/lock.ts';
import { useTempDirs } from './helpers/tmp.ts';

const before: { rmdir: ((path: string) => void) | undefined; unlink: ((path: string) => void) | undefined } = { rmdir: undefined, unlink: undefined };

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  return {
    ...real,
    rmdirSync: (path: fs.PathLike, ...rest: unknown[]) => {
      const hook = before.rmdir;
      before.rmdir = undefined;
      hook?.(String(path));
      return (real.rmdirSync as (...a: unknown[]) => void)(path, ...rest);
    },
    unlinkSync: (path: fs.PathLike) => {
      const hook = before.unlink;
      before.unlink = undefined;
      hook?.(String(path));
      return real.unlinkSync(path);
    },
  };
});

const tempDir = useTempDirs('ctxl-lock-race-');
afterEach(() => {
  before.rmdir = undefined;
  before.unlink = undefined;
});

/** A lock folder made `ageMs` ago whose maker has not written its owner yet; returns the file. */
function ownerlessLock(ageMs = OWNERLESS_MS + 1_000): { file: string; dir: string; owner: string } {
  const file = join(tempDir(), 'cursor.json');
  const dir = `${file}.lock`;
  fs.mkdirSync(dir);
  const old = new Date(Date.now() - ageMs);
  fs.utimesSync(dir, old, old);
  return { file, dir, owner: join(dir, 'owner') };
}

const makersOwner = JSON.stringify({ pid: process.pid, host: 'maker-host', nonce: 'maker' });

describe('a maker that stalled past OWNERLESS_MS, and the contender breaking its folder', () => {
  it('its owner write landing just before the rmdir: the folder stays the maker’s', () => {
    const { file, dir, owner } = ownerlessLock();
    before.rmdir = (path) => {
      if (path === dir) fs.writeFileSync(owner, makersOwner, { flag: 'wx' });
    };
    expect(tryLock(file)).toBeUndefined();
    expect(fs.readFileSync(owner, 'utf8')).toBe(makersOwner);
  });

  it('its owner file created but not yet written when the rmdir runs: a claim all the same', () => {
    const { file, dir, owner } = ownerlessLock();
    let fd = -1;
    before.rmdir = (path) => {
      if (path === dir) fd = fs.openSync(owner, 'wx');
    };
    expect(tryLock(file)).toBeUndefined();
    fs.writeSync(fd, makersOwner);
    fs.closeSync(fd);
    expect(fs.readFileSync(owner, 'utf8')).toBe(makersOwner);
  });

  it('an owner file that appeared, still empty, before the breaker looked: not unlinked', () => {
    const { file, dir, owner } = ownerlessLock();
    fs.writeFileSync(owner, '');
    const old = new Date(Date.now() - OWNERLESS_MS - 1_000);
    fs.utimesSync(dir, old, old); // the folder is old; its owner file was made just now
    expect(tryLock(file)).toBeUndefined();
    expect(fs.existsSync(owner)).toBe(true);
  });

  it('an empty owner file older than any write takes is a killed maker’s leftover: the lock is taken', () => {
    const { file, dir, owner } = ownerlessLock();
    fs.writeFileSync(owner, '');
    const old = new Date(Date.now() - OWNERLESS_MS - 1_000);
    fs.utimesSync(owner, old, old);
    fs.utimesSync(dir, old, old);
    const release = tryLock(file);
    expect(release).toBeDefined();
    expect(JSON.parse(fs.readFileSync(owner, 'utf8')).pid).toBe(process.pid);
    release?.();
    expect(fs.existsSync(dir)).toBe(false);
  });

  it('an old ownerless folder holding a stray file is cleared and taken; an owner landing meanwhile is not removed', () => {
    const first = ownerlessLock();
    fs.writeFileSync(join(first.dir, 'stray'), 'x');
    const old = new Date(Date.now() - OWNERLESS_MS - 1_000);
    fs.utimesSync(first.dir, old, old);
    const release = tryLock(first.file);
    expect(release).toBeDefined();
    release?.();
    expect(fs.existsSync(first.dir)).toBe(false);

    const second = ownerlessLock();
    fs.writeFileSync(join(second.dir, 'stray'), 'x');
    fs.utimesSync(second.dir, old, old);
    // The first rmdir fails on the stray file; the maker's owner lands before the stray is cleared.
    before.rmdir = (path) => {
      if (path === second.dir) fs.writeFileSync(second.owner, makersOwner, { flag: 'wx' });
    };
    expect(tryLock(second.file)).toBeUndefined();
    expect(fs.readFileSync(second.owner, 'utf8')).toBe(makersOwner);
  });

  it('a dead owner’s file is unlinked, and a maker’s write landing after that unlink keeps the folder', () => {
    const { file, dir, owner } = ownerlessLock();
    const dead = 2 ** 22 + 12_345; // above the default pid_max: no such process
    fs.writeFileSync(owner, JSON.stringify({ pid: dead, host: hostname(), nonce: 'dead' }));
    before.rmdir = (path) => {
      if (path === dir) fs.writeFileSync(owner, makersOwner, { flag: 'wx' });
    };
    expect(tryLock(file)).toBeUndefined();
    expect(fs.readFileSync(owner, 'utf8')).toBe(makersOwner);
  });
});
