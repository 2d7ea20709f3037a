// The search index's write side. Hooks never touch the index: they append chunk files and catalog
// lines. Whoever searches first brings it up to date under the index lock: the new catalog lines of
// every session become a new segment; small segments are merged as they pile up (each doc is
// rewritten O(log n) times); a chunk listed again (its text or uuids changed) hides its older copy.
// Everything can be rebuilt from the chunk files (`ctxl reindex`).
import { join } from 'node:path';
import { archiveDir, catalogFile, catalogLineId, listChunkIds, readChunk } from '../archive/archive-store.ts';
import type { Chunk } from '../archive/chunk-file.ts';
import { touchLock } from '../runtime/lock.ts';
import type { Logger } from '../runtime/log.ts';
import { sanitizeName } from '../runtime/paths.ts';
import { ensureDir, listDir, openRangeReader, removePath, type Store, statSafe, writeFileAtomic } from '../runtime/store.ts';
import { concatPostings, SegmentBuilder } from './builder.ts';
import { emptyManifest, indexDir, type LiveSegment, type Manifest, manifestFile, openSegment, readManifest, saveManifest } from './manifest.ts';
import {
  decodePostings,
  encodeBucket,
  encodeSegment,
  IndexCorruptError,
  type IndexedDoc,
  type Postings,
  SEGMENT_VERSION,
  type SegmentReader,
} from './segment.ts';

/** Chunks per new segment: bounds the memory of a catch-up and saves progress as it goes. */
const BATCH_DOCS = 4_000;
/** A catalog line whose chunk file is missing this close to the end is being written now: wait for it. */
const CATALOG_GRACE_BYTES = 256 * 1024;
/** How long a listed chunk may lack its file before its line is skipped (longer than any hook's deadline). */
const STALL_MS = 60_000;
const CHUNK_ID = /^[0-9a-f]{16}$/;
/** Merge the newest two segments while the older is at most this many times the newer. */
const MERGE_RATIO = 2;
/**
 * Under a deadline (a hook), a segment of an older format is rewritten only up to this size, one per
 * refresh: a rewrite costs ~0.1 ms a doc, and every segment of an index kept by hooks alone is old
 * after an update (a /recall that rewrote 100,000 docs took 9 s). Bigger ones are read as they are
 * until the CLI (no deadline) rewrites them.
 */
const UPGRADE_UNDER_DEADLINE_DOCS = 4_000;

export interface RefreshOptions {
  /** Epoch ms after which no new batch starts (a hook's deadline); what was done is kept. */
  deadline?: number;
  /** Segments bigger than this together are not merged now (a hook leaves big merges to the CLI). */
  maxMergeDocs?: number;
  /** Drop the index and rebuild it from the chunk files (all sessions). */
  rebuild?: boolean;
  /** How long to wait for another process's refresh. */
  waitMs?: number;
  /** Chunks this process just wrote, by id: used instead of reading their files back. */
  known?: ReadonlyMap<string, Chunk>;
  /** Lays out the segment of these chunks elsewhere (a worker that counted them), or says it cannot. */
  prebuilt?: ((chunks: readonly Chunk[]) => Uint8Array | undefined) | undefined;
  /** Segments a reader could not decode: rebuild, unless the manifest no longer names them. */
  repair?: readonly string[];
  /** Told of each chunk file that is damaged (skipped): `ctxl reindex` restores it from its transcript. */
  onBad?: (sessionId: string, id: string) => void;
}

/** Where addChunk takes a chunk from besides its file, and whom it tells of a damaged one. */
type ChunkReads = Pick<RefreshOptions, 'known' | 'onBad'>;

export interface RefreshResult {
  /** Chunks indexed by this call. */
  indexed: number;
  /** False when the deadline stopped it or the lock stayed busy. */
  complete: boolean;
}

