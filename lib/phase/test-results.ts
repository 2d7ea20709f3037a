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
// The runners: vitest, jest, node --test, pytest, go test, cargo test, mocha, python -m unittest,
// rspec, Maven (surefire, failsafe), Gradle, dotnet test, Playwright, PHPUnit, Pest (and `artisan
// test`), mix test (ExUnit), XCTest (xcodebuild, swift test), Unity (C), CTest and dbt test/build.
//
// Several summaries of one runner: vitest, jest, pytest, mocha, unittest, node, rspec, PHPUnit,
// Pest, Playwright, CTest and dbt print one per run, so a later one is a rerun (watch mode, a second
// command) and only the last run counts, with the failure names printed since the summary before
// it. cargo prints one per test binary, go one per package, Maven one per module and plugin, Gradle
// one per test task, dotnet one per test assembly, XCTest one per test bundle, Unity one per binary
// and an umbrella mix project one per app, all parts of a single run, so those are summed.

import { stripAnsi } from '../archive/plain-text.ts';

export type TestRunner =
  | 'vitest'
  | 'jest'
  | 'node'
  | 'pytest'
  | 'go'
  | 'cargo'
  | 'mocha'
  | 'unittest'
  | 'rspec'
  | 'maven'
  | 'gradle'
  | 'dotnet'
  | 'playwright'
  | 'phpunit'
  | 'pest'
  | 'exunit'
  | 'xctest'
  | 'unity'
  | 'ctest'
  | 'dbt'
  | 'generic';

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
  [parseRspec, (t) => t.includes(' examples, ') || t.includes(' example, ')],
  [parseMaven, (t) => t.includes('Tests run: ')],
  [parseGradle, (t) => t.includes('> Task :') || t.includes(' completed, ')],
  [parseDotnet, (t) => t.includes('Passed!') || t.includes('Failed!') || t.includes('Total tests: ') || t.includes('Test run summary: ')],
  [parsePlaywright, (t) => t.includes(' › ') || t.includes(' passed (')],
  [parsePhpunit, (t) => t.includes('Assertions: ') || t.includes(' assertion')],
  [parsePest, (t) => t.includes('Tests:')],
  [parseExunit, (t) => t.includes(' tests, ') || t.includes(' test, ')],
  [parseXctest, (t) => t.includes('Executed ') || t.includes('Test Case ') || t.includes('Test case ')],
  [parseUnity, (t) => t.includes(' Tests ') && t.includes(' Failures ')],
  [parseCtest, (t) => t.includes('% tests passed')],
  [parseDbt, (t) => t.includes('Done. PASS=')],
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
const TEST_COMMAND = /\b(?:tests?|specs?|check|vitest|jest|pytest|mocha|unittest|ava|tap|phpunit|pest|rspec|ctest)\b/i;

const HINTS: ReadonlyArray<readonly [RegExp, TestRunner]> = [
  [/\bvitest\b/, 'vitest'],
  [/\bjest\b/, 'jest'],
  [/\bpy\.?test\b/, 'pytest'],
  [/-m unittest\b|\bmanage\.py test\b/, 'unittest'],
  [/\bgo test\b/, 'go'],
  [/\bcargo (?:test|nextest)\b/, 'cargo'],
  [/\bnode\b.{0,100}--test\b/, 'node'],
  [/\bmocha\b/, 'mocha'],
  [/\brspec\b/, 'rspec'],
  [/\bmvn[dw]?\b.{0,200}\b(?:test|verify|install)\b/, 'maven'],
  [/\bgradlew?\b.{0,200}(?:\btest|Tests?\b|\bcheck\b)/, 'gradle'],
  [/\bdotnet test\b/, 'dotnet'],
  [/\bplaywright test\b/, 'playwright'],
  [/\bphpunit\b/, 'phpunit'],
  [/\bpest\b|\bartisan test\b/, 'pest'],
  [/\bmix test\b/, 'exunit'],
  [/\bxcodebuild\b.{0,400}\btest(?:-without-building)?\b|\bswift test\b/, 'xctest'],
  [/\bctest\b/, 'ctest'],
  [/\bdbt (?:test|build)\b/, 'dbt'],
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
// "tests/test_x.py::test_name FAILED"; with neither (-rN, or the short summary cut off), from the
// "____ TestCart.test_remove ____" headers of the FAILURES section and the "____ ERROR at setup of
// test_x ____" ones of ERRORS.

const PYTEST_SUMMARY = /^(?:={1,200} )?(\d{1,9} [a-z].{0,300}?|no tests ran) in \d{1,9}(?:\.\d{1,6})?s(?: \(\d{1,2}(?::\d{2}){1,2}\))?(?: ={1,200})?$/;
const PYTEST_ITEM = /^(\d{1,9}) (passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?|rerun)$/;
const PYTEST_SHORT = /^(?:FAILED|ERROR) (\S.{0,999})$/;
const PYTEST_VERBOSE = /^(\S{1,400}::\S{1,400}) (?:FAILED|ERROR)\b/;
const PYTEST_SECTION = /^={3,200} (\S.{0,80}?) ={3,200}$/;
const PYTEST_HEADER = /^_{3,200} (\S.{0,400}?) _{3,200}$/;
const PYTEST_ERROR_HEADER = /^ERROR (?:at (?:setup|teardown) of|collecting) (\S.{0,400})$/;

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
  if (names.length === 0) names.push(...pytestHeaders(view.lines, span.start, span.at));
  const run = makeRun('pytest', sum(counts, 'passed', 'xpassed'), sum(counts, 'failed', 'error', 'errors'), sum(counts, 'skipped', 'xfailed'), names);
  return { run, at: span.at };
}

