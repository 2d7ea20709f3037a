// Per-session files under <data>/sessions/<sid>/: session.json (who and where), cursor.json (how far
// the transcript was read, context size), events.jsonl (one record per tool call). All reads tolerate
// corruption: a bad file is set aside with a log line and rebuilt.

import { dirname, join } from 'node:path';
import * as z from 'zod/mini';
import { type ChunkSink, type ChunkWriter, type WriteResult, writeChunks } from '../archive/archive-store.ts';
import type { Chunk } from '../archive/chunk-file.ts';
import { type ChunkContext, type ChunkerState, chunksFromEntries, emptyChunkerState, type ToolCallHead } from '../archive/chunker.ts';
import { readRange } from '../archive/file-parts.ts';
import { chunkHash } from '../archive/hash.ts';
import type { Logger } from '../runtime/log.ts';
import { lazySchema } from '../runtime/schemas.ts';
import { listFiles, removePath, type Store, statSafe } from '../runtime/store.ts';
import type { ParsedLine } from '../transcript/entries.ts';
import type { RawLine } from '../transcript/lines.ts';
import { type AdvanceResult, advanceTranscript, CURSOR_VERSION, type TranscriptCursor } from '../transcript/reader.ts';
import { persistedPathOf, queueOversizeLine, queuePersistedOutput } from './tool-archive.ts';

export const SESSION_VERSION = 1;

const sessionSchema = lazySchema(() =>
  z.looseObject({
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
  }),
);
export type SessionRecord = z.infer<ReturnType<typeof sessionSchema>>;

const cursorSchema = lazySchema(() =>
  z.looseObject({
    version: z.literal(CURSOR_VERSION),
    offset: z.number(),
    anchor: z.string(),
    context: z.object({
      reported: z.number(),
      charsAfter: z.number(),
      usageKey: z.optional(z.string()),
      firstReported: z.optional(z.number()),
      compactions: z.number(),
      injectedChars: z.optional(z.number()),
      model: z.optional(z.string()),
    }),
    lines: z.number(),
    bad: z.number(),
    oversize: z.number(),
    transcriptPath: z.optional(z.string()),
    updatedAt: z.optional(z.string()),
    chunker: z.optional(
      z.object({
        pending: z.record(z.string(), z.looseObject({ name: z.string() })),
        lastTime: z.optional(z.string()),
        said: z.optional(z.array(z.string())),
      }),
    ),
  }),
);
export type SavedCursor = TranscriptCursor & { transcriptPath?: string; updatedAt?: string; chunker?: ChunkerState };

export const sessionDir = (store: Store, sessionId: string) => store.path('sessions', sessionId);
export const sessionFile = (store: Store, sessionId: string) => store.path('sessions', sessionId, 'session.json');
/** The session's cursor file, or that of one of its other transcripts (a subagent's: `cursor-agent-<id>.json`). */
export const cursorFile = (store: Store, sessionId: string, cursorName = 'cursor.json') => store.path('sessions', sessionId, cursorName);
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
  return readOrSetAside(store, sessionFile(store, sessionId), sessionSchema(), log, now);
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
  /**
   * The time a transcript covers (`ctxl ingest`): a new record takes it, a known one widens to it.
   * Without it the session is seen now.
   */
  seen?: { first: string; last: string } | undefined;
}

/** Create or update session.json under the session lock. Returns the record written. */
export async function touchSession(ctx: SessionEnv, touch: SessionTouch): Promise<SessionRecord | undefined> {
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
        startedAt: touch.seen?.first ?? iso,
        lastSeenAt: touch.seen?.last ?? iso,
        prompts: 0,
        starts: 0,
      };
      if (touch.seen === undefined) record.lastSeenAt = iso;
      else {
        if (touch.seen.first < record.startedAt) record.startedAt = touch.seen.first;
        if (touch.seen.last > record.lastSeenAt) record.lastSeenAt = touch.seen.last;
      }
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
    { waitMs: Math.min(1_000, Math.max(100, (ctx.timeLeft?.() ?? 2_000) / 2)) },
  );
}

export function readCursor(store: Store, sessionId: string, log: Logger, now: Date, cursorName?: string): SavedCursor | undefined {
  return readOrSetAside(store, cursorFile(store, sessionId, cursorName), cursorSchema(), log, now) as SavedCursor | undefined;
}

