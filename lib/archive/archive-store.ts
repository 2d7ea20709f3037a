// L2 on disk: <data>/sessions/<sid>/archived/<id>.md, one file per chunk, plus catalog.jsonl, an
// append-only list of the chunks written (the index reads it to learn what is new without listing
// the folder). Writing a chunk that exists is a no-op, except that a tool chunk first written by
// PostToolUse (no transcript uuids yet) gains the uuids when the transcript entry is archived.
import { join } from 'node:path';
import { sanitizeName } from '../runtime/paths.ts';
import type { Store } from '../runtime/store.ts';
import { ensureDir, listDir, pathExists, readTextFile, removePath, removeStaleTemps, STALE_TEMP_MS, statSafe, writeFileAtomic } from '../runtime/store.ts';
import { type Chunk, parseChunk, renderChunk } from './chunk-file.ts';
import { toolPartId, UNNAMED_TOOL } from './chunker.ts';

export const CATALOG_VERSION = 1;

export interface CatalogLine {
  v: typeof CATALOG_VERSION;
  id: string;
}

export const archiveDir = (store: Store, sessionId: string) => store.path('sessions', sessionId, 'archived');
export const catalogFile = (store: Store, sessionId: string) => store.path('sessions', sessionId, 'catalog.jsonl');
export const chunkPath = (store: Store, sessionId: string, id: string) => join(archiveDir(store, sessionId), `${id}.md`);

export interface WriteResult {
  added: number;
  updated: number;
  unchanged: number;
}

/** Receives each chunk as written (the CLI hands them to the index instead of reading them back). */
export type ChunkSink = (sessionId: string, chunk: Chunk) => void;

/** Writes new chunk files off the main thread (`ctxl ingest`); `pending` holds those not yet on disk. */
export interface ChunkWriter {
  readonly pending: ReadonlyMap<string, Chunk>;
  write(file: string, text: string, chunk: Chunk): void;
  /** Whether a chunk file exists (from one listing per folder: no stat per chunk). */
  exists(file: string): boolean;
  /** Forget the listings: a pass that takes the session's lock lists again what others wrote meanwhile. */
  forget(): void;
}

export interface WriteOptions {
  /** Lets a tool chunk merged into an existing multi-part one carry its uuids to every part. */
  hash?: (identity: string) => string;
  sink?: ChunkSink | undefined;
  writer?: ChunkWriter | undefined;
  /** A chunk whose text changed replaces the stored one (a ledger, rewritten as its phase goes on). */
  replace?: boolean;
  /**
   * These tool chunks hold the output as the tool produced it (PostToolUse, a job), not as the
   * transcript shows it (a stub, a 2 KB preview): their text replaces a transcript-derived one.
   */
  fullOutput?: boolean;
  /**
   * A new later part takes part 1's uuids, phase and subagent mark (a job, which may run after the
   * transcript pass archived the preview as part 1; not PostToolUse, which wrote part 1 itself).
   */
  fromFirstPart?: boolean;
  /**
   * A tool chunk stored without its call's name (UNNAMED_TOOL: its result was archived before the
   * call was read) is written again with the call; a named one is kept (it may hold more).
   */
  nameCall?: boolean;
}

/**
 * Write chunks of one session. `hash` lets a tool chunk that is merged into an existing multi-part
 * one (PostToolUse archived the full output, the transcript holds a stub) carry its uuids to every part.
 */
