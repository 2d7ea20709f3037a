import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseQuery, parseSince } from '../../lib/recall/query.ts';
import { recallMarkdown } from '../../lib/recall/recall.ts';
import { renderResults } from '../../lib/recall/render.ts';
import { type RecallResult, snippet } from '../../lib/recall/search.ts';
import { openStore } from '../../lib/runtime/store.ts';
import { captureLogger } from './helpers/logger.ts';
import { baseEnv, readLog, runCli, runHookSync } from './helpers/proc.ts';
import { scriptedTranscript } from './helpers/scripted-transcript.ts';
import { listFiles, useTempDirs } from './helpers/tmp.ts';

const tempDir = useTempDirs('ctxl-recall-');

// ---- 1. query syntax ----

const NOW = new Date('2025-06-15T12:00:00.000Z');

describe('parseQuery', () => {
  it('splits words and "quoted phrases"', () => {
    expect(parseQuery('retry budget "exact phrase here" uploader', NOW)).toEqual({ words: ['retry', 'budget', 'uploader'], phrases: ['exact phrase here'] });
  });

  it('reads the five filters, lower-casing phase and type', () => {
    const q = parseQuery('phase:Design type:Bash file:src/api.ts session:ab12 since:2d timeout', NOW);
    expect(q).toEqual({
      words: ['timeout'],
      phrases: [],
      phase: 'design',
      type: 'bash',
      file: 'src/api.ts',
      session: 'ab12',
      since: '2025-06-13T12:00:00.000Z',
    });
  });

  it('takes key:"quoted value" for a filter', () => {
    expect(parseQuery('file:"src/my dir/a b.ts" cache', NOW)).toEqual({ words: ['cache'], phrases: [], file: 'src/my dir/a b.ts' });
    expect(parseQuery('since:"2025-06-01" x', NOW).since).toBe('2025-06-01T00:00:00.000Z');
  });

  it('keeps an unknown word: and URLs as plain words', () => {
    expect(parseQuery('note: todo:fix http://x https://example.com/a?b=c', NOW)).toEqual({
      words: ['note:', 'todo:fix', 'http://x', 'https://example.com/a?b=c'],
      phrases: [],
    });
  });

  it('keeps a filter with no value as a plain word, and says what is wrong with a bad since: or phase:', () => {
    expect(parseQuery('session: note:x', NOW)).toEqual({ words: ['session:', 'note:x'], phrases: [] });
    const q = parseQuery('since:soon phase:lunch since:12/25 since:2026-13-45 timeout', NOW);
    expect(q.words).toEqual(['timeout']);
    expect(q.problems).toHaveLength(4);
    expect(q.problems?.[0]).toMatch(/^`since:soon` is not a time/);
    expect(q.problems?.[1]).toMatch(/^`phase:lunch` is not a phase: use planning, design/);
    expect(parseQuery('phase:impl since:2025-06 x', NOW)).toMatchObject({ phase: 'implementation', since: '2025-06-01T00:00:00.000Z', words: ['x'] });
  });

  it('an unclosed quote runs to the end; an empty query is empty', () => {
    expect(parseQuery('a "b c', NOW)).toEqual({ words: ['a'], phrases: ['b c'] });
    expect(parseQuery('   ', NOW)).toEqual({ words: [], phrases: [] });
  });
});

