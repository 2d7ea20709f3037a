// dist/*.mjs run their bundle through V8's code cache (lib/runtime/code-cache.ts): the first run
// writes <data>/cache/code/<name>-<hash>-<node>-<arch>-<variant>.bin, later runs use it, and no
// state of the cache (missing, damaged anywhere, foreign, another user's, unwritable, switched off)
// changes what a hook or the CLI does.
import { spawnSync } from 'node:child_process';
import { chownSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODE_CACHE_DIR, codeCachePath, PROGRAMS_DIR } from '../../lib/runtime/code-cache.ts';
import { distDir } from './helpers/paths.ts';
import { baseEnv, readLog, runCli, runHookSync, validInput } from './helpers/proc.ts';
import { useTempDirs } from './helpers/tmp.ts';

const tempDir = useTempDirs('ctxl-code-cache-');
// SessionStart answers on every run, so two runs can be compared.
const HOOK = 'session-start';

function setup(extra: Record<string, string> = {}) {
  const home = tempDir();
  const data = join(home, 'data');
  const env = baseEnv(home, { CTXL_HOME: data, ...extra });
  const cacheDir = join(data, CODE_CACHE_DIR);
  const input = validInput(HOOK, { sessionId: 'sess-1', cwd: home, transcriptPath: join(home, 't.jsonl') });
  // Every run starts from the same state: a data dir holding only the code cache.
  const clean = () => {
    if (existsSync(data)) for (const f of readdirSync(data)) if (f !== 'cache') rmSync(join(data, f), { recursive: true, force: true });
  };
  const run = () => {
    clean();
    return runHookSync(HOOK, input, env);
  };
  /** The hook as `node <flags> <file>`. */
  const runWith = (flags: string[], file = join(distDir, `${HOOK}.mjs`)) => {
    clean();
    const r = spawnSync(process.execPath, [...flags, file], { input, env, cwd: home, encoding: 'utf8', timeout: 15_000 });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const caches = () => (existsSync(cacheDir) ? readdirSync(cacheDir).sort() : []);
  return { home, data, env, cacheDir, run, runWith, caches };
}

/** The hash the build gave program `name` of loader dist/<loader>.mjs (it holds `name:"…",hash:"…"`). */
function builtHash(name: string, loader = name): string {
  const hash = new RegExp(`name:"${name}",hash:"([0-9a-f]{16})"`).exec(readFileSync(join(distDir, `${loader}.mjs`), 'utf8'))?.[1];
  if (hash === undefined) throw new Error(`no hash of program ${name} in dist/${loader}.mjs`);
  return hash;
}

/** The file of program `name` (run by dist/<loader>.mjs). */
const programOf = (name: string, loader = name) => join(distDir, PROGRAMS_DIR, `${name}-${builtHash(name, loader)}.js`);

/** The cache a plain `node dist/<loader>.mjs [command]` uses when it runs program `name`. */
function expectedCache(env: NodeJS.ProcessEnv, name: string, loader = name, command?: string): string {
  const st = statSync(programOf(name, loader));
  return codeCachePath(env, { name, hash: builtHash(name, loader) }, { size: st.size, mtimeMs: st.mtimeMs, execArgv: [], command }) as string;
}

const expectSameAnswer = (a: { status: number | null; stdout: string; stderr: string }, b: typeof a) => {
  expect(b.stderr).toBe('');
  expect(b.status).toBe(0);
  expect(b.stdout).toBe(a.stdout);
};

describe('code cache', () => {
  it('the first run writes the cache, named by build, Node version, architecture and variant; the next uses it and leaves it alone', () => {
    const s = setup();
    const first = s.run();
    expect(first.status).toBe(0);
    expect(first.stderr).toBe('');
    const expected = expectedCache(s.env, HOOK);
    expect(s.caches()).toEqual([expected.slice(s.cacheDir.length + 1)]);
    expect(expected).toMatch(new RegExp(`-${process.version.replace(/\./g, '\\.')}-${process.arch}-[0-9a-f]{8}\\.bin$`));
    const before = statSync(expected);
    expect(before.size).toBeGreaterThan(10_000);
    expect(before.mode & 0o777).toBe(0o600);
    expect(statSync(s.cacheDir).mode & 0o777).toBe(0o700);
    const second = s.run();
    expectSameAnswer(first, second);
    const after = statSync(expected);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it('a cache damaged anywhere (header, either copy of the payload, truncated) is not used: same answer, cache rewritten', () => {
    const s = setup();
    const good = s.run();
    const file = expectedCache(s.env, HOOK);
    const bytes = readFileSync(file);
    const payload = (bytes.length - 12) / 2;
    const flipped = (offsets: number[]) => {
      const b = Buffer.from(bytes);
      for (const at of offsets) for (let k = 0; k < 8; k++) b[at + k] = (b[at + k] as number) ^ 0xff;
      return b;
    };
    const damaged = [
      Buffer.from('not a code cache'),
      bytes.subarray(0, bytes.length >> 1),
      bytes.subarray(0, bytes.length - 1),
      flipped([0]),
      flipped([40, 2000]), // the first copy only: V8's own check would pass it and crash
      flipped([12 + payload + 5000]), // the second copy only
    ];
    // (The same change made to both copies on purpose is not damage but tampering, by someone who
    // can write to the user's own 0700 data dir: they could as well edit the hooks themselves.)
    for (const bad of damaged) {
      writeFileSync(file, bad);
      expectSameAnswer(good, s.run());
      const rewritten = readFileSync(file);
      expect(rewritten.equals(bad)).toBe(false);
      expect(rewritten.length).toBeGreaterThan(10_000);
    }
  });

  it.runIf(process.getuid?.() === 0)('another user’s cache is not used (root only: it can hand a file to another uid)', () => {
    const s = setup();
    const good = s.run();
    const file = expectedCache(s.env, HOOK);
    chownSync(file, 12345, 12345);
    expectSameAnswer(good, s.run());
    expect(statSync(file).uid).toBe(0);
  });

  it('runs under other Node flags keep a cache each instead of rewriting one another’s', () => {
    const s = setup();
    const plain = s.runWith([]);
    const flagged = s.runWith(['--max-semi-space-size=1']);
    expectSameAnswer(plain, flagged);
    const files = s.caches();
    expect(files).toHaveLength(2);
    const before = files.map((f) => statSync(join(s.cacheDir, f)).ino);
    expectSameAnswer(plain, s.runWith([]));
    expectSameAnswer(plain, s.runWith(['--max-semi-space-size=1']));
    expect(s.caches()).toEqual(files);
    expect(files.map((f) => statSync(join(s.cacheDir, f)).ino)).toEqual(before);
  });

  it('a program with CRLF line breaks still runs; a missing or truncated one fails silently (hook) or with one line (CLI)', () => {
    const s = setup();
    const good = s.run();
    /** The loader of `name` copied into a fresh folder, with its program as `program` makes it (or none). */
    const install = (name: string, program: ((text: string) => string) | undefined) => {
      const dir = tempDir();
      copyFileSync(join(distDir, `${name}.mjs`), join(dir, `${name}.mjs`));
      if (program !== undefined) {
        mkdirSync(join(dir, PROGRAMS_DIR));
        writeFileSync(join(dir, PROGRAMS_DIR, basename(programOf(name))), program(readFileSync(programOf(name), 'utf8')));
      }
      return join(dir, `${name}.mjs`);
    };
    expectSameAnswer(
      good,
      s.runWith(
        [],
        install(HOOK, (text) => text.replace(/\n/g, '\r\n')),
      ),
    );

    for (const [program, why] of [
      [undefined, /is missing .*reinstall/],
      [(text: string) => text.slice(0, text.length >> 1), /\(a damaged file\?\); reinstall/],
    ] as const) {
      const r = s.runWith([], install(HOOK, program));
      expect([r.status, r.stdout, r.stderr]).toEqual([0, '', '']);
      const log = readLog(s.data);
      expect(log).toHaveLength(1);
      expect(log[0]?.msg).toMatch(new RegExp(`could not start: .*${why.source}`));
    }

    const c = spawnSync(process.execPath, [install('cli', undefined), '--version'], { env: s.env, encoding: 'utf8' });
    expect(c.status).toBe(1);
    expect(c.stdout).toBe('');
    expect(c.stderr.trim().split('\n')).toHaveLength(1);
    expect(c.stderr).toMatch(/^ctxl: internal error: .*is missing/);
  });

  it('writes nothing where a run writes nothing else: no data dir yet, or CTXL_DISABLE=1', () => {
    const fresh = setup();
    expect(runCli(['no-such-command'], fresh.env, fresh.home).status).toBe(2);
    expect(existsSync(fresh.data)).toBe(false);
    const off = setup({ CTXL_DISABLE: '1' });
    mkdirSync(off.data);
    const r = off.run();
    expect([r.status, r.stdout, r.stderr]).toEqual([0, '', '']);
    expect(readdirSync(off.data)).toEqual([]);
  });

  it('works without a writable cache folder and with CTXL_CODE_CACHE=0 (or off), which writes none', () => {
    const blocked = setup();
    mkdirSync(join(blocked.data, 'cache'), { recursive: true });
    writeFileSync(join(blocked.data, CODE_CACHE_DIR), 'a file where the folder should be');
    const a = blocked.run();
    expect(a.status).toBe(0);
    expect(a.stderr).toBe('');
    expect(a.stdout).not.toBe('');
    for (const value of ['0', 'off']) {
      const off = setup({ CTXL_CODE_CACHE: value });
      expectSameAnswer(a, off.run());
      expect(existsSync(join(off.data, 'cache'))).toBe(false);
    }
  });

  it('removes its other builds’ caches a week after they were written (never at once, never this build’s other variants or another program’s) and temporary files left for an hour', () => {
    const s = setup();
    mkdirSync(s.cacheDir, { recursive: true });
    const v = `${process.version}-${process.arch}-0123abcd`;
    const staleBuild = `${HOOK}-0123456789abcdef-${v}.bin`;
    const recentBuild = `${HOOK}-fedcba9876543210-${v}.bin`;
    const otherProgram = `${HOOK}-extra-0123456789abcdef-${v}.bin`;
    const cli = `cli-0123456789abcdef-${v}.bin`;
    // This build's cache under other flags (or, for the CLI, another command): kept while the build is.
    const sameBuild = `${HOOK}-${builtHash(HOOK)}-${v}.bin`;
    // Temporary files of writers killed midway: one two hours old, one being written right now.
    const killed = `${HOOK}-0123456789abcdef-${v}.bin.4242.abc.tmp`;
    const writing = `cli-0123456789abcdef-${v}.bin.4343.def.tmp`;
    for (const f of [staleBuild, recentBuild, otherProgram, cli, sameBuild, killed, writing]) writeFileSync(join(s.cacheDir, f), 'old');
    const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000);
    for (const f of [staleBuild, otherProgram, cli, sameBuild]) utimesSync(join(s.cacheDir, f), eightDaysAgo, eightDaysAgo);
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    utimesSync(join(s.cacheDir, killed), twoHoursAgo, twoHoursAgo);
    s.run();
    const now = s.caches();
    expect(now).not.toContain(staleBuild);
    expect(now).not.toContain(killed);
    expect(now).toEqual(expect.arrayContaining([recentBuild, otherProgram, cli, sameBuild, writing]));
    expect(now).toHaveLength(6);
  });

  it('the CLI runs through it too, with its exit codes unchanged', () => {
    const s = setup();
    mkdirSync(s.data);
    const v1 = runCli(['--version'], s.env, s.home);
    const v2 = runCli(['--version'], s.env, s.home);
    expect([v1.status, v2.status]).toEqual([0, 0]);
    expect(v2.stdout).toBe(v1.stdout);
    expect(s.caches()).toEqual([expectedCache(s.env, 'cli').slice(s.cacheDir.length + 1)]);
    const bad = runCli(['no-such-command'], s.env, s.home);
    expect(bad.status).toBe(2);
    expect(bad.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(s.caches()).toHaveLength(1); // a failed run leaves none
    // Each command keeps its own (a cache holds what its first run compiled), reused by the next run.
    const stamp = () => s.caches().map((f) => `${f}:${statSync(join(s.cacheDir, f)).ino}:${statSync(join(s.cacheDir, f)).mtimeMs}`);
    for (const args of [
      ['status', '--json'],
      ['recall', '--json', '--', 'timeout'],
    ]) {
      const before = s.caches().length;
      expect(runCli(args, s.env, s.home).status).toBe(0);
      expect(s.caches()).toHaveLength(before + 1);
      const written = stamp();
      expect(runCli(args, s.env, s.home).status).toBe(0);
      expect(stamp()).toEqual(written);
    }
    expect(s.caches()).toContain(expectedCache(s.env, 'cli').slice(s.cacheDir.length + 1));
    // The search commands run the small search program, with caches of their own.
    expect(s.caches()).toContain(expectedCache(s.env, 'cli-search', 'cli', 'recall').slice(s.cacheDir.length + 1));
    expect(s.caches()).toContain(expectedCache(s.env, 'cli', 'cli', 'status').slice(s.cacheDir.length + 1));
  });
});
