// lib/runtime/store.ts: atomic writes leave no temp files, appends from many processes stay whole
// lines, the cross-process lock serialises the transcript cursor (checked with the compiled hooks as
// real processes), stale locks are recovered, and the project root follows git and worktrees.
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { projectMemory, writeProjectFile } from '../../lib/phase/project-memory.ts';
import { OWNERLESS_MS, processGone, STALE_MS, thisProcess } from '../../lib/runtime/lock.ts';
import { cwdOption, findProjectRoot, openStore, removeStaleTemps, writeFileAtomic } from '../../lib/runtime/store.ts';
import { advanceTranscript } from '../../lib/transcript/reader.ts';
import { captureLogger } from './helpers/logger.ts';
import { fixturePath } from './helpers/manifest.ts';
import { baseEnv, readLog, runHookAsync, runHookSync, validInput } from './helpers/proc.ts';
import { useTempDirs } from './helpers/tmp.ts';

const tempDir = useTempDirs('ctxl-store-');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('writeFileAtomic and writeJson', () => {
  it('leaves only the target file after many writes', () => {
    const dir = tempDir();
    const file = join(dir, 'state.json');
    for (let i = 0; i < 50; i++) writeFileAtomic(file, `{"i":${i}}\n`);
    expect(readdirSync(dir)).toEqual(['state.json']);
    expect(readFileSync(file, 'utf8')).toBe('{"i":49}\n');
  });

  it('removes its temp file when the rename fails', () => {
    const dir = tempDir();
    const target = join(dir, 'occupied');
    mkdirSync(join(target, 'child'), { recursive: true });
    expect(() => writeFileAtomic(target, 'x')).toThrow();
    expect(readdirSync(dir)).toEqual(['occupied']);
  });

  it('writes private files in private folders', () => {
    const root = tempDir();
    const store = openStore(join(root, 'data'), captureLogger());
    const file = store.path('sessions', 's1', 'session.json');
    store.writeJson(file, { version: 1 });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(root, 'data', 'sessions', 's1')).mode & 0o777).toBe(0o700);
    expect(readFileSync(file, 'utf8')).toBe('{"version":1}\n');
  });
});

describe('store.path', () => {
  it('keeps every hostile segment inside the root', () => {
    const root = resolve(tempDir());
    const store = openStore(root, captureLogger());
    for (const seg of ['../../x', '..', '/etc/passwd', '', '.', 'a/../../../b']) {
      const p = store.path('sessions', seg, 'session.json');
      expect(p.startsWith(join(root, 'sessions'))).toBe(true);
      expect(p.endsWith('session.json')).toBe(true);
      expect(p.split('/').filter((s) => s === '..')).toEqual([]);
    }
  });
});

describe('readJson and setAside', () => {
  const schema = z.object({ version: z.literal(1), n: z.number() });

  it('tells missing, corrupt, invalid and ok apart', () => {
    const store = openStore(tempDir(), captureLogger());
    const file = store.path('f.json');
    expect(store.readJson(file, schema)).toEqual({ ok: false, reason: 'missing' });
    writeFileSync(file, '{"version":1,');
    expect(store.readJson(file, schema)).toMatchObject({ ok: false, reason: 'corrupt' });
    writeFileSync(file, '{"version":2,"n":1}');
    expect(store.readJson(file, schema)).toMatchObject({ ok: false, reason: 'invalid' });
    writeFileSync(file, '{"version":1,"n":7}');
    expect(store.readJson(file, schema)).toEqual({ ok: true, value: { version: 1, n: 7 } });
  });

  it('builds a schema given as a function only for a file that is there and parses', () => {
    const store = openStore(tempDir(), captureLogger());
    const file = store.path('f.json');
    let built = 0;
    const lazy = () => {
      built += 1;
      return schema;
    };
    expect(store.readJson(file, lazy)).toEqual({ ok: false, reason: 'missing' });
    writeFileSync(file, '{"version":1,');
    expect(store.readJson(file, lazy)).toMatchObject({ ok: false, reason: 'corrupt' });
    expect(built).toBe(0);
    writeFileSync(file, '{"version":2,"n":1}');
    expect(store.readJson(file, lazy)).toMatchObject({ ok: false, reason: 'invalid' });
    writeFileSync(file, '{"version":1,"n":7}');
    expect(store.readJson(file, lazy)).toEqual({ ok: true, value: { version: 1, n: 7 } });
    expect(built).toBe(2);
  });

  it('moves a bad file aside and keeps its content', () => {
    const dir = tempDir();
    const store = openStore(dir, captureLogger());
    const file = store.path('f.json');
    writeFileSync(file, 'garbage');
    const aside = store.setAside(file, new Date('2026-11-29T10:00:00.000Z'));
    expect(aside).toBe(`${file}.bad-2026-11-29T10-00-00-000Z`);
    expect(readFileSync(aside as string, 'utf8')).toBe('garbage');
    expect(readdirSync(dir)).toEqual(['f.json.bad-2026-11-29T10-00-00-000Z']);
  });
});