/** Sessions whose catalog differs from what the manifest indexed (or that are gone). */
function staleSessions(store: Store, m: Manifest): { grown: string[]; reset: string[]; gone: string[]; present: string[] } {
  const grown: string[] = [];
  const reset: string[] = [];
  const gone: string[] = [];
  const present = new Set<string>();
  for (const id of listDir(store.path('sessions'))) {
    if (sanitizeName(id) !== id) continue;
    present.add(id);
    const size = statSafe(catalogFile(store, id))?.size ?? 0;
    const done = m.catalogs[id] ?? 0;
    // Grown from a line start, as appends are; grown past a cut (truncated, then appended to) is
    // read again from the start: read on from `done`, it would begin inside a line.
    if (size > done) (done === 0 || endsLine(catalogFile(store, id), done) ? grown : reset).push(id);
    else if (size < done) reset.push(id);
    // Chunk files and no catalog, never read (a rebuild a deadline stopped before it): read its folder.
    else if (size === 0 && m.catalogs[id] === undefined && statSafe(archiveDir(store, id))?.isDirectory() === true) reset.push(id);
  }
  for (const id of Object.keys(m.catalogs)) if (!present.has(id)) gone.push(id);
  return { grown, reset, gone, present: [...present] };
}

/** Sessions by when their catalog (or, lost, their chunk folder) was last written, newest first (then by id). */
function newestFirst(store: Store, ids: readonly string[]): string[] {
  const written = new Map(ids.map((id) => [id, statSafe(catalogFile(store, id))?.mtimeMs ?? statSafe(archiveDir(store, id))?.mtimeMs ?? 0]));
  return [...ids].sort((a, b) => (written.get(b) as number) - (written.get(a) as number) || (a < b ? -1 : a > b ? 1 : 0));
}

/** Whether the byte before `offset` is a newline. */
function endsLine(file: string, offset: number): boolean {
  const source = openRangeReader(file);
  if (source === undefined) return false;
  try {
    return source.read(offset - 1, 1)[0] === 10;
  } finally {
    source.close();
  }
}

/** Every segment the manifest names is there (a deleted one must trigger a rebuild, not go unnoticed). */
function segmentsPresent(store: Store, m: Manifest): boolean {
  return m.segments.every(({ name }) => statSafe(join(indexDir(store), name))?.isFile() === true);
}

/** Bring the index up to date with every session's catalog. Cheap when nothing changed (no lock). */
export async function refreshIndex(store: Store, log: Logger, options: RefreshOptions = {}): Promise<RefreshResult> {
  if (options.rebuild !== true && (options.repair ?? []).length === 0) {
    const m = readManifest(store, log, false);
    if (m !== undefined) {
      const { grown, reset, gone } = staleSessions(store, m);
      if (grown.length === 0 && reset.length === 0 && gone.length === 0 && segmentsPresent(store, m)) return { indexed: 0, complete: true };
    }
  }
  ensureDir(indexDir(store));
  const result = await store.withLock(
    manifestFile(store),
    () => {
      try {
        return refreshLocked(store, log, options);
      } catch (error) {
        // A segment that opened but does not decode (met while merging): rebuild, once.
        if (!(error instanceof IndexCorruptError) || options.rebuild === true) throw error;
        log.warn(`search index damaged (${error.message}); rebuilding it from the chunk files`);
        return refreshLocked(store, log, { ...options, rebuild: true });
      }
    },
    { waitMs: options.waitMs ?? 5_000 },
  );
  return result ?? { indexed: 0, complete: false };
}

