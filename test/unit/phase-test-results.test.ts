// lib/phase/test-results.ts: test command output → counts and failing test names. The fixtures are
// short but shaped like each tool's real output (vitest 1–4, jest, node's TAP and spec reporters,
// pytest, go test, cargo test, mocha, python -m unittest); the rest checks the guards: prose, build
// logs and git logs give nothing, and no input (2 MB, cut off, random) makes it throw.
import { describe, expect, it } from 'vitest';
import { parseTestOutput, type TestRun } from '../../lib/phase/test-results.ts';
import { prng } from './helpers/prng.ts';

const ESC = '\u001b';

/** A result must always be well formed, whatever the input. */
function expectWellFormed(run: TestRun | undefined): void {
  if (run === undefined) return;
  for (const n of [run.passed, run.failed, run.skipped]) {
    expect(Number.isInteger(n) && n >= 0).toBe(true);
  }
  expect(run.failures.length).toBeLessThanOrEqual(20);
  expect(new Set(run.failures).size).toBe(run.failures.length);
  for (const name of run.failures) expect(name.length).toBeGreaterThan(0);
  for (const name of run.failures) expect(name.length).toBeLessThanOrEqual(200);
}

// ---------------------------------------------------------------------------------------------
// Fixtures.

const VITEST_PASS = `
 RUN  v3.2.4

 ✓ test/math.test.ts (3 tests) 2ms
 ✓ test/str.test.ts (2 tests) 3ms

 Test Files  2 passed (2)
      Tests  5 passed (5)
   Start at  10:12:01
   Duration  312ms (transform 41ms, setup 0ms, collect 52ms, tests 5ms, environment 0ms, prepare 160ms)
`;

const VITEST_FAIL = `
 RUN  v3.2.4

 ✓ test/math.test.ts (3 tests) 2ms
 ❯ test/str.test.ts (5 tests | 2 failed | 1 skipped) 6ms
   ✓ str > lower 1ms
   × str > upper 3ms
     → expected 'A' to be 'B' // Object.is equality
   × str > trim 1ms
     → expected ' a' to be 'a' // Object.is equality
   ↓ str > pad
   ✓ str > split 0ms

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  test/str.test.ts > str > upper
AssertionError: expected 'A' to be 'B' // Object.is equality

Expected: "B"
Received: "A"

 ❯ test/str.test.ts:9:24
      7|   it('upper', () => {
      8|     expect(up('a')).toBe('A');
      9|     expect(up('a')).toBe('B');
       |                        ^
     10|   });

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/2]⎯

 FAIL  test/str.test.ts > str > trim
AssertionError: expected ' a' to be 'a' // Object.is equality
 ❯ test/str.test.ts:13:26

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[2/2]⎯


 Test Files  1 failed | 1 passed (2)
      Tests  2 failed | 5 passed | 1 skipped (8)
   Start at  10:14:55
   Duration  298ms
`;

// Colours as vitest writes them on a terminal (FORCE_COLOR).
const VITEST_ANSI = [
  ` ${ESC}[32m✓${ESC}[39m test/math.test.ts ${ESC}[2m(${ESC}[22m${ESC}[2m3 tests${ESC}[22m${ESC}[2m)${ESC}[22m${ESC}[32m 2${ESC}[2mms${ESC}[22m${ESC}[39m`,
  ` ${ESC}[31m❯${ESC}[39m test/str.test.ts ${ESC}[2m(${ESC}[22m${ESC}[2m2 tests${ESC}[22m${ESC}[2m | ${ESC}[22m${ESC}[31m1 failed${ESC}[39m${ESC}[2m)${ESC}[22m`,
  `   ${ESC}[31m×${ESC}[39m str${ESC}[2m > ${ESC}[22mupper${ESC}[32m 3${ESC}[2mms${ESC}[22m${ESC}[39m`,
  '',
  `${ESC}[31m${ESC}[1m${ESC}[7m FAIL ${ESC}[27m${ESC}[22m${ESC}[39m test/str.test.ts${ESC}[2m > ${ESC}[22mstr${ESC}[2m > ${ESC}[22mupper`,
  `${ESC}[31mAssertionError${ESC}[39m: expected 'A' to be 'B'`,
  '',
  `${ESC}[2m Test Files ${ESC}[22m ${ESC}[1m${ESC}[31m1 failed${ESC}[39m${ESC}[22m${ESC}[2m | ${ESC}[22m${ESC}[1m${ESC}[32m1 passed${ESC}[39m${ESC}[22m${ESC}[90m (2)${ESC}[39m`,
  `${ESC}[2m      Tests ${ESC}[22m ${ESC}[1m${ESC}[31m1 failed${ESC}[39m${ESC}[22m${ESC}[2m | ${ESC}[22m${ESC}[1m${ESC}[32m4 passed${ESC}[39m${ESC}[22m${ESC}[90m (5)${ESC}[39m`,
  `${ESC}[2m   Start at ${ESC}[22m 10:14:55`,
  `${ESC}[2m   Duration ${ESC}[22m 301ms`,
  '',
].join('\n');

