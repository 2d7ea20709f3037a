// lib/phase/facts.ts: constraints and requirements from user prompts; decisions (with reason, choice
// and rejected alternatives), next steps and open items from assistant replies; look-alikes that must
// stay out of a ledger; code, quotes and overlong lines ignored; keys for deduplication; large and
// random input.
import { describe, expect, it } from 'vitest';
import { assistantFacts, type Fact, type FactKind, factKey, userFacts } from '../../lib/phase/facts.ts';
import { prng } from './helpers/prng.ts';

const ofKind = (facts: Fact[], kind: FactKind) => facts.filter((f) => f.kind === kind);
const decisions = (text: string) => ofKind(assistantFacts(text), 'decision');
const constraints = (text: string) => ofKind(userFacts(text), 'constraint');

describe('userFacts: constraints', () => {
  it.each([
    'Never commit to main.',
    "Don't use lodash.",
    'Do not touch the migrations.',
    'Always run the linter before committing.',
    'Make sure to keep the API backwards compatible.',
    'You must not break the CLI flags.',
    'must not break the CLI flags',
    'Only use the standard library.',
    'Avoid any new dependencies.',
    'No new dependencies.',
    'Please stop adding `console.log` everywhere.',
    'Leave the generated files in `src/gen/` alone.',
    'use pnpm, not npm',
    'Under no circumstances delete the migrations folder.',
    "Let's not use classes here.",
    'Stay on TypeScript 5.4.',
    'Nothing should be written outside the tmp directory.',
    'by the way, never push to the release branch',
    'stay below 200 KB for the bundle',
    'Never bring in lodash.',
    'Always ping me before you deploy.',
    'never string commands together with &&',
    'Under no circumstances are you to force-push.',
    'Nothing should be sent to the remote.',
    'one constraint: the Podfile is off-limits in this branch.',
    "note that pubspec's flutter constraint stays exactly as is.",
    'a standing rule for this codebase: no malloc/free anywhere after init.',
    'Nobody runs twine upload from a laptop, ever.',
    'php artisan migrate:fresh only ever runs against your local database.',
    'We never fetch those, period.',
    'We never deploy on Fridays.',
  ])('%s is a constraint', (text) => {
    expect(constraints(text).map((f) => f.text)).toEqual([text]);
  });

  it('finds a rule after a comma in a longer request', () => {
    const facts = userFacts("please fix the failing snapshot tests but don't push anything to the remote, I'll review first");
    expect(facts).toHaveLength(1);
    expect(facts[0]?.kind).toBe('constraint');
  });

  it.each([
    "Why does the worker never return when the queue is empty? I don't know where to start looking.",
    "Don't worry about the Windows CI job, it's been broken for weeks.",
    'never mind, I found it',
    'The export job never finishes and it always hangs after 10k rows.',
    'Can you make it never crash?',
    'thanks, that works!',
    "Let's not worry about that now.",
    'Nothing can be done about it.',
    'By the way, the build passed.',
    'Nothing should have changed, but now the login page crashes.',
    'Nothing should happen when I click save, yet the form resets.',
    'Stay with me here, the bug is subtle.',
    'btw never seen this error before',
    'fyi always getting a 502 from staging',
    'At no time did the server respond.',
    'In no case did the retry succeed.',
    'Never used that API.',
    'I ran the migration, nothing should be broken now.',
    'In no case could we reproduce it.',
    'We never got a response from the server.',
    'We never fetched the page, it timed out.',
    'we never really used it',
    'nobody knows why it fails',
    'The config stays in memory.',
    // Bug reports that read like rules.
    "You never close the file handle in save(), that's why it leaks.",
    'We never update the cache after a write, which is the bug.',
    "The function only ever returns null, that's the bug.",
    'This only ever happens in Safari.',
    'It crashes on startup, period.',
    "Just add one line: `export * from './types'` in index.ts.",
    'Nobody on the team has ever touched this module.',
    "We never call this function from the UI, so it's dead.",
  ])('%s has no constraint', (text) => {
    expect(constraints(text)).toEqual([]);
  });

  it('ignores rules inside a fenced code block', () => {
    expect(userFacts("Here's my code:\n\n```js\n// never mutate state here\n// don't touch the cache\n```\n\nWhy does it crash?")).toEqual([]);
  });

  it('treats every bullet under a "rules:" lead-in as a constraint', () => {
    const facts = userFacts('Rules for this repo:\n- use tabs\n- commit messages follow Conventional Commits');
    expect(facts.map((f) => [f.kind, f.text])).toEqual([
      ['constraint', 'use tabs'],
      ['constraint', 'commit messages follow Conventional Commits'],
    ]);
  });
});