function refreshLocked(store: Store, log: Logger, options: RefreshOptions): RefreshResult {
  const dir = indexDir(store);
  let m = readManifest(store, log);
  // A repair asked for by a reader is needed only if the manifest still names what it could not read.
  let fresh = m === undefined || options.rebuild === true || (options.repair ?? []).some((name) => m?.segments.some((s) => s.name === name));
  const readers = new Map<string, SegmentReader>();
  if (!fresh && m !== undefined) {
    for (const { name } of m.segments) {
      try {
        const reader = openSegment(store, name);
        if (reader === undefined) throw new Error('missing');
        readers.set(name, reader);
      } catch (error) {
        log.warn(`index segment ${name}: ${(error as Error).message}; rebuilding the index`);
        fresh = true;
        break;
      }
    }
  }
  if (fresh) {
    for (const r of readers.values()) r.close();
    readers.clear();
    // Numbers go on from the files there: a reader holding the old manifest must not open a new
    // segment under an old name. The empty manifest is saved before the old segments go, so a
    // reader sees a smaller index while the rebuild runs, never a manifest naming deleted files.
    const last = Math.max(m?.next ?? 1, ...listDir(dir).map((n) => Number(/^seg-(\d+)\.bin$/.exec(n)?.[1] ?? 0) + 1));
    m = { ...emptyManifest(), next: last };
    saveManifest(store, m);
    // Leftovers of the per-session indexes of earlier versions.
    for (const id of listDir(store.path('sessions'))) removePath(join(store.path('sessions', id), 'index.json'));
  }
  const manifest = m ?? emptyManifest();
  const listed = new Set(manifest.segments.map((s) => s.name));
  // Under the lock no other writer exists: any file the manifest does not name is a leftover.
  for (const name of listDir(dir)) if (name !== 'manifest.json' && !name.endsWith('.lock') && !listed.has(name)) removePath(join(dir, name));

  try {
    const { grown, reset, gone, present } = staleSessions(store, manifest);
    if (reset.length > 0 || gone.length > 0) {
      hideSessions(manifest, readers, new Set([...reset, ...gone]));
      for (const id of [...reset, ...gone]) {
        delete manifest.catalogs[id];
        delete manifest.stalled?.[id];
        delete manifest.ahead?.[id];
      }
      saveManifest(store, manifest);
    }
    // A rebuild reads every session, also one whose catalog was lost (its files are listed). Under
    // a deadline, the most recently written first: a rebuild a hook's deadline stops (after an
    // update changed the tokenizer, or a damaged index) has the sessions a /recall most likely asks
    // about. Without one (the CLI), in name order, the same on every run.
    const sessions = fresh ? present : [...grown, ...reset];
    return addNew(store, log, manifest, readers, options.deadline === undefined ? sessions : newestFirst(store, sessions), options);
  } finally {
    for (const r of readers.values()) r.close();
  }
}

/** Hide every doc of these sessions (their catalog shrank or the session is gone). */
function hideSessions(m: Manifest, readers: Map<string, SegmentReader>, sessions: ReadonlySet<string>): void {
  for (const { name } of m.segments) {
    const reader = readers.get(name);
    if (reader === undefined) continue;
    const ords = new Set(reader.footer.sessions.flatMap((s, i) => (sessions.has(s) ? [i] : [])));
    if (ords.size === 0) continue;
    const hidden = new Set(m.deleted[name] ?? []);
    const column = reader.session();
    for (let d = 0; d < column.length; d++) if (ords.has(column[d] as number)) hidden.add(d);
    m.deleted[name] = [...hidden].sort((a, b) => a - b);
  }
}