const VITEST_WATCH = `
 DEV  v3.2.4

 ❯ test/str.test.ts (2 tests | 1 failed) 4ms
   × str > upper 3ms

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  test/str.test.ts > str > upper
AssertionError: expected 'A' to be 'B' // Object.is equality

 Test Files  1 failed (1)
      Tests  1 failed | 1 passed (2)
   Start at  10:20:01
   Duration  210ms

 FAIL  Tests failed. Watching for file changes...
       press h to show help, press q to quit

 RERUN  test/str.test.ts x1

 ❯ test/str.test.ts (3 tests | 1 failed) 4ms
   × str > lower 2ms

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  test/str.test.ts > str > lower
AssertionError: expected 'a' to be 'b' // Object.is equality

 Test Files  1 failed (1)
      Tests  1 failed | 2 passed (3)
   Start at  10:20:09
   Duration  95ms

 FAIL  Tests failed. Watching for file changes...
       press h to show help, press q to quit
`;

// vitest 1 in a terminal that cut the "Failed Tests" section: only the per-file lines are left.
const VITEST_V1_CROSSES = `
 ❯ test/cart.test.ts  (3 tests | 2 failed) 7ms
   × cart > adds an item
   × cart > applies the discount 12ms
   ✓ cart > empties

 Test Files  1 failed (1)
      Tests  2 failed | 1 passed | 1 todo (4)
`;

const VITEST_SUITE_ERROR = `
 ❯ test/db.test.ts (0 test)

⎯⎯⎯⎯⎯⎯ Failed Suites 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  test/db.test.ts [ test/db.test.ts ]
Error: Cannot find module '../src/db' imported from 'test/db.test.ts'

 Test Files  1 failed | 3 passed (4)
      Tests  12 passed (12)
`;

const JEST_PASS = `
> app@1.0.0 test
> jest

PASS src/price.test.js
PASS src/cart.test.js

Test Suites: 2 passed, 2 total
Tests:       9 passed, 9 total
Snapshots:   0 total
Time:        0.812 s, estimated 1 s
Ran all test suites.
`;

const JEST_FAIL = `
 PASS  src/price.test.js
 FAIL  src/cart.test.js
  ● Console

    console.log
      adding apple

      at Object.log (src/cart.js:4:13)

  ● Cart › adds an item

    expect(received).toBe(expected) // Object.is equality

    Expected: 2
    Received: 1

      10 |     cart.add('apple');
      11 |     cart.add('pear');
    > 12 |     expect(cart.size).toBe(2);
         |                       ^
      13 |   });

      at Object.toBe (src/cart.test.js:12:23)

 FAIL  src/broken.test.ts
  ● Test suite failed to run

    Cannot find module './missing' from 'src/broken.test.ts'

Summary of all failing tests
 FAIL  src/cart.test.js
  ● Cart › adds an item

    expect(received).toBe(expected) // Object.is equality

Test Suites: 2 failed, 1 passed, 3 total
Tests:       1 failed, 2 skipped, 1 todo, 10 passed, 14 total
Snapshots:   0 total
Time:        1.52 s
Ran all test suites.
`;

const JEST_WATCH = `${JEST_FAIL}
Watch Usage: Press w to show more.
 PASS  src/cart.test.js

Test Suites: 1 passed, 1 total
Tests:       4 passed, 4 total
Snapshots:   0 total
Time:        0.3 s
Ran all test suites related to changed files.

Watch Usage: Press w to show more.
`;

const NODE_TAP_PASS = `TAP version 13
# Subtest: adds
ok 1 - adds
  ---
  duration_ms: 0.412
  ...
# Subtest: parses
ok 2 - parses
  ---
  duration_ms: 0.2
  ...
1..2
# tests 2
# suites 0
# pass 2
# fail 0
# cancelled 0
# skipped 0
# todo 0
# duration_ms 48.9
`;

const NODE_TAP_FAIL = `TAP version 13
# Subtest: math
    # Subtest: adds
    ok 1 - adds
      ---
      duration_ms: 0.412
      ...
    # Subtest: subtracts
    not ok 2 - subtracts
      ---
      duration_ms: 0.689
      location: 'test/math.test.js:6:3'
      failureType: 'testCodeFailure'
      error: |-
        Expected values to be strictly equal:

        1 !== 2

      code: 'ERR_ASSERTION'
      ...
    # Subtest: later
    not ok 3 - later # TODO
      ---
      duration_ms: 0.05
      ...
    1..3
not ok 1 - math
  ---
  duration_ms: 2.1
  type: 'suite'
  failureType: 'subtestsFailed'
  error: '1 subtest failed'
  code: 'ERR_TEST_FAILURE'
  ...
# Subtest: skipped one
ok 2 - skipped one # SKIP
  ---
  duration_ms: 0.02
  ...
# Subtest: flaky \\# retry
not ok 3 - flaky \\# retry
  ---
  duration_ms: 5.3
  failureType: 'testCodeFailure'
  error: 'boom'
  ...
1..3
# tests 5
# suites 1
# pass 1
# fail 2
# cancelled 0
# skipped 1
# todo 1
# duration_ms 61.2
`;

