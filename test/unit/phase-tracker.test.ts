// lib/phase/signals.ts and lib/phase/tracker.ts: what tool calls and prompts say about the phase,
// and the state machine that turns them into spans (pure).
import { describe, expect, it } from 'vitest';
import { commandKind, type Phase, parsePhaseName, promptPhase, type SignalKind, type ToolSignal, toolSignal } from '../../lib/phase/signals.ts';
import { newPhaseState, observeTool, PHASE_STATE_VERSION, type PhaseState, readPhaseState, setPhase, type Transition } from '../../lib/phase/tracker.ts';

const ROOT = '/path/to/project';
const at = (i: number) => new Date(Date.UTC(2026, 10, 2, 9, 0, 0) + i * 1000).toISOString();

const sig = (kind: SignalKind, detail?: string): ToolSignal => (detail === undefined ? { kind } : { kind, detail });
const read = (f = 'billing.ts') => sig('read', f);
const search = () => sig('search', 'dueDate');
const src = (f = 'billing.ts') => sig('edit-source', f);
const test = (f = 'billing.test.ts') => sig('edit-test', f);
const doc = (f = 'late-fees.md') => sig('edit-doc', f);
const run = () => sig('test-run', 'npm test');
const build = () => sig('build', 'tsc --noEmit');
const diff = () => sig('review-cmd', 'git diff');
const todo = () => sig('todo', 'new task list of 4');

/** Feeds the signals in order; returns the transitions that happened. */
function feed(state: PhaseState, signals: ToolSignal[], clock = { i: 1 }): Transition[] {
  const out: Transition[] = [];
  for (const s of signals) {
    const t = observeTool(state, s, at(clock.i++));
    if (t !== undefined) out.push(t);
  }
  return out;
}

/** A state in `phase`, reached by tools (no quiet period), with a neutral window. */
function inPhase(phase: Exclude<Phase, 'unknown'>): PhaseState {
  const state = newPhaseState(at(0));
  setPhase(state, phase, 'prompt', `prompt: "${phase}"`, at(0));
  feed(
    state,
    Array.from({ length: 10 }, () => sig('other')),
  );
  expect(state.phase).toBe(phase);
  return state;
}

const call = (tool: string, input: unknown, ok = true) => toolSignal({ tool, input, ok });
const edit = (path: string) => call('Edit', { file_path: `${ROOT}/${path}`, old_string: 'a', new_string: 'b' });

