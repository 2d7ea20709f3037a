// Labelled scripted sessions for the phase tracker (lib/phase/tracker.ts): user prompts and the tool
// calls Claude makes (tool_name and tool_input as PostToolUse sees them), each call labelled with the
// phase a careful human would give it. Deterministic from a seed. Written before the tracker was
// tuned (three dev templates were added later, see DEV); `dev` sessions come from one set of
// templates, `held` from another (different shapes, wording and seeds), and only `dev` may be looked
// at while tuning.
//
// Labelling rules (kept consistent across templates):
// - A call belongs to the phase of the work it serves, known from the script: the reads Claude does
//   right after "now implement it" are implementation; reads before any code is written, to
//   understand the task, are planning; reads while writing a design doc are design.
// - A quick fix (one source edit, maybe a test run) in the middle of design or planning stays there;
//   test runs, builds, type checks and a `git diff` during implementation are implementation.
// - Fixing a bug found while writing tests (one or two source edits) stays testing.
// - A task list written when work starts after an explicit "implement it" is implementation; one
//   written while the task is still being understood, or to re-plan, is planning.
// - A successful ExitPlanMode is the user approving the plan: it starts implementation.
// - Updating README/CHANGELOG at the end of implementing a feature is implementation.
import { rng } from '../lib/synth.mjs';

// ---- projects ------------------------------------------------------------------------------------

