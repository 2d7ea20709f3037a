// The context window Claude Code itself uses (reference §6): the model's window, reduced by
// CLAUDE_CODE_AUTO_COMPACT_WINDOW or the `autoCompactWindow` setting; our own `windowTokens` wins.
import type { Env } from '../runtime/paths.ts';

export const DEFAULT_WINDOW = 200_000;
export const ONE_MILLION = 1_000_000;

export interface WindowInput {
  model: string | undefined;
  env: Env;
  configured: number; // config.windowTokens; 0 = follow Claude Code
  autoCompactWindow?: number | undefined; // from settings.json, when known
}

export function modelWindow(model: string | undefined, env: Env): number {
  if (env.CLAUDE_CODE_DISABLE_1M_CONTEXT === '1') return DEFAULT_WINDOW;
  const max = Number(env.CLAUDE_CODE_MAX_CONTEXT_TOKENS);
  if (Number.isInteger(max) && max > 0) return max;
  if (model !== undefined && /\[1m\]$/i.test(model)) return ONE_MILLION;
  return DEFAULT_WINDOW;
}

export function contextWindow(input: WindowInput): number {
  if (input.configured > 0) return input.configured;
  const model = modelWindow(input.model, input.env);
  const fromEnv = Number(input.env.CLAUDE_CODE_AUTO_COMPACT_WINDOW);
  const override = Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : input.autoCompactWindow;
  // Claude Code accepts 100k–1M and clamps to the model's window; nonsense falls back to the model.
  if (override !== undefined && override >= 100_000 && override <= ONE_MILLION) return Math.min(override, model);
  return model;
}