const NODE_SPEC_FAIL = `▶ math
  ✔ adds (0.412ms)
  ✖ subtracts (0.689ms)
    AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

    1 !== 2

        at TestContext.<anonymous> (test/math.test.js:7:12)
  ﹣ later (0.05ms) # SKIP
✖ math (2.1ms)
✔ top level (0.2ms)
✖ times out (100.4ms)
  'test timed out after 100ms'
ℹ tests 5
ℹ suites 1
ℹ pass 2
ℹ fail 1
ℹ cancelled 1
ℹ skipped 1
ℹ todo 0
ℹ duration_ms 158.31

✖ failing tests:

test at test/math.test.js:6:3
✖ subtracts (0.689ms)
  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

  1 !== 2

test at test/math.test.js:20:1
✖ times out (100.4ms)
  'test timed out after 100ms'
`;

const PYTEST_PASS = `============================= test session starts ==============================
platform linux -- Python 3.12.3, pytest-8.3.2, pluggy-1.5.0
collected 6 items

tests/test_cart.py ....                                                  [ 66%]
tests/test_price.py ..                                                   [100%]

============================== 6 passed in 0.04s ===============================
`;

const PYTEST_FAIL = `============================= test session starts ==============================
platform linux -- Python 3.12.3, pytest-8.3.2, pluggy-1.5.0
collected 16 items / 1 deselected / 15 selected

tests/test_cart.py ..F.s.x                                               [ 46%]
tests/test_price.py ....E...                                             [100%]

==================================== ERRORS ====================================
_______________________ ERROR at setup of test_discount ________________________
file tests/test_price.py, line 20
  def test_discount(db):
E       fixture 'db' not found
=================================== FAILURES ===================================
__________________________________ test_total __________________________________

    def test_total():
>       assert total([1, 2]) == 4
E       assert 3 == 4
E        +  where 3 = total([1, 2])

tests/test_cart.py:12: AssertionError
=========================== short test summary info ============================
FAILED tests/test_cart.py::test_total - assert 3 == 4
ERROR tests/test_price.py::test_discount - fixture 'db' not found
= 1 failed, 11 passed, 1 skipped, 1 deselected, 1 xfailed, 1 warning, 1 error in 0.12s =
`;

const PYTEST_QUIET = `..F.                                                                     [100%]
=================================== FAILURES ===================================
________________________ TestCart.test_remove[apple] ___________________________

self = <tests.test_cart.TestCart object at 0x7f3a2c1d9e50>

    def test_remove(self, item):
>       self.cart.remove(item)
E       KeyError: 'apple'

tests/test_cart.py:30: KeyError
=========================== short test summary info ============================
FAILED tests/test_cart.py::TestCart::test_remove[apple] - KeyError: 'apple'
1 failed, 3 passed in 0.05s
`;

const PYTEST_VERBOSE = `tests/test_cart.py::test_add PASSED                                      [ 33%]
tests/test_cart.py::test_remove FAILED                                   [ 66%]
tests/test_cart.py::test_clear PASSED                                    [100%]

=================================== FAILURES ===================================
_________________________________ test_remove __________________________________
E       assert 1 == 0
========================= 1 failed, 2 passed in 0.03s ==========================
`;

const GO_VERBOSE = `=== RUN   TestAdd
--- PASS: TestAdd (0.00s)
=== RUN   TestDivide
=== RUN   TestDivide/by_zero
    math_test.go:21: expected error, got nil
=== RUN   TestDivide/by_one
--- FAIL: TestDivide (0.00s)
    --- FAIL: TestDivide/by_zero (0.00s)
    --- PASS: TestDivide/by_one (0.00s)
=== RUN   TestSlow
    math_test.go:30: skipping in short mode
--- SKIP: TestSlow (0.00s)
FAIL
FAIL	example.com/calc	0.004s
=== RUN   TestParse
--- PASS: TestParse (0.00s)
PASS
ok  	example.com/calc/parse	0.002s
FAIL
`;

const GO_QUIET = `--- FAIL: TestDivide (0.00s)
    --- FAIL: TestDivide/by_zero (0.00s)
        math_test.go:21: expected error, got nil
--- FAIL: TestRound (0.00s)
    round_test.go:9: got 2, want 3
FAIL
FAIL	example.com/calc	0.004s
ok  	example.com/calc/parse	(cached)
?   	example.com/calc/cmd	[no test files]
FAIL
`;

const GO_ALL_OK = `ok  	example.com/calc	0.004s	coverage: 81.2% of statements
ok  	example.com/calc/parse	(cached)
?   	example.com/calc/cmd	[no test files]
`;