/** The test headers of the FAILURES and ERRORS sections, each ending at the next "=== title ===" line. */
function pytestHeaders(lines: readonly string[], start: number, end: number): string[] {
  const names: string[] = [];
  let section: string | undefined;
  for (let i = start; i < end; i++) {
    const line = lines[i]!;
    if (line.startsWith('===')) {
      section = PYTEST_SECTION.exec(line)?.[1];
      continue;
    }
    if ((section !== 'FAILURES' && section !== 'ERRORS') || !line.startsWith('___')) continue;
    const header = PYTEST_HEADER.exec(line)?.[1];
    if (header === undefined) continue;
    if (section === 'FAILURES') names.push(header);
    else names.push(PYTEST_ERROR_HEADER.exec(header)?.[1] ?? header);
  }
  return names;
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
// rspec: "12 examples, 1 failure, 2 pending" (", 1 error occurred outside of examples" when a file
// failed to load). Pending examples count as skipped. Names from the rerun lines after the summary
// ("rspec ./spec/models/order_spec.rb:42 # Order#total applies the coupon"), else from the numbered
// headers of the Failures: section (the Pending: section before it numbers its own), and a file
// that failed to load by its path.

const RSPEC_SUMMARY = /^(\d{1,9}) examples?, (\d{1,9}) failures?(?:, (\d{1,9}) pending)?(?:, (\d{1,9}) errors? occurred outside of examples)?$/;
const RSPEC_RERUN = /^rspec (?:'[^']{1,400}'|\S{1,400}) # (\S.{0,999})$/;
const RSPEC_NUMBERED = /^ {2}\d{1,5}\) (\S.{0,999})$/;
const RSPEC_LOAD_ERROR = /^An error occurred while loading (\S{1,400}?)\.?$/;

function parseRspec(view: View): Found | undefined {
  const { lines } = view;
  const span = lastRun(view, (line) => RSPEC_SUMMARY.exec(line) ?? undefined);
  if (span === undefined) return undefined;
  const rerun: string[] = [];
  for (let i = span.at + 1; i < lines.length; i++) {
    const m = RSPEC_RERUN.exec(lines[i]!);
    if (m) rerun.push(m[1]!);
  }
  const numbered: string[] = [];
  const unloaded: string[] = [];
  let inFailures = false;
  for (let i = span.start; i < span.at; i++) {
    const line = lines[i]!;
    if (line === 'Failures:') inFailures = true;
    else if (line.startsWith('Pending:') || line.startsWith('Finished in ')) inFailures = false;
    else if (inFailures) {
      const m = RSPEC_NUMBERED.exec(line);
      if (m) numbered.push(m[1]!);
    }
    const load = RSPEC_LOAD_ERROR.exec(line);
    if (load) unloaded.push(load[1]!);
  }
  const m = span.value;
  const failures = Number(m[2]);
  const pending = Number(m[3] ?? 0);
  const passed = Math.max(0, Number(m[1]) - failures - pending);
  const names = [...(rerun.length > 0 ? rerun : numbered), ...unloaded];
  return { run: makeRun('rspec', passed, failures + Number(m[4] ?? 0), pending, names), at: span.at };
}

// ---------------------------------------------------------------------------------------------
// Maven (surefire, failsafe): after "Results:", "Tests run: 42, Failures: 1, Errors: 0, Skipped: 2"
// once per plugin run (unit tests, integration tests, each module of a reactor build), all summed;
// the per-class lines (", Time elapsed: …") are summed only when no summary made it into the output.
// Errors count as failed. Names from the Results section's entries ("[ERROR]   FooTest.shouldX:131
// expected…", "FooTest.shouldY:77 » NullPointer", 2.x's "shouldX(com.acme.FooTest): …", a rerun
// test's own line before its "Run 1:" lines), else from the per-test "<<< FAILURE!" lines.

const MAVEN_COUNTS =
  /^(?:\[(?:INFO|WARNING|ERROR)\] )?Tests run: (\d{1,9}), Failures: (\d{1,9}), Errors: (\d{1,9}), Skipped: (\d{1,9})(?:, Flakes: \d{1,9})?(.{0,400})$/;
const MAVEN_SECTION = /^(\[(?:ERROR|WARNING)\] )?(Failures|Errors|Failed tests|Tests in error|Flakes):(?: {1,8}(\S.{0,999}))?$/;
const MAVEN_ENTRY = /^(\[ERROR\] )? {2}(\S.{0,999})$/;
const MAVEN_RERUN_KEY = /^\[ERROR\] (\S{1,400})$/;
const MAVEN_SECTION_END = /^\[(?:INFO|WARNING)\]|^(?:\[ERROR\] )?Tests run:/;
// "FooTest.shouldX:131 …" → FooTest.shouldX; "add(int, int)[2]", "shouldX(com.acme.FooTest)" whole.
const MAVEN_NAME = /^[^\s(:»]{1,400}(?:\([^()]{0,400}\)(?:\[[^\]]{1,100}\])?)?/;
const MAVEN_TEST_FAILED = /^(?:\[(?:ERROR|WARNING|INFO)\] )?(\S.{0,400}?)(?: --|\s{1,4}) ?Time elapsed: [\d.,]{1,20} s(?:ec)?\s{1,4}<<< (?:FAILURE|ERROR)!$/;

