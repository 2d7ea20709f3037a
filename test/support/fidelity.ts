// The fidelity harness: does the plugin keep what matters through an auto-compaction? One scripted
// session with the real client, run twice (plugin ON with `--plugin-dir`, plugin OFF), against the
// mock API reporting usage computed from each request body, so the client compacts on its own when
// the conversation passes ~67K tokens (CLAUDE_CODE_AUTO_COMPACT_WINDOW=100000, reference §6).
//
// The session plants details early (prompts 1 and 2, the way a real session holds them: an Edit and
// its announcement, a decision in the assistant's text, the user's constraint, a failing test in a
// real test run's output, a port chosen in passing), then fills the context with realistic tool
// traffic (reads of 10–50 KB modules, git/grep outputs, new test files) until the client compacts. The
// mock's summary keeps only generalities. Figures, all taken from recorded requests:
// - fidelity: share of details present in the first main request after the first compaction;
// - recall: share of details whose keys are in the top 3 of `ctxl recall <natural question>` (ON);
// - tokens: input tokens (body / 4) of the request OFF sent last before compacting, and of the
//   request ON sent for the same scripted step; stubs: tool_results ON that differ from OFF's.
// Shared by test/e2e/fidelity.test.ts and bench/fidelity.mjs (which loads it bundled, so paths come
// from options, not from import.meta.url).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { prng } from '../unit/helpers/prng.ts';
import { hookProblems } from './debug-log.ts';
import { MockAnthropic, type RecordedRequest, type Turn, type TurnRequest, text, toolUse } from './mock-anthropic.ts';
import { baseEnv, type ClaudeResult, makeSandbox, type ProcessResult, REPO_ROOT, runClaude, runProcess, type Sandbox } from './run-claude.ts';
import { attachments, compactBoundaries, hookErrorAttachments, readTranscript, transcriptPath } from './transcript.ts';

// ---------------------------------------------------------------------------------------------
// The planted details

export interface Detail {
  id: string;
  label: string;
  /** Every key must occur (case-insensitive) … */
  keys: string[];
  /** … within this many characters of an occurrence of the first key. */
  near: number;
  /** What a user would type to find it again. */
  query: string;
}

const TIMEOUT_OLD = '30000';
const TIMEOUT_NEW = '45000';
const FAILING_TEST = 'replays a POST only when it carries an Idempotency-Key';
const PORT = '48213';

export const DETAILS: readonly Detail[] = [
  {
    id: 'timeout',
    label: `requestTimeoutMs ${TIMEOUT_OLD} → ${TIMEOUT_NEW}`,
    keys: [TIMEOUT_NEW, 'timeout'],
    near: 160,
    query: 'what timeout did we set for the http client',
  },
  { id: 'library', label: 'undici chosen over axios', keys: ['undici', 'axios'], near: 300, query: 'which http library did we pick for the retry layer' },
  {
    id: 'constraint',
    label: 'never run the integration tests against the shared staging gateway',
    keys: ['shared staging gateway', 'integration tests'],
    near: 200,
    query: 'what did I say about running the integration tests',
  },
  { id: 'failing-test', label: `failing test "${FAILING_TEST}"`, keys: [FAILING_TEST, 'fail'], near: 400, query: 'which test was failing' },
  { id: 'port', label: `fixture server on port ${PORT}`, keys: [PORT, 'port'], near: 160, query: 'which port does the fixture server use' },
];

/** True when every key of the detail occurs within `near` characters of an occurrence of its first key. */
export function detailIn(haystack: string, detail: Detail): boolean {
  const text = haystack.toLowerCase();
  const [first, ...rest] = detail.keys.map((k) => k.toLowerCase());
  if (first === undefined) return false;
  for (let at = text.indexOf(first); at !== -1; at = text.indexOf(first, at + 1)) {
    const from = Math.max(0, at - detail.near);
    const window = text.slice(from, at + first.length + detail.near);
    if (rest.every((k) => window.includes(k))) return true;
  }
  return false;
}

/** Every string the model reads in a request: system and messages, decoded (tool definitions left out). */
export function modelText(r: RecordedRequest | undefined): string {
  if (r === undefined) return '';
  const body = (r.body ?? {}) as { system?: unknown; messages?: unknown };
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) walk(x);
  };
  walk(body.system);
  walk(body.messages);
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------
// The sandbox project: a small TypeScript HTTP-client library, generated from a seeded PRNG so both
// variants (and every run) see the same bytes. Module names and vocabulary avoid every planted key.

type Rng = () => number;
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export const MODULES = [
  'agent-pool',
  'backoff',
  'body-reader',
  'cache-store',
  'circuit-breaker',
  'compression',
  'cookie-jar',
  'dns-cache',
  'errors',
  'etag',
  'form-data',
  'headers',
  'lifecycle-hooks',
  'http2-session',
  'interceptors',
  'keep-alive',
  'logger',
  'metrics',
  'middleware',
  'multipart',
  'oauth-token',
  'pagination',
  'proxy-agent',
  'query-string',
  'rate-limiter',
  'redirect',
  'request-builder',
  'response',
  'retry-policy',
  'signer',
  'socket-pool',
  'streams',
  'tls-options',
  'tracing',
  'url-template',
  'user-agent',
  'validation',
  'webhook-verify',
  'websocket-upgrade',
  'serializer',
] as const;

const NOUNS = [
  'Request',
  'Response',
  'Header',
  'Body',
  'Socket',
  'Pool',
  'Attempt',
  'Cookie',
  'Redirect',
  'Proxy',
  'Entry',
  'Stream',
  'Chunk',
  'Token',
  'Signer',
  'Policy',
  'Limiter',
  'Breaker',
  'Metric',
  'Span',
  'Origin',
  'Queue',
  'Frame',
  'Session',
  'Credential',
  'Route',
  'Payload',
  'Encoder',
  'Decoder',
  'Schedule',
  'Budget',
  'Window',
];
const VERBS = [
  'build',
  'parse',
  'normalize',
  'resolve',
  'merge',
  'apply',
  'create',
  'read',
  'write',
  'encode',
  'decode',
  'validate',
  'compute',
  'select',
  'release',
  'acquire',
  'schedule',
  'record',
  'format',
  'collect',
  'flush',
  'drain',
  'open',
  'close',
  'sign',
  'verify',
  'clone',
  'split',
];
const FIELDS = [
  'origin',
  'method',
  'path',
  'headers',
  'body',
  'signal',
  'attempt',
  'maxAttempts',
  'delayMs',
  'highWaterMark',
  'encoding',
  'status',
  'statusText',
  'url',
  'credentials',
  'expiresAt',
  'bytesRead',
  'bytesWritten',
  'keepAlive',
  'maxSockets',
  'maxFreeSockets',
  'idleMs',
  'jitter',
  'factor',
  'limit',
  'cursor',
  'etag',
  'lastModified',
  'vary',
  'charset',
  'boundary',
  'traceId',
  'spanId',
  'sampled',
  'tags',
  'priority',
];
const TYPES = ['string', 'number', 'boolean', 'Headers', 'URL', 'Uint8Array', 'AbortSignal', 'ReadonlyArray<string>', 'Record<string, string>', 'Date'];
const NUMBERS = [
  '0',
  '1',
  '2',
  '3',
  '5',
  '8',
  '10',
  '16',
  '32',
  '64',
  '100',
  '128',
  '250',
  '256',
  '500',
  '1000',
  '1024',
  '2048',
  '4096',
  '5000',
  '10000',
  '60000',
  '65536',
];
const DOC = [
  'Returns a copy of the options with the defaults applied.',
  'Never mutates its input: callers may share one object across requests.',
  'The result is cached per origin until the pool is drained.',
  'Throws when the value cannot be represented on the wire.',
  'Runs in the browser and in Node; no Node-only API is touched here.',
  'Called once per attempt, before the request is written to the socket.',
  'Keeps the insertion order, which the signer relies on.',
  'Header names are compared case-insensitively, values byte for byte.',
  'An aborted signal rejects with the reason the caller gave.',
  'Safe to call twice: the second call is a no-op.',
  'Streams are consumed lazily; nothing is buffered unless asked.',
  'Counts bytes after decompression, as the metrics endpoint expects.',
  'Used by the pool to decide whether an idle socket can be reused.',
  'See docs/ARCHITECTURE.md for how the pipeline stages fit together.',
  'The order of the stages matters: interceptors run before middleware.',
  'Values outside the allowed range are clamped, not rejected.',
];
const MESSAGES = [
  'invalid value',
  'unexpected end of stream',
  'pool is closed',
  'too many redirects',
  'malformed header',
  'unsupported encoding',
  'token expired',
];

