// Turns chunks into a segment: tokenize each field once, count term frequencies, collect postings.
// Pure (no I/O). The index has three fields, as the search weighs them: the text, the keywords (the
// identifiers, paths and codes a chunk is about) and the file paths.
import type { Chunk } from '../archive/chunk-file.ts';
import { tokenize } from '../archive/keywords.ts';
import { bucketize, encodeBucket, encodeSegment, type IndexedDoc, POSTING_WIDTH, type Postings } from './segment.ts';

export function docOf(chunk: Chunk, lengths: readonly [number, number, number]): IndexedDoc {
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

export class SegmentBuilder {
  readonly docs: IndexedDoc[] = [];
  // Terms are numbered as first seen: one map lookup per token, counts in a typed array.
  private readonly termIds = new Map<string, number>();
  private readonly termNames: string[] = [];
  private readonly postings: Postings[] = [];
  // Per term of the current doc: text + keywords·2^20 + files·2^40, packed in one number.
  private counts = new Float64Array(1024);
  private readonly touched: number[] = [];

  get size(): number {
    return this.docs.length;
  }

  add(chunk: Chunk): void {
    const doc = this.docs.length;
    const text = tokenize(chunk.text);
    const keywords = tokenize(chunk.keywords.join(' '));
    const files = tokenize(chunk.files.join(' '));
    this.count(text, 1);
    this.count(keywords, KEYWORDS_UNIT);
    this.count(files, FILES_UNIT);
    for (const id of this.touched) {
      const packed = this.counts[id] as number;
      this.counts[id] = 0;
      (this.postings[id] as Postings).push(doc, packed % KEYWORDS_UNIT, Math.floor(packed / KEYWORDS_UNIT) % KEYWORDS_UNIT, Math.floor(packed / FILES_UNIT));
    }
    this.touched.length = 0;
    this.docs.push(docOf(chunk, [text.length, keywords.length, files.length]));
  }

  private count(terms: readonly string[], unit: number): void {
    for (const term of terms) {
      let id = this.termIds.get(term);
      if (id === undefined) {
        id = this.termNames.length;
        this.termIds.set(term, id);
        this.termNames.push(term);
        this.postings.push([]);
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

  encode(): Uint8Array {
    const terms = new Map<string, Postings>();
    for (const [id, term] of this.termNames.entries()) terms.set(term, this.postings[id] as Postings);
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