function parseMaven(view: View): Found | undefined {
  const { lines } = view;
  const totals = { summary: [0, 0, 0, 0], classes: [0, 0, 0, 0] };
  let summaryAt = -1;
  let classAt = -1;
  const results: string[] = [];
  const perTest: string[] = [];
  // The section being read: 'fail' names failures, 'other' (flakes) names nothing.
  let section: 'fail' | 'other' | undefined;
  let prefixed = false;
  const addEntry = (entry: string) => {
    if (entry.startsWith('Run ')) return;
    const name = MAVEN_NAME.exec(entry)?.[0];
    // A name is qualified (Class.method, method(Class)); a bare word is the start of a message.
    if (name !== undefined && /[.(>]/.test(name)) results.push(name);
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const counts = i >= view.from ? MAVEN_COUNTS.exec(line) : null;
    if (counts) {
      const rest = counts[5]!;
      const into = rest === '' ? totals.summary : rest.startsWith(', Time elapsed') ? totals.classes : undefined;
      if (into !== undefined) {
        for (let k = 0; k < 4; k++) into[k] = into[k]! + Number(counts[k + 1]);
        if (into === totals.summary) summaryAt = i;
        else classAt = i;
      }
    }
    const header = MAVEN_SECTION.exec(line);
    if (header) {
      section = header[2] === 'Flakes' ? 'other' : 'fail';
      prefixed = header[1] !== undefined;
      if (section === 'fail' && header[3] !== undefined) addEntry(header[3]);
      continue;
    }
    if (section !== undefined) {
      // Maven 3 prefixes every line of the section; a message's own lines carry no prefix. Without
      // prefixes (surefire 2 on older Maven), a blank line ends the section.
      if (prefixed ? MAVEN_SECTION_END.test(line) : line === '' || line.startsWith('Tests run:')) section = undefined;
      else if (section === 'fail') {
        const entry = MAVEN_ENTRY.exec(line);
        if (entry && (entry[1] !== undefined) === prefixed) addEntry(entry[2]!);
        else if (prefixed) {
          const key = MAVEN_RERUN_KEY.exec(line);
          if (key) results.push(key[1]!);
        }
      }
    }
    const failed = line.includes('<<< ') ? MAVEN_TEST_FAILED.exec(line) : null;
    if (failed && !failed[1]!.startsWith('Tests run:')) perTest.push(failed[1]!);
  }
  const [counts, at] = summaryAt >= 0 ? [totals.summary, summaryAt] : [totals.classes, classAt];
  if (at < 0) return undefined;
  const [run, failures, errors, skipped] = counts as [number, number, number, number];
  const names = results.length > 0 ? results : perTest;
  return { run: makeRun('maven', Math.max(0, run - failures - errors - skipped), failures + errors, skipped, names), at };
}

// ---------------------------------------------------------------------------------------------
// Gradle: "12 tests completed, 1 failed, 1 skipped" once per test task, printed only when a test
// failed; summed. Names from the "DedupProcessorTest > drops replayed events() FAILED" lines. A
// project that logs every event ("… PASSED", "… SKIPPED") is counted from them when there is no
// summary. With neither, a test task ("> Task :app:testDebugUnitTest") in a build that finished
// ran without a failing test (no counts: Gradle prints none), or, marked FAILED, failed without one
// (no tests found, a crashed JVM): one failure named by the task.

const GRADLE_SUMMARY = /^(\d{1,9}) tests? completed(?:, (\d{1,9}) failed)?(?:, (\d{1,9}) skipped)?$/;
const GRADLE_TASK = /^> Task ((?::[\w.-]{1,100}){1,10})(?: ([A-Z][A-Z-]{1,20}))?$/;
// test, integrationTest, testDebugUnitTest, jvmTest, allTests; not compileTestJava or testClasses.
const GRADLE_TEST_TASK = /^(?:test|[a-z]\w{0,80}Tests?)$/;
const GRADLE_BUILD = /^BUILD (?:SUCCESSFUL|FAILED) in \d/;
const GRADLE_EVENTS = [
  [' PASSED', 'passed'],
  [' FAILED', 'failed'],
  [' SKIPPED', 'skipped'],
] as const;

function parseGradle(view: View): Found | undefined {
  const { lines } = view;
  const summary = { total: 0, failed: 0, skipped: 0 };
  const events = { passed: 0, failed: 0, skipped: 0 };
  const names: string[] = [];
  let summaryAt = -1;
  let eventAt = -1;
  let task: { at: number; path: string; failed: boolean } | undefined;
  let builtAt = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const event = gradleEvent(line);
    if (event !== undefined) {
      if (event.kind === 'failed') names.push(event.name);
      if (i >= view.from) {
        events[event.kind]++;
        eventAt = i;
      }
      continue;
    }
    if (i < view.from) continue;
    const m = GRADLE_SUMMARY.exec(line);
    if (m) {
      summary.total += Number(m[1]);
      summary.failed += Number(m[2] ?? 0);
      summary.skipped += Number(m[3] ?? 0);
      summaryAt = i;
      continue;
    }
    const t = GRADLE_TASK.exec(line);
    if (t && GRADLE_TEST_TASK.test(t[1]!.slice(t[1]!.lastIndexOf(':') + 1))) task = { at: i, path: t[1]!, failed: t[2] === 'FAILED' };
    else if (GRADLE_BUILD.test(line)) builtAt = i;
  }
  if (summaryAt >= 0) {
    const passed = Math.max(0, summary.total - summary.failed - summary.skipped);
    return { run: makeRun('gradle', passed, summary.failed, summary.skipped, names), at: summaryAt };
  }
  // Event lines alone could be anyone's "a > b FAILED": a Gradle task or build line vouches for them.
  if (eventAt >= 0 && (task !== undefined || builtAt >= 0)) {
    return { run: makeRun('gradle', events.passed, events.failed, events.skipped, names), at: Math.max(eventAt, builtAt) };
  }
  if (task === undefined || builtAt < task.at) return undefined;
  return { run: makeRun('gradle', 0, task.failed ? 1 : 0, 0, task.failed ? [task.path] : []), at: builtAt };
}

