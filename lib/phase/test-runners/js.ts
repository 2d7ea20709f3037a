// JavaScript runners: vitest, jest, node --test, mocha, Playwright. Each parser finds its runner's
// summary and failing test names in a cleaned view of the output (shared.ts); test-results.ts picks
// among them. Pure; every regex anchored or bounded.

import { DURATION_SUFFIX, type Found, lastRun, MAX_INDENT, makeRun, sum, tally, type View } from './shared.ts';

// ---------------------------------------------------------------------------------------------
// vitest: "      Tests  2 failed | 45 passed | 1 skipped (48)" (the Test Files line above it counts
// files, not tests). Names from the "Failed Tests" section (" FAIL  file > suite > name"), which is
// complete and qualified; the per-file "× suite > name" lines only when that section is missing.

const VITEST_TESTS = /^\s{0,20}Tests\s{1,20}(\d.{0,300}?)\s{0,5}\(\d{1,9}\)$/;
const VITEST_FAIL = /^\s{0,4}FAIL\s{1,6}(\S.{0,999})$/;
const VITEST_CROSS = /^\s{0,40}[×✗]\s{1,4}(\S.{0,999})$/;
// A suite that failed to load: " FAIL  test/x.test.ts [ test/x.test.ts ]".
const VITEST_FILE_SUFFIX = / \[ [^\]]{1,400} \]$/;

export function parseVitest(view: View): Found | undefined {
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

export function parseJest(view: View): Found | undefined {
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

export function parseNode(view: View): Found | undefined {
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
// mocha: "  12 passing (30ms)", then "  1 pending" and "  2 failing"; the failures follow, each a
// numbered title spread over indented lines, the last ending in ':' ("  1) suite\n       name:").

const MOCHA_PASSING = /^\s{0,8}(\d{1,9}) passing \(\d{1,9}(?:\.\d{1,3})?(?:ms|s|m|h)\)$/;
const MOCHA_COUNT = /^\s{0,8}(\d{1,9}) (failing|pending)$/;
const MOCHA_FAILURE = /^(\s{0,8})\d{1,4}\) (\S.{0,999})$/;
const MOCHA_TITLE_LINES = 8;

export function parseMocha(view: View): Found | undefined {
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

export function parsePlaywright(view: View): Found | undefined {
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