const GO_BUILD_FAILED = `# example.com/calc [example.com/calc.test]
./math_test.go:9:2: undefined: Sub
FAIL	example.com/calc [build failed]
ok  	example.com/calc/parse	0.002s
FAIL
`;

const CARGO_PASS = `   Compiling calc v0.1.0
    Finished \`test\` profile [unoptimized + debuginfo] target(s) in 0.61s
     Running unittests src/lib.rs (target/debug/deps/calc-3f2a9c1d5e6b7a80)

running 3 tests
test tests::adds ... ok
test tests::big ... ignored
test tests::subtracts ... ok

test result: ok. 2 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s
`;

const CARGO_MULTI = `    Finished \`test\` profile [unoptimized + debuginfo] target(s) in 0.05s
     Running unittests src/lib.rs (target/debug/deps/calc-3f2a9c1d5e6b7a80)

running 4 tests
test tests::adds ... ok
test tests::big ... ignored, needs a large input
test tests::divides ... FAILED
test tests::subtracts ... ok

failures:

---- tests::divides stdout ----

thread 'tests::divides' panicked at src/lib.rs:24:9:
assertion \`left == right\` failed
  left: 2
 right: 3
note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace


failures:
    tests::divides

test result: FAILED. 2 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s

     Running tests/api.rs (target/debug/deps/api-0b1c2d3e4f5a6b7c)

running 2 tests
test parses_input ... ok
test rejects_empty ... FAILED

failures:

---- rejects_empty stdout ----
thread 'rejects_empty' panicked at tests/api.rs:12:5:
expected an error

failures:
    rejects_empty

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s

   Doc-tests calc

running 1 test
test src/lib.rs - add (line 5) ... ok

test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.12s

error: 2 targets failed:
    \`--lib\`
    \`--test api\`
`;

const MOCHA_PASS = `

  Cart
    ✔ adds an item
    ✔ removes an item

  Price
    ✔ rounds to cents (52ms)


  3 passing (61ms)

`;

const MOCHA_FAIL = `

  Cart
    #add()
      ✔ adds an item
      1) counts duplicates
    #remove()
      ✔ removes an item
      - removes twice

  Price
    2) rounds to cents


  2 passing (12ms)
  1 pending
  2 failing

  1) Cart
       #add()
         counts duplicates:

      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

2 !== 1

      + expected - actual

      -2
      +1

      at Context.<anonymous> (test/cart.spec.js:14:14)
      at process.processImmediate (node:internal/timers:483:21)

  2) Price
       rounds to cents:
     TypeError: Cannot read properties of undefined (reading 'toFixed')
      at Context.<anonymous> (test/price.spec.js:8:20)



`;

const UNITTEST_OK = `.........
----------------------------------------------------------------------
Ran 9 tests in 0.002s

OK
`;

const UNITTEST_SKIPPED = `....s.
----------------------------------------------------------------------
Ran 6 tests in 0.001s

OK (skipped=1)
`;

const UNITTEST_FAIL = `..F.EFs.
======================================================================
ERROR: test_load (tests.test_store.StoreTest.test_load)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "tests/test_store.py", line 14, in test_load
    self.store.load("missing")
FileNotFoundError: [Errno 2] No such file or directory: 'missing'

======================================================================
FAIL: test_total (tests.test_cart.CartTest.test_total)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "tests/test_cart.py", line 9, in test_total
    self.assertEqual(total([1, 2]), 4)
AssertionError: 3 != 4

======================================================================
FAIL: test_round (tests.test_cart.CartTest)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "tests/test_cart.py", line 12, in test_round
    self.assertEqual(round_cents(1.005), 1.01)
AssertionError: 1.0 != 1.01

----------------------------------------------------------------------
Ran 8 tests in 0.004s

FAILED (failures=2, errors=1, skipped=1)
`;

const ALL_FIXTURES = {
  VITEST_PASS,
  VITEST_FAIL,
  VITEST_ANSI,
  VITEST_WATCH,
  VITEST_V1_CROSSES,
  VITEST_SUITE_ERROR,
  JEST_PASS,
  JEST_FAIL,
  JEST_WATCH,
  NODE_TAP_PASS,
  NODE_TAP_FAIL,
  NODE_SPEC_FAIL,
  PYTEST_PASS,
  PYTEST_FAIL,
  PYTEST_QUIET,
  PYTEST_VERBOSE,
  GO_VERBOSE,
  GO_QUIET,
  GO_ALL_OK,
  GO_BUILD_FAILED,
  CARGO_PASS,
  CARGO_MULTI,
  MOCHA_PASS,
  MOCHA_FAIL,
  UNITTEST_OK,
  UNITTEST_SKIPPED,
  UNITTEST_FAIL,
};

// ---------------------------------------------------------------------------------------------

