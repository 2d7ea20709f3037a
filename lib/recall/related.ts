// Words a question may use for what its answer says in other words: a small thesaurus of common
// synonyms and of kinds and their members ("instrument" for the cello, "library" for undici), and
// the irregular forms of common verbs (bought for buy); and a verb's noun of action and back
// (derivedStems: migration for migrate). A keyword index finds only the words
// typed; "which http client did we pick" shares no word with "switched to undici", and "who is my
// boss" none with "my manager Priya". A word of the query brings its related words in at
// RELATED_WEIGHT (its other forms at FORM_WEIGHT), matched exactly. Written from general
// categories (everyday life, and the stack of a software project). The dev set's questions were
// known when it was written, and two entries were taken out again after each cost one of them its
// place ("build" for built, "api" for route: everyday nouns of software work). So were words whose
// stem is a common word of code or chat (setting → set, plane → plan, class, course, may, fall,
// lib, home, got, fetch; left, made, found), a test keeps them out. Pure.
import { tokenize } from '../archive/keywords.ts';

/** Weight of a related word beside a word of the question (1). */
export const RELATED_WEIGHT = 0.4;

// `a = b = c`: words that stand for one another. `kind: a b c`: the kind stands for each member
// and each member for the kind, but members not for one another (a dog is not a cat).
const THESAURUS = `
boss = manager = supervisor
sibling: sister brother
parent: mother father mom dad mum
child = kid: son daughter baby
spouse = partner: wife husband girlfriend boyfriend fiance fiancee
relative: aunt uncle cousin niece nephew grandmother grandfather grandma grandpa
friend = buddy = pal
colleague = coworker = teammate
pet: dog cat puppy kitten parrot hamster rabbit bird turtle
instrument: piano guitar violin cello drums flute saxophone trumpet ukulele
apartment = flat = condo
rent = lease
car = vehicle = automobile
bike = bicycle = cycling = cycle
commute: bike bus train subway metro drive
doctor = physician = gp
dentist = dental
trip = travel = vacation = holiday = journey = getaway
flight = fly = airline
hotel = accommodation = lodging = airbnb
job = career = occupation
salary = pay = wage = income = paycheck
price = cost = fee = charge
money = cash = budget
book = novel
movie = film
show = series
song = music
concert = gig
sport: tennis soccer football basketball baseball golf volleyball hockey swimming
exercise = workout = training = gym
jog = jogging = running
race: marathon triathlon
wedding = marriage = married
birthday = anniversary
school = lesson
university = college
teacher = instructor = tutor = coach
food = meal = dish = recipe
allergy = allergic = intolerant
color: red green blue yellow orange purple pink black white gray grey brown beige teal navy
garden = yard
phone = mobile = cellphone = smartphone
computer = laptop = pc = desktop
weekend: saturday sunday
weekday: monday tuesday wednesday thursday friday
month: january february march april june july august september october november december
season: spring summer autumn winter
illness = sick = ill = flu
hobby = pastime
language: english spanish french german italian japanese chinese portuguese korean
city = town
country = nation
medicine = medication = meds = pill = prescription
store = shop = supermarket = grocery
gift = present
restaurant = cafe = diner = bistro
meal: breakfast lunch dinner brunch
drink: coffee tea beer wine juice
clothes = clothing = outfit: shirt dress jacket shoes jeans sweater coat
shoes = sneakers = boots
sofa = couch
furniture: sofa couch chair desk bed wardrobe
appliance: fridge refrigerator oven microwave dishwasher dryer
tv = television
hike = hiking = trek
camp = camping
photo = picture = photograph
exercise: yoga pilates swimming cycling running
neighbor = neighbour
appointment = booking = reservation
company = employer = firm
degree: bachelor master phd diploma
loan = mortgage = debt
hospital = clinic
surgery = operation
injury = injured = hurt
pain = ache = sore
diet = nutrition
vitamin = supplement
therapist = counselor = counsellor = psychologist
party = celebration
conference = summit = convention
motorcycle = motorbike
invoice = bill
tax = taxes
homework = assignment
vegetarian = veggie
dessert: cake pie cookie pudding
library = package = dependency = module = crate = gem
http client: axios undici superagent ky
database = db = datastore: postgres postgresql mysql sqlite mongodb mariadb dynamodb
cache = caching = memoize = memoization: redis memcached
queue = broker: kafka rabbitmq sqs bullmq nats
search engine: elasticsearch opensearch meilisearch typesense solr
error = exception = failure = fault
crash = panic = segfault
bug = defect = regression
fix = patch = hotfix
test = spec = testing
framework: react vue angular svelte express fastify django flask rails nextjs
component = widget
date = calendar
folder = directory = dir
repo = repository
function = method = func = procedure
config = configuration = option = preference
timeout = deadline
latency = delay = lag
speed = performance = perf
deploy = release = ship = publish = rollout
server = host
container = docker = podman
ci = pipeline: jenkins circleci buildkite
auth = authentication = login = signin: oauth sso jwt
password = credential = secret
log = logging = logger
documentation = docs = readme
schedule = scheduler = cron
endpoint = route
env = environment
memory = ram = heap
cpu = processor
disk = storage
upgrade = update = bump
remove = delete
refactor = restructure = cleanup
linter = lint: eslint biome ruff pylint clippy
formatter: prettier biome black rustfmt gofmt
bundler: webpack vite esbuild rollup parcel
package manager: npm yarn pnpm bun pip cargo
programming language: typescript javascript python rust golang java kotlin swift ruby
editor = ide: vscode vim neovim emacs
orm: prisma drizzle typeorm sequelize sqlalchemy
test runner: jest vitest mocha pytest
cloud: aws gcp azure
monitoring = observability: datadog grafana prometheus sentry
`;

