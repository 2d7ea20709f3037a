// Test command output → pass/fail counts and failing test names, for the phase ledger's record of
// what ran. Pure and total: any string in (megabytes of it, binary noise, a run cut off halfway), a
// TestRun or undefined out, never a throw. Only the tail is read: summaries in the last 256 K
// characters, failure names in the last 512 K, each line cut to 1,000 characters; every regex is
// anchored or bounded, so the cost stays linear in that window whatever the input.
//
// Which runner: each known format is recognised by its own summary. When several match (a script
// running two tools), the one the command names wins, else the one whose summary comes last. A bare
// "12 passed, 3 failed" line is read only as a fallback, and only under guard (see parseGeneric).
//
// Several summaries of one runner: vitest, jest, pytest, mocha, unittest and node print one per run,
// so a later one is a rerun (watch mode) and only the last run counts, with the failure names
// printed since the summary before it. cargo prints one per test binary and go one per package, all
// parts of a single run, so those are summed.

import { stripAnsi } from '../archive/plain-text.ts';

export type TestRunner = 'vitest' | 'jest' | 'node' | 'pytest' | 'go' | 'cargo' | 'mocha' | 'unittest' | 'generic';

export interface TestRun {
  runner: TestRunner;
  passed: number;
  failed: number;
  skipped: number;
  /** Names of failing tests in output order, deduplicated, at most 20, each at most 200 chars. */
  failures: string[];
}

const SUMMARY_CHARS = 256 * 1024;
const FAILURE_CHARS = 512 * 1024;
const MAX_LINE = 1_000;
const MAX_COMMAND = 4_000;
const MAX_FAILURES = 20;
const MAX_NAME = 200;
/** Deepest indentation the node reporters' nesting is tracked to. */
const MAX_INDENT = 60;

interface View {
  /** The last FAILURE_CHARS of the output as lines: ANSI codes stripped, trailing space trimmed, each cut to MAX_LINE. */
  lines: string[];
  /** The lines joined by '\n'. */
  text: string;
  /** Index of the first line that starts within the last SUMMARY_CHARS. */
  from: number;
}

interface Found {
  run: TestRun;
  /** Line of the (last) summary: between two runners, the later one wins. */
  at: number;
}

/** The result of one test command's output; undefined when the output does not look like a test run. `command` is a hint (the Bash command), may be absent. */
/**
 * The last answer, kept: PostToolUse asks twice of one output (its phase digest, then its stub), and
 * a 40 KB test run costs a short-lived hook 1–2 ms to read. Each caller gets its own copy.
 */
let last: { output: string; command: string | undefined; run: TestRun | undefined } | undefined;

export function parseTestOutput(output: string, command?: string): TestRun | undefined {
  if (last === undefined || last.output !== output || last.command !== command) last = { output, command, run: readTestOutput(output, command) };
  return last.run === undefined ? undefined : { ...last.run, failures: [...last.run.failures] };
}

function readTestOutput(output: string, command?: string): TestRun | undefined {
  if (typeof output !== 'string' || output === '') return undefined;
  const view = viewOf(output);
  const cmd = typeof command === 'string' ? command.slice(0, MAX_COMMAND) : '';
  const hint = runnerHint(cmd);
  let best: Found | undefined;
  for (const [parse, mayMatch] of PARSERS) {
    if (!mayMatch(view.text)) continue;
    const found = parse(view);
    if (found === undefined) continue;
    if (found.run.runner === hint) return found.run;
    if (best === undefined || found.at > best.at) best = found;
  }
  return best?.run ?? parseGeneric(view, TEST_COMMAND.test(cmd));
}

// Each parser with what its summary cannot do without (a word or two of it, looked up in the
// cleaned window): a parser's patterns cost a short-lived hook more to compile (~0.2 ms each) than
// to run, and most outputs hold no more than one runner's words.
const PARSERS: ReadonlyArray<readonly [(view: View) => Found | undefined, (text: string) => boolean]> = [
  [parseVitest, (t) => t.includes('Tests')],
  [parseJest, (t) => t.includes('Tests:')],
  [parseNode, (t) => t.includes('pass') && t.includes('fail')],
  [parsePytest, (t) => t.includes(' in ')],
  [parseGo, (t) => t.includes('--- ') || t.includes('FAIL') || t.includes('[no test files]') || /^ok\s/m.test(t)],
  [parseCargo, (t) => t.includes('test result: ')],
  [parseMocha, (t) => t.includes(' passing (')],
  [parseUnittest, (t) => t.includes('Ran ')],
];

