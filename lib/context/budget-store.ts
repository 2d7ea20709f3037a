// The session's budget on disk (`<data>/sessions/<sid>/budget.json`) and how hooks measure it: Stop
// from the exact cursor it just saved, PostToolUse mid-turn from the transcript's tail. The file keeps
// what a tail read cannot know (the System zone measured from the first request, the injected Ledger
// tokens) and the advice state, so a crossing is announced once.
import * as z from 'zod/mini';
import { budgetShape, type Config } from '../runtime/config.ts';
import type { Logger } from '../runtime/log.ts';
import type { Env } from '../runtime/paths.ts';
import { lazySchema } from '../runtime/schemas.ts';
import type { Store } from '../runtime/store.ts';
import { readCursor } from '../session/session-files.ts';
import { CHARS_PER_TOKEN, type ContextState, contextTokens } from '../transcript/context-size.ts';
import { contextAtEnd } from '../transcript/tail.ts';
import { type Budget, computeBudget, type Level, zoneBar, zoneLines } from './budget.ts';
import { windowInput } from './claude-settings.ts';
import { autoCompactAt, contextWindow, windowNotes } from './window.ts';

export const BUDGET_FILE_VERSION = 1;

const level = () => z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]);
const budgetFileSchema = lazySchema(() =>
  z.object({
    version: z.literal(BUDGET_FILE_VERSION),
    t: z.string(),
    window: z.number(),
    /** The model the window came from: a later measure without one (a tail read) keeps the window. */
    model: z.optional(z.string()),
    contextTokens: z.number(),
    systemTokens: z.optional(z.number()),
    ledgerTokens: z.number(),
    compactions: z.number(),
    level: level(),
    /** The highest level announced to the user since the use last fell clear of it. */
    announced: level(),
    /** Fallbacks already logged for this session (an unknown model, a nonsense override). */
    notes: z.optional(z.array(z.string())),
  }),
);
export type BudgetFile = z.infer<ReturnType<typeof budgetFileSchema>>;

export const budgetFile = (store: Store, sid: string) => store.path('sessions', sid, 'budget.json');

export function readBudgetFile(store: Store, sid: string, log: Logger): BudgetFile | undefined {
  const r = store.readJson(budgetFile(store, sid), budgetFileSchema);
  if (r.ok) return r.value;
  if (r.reason !== 'missing') log.warn(`budget.json of ${sid} unreadable (${r.reason}); measuring afresh`);
  return undefined;
}

export interface BudgetEnv {
  store: Store;
  log: Logger;
  env: Env;
  config: Config;
  project: { root: string };
}

/** Log each fallback the window took once per session; returns the notes to keep in budget.json. */
export function logWindowNotes(env: BudgetEnv, context: ContextState | undefined, saved: BudgetFile | undefined): string[] {
  const known = new Set(saved?.notes ?? []);
  const notes = windowNotes(windowInput({ env: env.env, config: env.config, projectRoot: env.project.root, models: [context?.model, saved?.model] }));
  for (const note of notes) if (!known.has(note)) env.log.warn(note);
  return [...known, ...notes.filter((n) => !known.has(n))];
}

/** The budget for a measured context state (the window from the model it names, env and settings). */
export function budgetFor(env: BudgetEnv, context: ContextState | undefined, saved: BudgetFile | undefined, models: ReadonlyArray<string | undefined>): Budget {
  const input = windowInput({ env: env.env, config: env.config, projectRoot: env.project.root, models: [context?.model, saved?.model, ...models] });
  const window = contextWindow(input);
  // Claude Code compacts by its own window, whatever ours is configured to.
  const claudeWindow = contextWindow({ ...input, configured: 0 });
  const { zones, thresholds } = budgetShape(env.config);
  const tokens = context === undefined ? saved?.contextTokens : contextTokens(context);
  const injected = context?.injectedChars;
  return computeBudget({
    window,
    contextTokens: tokens,
    systemTokens: context?.firstReported ?? saved?.systemTokens,
    ledgerTokens: injected === undefined ? (saved?.ledgerTokens ?? 0) : Math.ceil(injected / CHARS_PER_TOKEN),
    zones,
    thresholds,
    autoCompactAt: autoCompactAt(claudeWindow, env.env),
  });
}

/**
 * Mid-turn: the context at the transcript's end. What a tail read cannot know comes from the last
 * Stop's budget.json: the System zone, and the injections before the last usage.
 */
export async function budgetNow(env: BudgetEnv, sid: string, transcriptPath: string | undefined): Promise<Budget | undefined> {
  const saved = readBudgetFile(env.store, sid, env.log);
  let tail: ContextState | undefined;
  if (transcriptPath !== undefined) {
    try {
      tail = await contextAtEnd(transcriptPath);
    } catch (error) {
      // No transcript yet (the first turn) or unreadable: the last measure stands.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') env.log.warn(`could not read the transcript tail of ${sid}`, error);
    }
  }
  if (tail === undefined && saved === undefined) return undefined;
  // The tail counts the injections after the last usage (all of them when it starts at a compaction
  // boundary); those before it are in the last Stop's measure, unless a compaction came since.
  const before = tail !== undefined && tail.compactions > 0 ? 0 : (saved?.ledgerTokens ?? 0) * CHARS_PER_TOKEN;
  const context: ContextState | undefined =
    tail === undefined ? undefined : { ...tail, firstReported: saved?.systemTokens, injectedChars: before + (tail.injectedChars ?? 0) };
  return budgetFor(env, context, saved, []);
}

/** Save what Stop measured, with the advice state. */
export function saveBudgetFile(
  store: Store,
  sid: string,
  budget: Budget,
  context: ContextState | undefined,
  announced: Level,
  now: Date,
  saved?: BudgetFile,
  notes?: readonly string[],
): BudgetFile {
  const file: BudgetFile = {
    version: BUDGET_FILE_VERSION,
    t: now.toISOString(),
    window: budget.window,
    contextTokens: budget.contextTokens,
    ledgerTokens: budget.zones.ledger.tokens,
    compactions: context?.compactions ?? 0,
    level: budget.level,
    announced,
  };
  if (context?.firstReported !== undefined) file.systemTokens = context.firstReported;
  const model = context?.model ?? saved?.model;
  if (model !== undefined) file.model = model;
  if (notes !== undefined && notes.length > 0) file.notes = [...notes].slice(-20);
  store.writeJson(budgetFile(store, sid), file);
  return file;
}

/** The budget as of the last turn's end (cursor and budget.json): `ctxl status`, `/recall stats`. */
export function savedBudget(
  env: BudgetEnv,
  sid: string,
  cursor: { context: ContextState } | undefined,
  models: ReadonlyArray<string | undefined>,
): Budget | undefined {
  const saved = readBudgetFile(env.store, sid, env.log);
  if (cursor === undefined && saved === undefined) return undefined;
  return budgetFor(env, cursor?.context, saved, models);
}

/** The zones as Markdown lines for `/recall stats`. */
export function budgetMarkdown(budget: Budget | undefined): string[] {
  if (budget === undefined || !budget.measured) return ['Context budget: not measured yet (measured at the end of each turn).'];
  return ['', 'Context budget (as of the last turn):', '```', zoneBar(budget, 40), ...zoneLines(budget), '```'];
}

export function sessionBudgetLines(env: BudgetEnv & { now: () => Date }, sid: string): string[] {
  return budgetMarkdown(savedBudget(env, sid, readCursor(env.store, sid, env.log, env.now()), []));
}