describe('parseSince', () => {
  it.each([
    ['2d', '2025-06-13T12:00:00.000Z'],
    ['3h', '2025-06-15T09:00:00.000Z'],
    ['1w', '2025-06-08T12:00:00.000Z'],
    ['30m', '2025-06-15T11:30:00.000Z'],
    ['45min', '2025-06-15T11:15:00.000Z'],
    ['today', '2025-06-15T00:00:00.000Z'],
    ['yesterday', '2025-06-14T00:00:00.000Z'],
    ['2025-06-01', '2025-06-01T00:00:00.000Z'],
    ['2025-06-01T08:30:00Z', '2025-06-01T08:30:00.000Z'],
  ])('%s → %s', (value, iso) => {
    expect(parseSince(value, NOW)).toBe(iso);
  });

  it.each(['soon', '', 'banana', '2x', '3 days', '2025-13-45'])('garbage %j → undefined', (value) => {
    expect(parseSince(value, NOW)).toBeUndefined();
  });

  // Regression: parseSince falls back to Date.parse, which in V8 reads a bare number as a date in 2001
  // ("7" → 2001-07-01, "12" → 2001-12-01). `since:7` (a user meaning 7 days) silently filters
  // nothing instead of being refused or read as days.
  it('a bare number is days, not a date in 2001', () => {
    for (const value of ['1', '7', '12', '30']) {
      const since = parseSince(value, NOW);
      expect(since, `since:${value} is ${value} days`).toBe(parseSince(`${value}d`, NOW));
    }
    expect(parseSince('2025', NOW)?.slice(0, 4)).toBe('2025'); // four digits stay a year
  });
});

// ---- the world the CLI tests search: two sessions in project A, one in project B ----

const SID_OLD = 'aaaa1111-0000-4000-8000-000000000001';
const SID_NEW = 'bbbb2222-0000-4000-8000-000000000002';
const SID_OTHER = 'cccc3333-0000-4000-8000-000000000003';
const DAY = 86_400_000;

/** The planted fact: a camelCase name, plural forms, and an ending that the 320-char snippet does not reach. */
const PLANTED =
  'Found it: the flakyReconnectTimeouts come from heartbeatIntervalMs = 45000 while the corporate proxies drop idle ' +
  'connections after 30s. Decision: set heartbeatIntervalMs to 20000 in src/net/socket.ts and keep the exponential ' +
  'backoff capped at 8 retries. I checked the other clients as well: the uploader and the metrics pusher open their ' +
  'own sockets and already send keep-alive frames every 10 seconds, so they are not affected by this change at all. ' +
  'Closing note: the canary phrase for this chunk is quartz-lantern-forty-two.';

/** A result as `ctxl recall --json` prints it (the contract: no files or tool). */
type JsonResult = Omit<RecallResult, 'files' | 'tool'>;

function world(home: string) {
  const data = join(home, 'data');
  const projectA = join(home, 'project-a');
  const projectB = join(home, 'project-b');
  mkdirSync(projectA);
  mkdirSync(projectB);
  const env = baseEnv(home, { CTXL_HOME: data });
  const now = Date.now();
  const cli = (args: string[], cwd = projectA) => runCli(args, env, cwd);

  // Ten days ago, project A: the websocket investigation with the planted fact.
  const old = scriptedTranscript(SID_OLD, projectA, { start: now - 10 * DAY, stepMs: 60_000 });
  old.user('The websocket client keeps dropping. Why do reconnects fail behind the corporate proxy?');
  const plantedUuid = old.assistant(PLANTED);
  const editUuids = old.tool(
    'Edit',
    { file_path: join(projectA, 'src/net/socket.ts'), old_string: 'heartbeatIntervalMs: 45000', new_string: 'heartbeatIntervalMs: 20000' },
    `The file ${join(projectA, 'src/net/socket.ts')} has been updated.`,
  );
  old.tool('Bash', { command: 'npm test -- socket', description: 'run the socket tests' }, 'Tests: 12 passed, 12 total');
  // An hour ago, project A: the uploader's retry budget.
  const recent = scriptedTranscript(SID_NEW, projectA, { start: now - 2 * 3_600_000, stepMs: 60_000 });
  recent.user('Add a retry budget to the uploader');
  recent.tool('Bash', { command: 'npm run lint', description: 'lint' }, 'Checked 41 files. No problems.');
  recent.assistant('The uploader now has a retry budget of 3 attempts per file.');
  // An hour ago, project B: billing.
  const other = scriptedTranscript(SID_OTHER, projectB, { start: now - 2 * 3_600_000, stepMs: 60_000 });
  other.assistant('In the billing service the invoiceRoundingMode is bankers rounding, per the finance team.');

  const files = { old: join(home, 'old.jsonl'), recent: join(home, 'recent.jsonl'), other: join(home, 'other.jsonl') };
  old.write(files.old);
  recent.write(files.recent);
  other.write(files.other);
  const totals: Record<string, number> = {};
  for (const [file, cwd, sid] of [
    [files.old, projectA, SID_OLD],
    [files.recent, projectA, SID_NEW],
    [files.other, projectB, SID_OTHER],
  ] as const) {
    const r = cli(['ingest', file, '--cwd', cwd, '--json']);
    expect(r.status).toBe(0);
    totals[sid] = (JSON.parse(r.stdout) as { chunksTotal: number }).chunksTotal;
  }
  expect(totals).toEqual({ [SID_OLD]: 4, [SID_NEW]: 3, [SID_OTHER]: 1 });

  /** `ctxl recall <words…> --json` from project A (or `cwd`): exit 0 and the parsed output. */
  const recall = (words: string[], options: { cwd?: string; flags?: string[] } = {}) => {
    const r = cli(['recall', ...words, '--json', ...(options.flags ?? [])], options.cwd);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    return JSON.parse(r.stdout) as { query: string; results: JsonResult[] };
  };
  return { home, data, env, projectA, projectB, cli, recall, files, totals, plantedUuid, editUuids };
}

