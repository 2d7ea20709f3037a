// dist/*.mjs run their bundle through V8's code cache (lib/runtime/code-cache.ts): the first run
// writes <data>/cache/code/<name>-<hash>-<node>-<arch>.bin, later runs use it, and no state of the
// cache (missing, corrupt, truncated, unwritable, switched off) changes what a hook or the CLI does.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CODE_CACHE_DIR, codeCachePath } from '../../lib/runtime/code-cache.ts';
import { distDir } from './helpers/paths.ts';
import { baseEnv, runCli, runHookSync, validInput } from './helpers/proc.ts';
import { useTempDirs } from './helpers/tmp.ts';

const tempDir = useTempDirs('ctxl-code-cache-');
// SessionStart answers on every run, so two runs can be compared.
const HOOK = 'session-start';

function setup(extra: Record<string, string> = {}) {
  const home = tempDir();
  const data = join(home, 'data');
  const env = baseEnv(home, { CTXL_HOME: data, ...extra });
  const cacheDir = join(data, CODE_CACHE_DIR);
  // Every run starts from the same state: a data dir holding only the code cache.
  const run = () => {
    if (existsSync(data)) for (const f of readdirSync(data)) if (f !== 'cache') rmSync(join(data, f), { recursive: true, force: true });
    return runHookSync(HOOK, validInput(HOOK, { sessionId: 'sess-1', cwd: home, transcriptPath: join(home, 't.jsonl') }), env);
  };
  const caches = () => (existsSync(cacheDir) ? readdirSync(cacheDir).sort() : []);
  return { home, data, env, cacheDir, run, caches };
}

/** The hash the build gave a dist file's program (the file holds it as `hash:"…"`). */
function builtHash(name: string): string {
  const hash = /"?hash"?:"([0-9a-f]{16})"/.exec(readFileSync(join(distDir, `${name}.mjs`), 'utf8'))?.[1];
  if (hash === undefined) throw new Error(`no program hash in dist/${name}.mjs`);
  return hash;
}

const expectSameAnswer = (a: { status: number | null; stdout: string; stderr: string }, b: typeof a) => {
  expect(b.status).toBe(0);
  expect(b.stderr).toBe('');
  expect(b.stdout).toBe(a.stdout);
};

describe('code cache', () => {
  it('the first run writes the cache, named by program hash, Node version and architecture; the next uses it and leaves it alone', () => {
    const s = setup();
    const first = s.run();
    expect(first.status).toBe(0);
    expect(first.stderr).toBe('');
    const expected = codeCachePath(s.env, { name: HOOK, hash: builtHash(HOOK) }) as string;
    expect(s.caches()).toEqual([expected.slice(s.cacheDir.length + 1)]);
    expect(expected).toContain(`-${process.version}-${process.arch}.bin`);
    const before = statSync(expected);
    expect(before.size).toBeGreaterThan(10_000);
    expect(before.mode & 0o777).toBe(0o600);
    const second = s.run();
    expectSameAnswer(first, second);
    const after = statSync(expected);
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it('a corrupt or truncated cache is rejected by V8, the program compiles as before and the cache is rewritten', () => {
    const s = setup();
    const good = s.run();
    const [name] = s.caches();
    const file = join(s.cacheDir, name as string);
    const bytes = readFileSync(file);
    for (const bad of [Buffer.from('not a code cache'), bytes.subarray(0, bytes.length >> 1), Buffer.alloc(bytes.length, 0x5a)]) {
      writeFileSync(file, bad);
      expectSameAnswer(good, s.run());
      const rewritten = readFileSync(file);
      expect(rewritten.length).toBeGreaterThan(10_000);
      expect(rewritten.equals(bad)).toBe(false);
    }
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

  it('works without a writable cache folder and with CTXL_CODE_CACHE=0, which writes none', () => {
    const blocked = setup();
    mkdirSync(join(blocked.data, 'cache'), { recursive: true });
    writeFileSync(join(blocked.data, CODE_CACHE_DIR), 'a file where the folder should be');
    const a = blocked.run();
    expect(a.status).toBe(0);
    expect(a.stderr).toBe('');
    expect(a.stdout).not.toBe('');
    const off = setup({ CTXL_CODE_CACHE: '0' });
    expectSameAnswer(a, off.run());
    expect(existsSync(join(off.data, 'cache'))).toBe(false);
  });

  it('a new build replaces its own older caches and leaves other programs’ alone', () => {
    const s = setup();
    mkdirSync(s.cacheDir, { recursive: true });
    const stale = `${HOOK}-0123456789abcdef-${process.version}-${process.arch}.bin`;
    const oldNode = `${HOOK}-${builtHash(HOOK)}-v18.0.0-${process.arch}.bin`;
    const other = `${HOOK}-extra-0123456789abcdef-${process.version}-${process.arch}.bin`;
    const cli = `cli-0123456789abcdef-${process.version}-${process.arch}.bin`;
    for (const f of [stale, oldNode, other, cli]) writeFileSync(join(s.cacheDir, f), 'old');
    s.run();
    const now = s.caches();
    expect(now).not.toContain(stale);
    expect(now).not.toContain(oldNode);
    expect(now).toEqual(expect.arrayContaining([other, cli]));
    expect(now).toHaveLength(3);
  });

  it('the CLI runs through it too, with its exit codes unchanged', () => {
    const s = setup();
    mkdirSync(s.data);
    const v1 = runCli(['--version'], s.env, s.home);
    const v2 = runCli(['--version'], s.env, s.home);
    expect([v1.status, v2.status]).toEqual([0, 0]);
    expect(v2.stdout).toBe(v1.stdout);
    expect(s.caches().some((f) => f.startsWith(`cli-${builtHash('cli')}-`))).toBe(true);
    const bad = runCli(['no-such-command'], s.env, s.home);
    expect(bad.status).toBe(2);
    expect(bad.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });
});
