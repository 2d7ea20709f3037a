// Phase signals: what one tool call, shell command or user prompt says about the task's phase. Pure.
// The tracker (tracker.ts) weighs these; here we only name them, precisely and cheaply.

export const PHASES = ['planning', 'design', 'implementation', 'testing', 'review'] as const;
export type Phase = (typeof PHASES)[number] | 'unknown';
export type SignalKind =
  | 'read'
  | 'search'
  | 'web'
  | 'edit-source'
  | 'edit-test'
  | 'edit-doc'
  | 'edit-config'
  | 'test-run'
  | 'build'
  | 'review-cmd'
  | 'todo'
  | 'plan-exit'
  | 'shell'
  | 'other';
export interface ToolSignal {
  kind: SignalKind;
  /** short, for the timeline's "why" (a file base name, a command's first words) */
  detail?: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

const MAX_DETAIL = 48;

/**
 * The signal of one tool call, from tool_input as Claude Code sends it: Read{file_path},
 * Edit/Write/MultiEdit{file_path}, NotebookEdit{notebook_path}, Grep{pattern,path?,glob?}, Glob{pattern},
 * LS{path}, Bash{command,description?}, TodoWrite{todos:[{content,status,activeForm}]}, WebFetch{url},
 * WebSearch{query}, Task{description,prompt,subagent_type}, ExitPlanMode{plan}; unknown tools (mcp__…) too.
 *
 * A TodoWrite is 'todo' only when it writes a fresh list (nothing completed yet): later writes that tick
 * items off are progress, 'other'. A failed call keeps its kind (a failing test run is still a test run),
 * except ExitPlanMode, which fails when the user rejects the plan.
 */
export function toolSignal(call: { tool: string; input: unknown; ok: boolean }): ToolSignal {
  const input = isObj(call.input) ? call.input : {};
  switch (call.tool) {
    case 'Read':
      return withDetail('read', baseName(str(input.file_path)));
    case 'Edit':
    case 'Write':
    case 'MultiEdit':
      return editSignal(str(input.file_path));
    case 'NotebookEdit':
      return editSignal(str(input.notebook_path));
    case 'Grep':
      return withDetail('search', str(input.pattern));
    case 'Glob':
      return withDetail('search', str(input.pattern));
    case 'LS':
      return withDetail('search', baseName(str(input.path)));
    case 'Bash':
      return bashSignal(str(input.command) ?? '');
    case 'TodoWrite':
      return todoSignal(input.todos);
    case 'TaskCreate':
      // Claude Code 2.1.332's task tools (in place of TodoWrite in some modes): one task per call.
      return withDetail('todo', str(input.subject));
    case 'WebFetch':
      return withDetail('web', hostOf(str(input.url)));
    case 'WebSearch':
      return withDetail('web', str(input.query));
    case 'Task':
    case 'Agent':
      return taskSignal(input);
    case 'ExitPlanMode':
      return call.ok ? { kind: 'plan-exit', detail: 'plan approved' } : { kind: 'other', detail: 'plan not approved' };
    default:
      return mcpSignal(call.tool);
  }
}

/**
 * Classify a shell command: test runners, builds/type checks/linters, review commands (git diff/log/show/
 * blame/range-diff, gh pr view/diff/review/checks), else 'shell'. Compound commands (`cd x && npm test`,
 * pipes, `;`) are split outside quotes; the strongest part wins: test-run, then build, then review-cmd.
 */
export function commandKind(command: string): 'test-run' | 'build' | 'review-cmd' | 'shell' {
  return classifyCommand(command).kind;
}

/**
 * An explicit phase statement in a user's prompt, high precision: an imperative at the start of a
 * clause ("let's plan this", "now implement it", "please review the changes"). Skips negated clauses
 * ("don't implement yet"), real questions ("how would you test this?"), conditions ("if you review…"),
 * things for later ("then write the tests"), code blocks and pasted log lines. Returns the first match.
 */
export function promptPhase(prompt: string): { phase: Exclude<Phase, 'unknown'>; quote: string } | undefined {
  for (const clause of proseClauses(prompt)) {
    const hit = clausePhase(clause);
    if (hit !== undefined) return hit;
  }
  return undefined;
}

/** Phase names and aliases, case-insensitive (a leading slash and trailing punctuation are ignored); else undefined. */
export function parsePhaseName(word: string): Exclude<Phase, 'unknown'> | undefined {
  const key = word
    .trim()
    .toLowerCase()
    .replace(/^\/+/, '')
    .replace(/[.!?,:;]+$/, '');
  return ALIASES[key];
}

// ---- tool calls ---------------------------------------------------------------------------------

const ALIASES: Record<string, Exclude<Phase, 'unknown'>> = {
  plan: 'planning',
  planning: 'planning',
  design: 'design',
  architecture: 'design',
  arch: 'design',
  implement: 'implementation',
  implementation: 'implementation',
  impl: 'implementation',
  code: 'implementation',
  coding: 'implementation',
  build: 'implementation',
  test: 'testing',
  tests: 'testing',
  testing: 'testing',
  qa: 'testing',
  review: 'review',
  reviewing: 'review',
};

function withDetail(kind: SignalKind, detail: string | undefined): ToolSignal {
  if (detail === undefined) return { kind };
  const clean = detail.replace(/\s+/g, ' ').trim();
  if (clean === '') return { kind };
  return { kind, detail: clean.length > MAX_DETAIL ? `${clean.slice(0, MAX_DETAIL - 1)}…` : clean };
}

function baseName(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  const parts = path.replace(/[\\/]+$/, '').split(/[\\/]/);
  return parts[parts.length - 1] || path;
}

function hostOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  const m = /^[a-z]+:\/\/([^/?#]+)/i.exec(url);
  return m?.[1] ?? url;
}

function editSignal(path: string | undefined): ToolSignal {
  return withDetail(path === undefined ? 'edit-source' : fileKind(path), baseName(path));
}

type FileKind = 'edit-source' | 'edit-test' | 'edit-doc' | 'edit-config' | 'todo';

/** What editing this path means; the order of checks matters (a README under tests/ is a doc). */
function fileKind(path: string): FileKind {
  const p = path.replace(/\\/g, '/');
  const lower = p.toLowerCase();
  const name = lower.slice(lower.lastIndexOf('/') + 1);
  // Plan mode writes its plan to ~/.claude/plans/<slug>.md: that is a plan, not a design doc.
  if (/(^|\/)\.claude\/plans\//.test(lower)) return 'todo';
  if (/\.(md|mdx|markdown|rst|adoc)$/.test(name)) return 'edit-doc';
  if (isTestPath(lower, name)) return 'edit-test';
  if (isConfigPath(lower, name)) return 'edit-config';
  if (name.endsWith('.txt') || /(^|\/)(docs?|adrs?|rfcs?|design)\//.test(lower)) return 'edit-doc';
  return 'edit-source';
}

function isTestPath(lower: string, name: string): boolean {
  if (/(^|\/)(test|tests|__tests__|spec|specs|e2e|testdata|__mocks__)\//.test(lower)) return true;
  if (/\.(test|spec)\.[a-z0-9]+$/.test(name)) return true;
  if (/_test\.go$/.test(name) || /^test_.*\.py$/.test(name) || /_test\.py$/.test(name) || name === 'conftest.py') return true;
  return /_spec\.rb$/.test(name) || /tests?\.(cs|java|kt|php)$/.test(name);
}

const CONFIG_NAMES = new Set([
  'package.json',
  'package-lock.json',
  'pnpm-lock.yaml',
  'yarn.lock',
  'cargo.toml',
  'cargo.lock',
  'go.mod',
  'go.sum',
  'pyproject.toml',
  'setup.cfg',
  'setup.py',
  'tox.ini',
  'pipfile',
  'poetry.lock',
  'uv.lock',
  'gemfile',
  'gemfile.lock',
  'pom.xml',
  'makefile',
  'cmakelists.txt',
  'dockerfile',
  '.gitignore',
  '.dockerignore',
  '.editorconfig',
  '.npmrc',
  '.nvmrc',
]);

function isConfigPath(lower: string, name: string): boolean {
  if (CONFIG_NAMES.has(name)) return true;
  if (/(^|\/)\.(github|gitlab|circleci|devcontainer|vscode)\//.test(lower)) return true;
  if (/^tsconfig.*\.json$/.test(name) || /^dockerfile/.test(name) || /^docker-compose.*\.ya?ml$/.test(name)) return true;
  if (/^requirements.*\.txt$/.test(name) || /^\.env(\..+)?$/.test(name) || /^\.(eslintrc|prettierrc|babelrc)/.test(name)) return true;
  if (/\.config\.(js|cjs|mjs|ts|cts|mts)$/.test(name) || /^build\.gradle/.test(name)) return true;
  // We do not know the project root here, so "at the root" is approximated as "not inside a source
  // folder": a locale file under src/ is source, a .golangci.yml next to go.mod is config.
  if (/\.(json|jsonc|ya?ml|toml|ini|cfg|conf)$/.test(name)) return !/(^|\/)(src|lib|app|pkg|internal|cmd|crates|packages)\//.test(lower);
  return false;
}

function todoSignal(todos: unknown): ToolSignal {
  const list = Array.isArray(todos) ? todos.filter(isObj) : [];
  const done = list.filter((t) => t.status === 'completed').length;
  if (list.length > 0 && done === 0) return { kind: 'todo', detail: `new task list of ${list.length}` };
  return { kind: 'other', detail: `task list: ${done} of ${list.length} done` };
}

function taskSignal(input: Obj): ToolSignal {
  const type = (str(input.subagent_type) ?? '').toLowerCase();
  const description = str(input.description) ?? '';
  const detail = `${type || 'agent'}: ${description}`.replace(/: $/, '');
  const about = `${type} ${description}`.toLowerCase();
  if (/\breview/.test(about)) return withDetail('review-cmd', detail);
  // A subagent sent to look around is reading on our behalf; one sent to build something is not evidence here.
  if (type === 'explore' || type === 'plan' || /\b(explore|search|find|investigate|research|locate|survey|understand)/.test(about)) {
    return withDetail('search', detail);
  }
  return withDetail('other', detail);
}

function mcpSignal(tool: string): ToolSignal {
  const lower = tool.toLowerCase();
  if (/pull_?request|review|_diff\b|list_commits|get_commit/.test(lower)) return withDetail('review-cmd', tool);
  if (/search|_read|get_file|fetch|list_dir|find/.test(lower)) return withDetail('search', tool);
  return withDetail('other', tool);
}

function bashSignal(command: string): ToolSignal {
  const { kind, words } = classifyCommand(command);
  const detail = words.slice(0, 3).join(' ');
  if (kind !== 'shell') return withDetail(kind, detail);
  // Claude often looks around through the shell (ls, grep, cat): that is reading, not changing anything.
  return withDetail(inspectsOnly(command) ? 'search' : 'shell', detail);
}

type CommandKind = 'test-run' | 'build' | 'review-cmd' | 'shell';

/** The strongest part of a compound command, and its words without launchers (for the detail). */
function classifyCommand(command: string): { kind: CommandKind; words: string[] } {
  let best: { kind: CommandKind; words: string[] } | undefined;
  for (const part of commandParts(command)) {
    const words = unwrap(part);
    const kind = partKind(words);
    // `cd x` names nothing: the detail should show what actually ran.
    if (best === undefined || RANK[kind] > RANK[best.kind] || (best.words[0] === 'cd' && kind === best.kind)) best = { kind, words };
  }
  return best ?? { kind: 'shell', words: [] };
}

const INSPECT = new Set([
  'ls',
  'cat',
  'head',
  'tail',
  'less',
  'grep',
  'rg',
  'ag',
  'find',
  'fd',
  'tree',
  'wc',
  'pwd',
  'file',
  'stat',
  'du',
  'which',
  'cd',
  'echo',
]);

function inspectsOnly(command: string): boolean {
  if (/(^|[^<>&0-9])>>?(?!&)/.test(stripQuoted(command)) || /<</.test(command)) return false;
  const parts = commandParts(command);
  if (parts.length === 0) return false;
  let reads = 0;
  for (const words of parts) {
    const cmd = words[0] ?? '';
    if (cmd === 'sed' && words.includes('-n') && !words.some((w) => w.startsWith('-i'))) reads++;
    else if (cmd === 'git' && (words[1] === 'status' || words[1] === 'ls-files' || words[1] === 'grep')) reads++;
    else if (INSPECT.has(cmd)) reads += cmd === 'cd' || cmd === 'echo' ? 0 : 1;
    else return false;
  }
  return reads > 0;
}

// ---- shell commands -----------------------------------------------------------------------------

const RANK = { shell: 0, 'review-cmd': 1, build: 2, 'test-run': 3 } as const;

function stripQuoted(command: string): string {
  return command.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, '""');
}

/** Split a command line into simple commands (word lists), outside quotes, at && || ; | & and newlines. */
function commandParts(command: string): string[][] {
  // A heredoc's body is data, not commands.
  const text = command.includes('<<') ? (command.split('\n')[0] ?? '') : command;
  const parts: string[][] = [];
  let words: string[] = [];
  let word = '';
  let quote: '"' | "'" | undefined;
  let inWord = false;
  const endWord = () => {
    if (inWord) words.push(word);
    word = '';
    inWord = false;
  };
  const endPart = () => {
    endWord();
    if (words.length > 0) parts.push(words);
    words = [];
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && i + 1 < text.length) word += text[++i];
      else word += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else if (c === '&' || c === '|' || c === ';' || c === '\n' || c === '(' || c === ')') {
      // `2>&1` and `&>` are redirections, not separators.
      if (c === '&' && (text[i - 1] === '>' || text[i + 1] === '>')) {
        word += c;
        inWord = true;
      } else endPart();
    } else if (c === ' ' || c === '\t') endWord();
    else {
      word += c;
      inWord = true;
    }
  }
  endPart();
  return parts.map(stripRedirections).filter((w) => w.length > 0);
}

function stripRedirections(words: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    if (/^\d*(>>?|<)$|^&>$/.test(w)) {
      i++; // the target follows
      continue;
    }
    if (/^\d*(>>?|<)&?\S+$|^&>\S+$/.test(w)) continue;
    out.push(w);
  }
  return out;
}

// Wrappers that run the command that follows them; the number is how many arguments they take first.
const WRAPPERS: Record<string, number> = { env: 0, time: 0, nice: 0, nohup: 0, sudo: 0, command: 0, exec: 0, timeout: 1, xvfb_run: 0, dotenv: 0 };
const RUNNERS = new Set(['npx', 'bunx', 'pnpx']);

/** Drop what only launches the real command: env assignments, time/timeout/env, npx, uv run, python -m… */
function unwrap(words: string[]): string[] {
  let w = words.slice();
  for (let guard = 0; guard < 8 && w.length > 0; guard++) {
    const head = (w[0] as string).replace(/^.*\//, '');
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w[0] as string)) w = w.slice(1);
    else if (head in WRAPPERS) {
      w = w.slice(1);
      while (w[0]?.startsWith('-') === true || (w[0] !== undefined && /^[A-Za-z_][A-Za-z0-9_]*=/.test(w[0]))) w = w.slice(1);
      w = w.slice(WRAPPERS[head] ?? 0);
      if (w[0] === '--') w = w.slice(1);
    } else if (RUNNERS.has(head)) {
      w = w.slice(1);
      while (w[0]?.startsWith('-') === true) w = w.slice(w[0] === '-p' || w[0] === '--package' ? 2 : 1);
    } else if ((head === 'uv' || head === 'poetry' || head === 'pipenv' || head === 'hatch' || head === 'pdm') && w[1] === 'run') w = w.slice(2);
    else if (head === 'bundle' && w[1] === 'exec') w = w.slice(2);
    else if (/^python[0-9.]*$/.test(head) && w[1] === '-m' && w[2] !== undefined) w = w.slice(2);
    else break;
  }
  if (w[0] !== undefined) w[0] = w[0].replace(/^.*\//, '');
  return w;
}

const TEST_TOOLS = new Set([
  'vitest',
  'jest',
  'mocha',
  'ava',
  'tap',
  'karma',
  'pytest',
  'py.test',
  'unittest',
  'tox',
  'nox',
  'rspec',
  'phpunit',
  'pest',
  'ctest',
  'nextest',
  'jasmine',
  'cucumber',
  'behave',
]);
const TEST_SUBCOMMAND = new Set([
  'go',
  'cargo',
  'dotnet',
  'deno',
  'bun',
  'swift',
  'mix',
  'mvn',
  'gradle',
  'gradlew',
  'mvnw',
  'dbt',
  'rails',
  'rake',
  'zig',
  'flutter',
  'dart',
]);
const BUILD_TOOLS = new Set([
  'tsc',
  'esbuild',
  'webpack',
  'rollup',
  'tsup',
  'eslint',
  'biome',
  'prettier',
  'ruff',
  'mypy',
  'pyright',
  'flake8',
  'black',
  'pylint',
  'isort',
  'gofmt',
  'golangci-lint',
  'staticcheck',
  'rustc',
  'clippy-driver',
  'gcc',
  'g++',
  'clang',
  'cmake',
  'ninja',
  'make',
  'gradle',
  'gradlew',
  'mvn',
  'javac',
  'stylelint',
  'oxlint',
  'tsgo',
  'vue-tsc',
]);
const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
// Options of package managers that take a value: `pnpm --filter web test`, `npm --prefix app test`.
const PM_VALUE_FLAGS = new Set(['--filter', '-F', '--prefix', '-C', '--dir', '-w', '--workspace', '--cwd']);

function partKind(words: string[]): CommandKind {
  const cmd = words[0];
  if (cmd === undefined) return 'shell';
  if ((cmd === 'bash' || cmd === 'sh' || cmd === 'zsh') && words[1] === '-c' && words[2] !== undefined) return commandKind(words[2]);
  const sub = words.slice(1).find((w) => !w.startsWith('-'));
  if (/^python[0-9.]*$/.test(cmd) && /manage\.py$/.test(words[1] ?? '') && words[2] === 'test') return 'test-run';
  if (cmd === 'git') return gitKind(words);
  if (cmd === 'gh') return words[1] === 'pr' && /^(view|diff|review|checks)$/.test(words[2] ?? '') ? 'review-cmd' : 'shell';
  if (PACKAGE_MANAGERS.has(cmd)) return packageManagerKind(words);
  if (cmd === 'node' && words.includes('--test')) return 'test-run';
  if (TEST_TOOLS.has(cmd)) return 'test-run';
  if (cmd === 'playwright' || cmd === 'cypress') return words[1] === 'test' || words[1] === 'run' ? 'test-run' : 'shell';
  if (TEST_SUBCOMMAND.has(cmd) && (sub === 'test' || (cmd === 'zig' && words.includes('test')) || (cmd === 'cargo' && sub === 'nextest'))) return 'test-run';
  // Runners whose test action is not the first word after them (xcodebuild -scheme App test, php
  // artisan test); an option's value is no action (`xcodebuild -scheme test -showdestinations`).
  if (cmd === 'xcodebuild' && words.some((w, i) => (w === 'test' || w === 'test-without-building') && !(words[i - 1] ?? '').startsWith('-'))) return 'test-run';
  if ((cmd === 'php' && /(?:^|\/)artisan$/.test(sub ?? '') && words[2] === 'test') || (cmd === 'dbt' && sub === 'build')) return 'test-run';
  if (cmd === 'make' || cmd === 'just' || cmd === 'task') return makeKind(words);
  if (cmd === 'cargo') return /^(build|check|clippy|fmt|b|c)$/.test(sub ?? '') ? 'build' : 'shell';
  if (cmd === 'go') return /^(build|vet|fmt|install)$/.test(sub ?? '') ? 'build' : 'shell';
  if (cmd === 'dotnet' || cmd === 'swift') return sub === 'build' ? 'build' : 'shell';
  if (cmd === 'vite' || cmd === 'next' || cmd === 'nuxt' || cmd === 'astro') return sub === 'build' ? 'build' : 'shell';
  if (BUILD_TOOLS.has(cmd)) return 'build';
  return 'shell';
}

function gitKind(words: string[]): 'review-cmd' | 'shell' {
  let i = 1;
  // Global options come before the subcommand: `git --no-pager diff`, `git -C repo log`.
  while (i < words.length && (words[i] as string).startsWith('-')) i += words[i] === '-C' || words[i] === '-c' ? 2 : 1;
  return /^(diff|log|show|blame|range-diff|shortlog|whatchanged)$/.test(words[i] ?? '') ? 'review-cmd' : 'shell';
}

function packageManagerKind(words: string[]): CommandKind {
  const rest: string[] = [];
  for (let i = 1; i < words.length; i++) {
    const w = words[i] as string;
    if (w === '--') break;
    if (PM_VALUE_FLAGS.has(w)) i++;
    else if (!w.startsWith('-')) rest.push(w);
  }
  let [first, second] = rest;
  if (first === 'workspace') [, , first, second] = rest; // yarn workspace <name> <script>
  if (first === 'run' || first === 'run-script' || first === 'exec' || first === 'dlx' || first === 'x') first = second;
  if (first === undefined) return 'shell';
  // `pnpm exec playwright test`, `pnpm vitest run`, `yarn tsc`: a tool run through the package manager.
  if (TEST_TOOLS.has(first) || BUILD_TOOLS.has(first) || first === 'playwright' || first === 'cypress') return partKind(words.slice(words.indexOf(first)));
  if (/^(t|tst|test|tests|e2e|spec|coverage)([:_-].*)?$/.test(first) || /[:_-](test|tests|e2e|spec)$/.test(first)) return 'test-run';
  if (/^(build|compile|typecheck|type-check|types|tsc|lint|check|format|fmt|bundle)([:_-].*)?$/.test(first)) return 'build';
  return 'shell';
}

function makeKind(words: string[]): 'test-run' | 'build' | 'shell' {
  const targets = words.slice(1).filter((w) => !w.startsWith('-') && !w.includes('='));
  if (targets.some((t) => /^(test|tests|check|unittest|integration|e2e|test-.*|.*-test)$/.test(t))) return 'test-run';
  if (words[0] !== 'make' && targets.length === 0) return 'shell';
  if (targets.some((t) => /^(clean|install|run|serve|dev|up|down|deploy|docs?)$/.test(t))) return 'shell';
  return 'build';
}

// ---- prompts ------------------------------------------------------------------------------------

// Lines that are pasted output rather than the user's words: stack frames, log records, test reports,
// diffs, shell prompts, indented code, quoted text. Case matters: "ok, review it" is prose, "OK 3 tests" is not.
const LOG_LINE =
  /^\s*(at\s+\S+\s+\(|at\s+\S+:\d|>|\$\s|#\s|\d{4}-\d\d-\d\d|\d\d:\d\d:\d\d|\[[^\]]*\]\s|(ERROR|WARN|WARNING|INFO|DEBUG|TRACE|FATAL|FAIL|FAILED|PASS|PASSED|PANIC)\b|[A-Z][A-Za-z]*(Error|Exception)\b|Traceback|File "|npm (ERR|WARN)|E\s{2,}|\d+\s*\||---|\+\+\+|@@|[+-]\s|thread '|[✓✗×✔✘●›❯])|^\s{4,}|^\t/;

/** The user's own prose, cut into clauses: no code blocks, inline code, pasted logs or quotes. */
function proseClauses(prompt: string): string[] {
  const text = prompt
    .replace(/```[\s\S]*?(```|$)/g, '\n')
    .replace(/`[^`\n]*`/g, ' ')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"');
  const clauses: string[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '' || LOG_LINE.test(line)) continue;
    for (const sentence of line.split(/(?<=[.!?])\s+/)) {
      const question = /\?\s*$/.test(sentence);
      for (const part of sentence.split(/[,;:]\s+|\s+-{1,2}\s+|\s+—\s+|\s+(?=(?:but|and then|then|so that)\b)/i)) {
        const clause = part.trim().replace(/[\s.!?]+$/, '');
        if (clause !== '') clauses.push(question ? `${clause}?` : clause);
      }
    }
  }
  return clauses;
}

// What may precede the imperative: fillers, then a time word and a request. Anything else (a subject
// like "I said", "the test") means it is not an instruction to us. Each is matched a word at a time
// by a small sticky pattern, and the phase patterns are tried at each place the prefix may end, in
// the order one pattern of them all would backtrack through: a single pattern holding these lists
// cost a hook ~1.4 ms to compile, three per phase, ~9 ms for a prompt that names two phases.
const FILLER_WORD =
  /(?:ok(?:ay)?|alright|all right|great|good|cool|nice|perfect|thanks|thank you|yes|yep|yeah|sure|right|so|and|lgtm|sounds good|looks good)[\s,.!]+/iy;
// Kept in the quote: "now implement it" says more than "implement it".
const WHEN_WORD = /(?:now|next|first|finally|ok(?:ay)?|so|and)[\s,]+/iy;
const LEAD_HEAD =
  /(?:let'?s|let us|please|pls|kindly|can you|could you|would you|will you|can we|shall we|we can|we should|we need to|i want you to|i'd like you to|i would like you to|i want to|i'd like to|go ahead and|now|time to|it's time to|it is time to|start to|proceed to|move on to|just)\s+/iy;
/** After the request: one more word, the longer form first ("go ahead and" before "go"). */
const LEAD_TAIL = /(?:now|please|go\s+ahead\s+and|go|start\s+to|start|just)\s+/iy;
const LEAD_TAIL_SHORT = /(?:go|start)\s+/iy;

/** Where a run of `word` starting at `at` ends (at itself when there is none). */
function wordsEnd(text: string, word: RegExp, at: number): number {
  return wordEnds(text, word, at).at(-1) as number;
}

/** Where each word of a run of `word` from `at` ends: at itself, then after the first, …, the last. */
function wordEnds(text: string, word: RegExp, at: number): number[] {
  const ends = [at];
  for (;;) {
    word.lastIndex = ends.at(-1) as number;
    if (!word.test(text)) return ends;
    ends.push(word.lastIndex);
  }
}

/** Where a request may end, from `at`: with its longer tail, its shorter one, without, and none. */
function leadEnds(text: string, at: number): number[] {
  LEAD_HEAD.lastIndex = at;
  if (!LEAD_HEAD.test(text)) return [at];
  const head = LEAD_HEAD.lastIndex;
  const ends: number[] = [];
  LEAD_TAIL.lastIndex = head;
  if (LEAD_TAIL.test(text)) ends.push(LEAD_TAIL.lastIndex);
  LEAD_TAIL_SHORT.lastIndex = head;
  if (LEAD_TAIL_SHORT.test(text) && LEAD_TAIL_SHORT.lastIndex !== ends[0]) ends.push(LEAD_TAIL_SHORT.lastIndex);
  ends.push(head, at);
  return ends;
}

/**
 * A phase phrase (a sticky pattern) after the clause's prefix: where the fillers end, where the
 * time word and request end, and where the phrase ends; undefined when it is not there.
 */
function afterPrefix(text: string, phrase: RegExp): { filler: number; lead: number; end: number } | undefined {
  const filler = wordsEnd(text, FILLER_WORD, 0);
  // The time words give back their last words one by one ("now" may also open a request: "now go
  // implement it"); fillers never need to, as no request or phrase starts with one.
  const whens = wordEnds(text, WHEN_WORD, filler);
  for (let w = whens.length - 1; w >= 0; w--) {
    for (const lead of leadEnds(text, whens[w] as number)) {
      phrase.lastIndex = lead;
      if (phrase.test(text)) return { filler, lead, end: phrase.lastIndex };
    }
  }
  return undefined;
}
const DET = `(?:it|this|that|them|these|those|everything|the|my|our|your|a|an|some|all|more|what)`;

interface Pattern {
  phase: Exclude<Phase, 'unknown'>;
  /** The phrase after the lead (which may be empty). */
  re: string;
  /** After a lead ("let's", "please", "now") the verb is a verb whatever follows; alone, "Plan B" or "Review comments" are nouns. */
  led: string;
  /** The verb alone ends the clause ("let's plan"): only counts after a lead, or "Plan:" headings would. */
  bare: string;
}

const PATTERNS: Pattern[] = [
  {
    phase: 'planning',
    re: String.raw`plan\s+(?:${DET}|out|first|ahead|how)\b|(?:make|write|draft|come up with|put together|start with|begin with)\s+(?:a|the)\s+plan\b|(?:start|begin)\s+planning\b`,
    led: String.raw`plan\s+\w`,
    bare: 'plan(?:\\s+first)?|start planning',
  },
  {
    phase: 'design',
    re: String.raw`(?:design|architect|sketch(?:\s+out)?)\s+(?:${DET}|how)\b|(?:start|begin)\s+(?:with|on)\s+the\s+(?:design|architecture)\b|(?:work on|do|write|draft)\s+(?:the|a)\s+(?:design|architecture|design doc|adr)\b|think\s+(?:about|through)\s+the\s+(?:design|architecture)\b|(?:start|begin)\s+designing\b`,
    led: String.raw`design\s+\w`,
    bare: 'design(?:\\s+(?:it|first))?',
  },
  {
    phase: 'implementation',
    // "Implement X" at the start of a clause is an instruction: unlike plan, design, test and review, the verb is never a noun.
    re: String.raw`implement\s+[\w"'#]|(?:start|begin)\s+(?:implementing|coding|building it|the implementation)\b|(?:write|build)\s+the\s+code\b|code\s+(?:it|this|that)\s+up\b|(?:proceed|go ahead|continue|move on)\s+(?:with|to)\s+(?:the\s+)?implementation\b|(?:make|apply)\s+the\s+changes\b`,
    led: String.raw`implement\s+\w`,
    bare: 'implement|code|start coding',
  },
  {
    phase: 'testing',
    re: String.raw`(?:write|add|create)\s+(?:some\s+|the\s+|more\s+|a\s+few\s+|a\s+)?(?:unit\s+|integration\s+|e2e\s+|end-to-end\s+|regression\s+)?tests?\b|test\s+(?:${DET})\b|(?:start|begin)\s+testing\b|(?:cover|check)\s+(?:it|this|them)\s+with\s+tests\b`,
    led: String.raw`test\s+\w`,
    bare: 'test(?:\\s+it)?|start testing',
  },
  {
    phase: 'review',
    re: String.raw`review\s+(?:${DET}|pr|pull|diff|changes|code)\b|(?:do|start|give me)\s+(?:a|the)\s+(?:code\s+)?review\b|(?:start|begin)\s+reviewing\b|look\s+over\s+the\s+(?:changes|diff|pr)\b`,
    led: String.raw`review\s+\w`,
    bare: 'review',
  },
];

interface Compiled {
  phase: Exclude<Phase, 'unknown'>;
  phrase: RegExp;
  led: RegExp;
  bare: RegExp;
}
const compiled = new Map<Pattern, Compiled>();
/** Words one phase's patterns cannot match without (checked before they are compiled). */
const PHASE_WORD: Record<Exclude<Phase, 'unknown'>, RegExp> = {
  planning: /plan/i,
  design: /design|architect|adr|sketch/i,
  implementation: /implement|cod(?:e|ing)|build|changes/i,
  testing: /test/i,
  review: /review|diff|\bpr\b|pull|changes/i,
};
/** The patterns of the phases whose words the clause has, compiled on first use: most runs need none. */
function compiledPatterns(head: string): Compiled[] {
  const out: Compiled[] = [];
  for (const p of PATTERNS) {
    if (!PHASE_WORD[p.phase].test(head)) continue;
    let c = compiled.get(p);
    if (c === undefined) {
      c = {
        phase: p.phase,
        phrase: new RegExp(`(?:${p.re})[^?]*`, 'iy'),
        led: new RegExp(`(?:${p.led})[^?]*`, 'iy'),
        bare: new RegExp(`(?:${p.bare})$`, 'iy'),
      };
      compiled.set(p, c);
    }
    out.push(c);
  }
  return out;
}

const NEGATION = /\b(don'?t|do not|doesn'?t|didn'?t|not|no need|never|without|stop|hold off|avoid|instead of|rather than)\b/i;
const CONDITION = /^(if|when|whenever|once|after|before|unless|until|while|because|since|in case)\b/i;
const LATER = /\b(yet|later|afterwards|tomorrow|next time|in a bit)\b/i;
// A question asking for an opinion, not a request: "how would you test this?", "should we review?"
const QUESTION = /^(how|what|why|where|which|who|whose|should|do|does|did|is|are|was|were|has|have|had|would it|will it|might|must|shall i)\b/i;
const MAX_QUOTE = 80;

// Every pattern needs one of these words near the start of the clause (after at most a filler, a
// "now" and a lead such as "I'd like you to go ahead and"). Most prompts have none there, and then
// the patterns are never run: compiling them costs a hook ~40 ms, more than all its other work.
const KEYWORD = /\b(?:plan\w*|design\w*|architect\w*|adr|sketch\w*|implement\w*|coding|code|build\w*|changes|tests?|testing|review\w*|diff|pr|pull)\b/i;
const KEYWORD_WITHIN = 120;

function clausePhase(clause: string): { phase: Exclude<Phase, 'unknown'>; quote: string } | undefined {
  if (!KEYWORD.test(clause.slice(0, KEYWORD_WITHIN))) return undefined;
  const question = clause.endsWith('?');
  const body = question ? clause.slice(0, -1).trim() : clause;
  const core = body.slice(wordsEnd(body, FILLER_WORD, 0));
  if (CONDITION.test(core) || (question && QUESTION.test(core))) return undefined;
  // "then write the tests" is for later: the current intent is elsewhere.
  if (/^(and\s+)?then\b|^after that\b|^afterwards\b|^later\b/i.test(core)) return undefined;
  for (const { phase, phrase, led, bare } of compiledPatterns(body.slice(0, KEYWORD_WITHIN))) {
    let m = afterPrefix(body, phrase);
    if (m === undefined) {
      m = afterPrefix(body, led) ?? afterPrefix(body, bare);
      // Alone, "Plan B" or "Review comments" are nouns: led and bare need a time word or a request.
      if (m === undefined || m.lead === m.filler) continue;
    }
    const said = body.slice(m.filler, m.end);
    if (NEGATION.test(said) || LATER.test(said)) return undefined;
    const quote = said.trim();
    return { phase, quote: quote.length > MAX_QUOTE ? `${quote.slice(0, MAX_QUOTE - 1)}…` : quote };
  }
  return undefined;
}
