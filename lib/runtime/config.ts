// Configuration: defaults < user file (<data>/config.json) < project file
// (<project>/.claude/context-lifecycle.json) < environment (CTXL_*). Each key is validated on its own:
// an invalid value is reported and replaced by its default, so one typo never disables the plugin.
import * as z from 'zod/mini';
import type { Env } from './paths.ts';

export { isDisabledByEnv } from './paths.ts';

// Schemas are built when a key is set (a file or the environment names it), not at every hook's
// start: building them all cost a few ms of each start, and most runs set none.
const logLevel = () => z.enum(['error', 'warn', 'info', 'debug']);
const positiveInt = () => z.number().check(z.int(), z.positive());
const nonNegativeInt = () => z.number().check(z.int(), z.nonnegative());

/** One entry per key: schema, default, env var, and a line for the README table. */
export const configKeys = {
  disabled: {
    schema: () => z.boolean(),
    default: false,
    env: 'CTXL_DISABLE',
    doc: 'Turn every hook into a no-op (the env var is checked first, before any file is read).',
  },
  logLevel: { schema: logLevel, default: 'warn' as const, env: 'CTXL_LOG_LEVEL', doc: 'Log level for `<data>/logs/ctxl.log`: error, warn, info, debug.' },
  breakerFailures: {
    schema: positiveInt,
    default: 3,
    env: 'CTXL_BREAKER_FAILURES',
    doc: 'Consecutive internal failures of one hook before it pauses (circuit breaker).',
  },
  breakerCooldownSeconds: {
    schema: positiveInt,
    default: 300,
    env: 'CTXL_BREAKER_COOLDOWN_SECONDS',
    doc: 'How long a tripped hook skips its work before trying again.',
  },
  windowTokens: {
    schema: nonNegativeInt,
    default: 0,
    env: 'CTXL_WINDOW_TOKENS',
    doc: 'Context window in tokens; 0 follows the model and Claude Code’s own overrides.',
  },
  archiveToolOutputBytes: {
    schema: positiveInt,
    default: 16_384,
    env: 'CTXL_ARCHIVE_TOOL_OUTPUT_BYTES',
    doc: 'Tool outputs at least this large are archived to L2 by PostToolUse at once (smaller ones at the end of the turn).',
  },
  sessionStartStatus: {
    schema: () => z.boolean(),
    default: true,
    env: 'CTXL_SESSION_START_STATUS',
    doc: 'Inject the one-line status (phase, context use) at session start.',
  },
  sessionStartTokens: {
    schema: positiveInt,
    default: 2_500,
    env: 'CTXL_SESSION_START_TOKENS',
    doc: 'Budget of what SessionStart injects (timeline, phase, pending items, decisions); never over 9,500 characters.',
  },
  projectMemory: {
    schema: () => z.boolean(),
    default: true,
    env: 'CTXL_PROJECT_MEMORY',
    doc: 'Write phase ledgers and the decision log into the project (L3) as well as the data dir.',
  },
  projectMemoryDir: {
    schema: () =>
      z.string().check(
        z.minLength(1),
        // Relative, inside the project, and a folder of its own (not the root: "." or "./").
        z.refine((v) => !v.startsWith('/') && !v.split(/[\\/]/).includes('..') && v.replace(/[\\/.]/g, '') !== '', 'a folder inside the project'),
      ),
    default: 'docs/memory',
    env: 'CTXL_PROJECT_MEMORY_DIR',
    doc: 'Where L3 goes, relative to the project root.',
  },
  zones: {
    schema: () =>
      z.string().check(z.refine((v) => parsePercents(v, 4) !== undefined && sum(parsePercents(v, 4) ?? []) === 100, 'four whole percentages that sum to 100')),
    default: '10/10/65/15',
    env: 'CTXL_ZONES',
    doc: 'The four zones as percentages of the window: System/Ledger/Working/Buffer (sum 100).',
  },
  levels: {
    schema: () => z.string().check(z.refine((v) => increasing(parsePercents(v, 3)), 'three increasing percentages')),
    default: '60/75/90',
    env: 'CTXL_LEVELS',
    doc: 'Working-zone use (%) where L0→L1 (stub large outputs), L1→L2 (stub more, advise) and L2→L3 (write the ledger, promote decisions) start.',
  },
  stubs: {
    schema: () => z.boolean(),
    default: true,
    env: 'CTXL_STUBS',
    doc: 'From L0→L1 on, replace large Bash, Read and Grep outputs in context with a short stub; the full text is in L2.',
  },
  stubMinBytes: {
    schema: positiveInt,
    default: 8_192,
    env: 'CTXL_STUB_MIN_BYTES',
    doc: 'Smallest output stubbed at L0→L1.',
  },
  stubMinBytesTight: {
    schema: positiveInt,
    default: 3_072,
    env: 'CTXL_STUB_MIN_BYTES_TIGHT',
    doc: 'Smallest output stubbed from L1→L2 on.',
  },
  advice: {
    schema: () => z.boolean(),
    default: true,
    env: 'CTXL_ADVICE',
    doc: 'At each level crossing, Stop tells the user once; at L1→L2 and L2→L3 it also tells Claude (one extra model turn each).',
  },
} as const;

