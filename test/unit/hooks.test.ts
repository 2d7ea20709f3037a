// hooks/*.ts through lib/runtime/hook-runtime.ts, run as the compiled dist/<hook>.mjs processes the way
// Claude Code runs them: stdin JSON in, exit 0 always, stdout only what Claude Code may read, one log
// line per problem, nothing written outside the data dir, circuit breaker and deadline.

import { spawn } from 'node:child_process';
import { appendFileSync, chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pausedSessions } from '../../lib/runtime/breaker.ts';
import { contextTokens } from '../../lib/transcript/context-size.ts';
import { advanceTranscript } from '../../lib/transcript/reader.ts';
import { fixturePath } from './helpers/manifest.ts';
import { distDir, hookInputDir, repoRoot } from './helpers/paths.ts';
import { baseEnv, distHooks, EVENT_OF, type RunResult, readLog, runCli, runHookSync, validInput } from './helpers/proc.ts';
import { listFiles, useTempDirs } from './helpers/tmp.ts';

const tempDir = useTempDirs('ctxl-hooks-');
const HOOKS = distHooks();
const CRUD = fixturePath('tomjnsn__agentlogs/crud.jsonl');
/** The session id the crud fixture's lines carry. */
const crudSessionId = (): string =>
  readFileSync(CRUD, 'utf8')
    .split('\n')
    .map((l) => (l === '' ? undefined : (JSON.parse(l) as { sessionId?: string }).sessionId))
    .find((id) => id !== undefined) as string;

function setup(extraEnv: Record<string, string> = {}) {
  const home = tempDir();
  const data = join(home, 'data');
  const transcript = join(home, 'transcript.jsonl');
  const env = baseEnv(home, { CTXL_HOME: data, ...extraEnv });
  const input = (hook: string, sessionId = 'sess-1') => validInput(hook, { sessionId, cwd: home, transcriptPath: transcript });
  const run = (hook: string, stdin: string | Buffer, moreEnv: Record<string, string> = {}, timeoutMs?: number) =>
    runHookSync(hook, stdin, { ...env, ...moreEnv }, timeoutMs === undefined ? undefined : { timeoutMs });
  return { home, data, transcript, env, input, run, session: (sid = 'sess-1') => join(data, 'sessions', sid) };
}

const expectSilentSuccess = (r: RunResult) => {
  expect(r.signal).toBeNull();
  expect(r.status).toBe(0);
  expect(r.stdout).toBe('');
};

const readJson = <T>(file: string) => JSON.parse(readFileSync(file, 'utf8')) as T;

describe('dist layout', () => {
  it('has one file per hook bound in hooks.json, named after its event', () => {
    const hooksJson = readJson<{ hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> }>(join(repoRoot, 'hooks.json'));
    const bound = Object.entries(hooksJson.hooks).map(([event, groups]) => {
      const file = /dist\/([a-z-]+)\.mjs/.exec(groups[0]?.hooks[0]?.command ?? '')?.[1];
      expect(file, event).toBeDefined();
      expect(EVENT_OF[file as string]).toBe(event);
      return file as string;
    });
    expect(HOOKS).toEqual([...bound].sort());
    expect(HOOKS.length).toBeGreaterThanOrEqual(7);
  });
});

