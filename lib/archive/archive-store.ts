// L2 on disk: <data>/sessions/<sid>/archived/<id>.md, one file per chunk, plus catalog.jsonl, an
// append-only list of the chunks written (the index reads it to learn what is new without listing
// the folder). Writing a chunk that exists is a no-op, except that a tool chunk first written by
// PostToolUse (no transcript uuids yet) gains the uuids when the transcript entry is archived.
import { join } from 'node:path';
import type { Store } from '../runtime/store.ts';
import { ensureDir, listDir, readTextFile, writeFileAtomic } from '../runtime/store.ts';
import { type Chunk, parseChunk, renderChunk } from './chunk-file.ts';
import { toolPartId } from './chunker.ts';

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

/**
 * Write chunks of one session. `hash` lets a tool chunk that is merged into an existing multi-part
 * one (PostToolUse archived the full output, the transcript holds a stub) carry its uuids to every part.
 */
export function writeChunks(store: Store, sessionId: string, chunks: readonly Chunk[], hash?: (identity: string) => string): WriteResult {
  const result: WriteResult = { added: 0, updated: 0, unchanged: 0 };
  if (chunks.length === 0) return result;
  const dir = archiveDir(store, sessionId);
  const newIds: string[] = [];
  for (const chunk of chunks) {
    const file = join(dir, `${chunk.id}.md`);
    const existing = readTextFile(file);
    if (existing !== undefined) {
      const parsed = parseChunk(existing);
      if (parsed.ok && chunk.type === 'tool' && chunk.text.length > parsed.chunk.text.length) {
        // Two writers of one tool call: the transcript's stub or 2 KB preview may land before the
        // full output (a background job). The fuller text wins; the uuids of both are kept.
        writeFileAtomic(file, renderChunk({ ...chunk, sourceUuids: mergeUuids(parsed.chunk.sourceUuids, chunk.sourceUuids) }));
        newIds.push(chunk.id); // listed again: the index replaces the text it had
        result.updated += 1;
        continue;
      }
      if (parsed.ok) {
        const missing = chunk.sourceUuids.filter((u) => !parsed.chunk.sourceUuids.includes(u));
        if (missing.length === 0) {
          result.unchanged += 1;
          continue;
        }
        // Keep the archived text (PostToolUse saw the full output; the transcript may hold a stub).
        const merged = mergeUuids(parsed.chunk.sourceUuids, chunk.sourceUuids);
        writeFileAtomic(file, renderChunk({ ...parsed.chunk, sourceUuids: merged }));
        result.updated += 1;
        const { part, toolUseId } = parsed.chunk;
        if (hash !== undefined && part !== undefined && toolUseId !== undefined && part[0] === 1) {
          for (let k = 1; k < part[1]; k++) mergeInto(join(dir, `${toolPartId(hash, sessionId, toolUseId, k)}.md`), chunk.sourceUuids);
        }
        continue;
      }
      // A corrupt chunk is replaced by the fresh one below (and indexed again).
    }
    ensureDirOnce(dir);
    writeFileAtomic(file, renderChunk(chunk));
    newIds.push(chunk.id);
    result.added += 1;
  }
  const catalog = catalogFile(store, sessionId);
  if (newIds.length > 0)
    store.appendLines(
      catalog,
      newIds.map((id) => ({ v: CATALOG_VERSION, id }) satisfies CatalogLine),
    );
  return result;
}

function mergeInto(file: string, uuids: readonly string[]): void {
  const text = readTextFile(file);
  if (text === undefined) return;
  const parsed = parseChunk(text);
  if (!parsed.ok || uuids.every((u) => parsed.chunk.sourceUuids.includes(u))) return;
  writeFileAtomic(file, renderChunk({ ...parsed.chunk, sourceUuids: mergeUuids(parsed.chunk.sourceUuids, uuids) }));
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

export function listChunkIds(store: Store, sessionId: string): string[] {
  return listDir(archiveDir(store, sessionId))
    .filter((f) => f.endsWith('.md'))
    .map((f) => f.slice(0, -3));
}