describe('the answer kept for a second ask of the same output', () => {
  it('is the same answer, a copy each time, and a new output or command is read afresh', () => {
    const output = ' FAIL  test/a.test.ts > adds\n Test Files  1 failed (1)\n      Tests  1 failed | 2 passed (3)\n';
    const first = parseTestOutput(output, 'npx vitest run');
    expect(first).toMatchObject({ runner: 'vitest', passed: 2, failed: 1 });
    first?.failures.push('mutated by a caller');
    if (first !== undefined) first.passed = 99;
    const second = parseTestOutput(output, 'npx vitest run');
    expect(second).toMatchObject({ runner: 'vitest', passed: 2, failed: 1 });
    expect(second?.failures).not.toContain('mutated by a caller');
    expect(parseTestOutput(output.replace('2 passed', '5 passed'), 'npx vitest run')).toMatchObject({ passed: 5 });
    expect(parseTestOutput('hello', 'echo hello')).toBeUndefined();
    expect(parseTestOutput(output, 'npx vitest run')).toMatchObject({ passed: 2 });
  });
});

describe('vitest', () => {
  it('reads a passing run', () => {
    expect(parseTestOutput(VITEST_PASS, 'npx vitest run')).toEqual({ runner: 'vitest', passed: 5, failed: 0, skipped: 0, failures: [] });
  });

  it('counts the Tests line, not Test Files, and names failures from the Failed Tests section', () => {
    expect(parseTestOutput(VITEST_FAIL, 'npm test')).toEqual({
      runner: 'vitest',
      passed: 5,
      failed: 2,
      skipped: 1,
      failures: ['test/str.test.ts > str > upper', 'test/str.test.ts > str > trim'],
    });
  });

  it('reads coloured output', () => {
    expect(parseTestOutput(VITEST_ANSI)).toEqual({ runner: 'vitest', passed: 4, failed: 1, skipped: 0, failures: ['test/str.test.ts > str > upper'] });
  });

  it('reports only the last run in watch mode', () => {
    expect(parseTestOutput(VITEST_WATCH, 'npx vitest')).toEqual({
      runner: 'vitest',
      passed: 2,
      failed: 1,
      skipped: 0,
      failures: ['test/str.test.ts > str > lower'],
    });
  });

  it('falls back to the × lines, without durations, and counts todo as skipped', () => {
    expect(parseTestOutput(VITEST_V1_CROSSES)).toEqual({
      runner: 'vitest',
      passed: 1,
      failed: 2,
      skipped: 1,
      failures: ['cart > adds an item', 'cart > applies the discount'],
    });
  });

  it('names a suite that failed to load by its file', () => {
    expect(parseTestOutput(VITEST_SUITE_ERROR)).toEqual({ runner: 'vitest', passed: 12, failed: 0, skipped: 0, failures: ['test/db.test.ts'] });
  });

  it('reads Windows line endings and \\r progress lines', () => {
    const crlf = VITEST_FAIL.replace(/\n/g, '\r\n');
    expect(parseTestOutput(crlf)?.failed).toBe(2);
    const progress = ` RUN  v3.2.4\r ❯ test/str.test.ts 0/5\r ❯ test/str.test.ts 3/5\r${VITEST_PASS}`;
    expect(parseTestOutput(progress)).toMatchObject({ runner: 'vitest', passed: 5, failed: 0 });
  });
});

describe('jest', () => {
  it('reads a passing run', () => {
    expect(parseTestOutput(JEST_PASS, 'npm test')).toEqual({ runner: 'jest', passed: 9, failed: 0, skipped: 0, failures: [] });
  });

  it('reads failures from ● headers, once each, without Console, naming a broken suite by its file', () => {
    expect(parseTestOutput(JEST_FAIL, 'yarn jest')).toEqual({
      runner: 'jest',
      passed: 10,
      failed: 1,
      skipped: 3,
      failures: ['Cart › adds an item', 'src/broken.test.ts'],
    });
  });

  it('reports only the last run in watch mode', () => {
    expect(parseTestOutput(JEST_WATCH, 'npx jest --watch')).toEqual({ runner: 'jest', passed: 4, failed: 0, skipped: 0, failures: [] });
  });
});

describe('node --test', () => {
  it('reads a passing TAP run', () => {
    expect(parseTestOutput(NODE_TAP_PASS, 'node --test')).toEqual({ runner: 'node', passed: 2, failed: 0, skipped: 0, failures: [] });
  });

  it('reads TAP failures: tests, not their suites; SKIP and TODO are not failures', () => {
    expect(parseTestOutput(NODE_TAP_FAIL, 'node --test test/')).toEqual({
      runner: 'node',
      passed: 1,
      failed: 2,
      skipped: 2,
      failures: ['subtracts', 'flaky # retry'],
    });
  });

  it('reads the spec reporter, counting cancelled as failed and naming each failure once', () => {
    expect(parseTestOutput(NODE_SPEC_FAIL, 'node --test')).toEqual({
      runner: 'node',
      passed: 2,
      failed: 2,
      skipped: 1,
      failures: ['subtracts', 'times out'],
    });
  });
});