const PROJECTS = {
  ts: {
    name: 'invoice-api',
    src: ['src/routes/invoices.ts', 'src/services/billing.ts', 'src/db/invoice-repo.ts', 'src/lib/money.ts', 'src/server.ts', 'src/schemas/invoice.ts'],
    newSrc: ['src/services/late-fees.ts', 'src/jobs/overdue-sweep.ts'],
    tests: ['test/routes/invoices.test.ts', 'test/services/billing.test.ts', 'test/lib/money.test.ts', 'test/helpers/factories.ts'],
    newTests: ['test/services/late-fees.test.ts', 'test/jobs/overdue-sweep.test.ts'],
    design: 'docs/design/late-fees.md',
    adr: 'docs/adr/0007-late-fee-rounding.md',
    config: ['package.json', 'tsconfig.json', '.github/workflows/ci.yml'],
    test: [
      'npm test',
      'npx vitest run test/services/billing.test.ts',
      'npx vitest run -t "late fee"',
      'npm test -- --coverage',
      'cd packages/api && npm test 2>&1 | tail -40',
    ],
    build: ['npx tsc --noEmit', 'npm run lint', 'npm run build', 'npx biome check src'],
    install: 'npm install date-fns',
    symbols: ['lateFee', 'calculateTotal', 'InvoiceStatus', 'dueDate', 'applyCredit', 'roundCents'],
    globs: ['src/**/*.ts', 'test/**/*.test.ts', '**/*invoice*'],
    look: ['ls src/services', 'rg -n "dueDate" src | head -40', 'git status', 'wc -l src/services/*.ts'],
    web: [{ url: 'https://date-fns.org/docs/differenceInCalendarDays' }, { query: 'late fee calculation compound vs simple invoice' }],
    feature: 'late fees on overdue invoices',
    area: 'the late-fee service',
    module: 'src/services/billing.ts',
    migration: 'the new money type',
    bug: "TypeError: Cannot read properties of undefined (reading 'amount')\n    at applyCredit (src/services/billing.ts:88:31)\n    at processTicksAndRejections (node:internal/process/task_queues:95:5)",
  },
  py: {
    name: 'ledgerkit',
    src: ['src/ledgerkit/parser.py', 'src/ledgerkit/importer.py', 'src/ledgerkit/models.py', 'src/ledgerkit/cli.py', 'src/ledgerkit/currency.py'],
    newSrc: ['src/ledgerkit/ofx.py', 'src/ledgerkit/dedupe.py'],
    tests: ['tests/test_parser.py', 'tests/test_importer.py', 'tests/conftest.py', 'tests/test_currency.py'],
    newTests: ['tests/test_ofx.py', 'tests/test_dedupe.py'],
    design: 'docs/design/ofx-import.md',
    adr: 'docs/adr/0003-decimal-money.md',
    config: ['pyproject.toml', 'requirements-dev.txt', '.github/workflows/tests.yml'],
    test: ['pytest -q', 'pytest tests/test_importer.py -x', 'python -m pytest -k ofx -q', 'uv run pytest --cov=ledgerkit', 'pytest -q 2>&1 | tail -30'],
    build: ['ruff check .', 'mypy src/ledgerkit', 'ruff format --check .'],
    install: 'uv add ofxparse',
    symbols: ['parse_amount', 'Transaction', 'import_file', 'Decimal(', 'dedupe_key', 'currency_code'],
    globs: ['src/ledgerkit/**/*.py', 'tests/**/*.py', '**/*.ofx'],
    look: ['ls tests/fixtures', 'rg -n "parse_amount" src tests', 'git status', 'head -50 tests/fixtures/bank.ofx'],
    web: [{ url: 'https://docs.python.org/3/library/decimal.html' }, { query: 'OFX 2.2 specification STMTTRN fields' }],
    feature: 'OFX import',
    area: 'the OFX importer',
    module: 'src/ledgerkit/importer.py',
    migration: 'Decimal amounts everywhere',
    bug: 'Traceback (most recent call last):\n  File "src/ledgerkit/importer.py", line 142, in import_file\n    amount = parse_amount(row["amount"])\nKeyError: \'amount\'',
  },
  go: {
    name: 'queued',
    src: ['internal/queue/worker.go', 'internal/queue/retry.go', 'internal/store/postgres.go', 'cmd/queued/main.go', 'internal/api/handlers.go'],
    newSrc: ['internal/queue/backoff.go', 'internal/queue/deadletter.go'],
    tests: ['internal/queue/worker_test.go', 'internal/queue/retry_test.go', 'internal/store/postgres_test.go', 'internal/api/handlers_test.go'],
    newTests: ['internal/queue/backoff_test.go', 'internal/queue/deadletter_test.go'],
    design: 'docs/design/retry-backoff.md',
    adr: 'docs/adr/0012-dead-letter-queue.md',
    config: ['go.mod', 'Makefile', '.golangci.yml'],
    test: [
      'go test ./...',
      'go test ./internal/queue -run TestRetry -v',
      'make test',
      'go test -race ./internal/...',
      'go test ./... 2>&1 | grep -v "no test files"',
    ],
    build: ['go build ./...', 'go vet ./...', 'golangci-lint run', 'make'],
    install: 'go get github.com/cenkalti/backoff/v4',
    symbols: ['func (w *Worker)', 'MaxAttempts', 'Backoff', 'ErrPermanent', 'ctx.Done()', 'Enqueue'],
    globs: ['internal/**/*.go', '**/*_test.go', 'cmd/**/*.go'],
    look: ['ls internal/queue', 'rg -n "MaxAttempts" --type go', 'git status', 'go list ./...'],
    web: [{ url: 'https://pkg.go.dev/github.com/cenkalti/backoff/v4' }, { query: 'exponential backoff full jitter aws architecture blog' }],
    feature: 'exponential backoff for job retries',
    area: 'the retry path',
    module: 'internal/queue/retry.go',
    migration: 'pgx v5',
    bug: 'panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x6f2a1c]\n\ngoroutine 42 [running]:\ngithub.com/acme/queued/internal/queue.(*Worker).retry(0xc0001a2000)',
  },
  rs: {
    name: 'tilemap',
    src: ['src/lib.rs', 'src/render.rs', 'src/chunk.rs', 'src/atlas.rs', 'src/bin/tilemap.rs'],
    newSrc: ['src/stream.rs', 'src/cache.rs'],
    tests: ['tests/render.rs', 'tests/chunk_io.rs', 'tests/common/mod.rs'],
    newTests: ['tests/stream.rs', 'tests/cache.rs'],
    design: 'docs/design/chunk-streaming.md',
    adr: 'docs/adr/0005-lru-chunk-cache.md',
    config: ['Cargo.toml', 'rust-toolchain.toml', '.github/workflows/rust.yml'],
    test: ['cargo test', 'cargo test chunk -- --nocapture', 'cargo nextest run', 'cargo test --test render', 'RUST_BACKTRACE=1 cargo test stream'],
    build: ['cargo build', 'cargo clippy -- -D warnings', 'cargo check --all-targets', 'cargo fmt --check'],
    install: 'cargo add lru',
    symbols: ['impl Chunk', 'fn load_chunk', 'TileId', 'Atlas::new', 'CHUNK_SIZE', 'fn render'],
    globs: ['src/**/*.rs', 'tests/**/*.rs', 'benches/*.rs'],
    look: ['ls src', 'rg -n "CHUNK_SIZE" src', 'git status', 'cargo tree -d | head -30'],
    web: [{ url: 'https://docs.rs/lru/latest/lru/struct.LruCache.html' }, { query: 'rust streaming chunk loading tilemap async' }],
    feature: 'chunk streaming for large maps',
    area: 'the chunk loader',
    module: 'src/chunk.rs',
    migration: 'the 2024 edition',
    bug: "thread 'render::tests::draws_edge_tiles' panicked at src/render.rs:214:9:\nindex out of bounds: the len is 256 but the index is 256\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
  },
  web: {
    name: 'dashboard',
    src: ['src/components/UsageChart.tsx', 'src/hooks/useUsage.ts', 'src/api/client.ts', 'src/pages/Billing.tsx', 'src/lib/format.ts'],
    newSrc: ['src/components/UsageLegend.tsx', 'src/hooks/useDateRange.ts'],
    tests: ['src/components/UsageChart.test.tsx', 'src/hooks/useUsage.test.ts', 'e2e/billing.spec.ts', 'src/lib/format.test.ts'],
    newTests: ['src/components/UsageLegend.test.tsx', 'src/hooks/useDateRange.test.ts'],
    design: 'docs/design/usage-chart.md',
    adr: 'docs/adr/0004-chart-library.md',
    config: ['package.json', 'vite.config.ts', 'tsconfig.json'],
    test: ['pnpm test', 'pnpm vitest run src/components', 'pnpm exec playwright test e2e/billing.spec.ts', 'pnpm test -- --run useUsage'],
    build: ['pnpm lint', 'pnpm tsc --noEmit', 'pnpm build'],
    install: 'pnpm add recharts',
    symbols: ['useUsage', 'UsageChart', 'formatBytes', 'dateRange', 'fetchUsage', 'BillingPage'],
    globs: ['src/**/*.tsx', 'src/**/*.test.ts*', 'e2e/*.spec.ts'],
    look: ['ls src/components', 'rg -n "useUsage" src', 'git status', 'cat package.json | head -40'],
    web: [{ url: 'https://recharts.org/en-US/api/AreaChart' }, { query: 'react chart accessible legend keyboard' }],
    feature: 'a date-range picker for the usage chart',
    area: 'the usage chart',
    module: 'src/hooks/useUsage.ts',
    migration: 'React Query v5',
    bug: 'Error: Uncaught [TypeError: Cannot read properties of null (reading "map")]\n    at UsageChart (src/components/UsageChart.tsx:41:22)\n    at renderWithHooks (node_modules/react-dom/cjs/react-dom.development.js:16305:18)',
  },
};