function camel(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function docBlock(r: Rng, indent: string, params: string[]): string {
  const lines = [pick(r, DOC)];
  if (r() < 0.6) lines.push(pick(r, DOC));
  const out = [`${indent}/**`, ...lines.map((l) => `${indent} * ${l}`)];
  if (params.length > 0)
    out.push(
      `${indent} *`,
      ...params.map(
        (p) => `${indent} * @param ${p} ${pick(r, ['the value to check', 'options from the caller', 'the current attempt', 'what the server sent'])}`,
      ),
    );
  out.push(`${indent} */`);
  return out.join('\n');
}

function statements(r: Rng, param: string, indent: string, count: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const v = `${pick(r, ['next', 'value', 'entry', 'current', 'result', 'pending', 'candidate'])}${i}`;
    const f = pick(r, FIELDS);
    const n = pick(r, NUMBERS);
    switch (Math.floor(r() * 7)) {
      case 0:
        out.push(`${indent}const ${v} = ${param}.${f} ?? ${n};`);
        break;
      case 1:
        out.push(
          `${indent}if (${param}.${f} === undefined || ${param}.${f} === null) {`,
          `${indent}  throw new ${pick(r, NOUNS)}Error('${pick(r, MESSAGES)}: ${f}');`,
          `${indent}}`,
        );
        break;
      case 2:
        out.push(
          `${indent}for (const item of ${param}.${pick(r, ['tags', 'headers', 'entries', 'frames', 'chunks'])} ?? []) {`,
          `${indent}  if (item.${pick(r, FIELDS)} > ${n}) continue;`,
          `${indent}  collected.push(item);`,
          `${indent}}`,
        );
        break;
      case 3:
        out.push(`${indent}const ${v} = new Map<string, ${pick(r, NOUNS)}${pick(r, ['Entry', 'State', 'Record'])}>();`);
        break;
      case 4:
        out.push(
          `${indent}try {`,
          `${indent}  state.${f} = ${pick(r, VERBS)}${pick(r, NOUNS)}(${param});`,
          `${indent}} catch (error) {`,
          `${indent}  logger.warn('${pick(r, MESSAGES)}', { error, ${f}: ${param}.${f} });`,
          `${indent}}`,
        );
        break;
      case 5:
        out.push(`${indent}const ${v} = Math.min(${param}.${f} * ${pick(r, ['2', '1.5', 'factor'])}, ${n});`);
        break;
      default:
        out.push(`${indent}metrics.${pick(r, ['increment', 'observe', 'gauge'])}('${pick(r, NOUNS).toLowerCase()}.${f}', ${param}.${f} ?? 0);`);
    }
  }
  return out;
}

/** A TypeScript module of about `bytes` characters: interfaces, a class and documented functions. */
export function generateModule(name: string, bytes: number, r: Rng): string {
  const base = cap(camel(name));
  const parts: string[] = [
    `// ${base}: part of the @acme/http-client request pipeline.`,
    `import { logger } from './logger.js';`,
    `import { metrics } from './metrics.js';`,
    `import type { ${pick(r, NOUNS)}Options, ${pick(r, NOUNS)}State } from './types.js';`,
    '',
  ];
  const fields = (count: number, indent: string) =>
    Array.from({ length: count }, () => `${indent}/** ${pick(r, DOC)} */\n${indent}${pick(r, FIELDS)}${r() < 0.5 ? '?' : ''}: ${pick(r, TYPES)};`).join('\n');
  parts.push(`export interface ${base}Options {\n${fields(6 + Math.floor(r() * 6), '  ')}\n}\n`);
  parts.push(`export interface ${base}State {\n${fields(4 + Math.floor(r() * 4), '  ')}\n}\n`);
  const methods: string[] = [];
  for (let m = 0; m < 3 + Math.floor(r() * 3); m++) {
    const mname = `${pick(r, VERBS)}${pick(r, NOUNS)}`;
    methods.push(
      `${docBlock(r, '  ', ['input'])}\n  ${mname}(input: ${base}Options): ${pick(r, TYPES)} | undefined {\n    const collected: unknown[] = [];\n${statements(r, 'input', '    ', 4 + Math.floor(r() * 5)).join('\n')}\n    return undefined;\n  }`,
    );
  }
  parts.push(
    `${docBlock(r, '', [])}\nexport class ${base} {\n  private readonly state = new Map<string, ${base}State>();\n\n  constructor(private readonly options: ${base}Options) {}\n\n${methods.join('\n\n')}\n}\n`,
  );
  let n = 0;
  while (parts.join('\n').length < bytes) {
    const fname = `${pick(r, VERBS)}${pick(r, NOUNS)}${n++ === 0 ? '' : String(n)}`;
    const isAsync = r() < 0.4;
    const body = statements(r, 'options', '  ', 5 + Math.floor(r() * 8));
    parts.push(
      `${docBlock(r, '', ['options', 'state'])}\nexport ${isAsync ? 'async ' : ''}function ${fname}(options: ${base}Options, state: ${base}State): ${isAsync ? 'Promise<' : ''}${pick(r, TYPES)} | undefined${isAsync ? '>' : ''} {\n  const collected: unknown[] = [];\n${body.join('\n')}\n  return collected.length === 0 ? undefined : (collected[0] as never);\n}\n`,
    );
  }
  return parts.join('\n');
}