describe('appendLine', () => {
  it('appends one whole line per record', () => {
    const store = openStore(tempDir(), captureLogger());
    const file = store.path('sessions', 's', 'events.jsonl');
    for (let i = 0; i < 500; i++) store.appendLine(file, { i, pad: 'p'.repeat(i) });
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '');
    expect(lines).toHaveLength(500);
    expect(lines.map((l) => (JSON.parse(l) as { i: number }).i)).toEqual([...Array(500).keys()]);
  });

  it('20 concurrent PostToolUse processes append 20 whole, valid lines', async () => {
    const home = tempDir();
    const data = join(home, 'data');
    const env = baseEnv(home, { CTXL_HOME: data });
    const runs = Array.from({ length: 20 }, (_, i) => {
      const input = JSON.parse(validInput('post-tool-use', { sessionId: 'many', cwd: home, transcriptPath: join(home, 't.jsonl') })) as Record<string, unknown>;
      input.tool_use_id = `toolu_${i}`;
      input.tool_input = { command: `echo ${String(i).repeat(3000)}` };
      input.tool_response = { stdout: 'o'.repeat(5000 + i), stderr: '' };
      return runHookAsync('post-tool-use', JSON.stringify(input), env);
    });
    const results = await Promise.all(runs);
    for (const r of results) {
      expect(r.status).toBe(0);
      expect(r.stdout).toBe('');
    }
    const text = readFileSync(join(data, 'sessions', 'many', 'events.jsonl'), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.split('\n').filter((l) => l !== '');
    expect(lines).toHaveLength(20);
    const records = lines.map((l) => JSON.parse(l) as { id: string; outBytes: number });
    expect(records.map((r) => r.id).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `toolu_${i}`).sort());
    for (const r of records) expect(r.outBytes).toBe(5000 + Number(r.id.slice(6)));
  }, 60_000);
});

