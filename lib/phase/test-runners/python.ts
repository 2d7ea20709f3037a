// Python runners: pytest, python -m unittest, and dbt test/build. Each parser finds its runner's
// summary and failing test names in a cleaned view of the output (shared.ts); test-results.ts picks
// among them. Pure; every regex anchored or bounded.

import { countParts, type Found, lastRun, makeRun, sum, type View } from './shared.ts';

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
  return m[1] === 'no tests ran' ? new Map() : countParts(m[1]!, PYTEST_ITEM);
}

export function parsePytest(view: View): Found | undefined {
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
// python -m unittest: "Ran 12 tests in 0.003s", then "OK", "OK (skipped=1)" or "FAILED (failures=2,
// errors=1)". Errors and unexpected successes count as failed (the run fails on them), expected
// failures as skipped. Names from the "FAIL: test_x (module.Class)" headers, as module.Class.test_x.

const UNITTEST_RAN = /^Ran (\d{1,9}) tests? in \d{1,9}(?:\.\d{1,6})?s$/;
const UNITTEST_STATUS = /^(?:OK|FAILED|NO TESTS RAN)(?: \((.{1,300})\))?$/;
const UNITTEST_DETAIL = /([a-z][a-z ]{0,30})=(\d{1,9})/g;
const UNITTEST_HEADER = /^(?:FAIL|ERROR|UNEXPECTED SUCCESS): (\S{1,400}) \(([^)]{1,400})\)/;

export function parseUnittest(view: View): Found | undefined {
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
/**
 * A sign the run had tests (`dbt run` prints the same Done line for models alone): "Finished running
 * 112 data tests", a test's result ("3 of 4 PASS not_null_…", a model's is "OK created"), or a
 * test's failure.
 */
const DBT_TESTS = /^(?:Finished running .{0,300}?\btests?\b|\d{1,9} of \d{1,9} (?:PASS|FAIL|WARN)\b|(?:Failure|(?:[A-Z][a-z]{1,20} )?Error) in test )/;
const DBT_RESULT = /^\d{1,9} of \d{1,9} (?:FAIL \d{1,12}|ERROR) (\S{1,400}) \.{0,400}\s{0,5}\[(?:FAIL|ERROR)\b/;

function readDbt(line: string): Map<string, number> | undefined {
  const m = DBT_DONE.exec(line.replace(DBT_TIME, ''));
  if (!m) return undefined;
  const counts = new Map<string, number>();
  for (const item of m[1]!.matchAll(DBT_DONE_ITEM)) counts.set(item[1]!, Number(item[2]));
  return counts.has('TOTAL') ? counts : undefined;
}

export function parseDbt(view: View): Found | undefined {
  const span = lastRun(view, readDbt);
  if (span === undefined) return undefined;
  const details: string[] = [];
  const results: string[] = [];
  let tests = false;
  for (let i = span.start; i < span.at; i++) {
    const line = view.lines[i]!.replace(DBT_TIME, '');
    if (DBT_TESTS.test(line)) tests = true;
    const detail = DBT_NODE_FAILURE.exec(line);
    if (detail) details.push(detail[1]!);
    const result = DBT_RESULT.exec(line);
    if (result) results.push(result[1]!);
  }
  if (!tests) return undefined;
  const c = span.value;
  const run = makeRun('dbt', sum(c, 'PASS', 'WARN'), sum(c, 'ERROR', 'FAIL'), sum(c, 'SKIP'), details.length > 0 ? details : results);
  return { run, at: span.at };
}
