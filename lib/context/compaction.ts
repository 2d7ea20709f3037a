// The hook-side glue of the budget: Stop's advice at level crossings (with the L2→L3 checkpoint),
// PreCompact's steering (the same text for every call of one compaction) and the size of
// SessionStart(compact)'s brief.
import * as z from 'zod/mini';
import { type PhaseEnv, writeLedgers } from '../phase/ledgers.ts';
import { budgetShape } from '../runtime/config.ts';
import { lazySchema } from '../runtime/schemas.ts';
import { statSafe } from '../runtime/store.ts';
import { readCursor, type SavedCursor } from '../session/session-files.ts';
import { type Advice, adviceFor } from './advice.ts';
import { adviseCrossing, type Budget } from './budget.ts';
import { type BudgetEnv, budgetFor, logWindowNotes, readBudgetFile, saveBudgetFile } from './budget-store.ts';
import { readSessionDigest } from './session-digest.ts';
import { steeringText } from './steering.ts';

/** Points under a threshold the use must fall before its crossing is announced again. */
export const HYSTERESIS_POINTS = 5;

export interface StopAdviceInput {
  sessionId: string;
  /** Stop while Claude already continues for a Stop hook: never ask for another turn. */
  stopHookActive: boolean;
  recallCommand: string;
  /** The cursor Stop's catch-up just saved (read from disk when the catch-up was skipped). */
  cursor?: SavedCursor | undefined;
}

/** Measure after Stop's catch-up, save budget.json, and advise once per crossing. */
export async function stopBudget(env: PhaseEnv & BudgetEnv, input: StopAdviceInput): Promise<{ budget: Budget; advice?: Advice } | undefined> {
  const cursor = input.cursor ?? readCursor(env.store, input.sessionId, env.log, env.now());
  if (cursor === undefined) return undefined;
  const saved = readBudgetFile(env.store, input.sessionId, env.log);
  const budget = budgetFor(env, cursor.context, saved, []);
  const { thresholds } = budgetShape(env.config);
  // A compaction since the last Stop empties the window: announcements start over.
  const announced = saved !== undefined && saved.compactions === cursor.context.compactions ? saved.announced : 0;
  const { state, crossed } = adviseCrossing({ announced }, budget, thresholds, HYSTERESIS_POINTS);
  const notes = logWindowNotes(env, cursor.context, saved);
  saveBudgetFile(env.store, input.sessionId, budget, cursor.context, state.announced, env.now(), saved, notes);
  if (crossed === undefined || !budget.measured) return { budget };
  env.log.info(`context level crossed: ${crossed} (working zone ${Math.round(budget.workingUse * 100)}%)`);
  let ledger: string | undefined;
  if (crossed >= 3) {
    // L2→L3: the ledger of the running phase now, and its decisions promoted to L3 with it.
    const written = await writeLedgers(env, input.sessionId, { current: true });
    ledger = written.at(-1)?.l3 ?? written.at(-1)?.file;
  }
  if (!env.config.advice) return { budget };
  const digest = readSessionDigest({ store: env.store, log: env.log, now: env.now(), projectRoot: env.project.root }, input.sessionId);
  const advice = adviceFor(crossed, budget, digest, { showCommand: `${input.recallCommand} show`, ...(ledger === undefined ? {} : { ledger }) });
  if (input.stopHookActive) delete advice.additionalContext;
  return { budget, advice };
}

const STEERING_VERSION = 1;
const steeringCache = lazySchema(() => z.object({ version: z.literal(STEERING_VERSION), bytes: z.number(), text: z.string() }));

/**
 * PreCompact's text. One compaction fires PreCompact several times; nothing is added to the
 * transcript between them, so the text is cached by transcript size and printed the same each time.
 */
export function preCompactSteering(
  env: PhaseEnv & BudgetEnv,
  sessionId: string,
  transcriptPath: string,
  options: { recallCommand: string; caughtUp: boolean },
): string | undefined {
  const bytes = statSafe(transcriptPath)?.size ?? -1;
  const file = env.store.path('sessions', sessionId, 'steering.json');
  const cached = env.store.readJson(file, steeringCache);
  if (cached.ok && cached.value.bytes === bytes) return cached.value.text === '' ? undefined : cached.value.text;
  const digest = readSessionDigest({ store: env.store, log: env.log, now: env.now(), projectRoot: env.project.root }, sessionId);
  const text = digest === undefined ? undefined : steeringText(digest, { recallCommand: options.recallCommand });
  // A call that could not catch up (another holds the cursor) may miss the newest facts: its text is
  // printed but not cached, so the calls after it build their own.
  if (options.caughtUp) env.store.writeJson(file, { version: STEERING_VERSION, bytes, text: text ?? '' });
  return text;
}