/** "Class > test() FAILED" (a test's path, then its result): read by suffix, no regex. */
function gradleEvent(line: string): { kind: 'passed' | 'failed' | 'skipped'; name: string } | undefined {
  if (line.startsWith('> ') || !line.includes(' > ') || /^\s/.test(line)) return undefined;
  for (const [suffix, kind] of GRADLE_EVENTS) {
    if (line.endsWith(suffix)) return { kind, name: line.slice(0, -suffix.length) };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// dotnet test: VSTest's "Failed!  - Failed: 1, Passed: 41, Skipped: 0, Total: 42, Duration: 2 s -
// Invoicing.Tests.dll (net8.0)", one per test assembly and framework, summed; Microsoft.Testing.
// Platform's "Test run summary: Failed!" with "  total: 42", "  failed: 1", "  succeeded: 41"
// lines; older SDKs' "Total tests: 42" block ("Passed: 41", "Failed: 1" on the lines below, or on
// one line with periods) beside "Test Run Failed.". Names from "  Failed Invoicing.Tests.X.Y [212
// ms]" (3.x: "  X Name [212ms]"; 2.x: "Failed   Name" over "Error Message:"), "failed X.Y (212ms)"
// and xUnit's "[xUnit.net 00:00:00.53]     X.Y [FAIL]".

const DOTNET_RESULT = /^\s{0,4}(?:Passed|Failed)!\s{1,4}- (.{1,400})$/;
const DOTNET_LABELS = /\b(Failed|Passed|Skipped|Total):\s{1,10}(\d{1,9})\b/g;
const DOTNET_MTP = /^Test run summary: /;
const DOTNET_MTP_COUNT = /^\s{1,8}(total|failed|succeeded|skipped|error):\s{1,4}(\d{1,9})$/;
const DOTNET_TOTAL = /^\s{0,4}Total tests:\s{1,4}(\d{1,9})(.{0,200})$/;
const DOTNET_LABEL_LINE = /^\s{0,12}(Passed|Failed|Skipped):\s{1,4}(\d{1,9})$/;
const DOTNET_RUN_STATUS = /^Test Run (?:Successful|Failed|Aborted)\.$/;
const DOTNET_FAILED = /^\s{0,4}(Failed|X)\s{1,4}(\S.{0,999})$/;
const DOTNET_DURATION = / \[(?:< ?)?\d{1,9}(?:[.,]\d{1,9})? ?(?:ms|s|m|h)(?: \d{1,9} ?(?:ms|s))?\]$/;
const DOTNET_MTP_FAILED = /^\s{0,4}failed (\S.{0,999}?) \((?:\d{1,9}(?:ms|h|m|s) ?){1,4}\)$/;
const DOTNET_XUNIT = /^\s{0,4}\[xUnit\.net [\d:.]{1,20}\]\s{1,20}(\S.{0,999}?) \[FAIL\]$/;

function parseDotnet(view: View): Found | undefined {
  const { lines } = view;
  const counts = dotnetMtp(view) ?? dotnetResults(view) ?? dotnetTotals(view);
  if (counts === undefined) return undefined;
  const names: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const vstest = DOTNET_FAILED.exec(line);
    if (vstest) {
      const name = vstest[2]!.replace(DOTNET_DURATION, '');
      // Without a duration only 2.x's form counts, and only over its "Error Message:".
      if (name !== vstest[2] || (vstest[1] === 'Failed' && nextText(lines, i) === 'Error Message:')) names.push(name);
      continue;
    }
    const m = DOTNET_MTP_FAILED.exec(line) ?? DOTNET_XUNIT.exec(line);
    if (m) names.push(m[1]!);
  }
  return { run: makeRun('dotnet', counts.passed, counts.failed, counts.skipped, names), at: counts.at };
}

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
  at: number;
}

/** Microsoft.Testing.Platform: one summary for the whole run, the last one. */
function dotnetMtp(view: View): Counts | undefined {
  const { lines } = view;
  for (let i = lines.length - 1; i >= view.from; i--) {
    if (!DOTNET_MTP.test(lines[i]!)) continue;
    const c = new Map<string, number>();
    let at = i;
    for (let j = i + 1; j < Math.min(lines.length, i + 10); j++) {
      const m = DOTNET_MTP_COUNT.exec(lines[j]!);
      if (!m) continue;
      c.set(m[1]!, Number(m[2]));
      at = j;
    }
    if (!c.has('total')) return undefined;
    return { passed: sum(c, 'succeeded'), failed: sum(c, 'failed', 'error'), skipped: sum(c, 'skipped'), at };
  }
  return undefined;
}

/** VSTest's one line per assembly, summed. */
function dotnetResults(view: View): Counts | undefined {
  const out = { passed: 0, failed: 0, skipped: 0, at: -1 };
  for (let i = view.from; i < view.lines.length; i++) {
    const m = DOTNET_RESULT.exec(view.lines[i]!);
    if (!m) continue;
    const c = new Map<string, number>();
    for (const label of m[1]!.matchAll(DOTNET_LABELS)) c.set(label[1]!, Number(label[2]));
    if (!c.has('Failed') || !c.has('Passed')) continue;
    out.passed += sum(c, 'Passed');
    out.failed += sum(c, 'Failed');
    out.skipped += sum(c, 'Skipped');
    out.at = i;
  }
  return out.at < 0 ? undefined : out;
}

