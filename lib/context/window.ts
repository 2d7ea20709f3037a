// The context window Claude Code itself uses (reference §6, checked against the 2.1.332 client):
// the model's window, reduced by CLAUDE_CODE_AUTO_COMPACT_WINDOW or the `autoCompactWindow` setting;
// our own `windowTokens` wins. Hook inputs name the model only on SessionStart(compact), so the model
// comes from the first source that knows it: hook input, the transcript's last assistant message,
// ANTHROPIC_MODEL, the `model` setting, else the client's default.
import type { Env } from '../runtime/paths.ts';

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
  const fromEnv = Number(input.env.CLAUDE_CODE_AUTO_COMPACT_WINDOW);
  const override = Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : input.autoCompactWindow;
  // Claude Code accepts 100k–1M and clamps to the model's window; anything else: the model's window.
  if (override !== undefined && override >= 100_000 && override <= ONE_MILLION) return Math.min(override, model);
  return model;
}