function addNew(
  store: Store,
  log: Logger,
  m: Manifest,
  readers: Map<string, SegmentReader>,
  sessions: readonly string[],
  options: RefreshOptions,
): RefreshResult {
  const pending = new Map<string, Chunk>();
  const offsets: Record<string, number> = {};
  let indexed = 0;
  // Old-format rewrites this refresh may still do (flush runs after every batch).
  const upgrades = { left: options.deadline === undefined ? Number.POSITIVE_INFINITY : 1 };
  const flush = () => {
    if (pending.size > 0) {
      indexed += pending.size;
      writeSegment(store, m, readers, [...pending.values()], options.prebuilt);
      pending.clear();
    }
    Object.assign(m.catalogs, offsets);
    saveManifest(store, m);
    touchLock(manifestFile(store)); // a long rebuild stays a live lock
    // After every batch, so a rebuild rewrites each doc O(log n) times, not once per batch.
    mergeSmall(store, log, m, readers, { maxDocs: options.maxMergeDocs ?? Number.POSITIVE_INFINITY, deadline: options.deadline, upgrades });
  };
  const late = () => options.deadline !== undefined && Date.now() > options.deadline;
  let stopped = false;
  for (const sessionId of sessions) {
    if (late()) {
      stopped = true;
      break;
    }
    const size = statSafe(catalogFile(store, sessionId))?.size ?? 0;
    const from = m.catalogs[sessionId] ?? 0;
    const listed = new Set<string>();
    const read = readCatalog(store, log, m, sessionId, from, size, pending, listed, options, (offset) => {
      // A batch is full (or time is up) in the middle of a session: save what is done so far.
      offsets[sessionId] = offset;
      flush();
      return late();
    });
    offsets[sessionId] = read.offset;
    if (read.stopped) {
      stopped = true;
      break;
    }
    if (from === 0) {
      // Read from the start (new, reset or rebuilt): chunk files the catalog does not list count too
      // (a catalog lost or cut short). Not `pending`: a full batch was written and cleared since.
      // A writer lists a new chunk before writing its file, so each file found has its line by now.
      // Lines appended since the read began (another process is archiving this session) are left
      // to the next refresh. Lines the read stopped before (a stalled line: a file not written
      // yet, or never) are indexed now when their file is there, and noted, so that the read that
      // gets past the stall skips them; either way read twice, a chunk was indexed twice (the
      // older copy hidden, but counted in every score).
      const files = listChunkIds(store, sessionId);
      const appended = catalogIds(store, sessionId, size);
      const behind = read.offset < size ? catalogIds(store, sessionId, read.offset, size) : undefined;
      const ahead: string[] = [];
      for (const id of files) {
        if (listed.has(id) || appended.has(id)) continue;
        if (addChunk(store, log, sessionId, id, pending, options) === 'ok' && behind?.has(id) === true) ahead.push(id);
      }
      if (ahead.length > 0) m.ahead = { ...m.ahead, [sessionId]: { until: size, ids: ahead } };
    }
    if (pending.size >= BATCH_DOCS) flush();
  }
  flush();
  return { indexed, complete: !stopped };
}

function addChunk(store: Store, log: Logger, sessionId: string, id: string, pending: Map<string, Chunk>, reads: ChunkReads): 'ok' | 'missing' | 'bad' {
  if (!CHUNK_ID.test(id)) {
    log.warn(`chunk ${sessionId}/${id}: not a chunk id (16 hex characters); skipped`);
    return 'bad';
  }
  const mine = reads.known?.get(id);
  if (mine !== undefined && mine.session === sessionId) {
    pending.delete(id);
    pending.set(id, mine);
    return 'ok';
  }
  const read = readChunk(store, sessionId, id);
  if (read === undefined) return 'missing';
  if (read.ok && read.chunk.id !== id) {
    log.warn(`chunk ${sessionId}/${id}: its frontmatter names ${JSON.stringify(read.chunk.id)}; skipped`);
    return 'bad';
  }
  if (!read.ok) {
    log.warn(`chunk ${sessionId}/${id}: ${read.reason}; skipped (ctxl reindex restores it from its transcript)`);
    reads.onBad?.(sessionId, id);
    return 'bad';
  }
  pending.delete(id); // listed again: the newest copy, in its new place
  pending.set(id, read.chunk);
  return 'ok';
}

/**
 * Read the catalog lines from byte `from` and add their chunks. Writers list a chunk just before
 * writing its file, so a missing file is usually one being written now: stop there and read it next
 * time. A line whose file is still missing a minute later (its writer died) is skipped with a log
 * line. `batch` runs when the pending chunks fill a batch; it returns true to stop (deadline).
 */