export function writeChunks(store: Store, sessionId: string, chunks: readonly Chunk[], options: WriteOptions = {}): WriteResult {
  const { hash, sink, writer, replace, fullOutput, fromFirstPart, nameCall } = options;
  const result: WriteResult = { added: 0, updated: 0, unchanged: 0 };
  if (chunks.length === 0) return result;
  const dir = archiveDir(store, sessionId);
  const writes: Array<{ id: string; file: string; text: string; chunk: Chunk; fresh: boolean }> = [];
  // A chunk met twice in one call (a transcript holding the same lines twice) is written once: the
  // later write of an id replaces the earlier, and stays new if that one was.
  const at = new Map<string, number>();
  const write = (id: string, file: string, chunk: Chunk, fresh = false) => {
    const i = at.get(id);
    const w = { id, file, text: renderChunk(chunk), chunk, fresh: fresh || (i !== undefined && writes[i]?.fresh === true) };
    if (i === undefined) {
      at.set(id, writes.length);
      writes.push(w);
    } else writes[i] = w;
  };
  const firstParts = new Map<string, Chunk | undefined>(); // part 1 of a full output, read once per call
  /** A chunk this call writes already. */
  const inBatch = (id: string): Chunk | undefined => {
    const i = at.get(id);
    return i === undefined ? undefined : writes[i]?.chunk;
  };
  /** Part k of a split tool output when its part 1, archived already, was split in fewer than k. */
  const beyondFirstPart = (chunk: Chunk): boolean => {
    const first = firstPartOf(store, sessionId, chunk, hash, inBatch, firstParts, writer);
    return first !== undefined && chunk.part !== undefined && (first.part?.[1] ?? 1) < chunk.part[0];
  };
  for (const chunk of chunks) {
    const file = join(dir, `${chunk.id}.md`);
    // Most chunks are new: an existence check costs less than a failed read (an exception each).
    const i = at.get(chunk.id);
    const queued = i !== undefined ? writes[i]?.chunk : writer?.pending.get(file);
    const existing = queued !== undefined || !(writer?.exists(file) ?? pathExists(file)) ? undefined : readTextFile(file);
    const parsed = queued !== undefined ? { ok: true as const, chunk: queued } : existing === undefined ? undefined : parseChunk(existing);
    if (parsed?.ok !== true) {
      // A later part of an output another writer archived in fewer parts (PostToolUse from the
      // tool's own text, the transcript in Read's numbered lines, which run longer): that copy
      // holds its text already; added, it would hold the end of the output twice.
      if (fullOutput !== true && beyondFirstPart(chunk)) {
        result.unchanged += 1;
        continue;
      }
      // New, or corrupt (replaced by the fresh one).
      // A later part of a full output takes what the transcript side knew of its first part (see firstPartOf).
      const first = fromFirstPart === true ? firstPartOf(store, sessionId, chunk, hash, inBatch, firstParts) : undefined;
      write(chunk.id, file, first === undefined || first.sourceUuids.length === 0 ? chunk : keepingTranscriptSide(chunk, first), true);
      result.added += 1;
      continue;
    }
    const old = parsed.chunk;
    if (replace === true && chunk.text !== old.text) {
      write(chunk.id, file, chunk);
      result.updated += 1;
      continue;
    }
    // nameCall: the new chunk's uuids are the call's and the result's, in transcript order; an older
    // chunk holds the result's only. Merged the other way round, the call's would come last.
    const merge = (a: readonly string[], b: readonly string[]) => (nameCall === true ? [...b, ...a.filter((u) => !b.includes(u))] : mergeUuids(a, b));
    if (
      nameCall === true &&
      old.type === 'tool' &&
      old.tool === UNNAMED_TOOL &&
      chunk.tool !== UNNAMED_TOOL &&
      (old.part?.[1] ?? 1) <= (chunk.part?.[1] ?? 1)
    ) {
      // The call's own chunk for a result archived before its call was known (a transcript line too
      // long for the pass opened it): written again, with the call. One that holds more parts than
      // this copy (a persisted output a job archived whole) or a named one (PostToolUse's full
      // output) is kept, and takes the uuids below.
      write(chunk.id, file, { ...chunk, phase: old.phase === 'unknown' ? chunk.phase : old.phase, sourceUuids: merge(old.sourceUuids, chunk.sourceUuids) });
      result.updated += 1;
      continue;
    }
    if (chunk.type === 'tool' && fullOutput === true && chunk.text !== old.text) {
      // Two writers of one tool call: the transcript's stub or 2 KB preview may land before the full
      // output (a background job). The full output wins, whatever the lengths (a stub's first piece
      // can be longer than the output's first part); the uuids of both are kept. The reverse never
      // happens: a transcript-derived chunk only adds its uuids (below).
      write(chunk.id, file, keepingTranscriptSide(chunk, old));
      result.updated += 1;
      continue;
    }
    if (chunk.sourceUuids.every((u) => old.sourceUuids.includes(u))) {
      result.unchanged += 1;
      continue;
    }
    // Keep the archived text (PostToolUse saw the full output; the transcript may hold a stub), add
    // the transcript's uuids, to every part of a split output.
    // PostToolUse archives before the phase of the call is known: the transcript pass brings it.
    const phase = old.phase === 'unknown' ? chunk.phase : old.phase;
    // A chunk a hook wrote (no uuids yet) takes the entry's own time and subagent mark, as an ingest
    // of the transcript would give it: the hook knew only the time it ran.
    const entry = (c: Chunk): Chunk => (c.sourceUuids.length > 0 ? c : withEntryTime(c, chunk));
    // The other parts first, the first part last: a run killed in between finds the first part
    // without the uuids and does it all again (the first part written first, the run that found
    // it holding them never gave them to the parts after it).
    if (hash !== undefined && old.part !== undefined && old.toolUseId !== undefined && old.part[0] === 1) {
      for (let k = 1; k < old.part[1]; k++) {
        const id = toolPartId(hash, sessionId, old.toolUseId, k);
        const sibling = readChunk(store, sessionId, id);
        if (sibling?.ok === true && !chunk.sourceUuids.every((u) => sibling.chunk.sourceUuids.includes(u))) {
          write(id, join(dir, `${id}.md`), {
            ...entry(sibling.chunk),
            phase: sibling.chunk.phase === 'unknown' ? phase : sibling.chunk.phase,
            sourceUuids: merge(sibling.chunk.sourceUuids, chunk.sourceUuids),
          });
        }
      }
    }
    write(chunk.id, file, { ...entry(old), phase, sourceUuids: merge(old.sourceUuids, chunk.sourceUuids) });
    result.updated += 1;
  }
  if (writes.length === 0) return result;
  // A new chunk is listed first, then written: a crash in between leaves an id whose file is missing
  // (the index waits for it, then skips it), never a file the index cannot learn of. A changed chunk
  // is written first, then listed again: listed first, a search in between would index its old text
  // and never look again. The index replaces what it stored (text, uuids) when it reads the line.
  const line = ({ id }: { id: string }) => ({ v: CATALOG_VERSION, id }) satisfies CatalogLine;
  const fresh = writes.filter((w) => w.fresh);
  const changed = writes.filter((w) => !w.fresh);
  store.appendLines(catalogFile(store, sessionId), fresh.map(line));
  ensureDirOnce(dir);
  for (const w of fresh) {
    if (writer === undefined) writeFileAtomic(w.file, w.text);
    else writer.write(w.file, w.text, w.chunk);
    sink?.(sessionId, w.chunk);
  }
  // A changed chunk is written here, whatever the writer: its catalog line must follow its file.
  for (const w of changed) {
    writeFileAtomic(w.file, w.text);
    sink?.(sessionId, w.chunk);
  }
  store.appendLines(catalogFile(store, sessionId), changed.map(line));
  return result;
}