describe('pytest', () => {
  it('reads a passing run', () => {
    expect(parseTestOutput(PYTEST_PASS, 'pytest')).toEqual({ runner: 'pytest', passed: 6, failed: 0, skipped: 0, failures: [] });
  });

  it('counts errors as failed and xfailed as skipped, ignores deselected, and names FAILED and ERROR lines', () => {
    expect(parseTestOutput(PYTEST_FAIL, 'python -m pytest')).toEqual({
      runner: 'pytest',
      passed: 11,
      failed: 2,
      skipped: 2,
      failures: ['tests/test_cart.py::test_total', 'tests/test_price.py::test_discount'],
    });
  });

  it('reads the bare -q summary and parametrised names', () => {
    expect(parseTestOutput(PYTEST_QUIET, 'pytest -q')).toEqual({
      runner: 'pytest',
      passed: 3,
      failed: 1,
      skipped: 0,
      failures: ['tests/test_cart.py::TestCart::test_remove[apple]'],
    });
  });

  it('names failures from -v lines when there is no short summary', () => {
    expect(parseTestOutput(PYTEST_VERBOSE, 'pytest -v -rN')).toEqual({
      runner: 'pytest',
      passed: 2,
      failed: 1,
      skipped: 0,
      failures: ['tests/test_cart.py::test_remove'],
    });
  });

  it('reads a run that collected nothing', () => {
    const out = '============================ no tests ran in 0.01s =============================\n';
    expect(parseTestOutput(out, 'pytest -k nothing')).toEqual({ runner: 'pytest', passed: 0, failed: 0, skipped: 0, failures: [] });
  });
});

describe('go test', () => {
  it('-v: counts tests and subtests through their leaves, summed over packages', () => {
    expect(parseTestOutput(GO_VERBOSE, 'go test -v ./...')).toEqual({
      runner: 'go',
      passed: 3,
      failed: 1,
      skipped: 1,
      failures: ['TestDivide/by_zero'],
    });
  });

  it('without -v: names the failures, and passed is 0 (ok lines count packages, not tests)', () => {
    expect(parseTestOutput(GO_QUIET, 'go test ./...')).toEqual({
      runner: 'go',
      passed: 0,
      failed: 2,
      skipped: 0,
      failures: ['TestDivide/by_zero', 'TestRound'],
    });
  });

  it('recognises an all-ok run from its package lines', () => {
    expect(parseTestOutput(GO_ALL_OK, 'go test -cover ./...')).toEqual({ runner: 'go', passed: 0, failed: 0, skipped: 0, failures: [] });
  });

  it('counts a package that failed to build as one failure named by the package', () => {
    expect(parseTestOutput(GO_BUILD_FAILED, 'go test ./...')).toEqual({
      runner: 'go',
      passed: 0,
      failed: 1,
      skipped: 0,
      failures: ['example.com/calc'],
    });
  });
});

describe('cargo test', () => {
  it('reads a passing binary, counting ignored as skipped', () => {
    expect(parseTestOutput(CARGO_PASS, 'cargo test')).toEqual({ runner: 'cargo', passed: 2, failed: 0, skipped: 1, failures: [] });
  });

  it('sums the result lines of every binary, doc tests included', () => {
    expect(parseTestOutput(CARGO_MULTI, 'cargo test --no-fail-fast')).toEqual({
      runner: 'cargo',
      passed: 4,
      failed: 2,
      skipped: 1,
      failures: ['tests::divides', 'rejects_empty'],
    });
  });
});

describe('mocha', () => {
  it('reads a passing run', () => {
    expect(parseTestOutput(MOCHA_PASS, 'npx mocha')).toEqual({ runner: 'mocha', passed: 3, failed: 0, skipped: 0, failures: [] });
  });

  it('reads failing and pending counts and joins multi-line titles', () => {
    expect(parseTestOutput(MOCHA_FAIL, 'npx mocha')).toEqual({
      runner: 'mocha',
      passed: 2,
      failed: 2,
      skipped: 1,
      failures: ['Cart #add() counts duplicates', 'Price rounds to cents'],
    });
  });
});

describe('python -m unittest', () => {
  it('reads OK', () => {
    expect(parseTestOutput(UNITTEST_OK, 'python -m unittest')).toEqual({ runner: 'unittest', passed: 9, failed: 0, skipped: 0, failures: [] });
  });

  it('reads OK with skips', () => {
    expect(parseTestOutput(UNITTEST_SKIPPED, 'python3 -m unittest discover')).toEqual({
      runner: 'unittest',
      passed: 5,
      failed: 0,
      skipped: 1,
      failures: [],
    });
  });

  it('reads failures and errors, naming them in both the 3.11+ and the older form', () => {
    expect(parseTestOutput(UNITTEST_FAIL, 'python -m unittest')).toEqual({
      runner: 'unittest',
      passed: 4,
      failed: 3,
      skipped: 1,
      failures: ['tests.test_store.StoreTest.test_load', 'tests.test_cart.CartTest.test_total', 'tests.test_cart.CartTest.test_round'],
    });
  });
});

