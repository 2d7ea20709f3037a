// One BM25 index (minisearch) per session: <data>/sessions/<sid>/index.json. Hooks never touch it:
// they append chunks and catalog lines. The index catches up from the catalog when it is searched
// (only the new chunks are read), and it can always be rebuilt from the chunk files (`ctxl reindex`).
import MiniSearch, { type Options, type SearchResult } from 'minisearch';
import type { Logger } from '../runtime/log.ts';
import type { Store } from '../runtime/store.ts';
import { readTextFile, statSafe, writeFileAtomic } from '../runtime/store.ts';
import { catalogFile, listChunkIds, readChunk } from './archive-store.ts';
import type { Chunk, ChunkType } from './chunk-file.ts';
import { tokenize } from './keywords.ts';

export const INDEX_VERSION = 1;

/** What the index keeps per chunk, so ranking and filtering never open a chunk file. */
export interface IndexedMeta {
  id: string;
  session: string;
  type: ChunkType;
  tool?: string;
  phase: string;
  timestamp: string;
  title: string;
  files: string[];
  sourceUuids: string[];
  sidechain?: boolean;
}

// Indexed: the text, the file paths, and the keywords (the identifiers, paths and error codes a
// chunk is about: a light weight for code-salient terms). Not the title: it is the text's first line,
// and indexing it again counted the same words twice, lifting short tool chunks whose path repeats a
// query word. It stays stored, for display.
const FIELDS = ['text', 'keywords', 'files'] as const;
const STORED = ['id', 'session', 'type', 'tool', 'phase', 'timestamp', 'title', 'files', 'sourceUuids', 'sidechain'] as const;

// minisearch reads `files` as a field; give it the joined text while the stored value stays a list.
const extractField = (doc: IndexDoc, field: string): string | string[] =>
  field === 'files' ? (doc.filesText ?? '') : ((doc as unknown as Record<string, string | string[]>)[field] ?? '');

export const indexOptions: Options<IndexDoc> = {
  idField: 'id',
  extractField,
  fields: [...FIELDS],
  storeFields: [...STORED],
  // Our tokenizer already lower-cases and stems; minisearch must not split it again.
  tokenize: (text) => tokenize(text),
  processTerm: (term) => term,
  searchOptions: {
    boost: { keywords: 1, files: 1.5 },
    prefix: (term) => term.length >= 5,
    fuzzy: (term) => (term.length >= 7 ? 0.15 : false),
    combineWith: 'OR',
  },
};

interface IndexDoc extends IndexedMeta {
  text: string;
  keywords: string;
  filesText: string;
}

interface IndexFile {
  version: typeof INDEX_VERSION;
  /** Bytes of catalog.jsonl already indexed. */
  catalogBytes: number;
  index: unknown;
}

export const indexFile = (store: Store, sessionId: string) => store.path('sessions', sessionId, 'index.json');

function toDoc(chunk: Chunk): IndexDoc {
  const doc: IndexDoc = {
    id: chunk.id,
    session: chunk.session,
    type: chunk.type,
    phase: chunk.phase,
    timestamp: chunk.timestamp,
    title: chunk.title,
    files: chunk.files,
    sourceUuids: chunk.sourceUuids,
    text: chunk.text,
    keywords: chunk.keywords.join(' '),
    filesText: chunk.files.join(' '),
  };
  if (chunk.tool !== undefined) doc.tool = chunk.tool;
  if (chunk.sidechain === true) doc.sidechain = true;
  return doc;
}

export function newIndex(): MiniSearch<IndexDoc> {
  return new MiniSearch<IndexDoc>(indexOptions);
}

export interface SessionIndex {
  sessionId: string;
  search: MiniSearch<IndexDoc>;
  size: number;
}

/**
 * Load a session's index and add what the catalog lists beyond it. A missing, corrupt or
 * unknown-version index is rebuilt from the chunk files. The caller holds the session's archive lock
 * when it may save (`save: true`).
 */
