// Runners of compiled languages: go test, cargo test, XCTest, Unity (C), CTest. Each parser finds its runner's
// summary and failing test names in a cleaned view of the output (shared.ts); test-results.ts picks
// among them. Pure; every regex anchored or bounded.

import { type Found, lastRun, makeRun, uncountedPass, type View } from './shared.ts';

// ---------------------------------------------------------------------------------------------
// go test: per-test "--- PASS/FAIL/SKIP: Name (0.00s)" lines (PASS and SKIP only with -v) and
// per-package "ok  pkg 0.01s" / "FAIL pkg 0.02s" lines, all summed. Counts are tests, never
// packages: without -v, passed is the number of "--- PASS" lines, so 0 (the ok lines say packages
// passed, not how many tests did; such a green run is `uncounted`). A test whose subtests ran counts
// through its subtests only. A failing package with no failing test (build error, panic, timeout)
// counts as one failure, named by the package.

const GO_RESULT = /^\s{0,40}--- (PASS|FAIL|SKIP): (\S{1,400}) \(/;
const GO_OK = /^ok\s{1,20}\S{1,400}\s{1,20}(?:\(cached\)|\d{1,9}(?:\.\d{1,6})?s|\[no tests to run\])/;
const GO_FAIL = /^FAIL\s{1,20}(\S{1,400})\s{1,20}(?:\d{1,9}(?:\.\d{1,6})?s|\[[^\]]{1,100}\])/;
const GO_NO_FILES = /^\?\s{1,20}\S{1,400}\s{1,20}\[no test files\]/;