// ---- one session's script ------------------------------------------------------------------------

class Script {
  constructor(seed, project) {
    this.r = rng(seed); // mulberry32, shared with the hook bench
    this.p = project;
    this.root = `/path/to/${project.name}`;
    this.steps = [];
    this.touched = [];
  }

  int(lo, hi) {
    return lo + Math.floor(this.r() * (hi - lo + 1));
  }
  chance(p) {
    return this.r() < p;
  }
  pick(list) {
    return list[Math.floor(this.r() * list.length)];
  }
  weighted(table) {
    let total = 0;
    for (const [, w] of table) total += w;
    let x = this.r() * total;
    for (const [v, w] of table) {
      x -= w;
      if (x < 0) return v;
    }
    return table[table.length - 1][0];
  }
  abs(rel) {
    return `${this.root}/${rel}`;
  }

  prompt(text) {
    this.steps.push({ type: 'prompt', text });
  }
  tool(phase, tool, input, ok = true) {
    this.steps.push({ type: 'tool', tool, input, ok, phase });
  }

  // Reading and searching.
  read(phase, rel = this.pick(this.p.src)) {
    this.tool(phase, 'Read', this.chance(0.2) ? { file_path: this.abs(rel), offset: this.int(1, 200), limit: 120 } : { file_path: this.abs(rel) });
  }
  grep(phase) {
    const input = { pattern: this.pick(this.p.symbols), output_mode: this.pick(['content', 'files_with_matches']) };
    if (this.chance(0.5)) input.path = this.abs(this.pick(['src', 'tests', 'internal', '.']).replace('/.', ''));
    this.tool(phase, 'Grep', input);
  }
  glob(phase) {
    this.tool(phase, 'Glob', { pattern: this.pick(this.p.globs) });
  }
  look(phase) {
    if (this.chance(0.3)) this.tool(phase, 'LS', { path: this.abs(this.pick(['src', 'docs', 'tests'])) });
    else this.tool(phase, 'Bash', { command: this.pick(this.p.look), description: 'Look around the project' });
  }
  web(phase) {
    const w = this.pick(this.p.web);
    if (w.url) this.tool(phase, 'WebFetch', { url: w.url, prompt: 'Summarise the relevant API' });
    else this.tool(phase, 'WebSearch', { query: w.query });
  }
  explore(phase) {
    this.tool(phase, 'Task', {
      subagent_type: 'Explore',
      description: `Find where ${this.pick(this.p.symbols)} is used`,
      prompt: `Search the codebase for ${this.pick(this.p.symbols)} and report call sites.`,
    });
  }
  looking(phase) {
    const kind = this.weighted([
      ['read', 55],
      ['grep', 22],
      ['glob', 10],
      ['look', 13],
    ]);
    this[kind](phase);
  }