describe('userFacts: requirements', () => {
  it('reads what must be built as requirements, not constraints', () => {
    const facts = userFacts(
      'I need a CLI that converts the CSV exports to JSON. It should support streaming input and must handle 10k rows. The goal is a single binary.',
    );
    expect(facts.map((f) => f.kind)).toEqual(['requirement', 'requirement', 'requirement']);
  });

  it('reads a "Requirements:" list item by item', () => {
    const facts = userFacts('Requirements:\n- read the YAML config\n- environment overrides');
    expect(facts).toEqual([
      { kind: 'requirement', text: 'read the YAML config' },
      { kind: 'requirement', text: 'environment overrides' },
    ]);
  });

  it('takes "the cache should never …" for a requirement about the product', () => {
    expect(userFacts('The cache should never serve data older than 5 minutes.').map((f) => f.kind)).toEqual(['requirement']);
  });
});

describe('assistantFacts: decisions', () => {
  it('fills reason and chosen for "I\'ll use X for Y because Z"', () => {
    expect(decisions("I'll use zod for validation because it's already a dependency.")).toEqual([
      {
        kind: 'decision',
        text: "I'll use zod for validation because it's already a dependency.",
        reason: "it's already a dependency",
        chosen: 'zod',
      },
    ]);
  });

  it('fills rejected for "X over Y since …"', () => {
    const [d] = decisions("Both would work, but we'll go with SQLite over Postgres since this is a single-user tool.");
    expect(d).toMatchObject({ chosen: 'SQLite', rejected: ['Postgres'], reason: 'this is a single-user tool' });
  });

  it('reads a switch as chosen and rejected', () => {
    const [d] = decisions('Switched from axios to fetch to drop a dependency.');
    expect(d).toMatchObject({ chosen: 'fetch', rejected: ['axios'], reason: 'to drop a dependency' });
  });

  it('takes the text after a dash as the reason', () => {
    const [d] = decisions("Let's use a worker thread here — the main thread must not block.");
    expect(d).toMatchObject({ chosen: 'a worker thread', reason: 'the main thread must not block' });
  });

  it('reads "instead of" and "rather than" as rejected alternatives', () => {
    expect(decisions('I chose `fast-glob` instead of `glob`.')[0]).toMatchObject({ chosen: 'fast-glob', rejected: ['glob'] });
    expect(decisions("For the queue I'm picking BullMQ rather than a hand-rolled Redis list.")[0]).toMatchObject({
      chosen: 'BullMQ',
      rejected: ['a hand-rolled Redis list'],
    });
  });

  it('reads "Decision:" labels, bold or not, and keeps the markdown in the text', () => {
    expect(decisions('**Decision:** keep the cache in memory.').map((f) => f.text)).toEqual(['**Decision:** keep the cache in memory.']);
    expect(decisions('Decision: store timestamps as UTC.')).toHaveLength(1);
  });

  it('reads the first paragraph under a "## Decision" heading, not the ones explaining it', () => {
    const text = '## Decision\n\nUse a single `events` table instead of one table per kind. Queries across kinds are common.\n\nMore context here.';
    expect(decisions(text).map((f) => f.text)).toEqual(['Use a single `events` table instead of one table per kind.']);
  });

  it('reads terse choices', () => {
    expect(decisions('Going with approach B.')[0]).toMatchObject({ chosen: 'approach B' });
    expect(decisions('Using Postgres advisory locks. Simpler than a lock table.')).toHaveLength(1);
  });

  it('reads a choice not to do something when it is justified', () => {
    expect(decisions("I won't add a retry here, since the caller already retries.")).toHaveLength(1);
  });

  it('finds one decision buried in a long explanation', () => {
    const text =
      'I traced the flaky test. The failure happens when two workers write the snapshot at once. I checked the CI logs and every failure matches. ' +
      "So I'll write to a temp file and rename it into place, because rename is atomic. The change is about 15 lines.";
    expect(decisions(text).map((f) => f.reason)).toEqual(['rename is atomic']);
  });

  it('does not split sentences inside inline code, and resumes after a stray backtick', () => {
    // A period inside `…` ends no sentence: the decision keeps its code span whole.
    const inCode = 'I checked it. I switched to `fs.promises.rename()` because it is atomic. Done.';
    expect(decisions(inCode).map((f) => f.text)).toEqual(['I switched to `fs.promises.rename()` because it is atomic.']);
    // A lone backtick opens no code span for good: after 200 characters, sentences split again.
    const stray = `The shell printed \` then ${'a long line of output '.repeat(12)}ended. So I'll use execa instead of child_process because it escapes arguments.`;
    expect(decisions(stray).map((f) => f.text)).toEqual(["So I'll use execa instead of child_process because it escapes arguments."]);
  });

  it.each([
    "I'll read the file first. Let me check the tests, then I'll run them.",
    "I'll run the tests now.",
    "I'll use grep to find every caller, then use the Edit tool to update them.",
    'We could use a debounce, or one option is to move the filtering into a worker.',
    'Should we use Redis for the session store?',
    'The test failed because the fixture path is relative to the cwd.',
    'The function returns `undefined` instead of an empty array.',
    "I'd recommend moving the validation into middleware.",
    'If it fails, I will switch to the fallback.',
    'The fix: trim the header before parsing.',
    'The app uses Redux because it was started before hooks existed.',
    'Instead of a 200, we received an HTML error page from the proxy.',
    'Rather than a crash, we hit an infinite loop in the parser.',
  ])('%s is not a decision', (text) => {
    expect(decisions(text)).toEqual([]);
  });

  it('ignores decisions inside fenced code and quoted tool output', () => {
    const text = "Config:\n\n```ts\n// Decision: use zod over yup because of inference\n```\n\n> Decision: prefer const over let\n\nI'll fix those.";
    expect(assistantFacts(text)).toEqual([]);
  });

  it('ignores lines over 1,000 characters', () => {
    expect(decisions(`I'll use zod because it is typed, ${'and so on '.repeat(120)}`)).toEqual([]);
  });

  it('does not break sentences at file names or versions', () => {
    const [d] = decisions("I updated `config.ts` and v1.2.3 of the schema. I'll use zod in lib/config.ts because it is typed.");
    expect(d?.text).toBe("I'll use zod in lib/config.ts because it is typed.");
  });

  it('cuts long text at a word with an ellipsis', () => {
    const [d] = decisions(`I'll use zod because ${'it is typed and '.repeat(40)}it works.`);
    expect(d?.text.length).toBeLessThanOrEqual(300);
    expect(d?.text.endsWith('…')).toBe(true);
    expect(d?.text.at(-2)).not.toBe(' ');
  });
});