function readCatalog(
  store: Store,
  log: Logger,
  m: Manifest,
  sessionId: string,
  from: number,
  size: number,
  pending: Map<string, Chunk>,
  listed: Set<string>,
  reads: ChunkReads,
  batch: (offset: number) => boolean,
): { offset: number; stopped: boolean } {
  const source = openRangeReader(catalogFile(store, sessionId));
  if (source === undefined) return { offset: from, stopped: false };
  let bytes: Buffer;
  try {
    bytes = source.read(from, Math.min(size, source.size) - from);
  } finally {
    source.close();
  }
  let at = 0;
  let unreadable = 0;
  // Chunks a first read indexed from the folder, ahead of a stalled line: not again.
  const ahead = m.ahead?.[sessionId];
  const aheadIds = ahead === undefined ? undefined : new Set(ahead.ids);
  try {
    for (;;) {
      const nl = bytes.indexOf(10, at);
      if (nl === -1) break; // the tail after the last newline: a line being appended
      const id = catalogLineId(bytes, at, nl);
      if (id !== undefined) listed.add(id);
      else if (nl > at) unreadable += 1;
      const indexed = id !== undefined && ahead !== undefined && from + at < ahead.until && aheadIds?.has(id) === true;
      if (id !== undefined && !indexed && addChunk(store, log, sessionId, id, pending, reads) === 'missing') {
        const stall = m.stalled?.[sessionId];
        const now = Date.now();
        const farBehind = bytes.length - at >= CATALOG_GRACE_BYTES; // a crash leftover, certainly
        if (stall?.offset !== from + at && !farBehind) {
          m.stalled = { ...m.stalled, [sessionId]: { offset: from + at, since: now } };
          return { offset: from + at, stopped: false };
        }
        if (!farBehind && now - (stall?.since ?? now) < STALL_MS) return { offset: from + at, stopped: false };
        log.warn(`chunk ${sessionId}/${id}: listed in the catalog but its file was never written; skipped`);
      }
      if (m.stalled?.[sessionId] !== undefined) delete m.stalled[sessionId];
      at = nl + 1;
      if (pending.size >= BATCH_DOCS && batch(from + at)) return { offset: from + at, stopped: true };
    }
    if (ahead !== undefined && from + at >= ahead.until) delete m.ahead?.[sessionId];
    return { offset: from + at, stopped: false };
  } finally {
    // Said once per read. A torn line (a writer killed mid-append) loses no other chunk: appends
    // start a new line, and `ctxl reindex` also lists the session's folder.
    if (unreadable > 0) log.warn(`catalog of session ${sessionId}: ${unreadable} unreadable line(s) skipped; ctxl reindex lists the chunk files`);
  }
}

/** The chunk ids of a session's catalog lines from byte `from` to `to` (default its end; complete lines only). */
function catalogIds(store: Store, sessionId: string, from: number, to?: number): Set<string> {
  const ids = new Set<string>();
  const source = openRangeReader(catalogFile(store, sessionId));
  const end = Math.min(to ?? Number.POSITIVE_INFINITY, source?.size ?? 0);
  if (source === undefined || end <= from) {
    source?.close();
    return ids;
  }
  let bytes: Buffer;
  try {
    bytes = source.read(from, end - from);
  } finally {
    source.close();
  }
  for (let at = 0, nl = bytes.indexOf(10); nl !== -1; at = nl + 1, nl = bytes.indexOf(10, at)) {
    const id = catalogLineId(bytes, at, nl);
    if (id !== undefined) ids.add(id);
  }
  return ids;
}

