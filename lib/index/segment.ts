// One immutable segment of the search index: a single file that a query reads in pieces. The footer
// (JSON, at the end) maps each term bucket (the term's first two characters) and each document column
// to a byte range; a query reads the footer, the buckets of its terms and the columns it filters
// on, never the whole file. So the cost of a query follows its terms, not the size of the archive.
//
// Layout: "CTXLSEG\n", sections, footer JSON, u32 footer length, "CTXLEND\n".
// Bucket: a head, then the postings. The head: varint term count, varint byte length of the sorted
// terms joined by "\n", those bytes, zeros up to a multiple of 4 bytes from the head's start, then
// little-endian u32 arrays: each term's df; its dfs in text, keywords and files (three per term);
// the byte offsets of the terms' postings after the head (count + 1: term i's are [off[i], off[i+1])).
// A query uses those arrays where they lie, with no decoding: it reads the heads of thousands of
// terms. (Version 1 heads held the same numbers as varints per term; they are still read.)
// A posting is varint doc gap, varint (text tf << 2 | has keywords tf | has files tf << 1), then
// the keyword and files tfs if present.
import { ByteWriter, fromUtf8, utf8, VarintReader } from './bytes.ts';

export const SEGMENT_VERSION = 2;
/** Segment versions this reader reads: 1 differs only in how a bucket head holds its numbers. */
type ReadableVersion = 1 | typeof SEGMENT_VERSION;

/** A segment that does not decode: the index is rebuilt from the chunk files (other errors are bugs). */
export class IndexCorruptError extends Error {}
const MAGIC = 'CTXLSEG\n';
const END = 'CTXLEND\n';
const ID_BYTES = 16;

/** What the index keeps per chunk: enough to filter and rank without opening chunk files. */
export interface IndexedDoc {
  /** The chunk id: 16 hex characters. */
  id: string;
  session: string;
  project: string;
  /** `user`, `assistant`, `summary`, or `tool:<Name>`. */
  kind: string;
  phase: string;
  /** Epoch ms (0 when the chunk had no usable time). */
  time: number;
  files: string[];
  /** Field lengths in tokens: text, keywords, files. */
  lengths: readonly [number, number, number];
}

/** Postings of one term: flat [doc, tfText, tfKeywords, tfFiles, doc, …], docs ascending. */
export type Postings = number[];
/** Postings to encode: a list, or a view of a typed array holding many terms' postings. */
export type PostingsView = ArrayLike<number>;
export const POSTING_WIDTH = 4;

type Range = [number, number];

export interface Footer {
  version: ReadableVersion;
  docs: number;
  /** Total tokens per field (text, keywords, files), for average lengths. */
  fieldTokens: [number, number, number];
  sessions: string[];
  projects: string[];
  kinds: string[];
  phases: string[];
  sections: Record<'ids' | 'sortedIds' | 'order' | 'session' | 'project' | 'kindPhase' | 'lengths' | 'time' | 'files', Range>;
  /** Bucket key → [offset, head length, total length]. */
  buckets: Record<string, [number, number, number]>;
}

export const bucketOf = (term: string) => term.slice(0, 2);

/** Postings grouped by bucket, each bucket's terms sorted (JS string order). */
export type BucketedTerms = Array<[string, Array<[string, PostingsView]>]>;

export function bucketize(terms: Map<string, PostingsView>): BucketedTerms {
  const byBucket = new Map<string, Array<[string, PostingsView]>>();
  for (const [term, postings] of terms) {
    const key = bucketOf(term);
    let list = byBucket.get(key);
    if (list === undefined) {
      list = [];
      byBucket.set(key, list);
    }
    list.push([term, postings]);
  }
  const out: BucketedTerms = [];
  for (const key of [...byBucket.keys()].sort()) {
    const list = byBucket.get(key) ?? [];
    list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    out.push([key, list]);
  }
  return out;
}