  // Changing files.
  editFile(phase, rel) {
    this.touched.push(rel);
    const kind = this.weighted([
      ['Edit', 80],
      ['MultiEdit', 10],
      ['Write', 10],
    ]);
    const file_path = this.abs(rel);
    if (kind === 'Write') this.tool(phase, 'Write', { file_path, content: `// ${rel}\n…\n` });
    else if (kind === 'MultiEdit') this.tool(phase, 'MultiEdit', { file_path, edits: [{ old_string: 'a', new_string: 'b' }] });
    else this.tool(phase, 'Edit', { file_path, old_string: 'before', new_string: 'after' }, !this.chance(0.04));
  }
  editSrc(phase, rel = this.pick(this.chance(0.25) ? this.p.newSrc : this.p.src)) {
    this.editFile(phase, rel);
  }
  editTest(phase, rel = this.pick(this.chance(0.4) ? this.p.newTests : this.p.tests)) {
    this.editFile(phase, rel);
  }
  editDoc(phase, rel = this.chance(0.7) ? this.p.design : this.p.adr) {
    this.editFile(phase, rel);
  }
  editConfig(phase) {
    this.editFile(phase, this.pick(this.p.config));
  }

  // Running things.
  testRun(phase, ok = this.chance(0.6)) {
    this.tool(phase, 'Bash', { command: this.pick(this.p.test), description: 'Run the tests' }, ok);
  }
  build(phase) {
    this.tool(phase, 'Bash', { command: this.pick(this.p.build), description: 'Type check and lint' }, this.chance(0.8));
  }
  install(phase) {
    this.tool(phase, 'Bash', { command: this.p.install, description: 'Add a dependency' });
  }
  reviewCmd(phase, pr = 231) {
    const command = this.pick([
      'git diff',
      'git diff --stat',
      'git diff main...HEAD',
      'git log --oneline -15',
      'git show HEAD',
      `gh pr view ${pr}`,
      `gh pr diff ${pr}`,
      `gh pr checks ${pr}`,
      `git blame -L 80,120 ${this.pick(this.p.src)}`,
      'git log -p -3 --stat',
    ]);
    this.tool(phase, 'Bash', { command, description: 'Inspect the changes' });
  }
  todoFresh(phase, n = this.int(3, 6)) {
    const todos = [];
    for (let i = 0; i < n; i++)
      todos.push({
        content: `Step ${i + 1} of ${this.p.feature}`,
        status: i === 0 && this.chance(0.5) ? 'in_progress' : 'pending',
        activeForm: `Working on step ${i + 1}`,
      });
    this.tool(phase, 'TodoWrite', { todos });
    this.todoSize = n;
    this.todoDone = 0;
  }
  todoUpdate(phase) {
    const n = this.todoSize ?? 4;
    this.todoDone = Math.min(n, (this.todoDone ?? 0) + 1);
    const todos = [];
    for (let i = 0; i < n; i++)
      todos.push({
        content: `Step ${i + 1}`,
        status: i < this.todoDone ? 'completed' : i === this.todoDone ? 'in_progress' : 'pending',
        activeForm: `Step ${i + 1}`,
      });
    this.tool(phase, 'TodoWrite', { todos });
  }
}

