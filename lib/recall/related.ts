// Words a question may use for what its answer says in other words: a small thesaurus of common
// synonyms and of kinds and their members ("instrument" for the cello, "library" for undici). A
// keyword index finds only the words typed; "which http client did we pick" shares no word with
// "switched to undici", and "who is my boss" none with "my manager Priya". A word of the query
// brings its related words in at RELATED_WEIGHT, matched exactly. Written from general categories
// (everyday life, and the stack of a software project), never from a question set. Pure.
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
pet: dog cat puppy kitten parrot hamster rabbit bird fish turtle
instrument: piano guitar violin cello drums flute saxophone trumpet ukulele
apartment = flat = condo
rent = lease
house = home
car = vehicle = automobile
bike = bicycle = cycling = cycle
commute: bike bus train subway metro drive
doctor = physician = gp
dentist = dental
trip = travel = vacation = holiday = journey = getaway
flight = fly = plane = airline
hotel = accommodation = lodging = airbnb
job = career = occupation
salary = pay = wage = income = paycheck
price = cost = fee = charge
money = cash = budget = savings
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
school = class = lesson = course
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
month: january february march april may june july august september october november december
season: spring summer autumn fall winter
illness = sick = ill = flu
hobby = pastime
language: english spanish french german italian japanese chinese portuguese korean
city = town
country = nation
library = package = dependency = module = lib = crate = gem
http client: fetch axios undici got superagent ky
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
variable = var
setting = config = configuration = option = preference
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
`;

let table: Map<string, string[]> | undefined;

/** Index term → related index terms (built on first use: most queries of a hook never need it). */
function relatedTable(): Map<string, string[]> {
  if (table !== undefined) return table;
  table = new Map();
  const link = (from: string[], to: string[]) => {
    for (const a of from) {
      const list = table?.get(a) ?? [];
      for (const b of to) if (b !== a && !list.includes(b)) list.push(b);
      table?.set(a, list);
    }
  };
  // A name of two words ("http client") is one key, its terms joined by a space: it is matched
  // only as a pair of adjacent query terms. Related words are single words.
  const key = (phrase: string) => tokenize(phrase).join(' ');
  for (const line of THESAURUS.split('\n')) {
    const [head, members = ''] = line.split(':') as [string, string?];
    if (head.trim() === '') continue;
    const names = head
      .split('=')
      .map(key)
      .filter((k) => k !== '');
    const words = names.filter((k) => !k.includes(' '));
    const kinds = members
      .split(/\s+/)
      .map(key)
      .filter((k) => k !== '');
    link(names, words);
    link(names, kinds);
    for (const k of kinds) link([k], words);
  }
  return table;
}

/** Related words of a query's terms, as index terms at RELATED_WEIGHT, minus those it already has. */
export function relatedTerms(queryTerms: readonly string[]): Array<{ term: string; weight: number }> {
  const have = new Set(queryTerms);
  const out: Array<{ term: string; weight: number }> = [];
  const related = relatedTable();
  const keys = [...queryTerms, ...queryTerms.slice(1).map((t, i) => `${queryTerms[i]} ${t}`)];
  for (const k of keys) {
    for (const r of related.get(k) ?? []) {
      if (have.has(r)) continue;
      have.add(r);
      out.push({ term: r, weight: RELATED_WEIGHT });
    }
  }
  return out;
}