const CONFIG = `// Runtime configuration of the HTTP client: one object, read once at startup.
// Values can be overridden per request through RequestOptions.

export interface HttpConfig {
  baseUrl: string;
  /** Whole request, from the first byte written to the last byte read. */
  requestTimeoutMs: number;
  /** TCP connect plus TLS handshake. */
  connectTimeoutMs: number;
  maxSockets: number;
  maxFreeSockets: number;
  keepAliveMsecs: number;
  retry: { attempts: number; baseDelayMs: number; maxDelayMs: number; jitter: 'full' | 'none' };
  userAgent: string;
}

export const httpConfig: HttpConfig = {
  baseUrl: process.env.API_BASE_URL ?? 'http://localhost:8080',
  requestTimeoutMs: ${TIMEOUT_OLD},
  connectTimeoutMs: 5000,
  maxSockets: 64,
  maxFreeSockets: 16,
  keepAliveMsecs: 1000,
  retry: { attempts: 3, baseDelayMs: 250, maxDelayMs: 10000, jitter: 'full' },
  userAgent: '@acme/http-client',
};
`;

/** A dependency-free test run that prints a vitest-like verbose report; one case fails, for real. */
const TEST_RUNNER = `// Runs the unit checks of the client and prints a vitest-like verbose report.
const retriesFor = (method, headers) => (method === 'GET' || method === 'HEAD' || 'idempotency-key' in headers ? 3 : 3);
const eq = (a, b) => (Object.is(a, b) ? undefined : 'expected ' + JSON.stringify(a) + ' to be ' + JSON.stringify(b) + ' // Object.is equality');
const files = {
  'test/headers.test.ts': {
    'lower-cases header names': () => eq('Content-Type'.toLowerCase(), 'content-type'),
    'joins repeated headers with a comma': () => eq(['a', 'b'].join(', '), 'a, b'),
    'drops hop-by-hop headers': () => eq(['connection', 'accept'].filter((h) => h !== 'connection').length, 1),
    'keeps the insertion order': () => eq(Object.keys({ b: 1, a: 2 })[0], 'b'),
    'rejects header values with a newline': () => eq(/\\n/.test('x\\ny'), true),
  },
  'test/backoff.test.ts': {
    'doubles the delay on each attempt': () => eq(250 * 2 ** 2, 1000),
    'caps the delay at maxDelayMs': () => eq(Math.min(250 * 2 ** 8, 10000), 10000),
    'applies full jitter within the bounds': () => eq(0.5 * 1000 <= 1000, true),
    'starts at baseDelayMs': () => eq(250 * 2 ** 0, 250),
  },
  'test/retry.test.ts': {
    'retries a GET after a connection reset': () => eq(retriesFor('GET', {}), 3),
    'retries a HEAD after a 503': () => eq(retriesFor('HEAD', {}), 3),
    '${FAILING_TEST}': () => eq(retriesFor('POST', {}), 0),
    'retries a POST that carries an Idempotency-Key': () => eq(retriesFor('POST', { 'idempotency-key': 'k1' }), 3),
    'gives up after the last attempt': () => eq(Math.max(0, 3 - 3), 0),
    'honours Retry-After in seconds': () => eq(Number('2') * 1000, 2000),
  },
  'test/redirect.test.ts': {
    'follows a 301 for GET': () => eq([301, 302].includes(301), true),
    'turns a 303 into a GET': () => eq(303 === 303 ? 'GET' : 'POST', 'GET'),
    'stops after ten hops': () => eq(Math.min(12, 10), 10),
    'drops the authorization header across origins': () => eq('a.example' === 'b.example', false),
  },
  'test/cookie-jar.test.ts': {
    'stores a cookie for its domain': () => eq('example.com'.endsWith('example.com'), true),
    'expires a cookie with Max-Age=0': () => eq(0 <= 0, true),
    'ignores a Secure cookie over http': () => eq('http:' === 'https:', false),
  },
  'test/streams.test.ts': {
    'reads a chunked body to the end': () => eq(['ab', 'cd'].join(''), 'abcd'),
    'stops reading when the signal aborts': () => eq(new AbortController().signal.aborted, false),
    'counts bytes after decompression': () => eq(new TextEncoder().encode('héllo').length, 6),
  },
};
console.log('');
console.log(' RUN  v3.2.4 ' + process.cwd());
console.log('');
let passed = 0;
const failures = [];
let failedFiles = 0;
for (const [file, tests] of Object.entries(files)) {
  const results = Object.entries(tests).map(([name, run]) => [name, run()]);
  const failed = results.filter(([, error]) => error !== undefined).length;
  if (failed > 0) failedFiles++;
  console.log(' ' + (failed > 0 ? '❯' : '✓') + ' ' + file + ' (' + results.length + ' tests' + (failed > 0 ? ' | ' + failed + ' failed' : '') + ')');
  for (const [name, error] of results) {
    if (error === undefined) {
      passed++;
      console.log('   ✓ ' + name);
    } else {
      failures.push([file, name, error]);
      console.log('   × ' + name);
      console.log('     → ' + error);
    }
  }
}
console.log('');
for (const [file, name, error] of failures) {
  console.log('⎯⎯⎯⎯⎯⎯⎯ Failed Tests ' + failures.length + ' ⎯⎯⎯⎯⎯⎯⎯');
  console.log('');
  console.log(' FAIL  ' + file + ' > ' + name);
  console.log('AssertionError: ' + error);
  console.log('');
}
const total = passed + failures.length;
const fileCount = Object.keys(files).length;
console.log(' Test Files  ' + (failedFiles > 0 ? failedFiles + ' failed | ' : '') + (fileCount - failedFiles) + ' passed (' + fileCount + ')');
console.log('      Tests  ' + (failures.length > 0 ? failures.length + ' failed | ' : '') + passed + ' passed (' + total + ')');
process.exitCode = failures.length > 0 ? 1 : 0;
`;

const PACKAGE_JSON = `${JSON.stringify(
  {
    name: '@acme/http-client',
    version: '0.14.2',
    type: 'module',
    main: 'dist/index.js',
    scripts: { build: 'tsc -p .', test: 'node test/run.mjs' },
    devDependencies: { typescript: '^5.6.3' },
  },
  null,
  2,
)}\n`;

function prose(r: Rng, paragraphs: number): string {
  const out: string[] = [];
  for (let i = 0; i < paragraphs; i++) out.push(Array.from({ length: 3 + Math.floor(r() * 4) }, () => pick(r, DOC)).join(' '));
  return out.join('\n\n');
}

