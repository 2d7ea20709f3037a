// Ruby, PHP and Elixir runners: rspec, PHPUnit, Pest (and artisan test), mix test (ExUnit). Each parser finds its runner's
// summary and failing test names in a cleaned view of the output (shared.ts); test-results.ts picks
// among them. Pure; every regex anchored or bounded.

import { countParts, type Found, lastRun, makeRun, sum, tally, type View } from './shared.ts';

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

export function parseRspec(view: View): Found | undefined {
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

export function parsePhpunit(view: View): Found | undefined {
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
  // jest's "Tests:" line ends in "14 total": every part must be one of Pest's kinds.
  return countParts(m[1]!, PEST_ITEM);
}

export function parsePest(view: View): Found | undefined {
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

export function parseExunit(view: View): Found | undefined {
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