export function encodeBucket(terms: ReadonlyArray<readonly [string, PostingsView]>): EncodedBucket {
  const count = terms.length;
  const body = new ByteWriter();
  const dfs = new Uint32Array(count);
  const fieldDfs = new Uint32Array(count * 3);
  const offsets = new Uint32Array(count + 1);
  terms.forEach(([, postings], t) => {
    let last = 0;
    let inText = 0;
    let inKeywords = 0;
    let inFiles = 0;
    for (let i = 0; i < postings.length; i += POSTING_WIDTH) {
      const doc = postings[i] as number;
      const keywords = postings[i + 2] as number;
      const files = postings[i + 3] as number;
      body.varint(doc - last);
      last = doc;
      body.varint((postings[i + 1] as number) * 4 + (keywords > 0 ? 1 : 0) + (files > 0 ? 2 : 0));
      if ((postings[i + 1] as number) > 0) inText += 1;
      if (keywords > 0) {
        body.varint(keywords);
        inKeywords += 1;
      }
      if (files > 0) {
        body.varint(files);
        inFiles += 1;
      }
    }
    dfs[t] = postings.length / POSTING_WIDTH;
    fieldDfs[t * 3] = inText;
    fieldDfs[t * 3 + 1] = inKeywords;
    fieldDfs[t * 3 + 2] = inFiles;
    // A bucket's postings past 4 GiB cannot be said in a u32 (nor written: a segment is one buffer).
    if (body.length > 0xffffffff) throw new Error('bucket postings exceed 4 GiB');
    offsets[t + 1] = body.length;
  });
  const head = new ByteWriter();
  const names = utf8.encode(terms.map(([t]) => t).join('\n'));
  head.varint(count);
  head.varint(names.length);
  head.bytes(names);
  head.align(4);
  for (const array of [dfs, fieldDfs, offsets]) head.bytes(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
  const headLength = head.length;
  head.bytes(body.result());
  return { bytes: head.result(), headLength };
}

export interface EncodedBucket {
  bytes: Uint8Array;
  headLength: number;
}

/**
 * A bucket's head: its sorted terms, their document frequencies, and where their postings are. The
 * numbers sit in typed arrays: a query decodes whole heads of big buckets (tens of thousands of
 * terms at 100K chunks), and an array per term made most of a recall's garbage.
 */
export interface BucketHead {
  terms: string[];
  /** Docs with the term in any field. */
  dfs: Uint32Array;
  /** Docs with the term in the text, keywords and files fields: three per term (see fieldDfsOf). */
  fieldDfs: Uint32Array;
  /** Postings of term i: bytes [starts[i], ends[i]) after the head. */
  starts: Uint32Array;
  ends: Uint32Array;
}

/** Term `at`'s document frequencies in the text, keywords and files fields. */
export const fieldDfsOf = (head: BucketHead, at: number): [number, number, number] => [
  head.fieldDfs[at * 3] as number,
  head.fieldDfs[at * 3 + 1] as number,
  head.fieldDfs[at * 3 + 2] as number,
];

export function decodeBucketHead(head: Uint8Array, version: ReadableVersion = SEGMENT_VERSION): BucketHead {
  const r = new VarintReader(head);
  const count = r.next();
  const namesLength = r.next();
  if (r.pos + namesLength > head.length) throw new Error('bucket head is shorter than its terms');
  const names = fromUtf8.decode(head.subarray(r.pos, r.pos + namesLength));
  r.pos += namesLength;
  const terms = count === 0 ? [] : names.split('\n');
  if (terms.length !== count) throw new Error(`bucket lists ${terms.length} terms, expected ${count}`);
  if (version === 1) return decodeNumbersV1(r, terms);
  const start = r.pos + ((4 - (r.pos % 4)) % 4);
  const words = 4 * count + count + 1;
  if (start + 4 * words !== head.length) throw new Error('bucket head has the wrong length for its terms');
  // Views where the bytes lie when they are 4-byte aligned in memory (a fresh read is), else a copy
  // (new Uint8Array copies; a Buffer's slice would not). The offsets are checked where they are used
  // (the last in SegmentReader.bucket, a read range in postings(), each term's when it is scored or
  // merged), not here term by term.
  const aligned = (head.byteOffset + start) % 4 === 0;
  const all = aligned ? new Uint32Array(head.buffer, head.byteOffset + start, words) : new Uint32Array(new Uint8Array(head.subarray(start)).buffer, 0, words);
  const offsets = all.subarray(4 * count);
  if (offsets[0] !== 0) throw new Error('bucket head offsets do not start at 0');
  return { terms, dfs: all.subarray(0, count), fieldDfs: all.subarray(count, 4 * count), starts: offsets.subarray(0, count), ends: offsets.subarray(1) };
}

/** A version 1 head's numbers: five varints per term (df, the three field dfs, posting bytes). */
function decodeNumbersV1(r: VarintReader, terms: string[]): BucketHead {
  const count = terms.length;
  const dfs = new Uint32Array(count);
  const fieldDfs = new Uint32Array(count * 3);
  const starts = new Uint32Array(count);
  const ends = new Uint32Array(count);
  // A count past 32 bits is damage: a typed array would keep it modulo 2^32, quietly.
  const count32 = () => {
    const v = r.next();
    if (v > 0xffffffff) throw new Error(`bucket head holds a document frequency of ${v}`);
    return v;
  };
  let at = 0;
  for (let i = 0; i < count; i++) {
    dfs[i] = count32();
    fieldDfs[i * 3] = count32();
    fieldDfs[i * 3 + 1] = count32();
    fieldDfs[i * 3 + 2] = count32();
    starts[i] = at;
    at += r.next();
    if (at > 0xffffffff) throw new Error(`bucket head holds postings past 4 GiB`);
    ends[i] = at;
  }
  if (r.pos !== r.buf.length) throw new Error('bucket head has trailing bytes');
  return { terms, dfs, fieldDfs, starts, ends };
}

/**
 * Decode `df` postings at bytes [pos, end) of `bytes` (merging; queries score straight from the
 * bytes). They must fill that range exactly: a damaged offset in a head otherwise hands a term the
 * postings of its neighbour, and a merge would keep them.
 */
export function decodePostings(bytes: Uint8Array, pos: number, df: number, end: number): Postings {
  const r = new VarintReader(bytes, pos);
  const out: Postings = new Array(df * POSTING_WIDTH);
  let doc = 0;
  for (let i = 0; i < df; i++) {
    doc += r.next();
    const code = r.next();
    out[i * POSTING_WIDTH] = doc;
    out[i * POSTING_WIDTH + 1] = Math.floor(code / 4);
    out[i * POSTING_WIDTH + 2] = code & 1 ? r.next() : 0;
    out[i * POSTING_WIDTH + 3] = code & 2 ? r.next() : 0;
  }
  if (r.pos !== end) throw new Error(`postings end at ${r.pos}, their head says ${end}`);
  return out;
}

/** The first index in sorted `terms` whose term is not below `term` (where a prefix range starts). */
export function lowerBound(terms: readonly string[], term: string): number {
  let lo = 0;
  let hi = terms.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((terms[mid] as string) < term) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of `term` in sorted `terms`, or -1. */
export function findTerm(terms: readonly string[], term: string): number {
  const at = lowerBound(terms, term);
  return terms[at] === term ? at : -1;
}

// A doc's kind and phase share one u32 column entry.
const PHASES = 65536;
export const kindOrdinal = (kindPhase: number) => Math.floor(kindPhase / PHASES);
export const phaseOrdinal = (kindPhase: number) => kindPhase % PHASES;

/** Write a whole segment: documents in order (doc n is docs[n]) and their bucketed postings. */
export function encodeSegment(docs: readonly IndexedDoc[], buckets: Iterable<readonly [string, EncodedBucket]>): Uint8Array {
  const w = new ByteWriter();
  w.bytes(utf8.encode(MAGIC));
  const tables = {
    sessions: new Map<string, number>(),
    projects: new Map<string, number>(),
    kinds: new Map<string, number>(),
    phases: new Map<string, number>(),
  };
  const ord = (map: Map<string, number>, value: string) => {
    let n = map.get(value);
    if (n === undefined) {
      n = map.size;
      map.set(value, n);
    }
    return n;
  };
  const n = docs.length;
  const session = new Uint32Array(n);
  const project = new Uint32Array(n);
  const kindPhase = new Uint32Array(n);
  const lengths = new Uint32Array(n * 3);
  const time = new Float64Array(n);
  const fieldTokens: [number, number, number] = [0, 0, 0];
  const ids = Buffer.alloc(n * ID_BYTES);
  for (const [i, doc] of docs.entries()) {
    if (!/^[0-9a-f]{16}$/.test(doc.id)) throw new Error(`chunk id ${JSON.stringify(doc.id)} is not 16 hex characters`);
    ids.write(doc.id, i * ID_BYTES, 'latin1');
    session[i] = ord(tables.sessions, doc.session);
    project[i] = ord(tables.projects, doc.project);
    kindPhase[i] = ord(tables.kinds, doc.kind) * PHASES + Math.min(ord(tables.phases, doc.phase), PHASES - 1);
    for (let f = 0; f < 3; f++) {
      lengths[i * 3 + f] = doc.lengths[f] as number;
      fieldTokens[f] = (fieldTokens[f] as number) + (doc.lengths[f] as number);
    }
    time[i] = Number.isFinite(doc.time) ? doc.time : 0;
  }
  const order = Uint32Array.from(docs.keys()).sort((a, b) => {
    const x = docs[a]?.id ?? '';
    const y = docs[b]?.id ?? '';
    return x < y ? -1 : x > y ? 1 : 0;
  });
  const sortedIds = Buffer.alloc(n * ID_BYTES);
  for (const [i, doc] of order.entries()) sortedIds.write(docs[doc]?.id ?? '', i * ID_BYTES, 'latin1');

  const section = (data: Uint8Array | ArrayBufferView): Range => {
    w.align(8);
    const start = w.length;
    w.bytes(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    return [start, w.length - start];
  };
  const sections: Footer['sections'] = {
    ids: section(ids),
    sortedIds: section(sortedIds),
    order: section(order),
    session: section(session),
    project: section(project),
    kindPhase: section(kindPhase),
    lengths: section(lengths),
    time: section(time),
    files: section(utf8.encode(JSON.stringify(docs.map((d) => d.files.join('\n'))))),
  };
  const bucketRanges: Footer['buckets'] = {};
  for (const [key, { bytes, headLength }] of buckets) {
    const start = w.length;
    w.bytes(bytes);
    bucketRanges[key] = [start, headLength, bytes.length];
  }
  const footer: Footer = {
    version: SEGMENT_VERSION,
    docs: n,
    fieldTokens,
    sessions: [...tables.sessions.keys()],
    projects: [...tables.projects.keys()],
    kinds: [...tables.kinds.keys()],
    phases: [...tables.phases.keys()],
    sections,
    buckets: bucketRanges,
  };
  const footerBytes = utf8.encode(JSON.stringify(footer));
  w.bytes(footerBytes);
  const tail = Buffer.alloc(12);
  tail.writeUInt32LE(footerBytes.length, 0);
  tail.write(END, 4, 'latin1');
  w.bytes(tail);
  return w.result();
}

/** The part of a file a segment reader needs: positioned reads. */
export interface Source {
  readonly size: number;
  read(offset: number, length: number): Uint8Array;
  readInto(offset: number, target: ArrayBufferView): void;
  close(): void;
}

/** Read access to one segment; columns and buckets are read on first use and kept. */
export class SegmentReader {
  readonly footer: Footer;
  private readonly heads = new Map<string, BucketHead | null>();
  private columns: { session?: Uint32Array; project?: Uint32Array; kindPhase?: Uint32Array; lengths?: Uint32Array; time?: Float64Array } = {};
  private idBytes: Buffer | undefined;
  private fileLists: string[] | undefined;
  private sorted: { ids: Buffer; order: Uint32Array } | undefined;

  constructor(
    readonly name: string,
    private readonly source: Source,
  ) {
    if (source.size < MAGIC.length + 12) throw new IndexCorruptError(`${name}: too short for a segment (${source.size} bytes)`);
    const head = Buffer.from(source.read(0, MAGIC.length));
    const tail = Buffer.from(source.read(source.size - 12, 12));
    if (head.toString('latin1') !== MAGIC || tail.toString('latin1', 4) !== END) throw new IndexCorruptError(`${name}: not a segment file (truncated?)`);
    const length = tail.readUInt32LE(0);
    if (length > source.size - 12 - MAGIC.length) throw new IndexCorruptError(`${name}: footer length out of range`);
    let footer: Footer;
    try {
      footer = JSON.parse(fromUtf8.decode(source.read(source.size - 12 - length, length))) as Footer;
    } catch (error) {
      throw new IndexCorruptError(`${name}: footer is not JSON (${(error as Error).message})`);
    }
    if (footer.version !== SEGMENT_VERSION && footer.version !== 1)
      throw new IndexCorruptError(`${name}: unknown segment version ${JSON.stringify(footer.version)}`);
    if (typeof footer.docs !== 'number' || typeof footer.sections !== 'object' || typeof footer.buckets !== 'object')
      throw new IndexCorruptError(`${name}: footer lacks docs, sections or buckets`);
    for (const range of Object.values(footer.sections ?? {})) {
      if (!Array.isArray(range) || range.length !== 2 || range[0] + range[1] > source.size) throw new IndexCorruptError(`${name}: bad section range`);
    }
    // Bucket ranges are checked when a bucket is read (bucketRange): a query reads a few dozen of
    // hundreds (checking all of them here profiled at up to ~0.5 ms a segment, in code not yet optimised).
    if (footer.buckets === null || Array.isArray(footer.buckets)) throw new IndexCorruptError(`${name}: footer lacks docs, sections or buckets`);
    this.footer = footer;
  }

  get docs(): number {
    return this.footer.docs;
  }

  close(): void {
    this.source.close();
  }

  private u32(key: 'session' | 'project' | 'kindPhase' | 'lengths'): Uint32Array {
    const cached = this.columns[key];
    if (cached !== undefined) return cached;
    const [start, length] = this.footer.sections[key];
    const column = new Uint32Array(length / 4);
    this.source.readInto(start, column);
    this.columns[key] = column;
    return column;
  }

  session(): Uint32Array {
    return this.u32('session');
  }
  project(): Uint32Array {
    return this.u32('project');
  }
  /** kind ordinal × 65536 + phase ordinal: split with kindOrdinal() and phaseOrdinal(). */
  kindPhase(): Uint32Array {
    return this.u32('kindPhase');
  }
  lengths(): Uint32Array {
    return this.u32('lengths');
  }
  time(): Float64Array {
    if (this.columns.time !== undefined) return this.columns.time;
    const [start, length] = this.footer.sections.time;
    const column = new Float64Array(length / 8);
    this.source.readInto(start, column);
    this.columns.time = column;
    return column;
  }

  /** A doc's chunk id: one small read, or none after `loadIds()` (merging needs them all). */
  id(doc: number): string {
    if (this.idBytes !== undefined) return this.idBytes.toString('latin1', doc * ID_BYTES, (doc + 1) * ID_BYTES);
    return Buffer.from(this.source.read(this.footer.sections.ids[0] + doc * ID_BYTES, ID_BYTES)).toString('latin1');
  }

  loadIds(): void {
    const [start, length] = this.footer.sections.ids;
    this.idBytes ??= Buffer.from(this.source.read(start, length));
  }

  /** Files of a doc (the files column is read on first use: only `file:` filters need it). */
  files(doc: number): string[] {
    if (this.fileLists === undefined) {
      const [start, length] = this.footer.sections.files;
      this.fileLists = JSON.parse(fromUtf8.decode(this.source.read(start, length))) as string[];
    }
    const joined = this.fileLists[doc] ?? '';
    return joined === '' ? [] : joined.split('\n');
  }

  /** Doc number of a chunk id, or -1 (binary search over the sorted ids). */
  findId(id: string): number {
    if (this.sorted === undefined) {
      const [start, length] = this.footer.sections.sortedIds;
      const order = new Uint32Array(this.footer.sections.order[1] / 4);
      this.source.readInto(this.footer.sections.order[0], order);
      this.sorted = { ids: Buffer.from(this.source.read(start, length)), order };
    }
    const { ids: sorted, order } = this.sorted;
    let lo = 0;
    let hi = this.docs - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = sorted.toString('latin1', mid * ID_BYTES, (mid + 1) * ID_BYTES);
      if (at === id) return order[mid] as number;
      if (at < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** A bucket's head (terms, frequencies, postings offsets), read on first use and kept. */
  bucket(key: string): BucketHead | undefined {
    const cached = this.heads.get(key);
    if (cached !== undefined) return cached ?? undefined;
    const range = this.bucketRange(key);
    const head = range === undefined ? undefined : this.guard(() => decodeBucketHead(this.source.read(range[0], range[1]), this.footer.version));
    if (range !== undefined && head !== undefined && head.terms.length > 0 && head.ends[head.terms.length - 1] !== range[2] - range[1])
      throw new IndexCorruptError(`${this.name}: bucket ${key} postings do not add up`);
    this.heads.set(key, head ?? null);
    return head;
  }

  /** The postings bytes of terms first..last of a bucket, in one read; offsets relative to the head's starts. */
  postings(key: string, first: number, last: number): { bytes: Uint8Array; base: number } {
    const range = this.bucketRange(key);
    const head = this.bucket(key);
    if (range === undefined || head === undefined) throw new Error(`no bucket ${key}`);
    const base = head.starts[first] as number;
    const end = head.ends[last] as number;
    if (!(base <= end && end <= range[2] - range[1])) throw new IndexCorruptError(`${this.name}: bucket ${key} postings offsets out of range`);
    return { bytes: this.source.read(range[0] + range[1] + base, end - base), base };
  }

  /** A whole bucket in one read, not kept (merging reads each bucket once). */
  readBucket(key: string): { head: BucketHead; postings: Uint8Array } | undefined {
    const range = this.bucketRange(key);
    if (range === undefined) return undefined;
    const bytes = this.source.read(range[0], range[2]);
    const head = this.guard(() => decodeBucketHead(bytes.subarray(0, range[1]), this.footer.version));
    const postings = bytes.subarray(range[1]);
    if ((head.ends.at(-1) ?? 0) !== postings.length) throw new IndexCorruptError(`${this.name}: bucket ${key} postings do not add up`);
    return { head, postings };
  }

  /** A bucket's [offset, head length, total length], checked against the file; undefined when there is none. */
  private bucketRange(key: string): [number, number, number] | undefined {
    if (!Object.hasOwn(this.footer.buckets, key)) return undefined;
    const range = this.footer.buckets[key];
    if (
      !Array.isArray(range) ||
      range.length !== 3 ||
      !range.every((n) => Number.isInteger(n) && n >= 0) ||
      range[1] > range[2] ||
      range[0] + range[2] > this.source.size
    )
      throw new IndexCorruptError(`${this.name}: bad range of bucket ${key}`);
    return range;
  }

  /** Decoding errors of this segment as IndexCorruptError, naming it. */
  private guard<T>(fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      if (error instanceof IndexCorruptError) throw error;
      throw new IndexCorruptError(`${this.name}: ${(error as Error).message}`);
    }
  }

  /** Everything the index keeps of one doc (what a merge copies). */
  doc(d: number): IndexedDoc {
    const f = this.footer;
    const kindPhase = this.kindPhase()[d] as number;
    const lengths = this.lengths();
    return {
      id: this.id(d),
      session: f.sessions[this.session()[d] as number] ?? '',
      project: f.projects[this.project()[d] as number] ?? '',
      kind: f.kinds[kindOrdinal(kindPhase)] ?? '',
      phase: f.phases[phaseOrdinal(kindPhase)] ?? '',
      time: this.time()[d] as number,
      files: this.files(d),
      lengths: [lengths[d * 3] as number, lengths[d * 3 + 1] as number, lengths[d * 3 + 2] as number],
    };
  }

  bucketKeys(): string[] {
    return Object.keys(this.footer.buckets).sort();
  }
}
