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
//
// This file picks among the parsers and holds the input view and the generic fallback; the parsers
// live in test-runners/, one file per family of languages, on the helpers of test-runners/shared.ts.

import { stripAnsi } from '../archive/plain-text.ts';
import { parseJest, parseMocha, parseNode, parsePlaywright, parseVitest } from './test-runners/js.ts';
import { parseDotnet, parseGradle, parseMaven } from './test-runners/jvm-dotnet.ts';
import { parseCargo, parseCtest, parseGo, parseUnity, parseXctest } from './test-runners/native.ts';
import { parseDbt, parsePytest, parseUnittest } from './test-runners/python.ts';
import { parseExunit, parsePest, parsePhpunit, parseRspec } from './test-runners/ruby-php-elixir.ts';
import { type Found, makeRun, type TestRun, type TestRunner, type View } from './test-runners/shared.ts';

export type { TestRun, TestRunner } from './test-runners/shared.ts';
export { countsText, runPassed } from './test-runners/shared.ts';

const SUMMARY_CHARS = 256 * 1024;
const FAILURE_CHARS = 512 * 1024;
const MAX_LINE = 1_000;
const MAX_COMMAND = 4_000;

/**
 * The last answer, kept: PostToolUse asks twice of one output (its phase digest, then its stub), and
 * a 40 KB test run costs a short-lived hook 1–2 ms to read. Each caller gets its own copy.
 */
let last: { output: string; command: string | undefined; run: TestRun | undefined } | undefined;

/** The result of one test command's output; undefined when the output does not look like a test run. `command` is a hint (the Bash command), may be absent. */
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