// ---------------------------------------------------------------------------------------------
// Input: the tail as clean lines, and the command as a hint.

// A lone \r counts as a break: progress output overwrites a line with it.
const LINE_BREAK = /\r\n|\r|\n/g;

function viewOf(output: string): View {
  const text = output.length > FAILURE_CHARS ? output.slice(-FAILURE_CHARS) : output;
  const summaryOffset = Math.max(0, text.length - SUMMARY_CHARS);
  const lines: string[] = [];
  let from = -1;
  let start = 0;
  LINE_BREAK.lastIndex = 0;
  for (;;) {
    const m = LINE_BREAK.exec(text);
    const end = m === null ? text.length : m.index;
    if (from < 0 && start >= summaryOffset) from = lines.length;
    lines.push(cleanLine(text.slice(start, end)));
    if (m === null) break;
    start = end + m[0].length;
  }
  return { lines, text: lines.join('\n'), from: from < 0 ? lines.length : from };
}

function cleanLine(raw: string): string {
  const plain = stripAnsi(raw);
  return (plain.length > MAX_LINE ? plain.slice(0, MAX_LINE) : plain).trimEnd();
}

// A command that says it runs tests lets a plain "3 passed" line count.
const TEST_COMMAND = /\b(?:tests?|specs?|check|vitest|jest|pytest|mocha|unittest|ava|tap|phpunit|rspec|ctest)\b/i;

const HINTS: ReadonlyArray<readonly [RegExp, TestRunner]> = [
  [/\bvitest\b/, 'vitest'],
  [/\bjest\b/, 'jest'],
  [/\bpy\.?test\b/, 'pytest'],
  [/-m unittest\b|\bmanage\.py test\b/, 'unittest'],
  [/\bgo test\b/, 'go'],
  [/\bcargo (?:test|nextest)\b/, 'cargo'],
  [/\bnode\b.{0,100}--test\b/, 'node'],
  [/\bmocha\b/, 'mocha'],
];

function runnerHint(command: string): TestRunner | undefined {
  for (const [re, runner] of HINTS) if (re.test(command)) return runner;
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Shared helpers.

interface Span<T> {
  /** Line of the last summary. */
  at: number;
  /** First line of its run: the line after the summary before it, or 0. */
  start: number;
  value: T;
}

/** The last summary `read` accepts, which must start in the summary window, and where its run began. */
function lastRun<T>(view: View, read: (line: string) => T | undefined): Span<T> | undefined {
  let last: { at: number; value: T } | undefined;
  for (let i = view.lines.length - 1; i >= 0; i--) {
    if (last === undefined && i < view.from) return undefined;
    const value = read(view.lines[i]!);
    if (value === undefined) continue;
    if (last !== undefined) return { ...last, start: i + 1 };
    last = { at: i, value };
  }
  return last && { ...last, start: 0 };
}

/** `2 failed | 45 passed | 1 skipped` → failed 2, passed 45, skipped 1: each number with the word after it. */
function tally(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of text.matchAll(/(\d{1,9}) ([a-z]{1,20})/gi)) {
    const word = m[2]!.toLowerCase();
    out.set(word, (out.get(word) ?? 0) + Number(m[1]));
  }
  return out;
}

function sum(counts: Map<string, number>, ...words: string[]): number {
  let total = 0;
  for (const word of words) total += counts.get(word) ?? 0;
  return total;
}

function makeRun(runner: TestRunner, passed: number, failed: number, skipped: number, names: Iterable<string>): TestRun {
  return { runner, passed, failed, skipped, failures: limitNames(names) };
}

/** Trimmed, non-empty, first occurrence only, at most MAX_FAILURES, each at most MAX_NAME characters. */
function limitNames(names: Iterable<string>): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of names) {
    const name = shorten(raw.trim());
    if (name === '' || seen.has(name)) continue;
    seen.add(name);
    out.push(name);
    if (out.length === MAX_FAILURES) break;
  }
  return out;
}

function shorten(name: string): string {
  if (name.length <= MAX_NAME) return name;
  let cut = MAX_NAME - 1;
  // Never leave half a surrogate pair before the ellipsis.
  const code = name.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--;
  return `${name.slice(0, cut)}…`;
}