describe('toolSignal', () => {
  it('reads and searches', () => {
    expect(call('Read', { file_path: `${ROOT}/src/billing.ts` })).toEqual({ kind: 'read', detail: 'billing.ts' });
    expect(call('Grep', { pattern: 'dueDate', path: `${ROOT}/src` })).toEqual({ kind: 'search', detail: 'dueDate' });
    expect(call('Glob', { pattern: 'src/**/*.ts' })).toEqual({ kind: 'search', detail: 'src/**/*.ts' });
    expect(call('LS', { path: `${ROOT}/src` })).toEqual({ kind: 'search', detail: 'src' });
  });

  it('classifies edits to source, whatever the editing tool', () => {
    expect(edit('src/services/billing.ts')).toEqual({ kind: 'edit-source', detail: 'billing.ts' });
    expect(call('Write', { file_path: `${ROOT}/internal/queue/retry.go`, content: 'x' }).kind).toBe('edit-source');
    expect(call('MultiEdit', { file_path: `${ROOT}/src/lib.rs`, edits: [] }).kind).toBe('edit-source');
    expect(call('NotebookEdit', { notebook_path: `${ROOT}/analysis.ipynb`, new_source: 'x' })).toEqual({ kind: 'edit-source', detail: 'analysis.ipynb' });
    expect(edit('src/locales/en.json').kind).toBe('edit-source');
  });

  it.each([
    'test/routes/invoices.ts',
    'tests/render.rs',
    'src/__tests__/chart.tsx',
    'spec/models/user_spec.rb',
    'src/money.test.ts',
    'src/components/Chart.spec.tsx',
    'internal/queue/worker_test.go',
    'tests/test_parser.py',
    'ledgerkit/parser_test.py',
  ])('edits to %s are edits to tests', (path) => {
    expect(edit(path).kind).toBe('edit-test');
  });

  it.each(['README.md', 'docs/design/late-fees.md', 'docs/adr/0007-rounding.md', 'docs/guide.txt', 'NOTES.rst', 'docs/diagrams/flow.svg'])(
    'edits to %s are docs',
    (path) => {
      expect(edit(path).kind).toBe('edit-doc');
    },
  );

  it.each([
    'package.json',
    'tsconfig.build.json',
    '.github/workflows/ci.yml',
    'config.yaml',
    'Dockerfile',
    'pyproject.toml',
    'Cargo.toml',
    'requirements-dev.txt',
  ])('edits to %s are config', (path) => {
    expect(edit(path).kind).toBe('edit-config');
  });

  it('counts the plan file of plan mode as a plan, not a design doc', () => {
    expect(call('Write', { file_path: '/path/to/home/.claude/plans/late-fees.md', content: '# Plan' }).kind).toBe('todo');
  });

  it('classifies shell commands, naming what ran rather than the cd before it', () => {
    expect(call('Bash', { command: 'cd packages/api && npm test 2>&1 | tail -20', description: 'Run tests' })).toEqual({
      kind: 'test-run',
      detail: 'npm test',
    });
    expect(call('Bash', { command: 'npx tsc --noEmit' }).kind).toBe('build');
    expect(call('Bash', { command: 'gh pr diff 42' }).kind).toBe('review-cmd');
    expect(call('Bash', { command: 'npm install date-fns' }).kind).toBe('shell');
  });

  it('counts looking around through the shell as searching, but not writing through it', () => {
    expect(call('Bash', { command: 'ls -la src && rg -n "dueDate" src | head -20' }).kind).toBe('search');
    expect(call('Bash', { command: 'git status' }).kind).toBe('search');
    expect(call('Bash', { command: "cat > src/a.ts << 'EOF'\nexport {}\nEOF" }).kind).toBe('shell');
    expect(call('Bash', { command: 'echo x > notes.txt' }).kind).toBe('shell');
  });

  it('takes a fresh task list as a plan and ticking items off as progress', () => {
    const fresh = call('TodoWrite', {
      todos: [
        { content: 'Add the fee', status: 'in_progress', activeForm: 'Adding the fee' },
        { content: 'Test it', status: 'pending', activeForm: 'Testing it' },
      ],
    });
    expect(fresh).toEqual({ kind: 'todo', detail: 'new task list of 2' });
    const progress = call('TodoWrite', {
      todos: [
        { content: 'Add the fee', status: 'completed', activeForm: 'Adding the fee' },
        { content: 'Test it', status: 'in_progress', activeForm: 'Testing it' },
      ],
    });
    expect(progress).toEqual({ kind: 'other', detail: 'task list: 1 of 2 done' });
  });

  it('web, subagents, plan approval and unknown tools', () => {
    expect(call('WebFetch', { url: 'https://date-fns.org/docs/x', prompt: 'p' })).toEqual({ kind: 'web', detail: 'date-fns.org' });
    expect(call('WebSearch', { query: 'ofx spec' })).toEqual({ kind: 'web', detail: 'ofx spec' });
    expect(call('Task', { subagent_type: 'Explore', description: 'Find the retry path', prompt: '…' }).kind).toBe('search');
    expect(call('Task', { subagent_type: 'general-purpose', description: 'Create components', prompt: '…' }).kind).toBe('other');
    expect(call('ExitPlanMode', { plan: '1. …' })).toEqual({ kind: 'plan-exit', detail: 'plan approved' });
    expect(call('ExitPlanMode', { plan: '1. …' }, false).kind).toBe('other');
    expect(call('mcp__github__get_pull_request_diff', { pull_number: 3 }).kind).toBe('review-cmd');
    expect(call('mcp__memory__store', 'not an object')).toEqual({ kind: 'other', detail: 'mcp__memory__store' });
  });

  it('keeps the kind of a failed call and bounds the detail', () => {
    expect(call('Bash', { command: 'pytest -q' }, false).kind).toBe('test-run');
    expect(call('Edit', {}).kind).toBe('edit-source');
    expect((call('WebSearch', { query: 'q'.repeat(500) }).detail ?? '').length).toBeLessThanOrEqual(48);
  });
});

