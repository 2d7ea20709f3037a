// Phases end to end through the compiled hooks, run as processes the way Claude Code runs them: a
// scripted session walks planning → design → implementation → testing, and the ledgers, the
// decision log, L3, the SessionStart brief and the /recall and /phase views are checked on disk and
// in the hook output. Bad input: hand-edited and damaged phase files, L3 that cannot be written or
// is turned off.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseEnv, readLog, runCli, runHookAsync, runHookSync } from './helpers/proc.ts';
import { scriptedTranscript } from './helpers/scripted-transcript.ts';
import { useTempDirs } from './helpers/tmp.ts';

type Obj = Record<string, unknown>;
const tempDir = useTempDirs('ctxl-phase-');

const VITEST_FAIL = [
  ' FAIL  test/cache.test.ts > cache > expires entries after the ttl',
  'AssertionError: expected 2 to be 1',
  '',
  ' Test Files  1 failed | 3 passed (4)',
  '      Tests  1 failed | 23 passed (24)',
  '   Duration  1.21s',
].join('\n');
const VITEST_PASS = [' Test Files  4 passed (4)', '      Tests  25 passed (25)', '   Duration  1.18s'].join('\n');

function session(options: { env?: Record<string, string>; sid?: string } = {}) {
  const home = tempDir();
  const data = join(home, 'data');
  const project = join(home, 'project');
  mkdirSync(join(project, '.git'), { recursive: true });
  const env = baseEnv(home, { CTXL_HOME: data, ...options.env });
  const sid = options.sid ?? 'phase-session-1';
  const transcript = join(home, 'transcript.jsonl');
  const s = scriptedTranscript(sid, project, { now: () => Date.now() });
  const base = () => ({ session_id: sid, transcript_path: transcript, cwd: project });
  const hook = (name: string, input: Obj) => {
    const r = runHookSync(name, JSON.stringify({ ...base(), ...input }), env, { cwd: project });
    expect(r.status).toBe(0);
    return r;
  };
  const context = (r: { stdout: string }) =>
    r.stdout === '' ? '' : ((JSON.parse(r.stdout) as { hookSpecificOutput?: { additionalContext?: string } }).hookSpecificOutput?.additionalContext ?? '');
  const api = {
    home,
    data,
    project,
    env,
    sid,
    transcript,
    hook,
    context,
    prompt(text: string) {
      s.user(text);
      s.write(transcript);
      hook('user-prompt-submit', { hook_event_name: 'UserPromptSubmit', prompt: text });
    },
    say(text: string) {
      s.assistant(text);
    },
    tool(name: string, input: Obj, output = 'ok', ok = true) {
      // The same tool_use id in the transcript and in the hook input, as Claude Code sends it.
      const id = s.toolUse(name, input);
      s.toolResult(id, output);
      s.write(transcript);
      const response = { stdout: output, stderr: '', interrupted: false, isImage: false };
      if (ok) hook('post-tool-use', { hook_event_name: 'PostToolUse', tool_name: name, tool_input: input, tool_response: response, tool_use_id: id });
      else hook('post-tool-use-failure', { hook_event_name: 'PostToolUseFailure', tool_name: name, tool_input: input, tool_use_id: id, error: output });
    },
    stop() {
      s.write(transcript);
      hook('stop', { hook_event_name: 'Stop', stop_hook_active: false });
    },
    phaseFile: () => JSON.parse(readFileSync(join(data, 'sessions', sid, 'phase.json'), 'utf8')) as Obj,
    ledgers: () => readdirSync(join(data, 'sessions', sid, 'ledgers')).sort(),
    l3: (...rel: string[]) => join(project, 'docs', 'memory', ...rel),
  };
  return api;
}

type Session = ReturnType<typeof session>;

