// JVM and .NET runners: Maven (surefire, failsafe), Gradle, dotnet test. Each parser finds its runner's
// summary and failing test names in a cleaned view of the output (shared.ts); test-results.ts picks
// among them. Pure; every regex anchored or bounded.

import { type Found, makeRun, sum, uncountedPass, type View } from './shared.ts';

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

export function parseMaven(view: View): Found | undefined {
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

export function parseGradle(view: View): Found | undefined {
  const { lines } = view;
  const summary = { total: 0, failed: 0, skipped: 0 };
  const events = { passed: 0, failed: 0, skipped: 0 };
  const names: string[] = [];
  let summaryAt = -1;
  let eventAt = -1;
  let task: { at: number; ran: boolean } | undefined;
  const failedTasks: string[] = []; // every test task that failed (--continue runs on past one)
  let builtAt = -1;
  let built = false;
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
    if (t && GRADLE_TEST_TASK.test(t[1]!.slice(t[1]!.lastIndexOf(':') + 1))) {
      // NO-SOURCE, SKIPPED, UP-TO-DATE, FROM-CACHE: the task ran no test this time.
      task = { at: i, ran: t[2] === undefined || t[2] === 'FAILED' };
      if (t[2] === 'FAILED' && !failedTasks.includes(t[1]!)) failedTasks.push(t[1]!);
    } else if (GRADLE_BUILD.test(line)) {
      builtAt = i;
      built = line.startsWith('BUILD SUCCESSFUL');
    }
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
  if (failedTasks.length > 0) return { run: makeRun('gradle', 0, failedTasks.length, 0, failedTasks), at: builtAt };
  // A pass only when the build says so and the last test task ran tests.
  if (built && task.ran) return { run: uncountedPass('gradle'), at: builtAt };
  return { run: makeRun('gradle', 0, 0, 0, []), at: builtAt };
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

export function parseDotnet(view: View): Found | undefined {
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