const isNonIncreasing = (values: readonly string[] | readonly number[]) => values.every((v, i) => i === 0 || v <= (values[i - 1] as typeof v));

// One world for the whole file: building it takes a few CLI runs, and the tests only read it (the
// hooks' catch-up finds nothing new, the canaries have their own names).
let w: ReturnType<typeof world>;
let sharedHome = '';
beforeAll(() => {
  sharedHome = mkdtempSync(join(tmpdir(), 'ctxl-recall-world-'));
  w = world(sharedHome);
});
afterAll(() => rmSync(sharedHome, { recursive: true, force: true }));

/**
 * A data dir for calling lib code in process: the world's L2 files without the index that the
 * compiled CLI built, so this code builds its own (dist/ and lib/ may differ while one is edited).
 */
function libStore() {
  const data = join(tempDir(), 'data');
  cpSync(join(w.data, 'sessions'), join(data, 'sessions'), { recursive: true });
  const log = captureLogger();
  return { log, store: openStore(data, log) };
}

// ---- 2. the JSON contract ----

describe('ctxl recall --json', () => {
  it('prints exactly the contract keys, best first, and --limit bounds the count', () => {
    const words = ['websocket', 'heartbeat', 'retry', 'uploader', 'socket'];
    const all = w.recall(words);
    expect(Object.keys(all).sort()).toEqual(['query', 'results']);
    expect(all.query).toBe(words.join(' '));
    expect(all.results.length).toBeGreaterThan(2);
    for (const r of all.results) {
      expect(Object.keys(r).sort()).toEqual(['phase', 'ref', 'score', 'sessionId', 'snippet', 'sourceUuids', 'timestamp', 'title', 'type']);
      expect(typeof r.ref).toBe('string');
      expect(typeof r.score).toBe('number');
      expect(r.score).toBeGreaterThan(0);
      expect([SID_OLD, SID_NEW]).toContain(r.sessionId);
      expect(r.phase).toBe('unknown');
      expect(['user', 'assistant', 'tool', 'summary']).toContain(r.type);
      expect(new Date(r.timestamp).toISOString()).toBe(r.timestamp);
      expect(r.sourceUuids.length).toBeGreaterThan(0);
      expect(r.sourceUuids.every((u) => typeof u === 'string')).toBe(true);
    }
    expect(isNonIncreasing(all.results.map((r) => r.score))).toBe(true);

    const two = w.recall(words, { flags: ['--limit', '2'] });
    expect(two.results.map((r) => r.ref)).toEqual(all.results.slice(0, 2).map((r) => r.ref));
  });

  it('a tool result carries both uuids, the tool_use entry first', () => {
    const edit = w.recall(['file:socket.ts']).results;
    expect(edit).toHaveLength(1);
    expect(edit[0]?.sourceUuids).toEqual(w.editUuids);
    expect(edit[0]?.title).toBe(`Edit: ${join(w.projectA, 'src/net/socket.ts')}`);
  });

  it('misuse exits non-zero with one line on stderr', () => {
    for (const args of [['recall'], ['recall', 'x', '--limit', '0'], ['recall', 'x', '--limit', 'many'], ['recall', 'x', '--bogus']]) {
      const r = w.cli(args);
      expect(r.status, args.join(' ')).not.toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});

// ---- 3. a planted fact, found by other word forms; show prints it whole ----

describe('finding a planted fact', () => {
  it.each([
    ['camelCase parts', ['heartbeat', 'interval', 'corporate', 'proxy']],
    ['singular for a plural inside an identifier', ['reconnect', 'timeout']],
    ['plural for a singular', ['flaky', 'heartbeats']],
    ['a quoted phrase', ['"exponential backoff"']],
  ])('%s', (_name, words) => {
    const results = w.recall(words).results;
    expect(results[0]?.sourceUuids).toEqual([w.plantedUuid]);
    expect(results[0]?.type).toBe('assistant');
  });

  it('ctxl show <ref> prints the full text, beyond the snippet', () => {
    const hit = w.recall(['heartbeat', 'interval', 'proxy']).results[0] as JsonResult;
    expect(hit.snippet).not.toContain('quartz-lantern-forty-two');
    const r = w.cli(['show', hit.ref]);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(PLANTED);
    expect(r.stdout).toContain(`session ${SID_OLD}`);
  });

  it('ctxl ingest of a file that is no transcript says so in one line and makes up no session', () => {
    const sessions = () => readdirSync(join(w.data, 'sessions')).sort();
    const before = sessions();
    const dir = mkdtempSync(join(tmpdir(), 'ctxl-not-transcript-'));
    try {
      const files = {
        json: join(dir, 'package.json'),
        empty: join(dir, 'empty.jsonl'),
        bookkeeping: join(dir, 'snapshots.jsonl'),
      };
      writeFileSync(files.json, JSON.stringify({ name: 'app', version: '1.0.0', scripts: { test: 'vitest' } }, null, 2));
      writeFileSync(files.empty, '');
      writeFileSync(files.bookkeeping, `${JSON.stringify({ type: 'file-history-snapshot', messageId: 'm1', snapshot: {} })}\n`);
      for (const file of Object.values(files)) {
        const r = w.cli(['ingest', file, '--cwd', w.projectA, '--json']);
        expect(r.status, file).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr.trimEnd().split('\n'), file).toEqual([`ctxl: not a Claude Code transcript (no line names a session or holds a message): ${file}`]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(sessions()).toEqual(before);
  });

  it('ctxl show of an unknown ref exits 1 with one line on stderr and nothing on stdout', () => {
    const r = w.cli(['show', 'nonexistent']);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^ctxl: No archived chunk `nonexistent`.*\n$/);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(w.cli(['show', '../../etc/passwd']).status).toBe(1);
    // No ref at all: says what to give, not "No archived chunk ``".
    const empty = w.cli(['show', '']);
    expect(empty.status).toBe(1);
    expect(empty.stderr).toMatch(/^ctxl: No archived chunk named: give a ref, as in `show <ref>`/);
  });
});

// ---- 4. filters ----

describe('filters through the CLI', () => {
  it('type:bash returns the Bash calls of the project only, newest first', () => {
    const results = w.recall(['type:bash']).results;
    expect(results.map((r) => r.title)).toEqual(['Bash: npm run lint', 'Bash: npm test -- socket']);
    expect(results.every((r) => r.type === 'tool' && r.score === 0)).toBe(true);
  });

  it('type:tool with words ranks within the filter', () => {
    const results = w.recall(['type:tool', 'socket']).results;
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((r) => r.type === 'tool')).toBe(true);
  });

  it('since: keeps the recent session only; a filter-only query lists newest first', () => {
    const recent = w.recall(['since:2d']).results;
    expect(recent).toHaveLength(w.totals[SID_NEW] as number);
    expect(recent.every((r) => r.sessionId === SID_NEW)).toBe(true);
    expect(isNonIncreasing(recent.map((r) => r.timestamp))).toBe(true);
    // The same words without since: reach the old session too.
    expect(w.recall(['retry']).results.map((r) => r.sessionId)).toEqual(expect.arrayContaining([SID_OLD, SID_NEW]));
    expect(w.recall(['retry', 'since:2d']).results.every((r) => r.sessionId === SID_NEW)).toBe(true);
    expect(w.recall(['since:2025-01-01']).results).toHaveLength((w.totals[SID_OLD] as number) + (w.totals[SID_NEW] as number));
  });

  it('a query of common words or punctuation only, or a bad filter, gets a one-line hint, in JSON too', () => {
    for (const words of [['the'], ['???'], ['and', 'or', 'not'], ['since:lastweek', 'retry'], ['phase:lunch']]) {
      const md = w.cli(['recall', ...words]);
      expect(md.status).toBe(0);
      expect(md.stdout.trim().split('\n')).toHaveLength(1);
      expect(md.stdout).toMatch(/^(Nothing to look for|`(since|phase):)/);
      const json = w.cli(['recall', ...words, '--json']);
      expect(JSON.parse(json.stdout)).toEqual({ query: words.join(' '), results: [] });
      expect(json.stderr.trim().split('\n')).toHaveLength(1);
    }
  });

  it("takes /recall's other forms from a terminal too: stats, timeline, show <ref>", () => {
    const stats = w.cli(['recall', 'stats']);
    expect(stats.status).toBe(0);
    expect(stats.stdout).toMatch(/^L2 archive for /);
    expect(w.cli(['recall', 'timeline']).stdout).not.toMatch(/^Recall for /);
    const ref = w.recall(['retry']).results[0]?.ref as string;
    const show = w.cli(['recall', 'show', ref]);
    expect(show.status).toBe(0);
    expect(show.stdout).toBe(w.cli(['show', ref]).stdout);
    expect(show.stdout).not.toMatch(/^Recall for /);
    // With --json: the view's JSON or a usage error (cli-recall-views.test.ts); after `--`, a query.
    expect(JSON.parse(w.cli(['recall', '--json', '--', 'stats']).stdout)).toMatchObject({ query: 'stats' });
  });

  it('echoes a long query shortened, so the results still fit', () => {
    const long = ['retry', ...Array.from({ length: 1500 }, (_, i) => `w${i}`)];
    const r = w.cli(['recall', ...long]);
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n')[0]?.length).toBeLessThan(200);
    expect(r.stdout).toMatch(/\n1\. \*\*/);
  });

  it('file: matches a part of a file path of a tool call', () => {
    expect(w.recall(['file:net/socket']).results.map((r) => r.sourceUuids)).toEqual([w.editUuids]);
    expect(w.recall(['file:nothing-like-this.ts']).results).toEqual([]);
  });

  it('session: takes a prefix of the session id', () => {
    const old = w.recall(['retry', 'session:aaaa']).results;
    expect(old.length).toBeGreaterThan(0);
    expect(old.every((r) => r.sessionId === SID_OLD)).toBe(true);
    const newest = w.recall(['session:bbbb2222']).results;
    expect(newest).toHaveLength(w.totals[SID_NEW] as number);
    expect(isNonIncreasing(newest.map((r) => r.timestamp))).toBe(true);
  });
});

// ---- 5. hostile arguments ----

describe('quotes, apostrophes and shell syntax are only text', () => {
  const hostile = (canary: string) => ['heartbeat', "it's", '"x"', `$(touch ${canary})`, ';', `\`touch ${canary}2\``, "'; rm -rf ~ #"];

  it('ctxl recall and ctxl show take them as argv', () => {
    const canary = join(w.home, 'canary-cli');
    const words = hostile(canary);
    const out = w.recall(words);
    expect(out.query).toBe(words.join(' '));
    expect(out.results.length).toBeGreaterThan(0);
    const md = w.cli(['recall', ...words]);
    expect(md.status).toBe(0);
    expect(md.stdout).toContain('Recall for');
    expect(w.cli(['show', `$(touch ${canary})`]).status).toBe(1);
    expect(existsSync(canary)).toBe(false);
    expect(existsSync(`${canary}2`)).toBe(false);
    expect(listFiles(w.home).filter((f) => f.includes('canary'))).toEqual([]);
  });

  it.each(['user-prompt-expansion', 'pre-tool-use'])('the /recall hook (%s) answers with them in its input', (hook) => {
    const canary = join(w.home, `canary-${hook}`);
    const args = hostile(canary).join(' ');
    const base = { session_id: SID_OLD, transcript_path: w.files.old, cwd: w.projectA };
    const input =
      hook === 'user-prompt-expansion'
        ? {
            ...base,
            hook_event_name: 'UserPromptExpansion',
            expansion_type: 'slash_command',
            command_name: 'recall',
            command_args: args,
            prompt: `/recall ${args}`,
          }
        : { ...base, hook_event_name: 'PreToolUse', tool_name: 'Skill', tool_input: { skill: 'context-lifecycle:recall', args }, tool_use_id: 'toolu_9' };
    const r = runHookSync(hook, JSON.stringify(input), w.env, { cwd: w.projectA });
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
    expect(out.hookSpecificOutput.hookEventName).toBe(input.hook_event_name);
    const text = out.hookSpecificOutput.additionalContext;
    expect(text).toContain('context-lifecycle recall results');
    expect(text).toContain(`$(touch ${canary})`); // echoed as text, never run
    expect(text).toContain('flakyReconnectTimeouts');
    expect(text.length).toBeLessThanOrEqual(10_000);
    expect(existsSync(canary)).toBe(false);
    expect(existsSync(`${canary}2`)).toBe(false);
    expect(readLog(w.data).filter((l) => l.level === 'error')).toEqual([]);
  });

  it('the /recall hook echoes a long query shortly, so a pasted stack trace still leaves room for results', () => {
    const args = `flakyReconnectTimeouts ${'at Module._compile (node:internal/modules/cjs/loader:1358:14) '.repeat(150)}`;
    const input = {
      session_id: SID_OLD,
      transcript_path: w.files.old,
      cwd: w.projectA,
      hook_event_name: 'UserPromptExpansion',
      expansion_type: 'slash_command',
      command_name: 'recall',
      command_args: args,
      prompt: `/recall ${args}`,
    };
    const r = runHookSync('user-prompt-expansion', JSON.stringify(input), w.env, { cwd: w.projectA });
    const text = (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
    expect(text.split('\n')[0]?.length).toBeLessThan(250);
    expect(text).toMatch(/^1\. \*\*/m);
    expect(text.length).toBeLessThanOrEqual(10_000);
  });
});

// ---- 6. other projects ----

describe('--all-projects', () => {
  it('finds a chunk of another project only with the flag', () => {
    expect(w.recall(['invoiceRoundingMode']).results).toEqual([]);
    const all = w.recall(['invoiceRoundingMode'], { flags: ['--all-projects'] }).results;
    expect(all.map((r) => r.sessionId)).toEqual([SID_OTHER]);
    // From project B it is local, and project A's chunks are not.
    expect(w.recall(['invoiceRoundingMode'], { cwd: w.projectB }).results).toHaveLength(1);
    expect(w.recall(['heartbeat'], { cwd: w.projectB }).results).toEqual([]);
  });

  it('/recall … --all-projects (recallMarkdown) reads the flag from the arguments', async () => {
    const { log, store } = libStore();
    const env = { store, log, now: new Date(), projectRoot: w.projectA, allProjects: false, showCommand: '/recall show' };
    expect(await recallMarkdown('invoiceRoundingMode', env)).toMatch(/^No archived context matches/);
    const md = await recallMarkdown('invoiceRoundingMode --all-projects', env);
    expect(md).toContain('bankers rounding');
    expect(md).toContain('/recall show ');
    expect(log.lines.filter((l) => l.level === 'error')).toEqual([]);
  });
});

// ---- 7. rendering within a budget ----

function fakeResult(i: number, over: Partial<RecallResult> = {}): RecallResult {
  return {
    ref: `ref${String(i).padStart(13, '0')}`,
    score: 100 - i,
    sessionId: 'aaaa1111-0000-4000-8000-000000000001',
    phase: 'implementation',
    type: 'tool',
    tool: 'Bash',
    timestamp: '2025-06-15T11:00:00.000Z',
    sourceUuids: ['u1', 'u2'],
    title: `Result ${i} ${'title words '.repeat(8)}`,
    snippet: `snippet ${i} ${'long output line '.repeat(20)}`,
    files: [],
    ...over,
  };
}

describe('renderResults', () => {
  it('stays within the default budget (2000 tokens ≈ 8000 chars) and says how many were left out', () => {
    const results = Array.from({ length: 60 }, (_, i) => fakeResult(i));
    const md = renderResults('many things', results, { showCommand: 'ctxl show' });
    expect(md.length).toBeLessThanOrEqual(8_000);
    const shown = md.match(/^\d+\. \*\*/gm)?.length ?? 0;
    expect(shown).toBeGreaterThan(3);
    expect(shown).toBeLessThan(60);
    expect(md.endsWith(`(${60 - shown} more not shown: token budget)`)).toBe(true);
    // Best first, numbered in order, each naming its ref and how to see it whole.
    expect(md).toContain('1. **Result 0 ');
    expect(md).toContain('ref `ref0000000000000`: full text with `ctxl show ref0000000000000`');
    expect(md.indexOf('Result 0 ')).toBeLessThan(md.indexOf('Result 1 '));
  });

  it('shows everything when it fits, with the where and when of each hit', () => {
    const md = renderResults('q', [fakeResult(0), fakeResult(1, { type: 'assistant', phase: 'unknown' })], { showCommand: '/recall show' });
    expect(md).not.toContain('more not shown');
    expect(md).toContain('(tool Bash, 2025-06-15 11:00, session aaaa1111, implementation)');
    expect(md).toContain('(assistant, 2025-06-15 11:00, session aaaa1111)');
  });

  it('says when a hit was said or done in a subagent, not in the main conversation', () => {
    const md = renderResults('q', [fakeResult(0, { type: 'user', subagent: true }), fakeResult(1, { subagent: true })], { showCommand: '/recall show' });
    expect(md).toContain('(user in a subagent, 2025-06-15 11:00, session aaaa1111, implementation)');
    expect(md).toContain('(tool Bash in a subagent, 2025-06-15 11:00');
  });

  it('a custom budget bounds the output too', () => {
    const results = Array.from({ length: 60 }, (_, i) => fakeResult(i));
    const md = renderResults('q', results, { showCommand: 'ctxl show', budgetTokens: 500 });
    expect(md.length).toBeLessThanOrEqual(2_000);
    expect(md).toMatch(/more not shown: token budget\)$/);
  });

  // Regression: render.ts pushes the first block even when the header plus that block exceed the budget
  // (`&& shown > 0`), or cuts it to `budget - used` characters, and then adds the line separators
  // and the "(N more not shown)" line that `used` never counted: a small budget is overrun.
  it('a budget smaller than one result is not overrun', () => {
    const results = Array.from({ length: 3 }, (_, i) => fakeResult(i));
    for (const budgetTokens of [50, 100]) {
      const md = renderResults('q', results, { showCommand: 'ctxl show', budgetTokens });
      expect(md.length, `budget ${budgetTokens} tokens`).toBeLessThanOrEqual(budgetTokens * 4);
    }
  });

  it('no results: one line that says so', () => {
    const md = renderResults('nothing "here"', [], { showCommand: 'ctxl show' });
    expect(md.split('\n')).toHaveLength(1);
    expect(md).toMatch(/^No archived context matches `nothing "here"`/);
  });

  it('an empty query gives a one-line hint (recallMarkdown and the CLI)', async () => {
    const home = tempDir();
    const log = captureLogger();
    const env = { store: openStore(join(home, 'data'), log), log, now: new Date(), projectRoot: home, allProjects: false, showCommand: '/recall show' };
    for (const raw of ['', '   ', '--all-projects']) {
      const md = await recallMarkdown(raw, env);
      expect(md.split('\n')).toHaveLength(1);
      expect(md).toMatch(/^Give some words to look for/);
    }
    const r = runCli(['recall', ''], baseEnv(home, { CTXL_HOME: join(home, 'data') }), home);
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toMatch(/^Give some words to look for/);
  });
});

describe('snippet', () => {
  it('returns a short text whole, whitespace folded', () => {
    expect(snippet('a  b\n\nc', ['b'], 320)).toBe('a b c');
  });

  it('cuts a window around the first query term, with ellipses where it cut', () => {
    const text = `${'lead '.repeat(200)}the NEEDLE is here ${'tail '.repeat(200)}`;
    const s = snippet(text, ['needle'], 120);
    expect(s).toContain('NEEDLE');
    expect(s.startsWith('…')).toBe(true);
    expect(s.endsWith('…')).toBe(true);
    expect(s.length).toBeLessThanOrEqual(122);
  });

  it('starts at the beginning when no term is found', () => {
    const s = snippet('x'.repeat(500), ['absent'], 100);
    expect(s).toBe(`${'x'.repeat(100)}…`);
  });
});

// ---- 8. /recall stats ----

describe('/recall stats', () => {
  it('reports the chunks and sessions of the project', async () => {
    const { log, store } = libStore();
    const env = { store, log, now: new Date(), projectRoot: w.projectA, allProjects: false, showCommand: '/recall show' };
    const chunksA = (w.totals[SID_OLD] as number) + (w.totals[SID_NEW] as number);
    const md = await recallMarkdown('stats', env);
    expect(md.split('\n')[0]).toBe(`L2 archive for ${w.projectA}: ${chunksA} chunks in 2 sessions.`);
    // Old: user, assistant, two tools; new: user, tool, assistant (most first; ties in any order).
    expect(md).toMatch(/^By type: 3 tool, (2 user, 2 assistant|2 assistant, 2 user)\.$/m);

    const b = await recallMarkdown('stats', { ...env, projectRoot: w.projectB });
    expect(b.startsWith(`L2 archive for ${w.projectB}: `)).toBe(true);
    expect(b.split('\n')[0]).toMatch(/: 1 chunks? in 1 session\.$/);
    const all = await recallMarkdown('stats --all-projects', env);
    expect(all.split('\n')[0]).toBe(`L2 archive for all projects: ${chunksA + 1} chunks in 3 sessions.`);
    // `stats` with more words is a search for them, not the view.
    expect(await recallMarkdown('stats heartbeat', env)).toMatch(/^(Recall for|No archived context)/);
    expect(log.lines.filter((l) => l.level === 'error')).toEqual([]);
  });
});