describe('withLock in one process', () => {
  it('runs contending callers one at a time', async () => {
    const store = openStore(tempDir(), captureLogger());
    const file = store.path('sessions', 's', 'cursor.json');
    let active = 0;
    let maxActive = 0;
    const order: number[] = [];
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        store.withLock(
          file,
          async () => {
            active += 1;
            maxActive = Math.max(maxActive, active);
            await sleep(20);
            order.push(i);
            active -= 1;
            return i;
          },
          { waitMs: 5_000 },
        ),
      ),
    );
    expect(maxActive).toBe(1);
    expect(results).toEqual([0, 1, 2, 3, 4]);
    expect(order.sort()).toEqual([0, 1, 2, 3, 4]);
  });

  it('gives up after waitMs on a lock that is held and fresh, and says so in the log', async () => {
    const log = captureLogger();
    const store = openStore(tempDir(), log);
    const file = store.path('sessions', 's', 'cursor.json');
    mkdirSync(`${file}.lock`, { recursive: true });
    let ran = false;
    const result = await store.withLock(
      file,
      () => {
        ran = true;
        return 1;
      },
      { waitMs: 100 },
    );
    expect(result).toBeUndefined();
    expect(ran).toBe(false);
    expect(log.lines.some((l) => l.level === 'warn' && /lock busy/.test(l.message))).toBe(true);
  });

  it('recovers a stale lock (a lock dir older than STALE_MS) and releases it afterwards', async () => {
    const store = openStore(tempDir(), captureLogger());
    const file = store.path('sessions', 's', 'cursor.json');
    mkdirSync(`${file}.lock`, { recursive: true });
    const old = new Date(Date.now() - STALE_MS - 5_000);
    utimesSync(`${file}.lock`, old, old);
    const result = await store.withLock(file, () => 'ran', { waitMs: 500 });
    expect(result).toBe('ran');
    expect(readdirSync(join(file, '..'))).not.toContain('cursor.json.lock');
  });

  it('takes over a lock folder left without an owner (killed between the mkdir and the owner write) after OWNERLESS_MS, not before', async () => {
    const store = openStore(tempDir(), captureLogger());
    const file = store.path('sessions', 's', 'cursor.json');
    for (const owner of [undefined, '', '{"pid":12']) {
      mkdirSync(`${file}.lock`, { recursive: true });
      if (owner !== undefined) writeFileSync(join(`${file}.lock`, 'owner'), owner);
      // Just made: its maker may be about to write the owner.
      expect(await store.withLock(file, () => 'ran', { waitMs: 50 })).toBeUndefined();
      // An unreadable owner file is a write in progress until it is as old as the folder's limit
      // (a killed maker's file is made microseconds after its folder).
      const old = new Date(Date.now() - OWNERLESS_MS - 1_000);
      utimesSync(`${file}.lock`, old, old);
      if (owner !== undefined) {
        expect(await store.withLock(file, () => 'ran', { waitMs: 50 })).toBeUndefined();
        utimesSync(join(`${file}.lock`, 'owner'), old, old);
        utimesSync(`${file}.lock`, old, old);
      }
      expect(await store.withLock(file, () => 'ran', { waitMs: 50 })).toBe('ran');
      expect(readdirSync(join(file, '..'))).not.toContain('cursor.json.lock');
    }
    expect(OWNERLESS_MS).toBeLessThan(STALE_MS / 10);
  });

  it('takes over at once a fresh lock whose owner process is gone (killed with -9)', async () => {
    const store = openStore(tempDir(), captureLogger());
    const file = store.path('sessions', 's', 'cursor.json');
    const dead = spawnSync(process.execPath, ['-e', '']).pid as number;
    mkdirSync(`${file}.lock`, { recursive: true });
    writeFileSync(join(`${file}.lock`, 'owner'), JSON.stringify({ pid: dead, host: hostname(), at: Date.now() }));
    expect(await store.withLock(file, () => 'ran', { waitMs: 50 })).toBe('ran');
  });

  // Where init does not reap (a container whose first process is no init), a killed process stays a
  // zombie, and kill(pid, 0) still finds it.
  it.runIf(existsSync('/proc/self/stat'))('takes over at once a lock whose owner exited but was not reaped (a zombie)', async () => {
    const store = openStore(tempDir(), captureLogger());
    const file = store.path('sessions', 'z', 'cursor.json');
    // `sleep 0.05` is the child of a process that never waits for it: once it exits, a zombie.
    const parent = spawn('sh', ['-c', 'sleep 0.05 & echo $!; exec sleep 5'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const pid = Number(await new Promise<string>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(d.toString()))));
    try {
      const until = Date.now() + 3_000;
      while (Date.now() < until && !readFileSync(`/proc/${pid}/stat`, 'latin1').includes(') Z')) await new Promise((r) => setTimeout(r, 20));
      expect(processGone({ host: thisProcess().host, pid })).toBe(true);
      mkdirSync(`${file}.lock`, { recursive: true });
      writeFileSync(join(`${file}.lock`, 'owner'), JSON.stringify({ pid, host: hostname(), at: Date.now() }));
      expect(await store.withLock(file, () => 'ran', { waitMs: 50 })).toBe('ran');
      expect(processGone({ host: thisProcess().host, pid: parent.pid as number })).toBe(false); // alive
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('waits for a live owner and gives up after waitMs', async () => {
    const store = openStore(tempDir(), captureLogger());
    const file = store.path('busy.json');
    mkdirSync(`${file}.lock`, { recursive: true });
    writeFileSync(join(`${file}.lock`, 'owner'), JSON.stringify({ pid: process.ppid, host: hostname(), at: Date.now() }));
    expect(await store.withLock(file, () => 'ran', { waitMs: 100 })).toBeUndefined();
  });

  it('releases the lock when the function throws', async () => {
    const store = openStore(tempDir(), captureLogger());
    const file = store.path('x.json');
    await expect(
      store.withLock(file, () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await store.withLock(file, () => 2, { waitMs: 100 })).toBe(2);
  });
});

describe('the transcript cursor under contention (compiled Stop hooks)', () => {
  /** Count non-blank lines in the first `offset` bytes. */
  const linesBefore = (bytes: Buffer, offset: number) =>
    bytes
      .subarray(0, offset)
      .toString('utf8')
      .split('\n')
      .filter((l) => l.trim() !== '').length;

  it('concurrent Stop runs on one session while the transcript grows: cursor monotonic, never double counted, ends at the file end', async () => {
    const home = tempDir();
    const data = join(home, 'data');
    const env = baseEnv(home, { CTXL_HOME: data });
    const full = readFileSync(fixturePath('d-kimuson__claude-code-viewer/fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl'));
    const transcript = join(home, 'transcript.jsonl');
    const cursorFile = join(data, 'sessions', 'contended', 'cursor.json');
    const input = validInput('stop', { sessionId: 'contended', cwd: home, transcriptPath: transcript });

    // Arbitrary byte cuts: some runs see torn lines.
    const cuts = [50_000, 123_457, 250_001, 400_003, 555_555, 690_001, full.length];
    writeFileSync(transcript, full.subarray(0, 20_000));
    const seen: Array<{ offset: number; lines: number }> = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        try {
          const c = JSON.parse(readFileSync(cursorFile, 'utf8')) as { offset: number; lines: number };
          const last = seen.at(-1);
          if (last === undefined || last.offset !== c.offset || last.lines !== c.lines) seen.push({ offset: c.offset, lines: c.lines });
        } catch {}
        await sleep(1);
      }
    })();
    const runs: Array<Promise<unknown>> = [];
    let at = 20_000;
    for (const cut of cuts) {
      for (let k = 0; k < 3; k++) runs.push(runHookAsync('stop', input, env));
      await sleep(150);
      appendFileSync(transcript, full.subarray(at, cut));
      at = cut;
    }
    expect(at).toBe(full.length);
    const results = (await Promise.all(runs)) as Array<{ status: number | null; stdout: string }>;
    for (const r of results) {
      expect(r.status).toBe(0);
      expect(r.stdout).toBe('');
    }
    const final = runHookSync('stop', input, env);
    expect(final.status).toBe(0);
    await sleep(5);
    polling = false;
    await poller;

    const cursor = JSON.parse(readFileSync(cursorFile, 'utf8')) as { offset: number; lines: number; bad: number; context: unknown };
    expect(cursor.offset).toBe(full.length);
    expect(cursor.lines).toBe(438);
    expect(cursor.bad).toBe(0);
    const once = await advanceTranscript(transcript, undefined);
    expect(cursor.context).toEqual(once.cursor.context);

    expect(seen.length).toBeGreaterThan(1);
    for (let i = 1; i < seen.length; i++) {
      expect(seen[i]?.offset).toBeGreaterThanOrEqual(seen[i - 1]?.offset ?? 0);
      expect(seen[i]?.lines).toBeGreaterThanOrEqual(seen[i - 1]?.lines ?? 0);
    }
    // Every saved cursor counted exactly the lines before its offset: nothing read twice or skipped.
    for (const s of seen) expect(s.lines).toBe(linesBefore(full, s.offset));

    const problems = readLog(data).filter((l) => l.level === 'error' || /lock/.test(l.msg));
    expect(problems).toEqual([]);
  }, 90_000);

  /** A Stop run on the crud fixture with an ownerless cursor lock folder `ageMs` old: the cursor it saved. */
  function stopPastLock(sessionId: string, ageMs: number) {
    const home = tempDir();
    const data = join(home, 'data');
    const transcript = join(home, 'transcript.jsonl');
    copyFileSync(fixturePath('tomjnsn__agentlogs/crud.jsonl'), transcript);
    const lockDir = join(data, 'sessions', sessionId, 'cursor.json.lock');
    mkdirSync(lockDir, { recursive: true });
    const old = new Date(Date.now() - ageMs);
    utimesSync(lockDir, old, old);
    const r = runHookSync('stop', validInput('stop', { sessionId, cwd: home, transcriptPath: transcript }), baseEnv(home, { CTXL_HOME: data }));
    expect(r.status).toBe(0);
    // Waited out, the lock would have been skipped ("lock busy"), the cursor never written.
    const cursor = JSON.parse(readFileSync(join(data, 'sessions', sessionId, 'cursor.json'), 'utf8')) as { offset: number };
    expect(cursor.offset).toBe(statSync(transcript).size);
    expect(readdirSync(join(data, 'sessions', sessionId))).not.toContain('cursor.json.lock');
    expect(readLog(data).filter((l) => /lock busy/.test(l.msg))).toEqual([]);
  }

  it('a Stop run takes over at once a cursor lock left without an owner a few seconds ago, and archives', () => {
    stopPastLock('ownerless', OWNERLESS_MS + 1_000);
  });

  it('a Stop run recovers a stale cursor lock left by a killed process', () => {
    stopPastLock('stale', STALE_MS + 5_000);
  });
});