describe('commandKind', () => {
  it.each([
    'npm test',
    'pnpm test',
    'yarn test',
    'npm run test:unit -- --grep fee',
    'npx vitest run test/billing.test.ts',
    'jest --watch=false',
    'pytest -x tests/',
    'python -m pytest -q',
    'uv run pytest',
    'go test ./...',
    'cargo test --lib',
    'cargo nextest run',
    'node --test',
    'mocha',
    'bundle exec rspec',
    'vendor/bin/phpunit',
    'dotnet test',
    'make test',
    './gradlew test',
    'pnpm exec playwright test',
    './mvnw test',
    'dbt test --select orders',
    'xcodebuild -scheme FieldOps -destination "platform=iOS Simulator,name=iPhone 15" test',
    'php artisan test --filter ContactImportTest',
    'xcodebuild test-without-building -scheme FieldOps',
    'dbt build --select orders+',
  ])('%s runs tests', (command) => {
    expect(commandKind(command)).toBe('test-run');
  });

  it.each(['xcodebuild -showdestinations -scheme test', 'dbt run --select orders', 'php artisan migrate'])('%s runs no tests', (command) => {
    expect(commandKind(command)).not.toBe('test-run');
  });

  it.each([
    'tsc --noEmit',
    'npx tsc -p .',
    'npm run build',
    'cargo build',
    'cargo check --all-targets',
    'go build ./...',
    'go vet ./...',
    'make',
    'gradle build',
    'mvn -q package',
    'npx eslint src',
    'npx biome check .',
    'ruff check .',
    'mypy src',
  ])('%s builds or checks', (command) => {
    expect(commandKind(command)).toBe('build');
  });

  it.each([
    'git diff',
    'git diff --stat main',
    'git --no-pager log --oneline -10',
    'git -C repo show HEAD',
    'git blame -L 1,20 src/a.ts',
    'gh pr view 42',
    'gh pr diff 42',
    'gh pr review 42 --approve',
    'gh pr checks 42',
    'git range-diff a..b c..d',
  ])('%s is a review command', (command) => {
    expect(commandKind(command)).toBe('review-cmd');
  });

  it.each(['git status', 'git commit -m "fix && npm test"', 'npm install', 'ls -la', 'make run', 'echo "run npm test later"', 'gh pr create --fill', ''])(
    '%s is just shell',
    (command) => {
      expect(commandKind(command)).toBe('shell');
    },
  );

  it('sees through cd, env prefixes, wrappers, pipes and bash -c', () => {
    expect(commandKind('cd web && npm test')).toBe('test-run');
    expect(commandKind('CI=1 NODE_ENV=test npx vitest run')).toBe('test-run');
    expect(commandKind('env RUST_BACKTRACE=1 cargo test stream')).toBe('test-run');
    expect(commandKind('timeout 120 go test ./... 2>&1 | grep -v "no test files"')).toBe('test-run');
    expect(commandKind('git diff | head -100')).toBe('review-cmd');
    expect(commandKind('bash -c "cd api && pytest -q"')).toBe('test-run');
    expect(commandKind('pnpm --filter api test')).toBe('test-run');
    // The strongest part wins: a build and then the tests is a test run.
    expect(commandKind('npm run build && npm test')).toBe('test-run');
  });
});

