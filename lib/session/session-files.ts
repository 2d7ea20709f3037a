// Per-session files under <data>/sessions/<sid>/: session.json (who and where), cursor.json (how far
// the transcript was read, context size), events.jsonl (one record per tool call). All reads tolerate
// corruption: a bad file is set aside with a log line and rebuilt.
import * as z from 'zod/mini';
import type { HookContext } from '../runtime/hook-runtime.ts';
import type { Logger } from '../runtime/log.ts';
import { type Store, statSafe } from '../runtime/store.ts';
import { type AdvanceResult, advanceTranscript, CURSOR_VERSION, type TranscriptCursor } from '../transcript/reader.ts';

export const SESSION_VERSION = 1;

const sessionSchema = z.looseObject({
  version: z.literal(SESSION_VERSION),
  sessionId: z.string(),
  cwd: z.string(),
  projectRoot: z.string(),
  transcriptPath: z.optional(z.string()),
  startedAt: z.string(),
  lastSeenAt: z.string(),
  source: z.optional(z.string()),
  model: z.optional(z.string()),
  prompts: z.number(),
  starts: z.number(),
  closedAt: z.optional(z.string()),
  endReason: z.optional(z.string()),
});
export type SessionRecord = z.infer<typeof sessionSchema>;

const cursorSchema = z.looseObject({
  version: z.literal(CURSOR_VERSION),
  offset: z.number(),
  anchor: z.string(),
  context: z.object({
    reported: z.number(),
    charsAfter: z.number(),
    usageKey: z.optional(z.string()),
    firstReported: z.optional(z.number()),
    compactions: z.number(),
    model: z.optional(z.string()),
  }),
  lines: z.number(),
  bad: z.number(),
  oversize: z.number(),
  transcriptPath: z.optional(z.string()),
  updatedAt: z.optional(z.string()),
});
export type SavedCursor = TranscriptCursor & { transcriptPath?: string; updatedAt?: string };

export const sessionDir = (store: Store, sessionId: string) => store.path('sessions', sessionId);
export const sessionFile = (store: Store, sessionId: string) => store.path('sessions', sessionId, 'session.json');
export const cursorFile = (store: Store, sessionId: string) => store.path('sessions', sessionId, 'cursor.json');
export const eventsFile = (store: Store, sessionId: string) => store.path('sessions', sessionId, 'events.jsonl');

/** Read a versioned JSON file; corrupt, invalid or unknown-version files are set aside and logged. */
function readOrSetAside<T>(store: Store, file: string, schema: z.ZodMiniType<T>, log: Logger, now: Date): T | undefined {
  const result = store.readJson(file, schema);
  if (result.ok) return result.value;
  if (result.reason === 'missing') return undefined;
  const aside = result.reason === 'io' ? undefined : store.setAside(file, now);
  log.warn(`${file}: ${result.reason} (${result.detail ?? ''}); ${aside === undefined ? 'left in place' : `set aside as ${aside}`} and rebuilt`);
  return undefined;
}

export function readSession(store: Store, sessionId: string, log: Logger, now: Date): SessionRecord | undefined {
  return readOrSetAside(store, sessionFile(store, sessionId), sessionSchema, log, now);
}

export interface SessionTouch {
  sessionId: string;
  cwd: string;
  transcriptPath?: string | undefined;
  source?: string | undefined;
  model?: string | undefined;
  prompt?: boolean;
  started?: boolean;
  end?: { reason: string } | undefined;
}

/** Create or update session.json under the session lock. Returns the record written. */
export async function touchSession(ctx: HookContext, touch: SessionTouch): Promise<SessionRecord | undefined> {
  const file = sessionFile(ctx.store, touch.sessionId);
  return ctx.store.withLock(
    file,
    () => {
      const now = ctx.now();
      const iso = now.toISOString();
      const prev = readSession(ctx.store, touch.sessionId, ctx.log, now);
      const record: SessionRecord = prev ?? {
        version: SESSION_VERSION,
        sessionId: touch.sessionId,
        cwd: touch.cwd,
        projectRoot: ctx.project.root,
        startedAt: iso,
        lastSeenAt: iso,
        prompts: 0,
        starts: 0,
      };
      record.lastSeenAt = iso;
      record.cwd = touch.cwd;
      record.projectRoot = ctx.project.root;
      if (touch.transcriptPath !== undefined) record.transcriptPath = touch.transcriptPath;
      if (touch.source !== undefined) record.source = touch.source;
      if (touch.model !== undefined) record.model = touch.model;
      if (touch.prompt === true) record.prompts += 1;
      if (touch.started === true) {
        record.starts += 1;
        delete record.closedAt;
        delete record.endReason;
      }
      if (touch.end !== undefined) {
        record.closedAt = iso;
        record.endReason = touch.end.reason;
      }
      ctx.store.writeJson(file, record);
      return record;
    },
    { waitMs: Math.min(1_000, Math.max(100, ctx.timeLeft() / 2)) },
  );
}

export function readCursor(store: Store, sessionId: string, log: Logger, now: Date): SavedCursor | undefined {
  return readOrSetAside(store, cursorFile(store, sessionId), cursorSchema, log, now) as SavedCursor | undefined;
}

/**
 * Read what is new in the transcript since the saved cursor and save the new cursor, under the
 * session's cursor lock so that Stop and the several PreCompact calls of one compaction never read
 * the same lines twice or move the cursor backwards.
 */
export async function advanceSessionCursor(
  ctx: HookContext,
  sessionId: string,
  transcriptPath: string,
): Promise<(AdvanceResult & { previous: SavedCursor | undefined }) | undefined> {
  // Claude Code writes the transcript asynchronously; a missing one is a fact to log, not our failure.
  const stat = statSafe(transcriptPath);
  if (stat === undefined || !stat.isFile()) {
    ctx.log.warn(`transcript not readable: ${transcriptPath}; cursor not moved`);
    return undefined;
  }
  const file = cursorFile(ctx.store, sessionId);
  return ctx.store.withLock(
    file,
    async () => {
      const now = ctx.now();
      let previous = readCursor(ctx.store, sessionId, ctx.log, now);
      if (previous?.transcriptPath !== undefined && previous.transcriptPath !== transcriptPath) previous = undefined;
      const result = await advanceTranscript(transcriptPath, previous);
      if (result.reset !== undefined) ctx.log.warn(`transcript ${result.reset} since last read; re-reading from the start`, { transcriptPath });
      const saved: SavedCursor = { ...result.cursor, transcriptPath, updatedAt: now.toISOString() };
      ctx.store.writeJson(file, saved);
      return { ...result, previous };
    },
    { waitMs: Math.max(100, ctx.timeLeft() / 2) },
  );
}
