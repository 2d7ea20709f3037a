import { describe, expect, it } from 'vitest';
import { tokenize } from '../../lib/archive/keywords.ts';
import { asksAdvice, FRAMING_WEIGHT, INTENT_WEIGHT, intentsOf, intentTerms } from '../../lib/recall/intent.ts';
import { PREFERENCE } from '../../lib/recall/search.ts';
import { recallSandbox } from './helpers/recall-sandbox.ts';
import { useTempDirs } from './helpers/tmp.ts';

const tempDir = useTempDirs('ctxl-intent-');

describe('intentsOf', () => {
  it.each([
    ['can I release the package by hand', ['rule']],
    ['are we allowed to cache query results per user', ['rule']],
    ['should the generated folder be committed', ['rule']],
    ['what is the rule about dropping columns', ['rule']],
    ['am I ok with storing tokens on the device', ['rule']],
    ['where am I ok with the app keeping credentials', ['rule']],
    ['how are we willing to ship changes to production', ['rule']],
    ['which http library did we choose', ['choice']],
    ['which calendar widget did we settle on', ['choice']],
    ['what did we go with for the queue, and which one did we turn down', ['choice']],
    ['did we consider a managed queue', ['choice']],
    ['can we pick another proxy', ['rule', 'choice']],
    ['how long is the session timeout', ['duration']],
    ['how often does the nightly sync run', ['duration']],
    // How long ago asks when, not how long: its units only frame it.
    ['when did I get the new bike, roughly how many weeks back', ['elapsed', 'hedge']],
    ['how long ago did we move the queue', ['elapsed']],
    ['how many days ago was the outage', ['elapsed']],
    // A time before something happens is a duration.
    ['how much time before the session token expires', ['duration']],
    ['how much am I paying for the flat these days', ['price', 'latest']],
    ['how much did my physio cost altogether', ['price']],
    ['what did the fjord holiday cost us for transport and lodging', ['price']],
    ['what did the EV and the wall box set me back', ['price']],
    ['how much is the customer willing to spend', ['price']],
    ['which offer did I take in the end', ['latest']],
    // A question of taste asks no rule ("what should I cook" is not "should I commit").
    ['can you recommend a podcast for my commute', ['taste']],
    ['any suggestions for a weekend trip for me', ['taste']],
    ['what should I cook for dinner tonight', ['taste', 'diet']],
    ['what movie should we watch', ['taste']],
    ["what's a good book for me to read next", ['taste']],
    ['I need a gift idea for my mom', ['taste']],
    ['where should I go on holiday', ['taste']],
    ['would I like the new Zelda game', ['taste']],
    ['any ideas for my sister’s birthday present', ['taste']],
    ['plan me a day out from the city', ['taste']],
    ['plan us a weekend in the mountains', ['taste']],
    ['any tips on how I should reward my dog', ['taste']],
    ['what should I get for my second monitor', ['taste']],
    ['any ideas what I should buy my partner', ['taste']],
    ['got a series Leo and I could start tonight?', ['taste']],
    ['what could I give Leo for the holidays?', ['taste']],
    ['any ideas for my next build in the workshop?', ['taste']],
    // Another person asked along ("should Leo and I"), plural meals, a flight, an outing.
    ['where should Leo and I go for date night?', ['taste']],
    ['what should I pack for the school lunches this week?', ['taste', 'diet']],
    // A meal to choose asks what the user eats (also without "I": "a garnish for tonight's curry").
    ['team lunch on friday, what should we order in?', ['taste', 'diet']],
    ["suggest a garnish for tonight's curry", ['diet']],
    ['any good pasta recipe ideas for tonight?', ['diet']],
    ['recommend something to read on my next flight', ['taste']],
    ['any ideas for a Saturday outing with my kid?', ['taste']],
    // Got a and could I with no word of leisure: code.
    ['got a fix for the flaky test?', []],
    ['could I try a smaller batch size for the import', ['rule']],
    // A monitor of code is no purchase.
    ['should I monitor the queue depth', ['rule']],
    // Code, though a word of leisure is in it: no taste (what broke is a failure).
    ['help me find why my build broke tonight', ['failure']],
    ['plan my time series rollout', []],
    ['what should I do about the flaky test', ['rule']],
    ['should the worker and I share a lock', ['rule']],
    ['should I retry the in-flight requests', ['rule']],
    ["what's our cat called?", ['name']],
    ['what did I call the bread culture I started', ['name']],
    ['what was the name of the vet who saw the dog', ['name']],
    // A call in code is no name.
    ['what is the function called when the queue drains', []],
    ['what is called twice in the handler', []],
    ['what is the cleanup function called in the shutdown path', []],
    // Cat and treats are words of code too.
    ['should I use cat or less for my logs', ['rule']],
    ['how heavy is my dog', ['weight']],
    ['how much does the new bike weigh', ['weight']],
    ['how tall is the bookcase we ordered', ['height']],
    ['how far is the cabin from the lake', ['distance']],
    ['how far am I running per week', ['distance']],
    // A request for work, worded as one: the rules the user set for it answer it (it stands in for a rule).
    ['Write me a handler that returns every hold a patron is waiting on.', ['work']],
    ['Could you draft a module that pulls the tariff table out of the export?', ['work']],
    ["I'd like to re-run one meter by hand from a terminal — can you add that?", ['work']],
    ['please add a retry to the upload client', ['work']],
    ['help me word the commit for the pausing feature', ['work']],
    ['put together a playlist to help me concentrate', ['work']],
    ['can you write the test for the sweeper, and should it use the real database?', ['work']],
    ['add a suggestion box to my form', ['work']],
    // What Claude said: its verb frames the question.
    ['which library did you recommend for dates', ['said']],
    ['what did you suggest I read about caching', ['said']],
    ['what was your recommendation for my index', ['said']],
    ['which db would you suggest for my app', ['said']],
    ['what did you recommend for dinner', ['said']],
    ['who did you suggest could look after Biscuit while we are away', ['said']],
    ['please add retry logic', ['work']],
    ['please help me word the commit', ['work']],
    ['could you help me draft the release notes', ['work']],
    ['hi, could you draft the migration for the holds table', ['work']],
    ['ok so could you write a sweeper', ['work']],
    ['Add a client for the county address lookup service.', ['work']],
    // What went wrong: the answer is an error.
    ['what went wrong when we first tried the TLS connection', ['failure']],
    ['which lint broke the CI build', ['failure']],
    ['what broke after the upgrade', ['failure']],
    ["why didn't the migration run on staging", ['failure']],
    ['why didn’t the database schema migration run', ['failure']],
    ['the importer stopped working after the rename', ['failure']],
    ['the build broke in CI', ['failure']],
    ['why is the build broken', ['failure']],
    ["what's broken in the importer", ['failure']],
    ['the tests keep breaking', ['failure']],
    ["the app isn't working", ['failure']],
    ["I can't connect to the database", ['failure']],
    ["the container won't boot", ['failure']],
    ['the request timed out', ['failure']],
  ])('%s → %j', (q, want) => {
    expect(intentsOf(q)).toEqual(want);
  });

  it.each([
    'heartbeatIntervalMs socket',
    'what failed in the build',
    'canary release notes',
    'the rules.ts file',
    'are we ok on disk space',
    'are we ok with the current latency',
    'are we fine with 2 replicas',
    'how much memory does the worker use',
    'what does the cost function return',
    // A cost in time or resources is no price; a money verb in another clause frames nothing.
    'how much did the p99 latency cost us',
    'how expensive is this query',
    'how much overhead does logging cost',
    'how much did the cache cost us in memory',
    'how much headroom do we have, and who will pay for the fix',
    // Taste is the user's, about leisure: not code, not what Claude said before.
    'suggest a fix for the flaky checkout test',
    'recommend a linter config for my repo',
    'suggest a name for my function',
    // A gap in time, or progress, is no distance.
    'how far apart were the two releases',
    'how far along is the migration',
    'how far did we get with the refactor',
    'how high did the p99 latency get',
    // A keyword query names what was done, without asking for it: no request for work.
    'build failure',
    'add retry logic',
    'write path of the cache',
    'refactor auth middleware',
    'when did we add the retry',
    'who wrote the migration',
    'refactor the auth middleware',
    'build the docker image',
    'add the retry logic',
    'generate the types',
    'add it',
    'fix: add a retry to the upload client',
    'PR #12: refactor the auth middleware',
    '- add the index',
    'step 1: create a venv',
    'word count of the readme file in the docs folder',
    'how do I bake the assets into the image',
    // Broke of the user's own things, of money or of a couple is no failure of software.
    'what was I eating when I broke my tooth',
    'we were broke that month',
    'when did Sam and Alex break up',
    'she broke the news to her parents',
    'what went well in the retro',
    'I’m broke this month',
    'when my water broke',
    'the fever finally broke',
    'I broke a bone skiing',
    'the dog broke its leash',
    // A hypothetical, or work as a place: no failure.
    'what could go wrong if we drop the index',
    "you can't go wrong with the curry house",
    'when I stopped working at Acme',
    "I didn't go to work on monday",
  ])('no intent in %j', (q) => {
    // "rules.ts" is a file name (one word), "canary" only starts like "can"; "how many" and "now"
    // are no intent (a count shares no word with its question; a fact's latest saying says "now").
    expect(intentsOf(q)).toEqual([]);
  });
});