/** What the session functions need: a hook context satisfies it, and so does the CLI. */
export interface SessionEnv {
  store: Store;
  log: Logger;
  now: () => Date;
  project: { root: string };
  timeLeft?: () => number;
  /** Told before a read long enough for V8's optimizing compiler to pay (a hook turns it on). */
  longWork?: () => void;
  /** Receives every chunk written (the CLI's ingest indexes them without reading them back). */
  sink?: ChunkSink;
  /** Writes new chunk files off the main thread (the CLI's ingest); drained before the cursor moves. */
  writer?: ChunkWriter & { drain(): string[] };
}

export interface AdvanceOptions {
  /** Archive new entries to L2 as they are read (default true). */
  archive?: boolean;
  /** Cursor file name for this transcript (subagent transcripts keep their own). */
  cursorName?: string;
  phase?: string;
  /** Sees each chunk before it is written (the phase tracker tags it and reads facts from it). */
  onChunk?: (chunk: Chunk) => void;
  /** Runs under the cursor lock just before the cursor is saved: what was read from the new lines
   *  is recorded before the cursor says they were read (a crash in between loses nothing). */
  beforeSave?: () => void;
}

/** Chunks written per batch (one catalog append each): bounded memory, few syscalls. */
const FLUSH_CHUNKS = 64;

export type SessionAdvance = AdvanceResult & { previous: SavedCursor | undefined; archived: WriteResult };

/** A backlog this large makes a read long enough for V8's optimizing compiler to pay. */
const LONG_READ_BYTES = 1024 * 1024;

/**
 * Bytes of a transcript of `size` bytes that a pass from `cursor` would read: past its offset, or
 * all of them when the cursor is another file's (an older cursor names none: it is this one's) or
 * lies past the end (a rewritten file is read again).
 */
export function backlogBytes(size: number, cursor: SavedCursor | undefined, transcriptPath: string): number {
  const read = cursor !== undefined && (cursor.transcriptPath ?? transcriptPath) === transcriptPath ? cursor.offset : 0;
  return read <= size ? size - read : size;
}

/**
 * Bytes a catch-up of the session would read: its transcript's backlog (of `size` bytes) and that of
 * each of its subagents' transcripts, each past its own cursor.
 */
export function sessionBacklogBytes(store: Store, sessionId: string, transcriptPath: string, size: number, log: Logger, now: Date): number {
  let total = backlogBytes(size, readCursor(store, sessionId, log, now), transcriptPath);
  for (const agent of subagentTranscripts(transcriptPath, sessionId)) {
    const agentSize = statSafe(agent.file)?.size;
    if (agentSize === undefined) continue;
    total += backlogBytes(agentSize, readCursor(store, sessionId, log, now, agent.cursorName), agent.file);
  }
  return total;
}

/**
 * Read what is new in the transcript since the saved cursor, archive it to L2, and save the new
 * cursor, all under the session's cursor lock: Stop and the several PreCompact calls of one
 * compaction never read the same lines twice or move the cursor backwards. When this returns, L2
 * holds everything the transcript had up to that moment.
 */