/** planning → design → implementation → testing, with a decision, a constraint and test runs. */
function walk(t: Session): void {
  t.prompt("Let's plan this first: the cache layer for the API client. Never commit to main, and don't add new dependencies.");
  t.tool('Read', { file_path: join(t.project, 'src/client.ts') }, 'export class Client {}');
  t.tool('Grep', { pattern: 'fetch\\(', path: 'src' }, 'src/client.ts:12');
  t.tool('Glob', { pattern: 'src/**/*.ts' }, 'src/client.ts\nsrc/index.ts');
  t.tool('TodoWrite', {
    todos: [
      { content: 'Design the cache interface', status: 'in_progress', activeForm: 'Designing' },
      { content: 'Implement the LRU cache', status: 'pending', activeForm: 'Implementing' },
      { content: 'Write cache tests', status: 'pending', activeForm: 'Testing' },
    ],
  });
  t.say('Plan: read the client, then design the cache, then implement and test it.');
  t.stop();

  t.prompt("Now let's design the cache interface.");
  t.tool('Read', { file_path: join(t.project, 'src/index.ts') }, 'export * from "./client"');
  t.say("I'll use an in-memory LRU map instead of Redis because the client runs in the browser too. Decision: entries expire after 30s by default.");
  t.tool('Write', { file_path: join(t.project, 'docs/design/cache.md'), content: '# Cache design' });
  t.stop();

  t.prompt('Good, start implementing it.');
  for (const f of ['src/cache.ts', 'src/client.ts', 'src/cache.ts', 'src/index.ts']) {
    t.tool('Edit', { file_path: join(t.project, f), old_string: 'a', new_string: 'b' });
  }
  t.tool('Bash', { command: 'npx tsc --noEmit' }, '');
  t.say('Next steps: write the tests for expiry and eviction.');
  t.stop();

  t.prompt("Let's write the tests now.");
  t.tool('Write', { file_path: join(t.project, 'test/cache.test.ts'), content: 'test' });
  t.tool('Bash', { command: 'npx vitest run' }, VITEST_FAIL, false);
  t.tool('Edit', { file_path: join(t.project, 'test/cache.test.ts'), old_string: 'a', new_string: 'b' });
  t.tool('Bash', { command: 'npx vitest run' }, VITEST_PASS);
  t.say('All 25 tests pass. TODO: cover the eviction order under concurrent writes.');
  t.stop();
}

