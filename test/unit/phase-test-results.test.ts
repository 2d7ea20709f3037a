// lib/phase/test-results.ts: test command output → counts and failing test names. The fixtures are
// short but shaped like each tool's real output (vitest 1–4, jest, node's TAP and spec reporters,
// pytest, go test, cargo test, mocha, python -m unittest, rspec, Maven surefire 2 and 3, Gradle,
// dotnet test's three consoles, Playwright, PHPUnit 9 and 10, Pest/Collision, ExUnit, XCTest from
// xcodebuild and swift test, Unity, CTest, dbt); the rest checks the guards: prose, build logs, git
// logs and other runners' output give nothing, and no input (2 MB, cut off, random) makes it throw.
import { describe, expect, it } from 'vitest';
import { countsText, parseTestOutput, runPassed, type TestRun } from '../../lib/phase/test-results.ts';
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

// -rN: no short summary; the section headers are all that names the failures.
const PYTEST_NO_SUMMARY = `..F.E.F                                                                  [100%]
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

tests/test_cart.py:12: AssertionError
----------------------------- Captured stdout call -----------------------------
computing total
________________________ TestCart.test_remove[apple] ___________________________

self = <tests.test_cart.TestCart object at 0x7f3a2c1d9e50>
E       KeyError: 'apple'

tests/test_cart.py:30: KeyError
======================== 2 failed, 4 passed, 1 error in 0.08s ========================
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

const RSPEC_PASS = `
Randomized with seed 41237
...........*

Pending: (Failures listed here are expected and do not affect your suite's status)

  1) Order#refund handles partial refunds
     # Not yet implemented
     # ./spec/models/order_spec.rb:80


Finished in 0.21475 seconds (files took 1.31 seconds to load)
12 examples, 0 failures, 1 pending

Randomized with seed 41237
`;

const RSPEC_FAIL = `
Randomized with seed 5122
..F...*..F..

Pending: (Failures listed here are expected and do not affect your suite's status)

  1) Order#refund handles partial refunds
     # Not yet implemented
     # ./spec/models/order_spec.rb:80

Failures:

  1) Order#total applies the coupon before tax
     Failure/Error: expect(order.total).to eq(90)

       expected: 90
            got: 99

       (compared using ==)
     # ./spec/models/order_spec.rb:42:in \`block (3 levels) in <top (required)>'

  2) Checkout with an expired card shows an error
     Failure/Error: expect(page).to have_content("Card expired")
       expected to find text "Card expired" in "Thank you for your order"
     # ./spec/features/checkout_spec.rb:17:in \`block (3 levels) in <top (required)>'

Finished in 1.84 seconds (files took 2.02 seconds to load)
12 examples, 2 failures, 1 pending

Failed examples:

rspec ./spec/models/order_spec.rb:42 # Order#total applies the coupon before tax
rspec './spec/features/checkout_spec.rb[1:2:1]' # Checkout with an expired card shows an error

