// Phase tracking end to end with the real client: one session walks through planning, design,
// implementation and testing over four `-p` turns (each phase named in the user's prompt, the mock
// model calling real tools in the sandbox project), then
// - the ledgers of the ended phases are on disk, in the data dir and in the project (L3), with what
//   each phase established: the decision and its reason, the files edited, the test result, the
//   user's constraint; the decision has its own file and a line in the project's decision log;
// - a fifth turn (resume) starts with the SessionStart brief in the model's first request: the phase,
//   the timeline and the decision;
// - `/context-lifecycle:phase` puts the phase status into the request it sends.
//
// Claude Code 2.1.332 in `-p` offers no Glob, Grep or TodoWrite (calls to them come back "No such
// tool available"), so the planning turn looks around with Read and `find` through Bash.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CtxlData } from '../support/ctxl-data.ts';
import { errorLines, hookProblems, runsOf } from '../support/debug-log.ts';
import { MockAnthropic, requestIncludes, requestTexts, text, toolUse } from '../support/mock-anthropic.ts';
import { type ClaudeResult, makeSandbox, REPO_ROOT, runClaude, type Sandbox } from '../support/run-claude.ts';
import { hookErrorAttachments, readTranscript, sessionStartContexts, transcriptPath } from '../support/transcript.ts';

const SESSION_START = 'SessionStart hook additional context: ';

const PROMPTS = {
  planning: "Let's plan this first: the API client in src/ needs a response cache. Never commit to main.",
  design: "Now let's design the cache layer.",
  implementation: 'Start implementing it.',
  testing: "Let's write the tests now.",
  resume: 'Where do we stand?',
};
const CONSTRAINT = 'Never commit to main.';
const DECISION = "I'll use an in-memory LRU map instead of Redis because the client runs in the browser too.";
const REASON = 'the client runs in the browser too';
const PHASE_ORDER = ['planning', 'design', 'implementation', 'testing'] as const;
type PhaseName = (typeof PHASE_ORDER)[number];

const CLIENT_BEFORE = 'export async function get(url) {\n  const res = await fetch(url);\n  return res.json();\n}\n';
const CLIENT_OLD = '  const res = await fetch(url);\n  return res.json();';
const CLIENT_NEW =
  '  const hit = cache.get(url);\n  if (hit !== undefined) return hit;\n  const res = await fetch(url);\n  const body = await res.json();\n  cache.set(url, body);\n  return body;';
const CACHE_SOURCE = `export class LruCache {
  constructor(max) {
    this.max = max;
    this.map = new Map();
  }
  get(key) {
    if (!this.map.has(key)) return undefined;
    const value = this.map.get(key);
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }
  set(key, value) {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value);
  }
}
`;
// A dependency-free test script that prints a vitest-like summary line.
const TEST_SOURCE = `import { LruCache } from '../src/cache.mjs';
let passed = 0;
let failed = 0;
const check = (name, ok) => {
  if (ok) passed++;
  else {
    failed++;
    console.log(' FAIL  ' + name);
  }
};
const c = new LruCache(2);
c.set('a', 1);
c.set('b', 2);
check('returns a stored value', c.get('a') === 1);
c.set('c', 3);
check('evicts the least recently used entry', c.get('b') === undefined);
check('keeps the recently used entries', c.get('a') === 1 && c.get('c') === 3);
console.log('');
console.log(' Test Files  ' + (failed === 0 ? '1 passed' : '1 failed') + ' (1)');
console.log('      Tests  ' + (failed === 0 ? '' : failed + ' failed | ') + passed + ' passed (' + (passed + failed) + ')');
`;
const TEST_COMMAND = 'node test/cache.test.mjs';

interface Ledger {
  name: string;
  n: number;
  phase: string;
  text: string;
}

/** The phase-<N>-<name>.md files of a folder, by span number (none when the folder is missing). */
function readLedgers(dir: string): Ledger[] {
  if (!existsSync(dir)) return [];
  const out: Ledger[] = [];
  for (const name of readdirSync(dir)) {
    const m = /^phase-(\d+)-([a-z]+)\.md$/.exec(name);
    if (m === null) continue;
    out.push({ name, n: Number(m[1]), phase: m[2] ?? '', text: readFileSync(join(dir, name), 'utf8') });
  }
  return out.sort((a, b) => a.n - b.n);
}