export async function advanceSessionCursor(
  env: SessionEnv,
  sessionId: string,
  transcriptPath: string,
  options?: AdvanceOptions,
): Promise<SessionAdvance | undefined> {
  // Claude Code writes the transcript asynchronously; a missing one is a fact to log, not our failure.
  const stat = statSafe(transcriptPath);
  if (stat === undefined || !stat.isFile()) {
    env.log.warn(`transcript not readable: ${transcriptPath}; cursor not moved`);
    return undefined;
  }
  const file = cursorFile(env.store, sessionId, options?.cursorName);
  const archive = options?.archive !== false;
  const timeLeft = env.timeLeft ?? (() => 60_000);
  const pass = () =>
    env.store.withLock(
      file,
      async () => {
        // Files another writer added since this process listed a chunk folder: list again.
        env.writer?.forget();
        const now = env.now();
        let previous = readOrSetAside(env.store, file, cursorSchema(), env.log, now) as SavedCursor | undefined;
        if (previous?.transcriptPath !== undefined && previous.transcriptPath !== transcriptPath) previous = undefined;
        if (backlogBytes(stat.size, previous, transcriptPath) > LONG_READ_BYTES) env.longWork?.();
        const archived: WriteResult = { added: 0, updated: 0, unchanged: 0 };
        const persisted: Array<ToolCallHead & { file: string }> = [];
        const oversize: Array<{ start: number; end: number; pending: ChunkerState['pending'] }> = [];
        let visit: ((line: ParsedLine) => void) | undefined;
        const batch: Chunk[] = [];
        const flush = () => {
          const written = writeChunks(env.store, sessionId, batch.splice(0), { hash: chunkHash, sink: env.sink, writer: env.writer });
          archived.added += written.added;
          archived.updated += written.updated;
          archived.unchanged += written.unchanged;
        };
        let chunker: ChunkerState = previous?.chunker ?? emptyChunkerState();
        if (archive) {
          const context: ChunkContext = {
            session: sessionId,
            project: env.project.root,
            phase: options?.phase ?? 'unknown',
            now: now.toISOString(),
            hash: chunkHash,
          };
          visit = (line) => {
            for (const entry of line.entries) {
              // A tool output the client kept whole in a file (the transcript has its 2 KB preview):
              // noted with its call (redacted) before the chunker lets go of the call.
              if (entry.kind !== 'tool-result') continue;
              const path = persistedPathOf(entry.structured);
              if (path === undefined) continue;
              const use = chunker.pending[entry.toolUseId];
              persisted.push({ toolUseId: entry.toolUseId, name: use?.name ?? 'tool', input: use?.input, isError: entry.isError, file: path });
            }
            for (const chunk of chunksFromEntries(line.entries, chunker, context)) {
              options?.onChunk?.(chunk);
              batch.push(chunk);
            }
            if (batch.length >= FLUSH_CHUNKS) flush();
          };
        }
        const onReset = (reason: string) => {
          env.log.warn(`transcript ${reason} since last read; re-reading from the start`, { transcriptPath });
          chunker = emptyChunkerState(); // before the first line is read again, not after
        };
        // A line too long to read here (a Write or Edit of a big file carries it twice): a job reads
        // it alone, with the tool calls open at that line, so a result still finds its call.
        const onOversize = (raw: RawLine) => {
          if (!archive) return;
          oversize.push({ start: raw.start, end: raw.end, pending: structuredClone(chunker.pending) });
          // The calls its results answer (named before the content, at its head) are its job's now,
          // not the pass's: no longer open. A head that names none: any open call may be answered
          // there, and none is given up on at the next prompt.
          const head = lineHead(transcriptPath, raw);
          const answered = [...head.matchAll(RESULT_ID)].map((m) => m[1] as string);
          for (const id of answered) delete chunker.pending[id];
          // An assistant's line (a Write of a big file) answers none.
          if (answered.length === 0 && !ASSISTANT_LINE.test(head)) for (const use of Object.values(chunker.pending)) use.queued = true;
        };
        const result = await advanceTranscript(transcriptPath, previous, visit === undefined ? { onReset, onOversize } : { visit, onReset, onOversize });
        flush();
        // Every chunk file is on disk before the cursor says its lines were read.
        for (const failure of env.writer?.drain() ?? []) env.log.warn(`archive: could not write ${failure}`);
        // And so is a job for each persisted output L2 does not hold whole (its PostToolUse never ran,
        // or died before it wrote anything): Stop starts it, `ctxl ingest` runs it.
        for (const call of persisted) queuePersistedOutput(env, sessionId, call, options?.phase);
        for (const line of oversize) queueOversizeLine(env, sessionId, { transcript: transcriptPath, ...line }, options?.phase);
        options?.beforeSave?.();
        const saved: SavedCursor = { ...result.cursor, transcriptPath, updatedAt: now.toISOString(), chunker };
        env.store.writeJson(file, saved);
        return { ...result, previous, archived };
      },
      { waitMs: Math.max(100, timeLeft() / 2) },
    );
  if (file === cursorFile(env.store, sessionId)) return pass();
  // A subagent's pass writes chunks of its parent session: it holds the session's own cursor lock
  // too (taken first, never the other way round), as the main pass and a large output's archive
  // job do, so no two of them write the same chunk at once.
  return env.store.withLock(cursorFile(env.store, sessionId), pass, { waitMs: Math.max(100, timeLeft() / 2) });
}

/** Bytes of a line too long for a pass read for what it is and the tool_use ids of its results. */
const RESULT_HEAD_BYTES = 64 * 1024;
const RESULT_ID = /"tool_use_id"\s*:\s*"([^"\\]{1,200})"/g;

const ASSISTANT_LINE = /"type"\s*:\s*"assistant"|"role"\s*:\s*"assistant"/;

