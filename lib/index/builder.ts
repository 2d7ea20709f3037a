// Turns chunks into a segment: tokenize each field once, count term frequencies, collect postings.
// Pure (no I/O). The index has three fields, as the search weighs them: the text, the keywords (the
// identifiers, paths and codes a chunk is about) and the file paths.
import type { Chunk } from '../archive/chunk-file.ts';
import { indexable, isSurface, MONEY_TERM, moneyAmounts, words, wordTerms } from '../archive/keywords.ts';
import { bucketize, encodeBucket, encodeSegment, type IndexedDoc, POSTING_WIDTH, type Postings, type PostingsView } from './segment.ts';

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
  private readonly wordIds = new Map<string, number[]>();
  private counts = new Float64Array(1024);
  private readonly touched: number[] = [];

  count(chunk: IndexInput): DocTerms {
    const text = this.add(chunk.text, 1);
    // The amounts of money the text says, as one more term (not in its length: a surface term).
    const money = moneyAmounts(chunk.text);
    if (money > 0) {
      const id = this.idOf(MONEY_TERM);
      if (this.counts[id] === 0) this.touched.push(id);
      this.counts[id] = (this.counts[id] as number) + money;
    }
    const keywords = this.add(chunk.keywords.join(' '), KEYWORDS_UNIT);
    const files = this.add(chunk.files.join(' '), FILES_UNIT);
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
    return { ids, packed, lengths: [text, keywords, files] };
  }

  /**
   * Count the terms of a text (those of tokenize() with surface terms); returns how many, repeats
   * included, surface terms not: a doc's length is its words', as before they were indexed.
   */
  private add(text: string, unit: number): number {
    let n = 0;
    for (const word of words(text)) {
      if (!indexable(word)) continue;
      // One lookup per word gives its term ids (a word's terms were looked up once, when first seen);
      // a surface term's id is stored as ~id, negative.
      let ids = this.wordIds.get(word);
      if (ids === undefined) {
        const pairs = wordTerms(word);
        ids = [];
        for (let i = 0; i < pairs.length; i += 2) {
          const term = pairs[i] as string;
          const id = this.idOf(term);
          ids.push(isSurface(term) ? ~id : id);
        }
        if (this.wordIds.size >= WORD_IDS_LIMIT) this.wordIds.clear();
        this.wordIds.set(word, ids);
      }
      for (const stored of ids) {
        const id = stored < 0 ? ~stored : stored;
        if (this.counts[id] === 0) this.touched.push(id);
        this.counts[id] = (this.counts[id] as number) + unit;
        if (stored >= 0) n += 1;
      }
    }
    return n;
  }

  private idOf(term: string): number {
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
    return id;
  }
}

/** Words of the term-id cache before it is cleared (it only saves lookups). */
const WORD_IDS_LIMIT = 200_000;

export class SegmentBuilder {
  readonly docs: IndexedDoc[] = [];
  // Each doc's counted terms, laid out as postings when the segment is encoded.
  private readonly counted: DocTerms[] = [];

  constructor(private readonly counter = new TermCounter()) {}

  add(chunk: IndexInput): void {
    const terms = this.counter.count(chunk);
    this.addCounted(docOf(chunk, terms.lengths), terms);
  }

  /** A doc whose terms were counted by this builder's counter. */
  addCounted(doc: IndexedDoc, terms: DocTerms): void {
    this.docs.push(doc);
    this.counted.push(terms);
  }

  /**
   * The segment's bytes. The postings of every term go into one typed array (a first pass counts
   * each term's docs, a second fills them in doc order), not a growing list per term: those lists
   * were most of an index build's garbage.
   */
  encode(): Uint8Array {
    const names = this.counter.names;
    const df = new Uint32Array(names.length);
    for (const { ids } of this.counted) for (let i = 0; i < ids.length; i++) df[ids[i] as number] = (df[ids[i] as number] as number) + 1;
    const at = new Uint32Array(names.length); // where each term's next posting goes
    let total = 0;
    for (let id = 0; id < df.length; id++) {
      at[id] = total;
      total += df[id] as number;
    }
    const all = new Uint32Array(total * POSTING_WIDTH);
    this.counted.forEach(({ ids, packed }, doc) => {
      for (let i = 0; i < ids.length; i++) {
        const id = ids[i] as number;
        const p = packed[i] as number;
        const o = (at[id] as number) * POSTING_WIDTH;
        at[id] = (at[id] as number) + 1;
        all[o] = doc;
        all[o + 1] = p % KEYWORDS_UNIT;
        all[o + 2] = Math.floor(p / KEYWORDS_UNIT) % KEYWORDS_UNIT;
        all[o + 3] = Math.floor(p / FILES_UNIT);
      }
    });
    const terms = new Map<string, PostingsView>();
    for (let id = 0; id < df.length; id++) {
      const n = df[id] as number;
      if (n === 0) continue; // a term of a shared counter this segment does not use
      const end = (at[id] as number) * POSTING_WIDTH; // filled: `at` moved to the term's end
      terms.set(names[id] as string, all.subarray(end - n * POSTING_WIDTH, end));
    }
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