/** The one ledger of a phase (several would be a finding in itself: the assertion names them). */
function ledgerOf(ledgers: readonly Ledger[], phase: PhaseName): Ledger | undefined {
  const found = ledgers.filter((l) => l.phase === phase);
  return found.length === 1 ? found[0] : undefined;
}

const frontmatter = (text: string, key: string): string | undefined => new RegExp(`^${key}: (.*)$`, 'm').exec(text)?.[1];

/** The lines of one `## <title>` section of a ledger. */
function section(text: string, title: string): string {
  const start = text.indexOf(`\n## ${title}\n`);
  if (start === -1) return '';
  const next = text.indexOf('\n## ', start + title.length + 5);
  return text.slice(start, next === -1 ? undefined : next);
}

describe('a session walks through the phases: ledgers, decisions and the brief at resume (plugin-dir)', () => {
  const bin = inject('claudeBin');
  let mock: MockAnthropic;
  let sandbox: Sandbox;
  let data: CtxlData;
  let sid = '';
  const turns: Partial<Record<PhaseName | 'resume' | 'command', ClaudeResult>> = {};
  /** The data dir's ledgers after each phase turn. */
  const ledgersAfter: Partial<Record<PhaseName, Ledger[]>> = {};
  /** After turn 4. */
  let dataLedgers: Ledger[] = [];
  let projectLedgers: Ledger[] = [];
  /** What our SessionStart(resume) hook returned in turn 5 (from the transcript), and every SessionStart text in that run's first request. */
  let resumeBrief: string | undefined;
  let injectedAtResume: string[] = [];
  const dataLedgerDir = () => join(sandbox.data, 'sessions', sid, 'ledgers');
  const projectLedgerDir = () => join(sandbox.project, 'docs', 'memory', 'sessions', sid);
  const projectFile = (...parts: string[]) => join(sandbox.project, ...parts);

  beforeAll(async () => {
    mock = await MockAnthropic.start();
    sandbox = makeSandbox('phases');
    data = new CtxlData(sandbox.data);
    mkdirSync(projectFile('src'), { recursive: true });
    writeFileSync(projectFile('src', 'client.mjs'), CLIENT_BEFORE);
    const allowed = ['--allowedTools', 'Read', 'Write', 'Edit', 'Bash(find:*)', 'Bash(node test/cache.test.mjs)'];
    // The first turn starts the session; every later one resumes it.
    const claude = (label: string, prompt: string) =>
      runClaude({ bin, sandbox, mock, prompt, label, args: ['--plugin-dir', REPO_ROOT, ...allowed, ...(sid === '' ? [] : ['--resume', sid])] });
    const snapshot = (phase: PhaseName) => {
      ledgersAfter[phase] = readLedgers(dataLedgerDir());
    };

    // 1. Planning: look around (Read, find), then a plan in text.
    mock.script(
      toolUse('Read', { file_path: projectFile('src', 'client.mjs') }),
      toolUse('Bash', { command: "find src -name '*.mjs'", description: 'List the source files' }),
      text('Plan: add an LRU cache module in src/cache.mjs, use it in src/client.mjs, then cover it with tests.'),
    );
    turns.planning = await claude('planning', PROMPTS.planning);
    sid = turns.planning.sessionId ?? '';
    if (turns.planning.code !== 0 || sid === '') throw new Error(`turn 1 failed\n${turns.planning.describe()}`);
    snapshot('planning');

    // 2. Design: a design doc, and a decision with its reason in the answer.
    mock.script(
      toolUse('Write', { file_path: projectFile('docs', 'design', 'cache.md'), content: '# Response cache\n\nAn LRU map in memory, keyed by URL.\n' }),
      text(`Design written to docs/design/cache.md. ${DECISION}`),
    );
    turns.design = await claude('design', PROMPTS.design);
    snapshot('design');

    // 3. Implementation: a new source file and an edit of an existing one.
    mock.script(
      toolUse('Write', { file_path: projectFile('src', 'cache.mjs'), content: CACHE_SOURCE }),
      toolUse('Read', { file_path: projectFile('src', 'client.mjs') }),
      toolUse('Edit', { file_path: projectFile('src', 'client.mjs'), old_string: CLIENT_OLD, new_string: CLIENT_NEW }),
      text('The cache is in src/cache.mjs and src/client.mjs uses it.'),
    );
    turns.implementation = await claude('implementation', PROMPTS.implementation);
    snapshot('implementation');

    // 4. Testing: a test file, and a run of it that prints a vitest-like summary.
    mock.script(
      toolUse('Write', { file_path: projectFile('test', 'cache.test.mjs'), content: TEST_SOURCE }),
      toolUse('Bash', { command: TEST_COMMAND, description: 'Run the cache tests' }),
      text('All 3 cache tests pass.'),
    );
    turns.testing = await claude('testing', PROMPTS.testing);
    snapshot('testing');
    dataLedgers = ledgersAfter.testing ?? [];
    projectLedgers = readLedgers(projectLedgerDir());

    // 5. Resume: the brief is in the first request of the run.
    mock.script(text('RESUMED'));
    turns.resume = await claude('resume', PROMPTS.resume);
    const transcript = readTranscript(transcriptPath(sandbox.configDir, sandbox.project, sid));
    resumeBrief = sessionStartContexts(transcript, 'resume').at(-1)?.text;
    const first = turns.resume.requests.find((r) => r.kind === 'messages');
    injectedAtResume = (first === undefined ? [] : requestTexts(first)).filter((t) => t.includes(SESSION_START));

    // 6. The phase command, answered by our hook in the same step.
    mock.script(text('PHASE-RELAYED'));
    turns.command = await claude('phase-command', '/context-lifecycle:phase');
  });

  afterAll(async () => {
    await mock?.close();
    sandbox?.cleanup();
  });

  const runs = () => Object.values(turns);

  it('every turn succeeded, used its scripted replies, and no hook failed', () => {
    expect(runs().length).toBe(6);
    for (const run of runs()) {
      expect(run.code, run.describe()).toBe(0);
      expect(run.json?.is_error, run.describe()).toBe(false);
      expect(run.sessionId, run.describe()).toBe(sid);
      expect(hookProblems(run.debugLog), `${run.debugFile}\n${errorLines(run.debugLog).join('\n')}`).toEqual([]);
    }
    expect(turns.resume?.json?.result).toBe('RESUMED');
    expect(turns.command?.json?.result).toBe('PHASE-RELAYED');
    expect(mock.pending).toBe(0);
    expect(mock.problems).toEqual([]);
    expect(hookErrorAttachments(readTranscript(transcriptPath(sandbox.configDir, sandbox.project, sid)))).toEqual([]);
    expect(data.logErrors()).toEqual([]);
  });

  it('the tools really ran in the sandbox project', () => {
    expect(readFileSync(projectFile('docs', 'design', 'cache.md'), 'utf8')).toContain('LRU map');
    expect(readFileSync(projectFile('src', 'cache.mjs'), 'utf8')).toBe(CACHE_SOURCE);
    expect(readFileSync(projectFile('src', 'client.mjs'), 'utf8')).toContain('cache.get(url)');
    expect(readFileSync(projectFile('test', 'cache.test.mjs'), 'utf8')).toBe(TEST_SOURCE);
    // No tool call came back as an error: the find listing and the test output went back to the model.
    const afterFind = turns.planning?.requests.filter((r) => r.kind === 'messages')[2];
    expect(requestIncludes(afterFind, 'src/client.mjs')).toBe(true);
    const afterRun = turns.testing?.requests.filter((r) => r.kind === 'messages')[2];
    expect(requestIncludes(afterRun, 'Tests  3 passed (3)')).toBe(true);
    for (const run of runs()) {
      for (const r of run.requests) expect(JSON.stringify(r.body)).not.toContain('<tool_use_error>');
    }
    expect(runsOf(turns.testing?.debugLog ?? '', 'PostToolUse', 'Bash').map((r) => r.status)).toEqual([0]);
  });

  it('each prompt set its phase at once: the ledger of the phase it ended was written at the end of that turn', () => {
    const phasesIn = (phase: PhaseName) => (ledgersAfter[phase] ?? []).map((l) => `${l.phase}:${frontmatter(l.text, 'status') ?? '?'}`);
    // After each turn (one `claude -p` run, so one session end): every phase so far has its ledger,
    // the ended ones written by Stop, the running one by SessionEnd, which closes it (a resume reopens).
    expect(phasesIn('planning')).toEqual(expect.arrayContaining(['planning:"closed"']));
    expect(phasesIn('design')).toEqual(expect.arrayContaining(['planning:"closed"', 'design:"closed"']));
    expect(phasesIn('implementation')).toEqual(expect.arrayContaining(['planning:"closed"', 'design:"closed"', 'implementation:"closed"']));
    expect(phasesIn('testing')).toEqual(expect.arrayContaining(['planning:"closed"', 'design:"closed"', 'implementation:"closed"', 'testing:"closed"']));
    // Each phase entered by the user's words.
    for (const phase of PHASE_ORDER) {
      const ledger = ledgerOf(dataLedgers, phase);
      expect(ledger, `one ${phase} ledger among ${dataLedgers.map((l) => l.name).join(', ')}`).toBeDefined();
      expect(frontmatter(ledger?.text ?? '', 'trigger') ?? '').toMatch(/^"prompt: /);
    }
    const numbers = PHASE_ORDER.map((p) => ledgerOf(dataLedgers, p)?.n ?? Number.NaN);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  });

  it('the ledgers are those of the four phases: none for the moment before the first prompt set one', () => {
    // The first prompt opens planning in UserPromptSubmit; the "unknown" span it closes lasted
    // milliseconds, saw no tool call, and has nothing of its own to record.
    const names = dataLedgers.map((l) => l.name);
    expect(
      dataLedgers.map((l) => l.phase),
      `${names.join(', ')}\n\n${dataLedgers
        .filter((l) => l.phase === 'unknown')
        .map((l) => l.text)
        .join('\n')}`,
    ).toEqual([...PHASE_ORDER]);
  });

  it('the ledgers in the project mirror the data dir', () => {
    expect(projectLedgers.map((l) => l.name)).toEqual(dataLedgers.map((l) => l.name));
    for (const ledger of dataLedgers) expect(projectLedgers.find((l) => l.name === ledger.name)?.text, ledger.name).toBe(ledger.text);
    expect(existsSync(projectFile('docs', 'memory', 'README.md'))).toBe(true);
  });

  it('the design ledger holds the decision with its reason; every ledger the constraint', () => {
    const design = ledgerOf(dataLedgers, 'design')?.text ?? '';
    const decisions = section(design, 'Decisions');
    expect(decisions, design).toContain(DECISION);
    expect(decisions).toContain(REASON);
    expect(decisions).toMatch(/\*\*D-[0-9a-f]{8}\*\*/);
    expect(section(design, 'Files touched')).toContain('`docs/design/cache.md`');
    for (const phase of PHASE_ORDER) {
      const text = ledgerOf(dataLedgers, phase)?.text ?? '';
      expect(section(text, 'Constraints'), `${phase} ledger:\n${text}`).toContain(CONSTRAINT);
    }
    // Decided in the design phase: not in the other ledgers.
    for (const phase of ['planning', 'implementation', 'testing'] as const) expect(ledgerOf(dataLedgers, phase)?.text ?? '').not.toContain(DECISION);
  });

  it('the implementation ledger lists the files edited; the testing ledger the test file and the result', () => {
    const impl = ledgerOf(dataLedgers, 'implementation')?.text ?? '';
    const files = section(impl, 'Files touched');
    expect(files, impl).toContain('`src/cache.mjs`');
    expect(files).toContain('`src/client.mjs`');
    expect(files).not.toContain('cache.test.mjs');
    const testing = ledgerOf(dataLedgers, 'testing')?.text ?? '';
    expect(section(testing, 'Files touched'), testing).toContain('`test/cache.test.mjs`');
    expect(section(testing, 'Commands and test results')).toContain(`\`${TEST_COMMAND}\` (vitest): 3 passed, 0 failed`);
    expect(frontmatter(testing, 'tests')).toBe(JSON.stringify({ passed: 3, failed: 0, skipped: 0 }));
    const planning = ledgerOf(dataLedgers, 'planning')?.text ?? '';
    expect(planning).toContain('file read');
    expect(section(planning, 'Files touched')).toBe('');
  });

  it('the count of files read stands apart from the list before it (no Markdown lazy continuation)', () => {
    // "- item\n1 file read besides." renders the count as part of the list's last item.
    for (const ledger of dataLedgers) {
      const at = ledger.text.search(/^\d+ files? read besides\.$/m);
      if (at === -1) continue;
      expect(ledger.text.slice(at - 2, at), `${ledger.name}:\n${ledger.text}`).toBe('\n\n');
    }
    expect(dataLedgers.some((l) => /^\d+ files? read besides\.$/m.test(l.text))).toBe(true);
  });

  it('the decision has its own file in the project and a line in the decision log', () => {
    const dir = projectFile('docs', 'memory', 'decisions');
    const files = existsSync(dir) ? readdirSync(dir) : [];
    expect(files).toEqual([expect.stringMatching(/^D-[0-9a-f]{8}\.md$/)]);
    const id = (files[0] ?? '').replace(/\.md$/, '');
    const file = readFileSync(join(dir, files[0] ?? ''), 'utf8');
    expect(file).toContain(DECISION);
    expect(file).toContain(`phase: "design"`);
    expect(file).toContain(`session: ${JSON.stringify(sid)}`);
    expect(ledgerOf(dataLedgers, 'design')?.text).toContain(`decisions: ${JSON.stringify([id])}`);

    const log = join(sandbox.data, 'projects', sandbox.project.replace(/[^a-zA-Z0-9]/g, '-'), 'decisions.jsonl');
    expect(existsSync(log), log).toBe(true);
    const records = readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as { id: string; text: string; reason?: string; chosen?: string; rejected?: string[]; phase: string });
    expect(records).toEqual([
      expect.objectContaining({ id, text: DECISION, reason: REASON, chosen: 'an in-memory LRU map', rejected: ['Redis'], phase: 'design' }),
    ]);
  });

  it('at resume, the first request carries the brief: phase, timeline, constraint and decision', () => {
    expect(runsOf(turns.resume?.debugLog ?? '', 'SessionStart', 'resume').map((r) => r.status)).toEqual([0]);
    const brief = resumeBrief ?? '';
    // The request replays the earlier turns with their own SessionStart texts: this run's is the last one.
    expect(injectedAtResume.at(-1), `first request of ${turns.resume?.debugFile}`).toContain(`${SESSION_START}${brief}`);
    expect(brief).toContain('## context-lifecycle: where the work stands');
    expect(brief).toMatch(/This session is in the \*\*testing\*\* phase \(since [^)]*prompt: "Let's write the tests now"\)/);
    const timeline = /^Timeline: (.*)$/m.exec(brief)?.[1] ?? '';
    expect(timeline, brief).toMatch(/^planning \S+ → design \S+ → implementation \S+ → testing \S+ \(now\)$/);
    expect(brief).toContain(`The user's constraints:\n- ${CONSTRAINT}`);
    const decisions = brief.slice(brief.indexOf('Recent decisions (newest first):'));
    expect(decisions, brief).toMatch(/^Recent decisions \(newest first\):\n- \*\*D-[0-9a-f]{8}\*\* \d{4}-\d\d-\d\d design: /);
    expect(decisions).toContain(DECISION);
    expect(brief).toContain(`Last test run: \`${TEST_COMMAND}\` (vitest): 3 passed, 0 failed`);
    expect(brief).toContain('`/context-lifecycle:recall <words>`');
  });

  it('/context-lifecycle:phase attached the phase status to the request it sent', () => {
    const log = turns.command?.debugLog ?? '';
    expect(runsOf(log, 'UserPromptExpansion').map((r) => r.status)).toEqual([0]);
    const request = turns.command?.requests.find((r) => r.kind === 'messages');
    expect(requestIncludes(request, 'UserPromptExpansion hook additional context: context-lifecycle: Current phase: **testing**')).toBe(true);
    expect(requestIncludes(request, 'Timeline of this session:')).toBe(true);
    const status = (request === undefined ? [] : requestTexts(request)).find((t) => t.includes('Timeline of this session:')) ?? '';
    const listed = [...status.matchAll(/^\d+\. ([a-z]+), /gm)].map((m) => m[1]);
    expect(listed, status).toEqual([...PHASE_ORDER]);
  });
});