describe('generic summaries', () => {
  it('reads "12 passed, 3 failed" from a test command', () => {
    expect(parseTestOutput('running suite...\n12 passed, 3 failed\n', './run-tests.sh')).toEqual({
      runner: 'generic',
      passed: 12,
      failed: 3,
      skipped: 0,
      failures: [],
    });
  });

  it('reads "Passed: 12  Failed: 3" labels', () => {
    expect(parseTestOutput('== Results ==\nPassed: 12  Failed: 3  Skipped: 1\n', 'make test')).toEqual({
      runner: 'generic',
      passed: 12,
      failed: 3,
      skipped: 1,
      failures: [],
    });
  });

  it('accepts an unmistakable summary without a command', () => {
    expect(parseTestOutput('building\n10 tests passed\n')).toMatchObject({ runner: 'generic', passed: 10, failed: 0 });
    expect(parseTestOutput('Tests: 14, Passed: 12, Failed: 2 (in 1.2s)\n', 'bash ci.sh')).toMatchObject({ runner: 'generic', passed: 12, failed: 2 });
  });

  it('needs a test command for a lone "3 passed"', () => {
    expect(parseTestOutput('3 passed\n', 'bash run.sh')).toBeUndefined();
    expect(parseTestOutput('3 passed\n')).toBeUndefined();
    expect(parseTestOutput('3 passed\n', 'npm run test:unit')).toMatchObject({ runner: 'generic', passed: 3 });
  });
});

describe('not a test run', () => {
  it('ignores prose that says passed or failed', () => {
    const prose = [
      'Note: the value passed to foo must be a string.',
      'Step 2 passed the value to the parser, and 1 failed to parse.',
      'If the check failed, retry.',
    ].join('\n');
    expect(parseTestOutput(prose, 'npm test')).toBeUndefined();
    expect(parseTestOutput(prose)).toBeUndefined();
  });

  it('ignores build logs', () => {
    const tsc = "src/parser.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.\n\nFound 2 errors in 1 file.\n";
    expect(parseTestOutput(tsc, 'npx tsc --noEmit')).toBeUndefined();
    expect(parseTestOutput(tsc, 'npm run check')).toBeUndefined();
    const cargoBuild =
      '   Compiling calc v0.1.0\nerror[E0425]: cannot find value `x` in this scope\nerror: could not compile `calc` (lib) due to 1 previous error\n';
    expect(parseTestOutput(cargoBuild, 'cargo build')).toBeUndefined();
    const webpack = 'asset main.js 1.2 KiB [emitted] (name: main)\nwebpack 5.90.0 compiled with 2 errors in 120 ms\n';
    expect(parseTestOutput(webpack, 'npm run build')).toBeUndefined();
  });

  it('ignores git logs', () => {
    const log = ['a1b2c3d fix: 3 tests failed on the CI runner', 'e4f5a6b test: cover the 2 passed arguments', '9f8e7d6 chore: ok'].join('\n');
    expect(parseTestOutput(log, 'git log --oneline -- test/')).toBeUndefined();
    expect(parseTestOutput(log)).toBeUndefined();
  });

  it('gives undefined for empty and blank output', () => {
    expect(parseTestOutput('')).toBeUndefined();
    expect(parseTestOutput('', 'npm test')).toBeUndefined();
    expect(parseTestOutput('\n\n   \n', 'pytest')).toBeUndefined();
  });
});

describe('choosing the runner', () => {
  const both = `${JEST_FAIL}\n${PYTEST_PASS}`;

  it('takes the summary that comes last when the command names no runner', () => {
    expect(parseTestOutput(both, 'npm test')?.runner).toBe('pytest');
    expect(parseTestOutput(both)?.runner).toBe('pytest');
  });

  it.each([
    ['npx jest --ci', 'jest'],
    ['yarn jest', 'jest'],
    ['python -m pytest -x', 'pytest'],
    ['cd api && pytest', 'pytest'],
  ])('lets the command %s pick among several summaries', (command, runner) => {
    expect(parseTestOutput(both, command)?.runner).toBe(runner);
  });

  it('reads the output shape first: a command naming another runner does not change it', () => {
    expect(parseTestOutput(CARGO_PASS, 'npx vitest run')?.runner).toBe('cargo');
    expect(parseTestOutput(UNITTEST_OK, 'pytest')?.runner).toBe('unittest');
  });
});