/** Older SDKs' "Total tests:" blocks, each next to a "Test Run …." line (scripts print "Total tests" too). */
function dotnetTotals(view: View): Counts | undefined {
  const { lines } = view;
  const out = { passed: 0, failed: 0, skipped: 0, at: -1 };
  for (let i = view.from; i < lines.length; i++) {
    const m = DOTNET_TOTAL.exec(lines[i]!);
    if (!m) continue;
    let vouched = false;
    for (let j = Math.max(0, i - 2); j < Math.min(lines.length, i + 3); j++) vouched ||= DOTNET_RUN_STATUS.test(lines[j]!);
    if (!vouched) continue;
    const c = new Map<string, number>();
    let at = i;
    for (const label of m[2]!.matchAll(DOTNET_LABELS)) c.set(label[1]!, Number(label[2]));
    for (let j = i + 1; c.size === 0 && j < Math.min(lines.length, i + 5); j++) {
      const line = DOTNET_LABEL_LINE.exec(lines[j]!);
      if (!line) continue;
      c.set(line[1]!, Number(line[2]));
      at = j;
      for (let k = j + 1; k < Math.min(lines.length, j + 3); k++) {
        const more = DOTNET_LABEL_LINE.exec(lines[k]!);
        if (!more) break;
        c.set(more[1]!, Number(more[2]));
        at = k;
      }
    }
    const failed = sum(c, 'Failed');
    const skipped = sum(c, 'Skipped');
    out.passed += c.has('Passed') ? sum(c, 'Passed') : Math.max(0, Number(m[1]) - failed - skipped);
    out.failed += failed;
    out.skipped += skipped;
    out.at = at;
  }
  return out.at < 0 ? undefined : out;
}

/** The next non-blank line, trimmed. */
function nextText(lines: readonly string[], at: number): string {
  for (let i = at + 1; i < Math.min(lines.length, at + 3); i++) if (lines[i]!.trim() !== '') return lines[i]!.trim();
  return '';
}

// ---------------------------------------------------------------------------------------------
// Playwright (list, line and dot reporters): a closing block of "  1 failed", "  1 flaky", "  2
// skipped", "  1 did not run", "  17 passed (12.3s)" lines, each kind's tests listed under it
// ("    [chromium] › checkout.spec.ts:42:5 › guest can apply a gift card ─────"). Flaky tests
// passed on a retry; interrupted ones failed; those that did not run count as skipped. Names from
// the failed and interrupted lists, the dim rule cut off; the numbered failure headers ("  1) …")
// when there is no list (they number the flaky tests too, which are left out).

const PW_COUNT = /^ {2}(\d{1,9}) (failed|flaky|skipped|did not run|interrupted|passed)( \(\d{1,6}(?:\.\d{1,3})?(?:ms|s|m|h|d)\))?$/;
const PW_LISTED = /^ {4}(\S.{0,999})$/;
const PW_NOT_PART = /^ {2}(?:1 error was|\d{1,9} errors were) not a part of any test/;
const PW_NUMBERED = /^ {2}\d{1,5}\) (\S.{0,999})$/;
const PW_RULE = / ?─{1,200}$/;

function parsePlaywright(view: View): Found | undefined {
  const { lines } = view;
  let last = lines.length - 1;
  while (last >= view.from && !PW_COUNT.test(lines[last]!)) last--;
  if (last < view.from) return undefined;
  const inBlock = (line: string) => PW_COUNT.test(line) || PW_NOT_PART.test(line) || (PW_LISTED.test(line) && line.includes(' › '));
  let start = last;
  while (start > 0 && inBlock(lines[start - 1]!)) start--;
  let end = last;
  while (end + 1 < lines.length && inBlock(lines[end + 1]!)) end++;
  const counts = new Map<string, number>();
  const listed = { failed: [] as string[], flaky: [] as string[] };
  let kind = '';
  let timed = false;
  for (let i = start; i <= end; i++) {
    const line = lines[i]!;
    const count = PW_COUNT.exec(line);
    if (count) {
      kind = count[2]!;
      counts.set(kind, Number(count[1]));
      timed ||= count[3] !== undefined;
      continue;
    }
    const test = PW_LISTED.exec(line)?.[1]?.replace(PW_RULE, '');
    if (test === undefined) continue;
    if (kind === 'failed' || kind === 'interrupted') listed.failed.push(test);
    else if (kind === 'flaky') listed.flaky.push(test);
  }
  // Another tool's "  2 failed" line is no Playwright summary: it needs the timed passed line or a listed test.
  if (!timed && listed.failed.length + listed.flaky.length === 0) return undefined;
  const failed = sum(counts, 'failed', 'interrupted');
  let names = listed.failed;
  if (names.length === 0 && failed > 0) {
    const flaky = new Set(listed.flaky);
    names = [];
    for (let i = 0; i < start; i++) {
      const header = PW_NUMBERED.exec(lines[i]!)?.[1]?.replace(PW_RULE, '');
      if (header?.includes(' › ') && !flaky.has(header)) names.push(header);
    }
  }
  const run = makeRun('playwright', sum(counts, 'passed', 'flaky'), failed, sum(counts, 'skipped', 'did not run'), names);
  return { run, at: end };
}

// ---------------------------------------------------------------------------------------------
// PHPUnit: "OK (25 tests, 60 assertions)", or "Tests: 25, Assertions: 60, Failures: 1, Errors: 1,
// Skipped: 2." under "FAILURES!", "ERRORS!" or "OK, but …". Errors count as failed, incomplete tests
// as skipped; risky and warned tests ran and passed. Names from the numbered entries of the "There
// was 1 failure:" / "There were 2 errors:" sections ("1) Tests\Feature\ImportTest::test_skips").

const PHPUNIT_OK = /^OK \((\d{1,9}) tests?, \d{1,9} assertions?\)$/;
const PHPUNIT_COUNTS = /^Tests: (\d{1,9}), Assertions: \d{1,9}((?:, [A-Z][A-Za-z ]{0,40}: \d{1,9}){0,16})\.$/;
const PHPUNIT_ITEM = /, ([A-Z][A-Za-z ]{0,40}): (\d{1,9})/g;
const PHPUNIT_SECTION = /^There (?:was|were) \d{1,9} (.{1,60}):$/;
const PHPUNIT_NUMBERED = /^\d{1,5}\) (\S.{0,999})$/;

