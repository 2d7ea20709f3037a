// The search index's manifest and read side: `<data>/index/manifest.json` names the segments (oldest
// first), how far each session's catalog is indexed and the docs hidden in each segment. Readers take
// no lock: they open the segments it names and read only what their query needs.
import { join } from 'node:path';
import { TOKENIZER_VERSION } from '../archive/keywords.ts';
import type { Logger } from '../runtime/log.ts';
import { openRangeReader, readTextFile, type Store, writeFileAtomic } from '../runtime/store.ts';
import { SegmentReader } from './segment.ts';

export const MANIFEST_VERSION = 1;

export interface Manifest {
  version: typeof MANIFEST_VERSION;
  /** TOKENIZER_VERSION the terms were made with; another one means a rebuild. */
  tokenizer: number;
  /** Number of the next segment file. */
  next: number;
  /** Oldest first. */
  segments: Array<{ name: string; docs: number }>;
  /** Bytes of each session's catalog.jsonl already indexed. */
  catalogs: Record<string, number>;
  /** Docs hidden in a segment because a newer segment has the chunk again (or its session is gone). */
  deleted: Record<string, number[]>;
  /** A catalog line whose file has not appeared: where, and since when (epoch ms). */
  stalled?: Record<string, { offset: number; since: number }>;
  /**
   * Chunks a session's first read indexed from its folder though their catalog lines lie after a
   * stalled line (before byte `until`): the read that gets past the stall skips those lines.
   */
  ahead?: Record<string, { until: number; ids: string[] }>;
}

export const indexDir = (store: Store) => store.path('index');
export const manifestFile = (store: Store) => join(indexDir(store), 'manifest.json');

export function emptyManifest(): Manifest {
  return { version: MANIFEST_VERSION, tokenizer: TOKENIZER_VERSION, next: 1, segments: [], catalogs: {}, deleted: {} };
}

/**
 * The manifest, or undefined when there is none; a corrupt one is reported and read as undefined.
 * `say: false` for a look before the lock: the locked read that follows reports it, once.
 */
export function readManifest(store: Store, log: Logger, say = true): Manifest | undefined {
  const text = readTextFile(manifestFile(store));
  if (text === undefined) return undefined;
  try {
    const m = JSON.parse(text) as Partial<Manifest>;
    if (m.version !== MANIFEST_VERSION) throw new Error(`unknown version ${JSON.stringify(m.version)}`);
    if (typeof m.next !== 'number' || !Array.isArray(m.segments) || !isRecord(m.catalogs) || !isRecord(m.deleted)) throw new Error('missing fields');
    if (!m.segments.every((s) => isRecord(s) && typeof s.name === 'string' && typeof s.docs === 'number')) throw new Error('bad segment list');
    if (!Object.values(m.catalogs).every((n) => typeof n === 'number')) throw new Error('bad catalog offsets');
    if (!Object.values(m.deleted).every((d) => Array.isArray(d) && d.every((n) => typeof n === 'number'))) throw new Error('bad hidden docs');
    if (m.stalled !== undefined && !isRecord(m.stalled)) throw new Error('bad stalled lines');
    if (
      m.ahead !== undefined &&
      (!isRecord(m.ahead) || !Object.values(m.ahead).every((a) => isRecord(a) && typeof a.until === 'number' && Array.isArray(a.ids)))
    )
      throw new Error('bad chunks indexed ahead');
    if (m.tokenizer !== TOKENIZER_VERSION) {
      if (say) log.info(`search index made by tokenizer ${String(m.tokenizer)}, this version has ${TOKENIZER_VERSION}; rebuilding it`);
      return undefined;
    }
    return m as Manifest;
  } catch (error) {
    if (say) log.warn(`${manifestFile(store)}: ${(error as Error).message}; the index will be rebuilt`);
    return undefined;
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function saveManifest(store: Store, m: Manifest): void {
  writeFileAtomic(manifestFile(store), `${JSON.stringify(m)}\n`);
}

export function openSegment(store: Store, name: string): SegmentReader | undefined {
  const source = openRangeReader(join(indexDir(store), name));
  if (source === undefined) return undefined;
  try {
    return new SegmentReader(name, source);
  } catch (error) {
    source.close();
    throw error;
  }
}

export interface LiveSegment {
  reader: SegmentReader;
  deleted: ReadonlySet<number>;
}

/** What a query reads: the live segments and the corpus figures BM25 needs. */
export interface IndexView {
  segments: LiveSegment[];
  /** Live docs. */
  docs: number;
  fieldTokens: [number, number, number];
  /** Segments that could not be read (left out; a search rebuilds the index). */
  damaged: string[];
  close(): void;
}

/**
 * Open the segments the manifest names. A segment merged away between reading the manifest and
 * opening it means a newer manifest: read again. A corrupt segment is skipped with a log line (the
 * next refresh rebuilds the index).
 */
export function openIndex(store: Store, log: Logger): IndexView {
  for (let attempt = 0; ; attempt++) {
    const m = readManifest(store, log) ?? emptyManifest();
    const segments: LiveSegment[] = [];
    const damaged: string[] = [];
    let vanished = false;
    for (const { name } of m.segments) {
      let reader: SegmentReader | undefined;
      try {
        reader = openSegment(store, name);
      } catch (error) {
        log.warn(`index segment ${name}: ${(error as Error).message}; skipped`);
        damaged.push(name);
        continue;
      }
      if (reader === undefined) {
        vanished = true;
        break;
      }
      segments.push({ reader, deleted: new Set(m.deleted[name] ?? []) });
    }
    if (vanished && attempt < 5) {
      // A merge or rebuild replaced it since the manifest was read: read the newer manifest.
      for (const s of segments) s.reader.close();
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10 * attempt);
      continue;
    }
    // Still missing after that: deleted by hand (or a crash); the refresh notices and rebuilds.
    const fieldTokens: [number, number, number] = [0, 0, 0];
    let docs = 0;
    for (const s of segments) {
      docs += s.reader.docs - s.deleted.size;
      s.reader.footer.fieldTokens.forEach((t, f) => {
        fieldTokens[f] = (fieldTokens[f] as number) + t;
      });
    }
    return {
      segments,
      docs,
      fieldTokens,
      damaged,
      close: () => {
        for (const s of segments) s.reader.close();
      },
    };
  }
}