describe('limits and robustness', () => {
  it('deduplicates names and keeps at most 20, each at most 200 characters', () => {
    const long = `Cart › ${'x'.repeat(500)}`;
    const bullets = [long, ...Array.from({ length: 30 }, (_, i) => `Cart › case ${i}`), 'Cart › case 1'];
    const out = `${bullets.map((b) => `  ● ${b}\n\n    boom\n`).join('\n')}\nTests:       32 failed, 32 total\n`;
    const run = parseTestOutput(out, 'npx jest');
    expect(run?.failed).toBe(32);
    expect(run?.failures).toHaveLength(20);
    expect(run?.failures[0]).toHaveLength(200);
    expect(run?.failures[0]?.endsWith('…')).toBe(true);
    expect(run?.failures[1]).toBe('Cart › case 0');
    expectWellFormed(run);
  });

  it('reads a 2 MB output', () => {
    const line = ' ✓ test/generated.test.ts (10 tests) 3ms\n';
    const noise = line.repeat(Math.ceil((2 * 1024 * 1024) / line.length));
    const run = parseTestOutput(`${noise}${VITEST_FAIL}`, 'npx vitest run');
    expect(run).toEqual({
      runner: 'vitest',
      passed: 5,
      failed: 2,
      skipped: 1,
      failures: ['test/str.test.ts > str > upper', 'test/str.test.ts > str > trim'],
    });
  });

  it('reads a 2 MB go -v run, counting only what is in the window', () => {
    const pass = '=== RUN   TestGen\n--- PASS: TestGen (0.00s)\n';
    const noise = pass.repeat(Math.ceil((2 * 1024 * 1024) / pass.length));
    const run = parseTestOutput(`${noise}${GO_QUIET}`, 'go test -v ./...');
    expect(run?.runner).toBe('go');
    expect(run?.failed).toBe(2);
    expect(run?.failures).toEqual(['TestDivide/by_zero', 'TestRound']);
    // The PASS lines counted are those in the last 256 K characters, not all 2 MB of them.
    expect(run?.passed).toBeGreaterThan(1000);
    expect(run?.passed).toBeLessThan(noise.length / pass.length);
  });

  it('looks for summaries only in the last 256 K characters', () => {
    const tail = 'build: compiling module\n'.repeat(Math.ceil((300 * 1024) / 24));
    expect(parseTestOutput(`${VITEST_PASS}${tail}`, 'npx vitest run')).toBeUndefined();
  });

  it('survives pathological lines', () => {
    const inputs = [
      '='.repeat(2_000_000),
      ` ${'1 passed, '.repeat(200_000)}`,
      `Tests  ${'1 failed | '.repeat(100_000)}`,
      `${' '.repeat(1_000_000)}FAIL`,
      `${ESC}[${'1;'.repeat(300_000)}`,
      'test '.repeat(300_000),
      '--- FAIL: '.repeat(200_000),
      `  1) ${'a\n'.repeat(500_000)}`,
    ];
    for (const input of inputs) expectWellFormed(parseTestOutput(input, 'npm test'));
  });

  it('never throws on random byte soup', () => {
    const random = prng(0x7e57);
    const pieces = [
      '\n',
      '\r',
      '\r\n',
      ' ',
      '\t',
      ESC,
      `${ESC}[31m`,
      `${ESC}]8;;`,
      '=====',
      ' passed',
      ' failed',
      ', ',
      ' | ',
      ' in 0.1s',
      'Tests  ',
      'Tests:  ',
      ' total',
      ' FAIL  ',
      '× ',
      '● ',
      '✖ ',
      'ℹ pass ',
      '# fail ',
      'not ok 1 - ',
      '--- FAIL: ',
      'ok  \t',
      'test result: FAILED. ',
      '; ',
      ' passing (3ms)',
      '1) ',
      'Ran ',
      ' tests in 0.1s',
      'FAILED (failures=',
      'FAIL: ',
      '(',
      ')',
      ':',
      '/',
      '\\',
      '…',
      '\ud83d',
      '\ude00',
    ];
    for (let round = 0; round < 400; round++) {
      let s = '';
      const length = Math.floor(random() * 400);
      for (let i = 0; i < length; i++) {
        const r = random();
        if (r < 0.4) s += String.fromCharCode(Math.floor(random() * 256));
        else if (r < 0.6) s += String(Math.floor(random() * 1000));
        else s += pieces[Math.floor(random() * pieces.length)];
      }
      expectWellFormed(parseTestOutput(s));
      expectWellFormed(parseTestOutput(s, 'npm test'));
    }
  });

  it('never throws on truncated outputs, and cut-off runs stay well formed', () => {
    for (const [name, fixture] of Object.entries(ALL_FIXTURES)) {
      for (let cut = 0; cut <= fixture.length; cut += 13) {
        expect(() => {
          expectWellFormed(parseTestOutput(fixture.slice(0, cut), 'npm test'));
          expectWellFormed(parseTestOutput(fixture.slice(cut)));
        }, name).not.toThrow();
      }
    }
  });

  it('gives every fixture a result for its own runner', () => {
    for (const [name, fixture] of Object.entries(ALL_FIXTURES)) {
      const run = parseTestOutput(fixture);
      expect(run, name).toBeDefined();
      expect(name.toLowerCase().startsWith(run?.runner ?? '-') || (name.startsWith('NODE') && run?.runner === 'node'), name).toBe(true);
    }
  });
});