describe('assistantFacts: next steps and open items', () => {
  it('reads a "Next steps:" list', () => {
    expect(assistantFacts('Done.\n\nNext steps:\n1. Wire the parser into the CLI\n2. Update the README')).toEqual([
      { kind: 'next-step', text: 'Wire the parser into the CLI' },
      { kind: 'next-step', text: 'Update the README' },
    ]);
  });

  it('reads "Next, I\'ll …" and a closing "Then I\'ll …"', () => {
    expect(ofKind(assistantFacts("Next, I'll wire the parser in."), 'next-step')).toHaveLength(1);
    expect(ofKind(assistantFacts("Fixed the parser. Then I'll add the docs."), 'next-step').map((f) => f.text)).toEqual(["Then I'll add the docs."]);
  });

  it('reads TODOs, "still need to", open questions, "not yet implemented", "left for later" and "blocked on"', () => {
    const text =
      'TODO: add a progress bar. I still need to handle interrupted uploads. Open question: should uploads resume? ' +
      'CSV import is not yet implemented. XML is left for later. Blocked on the storage team.';
    expect(assistantFacts(text).map((f) => f.kind)).toEqual(Array(6).fill('open-item'));
  });
});

describe('factKey', () => {
  it('is equal for the same fact with other case, punctuation and markdown', () => {
    expect(factKey("Don't use lodash!")).toBe(factKey('do not use **Lodash**.'));
    expect(factKey('Never commit to `main`.')).toBe(factKey('never commit to main'));
    expect(factKey('Use exponential back-off for retries')).toBe(factKey('use exponential back off for the retries'));
  });

  it('differs for different facts, and keeps negations', () => {
    expect(factKey("Don't use lodash")).not.toBe(factKey('use lodash'));
    expect(factKey('Use SQLite over Postgres')).not.toBe(factKey('Use Postgres over SQLite'));
    expect(factKey('keep the cache in memory')).not.toBe(factKey('keep the cache on disk'));
    expect(factKey('only use the standard library')).not.toBe(factKey('use the standard library'));
  });
});