describe('bad input: exit 0, no stdout, exactly one log line naming the problem', () => {
  const BIG = Buffer.alloc(40 * 1024 * 1024, 0x61);
  const cases: Array<[string, (hook: string, home: string) => string | Buffer, RegExp]> = [
    ['garbage', () => 'this is not json {', /not JSON/],
    // Stdin that is not JSON may be a pasted key: none of it reaches the log (the next test's check).
    [
      'a key, not JSON',
      () => 'sk-ant-api03-Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp9Oo8Nn7Mm6 oops',
      /not JSON \(\d+ characters(, invalid at \d+)?\); its text is not logged/,
    ],
    ['empty stdin', () => '', /empty stdin/],
    ['[]', () => '[]', /input rejected/],
    [
      'no session_id',
      (hook, home) => {
        const o = JSON.parse(validInput(hook, { sessionId: 'x', cwd: home, transcriptPath: join(home, 't.jsonl') })) as Record<string, unknown>;
        delete o.session_id;
        return JSON.stringify(o);
      },
      /session_id/,
    ],
    ['40 MB of stdin', () => BIG, /larger than 33554432 bytes/],
  ];
  const table = HOOKS.flatMap((hook) => cases.map(([name, make, pattern]) => [hook, name, make, pattern] as const));

  it.each(table)('%s: %s', (hook, _name, make, pattern) => {
    const t = setup();
    const r = t.run(hook, make(hook, t.home));
    expectSilentSuccess(r);
    const log = readLog(t.data);
    expect(log).toHaveLength(1);
    expect(log[0]?.msg).toMatch(pattern);
    expect(log[0]?.scope).toBe(EVENT_OF[hook]);
    expect(readFileSync(join(t.data, 'logs', 'ctxl.log'), 'utf8')).not.toMatch(/Zz9Yy8|sk-ant|this is not json/);
    // The code cache aside (written into any data dir that exists), only the log line.
    expect(listFiles(t.home).filter((f) => !f.startsWith('data/cache/code/'))).toEqual(['data/logs/ctxl.log']);
    expect(listFiles(t.home).every((f) => f === 'data/logs/ctxl.log' || /^data\/cache\/code\/[a-z-]+-[0-9a-f]{16}-v[\d.]+-\w+-[0-9a-f]{8}\.bin$/.test(f))).toBe(
      true,
    );
  });
});

describe('valid input', () => {
  it.each(HOOKS)('%s exits 0 and prints only what its event allows', (hook) => {
    const t = setup();
    copyFileSync(CRUD, t.transcript);
    const r = t.run(hook, t.input(hook));
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    // Hooks that answer print one JSON object naming their event; the others print nothing.
    if (hook === 'session-start' || hook === 'user-prompt-expansion' || hook === 'pre-tool-use') {
      expect((JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string } }).hookSpecificOutput.hookEventName).toBe(EVENT_OF[hook]);
    } else if (hook === 'pre-compact') expect(r.stdout.trimStart().startsWith('{')).toBe(false);
    else expect(r.stdout).toBe('');
    expect(readLog(t.data).filter((l) => l.level === 'error')).toEqual([]);
  });

  it('SessionStart(startup) prints exactly one JSON object with the status line', () => {
    const t = setup();
    const r = t.run(
      'session-start',
      JSON.stringify({
        session_id: 'e9274768-9792-47d1-a2a9-b71b858d4e3b',
        transcript_path: t.transcript,
        cwd: t.home,
        hook_event_name: 'SessionStart',
        source: 'startup',
      }),
    );
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(Object.keys(out)).toEqual(['hookSpecificOutput']);
    expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart');
    expect(out.hookSpecificOutput.additionalContext.startsWith('[context-lifecycle]')).toBe(true);
    expect(out.hookSpecificOutput.additionalContext.length).toBeLessThanOrEqual(10_000);
    const session = readJson<{ version: number; starts: number; source: string }>(join(t.session('e9274768-9792-47d1-a2a9-b71b858d4e3b'), 'session.json'));
    expect(session).toMatchObject({ version: 1, starts: 1, source: 'startup' });
  });

  it('SessionStart(compact) after a Stop reports the context size read from the transcript', async () => {
    const t = setup();
    copyFileSync(fixturePath('oneryalcin__fasthooks/sample_main_transcript.jsonl'), t.transcript);
    expectSilentSuccess(t.run('stop', t.input('stop')));
    const r = t.run(
      'session-start',
      JSON.stringify({
        session_id: 'sess-1',
        transcript_path: t.transcript,
        cwd: t.home,
        hook_event_name: 'SessionStart',
        source: 'compact',
        model: 'claude-opus-5-5',
      }),
    );
    const text = (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    const expected = contextTokens((await advanceTranscript(t.transcript, undefined)).cursor.context);
    expect(expected).toBeGreaterThan(0);
    expect(text.startsWith('[context-lifecycle]')).toBe(true);
    expect(text).toContain(expected.toLocaleString('en-US'));
  });

  it('PreCompact prints nothing or plain text, never JSON', () => {
    const t = setup();
    copyFileSync(fixturePath('tomjnsn__agentlogs/compact.jsonl'), t.transcript);
    for (const trigger of ['manual', 'auto']) {
      const r = t.run(
        'pre-compact',
        JSON.stringify({ ...JSON.parse(t.input('pre-compact')), trigger, custom_instructions: trigger === 'manual' ? 'focus' : null }),
      );
      expect(r.status).toBe(0);
      const out = r.stdout.trimStart();
      expect(out.startsWith('{')).toBe(false);
      expect(out.startsWith('[')).toBe(false);
    }
  });

  it('UserPromptSubmit counts prompts on the session record', () => {
    const t = setup();
    expectSilentSuccess(t.run('user-prompt-submit', t.input('user-prompt-submit')));
    expectSilentSuccess(t.run('user-prompt-submit', t.input('user-prompt-submit')));
    expect(readJson<{ prompts: number }>(join(t.session(), 'session.json')).prompts).toBe(2);
  });
});

