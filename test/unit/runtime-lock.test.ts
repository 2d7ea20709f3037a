import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OWNERLESS_MS, tryLock } from '../../lib/runtime/lock.ts';
import { useProbe } from './helpers/probe.ts';
import { useTempDirs } from './helpers/tmp.ts';

const tempDir = useTempDirs('ctxl-lock-');

// A process that waits for a common start time, takes the lock, and records when it held it. Two
// witnesses of mutual exclusion: a marker file created exclusively on entering (a second holder
// inside finds it: no clock involved), and the hold interval on CLOCK_MONOTONIC, which all processes
// share. (performance.timeOrigin + performance.now() is off from the wall clock by 1–2 ms, differently
// in each process: once that made two back-to-back holds look like an overlap.)
const PROBE = `
import { appendFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { lock } from './lib/runtime/lock.ts';
const [file, record, startAt, holdMs] = process.argv.slice(2);
while (Date.now() < Number(startAt)) {}
const release = await lock(file, 20_000);
if (release === undefined) { appendFileSync(record, 'busy ' + process.pid + '\\n'); process.exit(0); }
const enter = process.hrtime.bigint();
let inside = 'alone';
try { writeFileSync(file + '.inside', String(process.pid), { flag: 'wx' }); } catch { inside = 'shared'; }
const until = Date.now() + Number(holdMs);
while (Date.now() < until) {}
if (inside === 'alone') unlinkSync(file + '.inside');
const exit = process.hrtime.bigint();
appendFileSync(record, 'held ' + process.pid + ' ' + enter + ' ' + exit + ' ' + inside + '\\n');
release();
`;
const probeFile = useProbe('lock', PROBE);

/** `count` processes started together on `file`; each holds the lock `holdMs`. Their hold intervals. */
async function contend(file: string, count: number, holdMs: number): Promise<Array<[number, number]>> {
  const record = `${file}.record`;
  writeFileSync(record, '');
  const startAt = Date.now() + 600;
  const runs = Array.from(
    { length: count },
    () =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, [probeFile(), file, record, String(startAt), String(holdMs)], { stdio: 'ignore' });
        child.on('exit', (code) => resolve(code));
      }),
  );
  expect(await Promise.all(runs)).toEqual(Array.from({ length: count }, () => 0));
  const lines = readFileSync(record, 'utf8').trim().split('\n');
  expect(lines.filter((l) => l.startsWith('busy'))).toEqual([]);
  expect(lines.filter((l) => !l.endsWith(' alone'))).toEqual([]);
  return lines.map((l) => [Number(l.split(' ')[2]), Number(l.split(' ')[3])] as [number, number]).sort((a, b) => a[0] - b[0]);
}

const overlaps = (spans: Array<[number, number]>) => spans.filter((s, i) => i > 0 && s[0] < (spans[i - 1] as [number, number])[1]);

/** A lock on `<dir>/cursor.json` left by a process that died holding it; returns the file. */
function deadOwnersLock(dir: string): string {
  const file = join(dir, 'cursor.json');
  const dead = spawnSync(process.execPath, ['-e', '']).pid as number;
  mkdirSync(`${file}.lock`);
  writeFileSync(join(`${file}.lock`, 'owner'), JSON.stringify({ pid: dead, host: hostname(), at: Date.now(), nonce: 'dead' }));
  return file;
}

/** `count` contenders each held the lock once, one at a time, and left nothing behind. */
async function expectTurns(dir: string, file: string, count: number, holdMs: number): Promise<void> {
  const spans = await contend(file, count, holdMs);
  expect(spans).toHaveLength(count);
  expect(overlaps(spans)).toEqual([]);
  expect(readdirSync(dir).filter((f) => f.includes('.lock'))).toEqual([]);
}

describe('a stale lock met by many processes at once', () => {
  // Regression (by reading the code): moving a stale lock aside and handing back one that was not the
  // lock judged stale could land it on a third contender's new lock, leaving two holders.
  it('a lock whose owner died: every contender holds it in turn, never two at once', async () => {
    const dir = tempDir();
    await expectTurns(dir, deadOwnersLock(dir), 8, 30);
  }, 60_000);

  it('a lock left without an owner: the same, once it is OWNERLESS_MS old', async () => {
    const dir = tempDir();
    const file = join(dir, 'cursor.json');
    mkdirSync(`${file}.lock`);
    const old = new Date(Date.now() - OWNERLESS_MS - 1_000);
    utimesSync(`${file}.lock`, old, old);
    await expectTurns(dir, file, 8, 30);
  }, 60_000);

  it('a breaker left by a process killed while breaking is cleared, and the lock taken', async () => {
    const dir = tempDir();
    const file = deadOwnersLock(dir);
    mkdirSync(`${file}.lock.break`);
    const old = new Date(Date.now() - 60_000);
    utimesSync(`${file}.lock.break`, old, old);
    await expectTurns(dir, file, 2, 10);
  }, 60_000);
});

describe('a holder that lost its lock', () => {
  // Regression (trial: a process stalled 3 s between its mkdir and its owner write, a contender broke
  // the ownerless folder and made its own; the stalled write then landed in the new folder, and at
  // release the first holder removed the lock the second still held).
  it("releasing leaves a lock whose owner file is now another holder's, or gone", () => {
    const dir = tempDir();
    const file = join(dir, 'cursor.json');
    for (const replace of [
      (owner: string) => writeFileSync(owner, JSON.stringify({ pid: process.pid, host: hostname(), nonce: 'other' })),
      (owner: string) => rmSync(owner),
    ]) {
      const release = tryLock(file);
      expect(release).toBeDefined();
      replace(join(`${file}.lock`, 'owner'));
      release?.();
      expect(existsSync(`${file}.lock`)).toBe(true);
      rmSync(`${file}.lock`, { recursive: true });
    }
  });
});