describe('robustness', () => {
  it('dedupes a fact repeated in one message', () => {
    expect(userFacts('Never commit to main. never commit to main!')).toHaveLength(1);
  });

  it('drops system reminders from a prompt', () => {
    expect(userFacts('<system-reminder>\nNever use emojis.\n</system-reminder>\nAdd a flag.')).toEqual([]);
  });

  it('completes on a 200 KB message', () => {
    const part = "I'll use zod because it is typed. Let me check the tests.\n\n- never push\n\n```\ncode\n```\n";
    const text = part.repeat(Math.ceil(200_000 / part.length));
    expect(text.length).toBeGreaterThanOrEqual(200_000);
    expect(decisions(text)).toHaveLength(1);
    expect(constraints(text)).toHaveLength(1);
  });

  it('never throws on random input', () => {
    const next = prng(42);
    const alphabet = 'aI we\'ll use because ~`*_-#>.,;:!?—\n\t()[]|0123456789"ü😀\r\u2028';
    for (let i = 0; i < 500; i++) {
      let text = '';
      const n = Math.floor(next() * 600);
      for (let k = 0; k < n; k++) text += alphabet[Math.floor(next() * alphabet.length)];
      expect(() => [assistantFacts(text), userFacts(text), factKey(text)]).not.toThrow();
    }
  });
});

describe('value facts: sentences that set a concrete value', () => {
  const values = (facts: Fact[]) => ofKind(facts, 'value').map((f) => f.text);

  it.each([
    'I raised requestTimeoutMs from 30000 to 45000.',
    'Set the port to 8443.',
    'bumped zod to 3.23.8',
    'renamed `fetchAll` to `fetchPages`',
    'Lowered the max workers from 8 to 4.',
    'Moved the config to `config/app.toml`.',
    'The cache TTL is now 300s.',
    'Upgraded TypeScript to 5.6.',
    'timeout: 30s -> 45s',
    // a named setting with its number, or an assignment in code, needs no verb
    'The server listens on port 48213.',
    'It uses a timeout of 45 s.',
    'The config has `maxRetries = 5` now.',
  ])('%s is a value, from the user and from the assistant, text kept as written', (text) => {
    expect(userFacts(text)).toEqual([{ kind: 'value', text }]);
    expect(assistantFacts(text)).toEqual([{ kind: 'value', text }]);
  });

  it('finds the value among other sentences of a reply', () => {
    const facts = assistantFacts('I looked at the client. I raised `requestTimeoutMs` from 30000 to 45000 in src/client.ts. Let me run the tests.');
    expect(facts).toEqual([{ kind: 'value', text: 'I raised `requestTimeoutMs` from 30000 to 45000 in src/client.ts.' }]);
  });

  it.each(['Should I set the port to 8443?', 'How do I set the port to 8443?', 'Why did you change the port to 8443?', 'Can we bump zod to 3.23.8?'])(
    '%s is a question, not a value',
    (text) => {
      expect(userFacts(text)).toEqual([]);
      expect(assistantFacts(text)).toEqual([]);
    },
  );

  it.each([
    'I updated the docs.',
    'Set it up properly.',
    'We changed our approach.',
    'I changed the function to be async.',
    'I moved on to the next task.',
    'The port is important.',
  ])('%s has no concrete value', (text) => {
    expect(values(userFacts(text))).toEqual([]);
    expect(values(assistantFacts(text))).toEqual([]);
  });

  it('decisions, constraints, requirements, next steps and open items keep their own kind', () => {
    expect(assistantFacts('I went with port 8443 because 443 needs root.').map((f) => f.kind)).toEqual(['decision']);
    expect(userFacts('Never set the port below 1024.').map((f) => f.kind)).toEqual(['constraint']);
    expect(userFacts('You must set the timeout to 30s.').map((f) => f.kind)).toEqual(['constraint']);
    expect(userFacts('It must support 3 retries.').map((f) => f.kind)).toEqual(['requirement']);
    expect(assistantFacts('Next: set the port to 8443.').map((f) => f.kind)).toEqual(['next-step']);
    expect(assistantFacts('TODO: bump zod to 3.23.8').map((f) => f.kind)).toEqual(['open-item']);
  });

  it('ignores values inside code fences and quotes', () => {
    expect(assistantFacts('Here is the diff:\n\n```\nset port to 8443\nbumped zod to 3.23.8\n```')).toEqual([]);
    expect(userFacts('> I raised the timeout from 30000 to 45000.\n\nWhat do you think?')).toEqual([]);
  });

  it('dedupes a value repeated in one message', () => {
    expect(assistantFacts('Set the port to 8443. Set the port to 8443!')).toEqual([{ kind: 'value', text: 'Set the port to 8443.' }]);
  });

  // Counts of work done carry a digit and a change verb but set no value; in a ledger's "Values set"
  // and the compaction brief's "Exact values set" they crowd out the real ones.
  it.each(['Updated 3 files.', 'Changed 4 call sites.', 'Moved 12 tests into the new folder.', 'Set up CI in 2 steps.', 'Step 2 is now done.'])(
    '%s is a count of work, not a value',
    (text) => {
      expect(values(assistantFacts(text))).toEqual([]);
    },
  );
});

