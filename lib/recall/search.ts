// Search L2 for a project (or all projects): catch up and search each session's index, filter, merge
// best first, and attach snippets from the chunk files of the results only.
import { join } from 'node:path';
import MiniSearch from 'minisearch';
import { readChunk } from '../archive/archive-store.ts';
import { queryTerms } from '../archive/keywords.ts';
import { type IndexedMeta, openSessionIndex } from '../archive/search-index.ts';
import type { Logger } from '../runtime/log.ts';
import { sanitizeName } from '../runtime/paths.ts';
import { listDir, type Store } from '../runtime/store.ts';
import { readSession } from '../session/session-files.ts';
import { type Query, searchText } from './query.ts';

export interface RecallResult {
  ref: string;
  score: number;
  sessionId: string;
  phase: string;
  type: string;
  timestamp: string;
  sourceUuids: string[];
  title: string;
  snippet: string;
  tool?: string;
  files: string[];
}

export interface SearchScope {
  store: Store;
  log: Logger;
  now: Date;
  /** Project root to search; undefined searches every project. */
  projectRoot: string | undefined;
  limit: number;
}

/** Sessions whose session.json names the project (every session when projectRoot is undefined). */
export function sessionsOf(store: Store, log: Logger, projectRoot: string | undefined, now: Date): string[] {
  const out: string[] = [];
  for (const id of listDir(join(store.root, 'sessions'))) {
    if (sanitizeName(id) !== id) continue;
    if (projectRoot === undefined) {
      out.push(id);
      continue;
    }
    const record = readSession(store, id, log, now);
    if (record?.projectRoot === projectRoot) out.push(id);
  }
  return out;
}

export function search(query: Query, scope: SearchScope): RecallResult[] {
  const sessions = query.session !== undefined ? matchSessions(scope, query.session) : sessionsOf(scope.store, scope.log, scope.projectRoot, scope.now);
  const text = searchText(query);
  const terms = queryTerms(text);
  const hits: Array<IndexedMeta & { score: number }> = [];
  for (const sessionId of sessions) {
    const index = openSessionIndex(scope.store, sessionId, scope.log);
    const filter = (meta: IndexedMeta) => accepts(meta, query);
    if (terms.length === 0) {
      // Filters only: newest first.
      const all = index.search.search(MiniSearch.wildcard, { filter: (r) => filter(r as unknown as IndexedMeta) });
      for (const r of all) hits.push({ ...(r as unknown as IndexedMeta), score: 0 });
      continue;
    }
    // BM25 of separate indexes is not comparable: a rare term's IDF grows with the index's size, so
    // big sessions would bury small ones. Dividing by the index's largest possible IDF puts a term
    // found once in a 5-chunk session on the same footing as one found once in a 500-chunk session.
    const scale = maxIdf(index.size);
    for (const r of index.search.search(text, { filter: (r) => filter(r as unknown as IndexedMeta) })) {
      hits.push({ ...(r as unknown as IndexedMeta), score: (r.score / scale) * phraseBoost(query, r as unknown as IndexedMeta) });
    }
  }
  hits.sort((a, b) => b.score - a.score || (a.timestamp < b.timestamp ? 1 : -1));
  return hits.slice(0, scope.limit).map((h) => toResult(h, scope, terms, query));
}

/** IDF (as minisearch computes it) of a term found in one of `n` documents. */
function maxIdf(n: number): number {
  return Math.log(1 + (Math.max(n, 1) - 1 + 0.5) / 1.5) || 1;
}

function matchSessions(scope: SearchScope, prefix: string): string[] {
  return listDir(join(scope.store.root, 'sessions')).filter((id) => id.startsWith(prefix));
}

function accepts(meta: IndexedMeta, q: Query): boolean {
  if (q.type !== undefined && meta.type !== q.type && meta.tool?.toLowerCase() !== q.type) return false;
  if (q.phase !== undefined && meta.phase !== q.phase) return false;
  if (q.since !== undefined && meta.timestamp < q.since) return false;
  if (q.file !== undefined) {
    const needle = q.file.toLowerCase();
    if (!meta.files.some((f) => f.toLowerCase().includes(needle))) return false;
  }
  return true;
}

/** Phrases are checked on the title here; the snippet check happens when the chunk is read. */
function phraseBoost(q: Query, meta: IndexedMeta): number {
  if (q.phrases.length === 0) return 1;
  const title = meta.title.toLowerCase();
  return q.phrases.some((p) => title.includes(p.toLowerCase())) ? 1.5 : 1;
}

function toResult(hit: IndexedMeta & { score: number }, scope: SearchScope, terms: string[], q: Query): RecallResult {
  const read = readChunk(scope.store, hit.session, hit.id);
  const text = read?.ok === true ? read.chunk.text : '';
  const result: RecallResult = {
    ref: hit.id,
    score: Math.round(hit.score * 1000) / 1000,
    sessionId: hit.session,
    phase: hit.phase,
    type: hit.type,
    timestamp: hit.timestamp,
    sourceUuids: hit.sourceUuids,
    title: hit.title,
    snippet: snippet(text, [...q.phrases.map((p) => p.toLowerCase()), ...terms], 320),
    files: hit.files,
  };
  if (hit.tool !== undefined) result.tool = hit.tool;
  return result;
}

/** The window of `size` characters around the first place where a query term appears. */
export function snippet(text: string, needles: readonly string[], size: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= size) return flat;
  const lower = flat.toLowerCase();
  let at = -1;
  for (const n of needles) {
    if (n.length < 2) continue;
    const i = lower.indexOf(n);
    if (i !== -1 && (at === -1 || i < at)) at = i;
  }
  const start = Math.max(0, at === -1 ? 0 : at - Math.floor(size / 3));
  const piece = flat.slice(start, start + size);
  return `${start > 0 ? '…' : ''}${piece}${start + size < flat.length ? '…' : ''}`;
}
