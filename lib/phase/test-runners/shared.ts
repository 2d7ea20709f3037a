// What the runner parsers share: the result types, the cleaned view of an output, and the helpers
// that find a run's summary and keep its failure names bounded. Pure.

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
  /**
   * The run passed but its output counts no tests (`go test` without -v prints `ok` per package,
   * Gradle without test logging only its test task and BUILD SUCCESSFUL): passed is 0, not "none".
   */
  uncounted?: true;
}

const MAX_FAILURES = 20;
const MAX_NAME = 200;
/** Deepest indentation the node reporters' nesting is tracked to. */
export const MAX_INDENT = 60;

export interface View {
  /** The last FAILURE_CHARS of the output as lines: ANSI codes stripped, trailing space trimmed, each cut to MAX_LINE. */
  lines: string[];
  /** The lines joined by '\n'. */
  text: string;
  /** Index of the first line that starts within the last SUMMARY_CHARS. */
  from: number;
}

export interface Found {
  run: TestRun;
  /** Line of the (last) summary: between two runners, the later one wins. */
  at: number;
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
export function lastRun<T>(view: View, read: (line: string) => T | undefined): Span<T> | undefined {
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
export function tally(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of text.matchAll(/(\d{1,9}) ([a-z]{1,20})/gi)) {
    const word = m[2]!.toLowerCase();
    out.set(word, (out.get(word) ?? 0) + Number(m[1]));
  }
  return out;
}

export function sum(counts: Map<string, number>, ...words: string[]): number {
  let total = 0;
  for (const word of words) total += counts.get(word) ?? 0;
  return total;
}

export function makeRun(runner: TestRunner, passed: number, failed: number, skipped: number, names: Iterable<string>): TestRun {
  return { runner, passed, failed, skipped, failures: limitNames(names) };
}

/** A green run whose output counts no tests (see TestRun.uncounted). */
export function uncountedPass(runner: TestRunner): TestRun {
  return { ...makeRun(runner, 0, 0, 0, []), uncounted: true };
}

/** "6 passed, 1 failed, 2 skipped" (skipped only when some were), or "passed (no per-test counts)". */
export function countsText(t: Pick<TestRun, 'passed' | 'failed' | 'skipped' | 'uncounted'>): string {
  if (t.uncounted === true) return 'passed (no per-test counts in the output)';
  return [`${t.passed} passed`, `${t.failed} failed`, ...(t.skipped > 0 ? [`${t.skipped} skipped`] : [])].join(', ');
}

/** Whether the run passed: nothing failed, and something passed (a count, or a runner's word for it). */
export function runPassed(t: Pick<TestRun, 'passed' | 'failed' | 'uncounted'>): boolean {
  return t.failed === 0 && (t.passed > 0 || t.uncounted === true);
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
export const DURATION_SUFFIX = / \(?\d{1,9}(?:\.\d{1,9})?ms\)?$/;

/**
 * "2 failed, 10 passed" as counts by kind: every comma-separated part must match `item` (count in
 * group 1, kind in group 2), else the line is not this runner's summary.
 */
export function countParts(list: string, item: RegExp): Map<string, number> | undefined {
  const counts = new Map<string, number>();
  for (const part of list.split(', ')) {
    const m = item.exec(part);
    if (!m) return undefined;
    counts.set(m[2]!, (counts.get(m[2]!) ?? 0) + Number(m[1]));
  }
  return counts;
}