describe('temporary files of killed writers', () => {
  it('are removed from L3 when the next file is written there, and by reindex from a session: ours and old only', () => {
    const root = tempDir();
    const memory = { root: join(root, 'docs', 'memory'), projectRoot: root };
    const decisions = join(memory.root, 'decisions');
    mkdirSync(decisions, { recursive: true });
    const old = join(decisions, 'D-1.md.4242.3.mi4x8k2z.tmp');
    const fresh = join(decisions, 'D-2.md.4243.1.mi4x8k30.tmp');
    const users = [join(decisions, 'notes.tmp'), join(decisions, 'notes.2024.10.15.tmp'), join(decisions, 'export.1.2.final.tmp')];
    for (const f of [old, fresh, ...users]) writeFileSync(f, 'x');
    const then = (Date.now() - 20 * 60_000) / 1000;
    for (const f of [old, ...users]) utimesSync(f, then, then);
    expect(writeProjectFile(memory, 'decisions/D-3.md', 'text', captureLogger())).toBe(join('docs', 'memory', 'decisions', 'D-3.md'));
    expect(existsSync(old)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    for (const f of users) expect(existsSync(f), f).toBe(true);
    // The same rule for a data folder.
    const dir = join(root, 'jobs');
    mkdirSync(dir);
    writeFileSync(join(dir, 'j.json.1.1.mi4x8k2z.tmp'), 'x');
    utimesSync(join(dir, 'j.json.1.1.mi4x8k2z.tmp'), then, then);
    expect(removeStaleTemps(dir, Date.now())).toBe(1);
  });
});

describe('findProjectRoot', () => {
  it('finds the git top level from a subfolder', () => {
    const root = tempDir();
    mkdirSync(join(root, 'repo', '.git'), { recursive: true });
    mkdirSync(join(root, 'repo', 'src', 'deep'), { recursive: true });
    expect(findProjectRoot(join(root, 'repo', 'src', 'deep'))).toEqual({ root: join(root, 'repo'), git: true });
    expect(findProjectRoot(join(root, 'repo'))).toEqual({ root: join(root, 'repo'), git: true });
  });

  it("takes a Windows path read elsewhere as the project it names, not as a path under this process's folder", () => {
    if (process.platform === 'win32') return;
    expect(findProjectRoot('C:\\Users\\Bob\\proj\\')).toEqual({ root: 'C:\\Users\\Bob\\proj', git: false });
    expect(findProjectRoot('D:/src/app')).toEqual({ root: 'D:/src/app', git: false });
    expect(findProjectRoot('\\\\server\\share\\proj')).toEqual({ root: '\\\\server\\share\\proj', git: false });
    // As a --cwd value too (not resolved under this folder), and no L3 is written into such a project.
    expect(cwdOption('C:\\Users\\Bob\\proj')).toBe('C:\\Users\\Bob\\proj');
    expect(cwdOption('sub')).toBe(resolve('sub'));
    expect(projectMemory('C:\\Users\\Bob\\proj', { projectMemory: true, projectMemoryDir: 'docs/memory' })).toBeUndefined();
  });

  it('maps a worktree (a .git file naming <main>/.git/worktrees/<name>) to the main repository', () => {
    const root = tempDir();
    const main = join(root, 'main');
    mkdirSync(join(main, '.git', 'worktrees', 'feature'), { recursive: true });
    const wt = join(root, 'wt-feature');
    mkdirSync(join(wt, 'src'), { recursive: true });
    writeFileSync(join(wt, '.git'), `gitdir: ${join(main, '.git', 'worktrees', 'feature')}\n`);
    expect(findProjectRoot(join(wt, 'src'))).toEqual({ root: main, git: true });
  });

  it('understands a relative gitdir in a worktree .git file', () => {
    const root = tempDir();
    const main = join(root, 'main');
    mkdirSync(join(main, '.git', 'worktrees', 'x'), { recursive: true });
    const wt = join(root, 'wt');
    mkdirSync(wt);
    writeFileSync(join(wt, '.git'), 'gitdir: ../main/.git/worktrees/x\n');
    expect(findProjectRoot(wt)).toEqual({ root: main, git: true });
  });

  it('keeps a submodule (a .git file that is not a worktree) as its own root', () => {
    const root = tempDir();
    const sub = join(root, 'super', 'sub');
    mkdirSync(join(root, 'super', '.git', 'modules', 'sub'), { recursive: true });
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, '.git'), 'gitdir: ../.git/modules/sub\n');
    expect(findProjectRoot(sub)).toEqual({ root: sub, git: true });
  });

  it('falls back to the directory itself without git', () => {
    const root = tempDir();
    const dir = join(root, 'plain', 'x');
    mkdirSync(dir, { recursive: true });
    expect(findProjectRoot(dir)).toEqual({ root: dir, git: false });
  });
});
