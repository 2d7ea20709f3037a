// lib/runtime/stdin.ts: a hook's stdin read whole and exact from a socket (what Claude Code gives), a
// shell pipe, a file or /dev/null without node:net; a directory without an abort; over the cap it is
// dropped (a file unread); a stdin never closed does not hold up the exit.
import { type SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import { closeSync, ftruncateSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/paths.ts';
import { useProbe } from './helpers/probe.ts';
import { useTempDirs } from './helpers/tmp.ts';

const tempDir = useTempDirs('ctxl-stdin-');

// A probe bundled from the real module: reads stdin, prints what it got and whether node:net loaded.
const PROBE = `
import { writeSync } from 'node:fs';
import { readStdin } from ${JSON.stringify(join(repoRoot, 'lib', 'runtime', 'stdin.ts'))};
const net = () => process.moduleLoadList.includes('NativeModule net');
if (process.env.PROBE_EXIT_MS) setTimeout(() => { writeSync(1, 'timer, net ' + net()); process.exit(0); }, Number(process.env.PROBE_EXIT_MS)).unref();
readStdin(Number(process.env.PROBE_MAX ?? 1e9)).then(
  (text) => {
    writeSync(1, JSON.stringify({ text: text ?? null, net: net() }));
    process.exit(0);
  },
  (error) => {
    writeSync(1, JSON.stringify({ error: String(error && error.message), net: net() }));
    process.exit(0);
  },
);
`;
const probeFile = useProbe('stdin', PROBE);

interface Probed {
  text: string | null;
  net: boolean;
}

function parse(stdout: string): Probed {
  return JSON.parse(stdout) as Probed;
}

// Multi-byte characters across the 64 KB reads, 3 MB in all.
const BIG = `${'{"k":"é€😀 naïve ' + 'x'.repeat(37)}\n`.repeat(50_000);

describe('readStdin', () => {
  it('reads a socket (as Claude Code and Node give a hook) whole and exact, without node:net', () => {
    for (const text of ['{"session_id":"s"}', BIG]) {
      const r = spawnSync(process.execPath, [probeFile()], { input: text, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      expect(r.stderr).toBe('');
      const got = parse(r.stdout);
      expect(got.text?.length).toBe(text.length);
      expect(got.text === text).toBe(true);
      expect(got.net).toBe(false);
    }
  });

  it('reads a shell pipe and a redirected file whole, without node:net', () => {
    const file = join(tempDir(), 'in.json');
    writeFileSync(file, BIG);
    const piped = spawnSync('sh', ['-c', `cat "${file}" | "${process.execPath}" "${probeFile()}"`], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    const fd = openSync(file, 'r');
    let redirected: SpawnSyncReturns<string>;
    try {
      redirected = spawnSync(process.execPath, [probeFile()], { stdio: [fd, 'pipe', 'pipe'], encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    } finally {
      closeSync(fd);
    }
    for (const r of [piped, redirected]) {
      expect(r.stderr).toBe('');
      const got = parse(r.stdout);
      expect(got.text === BIG).toBe(true);
      expect(got.net).toBe(false);
    }
  });

  it('gives an empty text for /dev/null (where Node also puts a closed fd 0)', () => {
    const devNull = spawnSync(process.execPath, [probeFile()], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    const closed = spawnSync('sh', ['-c', `exec 0<&-; "${process.execPath}" "${probeFile()}"`], { encoding: 'utf8' });
    for (const r of [devNull, closed]) expect(parse(r.stdout)).toEqual({ text: '', net: false });
  });

  it('leaves a directory on fd 0 to process.stdin: nothing read or an error, never an abort', () => {
    const dir = tempDir();
    const fd = openSync(dir, 'r');
    let r: SpawnSyncReturns<string>;
    try {
      r = spawnSync(process.execPath, [probeFile()], { stdio: [fd, 'pipe', 'pipe'], encoding: 'utf8' });
    } finally {
      closeSync(fd);
    }
    expect(r.signal).toBeNull(); // libuv's pipe handle would abort on it (SIGABRT)
    expect(r.status).toBe(0);
    const got = JSON.parse(r.stdout) as { text?: string | null; error?: string };
    expect(got.text === '' || typeof got.error === 'string').toBe(true);
  });

  it('does not read a file over the cap (it has no writer to drain)', () => {
    const file = join(tempDir(), 'big.json');
    const fd = openSync(file, 'w');
    ftruncateSync(fd, 64 * 1024 * 1024); // sparse
    closeSync(fd);
    const input = openSync(file, 'r');
    try {
      const r = spawnSync(process.execPath, [probeFile()], { stdio: [input, 'pipe', 'pipe'], env: { ...process.env, PROBE_MAX: '100000' }, encoding: 'utf8' });
      expect(parse(r.stdout)).toEqual({ text: null, net: false });
    } finally {
      closeSync(input);
    }
  });

  it('drains an input over the cap and gives undefined', () => {
    const r = spawnSync(process.execPath, [probeFile()], { input: BIG, env: { ...process.env, PROBE_MAX: '100000' }, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(parse(r.stdout).text).toBeNull();
  });

  it('falls back to process.stdin under --pending-deprecation, with no warning', () => {
    for (const how of [
      { args: ['--pending-deprecation', probeFile()], env: {} },
      { args: [probeFile()], env: { NODE_OPTIONS: '--pending-deprecation' } },
    ]) {
      const r = spawnSync(process.execPath, how.args, { input: BIG, env: { ...process.env, ...how.env }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      expect(r.stderr).toBe('');
      const got = parse(r.stdout);
      expect(got.text === BIG).toBe(true);
      expect(got.net).toBe(true);
    }
  });

  it('does not hold up the exit when stdin is never closed', async () => {
    const child = spawn(process.execPath, [probeFile()], { env: { ...process.env, PROBE_EXIT_MS: '300' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stdin.write('{"session_id":'); // half an input; the pipe stays open
    const code = await new Promise<number | null | 'still running'>((resolve) => {
      const timer = setTimeout(() => resolve('still running'), 8_000);
      child.on('exit', (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    child.stdin.destroy();
    child.kill();
    expect(code).toBe(0);
    expect(stdout).toBe('timer, net false'); // ended by its own timer, on the fast path
  });
});