function readPhpunit(line: string): { tests: number; counts: Map<string, number> } | undefined {
  const ok = PHPUNIT_OK.exec(line);
  if (ok) return { tests: Number(ok[1]), counts: new Map() };
  const m = PHPUNIT_COUNTS.exec(line);
  if (!m) return undefined;
  const counts = new Map<string, number>();
  for (const item of m[2]!.matchAll(PHPUNIT_ITEM)) counts.set(item[1]!, Number(item[2]));
  return { tests: Number(m[1]), counts };
}

function parsePhpunit(view: View): Found | undefined {
  const span = lastRun(view, readPhpunit);
  if (span === undefined) return undefined;
  const names: string[] = [];
  let naming = false;
  for (let i = span.start; i < span.at; i++) {
    const line = view.lines[i]!;
    const section = PHPUNIT_SECTION.exec(line);
    if (section) {
      naming = /^(?:failures?|errors?)$/.test(section[1]!);
      continue;
    }
    const m = naming ? PHPUNIT_NUMBERED.exec(line) : null;
    if (m) names.push(m[1]!);
  }
  const { tests, counts } = span.value;
  const failed = sum(counts, 'Failures', 'Errors');
  const skipped = sum(counts, 'Skipped', 'Incomplete');
  return { run: makeRun('phpunit', Math.max(0, tests - failed - skipped), failed, skipped, names), at: span.at };
}

// ---------------------------------------------------------------------------------------------
// Pest, and PHPUnit through Collision (`php artisan test`): "  Tests:    1 failed, 2 skipped, 24
// passed (60 assertions)". Risky, deprecated, warned and noticed tests passed; incomplete, todo and
// pending (never reached) ones count as skipped. Names from "  FAILED  Tests\Feature\ImportTest >
// it skips duplicate emails" (an exception's class may follow after a gap), else the "  ⨯ …" lines.

const PEST_TESTS = /^\s{0,8}Tests:\s{1,10}(\d{1,9} [a-z].{0,400}?)(?: \(\d{1,9} assertions?\))?$/;
const PEST_ITEM = /^(\d{1,9}) (failed|errors?|passed|skipped|incomplete|todos?|risky|deprecated|warnings?|warn|notices?|pending)$/;
const PEST_FAILED = /^\s{0,8}FAILED\s{1,4}(\S.{0,999})$/;
const PEST_CROSS = /^\s{0,8}[⨯✕] (\S.{0,999})$/;
const PEST_EXCEPTION = /\s{2,}[A-Z][\w\\]{0,200}$/;
const PEST_DURATION = /\s{1,200}\d{1,6}\.\d{1,3}s$/;

function readPest(line: string): Map<string, number> | undefined {
  const m = PEST_TESTS.exec(line);
  if (!m) return undefined;
  const counts = new Map<string, number>();
  for (const part of m[1]!.split(', ')) {
    // jest's "Tests:" line ends in "14 total": every part must be one of Pest's kinds.
    const item = PEST_ITEM.exec(part);
    if (!item) return undefined;
    counts.set(item[2]!, (counts.get(item[2]!) ?? 0) + Number(item[1]));
  }
  return counts;
}

function parsePest(view: View): Found | undefined {
  const span = lastRun(view, readPest);
  if (span === undefined) return undefined;
  const failedLines: string[] = [];
  const crosses: string[] = [];
  for (let i = span.start; i < span.at; i++) {
    const line = view.lines[i]!;
    const failed = PEST_FAILED.exec(line)?.[1]?.replace(PEST_EXCEPTION, '');
    if (failed?.includes(' > ')) failedLines.push(failed);
    const cross = PEST_CROSS.exec(line);
    if (cross) crosses.push(cross[1]!.replace(PEST_DURATION, ''));
  }
  const c = span.value;
  const passed = sum(c, 'passed', 'risky', 'deprecated', 'warnings', 'warning', 'warn', 'notices', 'notice');
  const failed = sum(c, 'failed', 'error', 'errors');
  const skipped = sum(c, 'skipped', 'incomplete', 'todo', 'todos', 'pending');
  return { run: makeRun('pest', passed, failed, skipped, failedLines.length > 0 ? failedLines : crosses), at: span.at };
}

// ---------------------------------------------------------------------------------------------
// mix test (ExUnit): "10 tests, 1 failure", "1 doctest, 3 properties, 10 tests, 2 failures, 1
// excluded, 1 invalid, 1 skipped": the counts per kind include every other figure. Invalid tests
// (their setup_all failed) count as failed; excluded ones did not run and count nowhere. An
// umbrella project prints one summary per app ("==> app" lines between them): those are summed,
// another summary is a rerun. Names from "  1) test rejects banned users (ChatWeb.RoomChannelTest)",
// and a module whose setup_all failed by the module.

const EXUNIT_SUMMARY = /^((?:\d{1,9} (?:tests?|doctests?|propert(?:y|ies)), ){1,3})(\d{1,9}) failures?((?:, \d{1,9} (?:excluded|invalid|skipped)){0,3})$/;
const EXUNIT_FAILURE = /^ {2}\d{1,5}\) ((?:test|doctest|property) \S.{0,999})$/;
const EXUNIT_MODULE_FAILURE = /^ {2}\d{1,5}\) ([A-Z][\w.]{0,300}): failure on setup_all callback/;
const UMBRELLA_APP = /^==> [\w-]{1,100}$/;