describe('inputs in the shape Claude Code sends (test/fixtures/hook-input)', () => {
  const files = readdirSync(hookInputDir).filter((f) => f.endsWith('.json'));

  it('covers every hook', () => {
    expect([...new Set(files.map((f) => f.split('.')[0]))].sort()).toEqual(HOOKS);
  });

  it.each(files)('%s is accepted and has its effect', (file) => {
    const hook = file.split('.')[0] as string;
    const t = setup();
    copyFileSync(CRUD, t.transcript);
    const raw = readFileSync(join(hookInputDir, file), 'utf8')
      .replaceAll('${TRANSCRIPT}', JSON.stringify(t.transcript).slice(1, -1))
      .replaceAll('${CWD}', JSON.stringify(t.home).slice(1, -1));
    const input = JSON.parse(raw) as { session_id: string; hook_event_name: string };
    expect(input.hook_event_name).toBe(EVENT_OF[hook]);
    const r = t.run(hook, raw);
    expect(r.status).toBe(0);
    expect(readLog(t.data)).toEqual([]);
    const dir = t.session(input.session_id);
    switch (hook) {
      case 'session-start':
        expect((JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string } }).hookSpecificOutput.hookEventName).toBe('SessionStart');
        expect(existsSync(join(dir, 'session.json'))).toBe(true);
        break;
      case 'user-prompt-submit':
        expect(readJson<{ prompts: number }>(join(dir, 'session.json')).prompts).toBe(1);
        break;
      case 'post-tool-use':
      case 'post-tool-use-failure':
        expect(readFileSync(join(dir, 'events.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
        break;
      case 'stop':
      case 'pre-compact':
        expect(readJson<{ offset: number }>(join(dir, 'cursor.json')).offset).toBe(statSync(t.transcript).size);
        break;
      case 'session-end':
        expect(readJson<{ closedAt?: string }>(join(dir, 'session.json')).closedAt).toBeDefined();
        break;
      case 'user-prompt-expansion':
      case 'pre-tool-use': {
        // /recall answers in one step: the results are the hook's additionalContext.
        const out = JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
        expect(out.hookSpecificOutput.hookEventName).toBe(input.hook_event_name);
        expect(out.hookSpecificOutput.additionalContext).toContain('context-lifecycle recall results');
        // The current session was archived before the search.
        expect(readJson<{ offset: number }>(join(dir, 'cursor.json')).offset).toBe(statSync(t.transcript).size);
        break;
      }
      default:
        throw new Error(`unexpected hook ${hook}`);
    }
  });
});

describe('session ids never escape the data dir', () => {
  it.each(HOOKS)('%s with session id ../../x writes only under <data>/sessions/ (and the log, the code cache)', (hook) => {
    const home = tempDir();
    const data = join(home, 'a', 'b', 'data');
    const transcript = join(home, 'transcript.jsonl');
    copyFileSync(CRUD, transcript);
    const r = runHookSync(hook, validInput(hook, { sessionId: '../../x', cwd: home, transcriptPath: transcript }), baseEnv(home, { CTXL_HOME: data }));
    expect(r.status).toBe(0);
    const files = listFiles(home).filter((f) => f !== 'transcript.jsonl');
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(f).toMatch(/^a\/b\/data\/(sessions\/\.\._\.\._x|logs|index|cache\/code|projects\/[^/]+)\//);
    for (const escaped of [join(home, 'x'), join(home, 'a', 'x'), join(home, 'a', 'b', 'x'), join(data, 'x')]) expect(existsSync(escaped)).toBe(false);
  });
});

describe('an unusable data dir', () => {
  /** A data dir that cannot be created: chmod 500 where that works, else (root) a path under a regular file. */
  function unusableDataDir(home: string): string {
    const ro = join(home, 'ro');
    mkdirSync(ro);
    chmodSync(ro, 0o500);
    try {
      writeFileSync(join(ro, 'probe'), '');
    } catch {
      return join(ro, 'data');
    }
    rmSync(join(ro, 'probe'));
    chmodSync(ro, 0o700);
    writeFileSync(join(home, 'a-file'), '');
    return join(home, 'a-file', 'data');
  }

  it.each(HOOKS)('%s exits 0 with no stdout', (hook) => {
    const home = tempDir();
    const data = unusableDataDir(home);
    const transcript = join(home, 'transcript.jsonl');
    copyFileSync(CRUD, transcript);
    const r = runHookSync(hook, validInput(hook, { sessionId: 's', cwd: home, transcriptPath: transcript }), baseEnv(home, { CTXL_HOME: data }));
    expectSilentSuccess(r);
    expect(r.stderr).toBe('');
  });
});

describe('a missing transcript', () => {
  it.each(['stop', 'pre-compact'])('%s: exit 0, no stdout, one warning, no error, no cursor', (hook) => {
    const t = setup();
    const r = t.run(hook, t.input(hook));
    expectSilentSuccess(r);
    const log = readLog(t.data);
    expect(log.filter((l) => l.level === 'error')).toEqual([]);
    expect(log.filter((l) => l.level === 'warn' && /transcript/.test(l.msg))).toHaveLength(1);
    expect(existsSync(join(t.session(), 'cursor.json'))).toBe(false);
  });
});

describe('CTXL_DISABLE=1', () => {
  it.each(HOOKS)('%s prints nothing and writes no file', (hook) => {
    const t = setup({ CTXL_DISABLE: '1' });
    copyFileSync(CRUD, t.transcript);
    const before = listFiles(t.home);
    expectSilentSuccess(t.run(hook, t.input(hook)));
    expect(listFiles(t.home)).toEqual(before);
    expect(existsSync(t.data)).toBe(false);
  });
});

describe('circuit breaker', () => {
  it('opens after 3 consecutive failures, says so once, then skips the work silently', () => {
    const t = setup();
    const input = t.input('post-tool-use');
    const events = join(t.session(), 'events.jsonl');
    const circuitLines = () => readLog(t.data).filter((l) => /circuit open/.test(l.msg));

    for (let i = 1; i <= 3; i++) {
      expectSilentSuccess(t.run('post-tool-use', input, { CTXL_DEBUG_FAIL: '1' }));
      expect(readLog(t.data).filter((l) => l.level === 'error' && /hook failed/.test(l.msg))).toHaveLength(i);
      expect(circuitLines()).toHaveLength(i === 3 ? 1 : 0);
    }
    const state = readJson<{ version: number; sessions: Record<string, { failures: number; openUntil?: string }> }>(
      join(t.data, 'state', 'breaker-PostToolUse.json'),
    );
    expect(state.version).toBe(2);
    expect(state.sessions['sess-1']?.failures).toBe(3);
    expect(state.sessions['sess-1']?.openUntil).toBeDefined();

    const logBefore = readLog(t.data).length;
    expectSilentSuccess(t.run('post-tool-use', input));
    expect(existsSync(events)).toBe(false);
    expect(readLog(t.data)).toHaveLength(logBefore);

    // Other hooks are not affected, nor is this hook in another session.
    expectSilentSuccess(t.run('user-prompt-submit', t.input('user-prompt-submit')));
    expect(existsSync(join(t.session(), 'session.json'))).toBe(true);
    expectSilentSuccess(t.run('post-tool-use', t.input('post-tool-use', 'sess-2')));
    expect(existsSync(join(t.session('sess-2'), 'events.jsonl'))).toBe(true);
    // ctxl doctor names the paused hook and its session.
    const doctor = runCli(['doctor', '--json'], t.env, t.home);
    const problems = (JSON.parse(doctor.stdout) as { problems: Array<{ code: string; message: string }> }).problems;
    expect(problems.find((p) => p.code === 'circuit-open')?.message).toMatch(/^PostToolUse is paused in session sess-1 /);
  });

  it("reads a breaker file of the first version as no failures, and keeps the counts of its last 32 sessions' failures", () => {
    const t = setup();
    mkdirSync(join(t.data, 'state'), { recursive: true });
    const file = join(t.data, 'state', 'breaker-PostToolUse.json');
    writeFileSync(file, JSON.stringify({ version: 1, failures: 3, openUntil: '2999-01-01T00:00:00.000Z' }));
    expectSilentSuccess(t.run('post-tool-use', t.input('post-tool-use')));
    expect(existsSync(join(t.session(), 'events.jsonl'))).toBe(true);
    const many = Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`old-${i}`, { failures: 1, at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString() }]),
    );
    writeFileSync(file, JSON.stringify({ version: 2, sessions: many }));
    t.run('post-tool-use', t.input('post-tool-use'), { CTXL_DEBUG_FAIL: '1' });
    const kept = Object.keys(readJson<{ sessions: Record<string, unknown> }>(file).sessions);
    expect(kept).toHaveLength(32);
    expect(kept).toContain('sess-1');
    expect(kept).not.toContain('old-0');
  });

  it('a success in between resets the count', () => {
    const t = setup();
    const input = t.input('post-tool-use');
    t.run('post-tool-use', input, { CTXL_DEBUG_FAIL: '1' });
    t.run('post-tool-use', input, { CTXL_DEBUG_FAIL: '1' });
    t.run('post-tool-use', input);
    t.run('post-tool-use', input, { CTXL_DEBUG_FAIL: '1' });
    t.run('post-tool-use', input, { CTXL_DEBUG_FAIL: '1' });
    expect(readLog(t.data).filter((l) => /circuit open/.test(l.msg))).toEqual([]);
    expect(readFileSync(join(t.session(), 'events.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
  });
});

describe('deadline', () => {
  it.each(['session-start', 'stop'])('%s: a handler slower than CTXL_DEADLINE_MS is cut off with exit 0, no stdout, a deadline log line', (hook) => {
    const t = setup({ CTXL_DEBUG_DELAY_MS: '5000', CTXL_DEADLINE_MS: '300' });
    copyFileSync(CRUD, t.transcript);
    const r = t.run(hook, t.input(hook), {}, 4_500);
    expectSilentSuccess(r);
    expect(readLog(t.data).filter((l) => /deadline/.test(l.msg))).toHaveLength(1);
  });

  it.each(['session-start', 'post-tool-use'])(
    '%s: stdin that is never closed does not hold the hook past its deadline',
    async (hook) => {
      const t = setup({ CTXL_DEADLINE_MS: '300' });
      const child = spawn(process.execPath, [join(distDir, `${hook}.mjs`)], { env: t.env, cwd: t.home, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
      });
      child.stdin.write('{"session_id":"sess-1",'); // half an input, and the pipe stays open
      const exited = await new Promise<number | null | 'still running'>((resolve) => {
        const timer = setTimeout(() => resolve('still running'), 8_000);
        child.on('exit', (code) => {
          clearTimeout(timer);
          resolve(code);
        });
      });
      child.stdin.destroy();
      child.kill();
      expect(exited).toBe(0); // it left on its own, the pipe still open
      expect(stdout).toBe('');
      expect(readLog(t.data).filter((l) => /deadline/.test(l.msg))).toHaveLength(1);
    },
    15_000,
  );
});

describe('Stop reads the transcript incrementally', () => {
  const cursorOf = (t: ReturnType<typeof setup>) => readJson<{ version: number; offset: number; lines: number; bad: number }>(join(t.session(), 'cursor.json'));

  it('moves the cursor to the end, then to the new end, and re-reads from 0 after a truncation', () => {
    const t = setup();
    copyFileSync(CRUD, t.transcript);
    expectSilentSuccess(t.run('stop', t.input('stop')));
    expect(cursorOf(t)).toMatchObject({ version: 1, offset: statSync(t.transcript).size, lines: 27, bad: 0 });

    const more = readFileSync(fixturePath('tomjnsn__agentlogs/todos.jsonl'), 'utf8').split('\n').slice(0, 3);
    appendFileSync(t.transcript, `${more.join('\n')}\n`);
    expectSilentSuccess(t.run('stop', t.input('stop')));
    expect(cursorOf(t)).toMatchObject({ offset: statSync(t.transcript).size, lines: 30 });

    const head = readFileSync(CRUD, 'utf8').split('\n').slice(0, 5);
    writeFileSync(t.transcript, `${head.join('\n')}\n`);
    expectSilentSuccess(t.run('stop', t.input('stop')));
    expect(cursorOf(t)).toMatchObject({ offset: statSync(t.transcript).size, lines: 5 });
    const resets = readLog(t.data).filter((l) => /shrunk/.test(l.msg));
    expect(resets).toHaveLength(1);
    expect(resets[0]?.level).toBe('warn');
  });

  it('notices a transcript rewritten with other content and re-reads it', () => {
    const t = setup();
    copyFileSync(CRUD, t.transcript);
    expectSilentSuccess(t.run('stop', t.input('stop')));
    const other = readFileSync(fixturePath('d-kimuson__claude-code-viewer/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl'));
    expect(other.length).toBeGreaterThan(statSync(CRUD).size);
    writeFileSync(t.transcript, other);
    expectSilentSuccess(t.run('stop', t.input('stop')));
    expect(cursorOf(t)).toMatchObject({ offset: other.length, lines: 53 });
    expect(readLog(t.data).filter((l) => /rewritten/.test(l.msg))).toHaveLength(1);
  });

  it('does nothing new when nothing was added', () => {
    const t = setup();
    copyFileSync(CRUD, t.transcript);
    expectSilentSuccess(t.run('stop', t.input('stop')));
    const first = cursorOf(t);
    expectSilentSuccess(t.run('stop', t.input('stop')));
    expect(cursorOf(t)).toMatchObject({ offset: first.offset, lines: first.lines });
    expect(readLog(t.data)).toEqual([]);
  });
});

describe('tool events', () => {
  const token = ['gh', 'p_', 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8'].join('');

  it('PostToolUse records a Bash call with the command redacted', () => {
    const t = setup();
    const input = {
      ...JSON.parse(t.input('post-tool-use')),
      tool_input: { command: `export GITHUB_TOKEN=${token} && gh api /user`, description: 'who am I' },
      tool_response: { stdout: 'octocat\n', stderr: 'warn ü\n', interrupted: false, isImage: false },
      tool_use_id: 'toolu_01',
      duration_ms: 51,
    };
    expectSilentSuccess(t.run('post-tool-use', JSON.stringify(input)));
    const text = readFileSync(join(t.session(), 'events.jsonl'), 'utf8');
    expect(text).not.toContain(token);
    expect(text).not.toContain('octocat');
    const lines = text.trim().split('\n');
    expect(lines).toHaveLength(1);
    const event = JSON.parse(lines[0] as string) as Record<string, unknown>;
    expect(event).toMatchObject({ v: 1, tool: 'Bash', id: 'toolu_01', ok: true, ms: 51, outBytes: Buffer.byteLength('octocat\nwarn ü\n') });
    expect(event.command).toBe('export GITHUB_TOKEN=[REDACTED:github-token] && gh api /user');
    expect(new Date(event.t as string).toISOString()).toBe(event.t);
    expect(event.error).toBeUndefined();
  });

  it('PostToolUse records the files of an Edit call', () => {
    const t = setup();
    const input = {
      ...JSON.parse(t.input('post-tool-use')),
      tool_name: 'Edit',
      tool_input: { file_path: '/repo/src/a.ts', old_string: 'a', new_string: 'b' },
      tool_response: { filePath: '/repo/src/a.ts' },
    };
    expectSilentSuccess(t.run('post-tool-use', JSON.stringify(input)));
    const event = JSON.parse(readFileSync(join(t.session(), 'events.jsonl'), 'utf8')) as Record<string, unknown>;
    expect(event).toMatchObject({ tool: 'Edit', ok: true, files: ['/repo/src/a.ts'] });
  });

  it('PostToolUseFailure records ok:false with the error, redacted', () => {
    const t = setup();
    const input = {
      ...JSON.parse(t.input('post-tool-use-failure')),
      tool_input: { command: 'PASSWORD=hunter2hunter2 ./deploy.sh' },
      error: 'Exit code 1: deploy failed with PASSWORD=hunter2hunter2',
      is_interrupt: false,
    };
    expectSilentSuccess(t.run('post-tool-use-failure', JSON.stringify(input)));
    const text = readFileSync(join(t.session(), 'events.jsonl'), 'utf8');
    expect(text).not.toContain('hunter2hunter2');
    const event = JSON.parse(text) as Record<string, unknown>;
    expect(event).toMatchObject({ v: 1, tool: 'Bash', ok: false, command: 'PASSWORD=[REDACTED:secret] ./deploy.sh' });
    expect(event.error).toBe('Exit code 1: deploy failed with PASSWORD=[REDACTED:secret]');
  });
});

describe('SessionEnd', () => {
  it('writes closedAt and the reason into session.json', () => {
    const t = setup();
    expectSilentSuccess(t.run('user-prompt-submit', t.input('user-prompt-submit')));
    const before = readJson<{ startedAt: string }>(join(t.session(), 'session.json'));
    expectSilentSuccess(t.run('session-end', JSON.stringify({ ...JSON.parse(t.input('session-end')), reason: 'prompt_input_exit' })));
    const session = readJson<{ version: number; closedAt?: string; endReason?: string; startedAt: string; prompts: number }>(join(t.session(), 'session.json'));
    expect(session.version).toBe(1);
    expect(session.closedAt).toBeDefined();
    expect(new Date(session.closedAt as string).toISOString()).toBe(session.closedAt);
    expect((session.closedAt as string) >= before.startedAt).toBe(true);
    expect(session.endReason).toBe('prompt_input_exit');
    expect(session.startedAt).toBe(before.startedAt);
    expect(session.prompts).toBe(1);
  });

  it('leaves a backlog too big to read in its budget to a background ingest, which archives it', async () => {
    const t = setup({ CTXL_LOG_LEVEL: 'info' });
    copyFileSync(CRUD, t.transcript);
    // 40 prompts of 100 KB: over the 3 MB the hook reads itself.
    const sid = crudSessionId();
    for (let i = 0; i < 40; i++) {
      const line = {
        type: 'user',
        uuid: `big-${i}`,
        sessionId: sid,
        timestamp: '2026-11-29T10:00:00.000Z',
        cwd: t.home,
        message: { role: 'user', content: `backlog marker ${i} ${'word '.repeat(20_000)}` },
      };
      appendFileSync(t.transcript, `${JSON.stringify(line)}\n`);
    }
    expectSilentSuccess(t.run('session-end', t.input('session-end', sid)));
    expect(readLog(t.data).map((l) => l.msg)).toContainEqual(expect.stringMatching(/^archiving a \d+-byte backlog of .* in the background$/));
    // The ingest runs on after the hook: its chunks appear, then its cursor reaches the end (its
    // last step; waited for, so the temp dir is not removed under it).
    const size = statSync(t.transcript).size;
    const cursor = join(t.session(sid), 'cursor.json');
    const done = () => existsSync(cursor) && (readJson<{ offset: number }>(cursor).offset ?? 0) === size;
    for (let waited = 0; waited < 15_000 && !done(); waited += 200) await new Promise((r) => setTimeout(r, 200));
    expect(done()).toBe(true);
    expect(readdirSync(join(t.session(sid), 'archived')).length).toBeGreaterThanOrEqual(40);
  });

  it("counts its subagents' backlogs: a big one in a subagent transcript goes to the background ingest too", async () => {
    const t = setup({ CTXL_LOG_LEVEL: 'info' });
    copyFileSync(CRUD, t.transcript);
    const sid = crudSessionId();
    // The main transcript is small; a subagent's holds 40 prompts of 100 KB.
    const agentDir = join(dirname(t.transcript), sid, 'subagents');
    mkdirSync(agentDir, { recursive: true });
    const agent = join(agentDir, 'agent-a1b2c3.jsonl');
    for (let i = 0; i < 40; i++) {
      const line = {
        type: 'user',
        uuid: `agent-big-${i}`,
        sessionId: sid,
        isSidechain: true,
        agentId: 'a1b2c3',
        timestamp: '2026-11-29T10:00:00.000Z',
        cwd: t.home,
        message: { role: 'user', content: `subagent backlog ${i} ${'word '.repeat(20_000)}` },
      };
      appendFileSync(agent, `${JSON.stringify(line)}\n`);
    }
    expectSilentSuccess(t.run('session-end', t.input('session-end', sid)));
    expect(readLog(t.data).map((l) => l.msg)).toContainEqual(expect.stringMatching(/^archiving a \d+-byte backlog of .* in the background$/));
    // The background ingest reads the subagent's transcript too: its cursor reaches the end.
    const size = statSync(agent).size;
    const cursor = join(t.session(sid), 'cursor-agent-a1b2c3.json');
    const done = () => existsSync(cursor) && (readJson<{ offset: number }>(cursor).offset ?? 0) === size;
    for (let waited = 0; waited < 15_000 && !done(); waited += 200) await new Promise((r) => setTimeout(r, 200));
    expect(done()).toBe(true);
  });

  it('a later SessionStart(resume) reopens the session', () => {
    const t = setup();
    expectSilentSuccess(t.run('session-end', t.input('session-end')));
    const r = t.run('session-start', JSON.stringify({ ...JSON.parse(t.input('session-start')), source: 'resume' }));
    expect(r.status).toBe(0);
    const session = readJson<{ closedAt?: string; starts: number }>(join(t.session(), 'session.json'));
    expect(session.closedAt).toBeUndefined();
    expect(session.starts).toBe(1);
  });
});

describe('pausedSessions (what ctxl doctor reads of a breaker file)', () => {
  it('names the sessions paused past now, and none of a version 1 or damaged file', () => {
    const now = new Date('2026-12-02T12:00:00.000Z');
    const text = JSON.stringify({
      version: 2,
      sessions: {
        a: { failures: 3, openUntil: '2026-12-02T12:05:00.000Z', at: '2026-12-02T12:00:00.000Z' },
        b: { failures: 3, openUntil: '2026-12-02T11:59:00.000Z', at: '2026-12-02T11:54:00.000Z' },
        c: { failures: 1, at: '2026-12-02T11:58:00.000Z' },
      },
    });
    expect(pausedSessions(text, now)).toEqual([{ session: 'a', openUntil: '2026-12-02T12:05:00.000Z' }]);
    expect(pausedSessions(JSON.stringify({ version: 1, failures: 3, openUntil: '2026-12-02T12:05:00.000Z' }), now)).toEqual([]);
    expect(pausedSessions('{"version":2,"sessi', now)).toEqual([]);
  });
});