/** A generated unit-test file for a module (what the fill's Write calls create). */
export function generateTestFile(name: string, r: Rng, bytes: number): string {
  const base = cap(camel(name));
  const parts = [`import { describe, expect, it } from 'vitest';`, `import { ${base} } from '../../src/${name}.js';`, '', `describe('${base}', () => {`];
  let i = 0;
  while (parts.join('\n').length < bytes) {
    const f = pick(r, FIELDS);
    parts.push(
      `  it('${pick(r, VERBS)}s the ${pick(r, NOUNS).toLowerCase()} when ${f} is ${pick(r, ['missing', 'zero', 'negative', 'very large', 'an empty string', 'set twice'])} (#${++i})', () => {`,
      `    const subject = new ${base}({ ${f}: ${pick(r, NUMBERS)} } as never);`,
      `    const state = { ${pick(r, FIELDS)}: ${pick(r, NUMBERS)}, ${pick(r, FIELDS)}: '${pick(r, NOUNS).toLowerCase()}' };`,
      `    expect(subject).toBeDefined();`,
      `    expect(Object.keys(state)).toHaveLength(2);`,
      `    expect(${pick(r, NUMBERS)} + ${pick(r, NUMBERS)}).toBeGreaterThan(${pick(r, ['-1', '0'])});`,
      '  });',
      '',
    );
  }
  parts.push('});', '');
  return parts.join('\n');
}

export interface ProjectLayout {
  modules: Array<{ name: string; path: string; bytes: number }>;
  config: string;
}