export function openSessionIndex(store: Store, sessionId: string, log: Logger, options?: { save?: boolean; rebuild?: boolean }): SessionIndex {
  const file = indexFile(store, sessionId);
  const catalog = catalogFile(store, sessionId);
  const catalogSize = statSafe(catalog)?.size ?? 0;
  let search: MiniSearch<IndexDoc> | undefined;
  let from = 0;
  if (options?.rebuild !== true) {
    const text = readTextFile(file);
    if (text !== undefined) {
      try {
        const parsed = JSON.parse(text) as IndexFile;
        if (parsed.version !== INDEX_VERSION) throw new Error(`unknown index version ${String(parsed.version)}`);
        if (parsed.catalogBytes > catalogSize) throw new Error('catalog shorter than the index says');
        search = MiniSearch.loadJS<IndexDoc>(parsed.index as never, indexOptions);
        from = parsed.catalogBytes;
      } catch (error) {
        log.warn(`${file}: ${(error as Error).message}; rebuilding from the chunk files`);
        search = undefined;
      }
    }
  }
  let changed = false;
  if (search === undefined) {
    search = newIndex();
    addChunks(store, sessionId, search, listChunkIds(store, sessionId), log);
    changed = true;
    from = catalogSize;
  } else if (from < catalogSize) {
    from = catchUp(store, sessionId, search, from, log);
    changed = true;
  }

  if (changed && options?.save !== false) {
    try {
      const out: IndexFile = { version: INDEX_VERSION, catalogBytes: from, index: search.toJSON() };
      writeFileAtomic(file, JSON.stringify(out));
    } catch (error) {
      log.warn(`could not save ${file}`, error);
    }
  }
  return { sessionId, search, size: search.documentCount };
}

/** Add chunks not in the index; with `replace`, re-read ones it has (the catalog lists a chunk again when its text grew). */
/** Lines of the catalog a writer lists before its files land are read again later, unless far behind. */
const CATALOG_GRACE_BYTES = 256 * 1024;

/**
 * Index what the catalog lists from byte `from` (its lines are ASCII: bytes are characters), replacing
 * chunks it lists again. Writers list a chunk just before writing its file, so a missing file is
 * usually one being written now: stop there and read it next time. One far behind the end is a crash
 * leftover: skip it. Returns the offset indexed up to.
 */
function catchUp(store: Store, sessionId: string, search: MiniSearch<IndexDoc>, from: number, log: Logger): number {
  const text = (readTextFile(catalogFile(store, sessionId)) ?? '').slice(from);
  let offset = from;
  for (const line of text.split('\n')) {
    if (line === '') break; // the tail after the last newline (or a line being appended)
    let id: string | undefined;
    try {
      id = (JSON.parse(line) as { id?: string }).id;
    } catch {}
    const read = id === undefined ? undefined : readChunk(store, sessionId, id);
    if (id !== undefined && read === undefined && from + text.length - offset < CATALOG_GRACE_BYTES) return offset;
    if (read?.ok === true) {
      if (search.has(read.chunk.id)) search.replace(toDoc(read.chunk));
      else search.add(toDoc(read.chunk));
    } else if (read !== undefined) log.warn(`chunk ${sessionId}/${id}: ${read.reason}; skipped (ctxl reindex repairs the index)`);
    offset += line.length + 1;
  }
  return offset;
}

function addChunks(store: Store, sessionId: string, search: MiniSearch<IndexDoc>, ids: readonly string[], log: Logger): void {
  for (const id of ids) {
    if (search.has(id)) continue;
    const read = readChunk(store, sessionId, id);
    if (read === undefined) continue;
    if (!read.ok) {
      log.warn(`chunk ${sessionId}/${id}: ${read.reason}; skipped (ctxl reindex repairs the index)`);
      continue;
    }
    search.add(toDoc(read.chunk));
  }
}

export type Hit = SearchResult & IndexedMeta;