describe('a session through four phases', () => {
  it('tracks the phases, writes a ledger per phase into the data dir and the project, and a decision log', () => {
    const t = session();
    walk(t);
    const file = t.phaseFile();
    const spans = (file.tracker as { spans: Array<{ phase: string; by: string }> }).spans.filter((s) => s.phase !== 'unknown');
    expect(spans.map((s) => s.phase)).toEqual(['planning', 'design', 'implementation', 'testing']);
    expect(spans.every((s) => s.by === 'prompt')).toBe(true);

    // The three phases that ended have ledgers (the running one is written at PreCompact or the end).
    expect(t.ledgers().filter((f) => !f.includes('unknown'))).toEqual(['phase-2-planning.md', 'phase-3-design.md', 'phase-4-implementation.md']);
    const design = readFileSync(join(t.data, 'sessions', t.sid, 'ledgers', 'phase-3-design.md'), 'utf8');
    expect(design).toMatch(/^---\nversion: 1\nkind: "phase-ledger"/);
    expect(design).toContain('in-memory LRU map');
    expect(design).toContain('the client runs in the browser');
    expect(design).toMatch(/Never commit to main/i);
    expect(design).toContain('docs/design/cache.md');
    const implementation = readFileSync(join(t.data, 'sessions', t.sid, 'ledgers', 'phase-4-implementation.md'), 'utf8');
    expect(implementation).toContain('src/cache.ts');
    expect(implementation).toContain('npx tsc --noEmit');
    expect(implementation).toMatch(/write the tests for expiry and eviction/);
    const planning = readFileSync(join(t.data, 'sessions', t.sid, 'ledgers', 'phase-2-planning.md'), 'utf8');
    expect(planning).toContain('[~] Design the cache interface');
    expect(planning).toContain('the cache layer for the API client'); // the goal

    // L3: the same ledgers in the project, a README, one file per decision.
    expect(readFileSync(t.l3('sessions', t.sid, 'phase-3-design.md'), 'utf8')).toBe(design);
    expect(existsSync(t.l3('README.md'))).toBe(true);
    const decisions = readdirSync(t.l3('decisions'));
    expect(decisions.length).toBeGreaterThanOrEqual(1);
    const all = decisions.map((f) => readFileSync(t.l3('decisions', f), 'utf8')).join('\n');
    expect(all).toContain('in-memory LRU map');
    expect(all).toMatch(/^id: "D-[0-9a-f]{8}"$/m);

    // SessionEnd writes the running phase's ledger, with the test results.
    t.hook('session-end', { hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' });
    const testing = readFileSync(join(t.data, 'sessions', t.sid, 'ledgers', 'phase-5-testing.md'), 'utf8');
    expect(testing).toMatch(/npx vitest run.*25 passed, 0 failed/);
    expect(testing).toContain('1 failed');
    expect(testing).toContain('cache > expires entries after the ttl');
    expect(testing).toContain('cover the eviction order');
    expect(readLog(t.data).filter((l) => l.level === 'error' || l.level === 'warn')).toEqual([]);
  });

  it('brings the timeline, pending items and decisions back at resume, within the budget', () => {
    const t = session();
    walk(t);
    const r = t.hook('session-start', { hook_event_name: 'SessionStart', source: 'resume' });
    const text = t.context(r);
    expect(text.length).toBeLessThanOrEqual(9_500);
    expect(text).toContain('**testing** phase');
    expect(text).toMatch(/Timeline: planning .* → design .* → implementation .* → testing .*\(now\)/);
    expect(text).toContain('Implement the LRU cache'); // a pending task
    expect(text).toMatch(/Never commit to main/i);
    expect(text).toContain('in-memory LRU map');
    expect(text).toContain('/recall timeline');

    // A new session of the same project starts from where the last one stood.
    const other = t.hook('session-start', { hook_event_name: 'SessionStart', source: 'startup', session_id: 'next-session' });
    const next = t.context(other);
    expect(next).toContain(`previous session (\`${t.sid}\`)`);
    expect(next).toContain('in-memory LRU map');

    // A small budget keeps the most important part first.
    const small = runHookSync(
      'session-start',
      JSON.stringify({ session_id: t.sid, transcript_path: t.transcript, cwd: t.project, hook_event_name: 'SessionStart', source: 'resume' }),
      { ...t.env, CTXL_SESSION_START_TOKENS: '150' },
      { cwd: t.project },
    );
    const brief = t.context(small);
    expect(brief.length).toBeLessThan(text.length);
    expect(brief).toContain('**testing** phase');
  });

  it('answers /recall timeline, /recall decisions, /recall phase:design and /phase', () => {
    const t = session();
    walk(t);
    const ask = (name: string, args: string) =>
      t.context(
        t.hook('user-prompt-expansion', { hook_event_name: 'UserPromptExpansion', expansion_type: 'slash_command', command_name: name, command_args: args }),
      );
    const timeline = ask('recall', 'timeline');
    expect(timeline).toMatch(/1\. unknown|2\. planning/);
    expect(timeline).toMatch(/3\. design .*prompt: .*design/);
    expect(timeline).toContain('docs/memory/sessions/phase-session-1/phase-3-design.md');
    const decisions = ask('recall', 'decisions');
    expect(decisions).toMatch(/\*\*D-[0-9a-f]{8}\*\* .* design: .*in-memory LRU map/);
    const design = ask('recall', 'phase:design');
    expect(design).toContain('# Phase 3: design');
    expect(design).toContain('in-memory LRU map');

    const shown = ask('phase', '');
    expect(shown).toContain('Current phase: **testing**');
    const set = ask('phase', 'review');
    expect(set).toContain('phase set to **review** (was testing)');
    expect((t.phaseFile().tracker as { phase: string }).phase).toBe('review');
    expect(ask('phase', 'lunch')).toContain('not a phase');
    const status = runCli(['status', '--json', '--session', t.sid, '--cwd', t.project], t.env, t.project);
    expect((JSON.parse(status.stdout) as { phase: string }).phase).toBe('review');

    const cli = runCli(['timeline', '--json', '--cwd', t.project], t.env, t.project);
    expect(cli.status).toBe(0);
    const json = JSON.parse(cli.stdout) as { project: string; sessions: Array<{ session: string; spans: Array<{ phase: string; ledger?: string }> }> };
    expect(json.sessions[0]?.session).toBe(t.sid);
    expect(json.sessions[0]?.spans.map((s) => s.phase)).toContain('design');
  });

  it('finds a ledger with /recall like any archived text', () => {
    const t = session();
    walk(t);
    const r = runCli(['recall', 'LRU', 'browser', '--json', '--cwd', t.project], t.env, t.project);
    expect(r.status).toBe(0);
    const results = (JSON.parse(r.stdout) as { results: Array<{ type: string; phase: string }> }).results;
    expect(results.some((x) => x.type === 'ledger')).toBe(true);
    // Archived chunks carry the phase they were said in.
    expect(results.some((x) => x.type === 'assistant' && x.phase === 'design')).toBe(true);
  });

  it('PreCompact checkpoints the running phase, the same on every call of one compaction', () => {
    const t = session();
    walk(t);
    const input = { hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: null };
    t.hook('pre-compact', input);
    const ledger = join(t.data, 'sessions', t.sid, 'ledgers', 'phase-5-testing.md');
    const first = readFileSync(ledger, 'utf8').replace(/^written: .*$/m, '');
    t.hook('pre-compact', input);
    expect(readFileSync(ledger, 'utf8').replace(/^written: .*$/m, '')).toBe(first);
    expect(first).toContain('status: "open"');
  });
});

describe('bad input and degraded setups', () => {
  it('a damaged or unknown-version phase.json is set aside with a log line and rebuilt', () => {
    for (const bad of ['{"version": 1, "tracker": {"phase":', '{"version": 99, "tracker": {}}', '[1,2,3]']) {
      const t = session();
      mkdirSync(join(t.data, 'sessions', t.sid), { recursive: true });
      writeFileSync(join(t.data, 'sessions', t.sid, 'phase.json'), bad);
      t.tool('Edit', { file_path: join(t.project, 'src/a.ts'), old_string: 'a', new_string: 'b' });
      t.stop(); // the next hook that needs the phase folds the call into phase.json
      expect(t.phaseFile().version).toBe(1);
      expect(readdirSync(join(t.data, 'sessions', t.sid)).some((f) => f.startsWith('phase.json.bad-'))).toBe(true);
      expect(readLog(t.data).some((l) => l.level === 'warn' && String(l.msg).includes('phase.json'))).toBe(true);
    }
  });

  it('an unreadable phase.json is left in place, and Stop still archives the turn', () => {
    const t = session();
    mkdirSync(join(t.data, 'sessions', t.sid, 'phase.json'), { recursive: true }); // present, not readable as a file
    t.prompt("Let's design the cache.");
    t.tool('Edit', { file_path: join(t.project, 'src/a.ts'), old_string: 'a', new_string: 'b' });
    t.say('Done.');
    t.stop();
    expect(readdirSync(join(t.data, 'sessions', t.sid, 'archived')).length).toBeGreaterThan(0);
    expect(readdirSync(join(t.data, 'sessions', t.sid, 'phase.json'))).toEqual([]);
    expect(readLog(t.data).some((l) => l.level === 'warn' && String(l.msg).includes('cannot be read'))).toBe(true);
    expect(readLog(t.data).filter((l) => l.level === 'error')).toEqual([]);
  });

  it('a hand-edited phase.json (extra fields, damaged work) keeps its phase', () => {
    const t = session();
    t.prompt("Let's design the storage layer.");
    const file = t.phaseFile();
    writeFileSync(join(t.data, 'sessions', t.sid, 'phase.json'), JSON.stringify({ ...file, note: 'edited by hand', work: { 1: 'garbage' } }, null, 2));
    t.tool('Read', { file_path: join(t.project, 'README.md') });
    expect((t.phaseFile().tracker as { phase: string }).phase).toBe('design');
  });

  it('torn lines in facts.jsonl are skipped; the rest is used', () => {
    const t = session();
    t.prompt("Let's design it. Never use eval.");
    t.say("I'll use a trie for the lookup because prefix queries dominate.");
    t.stop();
    const facts = join(t.data, 'sessions', t.sid, 'facts.jsonl');
    writeFileSync(facts, `${readFileSync(facts, 'utf8')}{"v":1,"kind":"decis`);
    t.hook('pre-compact', { hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: null });
    const ledger = readFileSync(join(t.data, 'sessions', t.sid, 'ledgers', 'phase-2-design.md'), 'utf8');
    expect(ledger).toContain('trie');
    expect(ledger).toMatch(/Never use eval/i);
  });

  it('L3 that cannot be written (a file where the folder should be) leaves the data dir complete', () => {
    const t = session();
    mkdirSync(join(t.project, 'docs'));
    writeFileSync(join(t.project, 'docs', 'memory'), 'not a folder');
    walk(t);
    expect(t.ledgers()).toContain('phase-3-design.md');
    const warns = readLog(t.data).filter((l) => l.level === 'warn');
    expect(warns.filter((l) => String(l.msg).includes('project memory')).length).toBeGreaterThanOrEqual(1);
    const r = t.hook('session-start', { hook_event_name: 'SessionStart', source: 'resume' });
    expect(t.context(r)).toContain('in-memory LRU map');
  });

  it('with project memory off, nothing is written into the project', () => {
    const t = session({ env: { CTXL_PROJECT_MEMORY: '0' } });
    walk(t);
    expect(existsSync(join(t.project, 'docs'))).toBe(false);
    expect(t.ledgers()).toContain('phase-3-design.md');
  });

  it('a project without git works the same (keyed by its folder)', () => {
    const t = session({ sid: 'no-git' });
    // session() makes a .git folder; a second project without one:
    const plain = join(t.home, 'plain');
    mkdirSync(plain);
    const r = runHookSync(
      'user-prompt-submit',
      JSON.stringify({
        session_id: 'plain-1',
        transcript_path: t.transcript,
        cwd: plain,
        hook_event_name: 'UserPromptSubmit',
        prompt: "Let's review the changes.",
      }),
      t.env,
      { cwd: plain },
    );
    expect(r.status).toBe(0);
    const file = JSON.parse(readFileSync(join(t.data, 'sessions', 'plain-1', 'phase.json'), 'utf8')) as { tracker: { phase: string } };
    expect(file.tracker.phase).toBe('review');
  });
});

describe('task tools', () => {
  it("TaskCreate and TaskUpdate (Claude Code's task tools) keep the task list like TodoWrite", () => {
    const t = session();
    t.prompt("Let's plan the importer.");
    const create = (subject: string, id: string) =>
      t.hook('post-tool-use', {
        hook_event_name: 'PostToolUse',
        tool_name: 'TaskCreate',
        tool_input: { subject, description: subject },
        tool_response: { task: { id, subject } },
        tool_use_id: `toolu_task_${id}`,
      });
    create('Parse the CSV header', '1');
    create('Map the columns', '2');
    t.hook('post-tool-use', {
      hook_event_name: 'PostToolUse',
      tool_name: 'TaskUpdate',
      tool_input: { taskId: '1', status: 'completed' },
      tool_response: { success: true },
      tool_use_id: 'toolu_task_u1',
    });
    t.hook('pre-compact', { hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: null });
    const ledger = readFileSync(join(t.data, 'sessions', t.sid, 'ledgers', 'phase-2-planning.md'), 'utf8');
    expect(ledger).toContain('[x] Parse the CSV header');
    expect(ledger).toContain('[ ] Map the columns');
  });
});

describe('changes found from tool calls', () => {
  it('start at the first call that showed them, and take its work along', () => {
    const t = session();
    t.prompt('The importer drops rows that contain quoted commas.');
    for (const f of ['src/importer.ts', 'src/csv.ts', 'test/importer.test.ts']) t.tool('Read', { file_path: join(t.project, f) });
    for (const f of ['src/csv.ts', 'src/importer.ts', 'src/csv.ts']) t.tool('Edit', { file_path: join(t.project, f), old_string: 'a', new_string: 'b' });
    t.stop();
    t.hook('pre-compact', { hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: null });
    const spans = (t.phaseFile().tracker as { spans: Array<{ n: number; phase: string; events: number }> }).spans;
    const impl = spans.find((s) => s.phase === 'implementation');
    expect(impl?.events).toBe(3); // all three edits, not only those after the change was certain
    const ledgers = t.ledgers();
    const before = ledgers.find((f) => !f.includes('implementation') && !f.includes('unknown'));
    const implementation = readFileSync(join(t.data, 'sessions', t.sid, 'ledgers', ledgers.find((f) => f.includes('implementation')) as string), 'utf8');
    expect(implementation).toContain('`src/csv.ts`');
    expect(implementation).toContain('`src/importer.ts`');
    if (before !== undefined) expect(readFileSync(join(t.data, 'sessions', t.sid, 'ledgers', before), 'utf8')).not.toContain('`src/csv.ts`');
  });
});

describe('ctxl ingest --ledgers', () => {
  it('replays an old transcript through the tracker and writes its ledgers and decisions', () => {
    const t = session({ sid: 'old-session' });
    const s = scriptedTranscript('old-session', t.project, { start: Date.parse('2026-03-02T09:00:00Z'), stepMs: 20_000 });
    s.user("Let's plan the export. Never touch the billing tables.");
    s.tool('Read', { file_path: join(t.project, 'src/export.ts') }, 'export {}');
    s.tool('Grep', { pattern: 'invoice', path: 'src' }, 'src/invoice.ts:3');
    s.user("Now let's design the file format.");
    s.assistant("I'll use JSON lines instead of CSV because nested line items do not fit in columns.");
    s.user('Start implementing it.');
    for (const f of ['src/export.ts', 'src/jsonl.ts', 'src/export.ts'])
      s.tool('Edit', { file_path: join(t.project, f), old_string: 'a', new_string: 'b' }, 'ok');
    s.tool('Bash', { command: 'npx vitest run' }, '      Tests  12 passed (12)');
    const file = join(t.home, 'old.jsonl');
    s.write(file);

    const r = runCli(['ingest', file, '--cwd', t.project, '--ledgers', '--json'], t.env, t.project);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(t.ledgers()).toEqual(['phase-2-planning.md', 'phase-3-design.md', 'phase-4-implementation.md']);
    const design = readFileSync(join(t.data, 'sessions', 'old-session', 'ledgers', 'phase-3-design.md'), 'utf8');
    expect(design).toContain('JSON lines instead of CSV');
    expect(design).toContain('start: "2026-03-02T09:02:00.000Z"');
    expect(design).toMatch(/Never touch the billing tables/);
    const implementation = readFileSync(join(t.data, 'sessions', 'old-session', 'ledgers', 'phase-4-implementation.md'), 'utf8');
    expect(implementation).toContain('status: "closed"');
    expect(implementation).toContain('`src/jsonl.ts`');
    expect(implementation).toMatch(/npx vitest run.*12 passed/);
    expect(readdirSync(t.l3('decisions')).length).toBe(1);
    // The archive carries the phase each chunk was said in.
    const hits = runCli(['recall', 'JSON', 'lines', 'CSV', '--json', '--cwd', t.project], t.env, t.project);
    const results = (JSON.parse(hits.stdout) as { results: Array<{ type: string; phase: string }> }).results;
    expect(results.find((x) => x.type === 'assistant')?.phase).toBe('design');

    // Again: nothing changes (the session has its phases now); without --ledgers no phase files.
    const before = readFileSync(join(t.data, 'sessions', 'old-session', 'phase.json'), 'utf8');
    expect(runCli(['ingest', file, '--cwd', t.project, '--ledgers', '--json'], t.env, t.project).status).toBe(0);
    expect(readFileSync(join(t.data, 'sessions', 'old-session', 'phase.json'), 'utf8')).toBe(before);
    const plain = session({ sid: 'old-session' });
    expect(runCli(['ingest', file, '--cwd', plain.project, '--json'], plain.env, plain.project).status).toBe(0);
    expect(existsSync(join(plain.data, 'sessions', 'old-session', 'phase.json'))).toBe(false);
  });
});

describe('ingest --ledgers on a transcript that starts without a timestamp', () => {
  it('dates the phases by the entries, not by the day of the ingest', () => {
    const t = session();
    const s = scriptedTranscript('titled-session', t.project, { start: Date.parse('2025-09-03T10:00:00Z'), stepMs: 20_000 });
    s.user("Let's plan the export.");
    s.user('Start implementing it.');
    for (const f of ['src/export.ts', 'src/jsonl.ts', 'src/export.ts'])
      s.tool('Edit', { file_path: join(t.project, f), old_string: 'a', new_string: 'b' }, 'ok');
    const file = join(t.home, 'titled.jsonl');
    s.write(file);
    // A pre-2.x title line first, as real transcripts have: no timestamp.
    writeFileSync(file, `${JSON.stringify({ type: 'summary', summary: 'Export work', leafUuid: 'x' })}\n${readFileSync(file, 'utf8')}`);
    expect(runCli(['ingest', file, '--cwd', t.project, '--ledgers', '--json'], t.env, t.project).status).toBe(0);
    const phase = JSON.parse(readFileSync(join(t.data, 'sessions', 'titled-session', 'phase.json'), 'utf8')) as {
      tracker: { spans: Array<{ start: string }> };
    };
    for (const span of phase.tracker.spans) expect(span.start.slice(0, 10)).toBe('2025-09-03');
  });
});

describe('review regressions', () => {
  const TOKEN = `ghp_${'A1b2C3d4E5'.repeat(4)}`;

  it('a secret in a prompt or a command never reaches phase.json, the ledgers or L3 in clear', () => {
    const t = session();
    t.prompt(`Now implement it; the deploy token is ${TOKEN}. <private>client Acme Corp</private>`);
    t.tool('Bash', { command: `curl -H "Authorization: Bearer ${TOKEN}" https://api.example.com/x` }, 'ok');
    for (const f of ['src/a.ts', 'src/b.ts']) t.tool('Edit', { file_path: join(t.project, f), old_string: 'a', new_string: 'b' });
    t.stop();
    t.hook('session-end', { hook_event_name: 'SessionEnd', reason: 'other' });
    const everything = [
      readFileSync(join(t.data, 'sessions', t.sid, 'phase.json'), 'utf8'),
      ...t.ledgers().map((f) => readFileSync(join(t.data, 'sessions', t.sid, 'ledgers', f), 'utf8')),
      ...readdirSync(t.l3('sessions', t.sid)).map((f) => readFileSync(t.l3('sessions', t.sid, f), 'utf8')),
    ].join('\n');
    expect(everything).not.toContain(TOKEN);
    expect(everything).not.toContain('Acme');
    expect(everything).toContain('implementation');
  });

  it('SessionStart reads the facts of lines no Stop read (a session that ended without one)', () => {
    const t = session();
    t.prompt("Let's design the sync protocol.");
    t.stop();
    t.say("I'll use vector clocks instead of timestamps because the devices' clocks drift.");
    t.tool('Read', { file_path: join(t.project, 'src/sync.ts') });
    // No Stop after these lines (the session was killed): the next start catches up.
    t.hook('session-start', { hook_event_name: 'SessionStart', source: 'resume' });
    const facts = readFileSync(join(t.data, 'sessions', t.sid, 'facts.jsonl'), 'utf8');
    expect(facts).toContain('vector clocks');
  });

  it('a one-word reply to an offer, in the next turn, is a decision with what it turned down', () => {
    const t = session();
    t.prompt('We need a store for the cart. What do you suggest?');
    t.say('Two options: **Pinia** (the official store now) or **Vuex** (maintenance mode). Which one?');
    t.stop();
    // The next turn's Stop reads the offer back from what the cursor recorded; large outputs the
    // turn archived at once (PostToolUse) come between, and would crowd it out of the archive's tail.
    t.prompt("Pinia. We're not adding anything new on Vuex.");
    for (let i = 0; i < 3; i++) t.tool('Read', { file_path: join(t.project, `src/store${i}.ts`) }, `export const x${i} = 1;\n`.repeat(8_000));
    t.say('Pinia it is.');
    t.stop();
    const facts = readFileSync(join(t.data, 'sessions', t.sid, 'facts.jsonl'), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { kind: string; chosen?: string; rejected?: string[] });
    expect(facts.find((f) => f.kind === 'decision' && f.chosen === 'Pinia')?.rejected).toEqual(['Vuex']);
  });

  it('a session that only asked a question writes nothing into the project', () => {
    const t = session();
    t.prompt('What does the --frozen-lockfile flag do?');
    t.say('It makes the install fail when the lockfile would change.');
    t.stop();
    t.hook('pre-compact', { hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: null });
    t.hook('session-end', { hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' });
    expect(existsSync(join(t.project, 'docs'))).toBe(false);
  });

  it('SessionEnd closes the last phase; a resume reopens it', () => {
    const t = session();
    walk(t);
    t.hook('session-end', { hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' });
    const last = readFileSync(join(t.data, 'sessions', t.sid, 'ledgers', 'phase-5-testing.md'), 'utf8');
    expect(last).toContain('status: "closed"');
    expect(last).not.toContain('(in progress)');
    const other = t.context(
      t.hook('user-prompt-expansion', {
        hook_event_name: 'UserPromptExpansion',
        session_id: 'someone-else',
        expansion_type: 'slash_command',
        command_name: 'recall',
        command_args: 'timeline',
      }),
    );
    // Only the asking session's running span is current; the ended session's are not.
    expect(other.slice(other.indexOf(`Session \`${t.sid}\``))).not.toContain('(current)');
    t.hook('session-start', { hook_event_name: 'SessionStart', source: 'resume' });
    const spans = (t.phaseFile().tracker as { spans: Array<{ end?: string }> }).spans;
    expect(spans.at(-1)?.end).toBeUndefined();
  });

  it("a subagent's tool calls do not move the session's phase", () => {
    const t = session();
    t.prompt('Start implementing the parser.');
    for (let i = 0; i < 8; i++) {
      t.hook('post-tool-use', {
        hook_event_name: 'PostToolUse',
        agent_id: 'agent-explore-1',
        agent_type: 'Explore',
        tool_name: 'Bash',
        tool_input: { command: 'git log --oneline -20' },
        tool_response: { stdout: 'abc123 fix', stderr: '' },
        tool_use_id: `toolu_sub_${i}`,
      });
    }
    expect((t.phaseFile().tracker as { phase: string }).phase).toBe('implementation');
  });

  it('a decision file already in the project is never rewritten, and a hostile session id stays inside', () => {
    const t = session({ sid: '../../escape' });
    walk(t);
    t.hook('pre-compact', { hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: null });
    expect(existsSync(join(t.home, 'escape'))).toBe(false);
    expect(readdirSync(t.l3('sessions'))).toEqual(['.._.._escape']);
    const [decision] = readdirSync(t.l3('decisions'));
    const file = t.l3('decisions', decision as string);
    writeFileSync(file, 'a teammate wrote this\n');
    rmSync(join(t.data, 'projects'), { recursive: true, force: true }); // a fresh data dir sees it again
    t.hook('pre-compact', { hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: null });
    expect(readFileSync(file, 'utf8')).toBe('a teammate wrote this\n');
  });
});

describe('concurrency', () => {
  it('parallel tool calls are all counted: each appends its digest, the next Stop folds them in order', async () => {
    const t = session();
    t.prompt('Start implementing the importer.');
    const calls = Array.from({ length: 8 }, (_, i) =>
      runHookAsync(
        'post-tool-use',
        JSON.stringify({
          session_id: t.sid,
          transcript_path: t.transcript,
          cwd: t.project,
          hook_event_name: 'PostToolUse',
          tool_name: 'Edit',
          tool_input: { file_path: join(t.project, `src/part${i}.ts`), old_string: 'a', new_string: 'b' },
          tool_response: {},
          tool_use_id: `toolu_par_${i}`,
        }),
        t.env,
        { cwd: t.project },
      ),
    );
    for (const r of await Promise.all(calls)) expect(r.status).toBe(0);
    t.stop();
    const spans = (t.phaseFile().tracker as { spans: Array<{ phase: string; events: number }> }).spans;
    expect(spans.reduce((n, s) => n + s.events, 0)).toBe(8);
    expect(spans.at(-1)?.phase).toBe('implementation');
    t.hook('pre-compact', { hook_event_name: 'PreCompact', trigger: 'manual', custom_instructions: null });
    const ledger = readFileSync(join(t.data, 'sessions', t.sid, 'ledgers', 'phase-2-implementation.md'), 'utf8');
    for (let i = 0; i < 8; i++) expect(ledger).toContain(`src/part${i}.ts`);
  });
});

describe('phase of archived tool output', () => {
  it('a large output archived by PostToolUse gets its phase when Stop reads the transcript', () => {
    const t = session();
    t.prompt("Let's design the export format.");
    const big = Array.from({ length: 900 }, (_, i) => `line ${i}: invoice row with amount ${i * 3} and currency EUR`).join('\n');
    t.tool('Bash', { command: 'cat fixtures/invoices.csv' }, big);
    t.stop();
    const chunks = readdirSync(join(t.data, 'sessions', t.sid, 'archived')).map((f) => readFileSync(join(t.data, 'sessions', t.sid, 'archived', f), 'utf8'));
    const tool = chunks.filter((c) => c.includes('tool: "Bash"'));
    expect(tool.length).toBeGreaterThan(0);
    for (const c of tool) expect(c).toContain('phase: "design"');
  });
});