function git(project: string, args: string[], date: string): void {
  const r = spawnSync('git', ['-c', 'user.name=Dana Okafor', '-c', 'user.email=dana@acme.example', '-c', 'commit.gpgsign=false', ...args], {
    cwd: project,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: project, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed in ${project}: ${r.error?.message ?? r.stderr}`);
}

/** Write the library into `project` (already a git repository) with a deterministic history. */
export function writeProject(project: string, seed = 20261129): ProjectLayout {
  const r = prng(seed);
  const write = (rel: string, content: string) => {
    mkdirSync(dirname(join(project, rel)), { recursive: true });
    writeFileSync(join(project, rel), content);
  };
  write('package.json', PACKAGE_JSON);
  write(
    'tsconfig.json',
    `${JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', strict: true, outDir: 'dist' }, include: ['src'] }, null, 2)}\n`,
  );
  write('README.md', `# @acme/http-client\n\nA small HTTP client for Node and the browser.\n\n${prose(r, 4)}\n`);
  write('config/http.config.ts', CONFIG);
  write('test/run.mjs', TEST_RUNNER);
  write('docs/ARCHITECTURE.md', `# Architecture\n\n${MODULES.map((m) => `## ${m}\n\n${prose(r, 2)}`).join('\n\n')}\n`);
  const modules = MODULES.map((name) => {
    const bytes = 10_000 + Math.floor(r() * 40_000);
    const path = `src/${name}.ts`;
    write(path, generateModule(name, bytes, r));
    return { name, path, bytes };
  });
  let day = 1;
  const date = () => `2026-10-${String(day).padStart(2, '0')}T${String(9 + (day % 8)).padStart(2, '0')}:14:00Z`;
  git(project, ['add', '-A'], date());
  git(project, ['commit', '-q', '-m', 'Initial import of the client'], date());
  // A history to look at: small real changes to the modules, with a changelog that grows.
  const changelog: string[] = ['# Changelog', ''];
  for (let i = 0; i < 28; i++) {
    day = 2 + i;
    const m = pick(r, modules);
    const line = `\n/** ${pick(r, DOC)} */\nexport const ${camel(m.name)}Revision${i} = ${pick(r, NUMBERS)};\n`;
    writeFileSync(join(project, m.path), `${generateModule(m.name, m.bytes, prng(seed + i + 1))}${line}`);
    const subject = `${m.name}: ${pick(r, ['handle', 'fix', 'simplify', 'document', 'tighten', 'speed up'])} ${pick(r, FIELDS)} ${pick(r, ['handling', 'checks', 'defaults', 'parsing'])}`;
    changelog.push(`## 0.${Math.floor(i / 3) + 1}.${i % 3}`, '', `- ${subject}. ${pick(r, DOC)} ${pick(r, DOC)}`, `- ${prose(r, 1)}`, '');
    writeFileSync(join(project, 'CHANGELOG.md'), `${changelog.join('\n')}\n`);
    git(project, ['add', '-A'], date());
    git(project, ['commit', '-q', '-m', `${subject}\n\n${prose(r, 1)}`], date());
  }
  return { modules, config: 'config/http.config.ts' };
}

// ---------------------------------------------------------------------------------------------
// The script

/** One scripted model turn with a stable name: the same step answers the same position ON and OFF. */
interface Step {
  id: string;
  turn: Turn;
}

interface PromptPlan {
  label: string;
  prompt: string;
  /** Fixed turns, or `fill`: turns drawn from the fill list until compaction (or `perPrompt` turns). */
  steps: Step[] | 'fill';
  /** The text that ends a fill prompt. */
  closing?: string;
}

const stepOf = (id: string, turn: Turn): Step => ({ id, turn: turn.kind === 'tool_use' ? { ...turn, id: `toolu_fid_${id}` } : turn });

export const PROMPTS = {
  plant1:
    'The upstream payments gateway now takes up to 40 seconds to answer, and our client gives up before that. Raise the request timeout in the HTTP client config accordingly. Never run the integration tests against the shared staging gateway: it is wired to real merchant accounts.',
  plant2: 'Next the retry layer. Decide which HTTP library it should sit on, and run the unit tests so we know where we stand.',
  fill: [
    'Review the connection handling modules for anything else the new timeout affects.',
    'Go through the request pipeline: interceptors, middleware and serialisation. Add unit tests as you go.',
    'Check the history of the pooling and streaming code, then keep reviewing the remaining modules.',
    'Keep going through the rest of the modules and write the missing unit tests.',
  ],
  after: 'Continue with the review where you left off.',
};

const TIMEOUT_TEXT = `Raised \`requestTimeoutMs\` in config/http.config.ts from ${TIMEOUT_OLD} to ${TIMEOUT_NEW}, so gateway answers that take up to 40 s no longer abort. The connect timeout stays at 5 s.`;
const DECISION_TEXT =
  "We'll use undici rather than axios for the retry layer: undici's Agent pools connections per origin and takes an AbortSignal natively, while axios would add its own adapter layer and about 13 KB to the browser bundle for interceptors we already have.";
const TESTS_TEXT = `The unit run has one failure out of 25: \`${FAILING_TEST}\` in test/retry.test.ts — the retry policy retries a POST even without the key. For the retry tests I'll run the local fixture server on port ${PORT}, since 8080 is taken by the docs preview.`;

const EXPECTED_FAILURE = 'toolu_fid_p2-tests';

function plantSteps(project: string, layout: ProjectLayout): { plant1: Step[]; plant2: Step[] } {
  const config = join(project, layout.config);
  return {
    plant1: [
      stepOf('p1-read-config', toolUse('Read', { file_path: config }, { text: 'Let me look at the client configuration.' })),
      stepOf(
        'p1-edit-config',
        toolUse('Edit', { file_path: config, old_string: `  requestTimeoutMs: ${TIMEOUT_OLD},`, new_string: `  requestTimeoutMs: ${TIMEOUT_NEW},` }),
      ),
      stepOf('p1-done', text(TIMEOUT_TEXT)),
    ],
    plant2: [
      stepOf('p2-package', toolUse('Bash', { command: 'cat package.json', description: 'Show the package manifest' })),
      stepOf('p2-tests', toolUse('Bash', { command: 'node test/run.mjs', description: 'Run the unit tests' }, { text: DECISION_TEXT })),
      stepOf('p2-done', text(TESTS_TEXT)),
    ],
  };
}

const BASH_FILL = [
  { command: 'git log --stat -n 14', description: 'Recent history with file stats' },
  { command: 'grep -n "export function" src/*.ts | head -n 170', description: 'List the exported functions' },
  { command: 'git log -p -n 2 -- src/socket-pool.ts src/streams.ts | head -n 400', description: 'Recent changes to pooling and streams' },
  { command: 'cat CHANGELOG.md', description: 'Read the changelog' },
  { command: 'wc -l src/*.ts', description: 'Module sizes' },
  { command: 'grep -n "throw new" src/*.ts | head -n 150', description: 'Where errors are thrown' },
  { command: 'cat docs/ARCHITECTURE.md', description: 'Read the architecture notes' },
  { command: 'git log --format="%h %ad %s" --date=short', description: 'One line per commit' },
  { command: 'grep -n "metrics\\." src/*.ts | head -n 160', description: 'Metrics call sites' },
  { command: 'git show --stat HEAD~3', description: 'One earlier commit' },
  { command: 'grep -ln "logger.warn" src/*.ts', description: 'Modules that log warnings' },
  { command: 'git diff --stat', description: 'What the review changed so far' },
];

// Grep (offered in -p only when allowed) sorts its content output by path: deterministic.
const GREP_FILL = [
  { pattern: 'throw new \\w+Error', path: 'src', output_mode: 'content', '-n': true, head_limit: 150 },
  { pattern: 'export (async )?function', path: 'src', output_mode: 'content', '-n': true, head_limit: 140 },
  { pattern: 'metrics\\.(increment|observe|gauge)', path: 'src', output_mode: 'content', '-n': true, head_limit: 160 },
];

const LEADS = [
  'Next, the {m} module.',
  'Now {m}.',
  'Looking at {m} to see how it uses the pool.',
  "{m} next; it's on the request path.",
  'Checking {m} as well.',
];

/**
 * The fill: rounds of two module reads, each followed by a small fix (an Edit), one shell command, a
 * search every third round and one new test file, with a short text now and then. The edits and
 * writes matter beyond their size: after compacting, the client re-attaches from disk the five most
 * recently modified files it knows, so the session must touch more files after the planted config
 * edit, as a real one would. 26 rounds (the second pass re-reads modules): enough that a plugin that
 * stubbed every read and command would still reach the threshold through what it cannot stub.
 */
function fillSteps(project: string, layout: ProjectLayout): Step[] {
  const r = prng(7);
  const steps: Step[] = [];
  const mods = layout.modules.filter((m) => m.name !== 'retry-policy');
  const lead = (m: string) => (r() < 0.5 ? { text: pick(r, LEADS).replace('{m}', m) } : {});
  const review = (m: { name: string; path: string }, id: string) => {
    const header = `// ${cap(camel(m.name))}: part of the @acme/http-client request pipeline.`;
    steps.push(stepOf(`${id}-read`, toolUse('Read', { file_path: join(project, m.path) }, lead(m.name))));
    steps.push(
      stepOf(
        `${id}-edit`,
        toolUse('Edit', {
          file_path: join(project, m.path),
          old_string: header,
          new_string: `${header}\n// ${pick(r, DOC)}`,
        }),
      ),
    );
  };
  for (let round = 0; round < 26; round++) {
    const a = mods[(2 * round) % mods.length];
    const b = mods[(2 * round + 1) % mods.length];
    if (a === undefined || b === undefined) break;
    const bash = BASH_FILL[round % BASH_FILL.length] ?? BASH_FILL[0];
    review(a, `f${round}-a`);
    steps.push(stepOf(`f${round}-bash`, toolUse('Bash', { ...bash })));
    review(b, `f${round}-b`);
    const grep = GREP_FILL[Math.floor(round / 3) % GREP_FILL.length];
    if (round % 3 === 1 && grep !== undefined) steps.push(stepOf(`f${round}-grep`, toolUse('Grep', { ...grep }, { text: 'Searching the sources.' })));
    steps.push(
      stepOf(
        `f${round}-write`,
        toolUse(
          'Write',
          { file_path: join(project, 'test', 'unit', `${a.name}.test.ts`), content: generateTestFile(a.name, r, 7_000 + Math.floor(r() * 5_000)) },
          { text: `Adding unit tests for ${a.name}.` },
        ),
      ),
    );
  }
  return steps;
}

const CLOSING = 'I have gone through these modules; the ones left follow the same patterns, and the new unit tests are in test/unit/.';
const AFTER_TEXT = 'Picking up the review from the summary: the remaining modules are next.';
/** What the compaction summary keeps: generalities only, never a planted detail. */
export const COMPACT_SUMMARY = `<analysis>The conversation is a code review of an HTTP client library with some configuration work.</analysis>
<summary>
1. Primary Request and Intent: the user is improving a TypeScript HTTP client library: its configuration, a retry layer and a review of the source modules, adding unit tests on the way.
2. Key Technical Concepts: connection pooling, request pipeline stages, streaming bodies, metrics.
3. Files and Code Sections: config/, src/ (many modules read), test/unit/ (new test files).
4. Errors and fixes: none recorded.
5. Pending Tasks: continue the module review and the unit tests.
6. Current Work: reading source modules and writing unit tests for them.
</summary>`;

// ---------------------------------------------------------------------------------------------
// Running one variant

export type Variant = 'on' | 'off';

export interface VariantRun {
  variant: Variant;
  sandbox: Sandbox;
  sessionId: string;
  runs: ClaudeResult[];
  /** Every model request of the session (main and compaction), in order. */
  requests: RecordedRequest[];
  /** The step that answered each main request (by seq); 'ack' for replies beyond the script (Stop continuations). */
  stepBySeq: Map<number, string>;
  /** What the harness saw go wrong (a run that failed, a mock problem). */
  problems: string[];
  transcriptFile: string;
}

export interface FidelityOptions {
  bin: string;
  /** The plugin to load with --plugin-dir (and whose dist/cli.mjs answers recall); default: this repository. */
  repoRoot?: string;
  /** Main requests the fill may take per prompt. */
  perPrompt?: number;
  /** Progress lines (the bench prints them to stderr). */
  log?: (line: string) => void;
  /** Keep the sandboxes (as CTXL_E2E_KEEP=1 does). */
  keep?: boolean;
}

const ENV = { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '100000' };

export async function runVariant(variant: Variant, o: FidelityOptions): Promise<VariantRun> {
  const repoRoot = o.repoRoot ?? REPO_ROOT;
  const log = o.log ?? (() => {});
  // Same-length labels: paths appear in requests, and the token comparison should not see them.
  const sandbox = makeSandbox(variant === 'on' ? 'fidelity-with' : 'fidelity-bare');
  const layout = writeProject(sandbox.project);
  const plants = plantSteps(sandbox.project, layout);
  const fill = fillSteps(sandbox.project, layout);
  const perPrompt = o.perPrompt ?? 12;
  const mock = await MockAnthropic.start();
  mock.usageFromBody = true;
  mock.compactText = COMPACT_SUMMARY;
  const run: VariantRun = {
    variant,
    sandbox,
    sessionId: '',
    runs: [],
    requests: [],
    stepBySeq: new Map(),
    problems: [],
    transcriptFile: '',
  };
  // The responder's state: the steps left in this prompt, or the fill cursor.
  let fixed: Step[] = [];
  let filling = false;
  let closing = '';
  let taken = 0;
  let closed = false;
  let fillAt = 0;
  mock.responder = (req: TurnRequest): Turn => {
    const answer = (id: string, turn: Turn) => {
      run.stepBySeq.set(req.seq, id);
      return turn;
    };
    if (closed) return answer('ack', text('Noted.'));
    if (filling) {
      const step = fill[fillAt];
      if (mock.compactions().length > 0 || taken >= perPrompt || step === undefined) {
        closed = true;
        return answer(`close-${fillAt}`, text(closing));
      }
      fillAt++;
      taken++;
      return answer(step.id, step.turn);
    }
    const step = fixed.shift();
    if (step === undefined) return answer('ack', text('Noted.'));
    if (fixed.length === 0) closed = true;
    return answer(step.id, step.turn);
  };

  const allowed = ['--allowedTools', 'Read', 'Edit', 'Write', 'Grep', 'Bash'];
  const plugin = variant === 'on' ? ['--plugin-dir', repoRoot] : [];
  const claude = async (plan: PromptPlan): Promise<boolean> => {
    fixed = plan.steps === 'fill' ? [] : [...plan.steps];
    filling = plan.steps === 'fill';
    closing = plan.closing ?? '';
    taken = 0;
    closed = false;
    const result = await runClaude({
      bin: o.bin,
      sandbox,
      mock,
      prompt: plan.prompt,
      label: `${variant}-${plan.label}`,
      args: [...plugin, ...allowed, ...(run.sessionId === '' ? [] : ['--resume', run.sessionId])],
      env: ENV,
      timeoutMs: 180_000,
    });
    run.runs.push(result);
    if (run.sessionId === '') run.sessionId = result.sessionId ?? '';
    log(`[fidelity ${variant}] ${plan.label}: exit ${result.code}, ${result.requests.filter((q) => q.kind === 'messages').length} requests, ${result.ms} ms`);
    if (result.code !== 0 || run.sessionId === '') {
      run.problems.push(`${variant} ${plan.label} failed:\n${result.describe()}`);
      return false;
    }
    return true;
  };

  try {
    let ok =
      (await claude({ label: 'plant1', prompt: PROMPTS.plant1, steps: plants.plant1 })) &&
      (await claude({ label: 'plant2', prompt: PROMPTS.plant2, steps: plants.plant2 }));
    for (let i = 0; ok && mock.compactions().length === 0 && fillAt < fill.length; i++)
      ok = await claude({ label: `fill${i + 1}`, prompt: PROMPTS.fill[i % PROMPTS.fill.length] ?? '', steps: 'fill', closing: CLOSING });
    if (ok && mock.compactions().length > 0) await claude({ label: 'after', prompt: PROMPTS.after, steps: [stepOf('after-text', text(AFTER_TEXT))] });
    if (ok && mock.compactions().length === 0) run.problems.push(`${variant}: the fill ran out (${fill.length} steps) before any compaction`);
  } finally {
    run.requests = mock.messages();
    run.problems.push(...mock.problems.map((p) => `${variant} mock: ${p}`));
    await mock.close();
  }
  run.transcriptFile = transcriptPath(sandbox.configDir, sandbox.project, run.sessionId);
  return run;
}

// ---------------------------------------------------------------------------------------------
// Measuring

export interface DetailResult {
  id: string;
  label: string;
  /** Present in the first main request after the first compaction. */
  onSeen: boolean;
  offSeen: boolean;
  /** Present in the compaction request's extra instructions (PreCompact steering), ON. */
  onSteered: boolean;
  /** Keys found in the top 3 of `ctxl recall <query>` (ON); the rank (1-based) or undefined. */
  recallRank: number | undefined;
  recallTop3: boolean;
}

export interface VariantFigures {
  runs: number;
  exitCodes: Array<number | null>;
  compactions: number;
  /** From the transcript's first compact_boundary. */
  compactTrigger: string | undefined;
  compactPreTokens: number | undefined;
  preservedMessages: number;
  mainRequestsBeforeCompaction: number;
  /** Input tokens (body / 4) the mock reported for the last main request before the first compaction. */
  tokensBeforeCompaction: number | undefined;
  /** Input tokens of the first main request after it. */
  tokensAfterCompaction: number | undefined;
  /** Characters of tool_result content the model got before the first compaction (each result once). */
  toolResultChars: number;
  toolResults: number;
  /** The text after "Additional Instructions:" in the first compaction request ('' when none). */
  compactInstructions: string;
  /** hookProblems over every run's debug log. */
  hookProblems: string[];
  /** hook_error_during_execution attachments (a stub of the wrong shape, silently ignored). */
  hookErrorsDuringExecution: number;
  /** All hook error attachments (non-blocking, blocking, during execution). */
  hookErrorAttachments: number;
  /** What the client attached in the first request after compaction: files re-read from disk, notes. */
  reattached: string[];
  fidelity: number;
}

export interface FidelityResult {
  details: DetailResult[];
  on: VariantFigures;
  off: VariantFigures;
  fidelityOn: number;
  fidelityOff: number;
  recallShare: number;
  /** The scripted step OFF answered last before compacting, and both variants' tokens for it. */
  tokens: {
    step: string | undefined;
    index: number | undefined;
    on: number | undefined;
    off: number | undefined;
    saved: number | undefined;
    onCompactedBefore: boolean;
  };
  /** Tool results ON that differ from OFF's result for the same tool_use id (sandbox paths normalised). */
  stubs: { compared: number; stubbed: number; charsOff: number; charsOn: number; onOnly: number };
  /** Harness problems: a failed run, a detail present in the summary or in the fill, a tool call that errored. */
  problems: string[];
  sandboxes: { on: string; off: string };
}

const tokensOf = (r: RecordedRequest | undefined) => (r === undefined ? undefined : Math.ceil(r.raw.length / 4));
const mains = (run: VariantRun) => run.requests.filter((r) => r.kind === 'messages');
const firstCompaction = (run: VariantRun) => run.requests.find((r) => r.kind === 'compact');

/** The first main request after the first compaction. */
export function afterCompaction(run: VariantRun): RecordedRequest | undefined {
  const c = firstCompaction(run);
  return c === undefined ? undefined : mains(run).find((r) => r.seq > c.seq);
}

function lastBefore(run: VariantRun): RecordedRequest | undefined {
  const c = firstCompaction(run);
  return c === undefined
    ? undefined
    : mains(run)
        .filter((r) => r.seq < c.seq)
        .at(-1);
}

type Obj = Record<string, unknown>;

/** tool_use id → the tool_result text the model first got for it, from requests before `until`. */
function toolResults(run: VariantRun, until: number): Map<string, { text: string; isError: boolean }> {
  const out = new Map<string, { text: string; isError: boolean }>();
  for (const r of mains(run)) {
    if (r.seq > until) break;
    const messages = ((r.body as Obj | undefined)?.messages ?? []) as Array<{ content?: unknown }>;
    for (const m of messages) {
      if (!Array.isArray(m.content)) continue;
      for (const block of m.content as Obj[]) {
        if (block?.type !== 'tool_result' || typeof block.tool_use_id !== 'string' || out.has(block.tool_use_id)) continue;
        const c = block.content;
        const text = typeof c === 'string' ? c : Array.isArray(c) ? (c as Obj[]).map((b) => (typeof b.text === 'string' ? b.text : '')).join('\n') : '';
        out.set(block.tool_use_id, { text, isError: block.is_error === true });
      }
    }
  }
  return out;
}

/** The text after "Additional Instructions:" in a compaction request, up to the closing reminder. */
function compactInstructions(r: RecordedRequest | undefined): string {
  const text = modelText(r);
  const at = text.lastIndexOf('Additional Instructions:');
  if (at === -1) return '';
  const rest = text.slice(at + 'Additional Instructions:'.length);
  const end = rest.indexOf('REMINDER:');
  return (end === -1 ? rest : rest.slice(0, end)).trim();
}

/**
 * What the client attached from disk in the first request after compaction, project-relative:
 * `file <path>` for a re-read file, `note <path>` for one too large to include.
 */
function reattachedIn(r: RecordedRequest | undefined, project: string): string[] {
  const out: string[] = [];
  const rel = (p: string) => (p.startsWith(`${project}/`) ? p.slice(project.length + 1) : p);
  for (const m of modelText(r).matchAll(
    /Called the Read tool with the following input: (\{.*\})|Note: (\S+) was read before the last conversation was summarized/g,
  )) {
    if (m[2] !== undefined) out.push(`note ${rel(m[2])}`);
    else {
      try {
        out.push(`file ${rel(String((JSON.parse(m[1] ?? '{}') as { file_path?: unknown }).file_path))}`);
      } catch {
        out.push(`file ${m[1]}`);
      }
    }
  }
  return out;
}

function figures(run: VariantRun, details: readonly Detail[]): VariantFigures {
  const c = firstCompaction(run);
  const before = c === undefined ? mains(run) : mains(run).filter((r) => r.seq < c.seq);
  const results = toolResults(run, c?.seq ?? Number.POSITIVE_INFINITY);
  let toolResultChars = 0;
  for (const v of results.values()) toolResultChars += v.text.length;
  const after = afterCompaction(run);
  const seen = details.filter((d) => detailIn(modelText(after), d)).length;
  let compactTrigger: string | undefined;
  let compactPreTokens: number | undefined;
  let preserved = 0;
  let errorsDuring = 0;
  let errorAttachments = 0;
  if (existsSync(run.transcriptFile)) {
    const t = readTranscript(run.transcriptFile);
    const boundary = compactBoundaries(t)[0];
    compactTrigger = typeof boundary?.trigger === 'string' ? boundary.trigger : undefined;
    compactPreTokens = typeof boundary?.preTokens === 'number' ? boundary.preTokens : undefined;
    const meta = (boundary?.entry.compactMetadata ?? {}) as { preservedMessages?: { uuids?: unknown[] } };
    preserved = meta.preservedMessages?.uuids?.length ?? 0;
    const errors = hookErrorAttachments(t);
    errorAttachments = errors.length;
    errorsDuring = attachments(t, 'hook_error_during_execution').length;
  }
  return {
    runs: run.runs.length,
    exitCodes: run.runs.map((x) => x.code),
    compactions: run.requests.filter((r) => r.kind === 'compact').length,
    compactTrigger,
    compactPreTokens,
    preservedMessages: preserved,
    mainRequestsBeforeCompaction: before.length,
    tokensBeforeCompaction: tokensOf(lastBefore(run)),
    tokensAfterCompaction: tokensOf(after),
    toolResultChars,
    toolResults: results.size,
    compactInstructions: compactInstructions(c),
    hookProblems: run.runs.flatMap((x) => hookProblems(x.debugLog)),
    hookErrorsDuringExecution: errorsDuring,
    hookErrorAttachments: errorAttachments,
    reattached: reattachedIn(after, run.sandbox.project),
    fidelity: after === undefined ? 0 : seen / details.length,
  };
}

interface RecallHit {
  ref: string;
  snippet: string;
}

async function recallRank(sandbox: Sandbox, repoRoot: string, detail: Detail): Promise<{ rank: number | undefined; problem?: string }> {
  const cli = (args: string[]): Promise<ProcessResult> =>
    runProcess(process.execPath, [join(repoRoot, 'dist', 'cli.mjs'), ...args], { cwd: sandbox.project, env: baseEnv(sandbox), timeoutMs: 120_000 });
  const out = await cli(['recall', ...detail.query.split(' '), '--json', '--cwd', sandbox.project]);
  if (out.code !== 0) return { rank: undefined, problem: `recall ${JSON.stringify(detail.query)} exited ${out.code}: ${out.stderr.slice(0, 300)}` };
  let results: RecallHit[];
  try {
    results = (JSON.parse(out.stdout) as { results?: RecallHit[] }).results ?? [];
  } catch {
    return { rank: undefined, problem: `recall ${JSON.stringify(detail.query)} printed no JSON: ${out.stdout.slice(0, 200)}` };
  }
  for (const [i, hit] of results.slice(0, 3).entries()) {
    if (detailIn(hit.snippet ?? '', detail)) return { rank: i + 1 };
    // The snippet is a window; the chunk's full text is what /recall show gives the model.
    const shown = await cli(['show', hit.ref]);
    if (shown.code === 0 && detailIn(shown.stdout, detail)) return { rank: i + 1 };
  }
  return { rank: undefined };
}

/** Run the scenario ON and OFF (one after the other: the client runs one session at a time) and measure. */
export async function runFidelity(o: FidelityOptions): Promise<FidelityResult> {
  const repoRoot = o.repoRoot ?? REPO_ROOT;
  const off = await runVariant('off', o);
  const on = await runVariant('on', o);
  try {
    return await measure(on, off, repoRoot);
  } finally {
    for (const run of [on, off]) {
      if (o.keep === true) o.log?.(`[fidelity] kept ${run.sandbox.root}`);
      else run.sandbox.cleanup();
    }
  }
}

const normalise = (s: string, run: VariantRun) => s.split(run.sandbox.root).join('<root>').split(run.sessionId).join('<sid>');

export async function measure(on: VariantRun, off: VariantRun, repoRoot: string): Promise<FidelityResult> {
  const problems = [...off.problems, ...on.problems];
  const onAfter = modelText(afterCompaction(on));
  const offAfter = modelText(afterCompaction(off));
  const onCompact = firstCompaction(on);

  // Scenario checks: the summary must not carry a detail, and neither may the fill traffic (else OFF
  // "keeps" it by accident). Both read from what OFF's model actually got.
  const offResults = toolResults(off, firstCompaction(off)?.seq ?? Number.POSITIVE_INFINITY);
  const fillText = [...offResults.entries()]
    .filter(([id]) => /^toolu_fid_f\d/.test(id))
    .map(([, v]) => v.text)
    .join('\n');
  for (const d of DETAILS) {
    if (detailIn(COMPACT_SUMMARY, d)) problems.push(`detail ${d.id} is in the compaction summary`);
    if (detailIn(fillText, d)) problems.push(`detail ${d.id} occurs in the fill's tool outputs`);
    // Without the plugin the detail must be gone (not kept by preserved messages or re-attached
    // files); otherwise the scenario does not test it.
    if (afterCompaction(off) !== undefined && detailIn(offAfter, d))
      problems.push(`OFF kept detail ${d.id} through the compaction: the scenario does not test it`);
  }
  // Every tool call must have worked (the test run fails on purpose: one test fails, exit 1).
  for (const run of [on, off])
    for (const [id, v] of toolResults(run, Number.POSITIVE_INFINITY))
      if (v.isError && id !== EXPECTED_FAILURE) problems.push(`${run.variant}: tool call ${id} failed: ${v.text.slice(0, 200)}`);

  const details: DetailResult[] = [];
  const onInstructions = compactInstructions(onCompact);
  for (const d of DETAILS) {
    const recall = on.sessionId === '' ? { rank: undefined } : await recallRank(on.sandbox, repoRoot, d);
    if (recall.problem !== undefined) problems.push(recall.problem);
    details.push({
      id: d.id,
      label: d.label,
      onSeen: detailIn(onAfter, d),
      offSeen: detailIn(offAfter, d),
      onSteered: detailIn(onInstructions, d),
      recallRank: recall.rank,
      recallTop3: recall.rank !== undefined,
    });
  }

  // Tokens at the same scripted step: the one OFF answered last before compacting.
  const offLast = lastBefore(off);
  const step = offLast === undefined ? undefined : off.stepBySeq.get(offLast.seq);
  const onSame = step === undefined ? undefined : mains(on).find((r) => on.stepBySeq.get(r.seq) === step);
  const tokensOff = tokensOf(offLast);
  const tokensOn = tokensOf(onSame);

  // Stubs: ON's tool_result for an id against OFF's, both before their first compaction.
  const onResults = toolResults(on, onCompact?.seq ?? Number.POSITIVE_INFINITY);
  const stubs = { compared: 0, stubbed: 0, charsOff: 0, charsOn: 0, onOnly: 0 };
  for (const [id, v] of onResults) {
    const other = offResults.get(id);
    if (other === undefined) {
      stubs.onOnly++;
      continue;
    }
    stubs.compared++;
    if (normalise(v.text, on) !== normalise(other.text, off)) {
      stubs.stubbed++;
      stubs.charsOff += other.text.length;
      stubs.charsOn += v.text.length;
    }
  }

  const onFigures = figures(on, DETAILS);
  const offFigures = figures(off, DETAILS);
  return {
    details,
    on: onFigures,
    off: offFigures,
    fidelityOn: onFigures.fidelity,
    fidelityOff: offFigures.fidelity,
    recallShare: details.filter((d) => d.recallTop3).length / details.length,
    tokens: {
      step,
      index: offLast === undefined ? undefined : mains(off).indexOf(offLast),
      on: tokensOn,
      off: tokensOff,
      saved: tokensOn === undefined || tokensOff === undefined ? undefined : tokensOff - tokensOn,
      onCompactedBefore: onSame !== undefined && onCompact !== undefined && onSame.seq > onCompact.seq,
    },
    stubs,
    problems,
    sandboxes: { on: on.sandbox.root, off: off.sandbox.root },
  };
}

// ---------------------------------------------------------------------------------------------
// Reporting

const yes = (b: boolean) => (b ? 'yes' : 'no');
const pct = (x: number) => `${Math.round(100 * x)}%`;
const num = (x: number | undefined) => (x === undefined ? 'n/a' : String(x));

/** The figures as two Markdown tables (per detail, then the summary rows). */
export function fidelityTable(r: FidelityResult): string {
  const row = (cells: string[]) => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  const lines = [
    row(['detail', 'ON seen', 'OFF seen', 'ON steered', 'recall top-3 (ON)']),
    row(['---', '---', '---', '---', '---']),
    ...r.details.map((d) => row([d.label, yes(d.onSeen), yes(d.offSeen), yes(d.onSteered), d.recallRank === undefined ? 'no' : `yes (#${d.recallRank})`])),
    '',
    row(['figure', 'ON', 'OFF']),
    row(['---', '---', '---']),
    row(['fidelity after the first compaction', pct(r.fidelityOn), pct(r.fidelityOff)]),
    row(['recall top-3 share', pct(r.recallShare), '—']),
    row([`input tokens at request ${num(r.tokens.index)}, step ${r.tokens.step ?? '?'} (OFF's last before compacting)`, num(r.tokens.on), num(r.tokens.off)]),
    row(['tokens saved there (OFF − ON)', num(r.tokens.saved), '—']),
    row(['main requests before the first compaction', String(r.on.mainRequestsBeforeCompaction), String(r.off.mainRequestsBeforeCompaction)]),
    row(['input tokens of the last request before it', num(r.on.tokensBeforeCompaction), num(r.off.tokensBeforeCompaction)]),
    row(['input tokens of the first request after it', num(r.on.tokensAfterCompaction), num(r.off.tokensAfterCompaction)]),
    row(['tool results / their chars before it', `${r.on.toolResults} / ${r.on.toolResultChars}`, `${r.off.toolResults} / ${r.off.toolResultChars}`]),
    row([
      'stubbed results (ON differs from OFF, same id)',
      `${r.stubs.stubbed} of ${r.stubs.compared} (${r.stubs.charsOff} → ${r.stubs.charsOn} chars; ${r.stubs.onOnly} ON-only not compared)`,
      '—',
    ]),
    row(['compactions (trigger, preTokens, preserved msgs)', compaction(r.on), compaction(r.off)]),
    row(['PreCompact instructions (chars)', String(r.on.compactInstructions.length), String(r.off.compactInstructions.length)]),
    row([
      'hook problems / hook_error_during_execution',
      `${r.on.hookProblems.length} / ${r.on.hookErrorsDuringExecution}`,
      `${r.off.hookProblems.length} / ${r.off.hookErrorsDuringExecution}`,
    ]),
    row(['runs (exit codes)', r.on.exitCodes.join(' '), r.off.exitCodes.join(' ')]),
  ];
  if (r.problems.length > 0) lines.push('', 'Harness problems:', ...r.problems.map((p) => `- ${p.split('\n')[0]}`));
  return lines.join('\n');
}

function compaction(f: VariantFigures): string {
  return `${f.compactions} (${f.compactTrigger ?? '?'}, ${num(f.compactPreTokens)}, ${f.preservedMessages})`;
}
