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
  private readonly terms = new Map<string, Postings>();

  get size(): number {
    return this.docs.length;
  }

  add(chunk: Chunk): void {
    const doc = this.docs.length;
    // Counts per term packed in one number (text + keywords·2^20 + files·2^40): no array per term.
    const counts = new Map<string, number>();
    const text = tokenize(chunk.text);
    const keywords = tokenize(chunk.keywords.join(' '));
    const files = tokenize(chunk.files.join(' '));
    for (const term of text) counts.set(term, (counts.get(term) ?? 0) + 1);
    for (const term of keywords) counts.set(term, (counts.get(term) ?? 0) + KEYWORDS_UNIT);
    for (const term of files) counts.set(term, (counts.get(term) ?? 0) + FILES_UNIT);
    for (const [term, packed] of counts) {
      let postings = this.terms.get(term);
      if (postings === undefined) {
        postings = [];
        this.terms.set(term, postings);
      }
      postings.push(doc, packed % KEYWORDS_UNIT, Math.floor(packed / KEYWORDS_UNIT) % KEYWORDS_UNIT, Math.floor(packed / FILES_UNIT));
    }
    this.docs.push(docOf(chunk, [text.length, keywords.length, files.length]));
  }

  encode(): Uint8Array {
    return encodeSegment(
      this.docs,
      bucketize(this.terms).map(([key, terms]) => [key, encodeBucket(terms)] as const),
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