/** Write the chunks as a new segment and hide their older copies. */
function writeSegment(
  store: Store,
  m: Manifest,
  readers: Map<string, SegmentReader>,
  chunks: readonly Chunk[],
  prebuilt?: (chunks: readonly Chunk[]) => Uint8Array | undefined,
): void {
  let bytes = prebuilt?.(chunks);
  if (bytes === undefined) {
    const builder = new SegmentBuilder();
    for (const chunk of chunks) builder.add(chunk);
    bytes = builder.encode();
  }
  const ids = chunks.map((c) => c.id);
  for (const { name } of m.segments) {
    const reader = readers.get(name);
    if (reader === undefined) continue;
    const hidden = new Set(m.deleted[name] ?? []);
    const before = hidden.size;
    for (const id of ids) {
      const doc = reader.findId(id);
      if (doc >= 0) hidden.add(doc);
    }
    if (hidden.size !== before) m.deleted[name] = [...hidden].sort((a, b) => a - b);
  }
  addSegment(store, m, readers, bytes, chunks.length);
}

function addSegment(store: Store, m: Manifest, readers: Map<string, SegmentReader>, bytes: Uint8Array, docs: number): string {
  const name = `seg-${String(m.next).padStart(6, '0')}.bin`;
  m.next += 1;
  writeFileAtomic(join(indexDir(store), name), bytes);
  m.segments.push({ name, docs });
  const reader = openSegment(store, name);
  if (reader !== undefined) readers.set(name, reader);
  return name;
}

/** Merge the newest segments while they are of similar size: O(log n) segments, each doc rewritten O(log n) times. */
/** What a refresh may rewrite: segments up to maxDocs, nothing past the deadline, so many old-format ones. */
interface RewriteLimits {
  maxDocs: number;
  deadline: number | undefined;
  upgrades: { left: number };
}

function mergeSmall(store: Store, log: Logger, m: Manifest, readers: Map<string, SegmentReader>, limits: RewriteLimits): void {
  const { maxDocs } = limits;
  for (;;) {
    const n = m.segments.length;
    const older = m.segments[n - 2];
    const newer = m.segments[n - 1];
    if (older === undefined || newer === undefined) break;
    if (older.docs > MERGE_RATIO * newer.docs || older.docs + newer.docs > maxDocs) break;
    const a = readers.get(older.name);
    const b = readers.get(newer.name);
    if (a === undefined || b === undefined) break;
    let combined: { bytes: Uint8Array; docs: number };
    try {
      combined = mergeSegments([
        { reader: a, deleted: new Set(m.deleted[older.name] ?? []) },
        { reader: b, deleted: new Set(m.deleted[newer.name] ?? []) },
      ]);
    } catch (error) {
      if (error instanceof IndexCorruptError) throw error;
      throw new IndexCorruptError(`merging ${older.name} and ${newer.name}: ${(error as Error).message}`);
    }
    const { bytes, docs } = combined;
    m.segments.splice(n - 2, 2);
    delete m.deleted[older.name];
    delete m.deleted[newer.name];
    const merged = addSegment(store, m, readers, bytes, docs); // where the two were: the newest
    saveManifest(store, m);
    for (const r of [a, b]) {
      r.close();
      readers.delete(r.name);
      removePath(join(indexDir(store), r.name));
    }
    log.debug(`index: merged ${older.name} and ${newer.name} into ${merged} (${docs} docs)`);
    touchLock(manifestFile(store));
  }
  compactHidden(store, log, m, readers, limits);
}

/**
 * Rewrite, in its place, a segment of which a quarter or more is hidden (chunks listed again): hidden
 * docs still count in document frequencies, so they must not pile up in a big segment that rarely
 * merges. One with no live doc left is dropped instead (rewritten, it would be an empty segment that
 * every later refresh rewrote again). A segment of an older format is rewritten too (a big one may
 * never merge again): under a deadline only a small one, one per refresh (UPGRADE_UNDER_DEADLINE_DOCS).
 * Nothing starts past the deadline.
 */
