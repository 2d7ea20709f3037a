// The context window Claude Code itself uses (reference §6, checked against the 2.1.332 client):
// the model's window, reduced by CLAUDE_CODE_AUTO_COMPACT_WINDOW or the `autoCompactWindow` setting;
// our own `windowTokens` wins. Hook inputs name the model only on SessionStart(compact), so the model
// comes from the first source that knows it: hook input, the transcript's last assistant message,
// ANTHROPIC_MODEL, the `model` setting, else the client's default.
import type { Env } from '../runtime/paths.ts';
import { thousands } from './thousands.ts';

export const DEFAULT_WINDOW = 200_000;
export const ONE_MILLION = 1_000_000;
/** What Claude Code 2.1.332 runs when nothing chooses a model (its `-p` result reports a 1M window). */
export const CLIENT_DEFAULT_MODEL = 'claude-opus-5-5';

/** Models known to have a 1M window without the `[1m]` suffix (verified in the client's own usage report). */
const ONE_MILLION_MODELS = [/^claude-opus-5(?:-|$)/, /^opus$/];

export function modelWindow(model: string | undefined, env: Env): number {
  if (env.CLAUDE_CODE_DISABLE_1M_CONTEXT === '1') return DEFAULT_WINDOW;
  const max = Number(env.CLAUDE_CODE_MAX_CONTEXT_TOKENS);
  if (Number.isInteger(max) && max > 0) return max;
  const id = (model ?? CLIENT_DEFAULT_MODEL).trim().toLowerCase();
  if (/\[1m\]$/.test(id)) return ONE_MILLION;
  return ONE_MILLION_MODELS.some((re) => re.test(id)) ? ONE_MILLION : DEFAULT_WINDOW;
}

export interface WindowInput {
  /** Candidates, most specific first; the first defined one is the model. */
  models: ReadonlyArray<string | undefined>;
  env: Env;
  configured: number; // config.windowTokens; 0 = follow Claude Code
  autoCompactWindow?: number | undefined; // from Claude Code's settings, when set
}

export function contextWindow(input: WindowInput): number {
  if (input.configured > 0) return input.configured;
  const model = modelWindow(
    [...input.models, input.env.ANTHROPIC_MODEL].find((m) => m !== undefined && m !== ''),
    input.env,
  );
  // The env var takes a plain integer only (reference §6) and wins over the setting.
  const fromEnv = plainInt(input.env.CLAUDE_CODE_AUTO_COMPACT_WINDOW);
  const override = fromEnv !== undefined && fromEnv > 0 ? fromEnv : input.autoCompactWindow;
  // Claude Code accepts 100k–1M and clamps to the model's window; anything else: the model's window.
  if (override !== undefined && override >= 100_000 && override <= ONE_MILLION) return Math.min(override, model);
  return model;
}

/**
 * Where Claude Code compacts by itself (reference §6, 2.1.332): window − min(max output, 20K) − 13K,
 * lowered by CLAUDE_AUTOCOMPACT_PCT_OVERRIDE. With auto-compaction off, its hard limit instead.
 */
export function autoCompactAt(window: number, env: Env): number {
  const maxOut = Number(env.CLAUDE_CODE_MAX_OUTPUT_TOKENS);
  const effective = window - Math.min(Number.isInteger(maxOut) && maxOut > 0 ? maxOut : 20_000, 20_000);
  if (env.DISABLE_AUTO_COMPACT === '1' || env.DISABLE_COMPACT === '1') return effective - 3_000;
  const pct = Number(env.CLAUDE_AUTOCOMPACT_PCT_OVERRIDE);
  const base = effective - 13_000;
  return Number.isFinite(pct) && pct >= 1 && pct <= 100 ? Math.min(Math.floor((effective * pct) / 100), base) : base;
}

/** Model ids Claude Code knows: `claude-…` ids and its aliases, with an optional `[1m]`. */
const KNOWN_MODEL = /^(?:claude-[\w.-]+|opus|sonnet|haiku|default|best|opusplan)(?:\[1m\])?$/i;

/**
 * What the window fell back on, in words, for the log: an unknown model id, an override that makes
 * no sense. Pure; the caller logs each note once per session.
 */
export function windowNotes(input: WindowInput): string[] {
  const notes: string[] = [];
  if (input.configured > 0) return notes;
  const model = [...input.models, input.env.ANTHROPIC_MODEL].find((m) => m !== undefined && m !== '');
  const max = Number(input.env.CLAUDE_CODE_MAX_CONTEXT_TOKENS);
  if (model !== undefined && !KNOWN_MODEL.test(model.trim()) && !(Number.isInteger(max) && max > 0))
    notes.push(`unknown model "${model}": window assumed ${thousands(DEFAULT_WINDOW)} tokens (set windowTokens or CLAUDE_CODE_MAX_CONTEXT_TOKENS)`);
  const raw = input.env.CLAUDE_CODE_AUTO_COMPACT_WINDOW;
  if (raw !== undefined && raw !== '') {
    const n = plainInt(raw);
    if (n === undefined || n < 100_000 || n > ONE_MILLION)
      notes.push(`CLAUDE_CODE_AUTO_COMPACT_WINDOW=${raw} ignored (Claude Code takes a whole number from 100000 to 1000000)`);
  } else if (
    input.autoCompactWindow !== undefined &&
    (!Number.isInteger(input.autoCompactWindow) || input.autoCompactWindow < 100_000 || input.autoCompactWindow > ONE_MILLION)
  )
    notes.push(`autoCompactWindow ${input.autoCompactWindow} ignored (Claude Code takes 100000 to 1000000)`);
  return notes;
}

const plainInt = (raw: string | undefined): number | undefined => (raw !== undefined && /^\s*\d{1,10}\s*$/.test(raw) ? Number(raw) : undefined);