// ---- blocks: a stretch of one phase --------------------------------------------------------------

function planning(s, n, { todo = false, web = true, history = true } = {}) {
  const todoAt = todo ? n - s.int(1, 2) : -1;
  for (let i = 0; i < n; i++) {
    if (i === todoAt) {
      s.todoFresh('planning');
      continue;
    }
    const kind = s.weighted([
      ['looking', 80],
      ['web', web ? 7 : 0],
      ['explore', 6],
      ['history', history ? 7 : 0],
    ]);
    if (kind === 'history')
      s.tool('planning', 'Bash', { command: s.pick(['git log --oneline -20', `git log -5 -- ${s.pick(s.p.src)}`]), description: 'Recent history' });
    else s[kind]('planning');
  }
}

function design(s, n, { quickFix = false, docsFrom = 0.35 } = {}) {
  const fixAt = quickFix ? Math.floor(n / 2) : -1;
  const firstDoc = Math.max(1, Math.floor(n * docsFrom));
  let wroteDoc = false;
  for (let i = 0; i < n; i++) {
    if (i === fixAt) {
      // "while I'm here": a one-line fix, checked, then back to the design.
      const file = s.pick(s.p.src);
      s.read('design', file);
      s.editSrc('design', file);
      if (s.chance(0.5)) s.testRun('design', true);
      continue;
    }
    if (i === firstDoc) {
      s.tool('design', 'Write', { file_path: s.abs(s.p.design), content: `# ${s.p.feature}\n\n## Context\n…\n` });
      wroteDoc = true;
      continue;
    }
    const kind = s.weighted([
      ['looking', 50],
      ['web', 12],
      ['doc', wroteDoc ? 38 : 0],
    ]);
    if (kind === 'doc') s.editDoc('design');
    else s[kind]('design');
  }
}

function implementation(s, n, { noise = 1, tdd = false, start = true, diffs = true, todos = true } = {}) {
  let i = 0;
  if (start && s.chance(0.7)) {
    // Claude opens the file it is about to change.
    const file = s.pick(s.p.src);
    s.read('implementation', file);
    i++;
    if (i < n) {
      s.editSrc('implementation', file);
      i++;
    }
  }
  for (; i < n; i++) {
    const kind = s.weighted([
      ['editSrc', 44],
      ['looking', 22 * noise],
      ['testRun', tdd ? 14 : 8],
      ['build', 7],
      ['editTest', tdd ? 9 : 3],
      ['diff', diffs ? 3 : 0],
      ['todoUpdate', todos ? 4 : 0],
      ['editConfig', 2],
      ['install', 1],
    ]);
    if (kind === 'diff') s.tool('implementation', 'Bash', { command: s.pick(['git diff', 'git diff --stat']), description: 'Check the change so far' });
    else s[kind]('implementation');
  }
}