function compactHidden(store: Store, log: Logger, m: Manifest, readers: Map<string, SegmentReader>, limits: RewriteLimits): void {
  const { maxDocs, deadline, upgrades } = limits;
  for (let i = 0; i < m.segments.length; i++) {
    if (deadline !== undefined && Date.now() > deadline) return;
    const seg = m.segments[i] as Manifest['segments'][number];
    const hidden = m.deleted[seg.name] ?? [];
    const reader = readers.get(seg.name);
    if (reader === undefined) continue;
    if (hidden.length >= seg.docs) {
      m.segments.splice(i, 1);
      i -= 1;
      delete m.deleted[seg.name];
      saveManifest(store, m);
      reader.close();
      readers.delete(seg.name);
      removePath(join(indexDir(store), seg.name));
      log.debug(`index: dropped ${seg.name} (no live doc of its ${seg.docs})`);
      touchLock(manifestFile(store));
      continue;
    }
    if (seg.docs > maxDocs) continue;
    const compact = hidden.length * 4 >= seg.docs;
    const outdated = reader.footer.version !== SEGMENT_VERSION;
    const upgrade = !compact && outdated && upgrades.left > 0 && (deadline === undefined || seg.docs <= UPGRADE_UNDER_DEADLINE_DOCS);
    if (!compact && !upgrade) continue;
    if (upgrade) upgrades.left -= 1;
    let rewritten: { bytes: Uint8Array; docs: number };
    try {
      rewritten = mergeSegments([{ reader, deleted: new Set(hidden) }]);
    } catch (error) {
      if (error instanceof IndexCorruptError) throw error;
      throw new IndexCorruptError(`compacting ${seg.name}: ${(error as Error).message}`);
    }
    const name = addSegment(store, m, readers, rewritten.bytes, rewritten.docs);
    const added = m.segments.pop();
    if (added !== undefined) m.segments.splice(i, 1, added); // same place in the order
    delete m.deleted[seg.name];
    saveManifest(store, m);
    reader.close();
    readers.delete(seg.name);
    removePath(join(indexDir(store), seg.name));
    log.debug(`index: compacted ${seg.name} into ${name} (${hidden.length} hidden docs dropped${outdated ? ', format updated' : ''})`);
    touchLock(manifestFile(store));
  }
}

/** One segment from several, in order, without their hidden docs. */
export function mergeSegments(parts: readonly LiveSegment[]): { bytes: Uint8Array; docs: number } {
  const docs: IndexedDoc[] = [];
  const remaps = parts.map(({ reader, deleted }) => {
    reader.loadIds();
    const remap = new Int32Array(reader.docs).fill(-1);
    for (let d = 0; d < reader.docs; d++) {
      if (deleted.has(d)) continue;
      remap[d] = docs.length;
      docs.push(reader.doc(d));
    }
    return remap;
  });
  const keys = [...new Set(parts.flatMap((p) => p.reader.bucketKeys()))].sort();
  const buckets = keys.map((key) => {
    const terms = new Map<string, Array<{ postings: Postings; remap: Int32Array }>>();
    parts.forEach(({ reader }, i) => {
      const bucket = reader.readBucket(key);
      if (bucket === undefined) return;
      const { head, postings } = bucket;
      head.terms.forEach((term, t) => {
        let list = terms.get(term);
        if (list === undefined) {
          list = [];
          terms.set(term, list);
        }
        list.push({
          postings: decodePostings(postings, head.starts[t] as number, head.dfs[t] as number, head.ends[t] as number),
          remap: remaps[i] as Int32Array,
        });
      });
    });
    const merged: Array<[string, Postings]> = [];
    for (const term of [...terms.keys()].sort()) {
      const postings = concatPostings(terms.get(term) ?? []);
      if (postings.length > 0) merged.push([term, postings]);
    }
    return merged.length === 0 ? undefined : ([key, encodeBucket(merged)] as const);
  });
  return {
    bytes: encodeSegment(
      docs,
      buckets.filter((b) => b !== undefined),
    ),
    docs: docs.length,
  };
}