// Irregular forms of common verbs, which a suffix stemmer cannot meet: "where did I buy my shoes"
// of "I bought them at…". Forms that are stop words (had, was, did) are left out by the tokenizer.
const FORMS = `
buy bought
go went gone
run ran
meet met
take took taken
give gave given
see saw seen
eat ate eaten
drive drove driven
fly flew flown
write wrote written
begin began begun
pay paid
spend spent
sell sold
keep kept
tell told
think thought
teach taught
catch caught
bring brought
feel felt
lose lost
send sent
win won
break broke broken
forget forgot forgotten
hear heard
hold held
know knew known
ride rode ridden
sing sang sung
sleep slept
speak spoke spoken
stand stood
swim swam swum
throw threw thrown
wake woke woken
wear wore worn
grow grew grown
draw drew drawn
choose chose chosen
`;

/** Weight of another form of a query's word: nearly the word itself. */
export const FORM_WEIGHT = 0.9;

/** The thesaurus and the verb forms, lower case, a line each (split once). */
let lines: { thesaurus: string[]; forms: string[] } | undefined;

/**
 * Index term → related index terms and their weights, from the lines that may hold one of
 * `needles` (index terms): a term's links all come from lines it is on, and a stem keeps its
 * word's first three letters, so a line without those letters cannot matter. Tokenizing the whole
 * thesaurus took each `/recall` ~2.7 ms; the few lines a query's words are on, a tenth of that.
 */
function relatedTable(needles: readonly string[]): Map<string, Map<string, number>> {
  lines ??= { thesaurus: THESAURUS.toLowerCase().split('\n'), forms: FORMS.toLowerCase().split('\n') };
  const prefixes = [...new Set(needles.filter((n) => n !== '').map((n) => n.slice(0, 3)))];
  const wanted = (line: string) => prefixes.some((p) => line.includes(p));
  const built = new Map<string, Map<string, number>>();
  const link = (from: readonly string[], to: readonly string[], weight: number) => {
    for (const a of from) {
      const list = built.get(a) ?? new Map<string, number>();
      for (const b of to) if (b !== a && (list.get(b) ?? 0) < weight) list.set(b, weight);
      built.set(a, list);
    }
  };
  // A name of two words ("http client") is one key, its terms joined by a space: it is matched
  // only as a pair of adjacent query terms (adjacent once stop words are left out, as the index
  // sees them). Related words are single words.
  const key = (phrase: string) => tokenize(phrase).join(' ');
  const keys = (text: string, sep: string | RegExp) =>
    text
      .split(sep)
      .map(key)
      .filter((k) => k !== '');
  for (const line of lines.thesaurus) {
    if (!wanted(line)) continue;
    const [head, members = ''] = line.split(':') as [string, string?];
    const names = keys(head, '=');
    if (names.length === 0) continue;
    const words = names.filter((k) => !k.includes(' '));
    const kinds = keys(members, /\s+/);
    link(names, words, RELATED_WEIGHT);
    link(names, kinds, RELATED_WEIGHT);
    for (const k of kinds) link([k], words, RELATED_WEIGHT);
  }
  for (const line of lines.forms) {
    if (!wanted(line)) continue;
    const forms = keys(line, /\s+/);
    link(forms, forms, FORM_WEIGHT);
  }
  return built;
}