describe('asksAdvice', () => {
  it.each([
    ['how should I deal with failures in the new forecast code', true],
    ['Can you recommend somewhere for a long weekend away with the family?', true],
    ['Could you put together a quick home workout for me?', true],
    ['what could I drink to perk up in the afternoon', true],
    ['any gift ideas for my wife', true],
    ['are we allowed to memoize query results for each account', true],
    // A rule question that looks a thing up, and questions of fact: no request for advice.
    ['can you remind me which port the broker listens on', false],
    ['can I see the error from the flaky login test', false],
    ["what's the retention policy on the raw table", false],
    ['which street is our new place on', false],
  ])('%s → %s', (q, want) => {
    expect(asksAdvice(q)).toBe(want);
  });
});

describe('intentTerms', () => {
  it('gives the answer words as index terms, at the intent weight', () => {
    const { added } = intentTerms('are we allowed to log tokens', tokenize('are we allowed to log tokens'));
    expect(added.map((t) => t.term)).toEqual(tokenize('never always must rule avoid forbidden prefer rather'));
    expect(added.every((t) => t.weight === INTENT_WEIGHT)).toBe(true);
    expect(INTENT_WEIGHT).toBeLessThan(1);
  });

  it('leaves out words the query already has, and repeats none across intents', () => {
    const q = 'what is the rule: can we pick the proxy, or should we never decide';
    const terms = intentTerms(q, tokenize(q)).added.map((t) => t.term);
    for (const own of tokenize(q)) expect(terms).not.toContain(own);
    expect(new Set(terms).size).toBe(terms.length);
    expect(terms).toContain(tokenize('instead')[0]);
  });

  it('the words that only frame the question keep a lower weight; the subject keeps its own', () => {
    const q = 'which reverse proxy did we pick for the edge';
    const { framing } = intentTerms(q, tokenize(q));
    expect([...framing]).toEqual([[tokenize('pick')[0], FRAMING_WEIGHT]]);
    expect(FRAMING_WEIGHT).toBeLessThan(INTENT_WEIGHT);
    const rule = 'are we allowed to memoize query results';
    expect([...intentTerms(rule, tokenize(rule)).framing.keys()]).toEqual(tokenize('allowed'));
  });

  it('a question of how long adds units of time; one of how things stand lowers the words of its phrase', () => {
    const q = 'how long are product pages cached';
    const { added, framing } = intentTerms(q, tokenize(q));
    expect(added.map((t) => t.term)).toEqual(tokenize('minutes hours days weeks months years'));
    expect([...framing]).toEqual([[tokenize('long')[0], FRAMING_WEIGHT]]);
    // The verb that ends "how long did … take" frames it too; take said elsewhere is the subject.
    const took = 'how long did rebuilding the whole index take?';
    expect([...intentTerms(took, tokenize(took)).framing.keys()].sort()).toEqual([...tokenize('long take')].sort());
    const takes = 'how long is a queue message hidden after a worker takes it';
    expect(intentTerms(takes, tokenize(takes)).framing.has(tokenize('take')[0] as string)).toBe(false);
    const latest = 'what rent am I paying these days';
    const own = intentTerms(latest, tokenize(latest));
    expect(own.added).toEqual([]);
    expect([...own.framing]).toEqual([[tokenize('days')[0], 0.1]]);
    // Said outside the phrase too, the word is the subject: it keeps its weight.
    const days = 'how many days do we keep logs these days';
    expect(intentTerms(days, tokenize(days)).framing.has(tokenize('days')[0] as string)).toBe(false);
    // "right now" keeps now, at half weight: a changed fact's latest saying may say it, and so may
    // anything else of the archive.
    expect(intentsOf('what is the rent right now')).toEqual(['now']);
    const still = 'am I still vegetarian?';
    expect([...intentTerms(still, tokenize(still)).framing]).toEqual([[tokenize('still')[0], 0.5]]);
    expect(intentsOf('how many retries are there now')).toEqual(['now']);
    expect(intentsOf('is it ok now')).toEqual(['now']);
    // Not a word that holds one: nowhere, stillborn, now.ts.
    expect(intentsOf('nowhere near the now.ts file')).toEqual([]);
  });

  it('a question about what Claude said frames its verb: the reply may say it, so does every other offer to help', () => {
    const q = 'who did you suggest could look after Biscuit';
    const { added, framing } = intentTerms(q, tokenize(q));
    expect(added).toEqual([]);
    expect([...framing]).toEqual([[tokenize('suggest')[0], FRAMING_WEIGHT]]);
  });

  it('a query with no intent adds nothing and frames nothing', () => {
    expect(intentTerms('websocket heartbeat', ['websocket', 'heartbeat'])).toEqual({ added: [], framing: new Map() });
  });
});

