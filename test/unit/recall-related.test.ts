import { describe, expect, it } from 'vitest';
import { productName, tokenize } from '../../lib/archive/keywords.ts';
import { derivedStems, FORM_WEIGHT, RELATED_WEIGHT, relatedTerms, thesaurusEntries } from '../../lib/recall/related.ts';
import { recallSandbox } from './helpers/recall-sandbox.ts';
import { useTempDirs } from './helpers/tmp.ts';

const tempDir = useTempDirs('ctxl-related-');
const related = (q: string) => relatedTerms(tokenize(q)).map((r) => r.term);
const term = (word: string) => tokenize(word)[0] as string;

describe('relatedTerms', () => {
  it('links synonyms both ways, at the related weight', () => {
    expect(related('boss')).toEqual(expect.arrayContaining([term('manager'), term('supervisor')]));
    expect(related('manager')).toContain(term('boss'));
    // An animal's young is the animal; a sport's kind is the sport.
    expect(related("what's our cat called")).toContain(term('kitten'));
    expect(related('where do I go bouldering')).toContain(term('climbing'));
    expect(related('when should I schedule training')).toContain(term('running'));
    expect(relatedTerms(tokenize('boss')).every((r) => r.weight === RELATED_WEIGHT)).toBe(true);
    expect(RELATED_WEIGHT).toBeLessThan(1);
  });

  it('links a kind to its members and each member to the kind, but not members to one another', () => {
    expect(related('instrument')).toEqual(expect.arrayContaining([term('cello'), term('violin')]));
    expect(related('cello')).toContain(term('instrument'));
    expect(related('dog')).toContain(term('pet'));
    expect(related('dog')).not.toContain(term('cat'));
  });

  it('gives the irregular forms of a common verb at the form weight, above related words', () => {
    const forms = relatedTerms(tokenize('where did I buy the shoes'));
    expect(forms).toContainEqual({ term: term('bought'), weight: FORM_WEIGHT });
    expect(related('flew')).toEqual(expect.arrayContaining([term('fly'), term('flown')]));
    expect(FORM_WEIGHT).toBeGreaterThan(RELATED_WEIGHT);
    expect(FORM_WEIGHT).toBeLessThan(1);
  });

  it('every word is one index term, none a stop word, and none stems into a common word of code or chat', () => {
    const { words, names } = thesaurusEntries();
    expect(words.length).toBeGreaterThan(300);
    // (A product with a kind's suffix also gives its name alone: "mongodb", "mongo".)
    for (const w of words) expect(tokenize(w), w).toHaveLength(productName(w) === undefined ? 1 : 2);
    for (const n of names) expect(tokenize(n), n).toHaveLength(2);
    // Stems that are everyday words of a coding session or a chat in their own right.
    const common = new Set(
      tokenize(
        'set plan save class course may fall lib home var got fetch left made found get build api sat strip profile alert template mis polar ' +
          'range stage pool exhaust diagnose vet room utility subscription refill retriever rescue adopt died premium lift bake chore groom espresso rum craft wal rom',
      ),
    );
    for (const w of words) expect(common.has(tokenize(w)[0] as string), w).toBe(false);
  });

  it.each([
    ['which stage of the pipeline failed', ['party', 'celebration']],
    ['how did we fix the leak in the worker pool', ['swim', 'swimmer']],
    ['why does go vet complain', ['veterinarian', 'flea']],
    ['what date range does the report cover', ['ring', 'rung']],
    ['the worker process died', ['funeral', 'memorial']],
    ['the utility function for dates', ['electricity', 'gas']],
    ['graphql subscription events', ['netflix', 'spotify']],
    ['chat room over the websocket', ['bedroom', 'kitchen']],
    ['why did poetry install fail', ['poem', 'poet']],
    ['chore commits in the changelog', ['laundry', 'housework']],
    ['backlog grooming notes', ['haircut', 'wedding']],
  ])('an everyday word does not come with a coding question: %j', (q, unwanted) => {
    const got = related(q);
    for (const w of unwanted) expect(got, w).not.toContain(term(w));
  });

  it('names a library or tool by its category, across ecosystems, and a member brings a one-word kind', () => {
    expect(related('which validation library did we pick')).toEqual(expect.arrayContaining([term('zod'), term('pydantic'), term('joi')]));
    expect(related('why not the classic state management library')).toEqual(expect.arrayContaining([term('vuex'), term('redux')]));
    expect(related('what runs the job scheduler')).toEqual(expect.arrayContaining([term('quantum'), term('quartz')]));
    expect(related('which background job library')).toEqual(expect.arrayContaining([term('sidekiq'), term('oban'), term('celery')]));
    expect(related('messages in the dead letter queue')).toContain(term('dlq'));
    expect(related('the watchdog fired')).toContain(term('wdt'));
    expect(related('serilog')).toContain(term('logger'));
    expect(related('terraform')).toContain(term('iac'));
    // A member of a kind named only in two words ("background job") brings nothing back.
    expect(related('sidekiq')).toEqual([]);
  });

  it('matches a two-word name only as adjacent words of the query', () => {
    expect(related('which http client did we pick')).toContain(term('undici'));
    expect(related('the gateway client logs')).not.toContain(term('undici'));
    expect(related('client over http')).not.toContain(term('undici'));
  });

  it('a word that only frames the question brings no related words', () => {
    // "choose" frames "which library did we choose" (intent.ts): its forms would outweigh it.
    expect(related('choose')).toContain(term('chose'));
    const q = tokenize('which library did we choose');
    expect(relatedTerms(q, new Set(tokenize('choose'))).map((r) => r.term)).not.toContain(term('chose'));
    expect(relatedTerms(q, new Set(tokenize('choose'))).map((r) => r.term)).toContain(term('package'));
    expect(relatedTerms(tokenize('boss'), new Set(tokenize('boss')))).toEqual([]);
  });

  it('adds no word the query has, none twice, and nothing for words it does not know', () => {
    const q = 'boss manager supervisor';
    expect(related(q)).toEqual([]);
    const terms = related('database db postgres cache');
    expect(new Set(terms).size).toBe(terms.length);
    expect(related('heartbeatIntervalMs socket')).toEqual([]);
  });
});