/**
 * Part 1 of a later part of a split tool output: from this call's writes, the writer's queue, or
 * disk (read once per call, into `read`); undefined for part 1 itself or a chunk of no split output.
 * A later part of a full output, new on disk, takes the uuids, phase and subagent mark of its first
 * part when the transcript pass has already archived that one (the preview it saw became part 1):
 * without them the parts written after it would carry none, as the transcript pass copies uuids
 * only to parts it finds.
 */
function firstPartOf(
  store: Store,
  sessionId: string,
  chunk: Chunk,
  hash: ((identity: string) => string) | undefined,
  inBatch: (id: string) => Chunk | undefined,
  read: Map<string, Chunk | undefined>,
  writer?: ChunkWriter,
): Chunk | undefined {
  if (chunk.type !== 'tool' || hash === undefined || chunk.toolUseId === undefined || chunk.part === undefined || chunk.part[0] === 1) return undefined;
  const firstId = toolPartId(hash, sessionId, chunk.toolUseId, 0);
  const first = inBatch(firstId) ?? writer?.pending.get(join(archiveDir(store, sessionId), `${firstId}.md`));
  if (first !== undefined) return first;
  if (!read.has(firstId)) {
    const found = readChunk(store, sessionId, firstId);
    read.set(firstId, found?.ok === true ? found.chunk : undefined);
  }
  return read.get(firstId);
}