describe('answer words of a question of taste', () => {
  it('weigh what the user dislikes beside what they like, "hate" as said (its stem is hat\'s)', () => {
    const q = 'can you recommend a restaurant for my evening in Kyoto';
    const added = intentTerms(q, tokenize(q)).added.map((t) => t.term);
    expect(added).toEqual(expect.arrayContaining([...tokenize('love favorite prefer dislike rather'), 'hate=', 'hated=', 'hates=']));
    expect(added).not.toContain(tokenize('hat')[0]);
  });
});

describe('ranking with intent words (ctxl recall)', () => {
  it('a rule question ranks the chunk that states the rule above one that only shares its words', () => {
    let mention = '';
    let rule = '';
    const order = recallSandbox(tempDir(), 'dddd4444-0000-4000-8000-000000000004', (t) => {
      mention = t.assistant('The package release runs on the CI machine.');
      rule = t.assistant('Never release the package from a developer machine; it is signed in CI.');
      t.assistant('Unrelated: the websocket heartbeat is 20 seconds.');
    });
    // Without a question, the shorter chunk that shares the words wins; asked as a rule, the rule does.
    expect(order('package release machine')[0]).toBe(mention);
    expect(order('can I release the package from my machine')[0]).toBe(rule);
  });

  it('a request for work ranks the rule the user set for such work above chunks that share its words', () => {
    let rule = '';
    const order = recallSandbox(tempDir(), 'dddd4444-0000-4000-8000-000000000007', (t) => {
      rule = t.user('One rule for every handler in this codebase: never call unwrap() outside of tests, and always return errors with ?.');
      t.user('The patron page lists the holds a patron placed, newest first.');
      t.assistant('The patron page handler is in routes/patrons.rs; it lists holds by patron.');
      t.user('Holds that expire go back to the shelf; the patron gets an email.');
      t.assistant('A patron can pause their holds while they are away.');
      t.user('Unrelated: the deploy finished in 4 minutes.');
    });
    // Asked by its words, the handler that lists holds leads; asked for the work, the rule for it.
    expect(order('patron holds handler')[0]).not.toBe(rule);
    expect(order('write me a handler that lists the holds of a patron')[0]).toBe(rule);
  });

  it('a question asking what the user would like ranks what they said they love above a mere mention', () => {
    let mention = '';
    let taste = '';
    const order = recallSandbox(tempDir(), 'dddd4444-0000-4000-8000-000000000006', (t) => {
      mention = t.user('The podcast app crashed again when I opened it on the train.');
      taste = t.user('On the train I mostly listen to podcasts about history, I love long episodes on ancient Rome.');
      t.assistant('Unrelated: the deploy finished in 4 minutes.');
    });
    expect(order('podcast train')[0]).toBe(mention);
    expect(order('can you recommend a podcast for my train ride')[0]).toBe(taste);
  });

  it('a question of how heavy ranks the chunk with a weight in its units above one that only says heavy', () => {
    let mention = '';
    let weight = '';
    const order = recallSandbox(tempDir(), 'dddd4444-0000-4000-8000-000000000007', (t) => {
      mention = t.user('Walked the dog in heavy rain again.');
      weight = t.user('The vet put the dog on the scale: 29 kilos, right where she should be.');
      t.assistant('Unrelated: the deploy finished in 4 minutes.');
    });
    expect(order('dog heavy')[0]).toBe(mention);
    expect(order('how heavy is my dog')[0]).toBe(weight);
  });

  it('"these days" does not find every chunk that says days; "how long" finds the one with a duration', () => {
    let paint = '';
    let rent = '';
    let ttl = '';
    let cache = '';
    const order = recallSandbox(tempDir(), 'dddd4444-0000-4000-8000-000000000005', (t) => {
      paint = t.user('two days to paint the flat, then days of sanding the floors');
      rent = t.user('we moved, and the rent is 1,325 a month');
      cache = t.assistant('Product pages are cached at the edge.');
      ttl = t.assistant('Product pages are now cached for 5 minutes, then regenerated in the background.');
    });
    expect(order('rent flat days')[0]).toBe(paint);
    expect(order('how much is the rent on the flat these days')[0]).toBe(rent);
    expect(order('product pages cached')[0]).toBe(cache);
    expect(order('how long are the product pages cached')[0]).toBe(ttl);
  });

  it('a question of what something cost ranks what the user said it cost above advice about costs', () => {
    let price = '';
    const order = recallSandbox(tempDir(), 'dddd4444-0000-4000-8000-000000000009', (t) => {
      price = t.user(
        'First physio session today with Kirsty at the clinic in town. It is £48 a session and she reckons I need five or six, and gave me exercises for the shoulder.',
      );
      t.user('Discharged from physio today after my fifth session with Kirsty: the shoulder is about 90 percent.');
      for (let i = 0; i < 3; i++) t.assistant(`Tip ${i}: list fixed costs first; compare the price, the fee and the charge; costs add up.`);
      for (let i = 0; i < 12; i++) t.assistant(`Note ${i}: the dashboard heartbeat stays at 20 seconds, and the report job runs nightly.`);
    });
    expect(order('how much did my physio cost altogether')[0]).toBe(price);
  });

  it('a failure phrase frames only its own words: what did not run or broke stays a word of the question', () => {
    const framed = (q: string) => [...intentTerms(q, tokenize(q)).framing.keys()];
    expect(framed("why didn't the migration run on staging")).not.toContain(tokenize('migration')[0]);
    expect(framed("why didn't the migration run on staging")).not.toContain(tokenize('run')[0]);
    expect(framed('which lint broke the CI build')).not.toContain(tokenize('lint')[0]);
    expect(framed('what went wrong with the deploy')).toEqual(tokenize('went wrong'));
  });

  it.each([
    'For the record: I prefer thiserror in the library crates.',
    "we'd much rather use trains and ferries than internal flights",
    'Just no overhead pressing or anything that aggravates the shoulder please.',
    "I've already stopped having any caffeine after midday.",
    "budget is tight, I don't want per-request pricing",
    "I'm allergic to nuts",
    'so pescatarian now, not strict veggie',
    'One thing about me: I like keeping dependencies minimal.',
    'and no ORMs please, I got burned by GORM',
    "I'm not a big fan of crowded places",
    "I'm lactose intolerant",
    "I'm really into folk music",
    'My preference is tabs.',
    "Don't use lodash in the new code.",
    'my wife hates seafood',
    'we always deploy on Tuesdays',
    'no overhead pressing please',
    'Never cache search results per user in Redis.',
  ])('a preference stated: %j', (text) => {
    expect(PREFERENCE.test(text)).toBe(true);
  });

  it.each([
    "I'd like you to add a retry to the upload client",
    'the likelihood of a retry storm is low',
    'please add the index',
    'we always know where the config lives',
    'the preferences table has a user_id column',
    // What happened, or a request: no preference.
    'I always get a 500 on login',
    'I only changed one line',
    "I don't have access to staging",
    'and no luck, please help',
    "I'd love it if you could fix the flaky login test",
    'my favorites page throws a TypeError',
    "I'm into the third step of the guide",
    "I've stopped the dev server",
    "I don't doubt it",
    'Always returns null here.',
    "Don't worry about the tests.",
  ])('no preference stated: %j', (text) => {
    expect(PREFERENCE.test(text)).toBe(false);
  });

  it('a request for advice ranks what the user said they prefer above what else they said of it', () => {
    let preference = '';
    const order = recallSandbox(tempDir(), 'dddd4444-0000-4000-8000-00000000000b', (t) => {
      preference = t.user(
        "Let's clean up error handling. For the record: I prefer thiserror in the library crates and anyhow only at the binary edge, and no unwrap() outside tests.",
      );
      t.user('The new forecast code is in, and its tests pass.');
      t.user('Next: cache the hourly forecast per site.');
      for (let i = 0; i < 12; i++) t.assistant(`Note ${i}: the dashboard heartbeat stays at 20 seconds, and the report job runs nightly.`);
    });
    expect(order('how should I handle errors in the new forecast code')[0]).toBe(preference);
  });

  it('a question of what went wrong ranks the run that failed above a later run that worked', () => {
    let failed = '';
    const order = recallSandbox(tempDir(), 'dddd4444-0000-4000-8000-00000000000a', (t) => {
      t.user('Point the collector at the production gateway; the connection settings are in prod.toml.');
      [failed] = t.tool(
        'Bash',
        { command: 'cargo run -p collector -- --config prod.toml --for 10s', description: 'Run against the production gateway' },
        'Error: TLS handshake failed\n\nCaused by:\n    0: io error: invalid peer certificate: UnknownIssuer',
      );
      t.tool(
        'Bash',
        { command: 'cargo run -p collector -- --config prod.toml --for 10s', description: 'Run again with the internal CA' },
        'INFO collector: connected host=gw.internal port=8883 tls=true\nINFO collector: TLS connection up, received 4,790 messages in 10.0s',
      );
      for (let i = 0; i < 12; i++) t.assistant(`Note ${i}: the dashboard heartbeat stays at 20 seconds, and the report job runs nightly.`);
    });
    expect(order('what went wrong when we tried the TLS connection to the gateway')[0]).toBe(failed);
  });
});