export function parseGo(view: View): Found | undefined {
  const { lines } = view;
  const results: { kind: string; name: string }[] = [];
  const packageFailures: string[] = [];
  let failsInPackage = 0;
  let okPackages = 0; // packages that ran tests and passed ("ok  pkg 0.01s", not "[no tests to run]")
  let sawFail = false;
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
    if (line === 'FAIL') sawFail = true; // go's last line when any package failed
    const failedPackage = GO_FAIL.exec(line);
    if (failedPackage) {
      if (failsInPackage === 0) packageFailures.push(failedPackage[1]!);
      failsInPackage = 0;
      at = i;
    } else if (GO_OK.test(line) || GO_NO_FILES.test(line)) {
      if (line.startsWith('ok') && !line.endsWith('[no tests to run]')) okPackages++;
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
  if (results.length === 0 && packageFailures.length === 0 && okPackages > 0 && !sawFail) return { run: uncountedPass('go'), at };
  return { run: makeRun('go', count('PASS'), count('FAIL') + packageFailures.length, count('SKIP'), names), at };
}

// ---------------------------------------------------------------------------------------------
// cargo test: one "test result: FAILED. 3 passed; 1 failed; 2 ignored; ..." per test binary (unit
// tests, each integration test, doc tests), summed. Names from "test tests::name ... FAILED".

const CARGO_RESULT = /^test result: (?:ok|FAILED)\. (\d{1,9}) passed; (\d{1,9}) failed; (\d{1,9}) ignored;/;
const CARGO_FAILED = /^test (\S.{0,400}) \.\.\. FAILED$/;

export function parseCargo(view: View): Found | undefined {
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
// XCTest (xcodebuild test, swift test): "Executed 9 tests, with 1 test skipped and 1 failure (0
// unexpected) in 0.219 (0.221) seconds" closes each suite; the one after "Test Suite 'All tests'"
// (or 'Selected tests') closes a test bundle's run, and those are summed, else the last one counts.
// Its failures are assertion failures, so the failed tests are the "Test Case '…' failed" lines
// when there are any. Xcode's parallel runs print no totals: each "Test case 'AuthTests.testX()'
// failed on 'Clone 1 of …'" counts, once the run ended ("** TEST FAILED **"). Names as the lines
// give them, "-[Module.Class testX]" as Module.Class.testX.
//
// Since Swift 6, `swift test` runs swift-testing's tests after XCTest's and closes with its own
// summary, "✘ Test run with 5 tests failed after 0.01 seconds with 2 issues." (or "✔ … passed"), the
// number counting every test of the run; its failures are "✘ Test addition() failed after …" and
// "✘ Test "display name" failed …", its skips "Test x() skipped". Both runs' counts are summed.

const XCTEST_EXECUTED =
  /^\s{0,8}Executed (\d{1,9}) tests?, with (?:(\d{1,9}) tests? skipped and )?(\d{1,9}) failures?(?: \(\d{1,9} unexpected\))?(?: in .{0,60})?$/;
const XCTEST_TOP_SUITE = /^Test Suite '(?:All tests|Selected tests)' (?:passed|failed) at /;
const XCTEST_CASE = /^Test [Cc]ase '(.{1,400})' (passed|failed|skipped) (?:\(|on ')/;
const XCTEST_OBJC = /^-\[(\S{1,300}) (\S{1,300})\]$/;
const XCTEST_END = /^\*\* TEST (?:EXECUTE )?(?:FAILED|SUCCEEDED) \*\*$/;
// The leading symbol varies with the terminal (✔ ✘ ◇, or an SF Symbol), hence any two characters.
const SWIFT_TESTING_RUN = /^.{0,2}\s?Test run with (\d{1,9}) tests?(?: in \d{1,9} suites?)? (?:passed|failed) after /;
const SWIFT_TESTING_CASE = /^.{0,2}\s?Test (?!run with )(.{1,400}?) (?:failed after |(skipped)(?:[.:]|$))/;

export function parseXctest(view: View): Found | undefined {
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
  const swift = swiftTesting(view);
  const executed = tops.length > 0 ? tops : last !== undefined ? [last] : [];
  if (executed.length === 0 && swift === undefined) {
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
  let failed = Math.min(failing.length > 0 ? failing.length : failures, Math.max(0, total - skipped));
  let passed = Math.max(0, total - failed - skipped);
  if (swift !== undefined) {
    passed += Math.max(0, swift.total - swift.failed.length - swift.skipped);
    failed += swift.failed.length;
    skipped += swift.skipped;
  }
  return { run: makeRun('xctest', passed, failed, skipped, [...failing, ...(swift?.failed ?? [])]), at: Math.max(at, swift?.at ?? -1) };
}

/** swift-testing's last run in the summary window: its total, failed tests (at least one when it failed) and skips. */
function swiftTesting(view: View): { total: number; failed: string[]; skipped: number; at: number } | undefined {
  const span = lastRun(view, (line) => SWIFT_TESTING_RUN.exec(line) ?? undefined);
  if (span === undefined) return undefined;
  const failed: string[] = [];
  let skipped = 0;
  for (let i = span.start; i < span.at; i++) {
    const m = SWIFT_TESTING_CASE.exec(view.lines[i]!);
    if (m === null) continue;
    if (m[2] === 'skipped') skipped += 1;
    else failed.push(m[1]!);
  }
  const run = view.lines[span.at]!;
  // A failed run whose test lines were cut off still failed.
  if (failed.length === 0 && / failed after /.test(run)) failed.push('(swift-testing run)');
  return { total: Number(span.value[1]), failed: [...new Set(failed)], skipped, at: span.at };
}

// ---------------------------------------------------------------------------------------------
// Unity (C): "3 Tests 1 Failures 0 Ignored" closes each test binary's run, summed (a CTest run of
// several); its cases print "test_ringbuf.c:77:test_ringbuf_wraps:FAIL: Expected 5 Was 0", which
// names the failure by its function. `ctest -V` prefixes each line with the test's number ("3: ").

const UNITY_SUMMARY = /^(?:\d{1,6}: )?(\d{1,9}) Tests (\d{1,9}) Failures (\d{1,9}) Ignored$/;
const UNITY_FAILED = /^(?:\d{1,6}: )?\S{1,400}?:\d{1,9}:(\w{1,200}):FAIL\b/;

export function parseUnity(view: View): Found | undefined {
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

export function parseCtest(view: View): Found | undefined {
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
