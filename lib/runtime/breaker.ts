// The circuit breaker of runHook: one file per hook (`state/breaker-<Event>.json`), a count per
// session. A transcript that makes a hook fail (one nested thousands of levels deep did) pauses that
// hook for its own session, not for every session. Version 1 kept one count for all sessions; it is
// read as no failures. `ctxl doctor` reads the same files through pausedSessions.
import * as z from 'zod/mini';
import type { Config } from './config.ts';
import type { Logger } from './log.ts';
import { lazySchema } from './schemas.ts';
import type { Store } from './store.ts';

const breakerSchema = lazySchema(() =>
  z.looseObject({
    version: z.literal(2),
    sessions: z.record(z.string(), z.object({ failures: z.number(), openUntil: z.optional(z.string()), at: z.string() })),
  }),
);
type BreakerState = z.infer<ReturnType<typeof breakerSchema>>;

/** Sessions a breaker file remembers, the most recently failed: an old session's count is dropped. */
const BREAKER_SESSIONS = 32;

interface Breaker {
  allows(now: Date): boolean;
  failed(now: Date): void;
  succeeded(): void;
}

export function openBreaker(store: Store, event: string, sessionId: string, config: Config, log: Logger): Breaker {
  const file = store.path('state', `breaker-${event}.json`);
  const read = (): BreakerState => {
    const got = store.readJson(file, breakerSchema);
    return got.ok ? got.value : { version: 2, sessions: {} };
  };
  const mine = read().sessions[sessionId];
  // Read again before each write: other sessions' hooks write the same file.
  const save = (entry: BreakerState['sessions'][string] | undefined) => {
    try {
      const state = read();
      if (entry === undefined) delete state.sessions[sessionId];
      else state.sessions[sessionId] = entry;
      const kept = Object.entries(state.sessions)
        // Newest first; ISO times compare as strings (no localeCompare: ICU's data loads on its first call).
        .sort((a, b) => (a[1].at < b[1].at ? 1 : a[1].at > b[1].at ? -1 : 0))
        .slice(0, BREAKER_SESSIONS);
      store.writeJson(file, { version: 2, sessions: Object.fromEntries(kept) });
    } catch (error) {
      log.warn('could not save breaker state', error);
    }
  };
  let failures = mine?.failures ?? 0;
  return {
    allows(now) {
      if (mine?.openUntil === undefined) return true;
      if (now.getTime() < Date.parse(mine.openUntil)) return false;
      log.info(`circuit closed again after cool-down; retrying ${event} for session ${sessionId}`);
      failures = 0;
      save(undefined);
      return true;
    },
    failed(now) {
      failures += 1;
      if (failures >= config.breakerFailures) {
        const openUntil = new Date(now.getTime() + config.breakerCooldownSeconds * 1000).toISOString();
        log.error(`circuit open: ${failures} consecutive failures; ${event} skips its work for session ${sessionId} until ${openUntil}`);
        save({ failures, openUntil, at: now.toISOString() });
      } else save({ failures, at: now.toISOString() });
    },
    succeeded() {
      if (failures === 0 && mine?.openUntil === undefined) return;
      save(undefined);
    },
  };
}

/** The sessions a breaker file's text has paused past `now`, with until when; none for a file that does not parse. */
export function pausedSessions(text: string, now: Date): Array<{ session: string; openUntil: string }> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [];
  }
  const got = breakerSchema().safeParse(json);
  if (!got.success) return [];
  return Object.entries(got.data.sessions).flatMap(([session, { openUntil }]) =>
    openUntil !== undefined && Date.parse(openUntil) > now.getTime() ? [{ session, openUntil }] : [],
  );
}