function parseExunit(view: View): Found | undefined {
  const { lines } = view;
  // afterApp: an umbrella's "==> app" line came between this summary and the one before.
  const summaries: { at: number; m: RegExpExecArray; afterApp: boolean }[] = [];
  let sawApp = false;
  for (let i = view.from; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('==> ') && UMBRELLA_APP.test(line)) {
      sawApp = true;
      continue;
    }
    const m = EXUNIT_SUMMARY.exec(line);
    if (!m) continue;
    summaries.push({ at: i, m, afterApp: sawApp });
    sawApp = false;
  }
  if (summaries.length === 0) return undefined;
  let first = summaries.length - 1;
  while (first > 0 && summaries[first]!.afterApp) first--;
  let start = summaries[first]!.at - 1;
  while (start >= 0 && !EXUNIT_SUMMARY.test(lines[start]!)) start--;
  let [passed, failed, skipped] = [0, 0, 0];
  for (const { m } of summaries.slice(first)) {
    const total = [...tally(m[1]!).values()].reduce((a, b) => a + b, 0);
    const extra = tally(m[3]!);
    const failures = Number(m[2]);
    const invalid = sum(extra, 'invalid');
    passed += Math.max(0, total - failures - sum(extra, 'excluded', 'invalid', 'skipped'));
    failed += failures + invalid;
    skipped += sum(extra, 'skipped');
  }
  const names: string[] = [];
  const at = summaries.at(-1)!.at;
  for (let i = start + 1; i < at; i++) {
    const m = EXUNIT_FAILURE.exec(lines[i]!) ?? EXUNIT_MODULE_FAILURE.exec(lines[i]!);
    if (m) names.push(m[1]!);
  }
  return { run: makeRun('exunit', passed, failed, skipped, names), at };
}

// ---------------------------------------------------------------------------------------------
// XCTest (xcodebuild test, swift test): "Executed 9 tests, with 1 test skipped and 1 failure (0
// unexpected) in 0.219 (0.221) seconds" closes each suite; the one after "Test Suite 'All tests'"
// (or 'Selected tests') closes a test bundle's run, and those are summed, else the last one counts.
// Its failures are assertion failures, so the failed tests are the "Test Case '…' failed" lines
// when there are any. Xcode's parallel runs print no totals: each "Test case 'AuthTests.testX()'
// failed on 'Clone 1 of …'" counts, once the run ended ("** TEST FAILED **"). Names as the lines
// give them, "-[Module.Class testX]" as Module.Class.testX.

const XCTEST_EXECUTED =
  /^\s{0,8}Executed (\d{1,9}) tests?, with (?:(\d{1,9}) tests? skipped and )?(\d{1,9}) failures?(?: \(\d{1,9} unexpected\))?(?: in .{0,60})?$/;