function testing(s, n, { srcFixes = 1 } = {}) {
  let fixes = 0;
  // Usually starts by opening or creating a test file.
  if (s.chance(0.5)) s.read('testing', s.pick(s.p.tests));
  else s.editTest('testing', s.pick(s.p.newTests));
  for (let i = 1; i < n; i++) {
    const kind = s.weighted([
      ['editTest', 38],
      ['testRun', 30],
      ['looking', 22],
      ['fix', fixes < srcFixes ? 5 : 0],
      ['build', 3],
    ]);
    if (kind === 'fix') {
      fixes++;
      s.editSrc('testing');
    } else s[kind]('testing');
  }
}

function review(s, n, { pr = 231, local = false } = {}) {
  if (local)
    s.tool('review', 'Bash', {
      command: s.pick(['git diff main...HEAD', 'git log --oneline main..HEAD', 'git diff --stat main']),
      description: 'What changed',
    });
  else s.tool('review', 'Bash', { command: `gh pr view ${pr}`, description: 'Open the PR' });
  for (let i = 1; i < n; i++) {
    const kind = s.weighted([
      ['reviewCmd', 38],
      ['read', 40],
      ['grep', 12],
      ['testRun', 5],
      ['build', 5],
    ]);
    if (kind === 'reviewCmd') s.reviewCmd('review', pr);
    else s[kind]('review');
  }
}

/** The README/CHANGELOG touch at the end of a feature: still implementation. */
function docsTail(s) {
  s.editFile('implementation', 'README.md');
  if (s.chance(0.6)) s.read('implementation', 'CHANGELOG.md');
  s.editFile('implementation', 'CHANGELOG.md');
}

// ---- dev templates -------------------------------------------------------------------------------