describe('derivedStems', () => {
  const derived = (word: string) => derivedStems(term(word));
  it("gives a verb's noun of action and a noun's verb, as the index holds them", () => {
    expect(derived('migration')).toContain(term('migrating'));
    expect(derived('migrate')).toContain(term('migrations'));
    expect(derived('deployment')).toContain(term('deployed'));
    expect(derived('deploy')).toContain(term('deployment'));
    expect(derived('failure')).toContain(term('failed'));
    expect(derived('fail')).toContain(term('failures'));
    expect(derived('configuration')).toContain(term('configured'));
    expect(derived('configure')).toContain(term('configuration'));
    expect(derived('installation')).toContain(term('install'));
    expect(derived('analysis')).toEqual(expect.arrayContaining([term('analysing'), term('analyzed')]));
    expect(derived('analyze')).toContain(term('analysis'));
    expect(derived('management')).toContain(term('managed'));
    // And a verb's doer: who teaches me, of my teacher; the builder, of what it builds.
    expect(derived('teaches')).toContain(term('teacher'));
    expect(derived('teacher')).toContain(term('teaching'));
    expect(derived('builder')).toContain(term('build'));
    // Not from a short word: a timer is no doer of time.
    expect(derived('timer')).not.toContain(term('time'));
  });

  it('leaves short stems alone: port is not portion, bill not billion, station not stat', () => {
    expect(derived('port')).not.toContain(term('portion'));
    expect(derived('bill')).not.toContain(term('billion'));
    expect(derived('station')).toEqual([]);
    expect(derivedStems('ts2304')).toEqual([]);
  });
});