Randomized with seed 5122
`;

// Colours as rspec writes them with --force-color.
const RSPEC_ANSI = [
  `${ESC}[31mF${ESC}[0m${ESC}[32m.${ESC}[0m${ESC}[32m.${ESC}[0m`,
  '',
  'Failures:',
  '',
  '  1) Order#total applies the coupon before tax',
  `     ${ESC}[31mFailure/Error: ${ESC}[0m${ESC}[1;34mexpect${ESC}[0m(order.total).to eq(${ESC}[1;34m90${ESC}[0m)${ESC}[0m`,
  '',
  `Finished in 0.0321 seconds (files took 0.9 seconds to load)`,
  `${ESC}[31m3 examples, 1 failure${ESC}[0m`,
  '',
  'Failed examples:',
  '',
  `${ESC}[31mrspec ./spec/models/order_spec.rb:42${ESC}[0m ${ESC}[36m# Order#total applies the coupon before tax${ESC}[0m`,
  '',
].join('\n');

const RSPEC_LOAD_ERROR = `
An error occurred while loading ./spec/models/invoice_spec.rb.
Failure/Error: require "invoice"

LoadError:
  cannot load such file -- invoice
# ./spec/models/invoice_spec.rb:1:in \`<top (required)>'
No examples found.

Finished in 0.00003 seconds (files took 0.11 seconds to load)
0 examples, 0 failures, 1 error occurred outside of examples
`;

const MAVEN_PASS = `[INFO] -------------------------------------------------------
[INFO]  T E S T S
[INFO] -------------------------------------------------------
[INFO] Running com.acme.orders.OrderServiceTest
[WARNING] Tests run: 30, Failures: 0, Errors: 0, Skipped: 1, Time elapsed: 0.412 s -- in com.acme.orders.OrderServiceTest
[INFO] Running com.acme.orders.PriceTest
[WARNING] Tests run: 12, Failures: 0, Errors: 0, Skipped: 1, Time elapsed: 0.031 s -- in com.acme.orders.PriceTest
[INFO] 
[INFO] Results:
[INFO] 
[WARNING] Tests run: 42, Failures: 0, Errors: 0, Skipped: 2
[INFO] 
[INFO] ------------------------------------------------------------------------
[INFO] BUILD SUCCESS
[INFO] ------------------------------------------------------------------------
[INFO] Total time:  4.212 s
`;

const MAVEN_FAIL = `[INFO] -------------------------------------------------------
[INFO]  T E S T S
[INFO] -------------------------------------------------------
[INFO] Running com.acme.orders.OrderServiceTest
[ERROR] Tests run: 30, Failures: 1, Errors: 1, Skipped: 0, Time elapsed: 0.512 s <<< FAILURE! -- in com.acme.orders.OrderServiceTest
[ERROR] com.acme.orders.OrderServiceTest.shouldRejectDuplicateIdempotencyKey -- Time elapsed: 0.041 s <<< FAILURE!
org.opentest4j.AssertionFailedError: expected: <409> but was: <201>
	at org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)
	at com.acme.orders.OrderServiceTest.shouldRejectDuplicateIdempotencyKey(OrderServiceTest.java:131)

[ERROR] com.acme.orders.OrderServiceTest.shouldLoadOrderHistory -- Time elapsed: 0.003 s <<< ERROR!
java.lang.NullPointerException: Cannot invoke "com.acme.orders.Customer.id()" because "customer" is null
	at com.acme.orders.OrderService.history(OrderService.java:88)
	at com.acme.orders.OrderServiceTest.shouldLoadOrderHistory(OrderServiceTest.java:52)

[INFO] Running com.acme.orders.PriceTest
[INFO] Tests run: 12, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.031 s -- in com.acme.orders.PriceTest
[INFO] 
[INFO] Results:
[INFO] 
[ERROR] Failures: 
[ERROR]   OrderServiceTest.shouldRejectDuplicateIdempotencyKey:131 expected: <409> but was: <201>
[ERROR] Errors: 
[ERROR]   OrderServiceTest.shouldLoadOrderHistory:52 » NullPointer Cannot invoke "com.acme.orders.Customer.id()" because "customer" is null
[INFO] 
[ERROR] Tests run: 42, Failures: 1, Errors: 1, Skipped: 0
[INFO] 
[INFO] ------------------------------------------------------------------------
[INFO] BUILD FAILURE
[INFO] ------------------------------------------------------------------------
[INFO] Total time:  5.101 s
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (default-test) on project orders: There are test failures.
`;

// surefire 2 on an older Maven: no log prefixes, JUnit 4 names as method(Class).
const MAVEN_LEGACY = `-------------------------------------------------------
 T E S T S
-------------------------------------------------------
Running com.acme.money.RoundingTest
Tests run: 5, Failures: 2, Errors: 0, Skipped: 1, Time elapsed: 0.05 sec <<< FAILURE!
roundsHalfUp(com.acme.money.RoundingTest)  Time elapsed: 0.01 sec  <<< FAILURE!
java.lang.AssertionError: expected:<2.35> but was:<2.34>
	at org.junit.Assert.fail(Assert.java:88)
parsesNegative(com.acme.money.RoundingTest)  Time elapsed: 0.002 sec  <<< FAILURE!
java.lang.AssertionError: expected:<-1> but was:<1>

Results :

Failed tests:   roundsHalfUp(com.acme.money.RoundingTest): expected:<2.35> but was:<2.34>
  parsesNegative(com.acme.money.RoundingTest): expected:<-1> but was:<1>

Tests run: 5, Failures: 2, Errors: 0, Skipped: 1

[INFO] BUILD FAILURE
`;

const GRADLE_FAIL = `> Task :compileJava UP-TO-DATE
> Task :processResources NO-SOURCE
> Task :classes UP-TO-DATE
> Task :compileTestJava
> Task :processTestResources NO-SOURCE
> Task :testClasses

> Task :test FAILED

DedupProcessorTest > drops replayed events within window() FAILED
    org.opentest4j.AssertionFailedError at DedupProcessorTest.java:58

DedupProcessorTest > WindowTests > keeps events after the window closes() FAILED
    java.lang.IllegalStateException at DedupProcessorTest.java:77
        Caused by: java.lang.NullPointerException at DedupProcessor.java:31

12 tests completed, 2 failed, 1 skipped

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':test'.
> There were failing tests. See the report at: file:///home/dev/ingest/build/reports/tests/test/index.html

* Try:
> Run with --scan to get full insights.

BUILD FAILED in 6s
4 actionable tasks: 2 executed, 2 up-to-date
`;

// Gradle prints no counts for a passing run with the default test logging.
const GRADLE_PASS = `> Task :compileJava UP-TO-DATE
> Task :classes UP-TO-DATE
> Task :compileTestJava UP-TO-DATE
> Task :testClasses UP-TO-DATE
> Task :test

BUILD SUCCESSFUL in 4s
4 actionable tasks: 1 executed, 3 up-to-date
`;

// An Android module whose build logs every test event.
const GRADLE_EVENTS = `> Task :app:compileDebugUnitTestKotlin
> Task :app:testDebugUnitTest

CartViewModelTest > addsItem() PASSED

CartViewModelTest > removesItem() PASSED

CartViewModelTest > appliesCoupon() SKIPPED

BUILD SUCCESSFUL in 12s
31 actionable tasks: 2 executed, 29 up-to-date
`;

const DOTNET_FAIL = `  Determining projects to restore...
  All projects are up-to-date for restore.
  Invoicing -> /src/Invoicing/bin/Debug/net8.0/Invoicing.dll
  Invoicing.Tests -> /src/Invoicing.Tests/bin/Debug/net8.0/Invoicing.Tests.dll
Test run for /src/Invoicing.Tests/bin/Debug/net8.0/Invoicing.Tests.dll (.NETCoreApp,Version=v8.0)
Microsoft (R) Test Execution Command Line Tool Version 17.9.0 (x64)
Copyright (c) Microsoft Corporation.  All rights reserved.

Starting test execution, please wait...
A total of 1 test files matched the specified pattern.
  Failed Invoicing.Tests.InvoiceControllerTests.Post_WithNegativeAmount_Returns400 [212 ms]
  Error Message:
   Assert.Equal() Failure: Values differ
Expected: 400
Actual:   201
  Stack Trace:
     at Invoicing.Tests.InvoiceControllerTests.Post_WithNegativeAmount_Returns400() in /src/Invoicing.Tests/InvoiceControllerTests.cs:line 48
--- End of stack trace from previous location ---
  Failed Invoicing.Tests.TaxTests.Rounds_half_up(amount: 2.345, expected: 2.35) [3 ms]
  Error Message:
   Assert.Equal() Failure: Values differ
Expected: 2.35
Actual:   2.34

Failed!  - Failed:     2, Passed:    39, Skipped:     1, Total:    42, Duration: 2 s - Invoicing.Tests.dll (net8.0)
`;

const DOTNET_PASS = `Starting test execution, please wait...
A total of 1 test files matched the specified pattern.

Passed!  - Failed:     0, Passed:    41, Skipped:     0, Total:    41, Duration: 1 s - Invoicing.Tests.dll (net8.0)
Starting test execution, please wait...
A total of 1 test files matched the specified pattern.

Passed!  - Failed:     0, Passed:    12, Skipped:     1, Total:    13, Duration: 310 ms - Billing.Tests.dll (net8.0)
`;

// Microsoft.Testing.Platform (the .NET 10 SDK's dotnet test).
const DOTNET_MTP = `Running tests from /src/Shop.Tests/bin/Debug/net10.0/Shop.Tests.dll (net10.0|x64)
failed Shop.Tests.ProductApiTests.Creating_a_product_needs_the_admin_role (270ms)
  Assert.Equal() Failure: Values differ
  Expected: Created
  Actual:   Forbidden
    at Shop.Tests.ProductApiTests.Creating_a_product_needs_the_admin_role() in /src/Shop.Tests/ProductApiTests.cs:41
/src/Shop.Tests/bin/Debug/net10.0/Shop.Tests.dll (net10.0|x64) failed with 1 error(s) (1s 740ms)

Test run summary: Failed!
  total: 11
  failed: 1
  succeeded: 9
  skipped: 1
  duration: 2s 818ms
`;

// .NET Core 2.x: the totals on one line, the failure without a duration.
const DOTNET_LEGACY = `Starting test execution, please wait...
[xUnit.net 00:00:00.5312120]     Invoicing.Tests.InvoiceControllerTests.Post_WithNegativeAmount_Returns400 [FAIL]
Failed   Invoicing.Tests.InvoiceControllerTests.Post_WithNegativeAmount_Returns400
Error Message:
 Assert.Equal() Failure
Expected: 400
Actual:   201
Stack Trace:
   at Invoicing.Tests.InvoiceControllerTests.Post_WithNegativeAmount_Returns400() in /src/Invoicing.Tests/InvoiceControllerTests.cs:line 48

Total tests: 42. Passed: 41. Failed: 1. Skipped: 0.
Test Run Failed.
Test execution time: 2.1320 Seconds
`;

// .NET Core 3.x: the X mark, and the totals one per line.
const DOTNET_CORE3 = `  X Invoicing.Tests.InvoiceControllerTests.Post_WithNegativeAmount_Returns400 [212ms]
  Error Message:
   Assert.Equal() Failure
Expected: 400
Actual:   201

Test Run Failed.
Total tests: 42
     Passed: 40
     Failed: 1
    Skipped: 1
 Total time: 2.3400 Seconds
`;

const PLAYWRIGHT_FAIL = `
Running 20 tests using 4 workers

  ✓   1 [chromium] › auth.spec.ts:12:5 › user can sign in (1.4s)
  ✘   2 [chromium] › checkout.spec.ts:42:5 › guest can apply a gift card (6.1s)
  ✓   3 [chromium] › cart.spec.ts:8:5 › adds an item (812ms)
  -   4 [chromium] › cart.spec.ts:30:5 › shares the cart
  ✘   5 [firefox] › search.spec.ts:20:3 › filters › by price (5.0s)
  ✘   6 [chromium] › profile.spec.ts:9:5 › uploads an avatar (2.2s)
  ✓   7 [chromium] › profile.spec.ts:9:5 › uploads an avatar (retry #1) (1.9s)

  1) [chromium] › checkout.spec.ts:42:5 › guest can apply a gift card ────────────────────────────

    Error: expect(locator).toHaveText(expected) failed

    Locator: getByTestId('total')
    Expected string: "$40.00"
    Received string: "$50.00"

      44 |   await page.getByRole('button', { name: 'Apply' }).click();
    > 45 |   await expect(page.getByTestId('total')).toHaveText('$40.00');
         |                                           ^

        at /app/tests/checkout.spec.ts:45:43

  2) [firefox] › search.spec.ts:20:3 › filters › by price ─────────────────────────────────────────

    Error: Timed out 5000ms waiting for expect(locator).toBeVisible()

  3) [chromium] › profile.spec.ts:9:5 › uploads an avatar ────────────────────────────────────────

    Error: page.setInputFiles: Target page, context or browser has been closed

  2 failed
    [chromium] › checkout.spec.ts:42:5 › guest can apply a gift card ───────────────────────────────
    [firefox] › search.spec.ts:20:3 › filters › by price ────────────────────────────────────────────
  1 flaky
    [chromium] › profile.spec.ts:9:5 › uploads an avatar ────────────────────────────────────────────
  2 skipped
  15 passed (12.3s)
`;

const PLAYWRIGHT_PASS = `
Running 6 tests using 3 workers

  ✓  1 [chromium] › example.spec.ts:3:5 › has title (1.1s)
  ✓  2 [chromium] › example.spec.ts:10:5 › get started link (1.4s)
  ✓  3 [firefox] › example.spec.ts:3:5 › has title (1.9s)
  ✓  4 [firefox] › example.spec.ts:10:5 › get started link (2.0s)
  ✓  5 [webkit] › example.spec.ts:3:5 › has title (1.5s)
  ✓  6 [webkit] › example.spec.ts:10:5 › get started link (1.7s)

  6 passed (4.2s)
`;

// Colours as Playwright writes them with FORCE_COLOR; the rule after each title is dim.
const PLAYWRIGHT_ANSI = [
  `  ${ESC}[31m✘${ESC}[39m  ${ESC}[2m1${ESC}[22m [chromium] › checkout.spec.ts:42:5 › guest can apply a gift card ${ESC}[2m(6.1s)${ESC}[22m`,
  '',
  `${ESC}[31m  1 failed${ESC}[39m`,
  `${ESC}[31m    [chromium] › checkout.spec.ts:42:5 › guest can apply a gift card ${ESC}[2m───────────────────${ESC}[22m${ESC}[39m`,
  `${ESC}[32m  4 passed${ESC}[39m${ESC}[2m (3.1s)${ESC}[22m`,
  '',
].join('\n');

const PHPUNIT_FAIL = `PHPUnit 10.5.20 by Sebastian Bergmann and contributors.

Runtime:       PHP 8.3.7
Configuration: /app/phpunit.xml

.....F.....E.S...........                                         25 / 25 (100%)

Time: 00:00.412, Memory: 24.00 MB

There was 1 error:

1) Tests\\Unit\\CsvReaderTest::test_reads_bom_prefixed_files
ErrorException: Undefined array key 1

/app/src/CsvReader.php:41
/app/tests/Unit/CsvReaderTest.php:22

--

There was 1 failure:

1) Tests\\Feature\\ContactImportTest::test_import_skips_duplicate_emails
Failed asserting that 3 is identical to 2.

/app/tests/Feature/ContactImportTest.php:42

--

There was 1 skipped test:

1) Tests\\Feature\\MailchimpSyncTest::test_pushes_new_contacts
Needs a Mailchimp sandbox key

ERRORS!
Tests: 25, Assertions: 60, Errors: 1, Failures: 1, Skipped: 1.
`;

const PHPUNIT_PASS = `PHPUnit 9.6.19 by Sebastian Bergmann and contributors.

.........................                                         25 / 25 (100%)

Time: 00:00.198, Memory: 18.00 MB

OK (25 tests, 60 assertions)
`;

// PHPUnit 9 with a data provider, in colour (--colors=always).
const PHPUNIT_ANSI = [
  'There were 2 failures:',
  '',
  '1) Tests\\Unit\\MoneyTest::test_rounds with data set #1 (2.345, 2.35)',
  'Failed asserting that 2.34 matches expected 2.35.',
  '',
  '/app/tests/Unit/MoneyTest.php:30',
  '',
  '2) Tests\\Unit\\MoneyTest::test_formats_negative_amounts',
  'Failed asserting that two strings are identical.',
  '',
  `${ESC}[37;41mFAILURES!${ESC}[0m`,
  `${ESC}[37;41mTests: 12${ESC}[0m${ESC}[37;41m, Assertions: 20${ESC}[0m${ESC}[37;41m, Failures: 2${ESC}[0m${ESC}[37;41m.${ESC}[0m`,
  '',
].join('\n');

// php artisan test (Collision); Pest prints the same.
const PEST_FAIL = `
   PASS  Tests\\Unit\\ExampleTest
  ✓ that true is true                                                    0.01s

   FAIL  Tests\\Feature\\ContactImportTest
  ✓ import creates contacts                                              0.12s
  ⨯ import skips duplicate emails                                        0.08s
  ⨯ import rejects a file without header                                 0.03s

   WARN  Tests\\Feature\\MailchimpSyncTest
  - pushes new contacts → Needs a Mailchimp sandbox key

  ────────────────────────────────────────────────────────────────────────────
   FAILED  Tests\\Feature\\ContactImportTest > import skips duplicate emails
  Failed asserting that 3 is identical to 2.

  at tests/Feature/ContactImportTest.php:42
     38▕         $this->artisan('contacts:import', ['file' => 'dupes.csv']);
     39▕
  ➜  42▕         $this->assertSame(2, Contact::count());

  ────────────────────────────────────────────────────────────────────────────
   FAILED  Tests\\Feature\\ContactImportTest > import rejects a file without header   InvalidArgumentException
  Missing header row

  Tests:    2 failed, 1 skipped, 22 passed (60 assertions)
  Duration: 1.23s
`;

const PEST_PASS = `
   PASS  Tests\\Unit\\ExampleTest
  ✓ that true is true                                                    0.01s

   PASS  Tests\\Feature\\ContactImportTest
  ✓ import creates contacts                                              0.12s
  ✓ import skips duplicate emails                                        0.08s

  Tests:    1 todo, 24 passed (60 assertions)
  Duration: 0.41s
`;

// Pest --compact, in colour.
const PEST_ANSI = [
  `  ${ESC}[32;1m.${ESC}[39;22m${ESC}[32;1m.${ESC}[39;22m${ESC}[31;1m⨯${ESC}[39;22m`,
  '',
  `  ${ESC}[41;1m FAILED ${ESC}[49;22m ${ESC}[1mTests\\Unit\\SlugTest${ESC}[22m ${ESC}[90m>${ESC}[39m ${ESC}[1mit keeps unicode letters${ESC}[22m`,
  '  Failed asserting that two strings are identical.',
  '',
  `  ${ESC}[37;1mTests:${ESC}[39;22m    ${ESC}[31;1m1 failed${ESC}[39;22m${ESC}[90m,${ESC}[39m ${ESC}[32;1m2 passed${ESC}[39;22m ${ESC}[90m(3 assertions)${ESC}[39m`,
  `  ${ESC}[37;1mDuration:${ESC}[39;22m ${ESC}[90m0.12s${ESC}[39m`,
  '',
].join('\n');

const EXUNIT_FAIL = `Running ExUnit with seed: 402211, max_cases: 16

.....

  1) test rejects join for banned users (ChatWeb.RoomChannelTest)
     test/chat_web/channels/room_channel_test.exs:42
     Assertion with == failed
     code:  assert {:error, %{reason: "banned"}} == subscribe_and_join(socket, "room:lobby")
     left:  {:error, %{reason: "banned"}}
     right: {:ok, %{}, %Phoenix.Socket{}}
     stacktrace:
       test/chat_web/channels/room_channel_test.exs:44: (test)

..*.

  2) doctest Chat.Slug.slugify/1 (1) (Chat.SlugTest)
     test/chat/slug_test.exs:3
     Doctest failed
     doctest:
       iex> Chat.Slug.slugify("Héllo")
       "hello"
     code:  Chat.Slug.slugify("Héllo") === "hello"
     left:  "héllo"
     right: "hello"

Finished in 0.4 seconds (0.2s async, 0.2s sync)
1 doctest, 10 tests, 2 failures, 1 skipped
`;

const EXUNIT_PASS = `Running ExUnit with seed: 19023, max_cases: 16

..........
Finished in 0.1 seconds (0.1s async, 0.00s sync)
10 tests, 0 failures
`;

// An umbrella project: one summary per app.
const EXUNIT_UMBRELLA = `==> chat
Running ExUnit with seed: 1771, max_cases: 16

....
Finished in 0.1 seconds (0.1s async, 0.00s sync)
4 tests, 0 failures
==> chat_web
Running ExUnit with seed: 1771, max_cases: 16

..

  1) test GET / renders the lobby (ChatWeb.PageControllerTest)
     test/chat_web/controllers/page_controller_test.exs:4
     ** (RuntimeError) boom

Finished in 0.2 seconds (0.1s async, 0.1s sync)
3 tests, 1 failure, 1 excluded
`;

const XCTEST_FAIL = `Test Suite 'All tests' started at 2024-05-02 10:14:03.118.
Test Suite 'FieldOpsTests.xctest' started at 2024-05-02 10:14:03.119.
Test Suite 'AuthTests' started at 2024-05-02 10:14:03.119.
Test Case '-[FieldOpsTests.AuthTests testLoginFailsWithExpiredToken]' started.
/Users/dev/FieldOps/FieldOpsTests/AuthTests.swift:42: error: -[FieldOpsTests.AuthTests testLoginFailsWithExpiredToken] : XCTAssertEqual failed: ("200") is not equal to ("401")
/Users/dev/FieldOps/FieldOpsTests/AuthTests.swift:43: error: -[FieldOpsTests.AuthTests testLoginFailsWithExpiredToken] : XCTAssertNil failed: "stale-token"
Test Case '-[FieldOpsTests.AuthTests testLoginFailsWithExpiredToken]' failed (0.094 seconds).
Test Case '-[FieldOpsTests.AuthTests testLoginSucceeds]' started.
Test Case '-[FieldOpsTests.AuthTests testLoginSucceeds]' passed (0.012 seconds).
Test Suite 'AuthTests' failed at 2024-05-02 10:14:03.226.
	 Executed 2 tests, with 2 failures (0 unexpected) in 0.106 (0.107) seconds
Test Suite 'SyncTests' started at 2024-05-02 10:14:03.226.
Test Case '-[FieldOpsTests.SyncTests testConflictResolution]' started.
/Users/dev/FieldOps/FieldOpsTests/SyncTests.swift:30: error: -[FieldOpsTests.SyncTests testConflictResolution] : failed: caught error: "conflict(id: 7)"
Test Case '-[FieldOpsTests.SyncTests testConflictResolution]' failed (0.020 seconds).
Test Case '-[FieldOpsTests.SyncTests testOfflineQueueDrains]' started.
/Users/dev/FieldOps/FieldOpsTests/SyncTests.swift:12: -[FieldOpsTests.SyncTests testOfflineQueueDrains] : Test skipped - needs a device
Test Case '-[FieldOpsTests.SyncTests testOfflineQueueDrains]' skipped (0.001 seconds).
Test Case '-[FieldOpsTests.SyncTests testRetryBackoff]' started.
Test Case '-[FieldOpsTests.SyncTests testRetryBackoff]' passed (0.090 seconds).
Test Suite 'SyncTests' failed at 2024-05-02 10:14:03.337.
	 Executed 3 tests, with 1 test skipped and 1 failure (1 unexpected) in 0.111 (0.112) seconds
Test Suite 'FieldOpsTests.xctest' failed at 2024-05-02 10:14:03.337.
	 Executed 5 tests, with 1 test skipped and 3 failures (1 unexpected) in 0.217 (0.219) seconds
Test Suite 'All tests' failed at 2024-05-02 10:14:03.338.
	 Executed 5 tests, with 1 test skipped and 3 failures (1 unexpected) in 0.217 (0.220) seconds
`;

// swift test on Linux: plain Class.test names.
const XCTEST_SWIFT = `[3/3] Linking FieldOpsPackageTests.xctest
Build complete! (4.12s)
Test Suite 'All tests' started at 2024-05-02 10:20:11.201
Test Suite 'debug.xctest' started at 2024-05-02 10:20:11.203
Test Suite 'AuthTests' started at 2024-05-02 10:20:11.203
Test Case 'AuthTests.testLoginFailsWithExpiredToken' started at 2024-05-02 10:20:11.203
/src/Tests/FieldOpsTests/AuthTests.swift:42: error: AuthTests.testLoginFailsWithExpiredToken : XCTAssertEqual failed: ("200") is not equal to ("401") -
Test Case 'AuthTests.testLoginFailsWithExpiredToken' failed (0.094 seconds)
Test Case 'AuthTests.testLoginSucceeds' started at 2024-05-02 10:20:11.297
Test Case 'AuthTests.testLoginSucceeds' passed (0.012 seconds)
Test Suite 'AuthTests' failed at 2024-05-02 10:20:11.309
	 Executed 2 tests, with 1 failure (0 unexpected) in 0.106 (0.106) seconds
Test Suite 'debug.xctest' failed at 2024-05-02 10:20:11.309
	 Executed 2 tests, with 1 failure (0 unexpected) in 0.106 (0.106) seconds
Test Suite 'All tests' failed at 2024-05-02 10:20:11.309
	 Executed 2 tests, with 1 failure (0 unexpected) in 0.106 (0.106) seconds
`;

// xcodebuild with parallel testing: no totals, one line per test and clone.
const XCTEST_PARALLEL = `Testing started
Test suite 'AuthTests' started on 'Clone 1 of iPhone 15 - FieldOps (48213)'
Test case 'AuthTests.testLoginFailsWithExpiredToken()' failed on 'Clone 1 of iPhone 15 - FieldOps (48213)' (0.094 seconds)
Test case 'AuthTests.testLoginSucceeds()' passed on 'Clone 1 of iPhone 15 - FieldOps (48213)' (0.012 seconds)
Test suite 'SyncTests' started on 'Clone 2 of iPhone 15 - FieldOps (48214)'
Test case 'SyncTests.testOfflineQueueDrains()' skipped on 'Clone 2 of iPhone 15 - FieldOps (48214)' (0.001 seconds)
Test case 'SyncTests.testConflictResolution()' passed on 'Clone 2 of iPhone 15 - FieldOps (48214)' (0.020 seconds)

Failing tests:
	AuthTests.testLoginFailsWithExpiredToken()

** TEST FAILED **
`;

const UNITY_FAIL = `test_ringbuf.c:31:test_ringbuf_push_pop:PASS
test_ringbuf.c:77:test_ringbuf_wraps_on_overflow:FAIL: Expected 5 Was 0
test_ringbuf.c:92:test_ringbuf_peek_empty:FAIL: Expected NULL Was 0x00000001
test_ringbuf.c:101:test_ringbuf_resize:IGNORE: not yet implemented

-----------------------
4 Tests 2 Failures 1 Ignored 
FAIL
`;

const UNITY_PASS = `test_crc.c:12:test_crc16_known_vector:PASS
test_crc.c:20:test_crc16_empty:PASS

-----------------------
2 Tests 0 Failures 0 Ignored 
OK
`;

// ctest --output-on-failure: the failing program's Unity output is shown.
const CTEST_FAIL = `Test project /home/dev/firmware/build
    Start 1: crc
1/4 Test #1: crc ..............................   Passed    0.00 sec
    Start 2: ringbuf
2/4 Test #2: ringbuf ..........................***Failed    0.01 sec
test_ringbuf.c:31:test_ringbuf_push_pop:PASS
test_ringbuf.c:77:test_ringbuf_wraps_on_overflow:FAIL: Expected 5 Was 0
test_ringbuf.c:92:test_ringbuf_peek_empty:PASS

-----------------------
3 Tests 1 Failures 0 Ignored 
FAIL

    Start 3: uart_loopback
3/4 Test #3: uart_loopback ....................***Skipped   0.00 sec
    Start 4: scheduler
4/4 Test #4: scheduler ........................   Passed    0.02 sec

75% tests passed, 1 tests failed out of 4

Total Test time (real) =   0.05 sec

The following tests did not run:
	  3 - uart_loopback (Skipped)

The following tests FAILED:
	  2 - ringbuf (Failed)
Errors while running CTest
Output from these tests are in: /home/dev/firmware/build/Testing/Temporary/LastTest.log
Use "--rerun-failed --output-on-failure" to re-run the failed cases verbosely.
`;

const CTEST_PASS = `Test project /home/dev/firmware/build
    Start 1: crc
1/2 Test #1: crc ..............................   Passed    0.00 sec
    Start 2: ringbuf
2/2 Test #2: ringbuf ..........................   Passed    0.01 sec

100% tests passed, 0 tests failed out of 2

Total Test time (real) =   0.02 sec
`;

const DBT_FAIL = `12:00:00  Running with dbt=1.8.3
12:00:01  Registered adapter: postgres=1.8.2
12:00:01  Found 14 models, 112 data tests, 3 sources, 415 macros
12:00:01  
12:00:01  Concurrency: 4 threads (target='dev')
12:00:01  
12:00:02  1 of 112 START test accepted_values_dim_customers_status__active__churned .. [RUN]
12:00:02  1 of 112 PASS accepted_values_dim_customers_status__active__churned ........ [PASS in 0.12s]
12:00:03  37 of 112 START test unique_dim_customers_customer_id ...................... [RUN]
12:00:03  37 of 112 FAIL 37 unique_dim_customers_customer_id ......................... [FAIL 37 in 0.10s]
12:00:03  38 of 112 START test relationships_fct_orders_customer_id__customer_id__ref_dim_customers_  [RUN]
12:00:03  38 of 112 ERROR relationships_fct_orders_customer_id__customer_id__ref_dim_customers_  [ERROR in 0.05s]
12:00:03  39 of 112 WARN 2 not_null_fct_orders_coupon_code ........................... [WARN 2 in 0.08s]
12:00:05  
12:00:05  Finished running 112 data tests in 0 hours 0 minutes and 4.12 seconds (4.12s).
12:00:05  
12:00:05  Completed with 2 errors and 1 warning:
12:00:05  
12:00:05  Failure in test unique_dim_customers_customer_id (models/marts/schema.yml)
12:00:05    Got 37 results, configured to fail if != 0
12:00:05  
12:00:05    compiled code at target/compiled/shop/models/marts/schema.yml/unique_dim_customers_customer_id.sql
12:00:05  
12:00:05  Database Error in test relationships_fct_orders_customer_id__customer_id__ref_dim_customers_ (models/marts/schema.yml)
12:00:05    column "customer_id" does not exist
12:00:05  
12:00:05  Warning in test not_null_fct_orders_coupon_code (models/marts/schema.yml)
12:00:05  Got 2 results, configured to warn if != 0
12:00:05  
12:00:05  Done. PASS=109 WARN=1 ERROR=2 SKIP=0 NO-OP=0 TOTAL=112
`;

const DBT_PASS = `12:10:00  Running with dbt=1.8.3
12:10:01  Found 14 models, 112 data tests, 3 sources, 415 macros
12:10:05  Finished running 112 data tests in 0 hours 0 minutes and 3.87 seconds (3.87s).
12:10:05  
12:10:05  Completed successfully
12:10:05  
12:10:05  Done. PASS=112 WARN=0 ERROR=0 SKIP=0 NO-OP=0 TOTAL=112
`;

// dbt in colour: the results and the summary's word are coloured.
const DBT_ANSI = [
  `12:00:03  3 of 4 FAIL 2 ${ESC}[31mnot_null_stg_orders_order_id${ESC}[0m ......................... [${ESC}[31mFAIL 2${ESC}[0m in 0.10s]`,
  `12:00:05  ${ESC}[31mCompleted with 1 error and 0 warnings:${ESC}[0m`,
  `12:00:05  ${ESC}[31mFailure in test not_null_stg_orders_order_id (models/staging/schema.yml)${ESC}[0m`,
  '12:00:05    Got 2 results, configured to fail if != 0',
  '12:00:05  Done. PASS=3 WARN=0 ERROR=1 SKIP=0 TOTAL=4',
  '',
].join('\n');

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
  PYTEST_NO_SUMMARY,
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
  RSPEC_PASS,
  RSPEC_FAIL,
  RSPEC_ANSI,
  RSPEC_LOAD_ERROR,
  MAVEN_PASS,
  MAVEN_FAIL,
  MAVEN_LEGACY,
  GRADLE_FAIL,
  GRADLE_PASS,
  GRADLE_EVENTS,
  DOTNET_FAIL,
  DOTNET_PASS,
  DOTNET_MTP,
  DOTNET_LEGACY,
  DOTNET_CORE3,
  PLAYWRIGHT_FAIL,
  PLAYWRIGHT_PASS,
  PLAYWRIGHT_ANSI,
  PHPUNIT_FAIL,
  PHPUNIT_PASS,
  PHPUNIT_ANSI,
  PEST_FAIL,
  PEST_PASS,
  PEST_ANSI,
  EXUNIT_FAIL,
  EXUNIT_PASS,
  EXUNIT_UMBRELLA,
  XCTEST_FAIL,
  XCTEST_SWIFT,
  XCTEST_PARALLEL,
  UNITY_FAIL,
  UNITY_PASS,
  CTEST_FAIL,
  CTEST_PASS,
  DBT_FAIL,
  DBT_PASS,
  DBT_ANSI,
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

  it('names failures from the FAILURES and ERRORS headers when there is neither a short summary nor -v lines', () => {
    expect(parseTestOutput(PYTEST_NO_SUMMARY, 'pytest -rN')).toEqual({
      runner: 'pytest',
      passed: 4,
      failed: 3,
      skipped: 0,
      failures: ['test_discount', 'test_total', 'TestCart.test_remove[apple]'],
    });
    const quiet = PYTEST_QUIET.replace(/^=+ short test summary info =+\nFAILED .*\n/m, '');
    expect(parseTestOutput(quiet, 'pytest -q')?.failures).toEqual(['TestCart.test_remove[apple]']);
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

  it('recognises an all-ok run from its package lines, as a pass without counts', () => {
    const run = parseTestOutput(GO_ALL_OK, 'go test -cover ./...');
    expect(run).toEqual({ runner: 'go', passed: 0, failed: 0, skipped: 0, failures: [], uncounted: true });
    expect(countsText(run!)).toBe('passed (no per-test counts in the output)');
    expect(runPassed(run!)).toBe(true);
  });

  it('is no pass when go ends with a lone FAIL (a package failed above what the output kept)', () => {
    const cut = 'ok  \texample.com/c\t0.011s\nok  \texample.com/d\t(cached)\nFAIL\n';
    const run = parseTestOutput(cut, 'go test ./... 2>&1 | tail -3');
    expect(run?.uncounted).toBeUndefined();
    expect(runPassed(run!)).toBe(false);
  });

  it('does not call a run with no tests in it a pass', () => {
    const none = 'ok  \texample.com/calc\t0.004s [no tests to run]\n?   \texample.com/calc/cmd\t[no test files]\n';
    const run = parseTestOutput(none, 'go test -run TestNothing ./...');
    expect(run).toEqual({ runner: 'go', passed: 0, failed: 0, skipped: 0, failures: [] });
    expect(countsText(run!)).toBe('0 passed, 0 failed');
    expect(runPassed(run!)).toBe(false);
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

describe('rspec', () => {
  it('reads a passing run, counting pending as skipped', () => {
    expect(parseTestOutput(RSPEC_PASS, 'bundle exec rspec')).toEqual({ runner: 'rspec', passed: 11, failed: 0, skipped: 1, failures: [] });
  });

  it('names failures from the rerun lines, quoted ids included, and not the pending example', () => {
    expect(parseTestOutput(RSPEC_FAIL, 'bundle exec rspec')).toEqual({
      runner: 'rspec',
      passed: 9,
      failed: 2,
      skipped: 1,
      failures: ['Order#total applies the coupon before tax', 'Checkout with an expired card shows an error'],
    });
  });

  it('reads coloured output', () => {
    expect(parseTestOutput(RSPEC_ANSI)).toEqual({ runner: 'rspec', passed: 2, failed: 1, skipped: 0, failures: ['Order#total applies the coupon before tax'] });
  });

  it('falls back to the Failures: headers when the rerun list is cut off', () => {
    const cut = RSPEC_FAIL.slice(0, RSPEC_FAIL.indexOf('Failed examples:'));
    expect(parseTestOutput(cut, 'rspec')?.failures).toEqual(['Order#total applies the coupon before tax', 'Checkout with an expired card shows an error']);
  });

  it('counts a file that failed to load as a failure named by its path', () => {
    expect(parseTestOutput(RSPEC_LOAD_ERROR, 'rspec spec/models')).toEqual({
      runner: 'rspec',
      passed: 0,
      failed: 1,
      skipped: 0,
      failures: ['./spec/models/invoice_spec.rb'],
    });
  });

  it('takes no prose or minitest summary for its own', () => {
    expect(parseTestOutput('The guide has 12 examples, 1 failure mode and a FAQ.\n', 'cat README')).toBeUndefined();
    const minitest = 'Finished in 0.0124s, 241.9 runs/s, 403.2 assertions/s.\n3 runs, 5 assertions, 1 failures, 0 errors, 0 skips\n';
    expect(parseTestOutput(minitest, 'bin/rails test')).toBeUndefined();
  });
});

describe('maven', () => {
  it('reads the Results summary, not the per-class lines', () => {
    expect(parseTestOutput(MAVEN_PASS, 'mvn test')).toEqual({ runner: 'maven', passed: 40, failed: 0, skipped: 2, failures: [] });
  });

  it('counts errors as failed and names the Results entries', () => {
    expect(parseTestOutput(MAVEN_FAIL, './mvnw -q verify')).toEqual({
      runner: 'maven',
      passed: 40,
      failed: 2,
      skipped: 0,
      failures: ['OrderServiceTest.shouldRejectDuplicateIdempotencyKey', 'OrderServiceTest.shouldLoadOrderHistory'],
    });
  });

  it('reads surefire 2 without log prefixes', () => {
    expect(parseTestOutput(MAVEN_LEGACY, 'mvn test')).toEqual({
      runner: 'maven',
      passed: 2,
      failed: 2,
      skipped: 1,
      failures: ['roundsHalfUp(com.acme.money.RoundingTest)', 'parsesNegative(com.acme.money.RoundingTest)'],
    });
  });

  it('sums the per-class lines and names the <<< FAILURE! lines of a run cut before its Results', () => {
    const cut = MAVEN_FAIL.slice(0, MAVEN_FAIL.indexOf('[INFO] Results:'));
    expect(parseTestOutput(cut, 'mvn test')).toEqual({
      runner: 'maven',
      passed: 40,
      failed: 2,
      skipped: 0,
      failures: ['com.acme.orders.OrderServiceTest.shouldRejectDuplicateIdempotencyKey', 'com.acme.orders.OrderServiceTest.shouldLoadOrderHistory'],
    });
  });

  it('sums the modules of a reactor build, names a rerun test once and leaves flaky ones out', () => {
    const module2 = [
      '[INFO] Results:',
      '[INFO] ',
      '[ERROR] Failures: ',
      '[ERROR] com.acme.billing.InvoiceTest.totalsLines',
      '[ERROR]   Run 1: InvoiceTest.totalsLines:40 expected: <3> but was: <2>',
      '[ERROR]   Run 2: InvoiceTest.totalsLines:40 expected: <3> but was: <2>',
      '[INFO] ',
      '[WARNING] Flakes: ',
      '[WARNING] com.acme.billing.PaymentTest.retriesTimeout',
      '[ERROR]   Run 1: PaymentTest.retriesTimeout:44 Timeout',
      '[INFO]   Run 2: PASS',
      '[INFO] ',
      '[ERROR] Tests run: 9, Failures: 1, Errors: 0, Skipped: 0, Flakes: 1',
      '',
    ].join('\n');
    expect(parseTestOutput(`${MAVEN_PASS}${module2}`, 'mvn -fae test')).toEqual({
      runner: 'maven',
      passed: 48,
      failed: 1,
      skipped: 2,
      failures: ['com.acme.billing.InvoiceTest.totalsLines'],
    });
  });

  it('reads coloured output', () => {
    const out = `${ESC}[1;31mERROR${ESC}[m] ${ESC}[1;31mFailures: ${ESC}[m\n[${ESC}[1;31mERROR${ESC}[m] ${ESC}[1;31m  PriceTest.rounds:12 expected: <1> but was: <2>${ESC}[m\n[${ESC}[1;31mERROR${ESC}[m] ${ESC}[1;31mTests run: 3, Failures: 1, Errors: 0, Skipped: 0${ESC}[m\n`;
    expect(parseTestOutput(`[${out}`)).toEqual({ runner: 'maven', passed: 2, failed: 1, skipped: 0, failures: ['PriceTest.rounds'] });
  });

  it("takes neither JUnit's own runner nor prose for a surefire summary", () => {
    expect(parseTestOutput('FAILURES!!!\nTests run: 3,  Failures: 1\n', 'java org.junit.runner.JUnitCore FooTest')).toBeUndefined();
    expect(parseTestOutput('The log said Tests run: 5, Failures: 0, Errors: 0, Skipped: 0 twice.\n')).toBeUndefined();
  });
});

describe('gradle', () => {
  it('reads the summary and names the FAILED lines, nested classes included', () => {
    expect(parseTestOutput(GRADLE_FAIL, './gradlew test')).toEqual({
      runner: 'gradle',
      passed: 9,
      failed: 2,
      skipped: 1,
      failures: ['DedupProcessorTest > drops replayed events within window()', 'DedupProcessorTest > WindowTests > keeps events after the window closes()'],
    });
  });

  it('recognises a passing run, which prints no counts', () => {
    const run = parseTestOutput(GRADLE_PASS, 'gradle test');
    expect(run).toEqual({ runner: 'gradle', passed: 0, failed: 0, skipped: 0, failures: [], uncounted: true });
    expect(countsText(run!)).toBe('passed (no per-test counts in the output)');
  });

  it('is no pass when its test task ran nothing, or the build failed, and names every failed test task', () => {
    const built = (tasks: string, result: string) => `${tasks}\n\n${result} in 3s\n`;
    for (const marker of ['NO-SOURCE', 'SKIPPED', 'UP-TO-DATE']) {
      const run = parseTestOutput(built(`> Task :test ${marker}`, 'BUILD SUCCESSFUL'), './gradlew test');
      expect(run?.uncounted).toBeUndefined();
      expect(runPassed(run!)).toBe(false);
    }
    const cont = parseTestOutput(built('> Task :a:test FAILED\n> Task :b:test', 'BUILD FAILED'), './gradlew test --continue');
    expect(cont).toEqual({ runner: 'gradle', passed: 0, failed: 1, skipped: 0, failures: [':a:test'] });
    expect(parseTestOutput(built('> Task :test', 'BUILD FAILED'), './gradlew test')?.uncounted).toBeUndefined();
  });

  it('counts logged test events when there is no summary', () => {
    expect(parseTestOutput(GRADLE_EVENTS, './gradlew :app:testDebugUnitTest')).toEqual({ runner: 'gradle', passed: 2, failed: 0, skipped: 1, failures: [] });
  });

  it('reads a run cut before its summary from the FAILED lines, and colours', () => {
    const cut = GRADLE_FAIL.slice(0, GRADLE_FAIL.indexOf('12 tests completed'));
    expect(parseTestOutput(cut, './gradlew test')).toMatchObject({ runner: 'gradle', failed: 2 });
    const coloured = GRADLE_FAIL.replace(/ FAILED\n/g, ` ${ESC}[31mFAILED${ESC}[39m\n`);
    expect(parseTestOutput(coloured)?.failures).toHaveLength(2);
  });

  it('counts a test task that failed without a failing test as one failure named by the task', () => {
    const out = '> Task :app:testDebugUnitTest FAILED\n\nFAILURE: Build failed with an exception.\n\nBUILD FAILED in 3s\n';
    expect(parseTestOutput(out, './gradlew test')).toEqual({ runner: 'gradle', passed: 0, failed: 1, skipped: 0, failures: [':app:testDebugUnitTest'] });
  });

  it('takes no compile failure, prose or stray "a > b FAILED" line for a test run', () => {
    const compile = '> Task :compileTestJava FAILED\nFooTest.java:3: error: cannot find symbol\n\nBUILD FAILED in 2s\n';
    expect(parseTestOutput(compile, './gradlew test')).toBeUndefined();
    expect(parseTestOutput('retry > upload FAILED\n')).toBeUndefined();
    expect(parseTestOutput('All 3 tests completed, 1 failed to start.\n')).toBeUndefined();
  });
});

describe('dotnet test', () => {
  it('reads a failing run and names the Failed lines without their durations', () => {
    expect(parseTestOutput(DOTNET_FAIL, 'dotnet test')).toEqual({
      runner: 'dotnet',
      passed: 39,
      failed: 2,
      skipped: 1,
      failures: [
        'Invoicing.Tests.InvoiceControllerTests.Post_WithNegativeAmount_Returns400',
        'Invoicing.Tests.TaxTests.Rounds_half_up(amount: 2.345, expected: 2.35)',
      ],
    });
  });

  it('sums the result lines of every test assembly', () => {
    expect(parseTestOutput(DOTNET_PASS, 'dotnet test Invoicing.sln')).toEqual({ runner: 'dotnet', passed: 53, failed: 0, skipped: 1, failures: [] });
  });

  it("reads Microsoft.Testing.Platform's summary", () => {
    expect(parseTestOutput(DOTNET_MTP, 'dotnet test')).toEqual({
      runner: 'dotnet',
      passed: 9,
      failed: 1,
      skipped: 1,
      failures: ['Shop.Tests.ProductApiTests.Creating_a_product_needs_the_admin_role'],
    });
  });

  it("reads older SDKs' Total tests blocks, and their failure lines", () => {
    const name = 'Invoicing.Tests.InvoiceControllerTests.Post_WithNegativeAmount_Returns400';
    expect(parseTestOutput(DOTNET_LEGACY, 'dotnet test')).toEqual({ runner: 'dotnet', passed: 41, failed: 1, skipped: 0, failures: [name] });
    expect(parseTestOutput(DOTNET_CORE3, 'dotnet test')).toEqual({ runner: 'dotnet', passed: 40, failed: 1, skipped: 1, failures: [name] });
  });

  it('reads coloured output', () => {
    const out = `  ${ESC}[31mFailed${ESC}[39m Invoicing.Tests.TaxTests.Rounds [3 ms]\n  ${ESC}[31mError Message:${ESC}[39m\n   boom\n\n${ESC}[31;1mFailed!${ESC}[0m  - Failed:     1, Passed:     4, Skipped:     0, Total:     5, Duration: 88 ms - Invoicing.Tests.dll (net8.0)\n`;
    expect(parseTestOutput(out)).toEqual({ runner: 'dotnet', passed: 4, failed: 1, skipped: 0, failures: ['Invoicing.Tests.TaxTests.Rounds'] });
  });

  it("takes a script's own Total tests lines and other Failed lines for no dotnet run", () => {
    const script = 'Total tests: 12\nPassed: 10\nFailed: 2\n';
    expect(parseTestOutput(script, 'python run_tests.py')).toBeUndefined();
    const noise = `  Failed to restore /src/App.csproj\n${DOTNET_PASS}`;
    expect(parseTestOutput(noise, 'dotnet test')?.failures).toEqual([]);
  });
});

describe('playwright', () => {
  it('counts flaky as passed and did-not-run as skipped, and names the failed list without its rule', () => {
    expect(parseTestOutput(PLAYWRIGHT_FAIL, 'npx playwright test')).toEqual({
      runner: 'playwright',
      passed: 16,
      failed: 2,
      skipped: 2,
      failures: ['[chromium] › checkout.spec.ts:42:5 › guest can apply a gift card', '[firefox] › search.spec.ts:20:3 › filters › by price'],
    });
  });

  it('reads a passing run', () => {
    expect(parseTestOutput(PLAYWRIGHT_PASS, 'npx playwright test')).toEqual({ runner: 'playwright', passed: 6, failed: 0, skipped: 0, failures: [] });
  });

  it('reads coloured output', () => {
    expect(parseTestOutput(PLAYWRIGHT_ANSI)).toEqual({
      runner: 'playwright',
      passed: 4,
      failed: 1,
      skipped: 0,
      failures: ['[chromium] › checkout.spec.ts:42:5 › guest can apply a gift card'],
    });
  });

  it('falls back to the numbered headers, flaky tests left out, and reads a run whose head was cut', () => {
    const noList = PLAYWRIGHT_FAIL.replace(/^ {4}\[.*\n/gm, '');
    expect(parseTestOutput(noList)?.failures).toEqual([
      '[chromium] › checkout.spec.ts:42:5 › guest can apply a gift card',
      '[firefox] › search.spec.ts:20:3 › filters › by price',
      '[chromium] › profile.spec.ts:9:5 › uploads an avatar',
    ]);
    const tail = PLAYWRIGHT_FAIL.slice(PLAYWRIGHT_FAIL.indexOf('  2 failed'));
    expect(parseTestOutput(tail)).toMatchObject({ runner: 'playwright', passed: 16, failed: 2 });
    expect(parseTestOutput(PLAYWRIGHT_FAIL.slice(0, PLAYWRIGHT_FAIL.indexOf('  2 failed')), 'npx playwright test')).toBeUndefined();
  });

  it("takes mocha's summary or a lone count line for no Playwright run", () => {
    expect(parseTestOutput(MOCHA_FAIL, 'npx mocha')?.runner).toBe('mocha');
    expect(parseTestOutput('Deploy summary:\n  2 failed\n  1 skipped\n', 'bash deploy.sh')).toBeUndefined();
  });
});

describe('phpunit', () => {
  it('counts errors as failed and names the failure and error entries, not the skipped ones', () => {
    expect(parseTestOutput(PHPUNIT_FAIL, 'vendor/bin/phpunit')).toEqual({
      runner: 'phpunit',
      passed: 22,
      failed: 2,
      skipped: 1,
      failures: ['Tests\\Unit\\CsvReaderTest::test_reads_bom_prefixed_files', 'Tests\\Feature\\ContactImportTest::test_import_skips_duplicate_emails'],
    });
  });

  it('reads OK (25 tests, 60 assertions)', () => {
    expect(parseTestOutput(PHPUNIT_PASS, 'vendor/bin/phpunit')).toEqual({ runner: 'phpunit', passed: 25, failed: 0, skipped: 0, failures: [] });
  });

  it('reads coloured output and data-set names', () => {
    expect(parseTestOutput(PHPUNIT_ANSI)).toEqual({
      runner: 'phpunit',
      passed: 10,
      failed: 2,
      skipped: 0,
      failures: ['Tests\\Unit\\MoneyTest::test_rounds with data set #1 (2.345, 2.35)', 'Tests\\Unit\\MoneyTest::test_formats_negative_amounts'],
    });
  });

  it('gives nothing for a run cut before its summary, and takes no JUnit OK line for its own', () => {
    expect(parseTestOutput(PHPUNIT_FAIL.slice(0, PHPUNIT_FAIL.indexOf('ERRORS!')), 'vendor/bin/phpunit')).toBeUndefined();
    expect(parseTestOutput('OK (3 tests)\n', 'java junit.textui.TestRunner')).toBeUndefined();
  });
});

describe('pest', () => {
  it('names the FAILED headers without the exception class after them', () => {
    expect(parseTestOutput(PEST_FAIL, 'php artisan test')).toEqual({
      runner: 'pest',
      passed: 22,
      failed: 2,
      skipped: 1,
      failures: [
        'Tests\\Feature\\ContactImportTest > import skips duplicate emails',
        'Tests\\Feature\\ContactImportTest > import rejects a file without header',
      ],
    });
  });

  it('reads a passing run, counting todos as skipped', () => {
    expect(parseTestOutput(PEST_PASS, './vendor/bin/pest')).toEqual({ runner: 'pest', passed: 24, failed: 0, skipped: 1, failures: [] });
  });

  it('reads coloured --compact output', () => {
    expect(parseTestOutput(PEST_ANSI)).toEqual({
      runner: 'pest',
      passed: 2,
      failed: 1,
      skipped: 0,
      failures: ['Tests\\Unit\\SlugTest > it keeps unicode letters'],
    });
  });

  it('falls back to the ⨯ lines when the FAILED details are cut out', () => {
    const cut = PEST_FAIL.replace(/ {3}FAILED .*\n/g, '');
    expect(parseTestOutput(cut, 'php artisan test')?.failures).toEqual(['import skips duplicate emails', 'import rejects a file without header']);
  });

  it("leaves jest's Tests: line to jest", () => {
    expect(parseTestOutput(JEST_FAIL, 'php artisan test')?.runner).toBe('jest');
    expect(parseTestOutput('Tests:       3 passed, 3 total\n')?.runner).toBe('jest');
  });
});

describe('mix test (ExUnit)', () => {
  it('sums the kinds, names tests and doctests, and counts skipped', () => {
    expect(parseTestOutput(EXUNIT_FAIL, 'mix test')).toEqual({
      runner: 'exunit',
      passed: 8,
      failed: 2,
      skipped: 1,
      failures: ['test rejects join for banned users (ChatWeb.RoomChannelTest)', 'doctest Chat.Slug.slugify/1 (1) (Chat.SlugTest)'],
    });
  });

  it('reads a passing run', () => {
    expect(parseTestOutput(EXUNIT_PASS, 'mix test')).toEqual({ runner: 'exunit', passed: 10, failed: 0, skipped: 0, failures: [] });
  });

  it("sums an umbrella project's apps, excluded tests counting nowhere", () => {
    expect(parseTestOutput(EXUNIT_UMBRELLA, 'mix test')).toEqual({
      runner: 'exunit',
      passed: 5,
      failed: 1,
      skipped: 0,
      failures: ['test GET / renders the lobby (ChatWeb.PageControllerTest)'],
    });
  });

  it('counts invalid tests as failed, named by the module whose setup_all failed, in colour', () => {
    const out = [
      '  1) ChatWeb.PresenceTest: failure on setup_all callback, all tests have been invalidated',
      '     ** (MatchError) no match of right hand side value: {:error, :econnrefused}',
      '',
      'Finished in 0.05 seconds (0.05s async, 0.00s sync)',
      `${ESC}[31m5 tests, 0 failures, 3 invalid${ESC}[0m`,
      '',
    ].join('\n');
    expect(parseTestOutput(out)).toEqual({ runner: 'exunit', passed: 2, failed: 3, skipped: 0, failures: ['ChatWeb.PresenceTest'] });
  });

  it('reports only the last run when one is rerun, and takes no rspec summary for its own', () => {
    expect(parseTestOutput(`${EXUNIT_FAIL}\n${EXUNIT_PASS}`, 'mix test.watch')).toMatchObject({ runner: 'exunit', passed: 10, failed: 0, failures: [] });
    expect(parseTestOutput('5 examples, 1 failure\n')?.runner).toBe('rspec');
    expect(parseTestOutput('We shipped 10 tests, 1 failure too many.\n')).toBeUndefined();
  });
});

// Swift 6's `swift test`: XCTest's summary (here of no test), then swift-testing's run.
const SWIFT_TESTING = [
  'Build complete! (2.31s)',
  "Test Suite 'All tests' started at 2025-03-01 10:00:00.000.",
  "Test Suite 'All tests' passed at 2025-03-01 10:00:00.001.",
  '\t Executed 0 tests, with 0 failures (0 unexpected) in 0.000 (0.001) seconds',
  '◇ Test run started.',
  '◇ Test parsesNested() started.',
  '✘ Test parsesNested() recorded an issue at ParserTests.swift:8:5: Expectation failed: (result → 2) == 3',
  '✘ Test parsesNested() failed after 0.001 seconds with 1 issue.',
  '✔ Test parsesEmpty() passed after 0.001 seconds.',
  '✘ Test "rejects a bad header" failed after 0.002 seconds with 2 issues.',
  '➜ Test slowPath() skipped: "needs a device"',
  '✘ Test run with 4 tests failed after 0.003 seconds with 3 issues.',
  '',
].join('\n');

describe('swift-testing', () => {
  it('reads its run after an empty XCTest summary: a failing run is no clean one', () => {
    expect(parseTestOutput(SWIFT_TESTING, 'swift test')).toEqual({
      runner: 'xctest',
      passed: 1,
      failed: 2,
      skipped: 1,
      failures: ['parsesNested()', '"rejects a bad header"'],
    });
  });

  it('sums XCTest and swift-testing runs of one `swift test`', () => {
    const xctest = XCTEST_SWIFT.replace(/\n$/, '');
    const run = parseTestOutput(`${xctest}\n◇ Test run started.\n✔ Test run with 3 tests in 1 suite passed after 0.01 seconds.\n`, 'swift test');
    expect(run).toMatchObject({ runner: 'xctest', passed: 4, failed: 1, failures: ['AuthTests.testLoginFailsWithExpiredToken'] });
  });
});

describe('xctest', () => {
  it('reads the All tests totals, counting failed tests rather than failed assertions', () => {
    expect(parseTestOutput(XCTEST_FAIL, 'xcodebuild test -scheme FieldOps -destination "platform=macOS"')).toEqual({
      runner: 'xctest',
      passed: 2,
      failed: 2,
      skipped: 1,
      failures: ['FieldOpsTests.AuthTests.testLoginFailsWithExpiredToken', 'FieldOpsTests.SyncTests.testConflictResolution'],
    });
  });

  it('reads swift test on Linux', () => {
    expect(parseTestOutput(XCTEST_SWIFT, 'swift test')).toEqual({
      runner: 'xctest',
      passed: 1,
      failed: 1,
      skipped: 0,
      failures: ['AuthTests.testLoginFailsWithExpiredToken'],
    });
  });

  it("counts a parallel run's test case lines once it ended", () => {
    expect(parseTestOutput(XCTEST_PARALLEL, 'xcodebuild test -scheme FieldOps')).toEqual({
      runner: 'xctest',
      passed: 2,
      failed: 1,
      skipped: 1,
      failures: ['AuthTests.testLoginFailsWithExpiredToken()'],
    });
    expect(parseTestOutput(XCTEST_PARALLEL.slice(0, XCTEST_PARALLEL.indexOf('Failing tests:')))).toBeUndefined();
  });

  it('sums the test bundles, and reads a run cut before its All tests line from the last suite', () => {
    expect(parseTestOutput(`${XCTEST_FAIL}${XCTEST_SWIFT}`, 'xcodebuild test')).toMatchObject({ runner: 'xctest', passed: 3, failed: 3, skipped: 1 });
    const cut = XCTEST_FAIL.slice(0, XCTEST_FAIL.indexOf("Test Suite 'All tests' failed"));
    expect(parseTestOutput(cut)).toMatchObject({ runner: 'xctest', passed: 2, failed: 2, skipped: 1 });
  });

  it('takes no prose about executed tests for a run', () => {
    expect(parseTestOutput('Executed 3 tests on the staging box; all fine.\n')).toBeUndefined();
    expect(parseTestOutput("Test Case 'login' passed (by hand).\n")).toBeUndefined();
  });
});

describe('unity (C)', () => {
  it('counts ignored as skipped and names the FAIL lines by their function', () => {
    expect(parseTestOutput(UNITY_FAIL, './build/test_ringbuf')).toEqual({
      runner: 'unity',
      passed: 1,
      failed: 2,
      skipped: 1,
      failures: ['test_ringbuf_wraps_on_overflow', 'test_ringbuf_peek_empty'],
    });
  });

  it('sums the binaries of a run, and reads colours', () => {
    const coloured = UNITY_FAIL.replace(/:FAIL/g, `:${ESC}[41mFAIL${ESC}[0m`).replace(/^FAIL$/m, `${ESC}[41mFAIL${ESC}[0m`);
    expect(parseTestOutput(`${UNITY_PASS}${coloured}`, 'make test')).toEqual({
      runner: 'unity',
      passed: 3,
      failed: 2,
      skipped: 1,
      failures: ['test_ringbuf_wraps_on_overflow', 'test_ringbuf_peek_empty'],
    });
  });

  it('reads the lines ctest -V prefixes, and nothing from a run cut before its summary', () => {
    const verbose = UNITY_FAIL.split('\n')
      .map((l) => (l === '' ? l : `2: ${l}`))
      .join('\n');
    expect(parseTestOutput(verbose)).toMatchObject({ runner: 'unity', failed: 2, failures: ['test_ringbuf_wraps_on_overflow', 'test_ringbuf_peek_empty'] });
    expect(parseTestOutput(UNITY_FAIL.slice(0, UNITY_FAIL.indexOf('----')), './build/test_ringbuf')).toBeUndefined();
  });

  it('takes no prose for a Unity summary', () => {
    expect(parseTestOutput('We ran 3 Tests 1 Failures 0 Ignored on Monday\n')).toBeUndefined();
  });
});

describe('ctest', () => {
  it('counts CTest tests, skipped from the did-not-run list, and names the FAILED list, then the Unity cases inside', () => {
    expect(parseTestOutput(CTEST_FAIL, 'ctest --test-dir build --output-on-failure')).toEqual({
      runner: 'ctest',
      passed: 2,
      failed: 1,
      skipped: 1,
      failures: ['ringbuf', 'test_ringbuf_wraps_on_overflow'],
    });
  });

  it('reads a passing run, and CTest 4 summaries', () => {
    expect(parseTestOutput(CTEST_PASS, 'ctest')).toEqual({ runner: 'ctest', passed: 2, failed: 0, skipped: 0, failures: [] });
    expect(parseTestOutput('100% tests passed out of 8\n\nTotal Test time (real) =   0.31 sec\n', 'ctest')).toMatchObject({ runner: 'ctest', passed: 8 });
    const labelled = CTEST_FAIL.replace('2 - ringbuf (Failed)', '2 - ringbuf (Failed)  unit hal');
    expect(parseTestOutput(labelled, 'ctest')?.failures).toEqual(['ringbuf', 'test_ringbuf_wraps_on_overflow']);
  });

  it('names failures from the run lines when the lists are cut off, and reads colours', () => {
    const cut = CTEST_FAIL.slice(0, CTEST_FAIL.indexOf('Total Test time'));
    expect(parseTestOutput(cut, 'ctest')?.failures).toEqual(['ringbuf', 'test_ringbuf_wraps_on_overflow']);
    const coloured = CTEST_FAIL.replace('75% tests passed', `${ESC}[0;32m75% tests passed${ESC}[0;0m`).replace('***Failed', `${ESC}[0;31m***Failed${ESC}[0;0m`);
    expect(parseTestOutput(coloured, 'ctest')).toMatchObject({ runner: 'ctest', failed: 1, failures: ['ringbuf', 'test_ringbuf_wraps_on_overflow'] });
  });

  it('takes no percentage in prose for a summary', () => {
    expect(parseTestOutput('Coverage: 75% tests passed, 1 tests failed out of 4 last week, per the wiki.\n')).toBeUndefined();
  });
});

describe('dbt', () => {
  it('counts failed tests under ERROR, warned ones as passed, and names the Failure in / Error in lines', () => {
    expect(parseTestOutput(DBT_FAIL, 'dbt test')).toEqual({
      runner: 'dbt',
      passed: 110,
      failed: 2,
      skipped: 0,
      failures: ['unique_dim_customers_customer_id', 'relationships_fct_orders_customer_id__customer_id__ref_dim_customers_'],
    });
  });

  it('reads a passing run', () => {
    expect(parseTestOutput(DBT_PASS, 'dbt build --select marts')).toEqual({ runner: 'dbt', passed: 112, failed: 0, skipped: 0, failures: [] });
  });

  it('reads coloured output, and names the result lines when the details are cut out', () => {
    expect(parseTestOutput(DBT_ANSI)).toEqual({ runner: 'dbt', passed: 3, failed: 1, skipped: 0, failures: ['not_null_stg_orders_order_id'] });
    const noDetails = DBT_FAIL.replace(/^.*(?:Failure|Error) in test.*\n/gm, '');
    expect(parseTestOutput(noDetails, 'dbt test')?.failures).toEqual([
      'unique_dim_customers_customer_id',
      'relationships_fct_orders_customer_id__customer_id__ref_dim_customers_',
    ]);
  });

  it('a `dbt run` of models alone is no test run, though it prints the same Done line', () => {
    const run = [
      '12:00:00  Running with dbt=1.8.3',
      '12:00:04  1 of 2 OK created sql table model main.stg_orders ....... [OK in 0.11s]',
      '12:00:05  Finished running 2 table models in 0 hours 0 minutes and 1.02 seconds (1.02s).',
      '12:00:05  Done. PASS=2 WARN=0 ERROR=0 SKIP=0 TOTAL=2',
      '',
    ].join('\n');
    expect(parseTestOutput(run, 'dbt run')).toBeUndefined();
  });

  it("takes another script's Done. line without a total for no dbt run", () => {
    expect(parseTestOutput('Done. PASS=3 FAIL=1\n', 'python check.py')).toBeUndefined();
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

  // One output holding a run of each of the newer runners: the command names the one it ran.
  const many = [
    RSPEC_PASS,
    MAVEN_PASS,
    GRADLE_FAIL,
    DOTNET_PASS,
    PLAYWRIGHT_PASS,
    PHPUNIT_PASS,
    PEST_PASS,
    EXUNIT_PASS,
    XCTEST_SWIFT,
    CTEST_FAIL,
    DBT_PASS,
  ].join('\n');

  it.each([
    ['bundle exec rspec spec/models', 'rspec'],
    ['./mvnw -pl orders verify', 'maven'],
    ['mvn -q test', 'maven'],
    ['./gradlew :app:testDebugUnitTest', 'gradle'],
    ['dotnet test --no-build', 'dotnet'],
    ['npx playwright test --project=chromium', 'playwright'],
    ['vendor/bin/phpunit --testsuite unit', 'phpunit'],
    ['php artisan test --parallel', 'pest'],
    ['./vendor/bin/pest --compact', 'pest'],
    ['MIX_ENV=test mix test --trace', 'exunit'],
    ['xcodebuild -scheme FieldOps -destination "platform=iOS Simulator,name=iPhone 15" test', 'xctest'],
    ['swift test --parallel', 'xctest'],
    ['ctest --test-dir build -j8', 'ctest'],
    ['dbt build --select state:modified+', 'dbt'],
    ['bash ci.sh', 'dbt'],
  ])('lets the command %s pick among the newer runners', (command, runner) => {
    expect(parseTestOutput(many, command)?.runner).toBe(runner);
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
      `${'a > '.repeat(300_000)} FAILED`,
      `[ERROR] ${'x '.repeat(300_000)}Time elapsed: 1 s <<< FAILURE!`,
      `${'failed '.repeat(200_000)}(1ms)`,
      "Test Case '".repeat(200_000),
      '==> app\n1 test, 0 failures\n'.repeat(100_000),
      '  1 failed\n    a › b\n'.repeat(100_000),
      `  Tests:    ${'1 passed, '.repeat(200_000)}`,
      `${'a:1:'.repeat(300_000)}FAIL`,
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
      ' examples, ',
      'Tests run: ',
      ', Failures: ',
      ' > ',
      ' FAILED',
      ' tests completed, ',
      'Failed!  - Failed: ',
      'Test run summary: Failed!',
      ' › ',
      '  2 failed',
      ' passed (1s)',
      'OK (',
      ' assertions)',
      ' tests, ',
      ' failures',
      'Executed ',
      "Test Case '",
      ' Tests ',
      ' Failures ',
      ' Ignored',
      ':FAIL',
      '% tests passed, ',
      ' tests failed out of ',
      'Done. PASS=',
      ' TOTAL=',
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
