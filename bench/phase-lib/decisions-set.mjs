// A labelled set for lib/phase/facts.ts: excerpts of coding sessions (user prompts and assistant
// replies) with the decisions and constraints a reader would put in a phase ledger. Written before
// the extractor was tuned. Items come in pairs of the same kind (dev, then held) so that both
// halves hold the same mix; patterns are tuned on `dev` only, `held` measures them.
//
// A label is a short, distinctive substring of the sentence that states the fact: a predicted fact
// of that kind matches it when its text contains the phrase (case-insensitive).
//
// Labelling rules (kept consistent across items):
// - decision: a choice the assistant made or commits to, including a choice *not* to do something.
//   Not: actions ("I'll read the file", "I'll use grep to find…"), suggestions and hypotheticals
//   ("we could…", "I'd recommend…"), questions, reports of facts or of existing design ("the app
//   uses Redux because…"), plans of steps, and "The fix: …" / "The fix is …" (a repair, not a
//   choice between alternatives).
// - constraint: a user's rule about *how* to work ("never commit to main", "no new dependencies").
//   Not: what to build ("I need a CLI…", "the cache should never serve stale data"), questions,
//   "never mind", "don't worry", bug reports, code.

/** @type {{ id: string, half: 'dev' | 'held', role: 'user' | 'assistant', text: string, decisions: string[], constraints: string[] }[]} */
export const decisionsSet = [
  // --- assistant: "I'll use X because Y"
  {
    id: 'a01-use-because',
    half: 'dev',
    role: 'assistant',
    text: "I looked at how the config is loaded. I'll use zod for validation because it's already a dependency and gives us typed errors for free. Let me update `config.ts` now.",
    decisions: ['use zod for validation'],
    constraints: [],
  },
  {
    id: 'a02-going-to-use-since',
    half: 'held',
    role: 'assistant',
    text: "Checked `src/api/client.ts`: the retry loop is ad hoc. I'm going to use exponential backoff with jitter, since a fixed 1s delay hammers the server when it's already overloaded. Then I'll add a test for the max-attempts case.",
    decisions: ['exponential backoff with jitter'],
    constraints: [],
  },
  // --- assistant: "Decision:" labels
  {
    id: 'a03-bold-decision',
    half: 'dev',
    role: 'assistant',
    text: "**Decision:** keep the cache in memory. The data set is under 5 MB and persisting it would add a migration path we don't need yet.",
    decisions: ['keep the cache in memory'],
    constraints: [],
  },
  {
    id: 'a04-plain-decision',
    half: 'held',
    role: 'assistant',
    text: 'Decision: store timestamps as UTC ISO strings in the DB and convert at the edges. Mixed local times are what caused the off-by-one-day bug in the report.',
    decisions: ['store timestamps as UTC ISO strings'],
    constraints: [],
  },
  // --- assistant: "X over Y"
  {
    id: 'a05-go-with-over',
    half: 'dev',
    role: 'assistant',
    text: "Both would work here, but we'll go with SQLite over Postgres since this is a single-user desktop tool and we don't want users to run a server.",
    decisions: ['go with SQLite over Postgres'],
    constraints: [],
  },
  {
    id: 'a06-picking-rather-than',
    half: 'held',
    role: 'assistant',
    text: "For the queue I'm picking BullMQ rather than a hand-rolled Redis list: it already handles retries, delays and stalled jobs.",
    decisions: ['picking BullMQ rather than'],
    constraints: [],
  },
  // --- assistant: terse approach choice
  {
    id: 'a07-going-with-approach',
    half: 'dev',
    role: 'assistant',
    text: 'Going with approach B. It touches fewer files and keeps the parser pure.',
    decisions: ['Going with approach B'],
    constraints: [],
  },
  {
    id: 'a08-option-it-is',
    half: 'held',
    role: 'assistant',
    text: 'Option 2 it is — the second approach keeps the public API unchanged, which matters more than the small perf win of option 1.',
    decisions: ['Option 2 it is'],
    constraints: [],
  },
  // --- assistant: "chose X instead of Y"
  {
    id: 'a09-chose-instead-of',
    half: 'dev',
    role: 'assistant',
    text: "I chose `fast-glob` instead of `glob` because it's 3x faster on the monorepo and supports negative patterns out of the box.",
    decisions: ['I chose `fast-glob`'],
    constraints: [],
  },
  {
    id: 'a10-opted-for',
    half: 'held',
    role: 'assistant',
    text: 'After comparing them I opted for date-fns instead of moment, mostly because moment is in maintenance mode and tree-shakes badly.',
    decisions: ['opted for date-fns'],
    constraints: [],
  },
  // --- assistant: switches
  {
    id: 'a11-switched-from',
    half: 'dev',
    role: 'assistant',
    text: 'Switched from axios to fetch to drop a dependency; Node 20 has fetch built in, so nothing else changes.',
    decisions: ['Switched from axios to fetch'],
    constraints: [],
  },
  {
    id: 'a12-replaced-with',
    half: 'held',
    role: 'assistant',
    text: "I replaced the hand-written argument parser with `node:util`'s parseArgs, so we get `--help` validation without pulling in commander.",
    decisions: ['replaced the hand-written argument parser'],
    constraints: [],
  },
  // --- assistant: "Let's …" with a dash or colon reason
  {
    id: 'a13-lets-use-dash',
    half: 'dev',
    role: 'assistant',
    text: "Let's use a worker thread here — the main thread must not block while we hash 2 GB of files.",
    decisions: ['use a worker thread here'],
    constraints: [],
  },
  {
    id: 'a14-lets-keep-rather',
    half: 'held',
    role: 'assistant',
    text: "Let's keep the retry logic in the client rather than the server: the server has no idea whether a request is idempotent.",
    decisions: ['keep the retry logic in the client'],
    constraints: [],
  },
  // --- assistant: ADR-style headings
  {
    id: 'a15-heading-decision',
    half: 'dev',
    role: 'assistant',
    text:
      '## Decision\n\nUse a single `events` table with a `type` column instead of one table per event kind. Queries across kinds are the common case, and the schema stays stable when we add kinds.\n\n' +
      '## Consequences\n\n- Migrations for new kinds are not needed\n- Per-kind constraints move into the application layer',
    decisions: ['single `events` table'],
    constraints: [],
  },
  {
    id: 'a16-heading-decision-why',
    half: 'held',
    role: 'assistant',
    text:
      "### Decision\nWe'll serve the docs as static HTML generated at build time, not render them on request.\n\n" +
      '### Why\nThe docs change only on release, and static files can go straight to the CDN.',
    decisions: ['serve the docs as static HTML'],
    constraints: [],
  },
  // --- assistant: long explanation, one decision buried
  {
    id: 'a17-buried-atomic-write',
    half: 'dev',
    role: 'assistant',
    text:
      'I traced the flaky test. The failure only happens when two workers write the snapshot file at the same moment: the second write truncates the first, and the reader sees an empty file. ' +
      "I checked the CI logs from the last 20 runs and every failure has the same signature, so it isn't the network mock. " +
      "The clean fix is an atomic write, so I'll write to a temp file and rename it into place, because rename is atomic on the same filesystem and readers then see either the old or the new file. " +
      'I also looked at whether we could lock the file, but Windows locking semantics differ enough that it would need its own tests. The change is in `snapshot.ts`, about 15 lines.',
    decisions: ['write to a temp file and rename it'],
    constraints: [],
  },
  {
    id: 'a18-buried-integer-cents',
    half: 'held',
    role: 'assistant',
    text:
      "Here's what I found in the billing module. `computeTotal` rounds each line item before summing, which is why totals drift by a cent on large invoices. " +
      'The tax code does the same thing in two places, and `invoice.test.ts` only covers single-item invoices, which is how this slipped through. ' +
      'Upstream, the Stripe webhook already sends amounts in cents, so nothing there needs to change. ' +
      'I decided to do all arithmetic in integer cents and round once at the end, since that matches how Stripe reports amounts and removes the drift entirely. ' +
      "I'll add a test with a 40-line invoice that used to be off by two cents.",
    decisions: ['do all arithmetic in integer cents'],
    constraints: [],
  },
  // --- assistant: actions, not choices
  {
    id: 'a19-actions',
    half: 'dev',
    role: 'assistant',
    text: "I'll read the file first to see how the handler is wired up. Let me check the tests too, then I'll run them to get a baseline.",
    decisions: [],
    constraints: [],
  },
  {
    id: 'a20-actions',
    half: 'held',
    role: 'assistant',
    text: "Let me look at `package.json` and the lockfile. I'll run `npm ls react` to see which versions are installed, then I'll grep for the deprecated import.",
    decisions: [],
    constraints: [],
  },
  // --- assistant: hypotheticals
  {
    id: 'a21-hypotheticals',
    half: 'dev',
    role: 'assistant',
    text:
      'There are a couple of ways to do this. We could use a debounce on the input handler, or one option is to move the filtering into a web worker. ' +
      'Another possibility would be virtualising the list so only visible rows render. Which do you prefer?',
    decisions: [],
    constraints: [],
  },
  {
    id: 'a22-hypotheticals',
    half: 'held',
    role: 'assistant',
    text:
      'If we wanted stronger guarantees we might switch to a transactional outbox, but that would mean a new table and a poller. ' +
      'Alternatively, idempotency keys on the consumer side could be enough. I can sketch either one.',
    decisions: [],
    constraints: [],
  },
  // --- assistant: questions
  {
    id: 'a23-questions',
    half: 'dev',
    role: 'assistant',
    text: 'Should we use Redis for the session store, or is the in-memory store fine for now? Also, do you want the TTL configurable?',
    decisions: [],
    constraints: [],
  },
  {
    id: 'a24-questions',
    half: 'held',
    role: 'assistant',
    text: 'Before I change anything: do you want me to use the existing `Logger` class, or switch everything to pino? And should errors still go to stderr?',
    decisions: [],
    constraints: [],
  },
  // --- assistant: reports of facts
  {
    id: 'a25-report-because',
    half: 'dev',
    role: 'assistant',
    text: "The test failed because the fixture path is relative to the cwd, and vitest runs from the package root. The error is `ENOENT: no such file or directory, open 'fixtures/a.json'`.",
    decisions: [],
    constraints: [],
  },
  {
    id: 'a26-report-since',
    half: 'held',
    role: 'assistant',
    text: 'The build broke since the upgrade to TypeScript 5.5: `moduleResolution: node` no longer resolves the `exports` map, so the types for `@acme/utils` come back as `any`.',
    decisions: [],
    constraints: [],
  },
  // --- assistant: next steps only
  {
    id: 'a27-next-steps',
    half: 'dev',
    role: 'assistant',
    text: 'Done with the parser.\n\nNext steps:\n1. Wire the parser into the CLI\n2. Add error messages for unknown flags\n3. Update the README',
    decisions: [],
    constraints: [],
  },
  {
    id: 'a28-remaining-work',
    half: 'held',
    role: 'assistant',
    text:
      'That covers the migration.\n\n**Remaining work:**\n- backfill the `created_by` column for old rows\n' +
      '- drop the legacy `user_name` column once the backfill is verified\n- TODO: document the rollback procedure',
    decisions: [],
    constraints: [],
  },
  // --- assistant: summaries with a decision among the bullets
  {
    id: 'a29-summary-rather-than',
    half: 'dev',
    role: 'assistant',
    text:
      'All tests pass now. Summary of the changes:\n\n- Added `RateLimiter` in `lib/limit.ts`\n' +
      "- Used a token bucket rather than a fixed window, so bursts at the window boundary can't double the rate\n" +
      "- Wrote 12 unit tests covering refill and burst behaviour\n- Updated the README's configuration table",
    decisions: ['token bucket rather than a fixed window'],
    constraints: [],
  },
  {
    id: 'a30-summary-went-with',
    half: 'held',
    role: 'assistant',
    text:
      'Finished. What changed:\n\n1. `auth/session.ts`: sessions now expire after 30 minutes of inactivity\n' +
      '2. I went with signed cookies instead of server-side sessions because the app runs on several stateless instances behind the load balancer\n' +
      '3. Added a `logout` route that clears the cookie\n\nAll 48 tests pass.',
    decisions: ['went with signed cookies'],
    constraints: [],
  },
  // --- assistant: "The fix: …" is a repair, not a decision (the rule above)
  {
    id: 'a31-the-fix-colon',
    half: 'dev',
    role: 'assistant',
    text: 'Found it. The fix: `parseDate` was called with the raw header, which includes a trailing `\\r`. I trimmed the value before parsing and the test now passes.',
    decisions: [],
    constraints: [],
  },
  {
    id: 'a32-the-fix-is',
    half: 'held',
    role: 'assistant',
    text: 'The fix is to await the `flush()` call before closing the stream; right now the process exits with buffered lines still in memory. Applied in `logger.ts`.',
    decisions: [],
    constraints: [],
  },
  // --- assistant: other choice verbs
  {
    id: 'a33-settled-on',
    half: 'dev',
    role: 'assistant',
    text:
      "I've settled on a plain `Map` keyed by file path for the cache. An LRU would be nicer but the number of files is bounded by the project size, " +
      "so eviction isn't worth the extra code yet.",
    decisions: ['settled on a plain `Map`'],
    constraints: [],
  },
  {
    id: 'a34-stick-with',
    half: 'held',
    role: 'assistant',
    text: "I'll stick with the existing `EventEmitter`-based design instead of introducing RxJS; the team already knows it and the streams here are simple.",
    decisions: ['stick with the existing `EventEmitter`-based design'],
    constraints: [],
  },
  // --- assistant: "use" as an action (tools), not a choice
  {
    id: 'a35-use-tool-action',
    half: 'dev',
    role: 'assistant',
    text: "I'll use grep to find every caller of `legacyFetch`, then use the Edit tool to update them one by one.",
    decisions: [],
    constraints: [],
  },
  {
    id: 'a36-use-tool-action',
    half: 'held',
    role: 'assistant',
    text: "I'm going to use the Task tool to search the repo for other places that build SQL by string concatenation. Let me start with the `db/` folder.",
    decisions: [],
    constraints: [],
  },
  // --- assistant: choosing not to do something
  {
    id: 'a37-wont-add',
    half: 'dev',
    role: 'assistant',
    text: "I won't add a retry here, since the caller already retries with backoff and a second layer would multiply the attempts.",
    decisions: ["won't add a retry here"],
    constraints: [],
  },
  {
    id: 'a38-decided-not-to',
    half: 'held',
    role: 'assistant',
    text: 'I decided not to memoize `renderRow`: profiling shows it takes under 0.1 ms per row, and the memo cache would cost more memory than it saves time.',
    decisions: ['decided not to memoize'],
    constraints: [],
  },
  // --- assistant: recommendations awaiting the user
  {
    id: 'a39-recommend',
    half: 'dev',
    role: 'assistant',
    text: "I'd recommend moving the validation into middleware so every route gets it, but I haven't changed anything yet. Let me know if you want me to go ahead.",
    decisions: [],
    constraints: [],
  },
  {
    id: 'a40-suggestion',
    half: 'held',
    role: 'assistant',
    text: "My suggestion would be to split `utils.ts` into smaller modules by concern. It's not urgent, though; happy to do it in a follow-up if you agree.",
    decisions: [],
    constraints: [],
  },
  // --- assistant: look-alikes inside code blocks
  {
    id: 'a41-code-block',
    half: 'dev',
    role: 'assistant',
    text:
      "Here's the updated config:\n\n```ts\n// Decision: use zod over yup because of inference\nexport const schema = z.object({ port: z.number() });\n```\n\n" +
      'The schema is exported so the CLI can reuse it.',
    decisions: [],
    constraints: [],
  },
  {
    id: 'a42-code-block-adr',
    half: 'held',
    role: 'assistant',
    text: "The ADR template looks like this:\n\n```markdown\n## Decision\nWe will use <technology> because <reason>.\n```\n\nI've added it under `docs/adr/template.md`.",
    decisions: [],
    constraints: [],
  },
  // --- assistant: plans of steps
  {
    id: 'a43-plan',
    half: 'dev',
    role: 'assistant',
    text: 'Plan:\n1. Read the current `Router` implementation\n2. Add a failing test for nested params\n3. Fix the matcher\n4. Run the whole suite',
    decisions: [],
    constraints: [],
  },
  {
    id: 'a44-plan-prose',
    half: 'held',
    role: 'assistant',
    text:
      "Here's how I'll approach it: first reproduce the crash with the sample file you attached, then bisect the recent commits to `decoder.c`, " +
      'and finally add a regression test.',
    decisions: [],
    constraints: [],
  },
  // --- assistant: several decisions in one message
  {
    id: 'a45-multi-bullets',
    half: 'dev',
    role: 'assistant',
    text:
      'A few choices I made while implementing the export:\n\n' +
      '- **Format:** CSV rather than XLSX, because every consumer we know of already reads CSV and it streams row by row.\n' +
      '- **Encoding:** UTF-8 with a BOM, so Excel on Windows opens it without mangling accents.\n' +
      '- Dates are written as ISO 8601.\n\nThe export runs in 3 s for 100k rows.',
    decisions: ['CSV rather than XLSX', 'UTF-8 with a BOM'],
    constraints: [],
  },
  {
    id: 'a46-multi-numbered',
    half: 'held',
    role: 'assistant',
    text:
      "Two decisions worth flagging:\n1. I'm using `pnpm` workspaces instead of Lerna, since Lerna's bootstrap is deprecated.\n" +
      '2. Shared types live in a `packages/types` package so both apps import the same definitions.\n\nEverything builds; `pnpm test` is green.',
    decisions: ['`pnpm` workspaces instead of Lerna', 'Shared types live in a `packages/types` package'],
    constraints: [],
  },
  // --- assistant: chatty
  {
    id: 'a47-chatty-should-go-with',
    half: 'dev',
    role: 'assistant',
    text:
      'Great question! Honestly, after playing with both, I think we should go with Vite — the dev server starts in under a second and the config is a fraction of what webpack needs. ' +
      "I'll migrate the config now.",
    decisions: ['go with Vite'],
    constraints: [],
  },
  {
    id: 'a48-chatty-keep-simple',
    half: 'held',
    role: 'assistant',
    text:
      "Ok so, thinking about it more, I'm going to keep things simple and just use a plain JSON file for the settings instead of SQLite. " +
      "It's a handful of keys and nobody will edit them concurrently.",
    decisions: ['plain JSON file for the settings'],
    constraints: [],
  },
  // --- assistant: terse
  {
    id: 'a49-terse-using',
    half: 'dev',
    role: 'assistant',
    text: 'Using Postgres advisory locks. Simpler than a lock table.',
    decisions: ['Postgres advisory locks'],
    constraints: [],
  },
  {
    id: 'a50-terse-went-with',
    half: 'held',
    role: 'assistant',
    text: 'Went with `structuredClone` — no lodash needed.',
    decisions: ['Went with `structuredClone`'],
    constraints: [],
  },
  // --- assistant: "instead of" / "rather than" in a report, not a choice
  {
    id: 'a51-report-instead-of',
    half: 'dev',
    role: 'assistant',
    text: 'The function returns `undefined` instead of an empty array when the input is empty, which is why `map` throws on the next line.',
    decisions: [],
    constraints: [],
  },
  {
    id: 'a52-report-rather-than',
    half: 'held',
    role: 'assistant',
    text: 'It looks like the previous author used `var` rather than `let` in the loop, so every callback captures the same `i`. That explains why all the buttons log 5.',
    decisions: [],
    constraints: [],
  },
  // --- assistant: open items only
  {
    id: 'a53-open-items',
    half: 'dev',
    role: 'assistant',
    text:
      "I've implemented the happy path. Still need to handle the case where the upload is interrupted halfway. " +
      "Open question: should partial uploads be resumable, or just discarded? Blocked on the storage team's answer about multipart limits.",
    decisions: [],
    constraints: [],
  },
  {
    id: 'a54-open-items',
    half: 'held',
    role: 'assistant',
    text:
      'Status: the import works for JSON. CSV import is not yet implemented, and the XML path is left for later since nobody has asked for it. ' +
      'TODO: add a progress bar for large files.',
    decisions: [],
    constraints: [],
  },
  // --- assistant: provisional and purpose-driven choices
  {
    id: 'a55-for-now-hardcode',
    half: 'dev',
    role: 'assistant',
    text: "For now I'll hardcode the region to `us-east-1` and make it configurable later; the only deployment is there and a config option would need docs and validation.",
    decisions: ['hardcode the region'],
    constraints: [],
  },
  {
    id: 'a56-instead-of-orm',
    half: 'held',
    role: 'assistant',
    text: "To avoid the N+1 queries, I'll load the authors with a single `IN` query and join them in memory, instead of eager-loading through the ORM, which generates a 6-way join here.",
    decisions: ['load the authors with a single `IN` query'],
    constraints: [],
  },
  {
    id: 'a57-we-should-pin',
    half: 'dev',
    role: 'assistant',
    text: "We should definitely pin the Node version in `.nvmrc` — I've added `20.11.1` so CI and local dev match.",
    decisions: ['pin the Node version'],
    constraints: [],
  },
  {
    id: 'a58-bold-approach',
    half: 'held',
    role: 'assistant',
    text: '**Approach:** parse the log lazily with a line iterator rather than reading the whole file, because the logs reach several GB on production boxes.',
    decisions: ['parse the log lazily'],
    constraints: [],
  },
  // --- assistant: look-alikes in quoted tool output, and tentative actions
  {
    id: 'a59-quoted-output',
    half: 'dev',
    role: 'assistant',
    text: "The linter says:\n\n> Decision: prefer const over let (prefer-const)\n> 3 problems (3 errors, 0 warnings)\n\nI'll fix those three now.",
    decisions: [],
    constraints: [],
  },
  {
    id: 'a60-try-action',
    half: 'held',
    role: 'assistant',
    text: 'Let me try running the migration against a copy of the database first, just to see what happens with the existing rows.',
    decisions: [],
    constraints: [],
  },
  {
    id: 'a61-lets-go-with',
    half: 'dev',
    role: 'assistant',
    text: "Let's go with the simpler regex-based tokenizer for now; a full parser is overkill for config files this size.",
    decisions: ['simpler regex-based tokenizer'],
    constraints: [],
  },
  {
    id: 'a62-make-default',
    half: 'held',
    role: 'assistant',
    text: "I'll make `strict` the default mode, because silently accepting unknown keys is how the typo in the prod config went unnoticed. Lenient mode stays available behind `--loose`.",
    decisions: ['make `strict` the default mode'],
    constraints: [],
  },
  // --- assistant: describing existing design, not a choice made now
  {
    id: 'a63-existing-design',
    half: 'dev',
    role: 'assistant',
    text: 'The app uses Redux for state because it was started in 2018, before hooks existed. Most components connect through `useSelector` now.',
    decisions: [],
    constraints: [],
  },
  {
    id: 'a64-existing-design',
    half: 'held',
    role: 'assistant',
    text: 'This project uses Jest rather than Vitest; the config lives in `jest.config.js` and the setup file mocks `fetch` globally.',
    decisions: [],
    constraints: [],
  },

  // --- user: never / don't push
  {
    id: 'u01-never-commit',
    half: 'dev',
    role: 'user',
    text: 'Add a `--dry-run` flag to the deploy script. Never commit to main directly, open a PR instead.',
    decisions: [],
    constraints: ['Never commit to main'],
  },
  {
    id: 'u02-dont-push',
    half: 'held',
    role: 'user',
    text: "please fix the failing snapshot tests but dont push anything to the remote, I'll review first",
    decisions: [],
    constraints: ['dont push anything'],
  },
  // --- user: don't use X
  {
    id: 'u03-dont-use',
    half: 'dev',
    role: 'user',
    text: "Refactor the date helpers. Don't use lodash, we're trying to get rid of it.",
    decisions: [],
    constraints: ["Don't use lodash"],
  },
  {
    id: 'u04-do-not-use',
    half: 'held',
    role: 'user',
    text: 'Can you clean up the auth module? Please do not use any third-party JWT library; we have our own signer in `crypto/`.',
    decisions: [],
    constraints: ['do not use any third-party JWT library'],
  },
  // --- user: hands off
  {
    id: 'u05-do-not-touch',
    half: 'dev',
    role: 'user',
    text: 'Do not touch the migrations folder. Just update the model and the tests.',
    decisions: [],
    constraints: ['Do not touch the migrations'],
  },
  {
    id: 'u06-leave-alone',
    half: 'held',
    role: 'user',
    text: 'Leave the generated files in `src/gen/` alone, they get overwritten on every build.',
    decisions: [],
    constraints: ['Leave the generated files'],
  },
  // --- user: always / from now on
  {
    id: 'u07-always',
    half: 'dev',
    role: 'user',
    text: 'Always run the linter before committing.',
    decisions: [],
    constraints: ['Always run the linter'],
  },
  {
    id: 'u08-from-now-on',
    half: 'held',
    role: 'user',
    text: 'From now on, run `npm test` after every change and show me the output.',
    decisions: [],
    constraints: ['run `npm test` after every change'],
  },
  // --- user: make sure / be careful
  {
    id: 'u09-make-sure',
    half: 'dev',
    role: 'user',
    text: "Make sure to keep the API backwards compatible, there are three clients we don't control.",
    decisions: [],
    constraints: ['keep the API backwards compatible'],
  },
  {
    id: 'u10-be-careful',
    half: 'held',
    role: 'user',
    text: 'Be careful to preserve the existing public exports — other packages import from `index.ts`.',
    decisions: [],
    constraints: ['preserve the existing public exports'],
  },
  // --- user: must not / must stay
  {
    id: 'u11-must-not',
    half: 'dev',
    role: 'user',
    text: 'You must not break the CLI flags; scripts in CI depend on them.',
    decisions: [],
    constraints: ['must not break the CLI flags'],
  },
  {
    id: 'u12-must-stay',
    half: 'held',
    role: 'user',
    text: 'The response shape must stay exactly the same, the mobile app parses it by position.',
    decisions: [],
    constraints: ['must stay exactly the same'],
  },
  // --- user: only / stick to
  {
    id: 'u13-only-use',
    half: 'dev',
    role: 'user',
    text: 'Only use the standard library for this script, it runs on boxes without pip.',
    decisions: [],
    constraints: ['Only use the standard library'],
  },
  {
    id: 'u14-stick-to',
    half: 'held',
    role: 'user',
    text: 'Stick to plain SQL, no ORM.',
    decisions: [],
    constraints: ['Stick to plain SQL'],
  },
  // --- user: avoid / no new deps
  {
    id: 'u15-avoid',
    half: 'dev',
    role: 'user',
    text: 'Avoid any new dependencies if you can.',
    decisions: [],
    constraints: ['Avoid any new dependencies'],
  },
  {
    id: 'u16-no-new-deps',
    half: 'held',
    role: 'user',
    text: 'No new dependencies please. And keep the bundle under 50 KB.',
    decisions: [],
    constraints: ['No new dependencies', 'keep the bundle under 50 KB'],
  },
  // --- user: questions and "I don't know"
  {
    id: 'u17-question-never',
    half: 'dev',
    role: 'user',
    text: "Why does the worker never return when the queue is empty? I don't know where to start looking.",
    decisions: [],
    constraints: [],
  },
  {
    id: 'u18-question-dont',
    half: 'held',
    role: 'user',
    text: "Is it ok if we don't use TypeScript for the scripts folder? I never really understood why it was set up that way.",
    decisions: [],
    constraints: [],
  },
  // --- user: never mind / don't worry
  {
    id: 'u19-never-mind',
    half: 'dev',
    role: 'user',
    text: "never mind the last request, the flaky test was my fault. Don't worry about the Windows CI job, it's been broken for weeks.",
    decisions: [],
    constraints: [],
  },
  {
    id: 'u20-never-mind',
    half: 'held',
    role: 'user',
    text: "Ah never mind, found it — I had the wrong env file loaded. Don't bother with the logging changes then.",
    decisions: [],
    constraints: [],
  },
  // --- user: bug reports
  {
    id: 'u21-bug-never',
    half: 'dev',
    role: 'user',
    text: "The export job never finishes on large accounts and it doesn't log anything, it just hangs. It always happens after about 10k rows.",
    decisions: [],
    constraints: [],
  },
  {
    id: 'u22-bug-never',
    half: 'held',
    role: 'user',
    text: "Login doesn't work on Safari. The cookie is never set, and the console shows nothing. It must be something with SameSite.",
    decisions: [],
    constraints: [],
  },
  // --- user: requirements (what), not constraints (how)
  {
    id: 'u23-requirements',
    half: 'dev',
    role: 'user',
    text: 'I need a CLI that converts the CSV exports to JSON. It should support streaming input from stdin and must handle 10k rows without running out of memory.',
    decisions: [],
    constraints: [],
  },
  {
    id: 'u24-requirements-list',
    half: 'held',
    role: 'user',
    text: 'Requirements:\n- read the YAML config from `~/.apprc`\n- it should support environment overrides\n- the goal is a single binary we can ship to customers',
    decisions: [],
    constraints: [],
  },
  // --- user: code
  {
    id: 'u25-code',
    half: 'dev',
    role: 'user',
    text: "Here's what I'm running:\n\n```js\n// never mutate state here\n// don't touch the cache directly\nif (!cache.has(key)) load(key);\n```\n\nWhy does it crash?",
    decisions: [],
    constraints: [],
  },
  {
    id: 'u26-code-yaml',
    half: 'held',
    role: 'user',
    text: 'This is the config I have:\n\n```yaml\nrules:\n  - never: commit-to-main\n  - always: sign-commits\n```\nIs the syntax right?',
    decisions: [],
    constraints: [],
  },
  // --- user: long prompts with one constraint buried
  {
    id: 'u27-long-buried',
    half: 'dev',
    role: 'user',
    text:
      'Okay, so the dashboard is slow when a team has more than a few hundred projects. I profiled it and most of the time is in the `ProjectList` render, ' +
      "it re-renders every row when the filter changes. I'd like you to fix that. Please don't change the visual design at all, the designers just signed off on it. " +
      "If you need to restructure the component tree that's fine.",
    decisions: [],
    constraints: ["don't change the visual design"],
  },
  {
    id: 'u28-long-buried',
    half: 'held',
    role: 'user',
    text:
      "We're migrating the payments service from Express to Fastify. The routes are in `routes/`, the tests in `test/integration`. " +
      "The plan is to do it route by route over the next sprint. Whatever you do, keep every endpoint's URL and status codes identical, the partner integrations are brittle. " +
      "Start with the `/refunds` routes, they're the simplest.",
    decisions: [],
    constraints: ["keep every endpoint's URL and status codes identical"],
  },
  // --- user: rule lists
  {
    id: 'u29-rules-bullets',
    half: 'dev',
    role: 'user',
    text: "A few ground rules for this repo:\n- use pnpm, not npm\n- never edit `CHANGELOG.md` by hand, it's generated\n- commit messages follow Conventional Commits",
    decisions: [],
    constraints: ['use pnpm, not npm', 'never edit `CHANGELOG.md`', 'commit messages follow Conventional Commits'],
  },
  {
    id: 'u30-rules-numbered',
    half: 'held',
    role: 'user',
    text: "Rules:\n1. don't add comments that just restate the code\n2. prefer small functions\n3. tests go next to the source file, not in a separate folder",
    decisions: [],
    constraints: ["don't add comments", 'prefer small functions', 'tests go next to the source file'],
  },
  // --- user: stop / don't reformat
  {
    id: 'u31-stop',
    half: 'dev',
    role: 'user',
    text: 'Please stop adding `console.log` everywhere, use the logger.',
    decisions: [],
    constraints: ['stop adding `console.log`'],
  },
  {
    id: 'u32-dont-reformat',
    half: 'held',
    role: 'user',
    text: "Please don't reformat files you didn't change, it makes the diff unreadable.",
    decisions: [],
    constraints: ["don't reformat files"],
  },
  // --- user: plain requests, no constraint
  {
    id: 'u33-plain-request',
    half: 'dev',
    role: 'user',
    text: 'Can you add a dark mode toggle to the settings page?',
    decisions: [],
    constraints: [],
  },
  {
    id: 'u34-plain-thanks',
    half: 'held',
    role: 'user',
    text: "thanks, that works! now let's look at the search page",
    decisions: [],
    constraints: [],
  },
  // --- user: reminders
  {
    id: 'u35-dont-forget',
    half: 'dev',
    role: 'user',
    text: "Don't forget to update the changelog when you're done.",
    decisions: [],
    constraints: ['update the changelog'],
  },
  {
    id: 'u36-remember',
    half: 'held',
    role: 'user',
    text: 'Remember to bump the version in `package.json` before tagging.',
    decisions: [],
    constraints: ['bump the version'],
  },
  // --- user: "never" in a requirement about the product (what), not a rule of work
  {
    id: 'u37-should-never-requirement',
    half: 'dev',
    role: 'user',
    text: 'The cache should never serve data older than 5 minutes.',
    decisions: [],
    constraints: [],
  },
  {
    id: 'u38-must-never-requirement',
    half: 'held',
    role: 'user',
    text: "Users must never see another tenant's data, that's the whole point of this change.",
    decisions: [],
    constraints: [],
  },
  // --- user: wants and can'ts
  {
    id: 'u39-dont-want',
    half: 'dev',
    role: 'user',
    text: "I don't want any breaking changes in this release, so deprecate the old function instead of removing it.",
    decisions: [],
    constraints: ["don't want any breaking changes"],
  },
  {
    id: 'u40-cant-use',
    half: 'held',
    role: 'user',
    text: "We can't use Docker on the build machines, so the tests have to run natively.",
    decisions: [],
    constraints: ["can't use Docker"],
  },

  // --- second batch, written after the extractor's first version and before running it on them, so
  // that the held half also measures phrasings the patterns were not written against.
  {
    id: 'b01-ended-up-using',
    half: 'dev',
    role: 'assistant',
    text: 'I ended up using `p-limit` to cap concurrency at 8, since unbounded `Promise.all` was opening 2,000 sockets at once.',
    decisions: ['ended up using `p-limit`'],
    constraints: [],
  },
  {
    id: 'b02-rather-than-added',
    half: 'held',
    role: 'assistant',
    text: 'Rather than patching every call site, I added a single adapter in `http/compat.ts` because the old and new clients differ only in how they report errors.',
    decisions: ['added a single adapter'],
    constraints: [],
  },
  {
    id: 'b03-go-ahead-action',
    half: 'dev',
    role: 'assistant',
    text: "I'll go ahead and run the full suite now to make sure nothing else broke.",
    decisions: [],
    constraints: [],
  },
  {
    id: 'b04-update-so-action',
    half: 'held',
    role: 'assistant',
    text: "Now I'll update the README so the new flag is documented, then commit.",
    decisions: [],
    constraints: [],
  },
  {
    id: 'b05-leaning-tentative',
    half: 'dev',
    role: 'assistant',
    text: "I'm leaning towards a queue here, but I want to see the load numbers first before committing to it.",
    decisions: [],
    constraints: [],
  },
  {
    id: 'b06-might-tentative',
    half: 'held',
    role: 'assistant',
    text: "A feature flag might be the safest path, though I'm not sure it's worth it for a two-line change. What do you think?",
    decisions: [],
    constraints: [],
  },
  {
    id: 'b07-conclusion-label',
    half: 'dev',
    role: 'assistant',
    text: 'Conclusion: keep the REST API and add a thin GraphQL layer later if clients ask for it.',
    decisions: ['keep the REST API'],
    constraints: [],
  },
  {
    id: 'b08-final-call-label',
    half: 'held',
    role: 'assistant',
    text: 'Final call: we ship without the offline mode and revisit in Q3.',
    decisions: ['ship without the offline mode'],
    constraints: [],
  },
  {
    id: 'b09-reuse-so',
    half: 'dev',
    role: 'assistant',
    text: "I'll reuse the existing `formatDate` helper so the output matches the rest of the UI.",
    decisions: ['reuse the existing `formatDate` helper'],
    constraints: [],
  },
  {
    id: 'b10-keeping-so-that',
    half: 'held',
    role: 'assistant',
    text: "I'm keeping the old endpoint alive for now so that existing clients don't break; it logs a deprecation warning on each call.",
    decisions: ['keeping the old endpoint alive'],
    constraints: [],
  },
  {
    id: 'b11-matched-convention',
    half: 'dev',
    role: 'assistant',
    text: 'I see the code base uses tabs instead of spaces, and the linter enforces it, so I matched that in the new files.',
    decisions: [],
    constraints: [],
  },
  {
    id: 'b12-report-instead-of',
    half: 'held',
    role: 'assistant',
    text: 'It turns out the SDK retries on 429 instead of surfacing the error, which is why the job looked stuck.',
    decisions: [],
    constraints: [],
  },
  {
    id: 'b13-summary-kept',
    half: 'dev',
    role: 'assistant',
    text:
      '## Summary\n\n- Extracted the validation into `validate.ts`\n- Moved the constants to `config/defaults.ts`\n' +
      '- Kept the public API as is, because two other services import it directly\n- Added tests for the edge cases',
    decisions: ['Kept the public API as is'],
    constraints: [],
  },
  {
    id: 'b14-changes-chose-to',
    half: 'held',
    role: 'assistant',
    text:
      '### Changes\n1. Renamed `getUser` to `fetchUser` for consistency with the other fetchers\n' +
      '2. Chose to throw on missing IDs instead of returning `null`, since callers never checked for `null` anyway\n3. Updated the docs',
    decisions: ['throw on missing IDs'],
    constraints: [],
  },
  {
    id: 'c01-caps-do-not',
    half: 'dev',
    role: 'user',
    text: 'Do NOT modify package.json, the versions are pinned for a reason.',
    decisions: [],
    constraints: ['Do NOT modify package.json'],
  },
  {
    id: 'c02-caps-never',
    half: 'held',
    role: 'user',
    text: 'NEVER use `any` in the new code.',
    decisions: [],
    constraints: ['NEVER use `any`'],
  },
  {
    id: 'c03-important-that',
    half: 'dev',
    role: 'user',
    text: "It's important that we don't change the DB schema in this PR.",
    decisions: [],
    constraints: ["don't change the DB schema"],
  },
  {
    id: 'c04-dont-need-keep',
    half: 'held',
    role: 'user',
    text: "You don't need to write docs for this. Please keep the diff small.",
    decisions: [],
    constraints: ["You don't need to write docs", 'keep the diff small'],
  },
  {
    id: 'c05-dont-you-think',
    half: 'dev',
    role: 'user',
    text: "Don't you think this function is getting too long?",
    decisions: [],
    constraints: [],
  },
  {
    id: 'c06-dont-know-if',
    half: 'held',
    role: 'user',
    text: "Don't know if this matters, but the prod servers are still on Node 18.",
    decisions: [],
    constraints: [],
  },
  {
    id: 'c07-we-use-not',
    half: 'dev',
    role: 'user',
    text: 'we use yarn in this repo btw, not npm',
    decisions: [],
    constraints: ['we use yarn in this repo'],
  },
  {
    id: 'c08-terse-rules',
    half: 'held',
    role: 'user',
    text: 'Tabs, not spaces. And no semicolons.',
    decisions: [],
    constraints: ['Tabs, not spaces', 'no semicolons'],
  },
  {
    id: 'c09-shouldnt-requirement',
    half: 'dev',
    role: 'user',
    text: "The endpoint shouldn't return a 500 on bad input, it should return a 400 with the validation errors.",
    decisions: [],
    constraints: [],
  },
  {
    id: 'c10-must-skip-requirement',
    half: 'held',
    role: 'user',
    text: 'The importer must skip rows with an empty email instead of failing the whole file.',
    decisions: [],
    constraints: [],
  },
];