describe('userFacts: the user choosing between named alternatives', () => {
  it.each([
    ["Let's use zod instead of yup.", 'zod', ['yup']],
    ['We should go with pnpm rather than npm.', 'pnpm', ['npm']],
  ])('%s is a decision with what it rejected', (text, chosen, rejected) => {
    const facts = userFacts(text);
    expect(facts.map((f) => f.kind)).toEqual(['decision']);
    expect(facts[0]?.chosen).toBe(chosen);
    expect(facts[0]?.rejected).toEqual(rejected);
  });

  it('a choice without an alternative stays out (it would be read as an order, not a decision)', () => {
    expect(userFacts("Let's use zod.").filter((f) => f.kind === 'decision')).toEqual([]);
  });

  it('a setting the user names with its value is a value', () => {
    expect(userFacts('The retry limit should be 5.').map((f) => f.kind)).toEqual(['value']);
  });

  it.each(["Switch the retry backoff to 250 ms while you're at it.", 'Lower the cache TTL to 30 s.', 'Bring the sample rate down to 5%.'])(
    'a change to an amount with its unit is a value: %s',
    (text) => {
      expect(userFacts(text).map((f) => f.kind)).toEqual(['value']);
    },
  );

  it.each(['Go to 3 places and check.', 'Updated 3 files to 2 lines.'])('a count of things is not a value: %s', (text) => {
    expect(userFacts(text).filter((f) => f.kind === 'value')).toEqual([]);
  });
});

