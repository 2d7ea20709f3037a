// Turns chunks into a segment: tokenize each field once, count term frequencies, collect postings.
// Pure (no I/O). The index has three fields, as the search weighs them: the text, the keywords (the
// identifiers, paths and codes a chunk is about) and the file paths.
import type { Chunk } from '../archive/chunk-file.ts';
import { tokenize } from '../archive/keywords.ts';
import { bucketize, encodeBucket, encodeSegment, type IndexedDoc, POSTING_WIDTH, type Postings } from './segment.ts';

export function docOf(chunk: IndexInput, lengths: readonly [number, number, number]): IndexedDoc {
  const time = Date.parse(chunk.timestamp);
  return {
    id: chunk.id,
    session: chunk.session,
    project: chunk.project ?? '',
    kind: chunk.type === 'tool' ? `tool:${chunk.tool ?? ''}` : chunk.type,
    phase: chunk.phase ?? '',
    time: Number.isFinite(time) ? time : 0,
    files: chunk.files,
    lengths,
  };
}

const KEYWORDS_UNIT = 2 ** 20;
const FILES_UNIT = 2 ** 40;

/** What the index reads of a chunk (a worker gets this much, not the whole chunk). */
export type IndexInput = Pick<Chunk, 'id' | 'session' | 'project' | 'type' | 'tool' | 'phase' | 'timestamp' | 'files' | 'keywords' | 'text'>;

/** One doc's terms: ids of a TermCounter, each with text + keywords·2^20 + files·2^40 packed in one number. */
export interface DocTerms {
  ids: Int32Array;
  packed: Float64Array;
  lengths: [number, number, number];
}

/**
 * Tokenizes docs and counts their terms. Terms are numbered as first seen: one map lookup per token,
 * counts in a typed array. Kept apart from the segment so the counting can run on another thread
 * (`ctxl ingest`) while the postings are still laid out by the same code.
 */
export class TermCounter {
  readonly names: string[] = [];
  private readonly ids = new Map<string, number>();
  private counts = new Float64Array(1024);
  private readonly touched: number[] = [];

  count(chunk: IndexInput): DocTerms {
    const text = tokenize(chunk.text);
    const keywords = tokenize(chunk.keywords.join(' '));
    const files = tokenize(chunk.files.join(' '));
    this.add(text, 1);
    this.add(keywords, KEYWORDS_UNIT);
    this.add(files, FILES_UNIT);
    const n = this.touched.length;
    const ids = new Int32Array(n);
    const packed = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const id = this.touched[i] as number;
      ids[i] = id;
      packed[i] = this.counts[id] as number;
      this.counts[id] = 0;
    }
    this.touched.length = 0;
    return { ids, packed, lengths: [text.length, keywords.length, files.length] };
  }

  private add(terms: readonly string[], unit: number): void {
    for (const term of terms) {
      let id = this.ids.get(term);
      if (id === undefined) {
        id = this.names.length;
        this.ids.set(term, id);
        this.names.push(term);
        if (id >= this.counts.length) {
          const grown = new Float64Array(this.counts.length * 2);
          grown.set(this.counts);
          this.counts = grown;
        }
      }
      if (this.counts[id] === 0) this.touched.push(id);
      this.counts[id] = (this.counts[id] as number) + unit;
    }
  }
}

export class SegmentBuilder {
  readonly docs: IndexedDoc[] = [];
  // Postings by the counter's term id (a shared counter numbers terms this segment may not use).
  private readonly postings: Postings[] = [];

  constructor(private readonly counter = new TermCounter()) {}

  get size(): number {
    return this.docs.length;
  }

  add(chunk: IndexInput): void {
    const terms = this.counter.count(chunk);
    this.addCounted(docOf(chunk, terms.lengths), terms);
  }

  /** A doc whose terms were counted by this builder's counter. */
  addCounted(doc: IndexedDoc, terms: DocTerms): void {
    const n = this.docs.length;
    const { ids, packed } = terms;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i] as number;
      const p = packed[i] as number;
      let list = this.postings[id];
      if (list === undefined) {
        list = [];
        this.postings[id] = list;
      }
      list.push(n, p % KEYWORDS_UNIT, Math.floor(p / KEYWORDS_UNIT) % KEYWORDS_UNIT, Math.floor(p / FILES_UNIT));
    }
    this.docs.push(doc);
  }

  encode(): Uint8Array {
    const terms = new Map<string, Postings>();
    const names = this.counter.names;
    // forEach skips the holes (terms of a shared counter this segment does not use).
    this.postings.forEach((list, id) => {
      terms.set(names[id] as string, list);
    });
    return encodeSegment(
      this.docs,
      bucketize(terms).map(([key, terms]) => [key, encodeBucket(terms)] as const),
    );
  }
}

/** Postings of several segments as one list: docs remapped (-1 drops a doc), in segment order. */
export function concatPostings(parts: ReadonlyArray<{ postings: Postings; remap: Int32Array }>): Postings {
  const out: Postings = [];
  for (const { postings, remap } of parts) {
    for (let i = 0; i < postings.length; i += POSTING_WIDTH) {
      const doc = remap[postings[i] as number] as number;
      if (doc < 0) continue;
      out.push(doc, postings[i + 1] as number, postings[i + 2] as number, postings[i + 3] as number);
    }
  }
  return out;
}