/**
 * Related words of a query's terms, as index terms with their weights, minus those it already has.
 * Terms in `silent` (the words that only frame a question, kept at a lower weight) bring none.
 */
export function relatedTerms(queryTerms: readonly string[], silent: ReadonlySet<string> = new Set()): Array<{ term: string; weight: number }> {
  const sources = queryTerms.map((t) => (silent.has(t) ? '' : t));
  const related = relatedTable(sources);
  const best = new Map<string, number>();
  const keys = [...sources, ...sources.slice(1).map((t, i) => (t === '' || sources[i] === '' ? '' : `${sources[i]} ${t}`))];
  for (const k of keys) for (const [term, weight] of related.get(k) ?? []) if ((best.get(term) ?? 0) < weight) best.set(term, weight);
  const have = new Set(queryTerms);
  return [...best].filter(([term]) => !have.has(term)).map(([term, weight]) => ({ term, weight }));
}

/** Weight of a word's noun of action for its verb, and the other way (migrate: migration). */
export const DERIVED_WEIGHT = 0.4;

/**
 * A term's noun of action or its verb, as index terms (the light stemmer keeps them apart:
 * migrat / migration, configur / configuration, deploy / deployment, fail / failur, analys / analysis).
 * "Why did the migration fail" is asked of "migrating the users table failed". Stems of five
 * letters or more (port is not portion, bill not billion, station not stat); -ure from four (fail).
 */
export function derivedStems(term: string): string[] {
  if (!/^[a-z]{4,}$/.test(term)) return [];
  const out: string[] = [];
  const add = (s: string, min = 5) => {
    if (s.length >= min && s !== term && !out.includes(s)) out.push(s);
  };
  if (term.endsWith('ation')) {
    add(term.slice(0, -5)); // configuration: configur, installation: install
    add(term.slice(0, -3)); // migration: migrat
  } else if (term.endsWith('ion'))
    add(term.slice(0, -3)); // connection: connect
  else if (term.endsWith('ement'))
    add(term.slice(0, -5)); // management: manag
  else if (term.endsWith('ment'))
    add(term.slice(0, -4)); // deployment: deploy
  else if (term.endsWith('ysis')) {
    add(`${term.slice(0, -4)}ys`); // analysis: analys, analyz
    add(`${term.slice(0, -4)}yz`);
  } else if (/y[sz]$/.test(term)) add(`${term.slice(0, -1)}sis`);
  else {
    if (term.endsWith('ur'))
      add(term.slice(0, -2), 4); // failur: fail
    else add(`${term}ur`, 4); // fail: failur
    if (term.length >= 5) for (const suffix of ['ion', 'ation', 'ment', 'ement']) add(`${term}${suffix}`);
  }
  return out;
}

/** The thesaurus's words and two-word names, and the verb forms, as written (for tests). */
export function thesaurusEntries(): { words: string[]; names: string[] } {
  const words: string[] = [];
  const names: string[] = [];
  for (const line of THESAURUS.split('\n')) {
    const [head, members = ''] = line.split(':') as [string, string?];
    for (const name of head.split('=').map((n) => n.trim())) {
      if (name === '') continue;
      if (name.includes(' ')) names.push(name);
      else words.push(name);
    }
    words.push(...members.split(/\s+/).filter((w) => w !== ''));
  }
  for (const line of FORMS.split('\n')) words.push(...line.split(/\s+/).filter((w) => w !== ''));
  return { words, names };
}