const XCTEST_TOP_SUITE = /^Test Suite '(?:All tests|Selected tests)' (?:passed|failed) at /;
const XCTEST_CASE = /^Test [Cc]ase '(.{1,400})' (passed|failed|skipped) (?:\(|on ')/;
const XCTEST_OBJC = /^-\[(\S{1,300}) (\S{1,300})\]$/;
const XCTEST_END = /^\*\* TEST (?:EXECUTE )?(?:FAILED|SUCCEEDED) \*\*$/;

function parseXctest(view: View): Found | undefined {
  const { lines } = view;
  const cases = new Map<string, string>();
  const tops: RegExpExecArray[] = [];
  let last: RegExpExecArray | undefined;
  let at = -1;
  let endAt = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const c = XCTEST_CASE.exec(line);
    if (c) {
      const name = c[1]!.replace(XCTEST_OBJC, '$1.$2');
      // A retried test's last result stands.
      cases.delete(name);
      cases.set(name, c[2]!);
      continue;
    }
    if (i < view.from) continue;
    const m = XCTEST_EXECUTED.exec(line);
    if (m) {
      last = m;
      at = i;
      if (i > 0 && XCTEST_TOP_SUITE.test(lines[i - 1]!)) tops.push(m);
    } else if (XCTEST_END.test(line)) endAt = i;
  }
  const failing = [...cases].filter(([, status]) => status === 'failed').map(([name]) => name);
  const executed = tops.length > 0 ? tops : last !== undefined ? [last] : [];
  if (executed.length === 0) {
    if (endAt < 0 || cases.size === 0) return undefined;
    const skipped = [...cases.values()].filter((s) => s === 'skipped').length;
    return { run: makeRun('xctest', cases.size - failing.length - skipped, failing.length, skipped, failing), at: endAt };
  }
  let [total, skipped, failures] = [0, 0, 0];
  for (const m of executed) {
    total += Number(m[1]);
    skipped += Number(m[2] ?? 0);
    failures += Number(m[3]);
  }
  const failed = Math.min(failing.length > 0 ? failing.length : failures, Math.max(0, total - skipped));
  return { run: makeRun('xctest', Math.max(0, total - failed - skipped), failed, skipped, failing), at };
}

// ---------------------------------------------------------------------------------------------
// Unity (C): "3 Tests 1 Failures 0 Ignored" closes each test binary's run, summed (a CTest run of
// several); its cases print "test_ringbuf.c:77:test_ringbuf_wraps:FAIL: Expected 5 Was 0", which
// names the failure by its function. `ctest -V` prefixes each line with the test's number ("3: ").

const UNITY_SUMMARY = /^(?:\d{1,6}: )?(\d{1,9}) Tests (\d{1,9}) Failures (\d{1,9}) Ignored$/;
const UNITY_FAILED = /^(?:\d{1,6}: )?\S{1,400}?:\d{1,9}:(\w{1,200}):FAIL\b/;

function parseUnity(view: View): Found | undefined {
  const { lines } = view;
  let [tests, failed, ignored, at] = [0, 0, 0, -1];
  for (let i = view.from; i < lines.length; i++) {
    const m = UNITY_SUMMARY.exec(lines[i]!);
    if (!m) continue;
    tests += Number(m[1]);
    failed += Number(m[2]);
    ignored += Number(m[3]);
    at = i;
  }
  if (at < 0) return undefined;
  const run = makeRun('unity', Math.max(0, tests - failed - ignored), failed, ignored, unityFailures(lines, 0, lines.length));
  return { run, at };
}

function unityFailures(lines: readonly string[], start: number, end: number): string[] {
  const names: string[] = [];
  for (let i = start; i < end; i++) {
    const line = lines[i]!;
    if (!line.includes(':FAIL')) continue;
    const m = UNITY_FAILED.exec(line);
    if (m) names.push(m[1]!);
  }
  return names;
}

// ---------------------------------------------------------------------------------------------
// CTest: "75% tests passed, 1 tests failed out of 4" (CTest 4 drops ", 0 tests failed"), then "The
// following tests did not run:" (skipped, counted among the passed in the percentage) and "The
// following tests FAILED:" lists ("\t  3 - ringbuf (Failed)"), which name them. The lines of a
// run ("3/4 Test #3: ringbuf .....***Failed") name them when the lists are cut off. A CTest test is
// a whole program: the Unity cases failing inside it, when their output is shown, are named after.

const CTEST_SUMMARY = /^(\d{1,3})% tests passed(?:, (\d{1,9}) tests? failed)? out of (\d{1,9})$/;
const CTEST_LIST = /^The following tests (FAILED|did not run):$/;
// "\t  3 - ringbuf (Failed)", labels after it on some versions.
const CTEST_ITEM = /^\s{1,16}\d{1,9} - (\S.{0,400}?) \(([^()]{1,100})\)(?:\s{1,8}\S.{0,200})?$/;
const CTEST_RESULT = /^\s{0,8}\d{1,9}\/\d{1,9} Test\s{1,6}#\d{1,9}: (\S{1,400}) \.{0,400}\s{0,10}\*{3}([A-Za-z][\w ]{0,40}?)\s{1,20}\d/;

function parseCtest(view: View): Found | undefined {
  const { lines } = view;
  const span = lastRun(view, (line) => CTEST_SUMMARY.exec(line) ?? undefined);
  if (span === undefined) return undefined;
  const listed: string[] = [];
  let skipped = 0;
  let list = '';
  for (let i = span.at + 1; i < lines.length; i++) {
    const line = lines[i]!;
    const head = CTEST_LIST.exec(line);
    if (head) {
      list = head[1]!;
      continue;
    }
    const item = CTEST_ITEM.exec(line);
    if (!item) {
      if (line.trim() !== '') list = '';
      continue;
    }
    if (list === 'FAILED') listed.push(item[1]!);
    else if (list === 'did not run') skipped++;
  }
  const failed = Number(span.value[2] ?? 0);
  const names = listed;
  if (names.length === 0 && failed > 0) {
    for (let i = span.start; i < span.at; i++) {
      const m = CTEST_RESULT.exec(lines[i]!);
      if (m && !/^(?:Skipped|Not Run)/.test(m[2]!)) names.push(m[1]!);
    }
  }
  names.push(...unityFailures(lines, span.start, span.at));
  const passed = Math.max(0, Number(span.value[3]) - failed - skipped);
  return { run: makeRun('ctest', passed, failed, skipped, names), at: span.at };
}

// ---------------------------------------------------------------------------------------------
// dbt test / dbt build: "Done. PASS=111 WARN=0 ERROR=1 SKIP=0 NO-OP=0 TOTAL=112", each line after
// a timestamp ("12:00:05  "). A failed test counts under ERROR (FAIL where a version prints it);
// warned ones passed; NO-OP nodes did nothing and count nowhere. Names from "Failure in test
// unique_dim_customers_customer_id (models/marts/schema.yml)" ("Database Error in test …", and
// "Error in model stg_orders" from a build), else from the results ("37 of 112 FAIL 3
// unique_dim_customers_customer_id ….. [FAIL 3 in 0.10s]").

const DBT_TIME = /^\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?\s{1,4}(?:\|\s{1,4})?/;
const DBT_DONE = /^Done\. ((?:[A-Z][A-Z-]{0,10}=\d{1,9} ?){2,10})$/;
const DBT_DONE_ITEM = /([A-Z][A-Z-]{0,10})=(\d{1,9})/g;
const DBT_NODE_FAILURE = /^(?:Failure|(?:[A-Z][a-z]{1,20} )?Error) in [a-z_]{1,30} (\S{1,400})(?: \(.{1,400}\))?$/;
const DBT_RESULT = /^\d{1,9} of \d{1,9} (?:FAIL \d{1,12}|ERROR) (\S{1,400}) \.{0,400}\s{0,5}\[(?:FAIL|ERROR)\b/;

function readDbt(line: string): Map<string, number> | undefined {
  const m = DBT_DONE.exec(line.replace(DBT_TIME, ''));
  if (!m) return undefined;
  const counts = new Map<string, number>();
  for (const item of m[1]!.matchAll(DBT_DONE_ITEM)) counts.set(item[1]!, Number(item[2]));
  return counts.has('TOTAL') ? counts : undefined;
}

function parseDbt(view: View): Found | undefined {
  const span = lastRun(view, readDbt);
  if (span === undefined) return undefined;
  const details: string[] = [];
  const results: string[] = [];
  for (let i = span.start; i < span.at; i++) {
    const line = view.lines[i]!.replace(DBT_TIME, '');
    const detail = DBT_NODE_FAILURE.exec(line);
    if (detail) details.push(detail[1]!);
    const result = DBT_RESULT.exec(line);
    if (result) results.push(result[1]!);
  }
  const c = span.value;
  const run = makeRun('dbt', sum(c, 'PASS', 'WARN'), sum(c, 'ERROR', 'FAIL'), sum(c, 'SKIP'), details.length > 0 ? details : results);
  return { run, at: span.at };
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