describe('promptPhase', () => {
  it.each<[string, Exclude<Phase, 'unknown'>, string]>([
    ["let's plan this", 'planning', "let's plan this"],
    ["Let's plan the migration to pgx v5 first.", 'planning', "Let's plan the migration to pgx v5 first"],
    ["Let's start with the design.", 'design', "Let's start with the design"],
    ['Looks good. Now implement it.', 'implementation', 'Now implement it'],
    ['OK, start implementing', 'implementation', 'start implementing'],
    ['Implement retries with backoff.', 'implementation', 'Implement retries with backoff'],
    ["Great, let's write the tests for the importer.", 'testing', "let's write the tests for the importer"],
    ['Time to test.', 'testing', 'Time to test'],
    ['Please review the changes before I open the PR.', 'review', 'Please review the changes before I open the PR'],
    ['review the PR', 'review', 'review the PR'],
    ['Can you review the diff?', 'review', 'Can you review the diff'],
    ["Don't implement yet, just plan.", 'planning', 'just plan'],
  ])('%s → %s', (prompt, phase, quote) => {
    expect(promptPhase(prompt)).toEqual({ phase, quote });
  });

  it.each([
    "don't implement yet",
    'Do not implement it yet.',
    'how would you test this?',
    'Should we write tests?',
    'the test is failing',
    'Test failures in CI since Monday',
    'Can you preview the page?',
    'The reviewer left comments below',
    'Review comments are in the doc',
    'Plan: add the fee, then the job',
    'I said to implement it',
    "Let's implement it later",
    'If you review it, look at the locking',
    'Why does the build fail?',
  ])('%s is no phase statement', (prompt) => {
    expect(promptPhase(prompt)).toBeUndefined();
  });

  it('ignores pasted logs, code blocks and inline code', () => {
    const log = [
      'Getting this in CI:',
      '2026-11-02T09:00:01Z ERROR please review the changes',
      'FAIL  src/billing.test.ts > review the PR',
      '    at applyCredit (src/services/billing.ts:88:31)',
      '```',
      "let's write the tests",
      '```',
      'Run `implement it` to see.',
    ].join('\n');
    expect(promptPhase(log)).toBeUndefined();
    expect(promptPhase(`${log}\nAnyway, let's write the tests first.`)).toEqual({ phase: 'testing', quote: "let's write the tests first" });
  });

  it('takes the current instruction, not what comes later', () => {
    expect(promptPhase('Implement the parser, then write the tests.')?.phase).toBe('implementation');
    expect(promptPhase('Before you implement anything, please plan it out.')?.phase).toBe('planning');
  });
});

describe('parsePhaseName', () => {
  it.each<[string, Exclude<Phase, 'unknown'>]>([
    ['plan', 'planning'],
    ['Planning', 'planning'],
    ['design', 'design'],
    ['architecture', 'design'],
    ['ARCH', 'design'],
    ['implement', 'implementation'],
    ['impl', 'implementation'],
    ['code', 'implementation'],
    ['coding', 'implementation'],
    ['build', 'implementation'],
    ['test', 'testing'],
    ['tests', 'testing'],
    ['QA', 'testing'],
    ['review', 'review'],
    [' Reviewing. ', 'review'],
  ])('%s → %s', (word, phase) => {
    expect(parsePhaseName(word)).toBe(phase);
  });

  it('knows nothing else', () => {
    for (const word of ['', 'unknown', 'deploy', 'phase', 'plans x']) expect(parsePhaseName(word)).toBeUndefined();
  });
});