// Both vitest and node print durations in milliseconds: "× name 3ms", "✖ name (1.2ms)".
const DURATION_SUFFIX = / \(?\d{1,9}(?:\.\d{1,9})?ms\)?$/;

// ---------------------------------------------------------------------------------------------
// vitest: "      Tests  2 failed | 45 passed | 1 skipped (48)" (the Test Files line above it counts
// files, not tests). Names from the "Failed Tests" section (" FAIL  file > suite > name"), which is
// complete and qualified; the per-file "× suite > name" lines only when that section is missing.

const VITEST_TESTS = /^\s{0,20}Tests\s{1,20}(\d.{0,300}?)\s{0,5}\(\d{1,9}\)$/;
const VITEST_FAIL = /^\s{0,4}FAIL\s{1,6}(\S.{0,999})$/;
const VITEST_CROSS = /^\s{0,40}[×✗]\s{1,4}(\S.{0,999})$/;
// A suite that failed to load: " FAIL  test/x.test.ts [ test/x.test.ts ]".
const VITEST_FILE_SUFFIX = / \[ [^\]]{1,400} \]$/;

function parseVitest(view: View): Found | undefined {
  const span = lastRun(view, (line) => VITEST_TESTS.exec(line)?.[1]);
  if (span === undefined) return undefined;
  const counts = tally(span.value);
  const qualified: string[] = [];
  const short: string[] = [];
  for (let i = span.start; i < span.at; i++) {
    const line = view.lines[i]!;
    const fail = VITEST_FAIL.exec(line);
    // Watch mode's " FAIL  Tests failed. Watching for file changes..." names no test.
    if (fail && !fail[1]!.startsWith('Tests failed.')) qualified.push(fail[1]!.replace(VITEST_FILE_SUFFIX, ''));
    const cross = VITEST_CROSS.exec(line);
    if (cross) short.push(cross[1]!.replace(DURATION_SUFFIX, ''));
  }
  const names = qualified.length > 0 ? qualified : short;
  return { run: makeRun('vitest', sum(counts, 'passed'), sum(counts, 'failed'), sum(counts, 'skipped', 'todo'), names), at: span.at };
}

// ---------------------------------------------------------------------------------------------
// jest: "Tests:       1 failed, 2 skipped, 10 passed, 13 total"; names from "● suite › name".

const JEST_TESTS = /^Tests:\s{1,20}(\d.{0,300} total)$/;
const JEST_BULLET = /^\s{0,8}● (.{1,999})$/;
const JEST_FAIL_FILE = /^\s{0,4}FAIL\s{1,6}(\S{1,400})/;

function parseJest(view: View): Found | undefined {
  const span = lastRun(view, (line) => JEST_TESTS.exec(line)?.[1]);
  if (span === undefined) return undefined;
  const counts = tally(span.value);
  const names: string[] = [];
  let file = '';
  for (let i = span.start; i < span.at; i++) {
    const line = view.lines[i]!;
    const fail = JEST_FAIL_FILE.exec(line);
    if (fail) file = fail[1]!;
    const bullet = JEST_BULLET.exec(line);
    if (!bullet) continue;
    const name = bullet[1]!.trim();
    // "● Console" heads captured console output; a suite that failed to run is named by its file.
    if (name === 'Console') continue;
    names.push(name === 'Test suite failed to run' ? file || name : name);
  }
  return { run: makeRun('jest', sum(counts, 'passed'), sum(counts, 'failed'), sum(counts, 'skipped', 'todo'), names), at: span.at };
}

// ---------------------------------------------------------------------------------------------
// node --test: a closing block of "# pass 4" (TAP) or "ℹ pass 4" (spec) lines. Each test counts in
// exactly one of pass, fail, cancelled, skipped, todo; cancelled ones failed. Names from TAP
// "not ok 3 - name" or spec "✖ name (1.2ms)". Node 22+ repeats the failures after the summary, so
// a run's names reach to the end of the output.