const DEV = {
  /** A feature with no phase words at all: planning → implementation → testing, by tools alone. */
  'feature-silent': (s) => {
    s.prompt(`We need ${s.p.feature}. Have a look at how ${s.p.area} works today and add it.`);
    planning(s, s.int(6, 9), { todo: s.chance(0.5) });
    implementation(s, s.int(18, 26));
    testing(s, s.int(8, 12));
  },
  /** Every phase announced by the user, Claude starting implementation with a fresh task list. */
  'explicit-flow': (s) => {
    s.prompt(`Let's plan ${s.p.feature} first. Don't write any code yet.`);
    planning(s, s.int(7, 10), { todo: true });
    s.prompt('Looks good. Now implement it.');
    if (s.chance(0.7)) {
      s.todoFresh('implementation');
      s.read('implementation');
      s.read('implementation');
    }
    implementation(s, s.int(16, 22));
    s.prompt(`Great, let's write the tests for ${s.p.area}.`);
    testing(s, s.int(10, 14));
    s.prompt('Please review the changes before I open the PR.');
    review(s, s.int(6, 9), { local: true });
  },
  /** A design with a quick fix in the middle, then an explicit go. */
  'design-quick-fix': (s) => {
    s.prompt(`Let's start with the design of ${s.p.feature}. Write it up in ${s.p.design}.`);
    design(s, s.int(14, 18), { quickFix: true });
    s.prompt('Go ahead and implement it.');
    implementation(s, s.int(14, 20));
  },
  /** A PR review that turns into fixing what it found (the second prompt names no phase). */
  'review-to-fix': (s) => {
    const pr = s.int(120, 480);
    s.prompt(`Review PR #${pr} please, it needs to go out today.`);
    review(s, s.int(9, 12), { pr });
    s.prompt('Good catches. Fix the issues you found.');
    implementation(s, s.int(10, 14), { start: true });
  },
  /** Plan mode: a plan file, ExitPlanMode approved, then work; testing noticed by tools. */
  'plan-mode': (s) => {
    s.prompt(`I want ${s.p.feature}. Figure out the approach.`);
    planning(s, s.int(6, 8));
    s.tool('planning', 'Write', { file_path: `/path/to/home/.claude/plans/${s.p.name}-plan.md`, content: '# Plan\n1. …\n' });
    s.tool('implementation', 'ExitPlanMode', { plan: `1. Add ${s.p.feature}\n2. Tests` });
    implementation(s, s.int(16, 20), { start: false });
    testing(s, s.int(6, 10));
  },
  /** A bug fix with a pasted log, edit-run cycles and many reads: stays implementation after a short look. */
  'bugfix-tdd-noisy': (s) => {
    s.prompt(`This started failing after the last deploy:\n\n${s.p.bug}\n\nCan you fix it?`);
    planning(s, s.int(3, 5), { web: false, history: false });
    implementation(s, s.int(20, 28), { noise: 1.8, tdd: true });
  },
  /** "Think through the design" with mostly reading, docs late; then implementation; then a silent self-review. */
  'design-reads-explicit': (s) => {
    s.prompt(`let's think through the design of ${s.p.feature} before touching code`);
    design(s, s.int(12, 16), { docsFrom: 0.6 });
    s.prompt('Start implementing.');
    implementation(s, s.int(12, 16));
    s.prompt('Before I push: anything you would change?');
    review(s, s.int(6, 8), { local: true });
  },
  /** Only testing, never named: the user points at weak coverage. */
  'coverage-only': (s) => {
    s.prompt(`Coverage on ${s.p.module} is poor, the error paths are never exercised.`);
    testing(s, s.int(16, 22), { srcFixes: 1 });
  },
  // Added after the first held measurement: cases the spec lists that the dev half lacked (a design
  // noticed by tools alone, re-planning with a task list, a session that opens on PRs). Written from
  // the spec, not from held traces; the held templates were not changed.
  /** A proposal asked for in other words: reading, then a design doc, then building on a neutral go. */
  'proposal-silent': (s) => {
    s.prompt(`I'm not sure where ${s.p.feature} should live. Can you put a short proposal in docs/design first?`);
    for (let i = s.int(4, 6); i > 0; i--) s[s.chance(0.8) ? 'looking' : 'web']('design');
    design(s, s.int(8, 12), { docsFrom: 0.1 });
    s.prompt('Looks reasonable, go with the second option.');
    implementation(s, s.int(12, 16));
  },
  /** Implementation named, a failed first attempt, a fresh task list and reading (re-planning), more work, tests. */
  'failed-attempt-replan': (s) => {
    s.prompt(`Implement ${s.p.feature}.`);
    implementation(s, s.int(10, 14), { tdd: true });
    s.testRun('implementation', false);
    s.testRun('implementation', false);
    // The approach does not hold up: Claude steps back, reads around and writes a new plan.
    for (let i = s.int(2, 3); i > 0; i--) s.looking('planning');
    s.todoFresh('planning');
    for (let i = s.int(3, 5); i > 0; i--) s[s.chance(0.85) ? 'looking' : 'explore']('planning');
    implementation(s, s.int(10, 14));
    testing(s, s.int(6, 9), { srcFixes: 0 });
  },
  /** Two open PRs compared: a review from the first call, never named. */
  'compare-prs': (s) => {
    const a = s.int(300, 600);
    const b = a + s.int(1, 9);
    s.prompt(`#${a} and #${b} both change ${s.p.module}. Which one should we merge?`);
    s.tool('review', 'Bash', { command: `gh pr view ${a}`, description: 'First PR' });
    s.tool('review', 'Bash', { command: `gh pr diff ${a}`, description: 'First PR diff' });
    review(s, s.int(6, 8), { pr: a });
    review(s, s.int(6, 8), { pr: b });
  },
};

// ---- held templates (different shapes and wording) ----------------------------------------------