describe('phase tracker', () => {
  it('starts unknown, with one span by start', () => {
    const state = newPhaseState(at(0));
    expect(state.version).toBe(PHASE_STATE_VERSION);
    expect(state.phase).toBe('unknown');
    expect(state.spans).toEqual([{ n: 1, phase: 'unknown', start: at(0), by: 'start', trigger: 'session start', signals: {}, events: 0 }]);
  });

  it('calls the first look around planning, from its first call', () => {
    const state = newPhaseState(at(0));
    expect(feed(state, [read(), search()])).toEqual([]); // a review or a test pass also starts by reading
    expect(state.phase).toBe('unknown');
    const [t] = feed(state, [read()], { i: 3 });
    expect(state.phase).toBe('planning');
    expect(t).toMatchObject({ from: 'unknown', to: 'planning', span: { n: 2, by: 'tools', start: at(1), events: 3 } });
    expect(t?.span.trigger).toMatch(/^tools: .*read/);
    // A task list is planning at once.
    const listed = newPhaseState(at(0));
    expect(feed(listed, [todo()]).map((x) => x.to)).toEqual(['planning']);
  });

  it('a session that opens on a PR is not planning from the reading that follows: it becomes a review', () => {
    const state = newPhaseState(at(0));
    expect(feed(state, [sig('review-cmd', 'gh pr view'), read(), read('money.ts'), search(), read()])).toEqual([]);
    expect(state.phase).toBe('unknown');
    const ts = feed(state, [sig('review-cmd', 'git diff main...HEAD')], { i: 6 });
    expect(ts.map((t) => t.to)).toEqual(['review']);
    expect(state.spans.at(-1)).toMatchObject({ start: at(1), events: 6 }); // the review began with the PR
  });

  it('the first phase found from the tools starts with the session: the reading before it was its way in', () => {
    const state = newPhaseState(at(0));
    const ts = feed(state, [read('billing.test.ts'), search(), test('fees.test.ts')]);
    expect(ts.map((t) => t.to)).toEqual(['testing']);
    expect(state.spans.at(-1)).toMatchObject({ phase: 'testing', start: at(1), events: 3 });
    expect(state.spans[0]).toMatchObject({ phase: 'unknown', events: 0, end: at(1) });
  });

  it('moves to implementation on sustained source edits, and says why', () => {
    const state = inPhase('planning');
    const ts = feed(state, [read(), src('billing.ts'), read(), src('money.ts'), src('billing.ts')]);
    expect(state.phase).toBe('implementation');
    expect(ts).toHaveLength(1);
    expect(ts[0]?.span.trigger).toBe('tools: all of the last 2 changes edited source files (money.ts, billing.ts)');
  });

  it('keeps a quick fix in the middle of a design or a plan', () => {
    const design = inPhase('design');
    expect(feed(design, [read(), doc(), read('money.ts'), src('money.ts'), run(), read(), doc(), search(), read()])).toEqual([]);
    expect(design.phase).toBe('design');
    const planning = inPhase('planning');
    expect(feed(planning, [read(), search(), read('money.ts'), src('money.ts'), run(), read(), search(), todo(), read()])).toEqual([]);
    expect(planning.phase).toBe('planning');
  });

  it('keeps implementation and testing through reads and searches', () => {
    for (const phase of ['implementation', 'testing'] as const) {
      const state = inPhase(phase);
      expect(feed(state, [read(), search(), read('a.ts'), search(), read('b.ts'), sig('web', 'docs.rs'), read(), search(), read()])).toEqual([]);
      expect(state.phase).toBe(phase);
    }
  });

  it('keeps implementation through edit-run cycles, builds and a git diff', () => {
    const state = inPhase('implementation');
    const cycles = [src(), run(), src(), run(), test(), src(), run(), build(), src(), diff(), read(), src(), run(), src(), build(), run()];
    expect(feed(state, cycles)).toEqual([]);
    expect(state.phase).toBe('implementation');
  });

  it('moves to testing when the edits turn to tests, with runs', () => {
    const state = inPhase('implementation');
    const ts = feed(state, [src(), src(), read('billing.test.ts'), test('fees.test.ts'), run(), test('fees.test.ts'), run()]);
    expect(state.phase).toBe('testing');
    expect(ts.map((t) => t.to)).toEqual(['testing']);
    expect(ts[0]?.span.trigger).toMatch(/^tools: \d of the last \d changes edited tests and \d (was a test run|were test runs) \(fees\.test\.ts\)$/);
  });

  it('moves to review on diffs and reading with no edits after implementation', () => {
    const state = inPhase('implementation');
    feed(state, [src(), src(), run()]);
    const ts = feed(state, [sig('review-cmd', 'git diff main...HEAD'), read(), read('money.ts'), sig('review-cmd', 'git log --oneline'), read()]);
    expect(state.phase).toBe('review');
    expect(ts[0]?.span.trigger).toContain('review commands');
  });

  it('moves from review to implementation when the review turns into source edits', () => {
    const state = inPhase('review');
    feed(state, [diff(), read(), read()]);
    const ts = feed(state, [read('retry.go'), src('retry.go'), run(), src('worker.go')]);
    expect(state.phase).toBe('implementation');
    expect(ts.map((t) => [t.from, t.to])).toEqual([['review', 'implementation']]);
  });

  it('re-plans on a fresh task list with reading and no edits', () => {
    const state = inPhase('implementation');
    feed(state, [src(), run()]);
    feed(state, [read(), search(), todo(), read(), search(), read()]);
    expect(state.phase).toBe('planning');
    expect(state.spans.at(-1)?.trigger).toMatch(/^tools: a new task list and \d reads or searches/);
  });

  it('moves to design when docs are written after reading', () => {
    const state = inPhase('planning');
    feed(state, [read(), search(), read('worker.go'), sig('web', 'pkg.go.dev'), doc('retry-backoff.md'), read()]);
    expect(state.phase).toBe('design');
    expect(state.spans.at(-1)?.trigger).toContain('retry-backoff.md');
  });

  it('keeps a README and CHANGELOG touch at the end of implementation', () => {
    const state = inPhase('implementation');
    feed(state, [src(), run(), read(), doc('README.md'), read('CHANGELOG.md'), doc('CHANGELOG.md')]);
    expect(state.phase).toBe('implementation');
  });

  it('starts implementation when the plan is approved', () => {
    const state = inPhase('planning');
    const [t] = feed(state, [todo(), sig('plan-exit', 'plan approved')]);
    expect(t).toMatchObject({ from: 'planning', to: 'implementation', span: { trigger: 'tools: the plan was approved (ExitPlanMode)' } });
    // The plan and the reading before it no longer count: reading on stays implementation.
    feed(state, [read(), read(), search(), read()]);
    expect(state.phase).toBe('implementation');
  });

  it('applies an explicit change at once and closes the previous span', () => {
    const state = inPhase('implementation');
    const t = setPhase(state, 'review', 'explicit', 'explicit: /phase review', at(100));
    expect(t).toMatchObject({ from: 'implementation', to: 'review', span: { by: 'explicit', trigger: 'explicit: /phase review', start: at(100) } });
    expect(state.phase).toBe('review');
    expect(state.spans.at(-2)?.end).toBe(at(100));
  });

  it('only notes the reason when already in that phase', () => {
    const state = inPhase('planning');
    feed(state, [src(), src(), src()]);
    expect(state.spans.at(-1)?.by).toBe('tools');
    const spans = state.spans.length;
    expect(setPhase(state, 'implementation', 'prompt', 'prompt: "now implement it"', at(50))).toBeUndefined();
    expect(state.spans).toHaveLength(spans);
    expect(state.spans.at(-1)).toMatchObject({ by: 'prompt', trigger: 'prompt: "now implement it"' });
    // A weaker reason does not overwrite a stronger one.
    setPhase(state, 'implementation', 'handoff', 'handoff: "next: implementation"', at(51));
    expect(state.spans.at(-1)?.by).toBe('prompt');
  });

  it('stays in a phase the user named while Claude reads a lot, even with a task list', () => {
    const state = newPhaseState(at(0));
    setPhase(state, 'design', 'prompt', `prompt: "let's design the cache"`, at(0));
    feed(state, [todo(), read(), read(), search(), sig('web', 'docs.rs'), read(), search(), read(), read(), search(), read(), read()]);
    expect(state.phase).toBe('design');
  });

  it('needs one more agreeing call right after the user named a phase, then the usual evidence', () => {
    const fresh = newPhaseState(at(0));
    setPhase(fresh, 'design', 'prompt', `prompt: "let's start with the design"`, at(0));
    feed(fresh, [read(), src(), src()]);
    expect(fresh.phase).toBe('design');
    feed(fresh, [src()]);
    expect(fresh.phase).toBe('implementation');

    const later = newPhaseState(at(0));
    setPhase(later, 'design', 'prompt', `prompt: "let's start with the design"`, at(0));
    feed(later, [read(), search(), read(), sig('web', 'docs.rs'), read(), search(), read(), read(), read(), search()]);
    expect(later.phase).toBe('design');
    feed(later, [read(), src(), src()]);
    expect(later.phase).toBe('implementation');
  });

  it('counts signals and events per span', () => {
    const state = newPhaseState(at(0));
    feed(state, [read(), read(), search(), src(), src(), run()]);
    const [first, planning, implementation] = state.spans;
    expect(first?.events).toBe(0);
    // The second source edit settles implementation; the span starts at the first one (the run that
    // showed the change), which moves there with its count.
    expect(planning).toMatchObject({ phase: 'planning', events: 3, signals: { read: 2, search: 1 } });
    expect(implementation).toMatchObject({ phase: 'implementation', events: 3, signals: { 'edit-source': 2, 'test-run': 1 } });
    expect(implementation?.start).toBe(at(4));
    expect(planning?.end).toBe(at(4));
  });

  it('keeps at most 200 spans, numbering on, and a bounded window', () => {
    const state = newPhaseState(at(0));
    for (let i = 0; i < 260; i++) setPhase(state, i % 2 === 0 ? 'design' : 'review', 'explicit', `explicit: ${i}`, at(i));
    expect(state.spans).toHaveLength(200);
    expect(state.dropped).toBe(61);
    expect(state.spans[0]?.n).toBe(62);
    expect(state.spans.at(-1)?.n).toBe(261);
    const size = JSON.stringify(state).length;
    feed(
      state,
      Array.from({ length: 1000 }, (_, i) => read(`file-${i}.ts`)),
    );
    expect(JSON.stringify(state).length).toBeLessThan(size + 2_000);
  });

  it('survives a JSON round trip and carries on the same', () => {
    const a = newPhaseState(at(0));
    setPhase(a, 'planning', 'prompt', `prompt: "let's plan this"`, at(0));
    feed(a, [read(), search(), src()]);
    const b = readPhaseState(JSON.parse(JSON.stringify(a)));
    expect(b).toEqual(a);
    if (b === undefined) return;
    const next = [src(), run(), src(), test(), read()];
    feed(a, next, { i: 10 });
    feed(b, next, { i: 10 });
    expect(b).toEqual(a);
  });

  it('reads a hand-edited state: extra fields, missing optional ones, spans out of order', () => {
    const edited = {
      version: 1,
      phase: 'implementation',
      note: 'edited by hand',
      spans: [
        { n: 2, phase: 'implementation', start: at(20), by: 'prompt', trigger: 'prompt: "implement it"', signals: { 'edit-source': 3, bogus: 2 } },
        { n: 1, phase: 'planning', start: at(0), end: at(20), by: 'tools', trigger: 'tools: reads', signals: {}, events: 4, colour: 'blue' },
        { n: 'three', phase: 'review' },
      ],
    };
    const state = readPhaseState(edited);
    expect(state).toBeDefined();
    expect(state?.spans.map((s) => s.n)).toEqual([1, 2]);
    expect(state?.spans[1]).toEqual({
      n: 2,
      phase: 'implementation',
      start: at(20),
      by: 'prompt',
      trigger: 'prompt: "implement it"',
      signals: { 'edit-source': 3 },
      events: 0,
    });
    expect(state).toMatchObject({ phase: 'implementation', recent: [], quiet: 0, dropped: 0 });
    expect(state).not.toHaveProperty('note');
    if (state !== undefined) expect(feed(state, [read(), src()])).toEqual([]);
  });

  it('takes a hand-corrected phase as a correction of the current span', () => {
    const state = newPhaseState(at(0));
    feed(state, [read(), read(), read()]);
    const value = JSON.parse(JSON.stringify(state));
    value.phase = 'design';
    const fixed = readPhaseState(value);
    expect(fixed?.phase).toBe('design');
    expect(fixed?.spans.at(-1)?.phase).toBe('design');
  });

  it('rejects garbage and unknown versions', () => {
    const good = JSON.parse(JSON.stringify(newPhaseState(at(0))));
    expect(readPhaseState(good)).toBeDefined();
    for (const bad of [
      null,
      undefined,
      42,
      'state',
      [],
      {},
      { ...good, version: 2 },
      { ...good, version: '1' },
      { ...good, spans: [] },
      { ...good, spans: 'x' },
      { ...good, spans: [{ n: 1 }] },
    ]) {
      expect(readPhaseState(bad)).toBeUndefined();
    }
  });
});