/**
 * A full-output chunk (its text) with what the transcript side of the same call knew: its uuids
 * (first: they are in transcript order), its phase when the writer had none, its subagent mark.
 */
function keepingTranscriptSide(chunk: Chunk, known: Chunk): Chunk {
  const merged: Chunk = {
    ...chunk,
    phase: chunk.phase === 'unknown' ? known.phase : chunk.phase,
    sourceUuids: mergeUuids(known.sourceUuids, chunk.sourceUuids),
  };
  // The transcript side (it has uuids) knows the entry's time and subagent mark; a hook or a job
  // knew only its own clock (a job may run days later, at a SessionStart).
  return known.sourceUuids.length > 0 ? withEntryTime(merged, known) : merged;
}

/** A chunk a hook or job wrote, with the time and subagent mark of the transcript entry it came from. */
function withEntryTime(written: Chunk, entry: Chunk): Chunk {
  const { sidechain: _, ...rest } = written;
  return { ...rest, timestamp: entry.timestamp, ...(entry.sidechain === true ? { sidechain: true } : {}) };
}

/** uuids in transcript order: a tool_use's uuid comes before its tool_result's. */
function mergeUuids(a: readonly string[], b: readonly string[]): string[] {
  const out = [...a];
  for (const u of b) if (!out.includes(u)) out.push(u);
  // A chunk first written from PostToolUse has none; then b is already in transcript order.
  return a.length === 0 ? [...b] : out;
}

const madeDirs = new Set<string>();
function ensureDirOnce(dir: string): void {
  if (madeDirs.has(dir)) return;
  ensureDir(dir);
  madeDirs.add(dir);
}

export function readChunk(store: Store, sessionId: string, id: string): ReturnType<typeof parseChunk> | undefined {
  const text = readTextFile(chunkPath(store, sessionId, id));
  return text === undefined ? undefined : parseChunk(text);
}

/** Temporary files older than this in a chunk folder are a killed writer's: no write takes so long. */
export const TEMP_LEFTOVER_MS = STALE_TEMP_MS;

/**
 * The temporary files a writer killed between its write and its rename left in a chunk folder
 * (`<id>.md.<pid>.….tmp`), older than TEMP_LEFTOVER_MS: recent ones may be a live writer's.
 */
export function tempLeftovers(dir: string, now: number): string[] {
  return listDir(dir)
    .filter((name) => name.endsWith('.tmp'))
    .map((name) => join(dir, name))
    .filter((file) => {
      const stat = statSafe(file);
      return stat?.isFile() === true && now - stat.mtimeMs > TEMP_LEFTOVER_MS;
    });
}

/** Remove a session's temp leftovers (see tempLeftovers), and its state files' and ledgers'; returns how many. */
export function removeTempLeftovers(store: Store, sessionId: string, now: number): number {
  let removed = 0;
  for (const file of tempLeftovers(archiveDir(store, sessionId), now)) {
    try {
      removePath(file);
      removed += 1;
    } catch {}
  }
  // cursor.json, phase.json, steering.json… and the ledgers: written the same way.
  removed += removeStaleTemps(store.path('sessions', sessionId), now);
  removed += removeStaleTemps(store.path('sessions', sessionId, 'ledgers'), now);
  return removed;
}

/** The chunk id a catalog line (bytes `start` to `end`) names, if it is readable and a safe name. */
export function catalogLineId(bytes: Buffer, start: number, end: number): string | undefined {
  try {
    const value = (JSON.parse(bytes.toString('utf8', start, end)) as { id?: unknown }).id;
    if (typeof value === 'string' && sanitizeName(value) === value) return value;
  } catch {}
  return undefined;
}

export function listChunkIds(store: Store, sessionId: string): string[] {
  return listDir(archiveDir(store, sessionId))
    .filter((f) => f.endsWith('.md'))
    .map((f) => f.slice(0, -3));
}