const HELD = {
  /** A pasted stack trace (words like "review" and "test" inside it), a look, a fix, a regression test. */
  'stacktrace-fix-regression': (s) => {
    s.prompt(
      `Getting this in staging, happened right after the review app deploy:\n\n${s.p.bug}\n\nFAIL  the smoke test passes locally though. What's going on?`,
    );
    planning(s, s.int(4, 6), { web: false });
    implementation(s, s.int(8, 12), { tdd: true });
    testing(s, s.int(5, 8), { srcFixes: 0 });
  },
  /** A migration with every phase named, in other words than the dev set uses. */
  'migration-explicit': (s) => {
    s.prompt(`Let's plan the migration to ${s.p.migration}.`);
    planning(s, s.int(8, 12), { todo: true });
    s.prompt('OK, next let us work on the design: write it up in the design doc.');
    design(s, s.int(10, 12));
    s.prompt('Approved. Start implementing, one module at a time.');
    implementation(s, s.int(15, 20));
    s.prompt('Time to test. Focus on the edge cases.');
    testing(s, s.int(8, 10));
  },
  /** Implementation stops to re-plan (a fresh task list and reading), then continues. */
  'replan-mid-implementation': (s) => {
    s.prompt(`Add ${s.p.feature}; keep the public API unchanged.`);
    planning(s, s.int(4, 6));
    implementation(s, s.int(10, 14));
    // The first approach did not work out: back to reading, and a new task list.
    s.read('planning');
    s.grep('planning');
    s.todoFresh('planning');
    for (let i = s.int(3, 5); i > 0; i--) s.looking('planning');
    implementation(s, s.int(10, 14));
  },
  /** A PR review that stays a review, never named ("take a look"). */
  'pr-review-silent': (s) => {
    const pr = s.int(80, 990);
    s.prompt(`Can you take a look at PR #${pr}? I'm not sure about the locking in ${s.p.module}.`);
    review(s, s.int(14, 20), { pr });
  },
  /** An ADR asked for (not matched as a phase statement), research, writing, then implementation by tools. */
  'adr-then-build': (s) => {
    s.prompt(`We need to decide how to handle ${s.p.feature}. Put the options and the choice in an ADR.`);
    for (let i = s.int(3, 4); i > 0; i--) s.looking('design');
    s.web('design');
    s.tool('design', 'Write', { file_path: s.abs(s.p.adr), content: '# ADR\n\nStatus: proposed\n' });
    design(s, s.int(7, 10), { docsFrom: 0 });
    s.prompt('ADR accepted, option B it is.');
    implementation(s, s.int(12, 16));
  },
  /** Tests for untested code (never named as a phase), then a silent look over the diff. */
  'tests-then-selfcheck': (s) => {
    s.prompt(`${s.p.module} has nothing covering the failure cases.`);
    testing(s, s.int(12, 16));
    s.prompt("Let's see the whole diff once more, anything odd?");
    review(s, s.int(5, 7), { local: true });
  },
  /** Review, then fixing, then testing, with no phase named anywhere. */
  'review-fix-test-silent': (s) => {
    s.prompt('Look at my last three commits and fix anything that seems off.');
    review(s, s.int(8, 10), { local: true });
    implementation(s, s.int(8, 12));
    testing(s, s.int(6, 8), { srcFixes: 0 });
  },
  /** A long implementation, named at the start, with a dependency, config edits and the docs at the end. */
  'long-implementation': (s) => {
    s.prompt(`Implement ${s.p.feature}. The design is settled, see ${s.p.design}.`);
    s.read('implementation', s.p.design);
    s.install('implementation');
    s.editConfig('implementation');
    implementation(s, s.int(24, 30), { noise: 1.3 });
    docsTail(s);
  },
};

const PROJECT_ORDER = ['ts', 'py', 'go', 'rs', 'web'];

/**
 * The labelled sessions: each dev template and each held template on two projects, with their own
 * seeds (22 dev, 16 held). `seed` changes the scripts, not the templates.
 */
export function sessions(seed = 1) {
  const out = [];
  const add = (half, templates, salt) => {
    let k = 0;
    for (const [name, template] of Object.entries(templates)) {
      for (let j = 0; j < 2; j++) {
        const projectKey = PROJECT_ORDER[(k * 2 + j + (half === 'held' ? 1 : 0)) % PROJECT_ORDER.length];
        const s = new Script((seed * 1_000_003 + salt + k * 97 + j * 13) >>> 0, PROJECTS[projectKey]);
        template(s);
        out.push({ name: `${half}/${name}/${projectKey}`, half, steps: s.steps });
      }
      k++;
    }
  };
  add('dev', DEV, 11);
  add('held', HELD, 700_001);
  return out;
}