/** The first 64 KB of a transcript line (empty when it cannot be read). */
function lineHead(file: string, line: RawLine): string {
  try {
    return readRange(file, line.start, Math.min(line.end, line.start + RESULT_HEAD_BYTES));
  } catch {
    return '';
  }
}

/** Folders below `subagents/` searched for transcripts (workflows put theirs two down). */
const SUBAGENT_DEPTH = 4;

/**
 * The subagent transcripts next to a session's transcript, each with the name of its cursor file:
 * `<dir>/<sid>/subagents/agent-*.jsonl` (Claude Code 2.x), and the agents a workflow runs, in
 * `subagents/workflows/<run>/agent-*.jsonl` beside the run's `journal.jsonl` (no transcript).
 * Sorted by their path below `subagents/`.
 */
export function subagentTranscripts(transcriptPath: string, sessionId: string): Array<{ file: string; cursorName: string }> {
  const root = join(dirname(transcriptPath), sessionId, 'subagents');
  let files: string[];
  try {
    files = listFiles(root); // by directory entry: no stat per file on a Stop
  } catch {
    return []; // a folder that cannot be read: its transcripts wait for a later pass
  }
  return files
    .map((rel) => rel.replace(/\\/g, '/'))
    .filter((rel) => {
      const parts = rel.split('/');
      return rel.endsWith('.jsonl') && parts.at(-1) !== 'journal.jsonl' && parts.length - 1 <= SUBAGENT_DEPTH;
    })
    .sort()
    .map((rel) => ({ file: join(root, rel), cursorName: subagentCursorName(rel) }));
}

/**
 * `cursor-agent-<id>.json` for `subagents/agent-<id>.jsonl` (the name it always had); a deeper one
 * also names its folders, and a hash of its path keeps `a/b.jsonl` apart from `a-b.jsonl`.
 */
function subagentCursorName(rel: string): string {
  const name = rel.slice(0, -'.jsonl'.length);
  if (!name.includes('/')) return `cursor-${name}.json`;
  return `cursor-${name.replace(/\//g, '-')}-${chunkHash(rel).slice(0, 8)}.json`;
}

/**
 * Bring the session's cursor and L2 up to the transcript's end, subagent transcripts included
 * (archived under the parent session). Returns the main transcript's advance, with `archived`
 * counting the chunks of the subagent transcripts too.
 */
export async function catchUpSession(
  env: SessionEnv,
  sessionId: string,
  transcriptPath: string,
  options?: Pick<AdvanceOptions, 'phase' | 'onChunk' | 'beforeSave'>,
): Promise<SessionAdvance | undefined> {
  const main = await advanceSessionCursor(env, sessionId, transcriptPath, options);
  for (const agent of subagentTranscripts(transcriptPath, sessionId)) {
    const sub = await advanceSessionCursor(env, sessionId, agent.file, { ...options, cursorName: agent.cursorName });
    if (main !== undefined && sub !== undefined) {
      main.archived.added += sub.archived.added;
      main.archived.updated += sub.archived.updated;
      main.archived.unchanged += sub.archived.unchanged;
    }
  }
  return main;
}

/**
 * Archive a session's transcripts again from their first line without moving its cursors (a live
 * session's hooks go on from where they were): `ctxl reindex` does it for a session with damaged
 * chunk files. A damaged file is written afresh, the others are found as they are. The passes use
 * cursors of their own, removed after. Returns what the passes wrote.
 */
export async function rearchiveSession(env: SessionEnv, sessionId: string, transcriptPath: string, onChunk?: (chunk: Chunk) => void): Promise<WriteResult> {
  const passes = [
    { file: transcriptPath, cursorName: 'restore-cursor.json' },
    ...subagentTranscripts(transcriptPath, sessionId).map((a) => ({ file: a.file, cursorName: `restore-${a.cursorName}` })),
  ];
  const total: WriteResult = { added: 0, updated: 0, unchanged: 0 };
  for (const pass of passes) {
    const file = cursorFile(env.store, sessionId, pass.cursorName);
    removePath(file); // one a killed restore left: from the first line again
    try {
      const r = await advanceSessionCursor(
        env,
        sessionId,
        pass.file,
        onChunk === undefined ? { cursorName: pass.cursorName } : { cursorName: pass.cursorName, onChunk },
      );
      if (r === undefined) continue;
      total.added += r.archived.added;
      total.updated += r.archived.updated;
      total.unchanged += r.archived.unchanged;
    } finally {
      removePath(file);
    }
  }
  return total;
}