const NODE_SUMMARY = /^(?:#|ℹ)\s{1,4}(tests|suites|pass|fail|cancelled|skipped|todo|duration_ms)\s{1,4}(\d{1,9})(?:\.\d{1,9})?$/;
const TAP_RESULT = /^(\s{0,60})(not )?ok \d{1,9}(?: - (.{0,999}))?$/;
const SPEC_RESULT = /^(\s{0,60})([✔✖﹣]) (.{1,999})$/;
const DIRECTIVE = /\s#\s?(?:SKIP|TODO)\b/i;

function parseNode(view: View): Found | undefined {
  const { lines } = view;
  let end = lines.length - 1;
  while (end >= view.from && !NODE_SUMMARY.test(lines[end]!)) end--;
  if (end < view.from) return undefined;
  const counts = new Map<string, number>();
  let start = end;
  for (; start >= 0; start--) {
    const m = NODE_SUMMARY.exec(lines[start]!);
    if (!m) break;
    counts.set(m[1]!, Number(m[2]));
  }
  if (!counts.has('pass') || !counts.has('fail')) return undefined;
  let previous = start;
  while (previous >= 0 && !NODE_SUMMARY.test(lines[previous]!)) previous--;
  const failed = sum(counts, 'fail', 'cancelled');
  const run = makeRun('node', sum(counts, 'pass'), failed, sum(counts, 'skipped', 'todo'), nodeFailures(lines, previous + 1));
  return { run, at: end };
}

/**
 * Failing tests, not the suites around them. Both reporters print a test's children before it, more
 * indented, so a failure with a deeper failure since its previous sibling is a suite: it is left out
 * (also when node lists it again among the failing tests).
 */
function nodeFailures(lines: readonly string[], start: number): string[] {
  const names: string[] = [];
  const suites = new Set<string>();
  // failedBelow[d]: a result deeper than d failed since the last result at depth ≤ d.
  const failedBelow = new Array<boolean>(MAX_INDENT + 1).fill(false);
  for (let i = start; i < lines.length; i++) {
    const result = nodeResult(lines[i]!);
    if (result === undefined) continue;
    const { depth, failed, name } = result;
    const isSuite = failedBelow[depth] === true;
    failedBelow.fill(false, depth);
    if (!failed) continue;
    failedBelow.fill(true, 0, depth);
    if (isSuite) suites.add(name);
    else if (!suites.has(name)) names.push(name);
  }
  return names;
}

function nodeResult(line: string): { depth: number; failed: boolean; name: string } | undefined {
  const tap = TAP_RESULT.exec(line);
  if (tap) {
    const name = tap[3] ?? '';
    const skipped = DIRECTIVE.test(name);
    return { depth: tap[1]!.length, failed: tap[2] !== undefined && !skipped, name: name.replace(/\\#/g, '#') };
  }
  const spec = SPEC_RESULT.exec(line);
  if (!spec || spec[3] === 'failing tests:') return undefined;
  const name = spec[3]!.replace(DIRECTIVE, '').replace(DURATION_SUFFIX, '');
  return { depth: spec[1]!.length, failed: spec[2] === '✖' && !DIRECTIVE.test(spec[3]!), name };
}

// ---------------------------------------------------------------------------------------------
// pytest: "===== 2 failed, 10 passed, 1 skipped in 0.12s =====" (bare with -q). Errors count as
// failed; xfailed as skipped and xpassed as passed (what the run did); deselected tests did not run
// and count nowhere. Names from "FAILED tests/test_x.py::test_name - AssertionError" and, with -v,
// "tests/test_x.py::test_name FAILED".

const PYTEST_SUMMARY = /^(?:={1,200} )?(\d{1,9} [a-z].{0,300}?|no tests ran) in \d{1,9}(?:\.\d{1,6})?s(?: \(\d{1,2}(?::\d{2}){1,2}\))?(?: ={1,200})?$/;
const PYTEST_ITEM = /^(\d{1,9}) (passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?|rerun)$/;
const PYTEST_SHORT = /^(?:FAILED|ERROR) (\S.{0,999})$/;
const PYTEST_VERBOSE = /^(\S{1,400}::\S{1,400}) (?:FAILED|ERROR)\b/;

function readPytest(line: string): Map<string, number> | undefined {
  const m = PYTEST_SUMMARY.exec(line);
  if (!m) return undefined;
  const counts = new Map<string, number>();
  if (m[1] === 'no tests ran') return counts;
  for (const part of m[1]!.split(', ')) {
    const item = PYTEST_ITEM.exec(part);
    if (!item) return undefined;
    counts.set(item[2]!, (counts.get(item[2]!) ?? 0) + Number(item[1]));
  }
  return counts;
}

function parsePytest(view: View): Found | undefined {
  const span = lastRun(view, readPytest);
  if (span === undefined) return undefined;
  const counts = span.value;
  const names: string[] = [];
  for (let i = span.start; i < span.at; i++) {
    const line = view.lines[i]!;
    const short = PYTEST_SHORT.exec(line);
    if (short) {
      const dash = short[1]!.indexOf(' - ');
      names.push(dash < 0 ? short[1]! : short[1]!.slice(0, dash));
      continue;
    }
    const verbose = PYTEST_VERBOSE.exec(line);
    if (verbose) names.push(verbose[1]!);
  }
  const run = makeRun('pytest', sum(counts, 'passed', 'xpassed'), sum(counts, 'failed', 'error', 'errors'), sum(counts, 'skipped', 'xfailed'), names);
  return { run, at: span.at };
}

// ---------------------------------------------------------------------------------------------
// go test: per-test "--- PASS/FAIL/SKIP: Name (0.00s)" lines (PASS and SKIP only with -v) and
// per-package "ok  pkg 0.01s" / "FAIL pkg 0.02s" lines, all summed. Counts are tests, never
// packages: without -v, passed is the number of "--- PASS" lines, so 0 (the ok lines say packages
// passed, not how many tests did). A test whose subtests ran counts through its subtests only. A
// failing package with no failing test (build error, panic, timeout) counts as one failure, named
// by the package.

const GO_RESULT = /^\s{0,40}--- (PASS|FAIL|SKIP): (\S{1,400}) \(/;
const GO_OK = /^ok\s{1,20}\S{1,400}\s{1,20}(?:\(cached\)|\d{1,9}(?:\.\d{1,6})?s|\[no tests to run\])/;
const GO_FAIL = /^FAIL\s{1,20}(\S{1,400})\s{1,20}(?:\d{1,9}(?:\.\d{1,6})?s|\[[^\]]{1,100}\])/;
const GO_NO_FILES = /^\?\s{1,20}\S{1,400}\s{1,20}\[no test files\]/;

function parseGo(view: View): Found | undefined {
  const { lines } = view;
  const results: { kind: string; name: string }[] = [];
  const packageFailures: string[] = [];
  let failsInPackage = 0;
  let at = -1;
  for (let i = view.from; i < lines.length; i++) {
    const line = lines[i]!;
    const result = GO_RESULT.exec(line);
    if (result) {
      results.push({ kind: result[1]!, name: result[2]! });
      if (result[1] === 'FAIL') failsInPackage++;
      at = i;
      continue;
    }
    const failedPackage = GO_FAIL.exec(line);
    if (failedPackage) {
      if (failsInPackage === 0) packageFailures.push(failedPackage[1]!);
      failsInPackage = 0;
      at = i;
    } else if (GO_OK.test(line) || GO_NO_FILES.test(line)) {
      failsInPackage = 0;
      at = i;
    }
  }
  if (at < 0) return undefined;
  const parents = new Set<string>();
  for (const { name } of results) {
    for (let slash = name.indexOf('/'); slash > 0; slash = name.indexOf('/', slash + 1)) parents.add(name.slice(0, slash));
  }
  const leaves = results.filter((r) => !parents.has(r.name));
  const count = (kind: string) => leaves.filter((r) => r.kind === kind).length;
  const names = [...leaves.filter((r) => r.kind === 'FAIL').map((r) => r.name), ...packageFailures];
  return { run: makeRun('go', count('PASS'), count('FAIL') + packageFailures.length, count('SKIP'), names), at };
}

// ---------------------------------------------------------------------------------------------
// cargo test: one "test result: FAILED. 3 passed; 1 failed; 2 ignored; ..." per test binary (unit
// tests, each integration test, doc tests), summed. Names from "test tests::name ... FAILED".

const CARGO_RESULT = /^test result: (?:ok|FAILED)\. (\d{1,9}) passed; (\d{1,9}) failed; (\d{1,9}) ignored;/;
const CARGO_FAILED = /^test (\S.{0,400}) \.\.\. FAILED$/;

function parseCargo(view: View): Found | undefined {
  const { lines } = view;
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let at = -1;
  for (let i = view.from; i < lines.length; i++) {
    const m = CARGO_RESULT.exec(lines[i]!);
    if (!m) continue;
    passed += Number(m[1]);
    failed += Number(m[2]);
    skipped += Number(m[3]);
    at = i;
  }
  if (at < 0) return undefined;
  const names: string[] = [];
  for (const line of lines) {
    const m = CARGO_FAILED.exec(line);
    if (m) names.push(m[1]!);
  }
  return { run: makeRun('cargo', passed, failed, skipped, names), at };
}

// ---------------------------------------------------------------------------------------------
// mocha: "  12 passing (30ms)", then "  1 pending" and "  2 failing"; the failures follow, each a
// numbered title spread over indented lines, the last ending in ':' ("  1) suite\n       name:").

const MOCHA_PASSING = /^\s{0,8}(\d{1,9}) passing \(\d{1,9}(?:\.\d{1,3})?(?:ms|s|m|h)\)$/;
const MOCHA_COUNT = /^\s{0,8}(\d{1,9}) (failing|pending)$/;
const MOCHA_FAILURE = /^(\s{0,8})\d{1,4}\) (\S.{0,999})$/;
const MOCHA_TITLE_LINES = 8;

function parseMocha(view: View): Found | undefined {
  const { lines } = view;
  const span = lastRun(view, (line) => MOCHA_PASSING.exec(line)?.[1]);
  if (span === undefined) return undefined;
  const counts = new Map<string, number>();
  for (let i = span.at + 1; i < Math.min(lines.length, span.at + 4); i++) {
    const m = MOCHA_COUNT.exec(lines[i]!);
    if (m) counts.set(m[2]!, Number(m[1]));
  }
  const names: string[] = [];
  for (let i = span.at + 1; i < lines.length; i++) {
    const m = MOCHA_FAILURE.exec(lines[i]!);
    if (m) names.push(mochaTitle(lines, i, m[1]!.length, m[2]!));
  }
  return { run: makeRun('mocha', Number(span.value), sum(counts, 'failing'), sum(counts, 'pending'), names), at: span.at };
}

/** The title parts from the numbered line on, joined as mocha's fullTitle does (with spaces). */
function mochaTitle(lines: readonly string[], at: number, indent: number, first: string): string {
  const parts = [first];
  for (let i = at + 1; i < Math.min(lines.length, at + MOCHA_TITLE_LINES) && !parts.at(-1)!.endsWith(':'); i++) {
    const line = lines[i]!;
    const text = line.trim();
    if (text === '' || line.length - line.trimStart().length <= indent) break;
    parts.push(text);
  }
  return parts.join(' ').replace(/:$/, '');
}

// ---------------------------------------------------------------------------------------------
// python -m unittest: "Ran 12 tests in 0.003s", then "OK", "OK (skipped=1)" or "FAILED (failures=2,
// errors=1)". Errors and unexpected successes count as failed (the run fails on them), expected
// failures as skipped. Names from the "FAIL: test_x (module.Class)" headers, as module.Class.test_x.

const UNITTEST_RAN = /^Ran (\d{1,9}) tests? in \d{1,9}(?:\.\d{1,6})?s$/;
const UNITTEST_STATUS = /^(?:OK|FAILED|NO TESTS RAN)(?: \((.{1,300})\))?$/;
const UNITTEST_DETAIL = /([a-z][a-z ]{0,30})=(\d{1,9})/g;
const UNITTEST_HEADER = /^(?:FAIL|ERROR|UNEXPECTED SUCCESS): (\S{1,400}) \(([^)]{1,400})\)/;

function parseUnittest(view: View): Found | undefined {
  const { lines } = view;
  const span = lastRun(view, (line) => UNITTEST_RAN.exec(line)?.[1]);
  if (span === undefined) return undefined;
  const names: string[] = [];
  for (let i = span.start; i < span.at; i++) {
    const m = UNITTEST_HEADER.exec(lines[i]!);
    if (!m) continue;
    const test = m[1]!;
    const where = m[2]!;
    // Python 3.11+ writes the full id in the parentheses, older versions the class only.
    names.push(where === test || where.endsWith(`.${test}`) ? where : `${where}.${test}`);
  }
  const details = unittestStatus(lines, span.at);
  const ran = Number(span.value);
  // No status line (the output was cut): the failure headers are all there is.
  const failed = details ? sum(details, 'failures', 'errors', 'unexpected successes') : names.length;
  const skipped = details ? sum(details, 'skipped', 'expected failures') : 0;
  return { run: makeRun('unittest', Math.max(0, ran - failed - skipped), failed, skipped, names), at: span.at };
}

function unittestStatus(lines: readonly string[], ran: number): Map<string, number> | undefined {
  for (let i = ran + 1; i < Math.min(lines.length, ran + 4); i++) {
    const m = UNITTEST_STATUS.exec(lines[i]!);
    if (!m) continue;
    const details = new Map<string, number>();
    for (const d of (m[1] ?? '').matchAll(UNITTEST_DETAIL)) details.set(d[1]!.trim(), Number(d[2]));
    return details;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Anything else: the last line in the summary window made only of counts ("12 passed, 3 failed",
// "Passed: 12  Failed: 3", "10 tests passed") and filler words. It must count passed or failed
// tests, and unless the command looks like a test command it must be unmistakable: two kinds of
// count, or the word "tests". Prose ("the value passed to foo", "3 tests failed on CI") has other
// words on the line, so it never qualifies.

const GENERIC_LINE = 300;
const GENERIC_COUNT = /\b(\d{1,9}) (tests? )?(passed|passing|failed|failing|skipped|pending|ignored|errors?)\b/gi;
const GENERIC_LABEL = /\b(tests? )?(passed|failed|skipped|ignored|errors?)\s{0,2}[:=]\s{0,2}(\d{1,9})\b/gi;
const GENERIC_FILLER =
  /\b(?:(?:tests?|total)\s{0,2}[:=]\s{0,2}\d{1,9}|tests?|total|results?|summary|all|and|in|ok|done|\d{1,9}(?:\.\d{1,6})? ?(?:ms|s|sec|seconds)|\d{1,9} total)\b/gi;
const NO_WORDS = /^[^\p{L}\p{N}]*$/u;
// Most lines are printable ASCII: a letter or digit there is found without compiling the Unicode
// classes (anything else, a tab included, takes the Unicode test).
const ASCII = /^[ -~]*$/;
const ASCII_WORD = /[A-Za-z0-9]/;
const noWords = (text: string) => (ASCII.test(text) ? !ASCII_WORD.test(text) : NO_WORDS.test(text));

const GENERIC_KIND: Readonly<Record<string, 'passed' | 'failed' | 'skipped'>> = {
  passed: 'passed',
  passing: 'passed',
  failed: 'failed',
  failing: 'failed',
  error: 'failed',
  errors: 'failed',
  skipped: 'skipped',
  pending: 'skipped',
  ignored: 'skipped',
};

function parseGeneric(view: View, testCommand: boolean): TestRun | undefined {
  for (let i = view.lines.length - 1; i >= view.from; i--) {
    const run = genericLine(view.lines[i]!, testCommand);
    if (run) return run;
  }
  return undefined;
}

/** A count line must count passed or failed tests (errors are failures): most lines skip the patterns. */
const GENERIC_WORDS = ['pass', 'fail', 'error'];

function genericLine(line: string, testCommand: boolean): TestRun | undefined {
  if (line.length > GENERIC_LINE || !/\d/.test(line)) return undefined;
  const lower = line.toLowerCase();
  if (!GENERIC_WORDS.some((w) => lower.includes(w))) return undefined;
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const kinds = new Set<string>();
  let saysTests = false;
  const add = (word: string, n: string, tests: string | undefined) => {
    const kind = GENERIC_KIND[word.toLowerCase()];
    if (kind === undefined) return;
    counts[kind] += Number(n);
    kinds.add(kind);
    if (tests !== undefined) saysTests = true;
  };
  for (const m of line.matchAll(GENERIC_COUNT)) add(m[3]!, m[1]!, m[2]);
  for (const m of line.matchAll(GENERIC_LABEL)) add(m[2]!, m[3]!, m[1]);
  if (!kinds.has('passed') && !kinds.has('failed')) return undefined;
  const rest = line.replace(GENERIC_COUNT, ' ').replace(GENERIC_LABEL, ' ').replace(GENERIC_FILLER, ' ');
  if (!noWords(rest)) return undefined;
  if (!testCommand && kinds.size < 2 && !saysTests) return undefined;
  return makeRun('generic', counts.passed, counts.failed, counts.skipped, []);
}