describe('userFacts: a reply that decides, read with the message it answers', () => {
  const decision = (prompt: string, answered?: string) => userFacts(prompt, answered).find((f) => f.kind === 'decision');

  it.each([
    ["Pinia. We're not adding Vuex to anything in 2026.", 'Should we use **Pinia** or **Vuex** for the cart store?', 'Pinia', ['Vuex']],
    [
      'DataLoader, agreed, join-monster is too invasive.',
      'Options:\n- **DataLoader**: batch per request\n- **join-monster**: compiles to SQL',
      'DataLoader',
      ['join-monster'],
    ],
    [
      'new Input System it is; the legacy Input Manager goes.',
      'Do you want the new Input System or keep the legacy Input Manager?',
      'new Input System',
      ['legacy Input Manager'],
    ],
    ['ok resilience4j.', 'Two options: Resilience4j or Spring Cloud Circuit Breaker.', 'resilience4j', ['Spring Cloud Circuit Breaker']],
    ["next-intl. I don't want react-i18next's glue in RSC.", 'The two realistic options are next-intl and react-i18next.', 'next-intl', []],
    ['and use TanStack Query, it invalidates better', 'For data fetching, should we use SWR or TanStack Query?', 'TanStack Query', ['SWR']],
  ])('"%s" picks from the options offered', (prompt, answered, chosen, rejected) => {
    const d = decision(prompt, answered);
    expect(d?.chosen).toBe(chosen);
    expect(d?.rejected ?? []).toEqual(rejected);
    // The pick and the sentence after it, which says why or what was turned down.
    expect(d?.text.startsWith(prompt.split(/[.;]/)[0] as string)).toBe(true);
  });

  it('an approval takes the last proposal, not an earlier sentence that only looks like one', () => {
    const d = decision(
      'yes, do it',
      'We should have seen this earlier. I recommend switching the session store to Redis instead of Memcached, since Redis persists. Shall I?',
    );
    expect(d?.text).toMatch(/^I recommend switching the session store to Redis/);
    expect(d?.rejected).toEqual(['Memcached']);
  });

  it.each([
    ['ok resilience4j.', "I'd use Resilience4j: annotations, metrics in Micrometer. Hystrix isn't an option.", 'resilience4j'],
    ['agreed, async/await, drop the Combine wrappers.', "Rewrite with async/await. I wouldn't keep Combine here.", 'async/await'],
  ])('"%s" agrees, by name, to what the message proposed', (prompt, answered, chosen) => {
    expect(decision(prompt, answered)?.chosen).toBe(chosen);
  });

  it('what the offer or the reply rules out by name is rejected too', () => {
    expect(decision('ok resilience4j.', "I'd use Resilience4j: annotations, metrics in Micrometer. Hystrix isn't an option.")?.rejected).toEqual(['Hystrix']);
    expect(decision("Pinia. We're not adding Vuex to anything in 2026.", 'For the store: Pinia or a plain composable, which one?')).toMatchObject({
      chosen: 'Pinia',
      rejected: ['plain composable', 'Vuex'],
    });
    expect(
      decision('yes, do it', "I'd move the purge to Oban. Quartz-style cron in memory is off the table, and `node-cron` is not an option.")?.rejected,
    ).toEqual(['node-cron']);
    // Only names: "it is not an option to wait" rules nothing out.
    expect(decision('ok resilience4j.', "I'd use Resilience4j. Waiting for the fix isn't an option.")?.rejected).toBeUndefined();
  });

  it.each([
    ['Redis is out of memory on staging.', undefined],
    ['Cargo.lock is off the table until the lockfile is fixed.', ['Cargo.lock']],
    ["This isn't an option for us.", undefined],
    ['Downtime is not an option, so no downtime at all.', undefined],
    ['Rewriting is not an option.', undefined],
    ['See Micrometer. Hystrix is not an option.', ['Hystrix']],
    ["The worker isn't using Postgres advisory locks yet.", undefined],
    ['`node-cron` is not an option, and Quartz is ruled out.', ['node-cron', 'Quartz']],
  ])('in an offer, "%s" rules out %j', (sentence, rejected) => {
    expect(decision('ok resilience4j.', `I'd use Resilience4j: annotations, metrics in Micrometer. ${sentence}`)?.rejected).toEqual(rejected);
  });

  it('a bare name the offer wrote, set against one the reply turns down, is a choice however it was offered', () => {
    const store = 'For the store: Pinia is the official Nuxt 3 store (`@pinia/nuxt`, SSR-safe hydration, devtools).';
    expect(decision("Pinia. We're not adding Vuex to anything in 2026, it's in maintenance mode.", store)).toMatchObject({
      chosen: 'Pinia',
      rejected: ['Vuex'],
    });
    const input = 'Move to the new Input System package: action maps and rebinding. The legacy Input Manager cannot rebind at runtime.';
    expect(decision('new Input System it is; the legacy Input Manager goes.', input)).toMatchObject({
      chosen: 'new Input System',
      rejected: ['Input Manager'],
    });
    expect(decision('Sentry. Datadog has to go, too expensive.', 'Sentry is good for errors; Datadog does APM.')).toMatchObject({
      chosen: 'Sentry',
      rejected: ['Datadog'],
    });
    // Without a name turned down, or with a name the offer never wrote, a bare name decides nothing.
    expect(decision('Pinia. The cart needs a look.', store)).toBeUndefined();
    expect(decision("Zustand. We're not adding Vuex.", store)).toBeUndefined();
    // "goes" only at a clause's end: "Redis goes down" turns nothing down; nor does "Everything goes".
    expect(decision('Pinia. Redis goes down too often though.', store)).toBeUndefined();
    expect(decision('Pinia. Everything goes.', store)).toBeUndefined();
    // "can go" ships a thing; a name that does not stand alone reports, it does not pick; nor is
    // a day a name turned down; an offer's own "X goes" turns nothing down.
    expect(decision('Stripe. The PR can go.', 'Stripe handles the payments; the PR is ready.')).toBeUndefined();
    expect(decision("README.md: fine. We're not using Docker anymore, so drop that section.", 'I updated README.md and the Dockerfile.')).toBeUndefined();
    expect(decision('Grafana. Friday goes.', 'Grafana dashboards are ready for Friday.')).toBeUndefined();
    expect(decision('Pinia.', 'Should we use Pinia or Vuex? Once you pick, the PR goes.')?.rejected).toEqual(['Vuex']);
  });

  it('a name turned down is another name unless only a qualifier sets them apart', () => {
    expect(decision("Flutter. We're not adding React to the web app either.", 'Flutter or React Native for the mobile app?')?.rejected).toEqual([
      'React Native',
      'React',
    ]);
    expect(
      decision('new Input System it is; the legacy Input Manager goes.', 'Do you want the new Input System or keep the legacy Input Manager?')?.rejected,
    ).toEqual(['legacy Input Manager']);
  });

  it('a name with agreement after it ("Oban, yes.") agrees to the proposal that named it', () => {
    const offer = "For the purge I'd use Oban: jobs persist in Postgres and survive deploys.";
    expect(decision('Oban, yes. Separately, the presence metadata needs a look.', offer)?.chosen).toBe('Oban');
    expect(decision('Oban. Separately, the presence metadata needs a look.', offer)).toBeUndefined();
  });

  it('agreeing words before a name that only answers a question of fact decide nothing', () => {
    expect(decision('ok Redis. The log shows a timeout on GET.', 'Is the slowdown coming from Postgres or Redis?')).toBeUndefined();
  });

  it('"go with X" states the choice itself: X need not be written as a name', () => {
    expect(decision("let's go with zod", 'Should I use zod or yup for validation?')).toMatchObject({ chosen: 'zod', rejected: ['yup'] });
  });

  it('"do it" makes the proposal it answers a decision', () => {
    const d = decision('do it', "Yes — I'd move to ONNX Runtime and drop TorchScript. ORT gives us the CUDA provider.");
    expect(d?.text).toBe("Yes — I'd move to ONNX Runtime and drop TorchScript.");
    expect(d?.rejected).toEqual(['TorchScript']);
    expect(decision('do it', 'The tests pass now.')).toBeUndefined();
  });

  it.each([
    ['Pinia.', undefined],
    ['Thanks.', 'Should I use A or B?'],
    ['The tests. Run them again.', 'The tests pass or fail depending on the seed.'],
    ['Pinia.', 'Pinia is installed.'],
    ['riverpod?', 'Riverpod or Bloc?'],
    ['Sounds good, but first fix the login bug.', 'I could use Redis or Memcached for it.'],
    // Answers to a question of fact: it asks what is, not what to do.
    ['Redis. The log shows a timeout on GET.', 'Is the slowdown coming from Postgres or Redis?'],
    ['Firefox. It says TypeError: x is undefined.', 'Do you see the error in Chrome or Firefox?'],
    ['Linux. Ubuntu 22.04.', 'Which environment are you on — macOS or Linux?'],
    ['Lexer', 'Which stage fails?\n- Lexer\n- Parser\n- Emitter'],
    ['B', 'Option A: keep REST. Option B: move to GraphQL. Which do you prefer?'],
    ['Take a look at the CI config please', 'Should I take a look at the Docker setup or the CI config?'],
    // "ok" to what proposes nothing.
    ['go ahead', "I'd be happy to help with that! Should I start now?"],
    ['sure', 'I would need the full stack trace to tell.'],
    ['ok', "I'd guess the mock is stale."],
  ])('"%s" after %j decides nothing', (prompt, answered) => {
    expect(decision(prompt, answered)).toBeUndefined();
  });
});

describe('value facts: where something lives', () => {
  it.each([
    'The landed files should end up in /var/lib/ingest/spool on the worker.',
    'The exported model is at /models/ranker/v3/model.onnx on the GPU boxes.',
    'output goes to s3a://acme-lake/curated/sessions/ partitioned by dt.',
  ])('%s is a value', (text) => {
    expect(userFacts(text).map((f) => f.kind)).toEqual(['value']);
  });

  it.each([
    'look at src/app.ts please',
    'I read /etc/hosts and it is fine',
    'see https://example.com/docs/x for details',
    'The error points to /src/components/Button.tsx line 40.',
    'The crash is in /src/lib/parser.ts when the input is empty.',
  ])('%s is no value', (text) => {
    expect(userFacts(text).filter((f) => f.kind === 'value')).toEqual([]);
  });
});