describe('ranking with related words (ctxl recall)', () => {
  it("finds a verb's saying for a question in its noun, and the other way", () => {
    let migrating = '';
    let failure = '';
    const order = recallSandbox(tempDir(), 'ffff6666-0000-4000-8000-000000000007', (t) => {
      migrating = t.user('Migrating the walrus table broke the nightly export.');
      failure = t.assistant('The failure came from the narwhal cron, which runs before the backup.');
      for (let i = 0; i < 8; i++) t.assistant(`Note ${i}: the walrus dashboard and the narwhal report are refreshed nightly.`);
    });
    expect(order('which walrus migration broke something')[0]).toBe(migrating);
    expect(order('why did the narwhal job fail')[0]).toBe(failure);
  });

  it('a kind still links to its members named with a db or js suffix, by their whole names', () => {
    expect(related('database')).toEqual(expect.arrayContaining([term('mongodb'), term('dynamodb'), term('cockroachdb')]));
    expect(related('framework')).toEqual(expect.arrayContaining([term('nextjs'), term('nestjs')]));
    expect(related('mongodb')).toContain(term('database'));
  });

  it('a product a command or a log names with its db or js suffix is found by its name alone', () => {
    let bench = '';
    const order = recallSandbox(tempDir(), 'ffff6666-0000-4000-8000-000000000010', (t) => {
      t.user('Benchmark the two stores on a year of aggregates, then we pick one.');
      [bench] = t.tool(
        'Bash',
        { command: 'cargo run --release --bin bench_stores -- --rows 1y', description: 'Run the storage benchmark' },
        'store        load_time  disk_size  q_monthly\ntimescaledb  6m12s      41.3 GB    4.82 s\nclickhouse   1m48s       6.2 GB    0.31 s',
      );
      for (let i = 0; i < 8; i++) t.assistant(`Note ${i}: the dashboard heartbeat stays at 20 seconds, and the report job runs nightly.`);
    });
    expect(order('how did Timescale do in the benchmark')[0]).toBe(bench);
  });

  it('a question in other words than its answer finds it: the kind for a member, a synonym, another form', () => {
    let manager = '';
    let cello = '';
    let shoes = '';
    const order = recallSandbox(tempDir(), 'ffff6666-0000-4000-8000-000000000006', (t) => {
      manager = t.user('My manager Priya wants the quarterly report by Friday.');
      cello = t.user("I've been learning to play the cello for three months now.");
      shoes = t.user('I bought the trail shoes at the outlet by the harbour.');
      for (let i = 0; i < 8; i++) t.assistant(`Note ${i}: the dashboard heartbeat stays at 20 seconds, and the report job runs nightly.`);
    });
    const first = (q: string) => order(q)[0];
    expect(first('who is my boss')).toBe(manager);
    expect(first('which instrument am I studying')).toBe(cello);
    expect(first('what did I buy')).toBe(shoes);
  });

  it('a word the archive never holds lets its related words stand in for it, above the other words alone', () => {
    let flaky = '';
    const order = recallSandbox(tempDir(), 'ffff6666-0000-4000-8000-000000000007', (t) => {
      flaky = t.user('The checkout test is flaky again: it failed once in CI this morning.');
      t.assistant('Fixed the checkout test: the stale price fixture, as planned.');
      t.assistant('Fixed the typo in the readme.');
      t.assistant('Fixed the build.');
      for (let i = 0; i < 12; i++) t.assistant(`Note ${i}: the dashboard heartbeat stays at 20 seconds, and the report job runs nightly.`);
    });
    // "unreliable" is in no chunk: flaky stands for it at more than a related word's weight.
    expect(order('which unreliable checkout test did we fix')[0]).toBe(flaky);
  });

  it('links a number said in words, as an ordinal and (one way) in digits, and a country to its cities', () => {
    expect(related('the third item')).toEqual(expect.arrayContaining([term('3'), term('3rd'), term('three')]));
    expect(related('ten years')).toEqual(expect.arrayContaining([term('10'), term('tenth')]));
    // Digits are often a version: "router 3" brings no three.
    expect(related('what changed in router 3')).not.toContain(term('three'));
    expect(related('our Scandinavian holiday')).toEqual(expect.arrayContaining([term('norway'), term('sweden')]));
    expect(related('my trip to Germany')).toEqual(expect.arrayContaining([term('hamburg'), term('berlin')]));
    expect(related('back from Hamburg')).toContain(term('germany'));
    // Members of a kind stand for the kind, not for one another.
    expect(related('back from Hamburg')).not.toContain(term('berlin'));
  });

  it('a compound word the archive never holds lets its two parts stand in for it', () => {
    let config = '';
    const order = recallSandbox(tempDir(), 'ffff6666-0000-4000-8000-000000000009', (t) => {
      config = t.user('The broker settings for the first site: host = gw.site-one.internal, port = 8883, client name = ingest-dev.');
      t.assistant('The broker is up again after the restart.');
      t.assistant('Renamed the broker topic for the first site.');
      for (let i = 0; i < 12; i++) t.assistant(`Note ${i}: the dashboard heartbeat stays at 20 seconds, and the report job runs nightly.`);
    });
    // "hostname" is in no chunk: host and name stand for it.
    expect(order("what's the hostname of the broker")[0]).toBe(config);
  });

  it('a short word the archive lacks (a typo) is not split into held pieces: udpate is not udp and ate', () => {
    let update = '';
    const order = recallSandbox(tempDir(), 'ffff6666-0000-4000-8000-00000000000a', (t) => {
      t.user('The UDP listener failed again: it ate the buffer.');
      update = t.user('The nightly update failed.');
      for (let i = 0; i < 12; i++) t.assistant(`Note ${i}: the dashboard heartbeat stays at 20 seconds, and the report job runs nightly.`);
    });
    expect(order('why did the udpate fail')[0]).toBe(update);
  });
});