function parsePercents(text: string, count: number): number[] | undefined {
  const parts = text.split('/').map((p) => p.trim());
  if (parts.length !== count || parts.some((p) => !/^\d{1,3}$/.test(p))) return undefined;
  const values = parts.map(Number);
  return values.every((v) => v > 0 && v <= 100) ? values : undefined;
}
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
const increasing = (values: readonly number[] | undefined) => values?.every((v, i) => i === 0 || v > (values[i - 1] as number)) === true;

/** The zones and level thresholds of a (validated) config. */
export function budgetShape(config: Pick<Config, 'zones' | 'levels'>): {
  zones: { system: number; ledger: number; working: number; buffer: number };
  thresholds: [number, number, number];
} {
  const [system, ledger, working, buffer] = parsePercents(config.zones, 4) ?? [10, 10, 65, 15];
  const [l1, l2, l3] = parsePercents(config.levels, 3) ?? [60, 75, 90];
  return { zones: { system: system ?? 10, ledger: ledger ?? 10, working: working ?? 65, buffer: buffer ?? 15 }, thresholds: [l1 ?? 60, l2 ?? 75, l3 ?? 90] };
}

type Keys = typeof configKeys;
export type Config = { -readonly [K in keyof Keys]: z.infer<ReturnType<Keys[K]['schema']>> };
export type ConfigSource = 'default' | 'user' | 'project' | 'env';

export interface ConfigProblem {
  key: string;
  source: ConfigSource;
  message: string;
}

export interface LoadedConfig {
  config: Config;
  problems: ConfigProblem[];
}

export const defaultConfig: Config = Object.fromEntries(Object.entries(configKeys).map(([key, spec]) => [key, spec.default])) as Config;

/**
 * Merge and validate. File sources are given as text (the caller reads them through the store), so
 * this stays pure; a file that is not a JSON object is one problem and contributes nothing.
 */
export function loadConfig(sources: { env: Env; userText?: string | undefined; projectText?: string | undefined }): LoadedConfig {
  const problems: ConfigProblem[] = [];
  const layers: Array<[ConfigSource, Record<string, unknown>]> = [
    ['user', parseFile(sources.userText, 'user', problems)],
    ['project', parseFile(sources.projectText, 'project', problems)],
    ['env', fromEnv(sources.env)],
  ];
  const config = { ...defaultConfig } as Record<string, unknown>;
  for (const [source, layer] of layers) {
    for (const [key, value] of Object.entries(layer)) {
      const spec = (configKeys as Record<string, { schema: () => z.ZodMiniType }>)[key];
      if (spec === undefined) {
        problems.push({ key, source, message: `unknown key "${key}" ignored` });
        continue;
      }
      const result = spec.schema().safeParse(value);
      if (result.success) config[key] = result.data;
      else
        problems.push({
          key,
          source,
          message: `invalid value ${JSON.stringify(value)} for "${key}" (${result.error.issues[0]?.message ?? 'invalid'}); kept ${JSON.stringify(config[key])}`,
        });
    }
  }
  return { config: config as Config, problems };
}

function parseFile(text: string | undefined, source: ConfigSource, problems: ConfigProblem[]): Record<string, unknown> {
  if (text === undefined || text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const { $schema: _schema, version: _version, ...rest } = value as Record<string, unknown>;
      return rest;
    }
  } catch {}
  problems.push({ key: '*', source, message: `${source} config file is not a JSON object; ignored` });
  return {};
}

function fromEnv(env: Env): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(configKeys)) {
    const raw = env[spec.env];
    if (raw === undefined || raw === '') continue;
    out[key] = coerce(raw, spec.default);
  }
  return out;
}

/** Env values are strings: read them as the type of the key's default, leaving bad ones to fail validation. */
function coerce(raw: string, like: unknown): unknown {
  if (typeof like === 'boolean') {
    if (/^(1|true|yes|on)$/i.test(raw)) return true;
    if (/^(0|false|no|off)$/i.test(raw)) return false;
    return raw;
  }
  if (typeof like === 'number') return /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw) : raw;
  return raw;
}
