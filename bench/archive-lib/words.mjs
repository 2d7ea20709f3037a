// Vocabulary for synthesized coding sessions. Ordered roughly by how often each word shows up in real
// Claude Code traffic, so a Zipf draw over the list gives a realistic term-frequency curve. Kept apart
// from the generator so that changing a list is visibly a change of the generator (bump its version).

const split = (s) => s.trim().split(/\s+/);

/** Function words and common English, most frequent first. */
export const COMMON = split(`
the to a and of is in it that for this we be on with as not you i are or if can at by from but so
have an will was do all which there its use one would they should just need now then when what also
let me here more some than only into out up other about each new make like see after first check
because still how where any these those our been before both same may over again already get set add
run fix keep look try change update call read write move work start stop return pass fail show give
instead while since until without every whether either rather another such much many few most less
next last right left true false null empty full part whole single double small large long short
good bad better best wrong broken clean simple clear exact real actual current previous original final
`);

/** Programming and project words (the bulk of what identifiers are made of). */
export const TECH = split(`
file path line test error config value name type function module import export default class method
option options argument args param params result results response request client server handler
route router endpoint api http https url query body header headers status code message log logs
logger debug info warn trace event events hook hooks session sessions user users account auth token
cache store storage database db table row column schema migration migrations model models index key
keys id ids field fields record records item items list array map set object string number boolean
date time timestamp timeout timer interval delay retry retries backoff limit max min size count length
offset cursor page pages batch queue job jobs worker workers task tasks thread process pool connection
socket stream buffer chunk chunks byte bytes encode decode parse parser serialize format render view
component components props state context provider reducer action actions store effect memo ref node
tree graph edge path root parent child children sibling build bundle compile compiler lint linter
format formatter deploy release version tag branch commit merge rebase diff patch review ci pipeline
docker image container cluster pod service services network proxy gateway load balancer port host
domain dns tls cert certificate secret secrets env environment variable variables flag flags feature
toggle metric metrics trace tracing span spans alert alerts monitor dashboard health check probe ready
live restart crash panic exception stack frame frames line column source map target output input
stdin stdout stderr exit signal kill spawn fork child pid lock mutex semaphore atomic race deadlock
async await promise callback resolve reject then catch finally throw try sync stream pipe transform
filter reduce sort search find match regex pattern replace split join trim slice concat merge clone
copy deep shallow equal compare diff hash digest sign verify encrypt decrypt random seed uuid nonce
template layout style theme color font icon button form input select checkbox modal dialog toast
table grid cell header footer sidebar menu nav link image upload download export import csv json yaml
xml html css markdown text plain binary base64 utf8 ascii unicode locale language translation i18n
email notification webhook subscription payment invoice order cart product price discount tax
report analytics event tracking session cookie storage local remote sync offline online fetch axios
retry circuit breaker fallback cache invalidate ttl expire eviction lru warm cold hot path slow fast
benchmark profile memory leak heap gc cpu latency throughput p95 p99 median mean budget quota rate
limiter throttle debounce scheduler cron daemon watcher reload hot module replacement dev prod staging
fixture fixtures mock mocks stub spy snapshot assertion expect describe suite case unit e2e coverage
integration smoke regression flaky skip only todo plan spec doc docs readme changelog license package
dependency dependencies devdependency lockfile registry install upgrade downgrade pin resolve peer
workspace monorepo turbo nx vite webpack rollup esbuild babel swc tsc typescript javascript node deno
bun python rust go java kotlin swift ruby php sql postgres mysql sqlite redis kafka rabbitmq nginx
`);

/** Less frequent words that give sessions their own topics. */
export const RARE = split(`
accordion adapter aggregate allocator anchor annotation arbiter archive artifact assembler audit
avatar backlog badge ballot barrier beacon billing blob bookmark bootstrap boundary bracket bridge
broker bucket builder bulletin cadence calendar canary capsule carousel catalog census channel
checkpoint chronicle cipher citation clause clipboard cohort collector comment compass compositor
concierge conductor conduit consensus console constraint consumer contract coordinator corpus coupon
courier crawler credential curator cursorpane dashboard datagram deadline decorator delegate
descriptor detector dialect digest directive dispatcher docket dossier draft emitter encoder envelope
epoch estimator evaluator excerpt executor explorer fabric facade factory ferry filament fingerprint
firmware fleet folio forecast foundry fragment frontier funnel galaxy garrison gazette generator
glacier glyph governor granule gravity guardian harbor harness harvester heuristic hierarchy horizon
hydrator ledger lexer lineage linker manifest marshal matrix mediator membrane meridian mesh migrator
milestone mirror monitor mosaic narrator navigator nebula notary notifier nucleus observer odometer
operator oracle orbit orchestrator outline palette panorama parcel parity partition passport patcher
pavilion payload pendulum periscope pilot pinboard pipeline planner plaza plugin portal postman
predictor prism probe projector prompt prototype pulse quarantine quorum radar ranker reactor
reconciler recorder redactor reflector registrar relay renderer replica reservoir resolver
retriever ribbon roster runbook sandbox satellite scanner scheduler scribe sentinel sequencer shard
shelter signal skeleton slate snapshotter solver spindle splitter spool sprocket stencil steward
summarizer supervisor surveyor switchboard synthesizer tablet tally telemetry tempo tenant terminal
thesaurus threshold ticket timeline tokenizer topology tracker transcoder translator transmitter
tribunal trigger turbine umbrella uploader validator vault vector verifier viewport voucher warden
waypoint weaver whitelist widget wizard workbench wrapper zipper
`);

/** Verbs for commit messages, todo items and assistant narration. */
export const VERBS = split(`
add remove rename refactor extract inline move split merge fix handle support allow prevent avoid
ensure validate parse load save read write flush open close create delete update replace reset clear
retry skip cache compute resolve normalize sanitize escape format print log report track measure
profile optimize speed simplify document test cover mock stub bump pin upgrade migrate revert restore
`);

export const EXTENSIONS = ['ts', 'ts', 'ts', 'tsx', 'js', 'mjs', 'json', 'md', 'py', 'go', 'rs', 'sql', 'yaml', 'css', 'sh'];
export const DIRS = split(`
src lib app server client api core utils shared common components hooks pages routes services models
db migrations config scripts test tests e2e fixtures docs packages tools internal cmd pkg web worker
`);

export const ERROR_NAMES = split(`
TypeError ReferenceError SyntaxError RangeError AssertionError ValidationError TimeoutError
ConnectionError NotFoundError PermissionError ConflictError ParseError EACCES ENOENT ECONNREFUSED
ETIMEDOUT EADDRINUSE EPIPE TS2304 TS2339 TS2345 TS7006 E0425 E0308 HTTP404 HTTP500 HTTP503
`);

export const COMMANDS = [
  'npm test',
  'npm run build',
  'npm run lint',
  'npx tsc --noEmit',
  'npx vitest run',
  'git status',
  'git diff --stat',
  'git log --oneline -20',
  'ls -la',
  'pnpm install',
  'cargo test',
  'go test ./...',
  'pytest -q',
  'docker compose ps',
  'make check',
];
