import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogFile, chunkPath, writeChunks } from '../../lib/archive/archive-store.ts';
import { type Chunk, CUT_SHORT_NOTE, renderChunk } from '../../lib/archive/chunk-file.ts';
import { toolPartId } from '../../lib/archive/chunker.ts';
import { MONEY_TERM, moneyAmounts, tokenize } from '../../lib/archive/keywords.ts';
import { concatPostings, SegmentBuilder, TermCounter } from '../../lib/index/builder.ts';
import { ByteWriter, VarintReader } from '../../lib/index/bytes.ts';
import type { Manifest } from '../../lib/index/manifest.ts';
import { openIndex } from '../../lib/index/manifest.ts';
import { mergeSegments, refreshIndex } from '../../lib/index/refresh.ts';
import {
  bucketize,
  bucketOf,
  decodeBucketHead,
  decodePostings,
  encodeBucket,
  encodeSegment,
  type Footer,
  fieldDfsOf,
  findTerm,
  POSTING_WIDTH,
  type Postings,
  SegmentReader,
} from '../../lib/index/segment.ts';
import { startSegmentWorker } from '../../lib/index/segment-worker-client.ts';
import { parseQuery } from '../../lib/recall/query.ts';
import { cutOff, editDistance, type RecallResult, search, tells } from '../../lib/recall/search.ts';
import { tryLock } from '../../lib/runtime/lock.ts';
import type { Logger } from '../../lib/runtime/log.ts';
import { openRangeReader, openStore, type Store, writeFileAtomic } from '../../lib/runtime/store.ts';
import { captureLogger } from './helpers/logger.ts';
import { fixturePath } from './helpers/manifest.ts';
import { distDir } from './helpers/paths.ts';
import { prng } from './helpers/prng.ts';
import { baseEnv, type ProcEnv, type RunResult, readLog, runCli, runCliAsync } from './helpers/proc.ts';
import { scriptedTranscript } from './helpers/scripted-transcript.ts';
import { useTempDirs } from './helpers/tmp.ts';

const tempDir = useTempDirs('ctxl-index-');

// ---- helpers ----

/** Fixed "now" for queries (since:), and the base of chunk timestamps. */
const NOW = new Date('2025-06-10T00:00:00.000Z');
const DAY = 86_400_000;
const PROJECT = '/work/proj-main';
const OTHER_PROJECT = '/work/proj-other';

/** A chunk id as the chunker makes them: 16 lowercase hex characters. */
const hexId = (name: string) => createHash('sha256').update(name).digest('hex').slice(0, 16);

// Every chunk gets its own timestamp (unless given), so ties in a ranking break the same way
// whatever the segment layout.
let clock = 0;

function chunk(name: string, text: string, extra: Partial<Chunk> = {}): Chunk {
  clock += 1;
  return {
    version: 1,
    id: hexId(name),
    session: 'sess-a',
    project: PROJECT,
    phase: 'implementation',
    type: 'assistant',
    files: [],
    timestamp: new Date(NOW.getTime() - DAY + clock * 1000).toISOString(),
    sourceUuids: [`uuid-${name}`],
    keywords: [],
    title: name,
    text,
    ...extra,
  };
}

/**
 * A word no other chunk holds: `zq` + 8 random letters + `x`. Ending in x keeps the stemmer off it;
 * random letters keep any two such words more than two edits apart, so fuzzy matching cannot
 * confuse them.
 */
function planted(i: number): string {
  const rnd = prng(1000 + i);
  let w = 'zq';
  for (let k = 0; k < 8; k++) w += String.fromCharCode(97 + Math.floor(rnd() * 26));
  return `${w}x`;
}

const VOCAB = (
  'server config timeout parser render cache deploy branch commit schema widget buffer socket thread module vector matrix kernel ' +
  'router bundle plugin layout cursor format stream packet signal worker ledger configuration serialization authentication middleware'
).split(' ');

function fillerText(rnd: () => number, words: number): string {
  return Array.from({ length: words }, () => VOCAB[Math.floor(rnd() * VOCAB.length)]).join(' ');
}

function setup() {
  const root = tempDir();
  const data = join(root, 'data');
  const log = captureLogger();
  const store = openStore(data, log);
  return { root, data, log, store };
}

async function find(store: Store, log: Logger, raw: string, options: { projectRoot?: string; limit?: number } = {}): Promise<RecallResult[]> {
  return search(parseQuery(raw, NOW), { store, log, now: NOW, projectRoot: options.projectRoot, limit: options.limit ?? 100 });
}

const refsOf = (results: readonly RecallResult[]) => results.map((r) => r.ref);
const sortedRefs = (results: readonly RecallResult[]) => refsOf(results).sort();
const idsOf = (chunks: readonly Chunk[]) => chunks.map((c) => c.id).sort();

/** Chunks grouped by session, in order (Map.groupBy needs Node 21). */
function bySession(chunks: readonly Chunk[]): Map<string, Chunk[]> {
  const out = new Map<string, Chunk[]>();
  for (const c of chunks) out.set(c.session, [...(out.get(c.session) ?? []), c]);
  return out;
}

/** Ids of the live (not hidden) docs of the index, duplicates kept. */
function liveIds(store: Store, log: Logger): string[] {
  const view = openIndex(store, log);
  try {
    const out: string[] = [];
    for (const { reader, deleted } of view.segments) for (let d = 0; d < reader.docs; d++) if (!deleted.has(d)) out.push(reader.id(d));
    expect(view.docs).toBe(out.length);
    return out;
  } finally {
    view.close();
  }
}

/** Chunk ids of every chunk file on disk, over all sessions. */
function chunkIdsOnDisk(data: string): string[] {
  const sessions = join(data, 'sessions');
  const out: string[] = [];
  for (const sid of readdirSync(sessions)) {
    let files: string[] = [];
    try {
      files = readdirSync(join(sessions, sid, 'archived'));
    } catch {}
    for (const f of files) if (f.endsWith('.md')) out.push(f.slice(0, -3));
  }
  return out.sort();
}

const readManifest = (data: string) => JSON.parse(readFileSync(join(data, 'index', 'manifest.json'), 'utf8')) as Manifest;

/** Half of what writeChunks does: the chunk file without its catalog line, or catalog lines without their files. */
const writeChunkFileOnly = (store: Store, c: Chunk) => {
  mkdirSync(join(store.root, 'sessions', c.session, 'archived'), { recursive: true });
  writeFileAtomic(chunkPath(store, c.session, c.id), renderChunk(c));
};
const catalogLine = (id: string) => `${JSON.stringify({ v: 1, id })}\n`;
const appendCatalogOnly = (store: Store, sessionId: string, ids: readonly string[]) => {
  mkdirSync(join(store.root, 'sessions', sessionId), { recursive: true });
  appendFileSync(catalogFile(store, sessionId), ids.map(catalogLine).join(''));
};

/**
 * Expected postings of chunks put in a segment in this order: the tokenizer applied per field,
 * surface terms included, and the text's amounts of money as MONEY_TERM.
 */
function expectedPostings(chunks: readonly Chunk[]): Map<string, Postings> {
  const out = new Map<string, Postings>();
  chunks.forEach((c, doc) => {
    const counts = new Map<string, [number, number, number]>();
    [c.text, c.keywords.join(' '), c.files.join(' ')].forEach((field, f) => {
      for (const term of tokenize(field, undefined, true)) {
        const tf = counts.get(term) ?? [0, 0, 0];
        tf[f] = (tf[f] ?? 0) + 1;
        counts.set(term, tf);
      }
    });
    const money = moneyAmounts(c.text);
    if (money > 0) counts.set(MONEY_TERM, [money, 0, 0]);
    for (const [term, tf] of counts) {
      const list = out.get(term) ?? [];
      list.push(doc, ...tf);
      out.set(term, list);
    }
  });
  return out;
}

/**
 * Every term and its postings, read back bucket by bucket both ways a reader offers: whole
 * (merging) and head first, then the postings of one term by a positioned read (queries). Checks
 * that keys and terms are sorted and that each head's frequencies match its postings.
 */
function allPostings(reader: SegmentReader): Map<string, Postings> {
  const out = new Map<string, Postings>();
  const keys = reader.bucketKeys();
  expect(keys).toEqual([...keys].sort());
  for (const key of keys) {
    const whole = reader.readBucket(key);
    const head = reader.bucket(key);
    expect(whole).toBeDefined();
    if (whole === undefined || head === undefined) throw new Error(`bucket ${key} missing`);
    expect(head).toEqual(whole.head);
    expect(head.terms).toEqual([...head.terms].sort());
    head.terms.forEach((term, t) => {
      expect(bucketOf(term)).toBe(key);
      const postings = decodePostings(whole.postings, head.starts[t] as number, head.dfs[t] as number, head.ends[t] as number);
      const { bytes, base } = reader.postings(key, t, t);
      expect(decodePostings(bytes, (head.starts[t] as number) - base, head.dfs[t] as number, (head.ends[t] as number) - base)).toEqual(postings);
      expect(head.dfs[t]).toBe(postings.length / POSTING_WIDTH);
      expect(fieldDfsOf(head, t)).toEqual([1, 2, 3].map((f) => postings.filter((v, i) => i % POSTING_WIDTH === f && v > 0).length));
      out.set(term, postings);
    });
  }
  return out;
}

/** The postings of one term in a segment, or undefined when it has none. */
function termPostings(reader: SegmentReader, term: string): Postings | undefined {
  const bucket = reader.readBucket(bucketOf(term));
  const at = bucket === undefined ? -1 : findTerm(bucket.head.terms, term);
  if (bucket === undefined || at < 0) return undefined;
  return decodePostings(bucket.postings, bucket.head.starts[at] as number, bucket.head.dfs[at] as number, bucket.head.ends[at] as number);
}

function openReader(file: string, name = 'seg-test.bin'): SegmentReader {
  const source = openRangeReader(file);
  if (source === undefined) throw new Error(`${file} missing`);
  return new SegmentReader(name, source);
}

/** A segment as version 1 wrote it: each bucket head's numbers as varints, straight after its names. */
function asVersion1(reader: SegmentReader): Uint8Array {
  const varints = (values: number[]) => {
    const w = new ByteWriter();
    for (const v of values) w.varint(v);
    return [...w.result()];
  };
  reader.loadIds();
  const docs = Array.from({ length: reader.docs }, (_, d) => reader.doc(d));
  const buckets = reader.bucketKeys().map((key) => {
    const whole = reader.readBucket(key);
    if (whole === undefined) throw new Error(`bucket ${key} missing`);
    const { head, postings } = whole;
    const names = [...Buffer.from(head.terms.join('\n'))];
    const numbers = head.terms.flatMap((_, t) => [head.dfs[t] as number, ...fieldDfsOf(head, t), (head.ends[t] as number) - (head.starts[t] as number)]);
    const headBytes = [...varints([head.terms.length, names.length]), ...names, ...varints(numbers)];
    return [key, { bytes: Uint8Array.from([...headBytes, ...postings]), headLength: headBytes.length }] as const;
  });
  const bytes = Buffer.from(encodeSegment(docs, buckets));
  const at = bytes.lastIndexOf('"version":2');
  if (at < 0) throw new Error('no version in the footer');
  bytes.write('"version":1', at, 'latin1');
  return bytes;
}

/** The format version of an index segment of data dir `data`. */
function segmentVersion(data: string, name: string): number {
  const r = openReader(join(data, 'index', name));
  try {
    return r.footer.version;
  } finally {
    r.close();
  }
}

/** Rewrite every segment of data dir `data`'s index as version 1 wrote it, in place. */
function indexAsVersion1(data: string): void {
  for (const { name } of readManifest(data).segments) {
    const file = join(data, 'index', name);
    const current = openReader(file);
    const bytes = asVersion1(current);
    current.close();
    writeFileAtomic(file, bytes);
  }
}

interface CliRecall {
  query: string;
  results: Array<{ ref: string; score: number; sessionId: string; snippet: string }>;
}

// ---- 1. varints ----

describe('ByteWriter and VarintReader', () => {
  const VALUES = [0, 1, 127, 128, 255, 300, 16_383, 16_384, 2 ** 21, 2 ** 31 - 1, 2 ** 31, 2 ** 32 + 7, 2 ** 40, 2 ** 40 + 12_345, Number.MAX_SAFE_INTEGER];

  it('round-trips varints of every width, in sequence', () => {
    const w = new ByteWriter();
    for (const v of VALUES) w.varint(v);
    const r = new VarintReader(w.result());
    expect(VALUES.map(() => r.next())).toEqual(VALUES);
    expect(r.pos).toBe(w.length);
  });

  it('writes LEB128: 7 bits a byte, low group first, high bit set on all but the last', () => {
    const bytes = (v: number) => {
      const w = new ByteWriter();
      w.varint(v);
      return [...w.result()];
    };
    expect(bytes(0)).toEqual([0]);
    expect(bytes(127)).toEqual([0x7f]);
    expect(bytes(128)).toEqual([0x80, 0x01]);
    expect(bytes(300)).toEqual([0xac, 0x02]);
    expect(bytes(2 ** 31)).toEqual([0x80, 0x80, 0x80, 0x80, 0x08]);
    expect(bytes(2 ** 40)).toHaveLength(6);
  });

  it('grows past its first buffer and aligns with zero bytes', () => {
    const w = new ByteWriter();
    for (let i = 0; i < 1000; i++) w.varint(2 ** 31 + i); // 5 bytes each: well past 1 KiB
    w.bytes(new Uint8Array([9, 9, 9]));
    w.align(8);
    expect(w.length % 8).toBe(0);
    const out = w.result();
    expect(out.length).toBe(w.length);
    expect([...out.subarray(5003)]).toEqual(new Array(w.length - 5003).fill(0));
    const r = new VarintReader(out);
    for (let i = 0; i < 1000; i++) expect(r.next()).toBe(2 ** 31 + i);
  });

  it('throws on a truncated varint and on one too long to be a number', () => {
    const w = new ByteWriter();
    w.varint(2 ** 40);
    const whole = w.result();
    expect(() => new VarintReader(whole.subarray(0, whole.length - 1)).next()).toThrow(/past the end/);
    expect(() => new VarintReader(new Uint8Array(0)).next()).toThrow(/past the end/);
    expect(() => new VarintReader(new Uint8Array(12).fill(0x80)).next()).toThrow(/too long/);
    // A reader positioned at the end has nothing left either.
    expect(() => new VarintReader(whole, whole.length).next()).toThrow(/past the end/);
  });
});

// ---- 2. segments ----

describe('segment files', () => {
  const chunks = (): Chunk[] => [
    chunk('seg-1', 'The server timeout is configured in parseConfigFile; timeouts timeouts.', {
      keywords: ['parseConfigFile', 'timeout'],
      files: ['src/config/parse.ts'],
      session: 'sess-one',
      type: 'user',
      phase: 'planning',
    }),
    chunk('seg-2', 'Straße naïve café 日本語テキスト and x𝒳yz in one line', { session: 'sess-one', phase: 'implementation' }),
    chunk('seg-3', 'npm run build failed with ENOENT', {
      type: 'tool',
      tool: 'Bash',
      session: 'sess-two',
      project: OTHER_PROJECT,
      files: ['src/zygomorphic.ts', 'README'],
      keywords: ['ENOENT'],
    }),
    chunk('seg-4', 'summary of the work so far: £120 and $4.99 spent', { type: 'summary', session: 'sess-two', phase: '', timestamp: 'not a time' }),
    chunk('seg-5', 'server server server', { session: 'sess-three', type: 'tool', tool: 'Read', files: ['lib/a.ts', 'lib/b.ts', 'lib/c.ts'] }),
  ];

  function writeSegment(dir: string, list: readonly Chunk[]) {
    const builder = new SegmentBuilder();
    for (const c of list) builder.add(c);
    const file = join(dir, 'seg-test.bin');
    writeFileAtomic(file, builder.encode());
    return { builder, file };
  }

  it('reads back docs, columns, ids and files', () => {
    const list = chunks();
    const { builder, file } = writeSegment(tempDir(), list);
    const reader = openReader(file);
    try {
      expect(reader.docs).toBe(list.length);
      const f = reader.footer;
      const session = reader.session();
      const project = reader.project();
      const kindPhase = reader.kindPhase();
      const time = reader.time();
      const lengths = reader.lengths();
      const kinds = ['user', 'assistant', 'tool:Bash', 'summary', 'tool:Read'];
      list.forEach((c, d) => {
        expect(reader.id(d)).toBe(c.id);
        expect(f.sessions[session[d] as number]).toBe(c.session);
        expect(f.projects[project[d] as number]).toBe(c.project);
        expect(f.kinds[Math.floor((kindPhase[d] as number) / 65536)]).toBe(kinds[d]);
        expect(f.phases[(kindPhase[d] as number) % 65536]).toBe(c.phase);
        expect(time[d]).toBe(Number.isFinite(Date.parse(c.timestamp)) ? Date.parse(c.timestamp) : 0);
        const expected = [tokenize(c.text).length, tokenize(c.keywords.join(' ')).length, tokenize(c.files.join(' ')).length];
        expect([lengths[d * 3], lengths[d * 3 + 1], lengths[d * 3 + 2]]).toEqual(expected);
        expect(reader.files(d)).toEqual(c.files);
        expect(reader.findId(c.id)).toBe(d);
        // doc() (what a merge copies) gives back exactly what the builder stored.
        expect(reader.doc(d)).toEqual(builder.docs[d]);
      });
      expect(f.sessions).toEqual(['sess-one', 'sess-two', 'sess-three']);
      expect(reader.findId(hexId('not there'))).toBe(-1);
      expect(reader.findId('0000000000000000')).toBe(-1);
      expect(reader.findId('ffffffffffffffff')).toBe(-1);
      // Corpus figures for BM25: tokens per field over all docs.
      const sum = (f: number) => list.reduce((n, c) => n + tokenize([c.text, c.keywords.join(' '), c.files.join(' ')][f] ?? '').length, 0);
      expect(f.fieldTokens).toEqual([sum(0), sum(1), sum(2)]);
    } finally {
      reader.close();
    }
  });

  it('stores every term with the postings the chunks give, buckets and terms sorted', () => {
    const list = chunks();
    const { file } = writeSegment(tempDir(), list);
    const reader = openReader(file);
    try {
      const got = allPostings(reader);
      const expected = expectedPostings(list);
      expect(new Map([...got].sort())).toEqual(new Map([...expected].sort()));
      // tf per field: "server" 3× in seg-5's text, once in seg-1's.
      expect(got.get('server')).toEqual([0, 1, 0, 0, 4, 3, 0, 0]);
      // Two amounts of money in seg-4's text: one term for them, twice.
      expect(got.get(MONEY_TERM)).toEqual([3, 2, 0, 0]);
      // Keywords and text both count: "timeout" (stemmed from "timeouts") in seg-1's text and keywords.
      expect(got.get('timeout')).toEqual([0, 3, 1, 0]);
    } finally {
      reader.close();
    }
  });

  it('finds unicode terms, including one whose bucket key is half a surrogate pair', () => {
    const list = chunks();
    const { file } = writeSegment(tempDir(), list);
    const reader = openReader(file);
    try {
      for (const term of ['straße', 'naïve', 'café', '日本', 'テキ', 'x𝒳yz']) {
        expect(tokenize(list[1]?.text ?? '')).toContain(term);
        expect(termPostings(reader, term), term).toEqual([1, 1, 0, 0]);
      }
      // "x𝒳yz" starts with half of a surrogate pair: its bucket key must survive the JSON footer.
      expect(reader.bucketKeys()).toContain(bucketOf('x𝒳yz'));
    } finally {
      reader.close();
    }
  });

  it('keeps a term that only a file path holds in the files field', () => {
    const list = chunks();
    const { file } = writeSegment(tempDir(), list);
    const reader = openReader(file);
    try {
      // doc 2 (seg-3): not in the text nor the keywords, once in the files.
      expect(termPostings(reader, 'zygomorphic')).toEqual([2, 0, 0, 1]);
      const zy = reader.bucket(bucketOf('zygomorphic'));
      expect(zy === undefined ? undefined : fieldDfsOf(zy, findTerm(zy.terms, 'zygomorphic'))).toEqual([0, 0, 1]);
      expect(termPostings(reader, 'zygomorphicx')).toBeUndefined();
      expect(reader.bucket('qq')).toBeUndefined();
    } finally {
      reader.close();
    }
  });

  it('a bucket head with a document frequency past 32 bits is damage, not a small number', () => {
    const varints = (values: number[]) => {
      const out: number[] = [];
      for (let v of values) {
        while (v >= 128) {
          out.push((v % 128) | 128);
          v = Math.floor(v / 128);
        }
        out.push(v);
      }
      return out;
    };
    // Version 1 heads (numbers as varints) are still read, with the same checks.
    const name = [...Buffer.from('alpha')];
    const head = Uint8Array.from([...varints([1, name.length]), ...name, ...varints([2 ** 33, 1, 0, 0, 3])]);
    expect(() => decodeBucketHead(head, 1)).toThrow(/document frequency/);
    const fine = Uint8Array.from([...varints([1, name.length]), ...name, ...varints([2 ** 32 - 1, 1, 0, 0, 3])]);
    expect(decodeBucketHead(fine, 1).dfs[0]).toBe(2 ** 32 - 1);
    expect(() => decodeBucketHead(Uint8Array.from([...fine, 0]), 1)).toThrow(/trailing bytes/);
  });

  it('a version 2 head is read in place when aligned and copied when not, with the numbers version 1 held', () => {
    const terms: Array<[string, Postings]> = [
      ['beta', [0, 2, 1, 0, 9, 1, 0, 3]],
      ['betamax', [4, 0, 0, 1]],
      ['better', [1, 300, 0, 0, 2, 1, 0, 0, 70_000, 1, 2, 0]],
    ];
    const encoded = encodeBucket(terms);
    const headBytes = encoded.bytes.subarray(0, encoded.headLength);
    const fresh = new Uint8Array(headBytes); // offset 0: aligned
    const inPlace = decodeBucketHead(fresh);
    expect(inPlace.dfs.buffer).toBe(fresh.buffer);
    // The same bytes one byte into a buffer: not aligned for a u32 view, so copied.
    const shifted = new Uint8Array(headBytes.length + 1);
    shifted.set(headBytes, 1);
    const copied = decodeBucketHead(shifted.subarray(1));
    expect(copied.dfs.buffer).not.toBe(shifted.buffer);
    // Version 1 of the same bucket: the numbers as varints after the names, nothing between.
    const varints = (values: number[]) =>
      values.flatMap((value) => {
        const out: number[] = [];
        let v = value;
        while (v >= 128) {
          out.push((v % 128) | 128);
          v = Math.floor(v / 128);
        }
        out.push(v);
        return out;
      });
    const names = [...Buffer.from(terms.map(([t]) => t).join('\n'))];
    const numbers = [0, 1, 2].flatMap((t) => [
      inPlace.dfs[t] as number,
      ...fieldDfsOf(inPlace, t),
      (inPlace.ends[t] as number) - (inPlace.starts[t] as number),
    ]);
    const v1 = decodeBucketHead(Uint8Array.from([...varints([3, names.length]), ...names, ...varints(numbers)]), 1);
    for (const h of [inPlace, copied, v1]) {
      expect(h.terms).toEqual(['beta', 'betamax', 'better']);
      expect([...h.dfs]).toEqual([2, 1, 3]);
      expect([...h.fieldDfs]).toEqual([2, 1, 1, 0, 0, 1, 3, 1, 0]);
      expect([...h.starts]).toEqual([...inPlace.starts]);
      expect([...h.ends]).toEqual([...inPlace.ends]);
    }
    const body = encoded.bytes.subarray(encoded.headLength);
    terms.forEach(([, postings], i) => {
      expect(decodePostings(body, v1.starts[i] as number, v1.dfs[i] as number, v1.ends[i] as number)).toEqual(postings);
    });
    // Damage: offsets that do not start at 0, a head of the wrong length.
    const bad = new Uint8Array(headBytes);
    new DataView(bad.buffer).setUint32(bad.length - 16, 5, true);
    expect(() => decodeBucketHead(bad)).toThrow(/start at 0/);
    expect(() => decodeBucketHead(headBytes.subarray(0, headBytes.length - 4))).toThrow(/wrong length/);
  });

  it('encodes buckets with large doc gaps and term counts, and empty buckets', () => {
    const terms: Array<[string, Postings]> = [
      ['alpha', [0, 1, 0, 0, 5, 0, 2, 0, 2 ** 31, 3, 0, 7, 2 ** 40, 100_000, 1, 1]],
      ['alphabet', [7, 0, 0, 1]],
      ['alps', []],
    ];
    const encoded = encodeBucket(terms);
    const head = decodeBucketHead(encoded.bytes.subarray(0, encoded.headLength));
    expect(head.terms).toEqual(['alpha', 'alphabet', 'alps']);
    expect([...head.dfs]).toEqual([4, 1, 0]);
    expect([0, 1, 2].map((t) => fieldDfsOf(head, t))).toEqual([
      [3, 2, 2],
      [0, 0, 1],
      [0, 0, 0],
    ]);
    const body = encoded.bytes.subarray(encoded.headLength);
    expect(head.ends.at(-1)).toBe(body.length);
    terms.forEach(([, postings], i) => {
      expect(decodePostings(body, head.starts[i] as number, head.dfs[i] as number, head.ends[i] as number)).toEqual(postings);
    });
    expect(findTerm(head.terms, 'alphabet')).toBe(1);
    expect(findTerm(head.terms, 'alph')).toBe(-1);
    expect(findTerm(head.terms, 'zzz')).toBe(-1);
    expect(findTerm([], 'a')).toBe(-1);
    const empty = encodeBucket([]);
    expect(decodeBucketHead(empty.bytes.subarray(0, empty.headLength)).terms).toEqual([]);
    // A head cut short, or with bytes after it, is refused.
    expect(() => decodeBucketHead(encoded.bytes.subarray(0, encoded.headLength - 2))).toThrow();
    expect(() => decodeBucketHead(encoded.bytes.subarray(0, encoded.headLength + 1))).toThrow(/wrong length/);
    // Postings cut short run past the end.
    expect(() => decodePostings(body.subarray(0, body.length - 1), head.starts[1] as number, 1, head.ends[1] as number)).toThrow(/past the end/);
    // Postings that end before or after where the head says are damage (a neighbour's, or cut).
    expect(() => decodePostings(body, head.starts[0] as number, 4, (head.ends[0] as number) + 1)).toThrow(/their head says/);
  });

  it('bucketize groups terms by their first two characters, keys and terms in JS order', () => {
    const postings: Postings = [0, 1, 0, 0];
    const out = bucketize(
      new Map<string, Postings>([
        ['zeta', postings],
        ['alpha', postings],
        ['al', postings],
        ['b', postings],
        ['alp', postings],
        ['Éa', postings],
      ]),
    );
    expect(out.map(([key, list]) => [key, list.map(([t]) => t)])).toEqual([
      ['al', ['al', 'alp', 'alpha']],
      ['b', ['b']],
      ['ze', ['zeta']],
      ['Éa', ['Éa']],
    ]);
  });

  it('merges segments without their hidden docs, postings renumbered', () => {
    const dir = tempDir();
    const a = [chunk('m-a0', 'apple banana'), chunk('m-a1', 'cherry onlyhidden'), chunk('m-a2', 'apple cherry')];
    const b = [chunk('m-b0', 'banana'), chunk('m-b1', 'cherry apple apple')];
    const write = (name: string, list: Chunk[]) => {
      const builder = new SegmentBuilder();
      for (const c of list) builder.add(c);
      writeFileAtomic(join(dir, name), builder.encode());
      return openReader(join(dir, name), name);
    };
    const ra = write('a.bin', a);
    const rb = write('b.bin', b);
    const merged = mergeSegments([
      { reader: ra, deleted: new Set([1]) },
      { reader: rb, deleted: new Set() },
    ]);
    ra.close();
    rb.close();
    expect(merged.docs).toBe(4);
    writeFileAtomic(join(dir, 'm.bin'), merged.bytes);
    const rm = openReader(join(dir, 'm.bin'));
    try {
      const live = [a[0], a[2], b[0], b[1]] as Chunk[];
      expect(live.map((_, d) => rm.id(d))).toEqual(live.map((c) => c.id));
      expect(new Map([...allPostings(rm)].sort())).toEqual(new Map([...expectedPostings(live)].sort()));
      // A term only the hidden doc had is gone, not left with an empty posting list.
      expect(rm.bucket('on')?.terms ?? []).toEqual([]);
      expect(termPostings(rm, 'onlyhidden')).toBeUndefined();
    } finally {
      rm.close();
    }
    // concatPostings: segment order kept, -1 drops a doc.
    expect(
      concatPostings([
        { postings: [0, 1, 0, 0, 1, 2, 0, 0], remap: Int32Array.from([-1, 0]) },
        { postings: [0, 0, 1, 0], remap: Int32Array.from([1]) },
      ]),
    ).toEqual([0, 2, 0, 0, 1, 0, 1, 0]);
    expect(POSTING_WIDTH).toBe(4);
  });

  it('a version 1 segment (numbers of a head as varints) is searched as written and merged into version 2', () => {
    const dir = tempDir();
    const list = [chunk('v1-a', 'alpha beta gamma alphabet'), chunk('v1-b', 'beta delta alpha'), chunk('v1-c', 'omega alpine')];
    const builder = new SegmentBuilder();
    for (const c of list) builder.add(c);
    writeFileAtomic(join(dir, 'v2.bin'), builder.encode());
    const v2 = openReader(join(dir, 'v2.bin'), 'v2.bin');
    writeFileAtomic(join(dir, 'v1.bin'), asVersion1(v2));
    const v1 = openReader(join(dir, 'v1.bin'), 'v1.bin');
    try {
      expect(v1.footer.version).toBe(1);
      expect(v2.footer.version).toBe(2);
      const expected = new Map([...expectedPostings(list)].sort());
      expect(new Map([...allPostings(v1)].sort())).toEqual(expected);
      expect(new Map([...allPostings(v2)].sort())).toEqual(expected);
      // Merged with a version 2 segment, the result is version 2 and holds both.
      const merged = mergeSegments([
        { reader: v1, deleted: new Set() },
        { reader: v2, deleted: new Set() },
      ]);
      writeFileAtomic(join(dir, 'm.bin'), merged.bytes);
      const rm = openReader(join(dir, 'm.bin'));
      try {
        expect(rm.footer.version).toBe(2);
        expect(termPostings(rm, 'alpha')).toEqual([0, 1, 0, 0, 1, 1, 0, 0, 3, 1, 0, 0, 4, 1, 0, 0]);
      } finally {
        rm.close();
      }
    } finally {
      v1.close();
      v2.close();
    }
  });
});

// ---- 3. corruption ----

describe('corrupt segment files', () => {
  /** The same segment with its footer JSON replaced (and the length in the tail updated). */
  function rewriteFooter(bytes: Buffer, edit: (footer: Footer) => object): Buffer {
    const length = bytes.readUInt32LE(bytes.length - 12);
    const start = bytes.length - 12 - length;
    const footer = Buffer.from(JSON.stringify(edit(JSON.parse(bytes.toString('utf8', start, start + length)) as Footer)));
    const tail = Buffer.from(bytes.subarray(bytes.length - 12));
    tail.writeUInt32LE(footer.length, 0);
    return Buffer.concat([bytes.subarray(0, start), footer, tail]);
  }

  function segmentBytes(): Buffer {
    const builder = new SegmentBuilder();
    builder.add(chunk('c-1', 'alpha beta gamma'));
    builder.add(chunk('c-2', 'delta epsilon'));
    return Buffer.from(builder.encode());
  }

  const cases: Array<[string, (b: Buffer) => Buffer, RegExp]> = [
    ['truncated (tail cut off)', (b) => b.subarray(0, b.length - 5), /seg-test\.bin: not a segment file/],
    ['truncated to its first bytes', (b) => b.subarray(0, 6), /seg-test\.bin: too short/],
    ['empty', () => Buffer.alloc(0), /seg-test\.bin: too short/],
    [
      'wrong magic',
      (b) => {
        const c = Buffer.from(b);
        c.write('XTXLSEG\n', 0, 'latin1');
        return c;
      },
      /seg-test\.bin: not a segment file/,
    ],
    [
      'footer length out of range',
      (b) => {
        const c = Buffer.from(b);
        c.writeUInt32LE(c.length, c.length - 12);
        return c;
      },
      /seg-test\.bin: footer length out of range/,
    ],
    ['unknown footer version', (b) => rewriteFooter(b, (f) => ({ ...f, version: 9 })), /seg-test\.bin: unknown segment version 9/],
    ['a footer without its sections', (b) => rewriteFooter(b, ({ sections: _s, ...f }) => f), /seg-test\.bin: footer lacks/],
  ];

  it.each(cases)('%s: SegmentReader throws a clear error', (_name, damage, message) => {
    const file = join(tempDir(), 'seg-test.bin');
    writeFileSync(file, damage(segmentBytes()));
    expect(() => openReader(file)).toThrow(message);
  });

  it('a bucket range past the end of the file, or not three sizes, is refused when that bucket is read; the others read', () => {
    const bytes = segmentBytes();
    for (const bad of [[bytes.length - 4, 2, 100], [0, 5, 4], [1, 2], 'x']) {
      const file = join(tempDir(), 'seg-test.bin');
      writeFileSync(
        file,
        rewriteFooter(bytes, (f) => ({ ...f, buckets: { ...f.buckets, al: bad } })),
      );
      const reader = openReader(file);
      try {
        expect(() => reader.bucket('al')).toThrow(/seg-test\.bin: bad range of bucket al/);
        expect(() => reader.readBucket('al')).toThrow(/seg-test\.bin: bad range of bucket al/);
        expect(() => reader.postings('al', 0, 0)).toThrow(/seg-test\.bin: bad range of bucket al/);
        expect(reader.bucket(bucketOf('delta'))?.terms).toEqual(['delta']);
      } finally {
        reader.close();
      }
    }
  });

  it('a bucket whose postings do not add up is refused when read, naming the file', () => {
    const bytes = segmentBytes();
    const file = join(tempDir(), 'seg-test.bin');
    const key = bucketOf('alpha');
    writeFileSync(
      file,
      rewriteFooter(bytes, (f) => {
        const [start, head, total] = f.buckets[key] as [number, number, number];
        return { ...f, buckets: { ...f.buckets, [key]: [start, head, total - 1] } };
      }),
    );
    const reader = openReader(file);
    try {
      expect(() => reader.readBucket(key)).toThrow(/seg-test\.bin: bucket al postings do not add up/);
    } finally {
      reader.close();
    }
  });

  it('a footer that is not JSON makes SegmentReader throw, naming the file', () => {
    const bytes = segmentBytes();
    const length = bytes.readUInt32LE(bytes.length - 12);
    const c = Buffer.from(bytes);
    c.fill('#', c.length - 12 - length, c.length - 12);
    const file = join(tempDir(), 'seg-test.bin');
    writeFileSync(file, c);
    expect(() => openReader(file)).toThrow(/seg-test\.bin/);
  });
});

describe('corruption seen through the store: logged, then rebuilt', () => {
  async function indexed() {
    const env = setup();
    const list = [0, 1, 2, 3, 4, 5].map((i) => chunk(`corrupt-${i}`, `filler text ${planted(i)}`, { session: i < 3 ? 'sess-a' : 'sess-b' }));
    writeChunks(env.store, 'sess-a', list.slice(0, 3));
    writeChunks(env.store, 'sess-b', list.slice(3));
    await refreshIndex(env.store, env.log);
    const segments = readManifest(env.data).segments;
    expect(segments.length).toBeGreaterThan(0);
    return { ...env, list, segments };
  }

  async function expectAllFound(store: Store, log: Logger, list: readonly Chunk[], from = 0) {
    for (const [i, c] of list.entries()) expect(refsOf(await find(store, log, planted(from + i))), c.id).toEqual([c.id]);
  }

  it('a truncated segment is skipped with a log line, and the next refresh that has work rebuilds the index', async () => {
    const { data, store, log, list, segments } = await indexed();
    const seg = join(data, 'index', segments[0]?.name ?? '');
    truncateSync(seg, statSync(seg).size - 20);
    const view = openIndex(store, log);
    expect(view.segments.map((s) => s.reader.name)).not.toContain(segments[0]?.name);
    view.close();
    expect(log.lines.some((l) => l.level === 'warn' && /index segment seg-\d+\.bin: .*skipped/.test(l.message))).toBe(true);

    const extra = chunk('corrupt-6', `more text ${planted(6)}`, { session: 'sess-c' });
    writeChunks(store, 'sess-c', [extra]);
    const result = await refreshIndex(store, log);
    expect(result.complete).toBe(true);
    expect(log.lines.some((l) => l.level === 'warn' && /rebuilding the index/.test(l.message))).toBe(true);
    await expectAllFound(store, log, [...list, extra]);
    expect(liveIds(store, log).sort()).toEqual(idsOf([...list, extra]));
    // The damaged file is gone: the index folder holds the manifest and the segments it names.
    const manifest = readManifest(data);
    expect(readdirSync(join(data, 'index')).sort()).toEqual(['manifest.json', ...manifest.segments.map((s) => s.name)].sort());
  });

  it.each<[string, (file: string) => void]>([
    ['truncated', (file) => truncateSync(file, statSync(file).size - 20)],
    ['deleted', (file) => rmSync(file)],
  ])('a %s segment is repaired by the next search even when no chunk was added since', async (_name, damage) => {
    // openIndex says "the next refresh rebuilds the index"; search must not lose those chunks for good.
    const { data, store, log, list, segments } = await indexed();
    damage(join(data, 'index', segments[0]?.name ?? ''));
    await find(store, log, 'anything'); // the "next refresh"
    await expectAllFound(store, log, list);
  });

  it.each<[string, (offsets: DataView, count: number) => void]>([
    // Middle offsets one byte off: each term but the first would read from inside its neighbour's postings.
    [
      'middle postings offsets one byte off',
      (offsets, count) => {
        for (let t = 1; t < count; t++) offsets.setUint32(4 * t, offsets.getUint32(4 * t, true) - 1, true);
      },
    ],
    // The last end past the bucket.
    ['the last postings offset past the bucket', (offsets, count) => offsets.setUint32(4 * count, offsets.getUint32(4 * count, true) + 1000, true)],
  ])('a bucket head with %s makes the search rebuild the index, and it finds everything', async (_name, damage) => {
    const { data, store, log, list, segments } = await indexed();
    const file = join(data, 'index', segments[0]?.name ?? '');
    const reader = openReader(file);
    const bytes = readFileSync(file);
    let damaged = 0;
    for (const key of reader.bucketKeys()) {
      const [offset, headLength] = reader.footer.buckets[key] as [number, number, number];
      const count = new VarintReader(bytes, offset).next();
      if (count < 2) continue;
      const at = offset + headLength - 4 * (count + 1);
      damage(new DataView(bytes.buffer, bytes.byteOffset + at, 4 * (count + 1)), count);
      damaged += 1;
    }
    reader.close();
    expect(damaged).toBeGreaterThan(0);
    writeFileSync(file, bytes);
    await expectAllFound(store, log, list);
    expect(log.lines.some((l) => l.level === 'warn' && /^search index: .*(their head says|do not add up)/.test(l.message))).toBe(true);
    expect(liveIds(store, log).sort()).toEqual(idsOf(list));
  });

  it.each([
    ['not JSON', '{"version":1,"next":'],
    ['an unknown version', '{"version":99,"next":1,"segments":[],"catalogs":{},"deleted":{}}\n'],
    ['missing fields', '{"version":1}\n'],
  ])('a manifest that is %s is logged and the index rebuilt', async (_name, text) => {
    const { data, store, log, list } = await indexed();
    writeFileSync(join(data, 'index', 'manifest.json'), text);
    await expectAllFound(store, log, list);
    expect(log.lines.some((l) => l.level === 'warn' && /manifest\.json: .*the index will be rebuilt/.test(l.message))).toBe(true);
    expect(liveIds(store, log).sort()).toEqual(idsOf(list));
    // The segments of the lost manifest are leftovers now, and removed (their names may be reused).
    const manifest = readManifest(data);
    expect(manifest.segments.length).toBeGreaterThan(0);
    expect(readdirSync(join(data, 'index')).sort()).toEqual(['manifest.json', ...manifest.segments.map((s) => s.name)].sort());
  });
});

// ---- 4. incremental refresh ----

describe('incremental refresh', () => {
  it('finds every planted chunk exactly once, round after round, across sessions', async () => {
    const { store, log } = setup();
    const sessions = ['sess-a', 'sess-b', 'sess-c'];
    const rnd = prng(4);
    const written: Array<{ word: string; chunk: Chunk }> = [];
    let n = 0;
    for (let round = 0; round < 5; round++) {
      let added = 0;
      for (const [s, sid] of sessions.entries()) {
        // Round r adds r + s + 1 chunks to each session: segments of unequal sizes, so some merge.
        const list = Array.from({ length: round + s + 1 }, () => {
          const word = planted(100 + n);
          const c = chunk(`inc-${n}`, `${fillerText(rnd, 12)} ${word} ${fillerText(rnd, 5)}`, { session: sid });
          n += 1;
          written.push({ word, chunk: c });
          return c;
        });
        expect(writeChunks(store, sid, list).added).toBe(list.length);
        added += list.length;
      }
      const result = await refreshIndex(store, log);
      expect(result).toEqual({ indexed: added, complete: true });
      for (const { word, chunk: c } of written) expect(refsOf(await find(store, log, word)), word).toEqual([c.id]);
      const live = liveIds(store, log);
      expect(live.length).toBe(written.length);
      expect(new Set(live).size).toBe(live.length);
    }
    // Nothing new: the refresh does nothing.
    expect(await refreshIndex(store, log)).toEqual({ indexed: 0, complete: true });
  });

  it('a chunk written again with new text replaces its old copy: new words found, old ones not', async () => {
    const { store, log } = setup();
    const stub = chunk('rewrite-tool', `stub ${planted(200)}`, { type: 'tool', tool: 'Bash', session: 'sess-a' });
    const others = [1, 2, 3].map((i) => chunk(`rewrite-other-${i}`, `other ${planted(200 + i)}`, { session: 'sess-a' }));
    writeChunks(store, 'sess-a', [stub, ...others]);
    await refreshIndex(store, log);
    expect(refsOf(await find(store, log, planted(200)))).toEqual([stub.id]);

    // The full output of the same tool call lands later (its writer says so: writeChunks rewrites it).
    const full = { ...stub, text: `full output of the command, much longer than the stub ${planted(210)} and more words` };
    expect(writeChunks(store, 'sess-a', [full], { fullOutput: true }).updated).toBe(1);
    expect(await refreshIndex(store, log)).toEqual({ indexed: 1, complete: true });
    expect(refsOf(await find(store, log, planted(210)))).toEqual([stub.id]);
    expect(await find(store, log, planted(200))).toEqual([]);
    // A chunk listed again with more uuids (same text) stays one doc.
    const relisted = { ...(others[0] as Chunk), sourceUuids: ['uuid-extra'] };
    expect(writeChunks(store, 'sess-a', [relisted]).updated).toBe(1);
    await refreshIndex(store, log);
    const hits = await find(store, log, planted(201));
    expect(refsOf(hits)).toEqual([relisted.id]);
    expect(hits[0]?.sourceUuids).toEqual(['uuid-rewrite-other-1', 'uuid-extra']);
    const live = liveIds(store, log);
    expect(live.sort()).toEqual(idsOf([stub, ...others]));
  });
});

describe('refresh edge cases', () => {
  it('a deadline already past indexes nothing and says so; the next refresh catches up', async () => {
    const { store, log } = setup();
    const list = [0, 1, 2].map((i) => chunk(`deadline-${i}`, `text ${planted(250 + i)}`, { session: 'sess-a' }));
    writeChunks(store, 'sess-a', list);
    expect(await refreshIndex(store, log, { deadline: 0 })).toEqual({ indexed: 0, complete: false });
    expect(await refreshIndex(store, log)).toEqual({ indexed: 3, complete: true });
    expect(liveIds(store, log).sort()).toEqual(idsOf(list));
  });

  it('a session with chunk files and no catalog that no refresh has read yet is read from its folder', async () => {
    const { store, log } = setup();
    writeChunks(store, 'sess-live', [chunk('lost-live', `text ${planted(280)}`, { session: 'sess-live' })]);
    await refreshIndex(store, log);
    // Its catalog lost before any refresh read it (or a rebuild a deadline stopped never got to it).
    const lost = [0, 1].map((i) => chunk(`lost-${i}`, `text ${planted(281 + i)}`, { session: 'sess-lost' }));
    writeChunks(store, 'sess-lost', lost);
    rmSync(catalogFile(store, 'sess-lost'));
    expect(await refreshIndex(store, log)).toEqual({ indexed: 2, complete: true });
    expect(refsOf(await find(store, log, planted(282)))).toEqual([lost[1]?.id]);
    // Read once: the next refresh has nothing to do.
    expect(await refreshIndex(store, log)).toEqual({ indexed: 0, complete: true });
  });

  it('under a deadline reads the most recently written sessions first, so a rebuild it stops holds the current one', async () => {
    const { store, log } = setup();
    const at = (minutes: number) => new Date(NOW.getTime() - minutes * 60_000);
    for (const [session, minutes] of [
      ['sess-a', 300],
      ['sess-b', 1],
      ['sess-c', 60],
    ] as const) {
      writeChunks(
        store,
        session,
        [0, 1].map((i) => chunk(`order-${session}-${i}`, `text ${planted(270 + i)}`, { session })),
      );
      utimesSync(catalogFile(store, session), at(minutes), at(minutes));
    }
    await refreshIndex(store, log, { rebuild: true, deadline: Date.now() + 600_000 });
    const view = openIndex(store, log);
    try {
      const reader = (view.segments[0] as (typeof view.segments)[number]).reader;
      const order = [...reader.session()].map((ord) => reader.footer.sessions[ord]);
      expect(order).toEqual(['sess-b', 'sess-b', 'sess-c', 'sess-c', 'sess-a', 'sess-a']);
    } finally {
      view.close();
    }
  });

  it('a corrupt chunk file is logged and skipped without blocking the catalog; reindex picks it up once repaired', async () => {
    const { data, store, log } = setup();
    const first = chunk('bad-0', `first ${planted(260)}`, { session: 'sess-a' });
    writeChunks(store, 'sess-a', [first]);
    await refreshIndex(store, log);
    const bad = chunk('bad-1', `bad ${planted(261)}`, { session: 'sess-a' });
    const good = chunk('bad-2', `good ${planted(262)}`, { session: 'sess-a' });
    writeChunks(store, 'sess-a', [bad, good]);
    writeFileSync(chunkPath(store, 'sess-a', bad.id), '---\nversion: 1\nid: "'); // cut short mid-frontmatter
    expect(await refreshIndex(store, log)).toEqual({ indexed: 1, complete: true });
    expect(log.lines.some((l) => l.level === 'warn' && l.message.includes(`sess-a/${bad.id}`))).toBe(true);
    expect(readManifest(data).catalogs['sess-a']).toBe(statSync(catalogFile(store, 'sess-a')).size);
    expect(refsOf(await find(store, log, planted(262)))).toEqual([good.id]);
    expect(await find(store, log, planted(261))).toEqual([]);

    writeFileAtomic(chunkPath(store, 'sess-a', bad.id), renderChunk(bad));
    await refreshIndex(store, log, { rebuild: true });
    expect(refsOf(await find(store, log, planted(261)))).toEqual([bad.id]);
    expect(liveIds(store, log).sort()).toEqual(idsOf([first, bad, good]));
  });

  // Regression: a writer killed mid-append left a torn last catalog line; the next append was glued
  // onto it (one bad line), and the index, reading on from its old offset inside that line, never
  // listed the new chunk. No log line said so.
  it('a catalog line torn by a killed writer costs only itself: the next chunks start a new line and are indexed, and the refresh says so', async () => {
    const { data, store, log } = setup();
    const first = [0, 1].map((i) => chunk(`torn-${i}`, `before the cut ${planted(280 + i)}`, { session: 'sess-a' }));
    writeChunks(store, 'sess-a', first);
    await refreshIndex(store, log);
    const catalog = catalogFile(store, 'sess-a');
    truncateSync(catalog, statSync(catalog).size - 5);
    const next = [2, 3].map((i) => chunk(`torn-${i}`, `after the cut ${planted(280 + i)}`, { session: 'sess-a' }));
    writeChunks(store, 'sess-a', next);
    const lines = readFileSync(catalog, 'utf8').split('\n');
    expect(lines.filter((l) => l.includes(next[0]?.id ?? '?'))).toEqual([JSON.stringify({ v: 1, id: next[0]?.id })]);
    await refreshIndex(store, log);
    for (const [i, c] of [...first, ...next].entries()) expect(refsOf(await find(store, log, planted(280 + i)))).toEqual([c.id]);
    expect(liveIds(store, log).sort()).toEqual(idsOf([...first, ...next]));
    expect(log.lines.filter((l) => l.level === 'warn' && /catalog of session sess-a: 1 unreadable line/.test(l.message))).toHaveLength(1);
    expect(readManifest(data).catalogs['sess-a']).toBe(statSync(catalog).size);
  });

  it('a segment of the older format is read as it is, and rewritten in the current one: by a hook one per refresh within its limit, never past its deadline; by the CLI all', async () => {
    const { data, store, log } = setup();
    // Two segments that no merge takes in (40 > 2 × 12, and what comes later is smaller): a rewrite is what updates them.
    const a = Array.from({ length: 40 }, (_, i) => chunk(`old-a${i}`, `format words ${planted(300 + i)}`, { session: 'sess-a' }));
    const b = Array.from({ length: 12 }, (_, i) => chunk(`old-b${i}`, `format words ${planted(350 + i)}`, { session: 'sess-b' }));
    writeChunks(store, 'sess-a', a);
    await refreshIndex(store, log);
    writeChunks(store, 'sess-b', b);
    await refreshIndex(store, log);
    expect(readManifest(data).segments.map((s) => s.docs)).toEqual([40, 12]);
    const version = (name: string) => segmentVersion(data, name);
    const toVersion1 = () => indexAsVersion1(data);
    /** Format of the 40- and the 12-doc segment. */
    const versions = () => [40, 12].map((docs) => version(readManifest(data).segments.find((s) => s.docs === docs)?.name ?? '?'));
    toVersion1();
    expect(versions()).toEqual([1, 1]);
    const before = await find(store, log, 'format');
    expect(sortedRefs(before)).toEqual(idsOf([...a, ...b]));
    // A refresh writes only when there is something new: one more chunk before each.
    let n = 0;
    const more = () => {
      writeChunks(store, 'sess-c', [chunk(`old-c${n}`, `other words ${planted(400 + n)}`, { session: 'sess-c' })]);
      n += 1;
    };
    // Past its deadline a refresh starts nothing.
    more();
    await refreshIndex(store, log, { deadline: Date.now() - 1 });
    expect(versions()).toEqual([1, 1]);
    // A hook (a deadline): one per refresh, the first in order within its merge limit.
    more();
    await refreshIndex(store, log, { deadline: Date.now() + 60_000, maxMergeDocs: 100 });
    expect(versions()).toEqual([2, 1]);
    more();
    await refreshIndex(store, log, { deadline: Date.now() + 60_000, maxMergeDocs: 100 });
    expect(versions()).toEqual([2, 2]);
    // Within its merge limit only.
    toVersion1();
    more();
    await refreshIndex(store, log, { deadline: Date.now() + 60_000, maxMergeDocs: 20 });
    expect(versions()).toEqual([1, 2]);
    // The CLI (no deadline): all of them, in their places.
    toVersion1();
    more();
    await refreshIndex(store, log);
    expect(readManifest(data).segments.map((s) => version(s.name))).toEqual(readManifest(data).segments.map(() => 2));
    expect(
      readManifest(data)
        .segments.slice(0, 2)
        .map((s) => s.docs),
    ).toEqual([40, 12]);
    const upgraded = await find(store, log, 'format');
    expect(sortedRefs(upgraded)).toEqual(sortedRefs(before));
    expect(log.lines.some((l) => /format updated/.test(l.message))).toBe(true);
    // Scores and order as an index built afresh gives them.
    await refreshIndex(store, log, { rebuild: true });
    expect(await find(store, log, 'format')).toEqual(upgraded);
  });

  it('a hook refresh of several batches still rewrites one old-format segment in all', async () => {
    const { data, store, log } = setup();
    writeChunks(
      store,
      'sess-a',
      Array.from({ length: 40 }, (_, i) => chunk(`batch-a${i}`, `alpha ${planted(500 + i)}`, { session: 'sess-a' })),
    );
    await refreshIndex(store, log);
    writeChunks(
      store,
      'sess-b',
      Array.from({ length: 12 }, (_, i) => chunk(`batch-b${i}`, `beta ${planted(550 + i)}`, { session: 'sess-b' })),
    );
    await refreshIndex(store, log);
    const old = readManifest(data).segments.map((s) => s.name);
    indexAsVersion1(data);
    // Two batches (4,000 chunks each) in one refresh: flush, and the rewrites after it, run twice.
    writeChunks(
      store,
      'sess-c',
      Array.from({ length: 4_001 }, (_, i) => chunk(`batch-c${i}`, `gamma ${i}`, { session: 'sess-c' })),
    );
    await refreshIndex(store, log, { deadline: Date.now() + 600_000, maxMergeDocs: 100 });
    expect(log.lines.filter((l) => /format updated/.test(l.message))).toHaveLength(1);
    const versions = readManifest(data)
      .segments.filter((s) => old.includes(s.name) || s.docs === 40 || s.docs === 12)
      .map((s) => segmentVersion(data, s.name));
    expect(versions.sort()).toEqual([1, 2]);
  });

  it('a segment with no live doc left is dropped, not rewritten empty at every refresh', async () => {
    const { data, store, log } = setup();
    const a = Array.from({ length: 40 }, (_, i) => chunk(`drop-a${i}`, `alpha ${planted(600 + i)}`, { session: 'sess-a' }));
    writeChunks(store, 'sess-a', a);
    await refreshIndex(store, log);
    writeChunks(
      store,
      'sess-b',
      Array.from({ length: 12 }, (_, i) => chunk(`drop-b${i}`, `beta ${planted(650 + i)}`, { session: 'sess-b' })),
    );
    await refreshIndex(store, log);
    const [, middle] = readManifest(data).segments;
    expect(middle?.docs).toBe(12);
    // The session is gone: every doc of its segment is hidden.
    rmSync(join(data, 'sessions', 'sess-b'), { recursive: true });
    for (let round = 0; round < 3; round++) {
      writeChunks(store, 'sess-c', [chunk(`drop-c${round}`, `gamma ${planted(700 + round)}`, { session: 'sess-c' })]);
      await refreshIndex(store, log, { deadline: Date.now() + 60_000, maxMergeDocs: 20_000 });
    }
    const names = readManifest(data).segments.map((s) => s.name);
    expect(names).not.toContain(middle?.name);
    expect(readdirSync(join(data, 'index')).sort()).toEqual(['manifest.json', ...names].sort());
    expect(log.lines.filter((l) => /dropped seg-\d+\.bin \(no live doc/.test(l.message))).toHaveLength(1);
    expect(log.lines.filter((l) => /compacted/.test(l.message))).toHaveLength(0);
    for (const [i, c] of a.entries()) expect(refsOf(await find(store, log, planted(600 + i)))).toEqual([c.id]);
    expect(await find(store, log, planted(650))).toEqual([]);
  });

  it('a chunk file removed after indexing is left out of the results with a log line', async () => {
    const { store, log } = setup();
    const list = [0, 1, 2].map((i) => chunk(`gone-${i}`, `shared words here ${planted(270 + i)}`, { session: 'sess-a' }));
    writeChunks(store, 'sess-a', list);
    await refreshIndex(store, log);
    rmSync(chunkPath(store, 'sess-a', list[1]?.id ?? ''));
    expect(sortedRefs(await find(store, log, 'shared words'))).toEqual(idsOf([list[0], list[2]] as Chunk[]));
    expect(log.lines.some((l) => l.level === 'warn' && l.message.includes(`${list[1]?.id}: missing`))).toBe(true);
  });
});

describe('term expansion', () => {
  it('matches by prefix from 5 characters and within edits from 7, exact matches first', async () => {
    const { store, log } = setup();
    const long = chunk('exp-long', 'the deployment finished', { session: 'sess-a' });
    const short = chunk('exp-short', 'deploy it now', { session: 'sess-a' });
    const other = chunk('exp-other', 'nothing related', { session: 'sess-a' });
    writeChunks(store, 'sess-a', [long, short, other]);
    // "deploy" is a whole term of one chunk and a prefix of the other's.
    expect(refsOf(await find(store, log, 'deploy'))).toEqual([short.id, long.id]);
    expect(refsOf(await find(store, log, 'deploymen'))).toEqual([long.id]);
    // Two edits (a swap) in a 10-character term are within reach; in a short term they are not.
    expect(refsOf(await find(store, log, 'deploymnet'))).toEqual([long.id]);
    expect(await find(store, log, 'dpeloy')).toEqual([]);
    // Prefixes shorter than 5 characters do not expand.
    expect(await find(store, log, 'depl')).toEqual([]);
  });

  it('ranks the one chunk holding a word above chunks holding only its near misses, many of them', async () => {
    const { store, log } = setup();
    const filler = 'the build printed some lines about the render queue and the socket buffer';
    const letters = 'abcdefghijklmnopqrstuvw';
    const variant = (k: number) => `zqkappa${letters[k % 23]}${letters[Math.floor(k / 23) % 23]}c`;
    const holder = chunk('fz-holder', `${filler} zqkappawwc ${filler}`, { session: 'sess-a' });
    const others = Array.from({ length: 8 }, (_, m) =>
      chunk(
        `fz-${m}`,
        `${filler} ${Array.from({ length: 30 }, (_, k) => variant(m * 30 + k))
          .filter((v) => v !== 'zqkappawwc')
          .join(' ')}`,
        { session: 'sess-a' },
      ),
    );
    writeChunks(store, 'sess-a', [holder, ...others]);
    expect(refsOf(await find(store, log, 'zqkappawwc'))[0]).toBe(holder.id);
    // A word the archive does not hold still finds its near misses (a typo).
    expect(await find(store, log, 'zqkappawwq')).not.toEqual([]);
  });

  it('counts a query word once in a doc that holds it in several forms (its best form, a tenth of the rest)', async () => {
    const { store, log } = setup();
    // AccessDenied gives the terms `accessdenied` and `access`: both forms of the word "access".
    const plain = chunk('dm-plain', 'access was granted to the deploy role', { session: 'sess-a' });
    const compound = chunk('dm-compound', 'AccessDenied for the deploy role', { session: 'sess-a' });
    const filler = Array.from({ length: 8 }, (_, i) => chunk(`dm-filler-${i}`, `filler line ${i} about deploys`, { session: 'sess-a' }));
    writeChunks(store, 'sess-a', [plain, compound, ...filler]);
    const results = await find(store, log, 'access');
    // Summed, the compound's two forms outscored the plain word (6.2 against 4.7).
    expect(refsOf(results)).toEqual([plain.id, compound.id]);
    const [a, b] = results.map((r) => r.score) as [number, number];
    expect(b).toBeGreaterThan(a * 0.9);
  });
});

describe('surface terms', () => {
  it("ranks the chunk that says a question's word as it was above chunks that share only its stem", async () => {
    const { store, log } = setup();
    // run is in every npm script line; "running" is said once, in a longer message.
    const said = chunk('sf-said', 'I went out running this morning before work, then had coffee and read the news for a while', { session: 'sess-a' });
    const scripts = Array.from({ length: 8 }, (_, i) => chunk(`sf-run-${i}`, `npm run build ${i} then npm run test`, { session: 'sess-a' }));
    writeChunks(store, 'sess-a', [said, ...scripts]);
    expect(refsOf(await find(store, log, 'running'))[0]).toBe(said.id);
    // Asked by the stem's other form, the surface term does not apply: the word's usual ranking.
    expect(refsOf(await find(store, log, 'run'))[0]).not.toBe(said.id);
  });
});

describe('writeChunks giving a split output the transcript uuids', () => {
  it('writes the later parts before the first, so a run killed between them finds the first without the uuids and starts again', () => {
    const { store } = setup();
    const hash = (identity: string) => createHash('sha256').update(identity).digest('hex').slice(0, 16);
    const toolUseId = 'toolu_parts';
    const part = (k: number, uuids: string[]) =>
      chunk(`part-${k}`, `output part ${k}`, {
        type: 'tool',
        tool: 'Bash',
        toolUseId,
        part: [k + 1, 3],
        sourceUuids: uuids,
        id: toolPartId(hash, 'sess-a', toolUseId, k),
      });
    writeChunks(store, 'sess-a', [part(0, []), part(1, []), part(2, [])], { hash });
    const order: string[] = [];
    writeChunks(store, 'sess-a', [part(0, ['use-1', 'result-1'])], { hash, sink: (_sid, c) => order.push(c.id) });
    expect(order).toEqual([part(1, []).id, part(2, []).id, part(0, []).id]);
  });

  it("adds no part past the last of an output archived whole in fewer parts (a Read's numbered lines run longer)", () => {
    const { store } = setup();
    const hash = (identity: string) => createHash('sha256').update(identity).digest('hex').slice(0, 16);
    const toolUseId = 'toolu_read';
    const part = (k: number, of: number, text: string) =>
      chunk(`read-${k}-${of}`, text, {
        type: 'tool',
        tool: 'Read',
        toolUseId,
        part: [k + 1, of],
        sourceUuids: ['use-1', 'result-1'],
        id: toolPartId(hash, 'sess-a', toolUseId, k),
      });
    // PostToolUse: the file's own text, in three parts.
    expect(writeChunks(store, 'sess-a', [part(0, 3, 'a'), part(1, 3, 'b'), part(2, 3, 'c')], { hash, fullOutput: true }).added).toBe(3);
    // The transcript pass: the numbered lines, in four; the fourth holds the end again.
    const r = writeChunks(store, 'sess-a', [part(0, 4, '1→a'), part(1, 4, '2→b'), part(2, 4, '3→c'), part(3, 4, '4→c again')], { hash });
    expect(r.added).toBe(0);
    expect(existsSync(chunkPath(store, 'sess-a', part(3, 4, '').id))).toBe(false);
  });
});

describe('a question about what the assistant said', () => {
  it("ranks the assistant's reply to the user's matching question first, past a tool call, though it shares no word with the question", async () => {
    const { store, log } = setup();
    const asked = chunk('you-asked', 'the upload test fails one run in ten, what should I do about the flaky upload test', { type: 'user' });
    const tool = chunk('you-tool', 'ran the suite twenty times: 2 failures in upload.test.ts', { type: 'tool', tool: 'Bash' });
    const reply = chunk('you-reply', 'Freeze time with a fake clock and retry the network call once; the race is in the timer.', { type: 'assistant' });
    const later = chunk('you-later', 'next: rename the helpers', { type: 'user' });
    const other = chunk('you-other', 'The upload test now passes with the larger fixture.', { type: 'assistant' });
    writeChunks(store, 'sess-a', [asked, tool, reply, later, other]);
    expect(refsOf(await find(store, log, 'what did you suggest I do about the flaky upload test?'))[0]).toBe(reply.id);
    // Asked about the test itself, the user's words and the tool output lead as before.
    expect(refsOf(await find(store, log, 'flaky upload test'))[0]).toBe(asked.id);
  });
});

describe('the words of a question that say when', () => {
  it('are not searched for: "two weeks ago" does not find "two weekends ago" said another time', async () => {
    const { store, log } = setup();
    // NOW is 10 June 2025: two weeks ago is the week of 27 May.
    const old = chunk('when-old', 'two weekends ago I ran twelve miles, the longest run yet; bought new socks after', {
      type: 'user',
      timestamp: '2025-03-01T12:00:00.000Z',
    });
    const span = chunk('when-span', 'picked up a folding bike at the market, bought it for 120', { type: 'user', timestamp: '2025-05-28T12:00:00.000Z' });
    writeChunks(store, 'sess-a', [old, span]);
    expect(refsOf(await find(store, log, 'what did I buy two weeks ago'))[0]).toBe(span.id);
  });
});

describe('a question about the user', () => {
  it("ranks the user's own telling of a fact first when only the reply to it shares the question's words", async () => {
    const { store, log } = setup();
    const told = chunk('me-told', 'small change: the swim lessons moved to Thursdays at 4:45, the Tuesday class got cancelled', { type: 'user' });
    const reply = chunk('me-reply', 'Thanks for the update: so the day your daughter is in the pool is Thursday now.', { type: 'assistant' });
    const asked = chunk('me-asked', 'any ideas for the lesson nerves?', { type: 'user' });
    const tool = chunk('me-tool', 'searched: beginner swimmer anxiety', { type: 'tool', tool: 'WebSearch' });
    const advice = chunk('me-advice', 'For your daughter in the pool: short visits, play first, and praise every small step.', { type: 'assistant' });
    writeChunks(store, 'sess-a', [told, reply, asked, tool, advice]);
    const refs = refsOf(await find(store, log, 'what day is my daughter in the pool?'));
    expect(refs.slice(0, 2)).toEqual([told.id, reply.id]);
    // Asked for the latest, the newer reply may lead; the telling stays beside it.
    expect(refsOf(await find(store, log, 'what day is my daughter in the pool these days?')).slice(0, 2)).toContain(told.id);
    // A request before a reply ("any ideas…?") tells nothing: it is not pulled up past the tool call.
    expect(refs).not.toContain(asked.id);
    // "you": the question asks what the assistant should do; the user's words are found by their own.
    expect(refsOf(await find(store, log, 'what should you keep in mind about my daughter in the pool?'))).not.toContain(told.id);
  });

  it('tells a statement from a question or a request', () => {
    for (const statement of [
      'we locked the refi! 5.99% fixed',
      'update on Pepper: the diet worked. what should she eat now?',
      'When I took Pepper in on Monday, the vet switched her to a hydrolyzed protein diet.',
      'Where we landed: 5.99% fixed for 30 years.',
      "Can't believe it, the swim lessons moved to Thursdays at 4:45.",
      'Which reminds me, the lease ends in June.',
      'How it ended: we locked the refi at 5.99%.',
    ])
      expect(tells(statement), statement).toBe(true);
    for (const asking of [
      'should I take a job offer with a longer commute',
      'any ideas for a wedding favour people actually want?',
      'Can you suggest a route? Please keep it short.',
      'Draft an email to the coach about the schedule change.',
      'Fix the failing test in my parser.',
      'Write me a haiku about my cat',
      'Remind me what my dog eats',
      'what is a good stretch for tight hips',
      '',
    ])
      expect(tells(asking), asking).toBe(false);
  });

  it('pulls no request up, and reads "what did I tell you" as a question about the user', async () => {
    const { store, log } = setup();
    const order = chunk('me2-order', 'Draft an email to the coach about the schedule change.', { type: 'user' });
    const email = chunk('me2-email', 'Here is the email: Hi Coach, my daughter is in the pool on Thursdays now, at 4:45.', { type: 'assistant' });
    const told = chunk('me2-told', 'small change: the swim lessons moved to Thursdays at 4:45', { type: 'user', session: 'sess-b' });
    const reply = chunk('me2-reply', 'Noted: your daughter is in the pool on Thursdays from now on.', { type: 'assistant', session: 'sess-b' });
    writeChunks(store, 'sess-a', [order, email]);
    writeChunks(store, 'sess-b', [told, reply]);
    const refs = refsOf(await find(store, log, 'what day is my daughter in the pool?'));
    expect(refs).not.toContain(order.id);
    expect(refs).toContain(told.id);
    expect(refsOf(await find(store, log, 'what day did I tell you my daughter is in the pool?'))).toContain(told.id);
  });
});

describe('a long query', () => {
  it('scores each word once (said again, up to three times its weight) and searches its first 64 distinct words', async () => {
    const { store, log } = setup();
    const a = chunk('long-a', 'the pelican queue retries', { session: 'sess-a' });
    const b = chunk('long-b', 'a walrus in the queue', { session: 'sess-a' });
    writeChunks(store, 'sess-a', [a, b]);
    const thrice = await find(store, log, 'pelican pelican pelican queue');
    const often = await find(store, log, `${'pelican '.repeat(3000)}queue`);
    expect(often.map((r) => [r.ref, r.score])).toEqual(thrice.map((r) => [r.ref, r.score]));
    expect(refsOf(await find(store, log, 'pelican queue'))).toEqual(refsOf(thrice));
    // Past the first 64 distinct words, a word is not searched.
    const filler = Array.from({ length: 64 }, (_, i) => `filler${i}x`).join(' ');
    expect(await find(store, log, `${filler} walrus`)).toEqual([]);
  });
});

describe('a forked session', () => {
  it('returns a saying once when a fork copied its entries (same uuids and text, another session); another saying of the same uuid stays', async () => {
    const { store, log } = setup();
    const text = 'we settled on the pelican queue for retries';
    const original = chunk('fork-original', text, { session: 'sess-a', sourceUuids: ['u-1'] });
    const copy = chunk('fork-copy', text, { session: 'sess-b', sourceUuids: ['u-1'] });
    const edited = chunk('fork-edited', `${text}, with a cap`, { session: 'sess-b', sourceUuids: ['u-1'] });
    writeChunks(store, 'sess-a', [original]);
    writeChunks(store, 'sess-b', [copy, edited]);
    const refs = refsOf(await find(store, log, 'pelican queue'));
    expect(refs).toHaveLength(2);
    expect(refs).toContain(edited.id);
    expect(refs.filter((r) => r === original.id || r === copy.id)).toHaveLength(1);
  });
});

describe('a relation the question names', () => {
  it("finds what was said of it by the name the user gave it: my partner's job, said of Leo only", async () => {
    const { store, log } = setup();
    const intro = chunk('alias-intro', 'Gift planning: my partner Leo turns 40 in August.', { session: 'sess-a', type: 'user' });
    const job = chunk('alias-job', 'Leo has a mountain of chemistry lab reports to grade from his classes at East High.', { session: 'sess-b', type: 'user' });
    const other = chunk('alias-other', 'Job queue: the partner API grades requests by key.', { session: 'sess-c', type: 'user' });
    const noise = chunk('alias-noise', 'the job runner picks a job from the queue, job by job', { session: 'sess-c', type: 'assistant' });
    writeChunks(store, 'sess-a', [intro]);
    writeChunks(store, 'sess-b', [job]);
    writeChunks(store, 'sess-c', [other, noise]);
    // The job's chunk holds no word of the question: the name brings it in.
    expect(refsOf(await find(store, log, "what's my partner's job"))).toContain(job.id);
    // Without my, partner is no relation of the user's: no name joins.
    expect(refsOf(await find(store, log, 'partner job'))).not.toContain(job.id);
  });
});

describe('a hedge of when or how much', () => {
  it('counts for little: "around" is rare in an archive, and about nothing asked', async () => {
    const { store, log } = setup();
    const bonk = chunk('hedge-bonk', 'eating on the bike is my weak spot, I always bonk around km 70', { session: 'sess-a', type: 'user' });
    const dst = chunk('hedge-dst', 'Across the daylight saving switch the delivery windows shift by an hour: build them in local time.', {
      session: 'sess-b',
      type: 'assistant',
    });
    // The words of the question are common in the archive; "around" is not.
    const filler = Array.from({ length: 8 }, (_, i) =>
      chunk(`hedge-filler-${i}`, `job ${i}: the build took an hour; ${i % 2 === 0 ? 'windows' : 'shift'} ${i} noted in the log with other words`, {
        session: `sess-f${i}`,
      }),
    );
    writeChunks(store, 'sess-a', [bonk]);
    writeChunks(store, 'sess-b', [dst]);
    for (const c of filler) writeChunks(store, c.session, [c]);
    const refs = refsOf(await find(store, log, 'why did the windows shift by an hour around the clock change'));
    expect(refs[0]).toBe(dst.id);
    expect(refs.indexOf(bonk.id)).toBeGreaterThan(2);
  });
});

describe('one tool call run in many sessions', () => {
  it('shows two of its copies before the other results, and the rest after them', async () => {
    const { store, log } = setup();
    // Four sessions ran the same `git log`; its output holds the query's words more often than the
    // one message that answers it.
    const log4 = Array.from({ length: 4 }, (_, i) =>
      chunk(`gitlog-${i}`, `Bash: git log --oneline\n\n${i}a1 fix flaky retry test\n${i}b2 fix flaky retry test again\n${i}c3 retry test`, {
        session: `sess-${i}`,
        type: 'tool',
        tool: 'Bash',
        title: 'Bash: git log --oneline',
      }),
    );
    const answer = chunk('answer', 'the flaky retry test was fixed by awaiting the queue drain', { session: 'sess-9', type: 'user' });
    for (const c of log4) writeChunks(store, c.session, [c]);
    writeChunks(store, 'sess-9', [answer]);
    const all = refsOf(await find(store, log, 'flaky retry test'));
    expect(all).toHaveLength(5);
    expect(all.indexOf(answer.id)).toBe(2);
    expect(new Set(all.slice(3))).toEqual(new Set(log4.map((c) => c.id).filter((id) => !all.slice(0, 2).includes(id))));
    // A limit keeps the same order: the copies past the second wait for the others.
    expect(refsOf(await find(store, log, 'flaky retry test', { limit: 3 }))).toEqual(all.slice(0, 3));
  });

  it.each([60, 250])('reads past the candidates it re-ranks when %i copies of one call fill them all', async (copies) => {
    const { store, log } = setup();
    // `docker compose ps` in every session, each listing the redis container twice: more copies
    // than the pool of candidates a query ranks first (250: more than are read past it, all tied,
    // which the pool keeps whole); the one message about redis says it once.
    const ps = Array.from({ length: copies }, (_, i) =>
      chunk(`ps-${i}`, 'Bash: docker compose ps\n\nNAME STATUS\napp-redis-1 redis:7-alpine Up 2 hours', {
        session: `sess-${i}`,
        type: 'tool',
        tool: 'Bash',
        title: 'Bash: docker compose ps',
      }),
    );
    const answer = chunk('redis-answer', 'we moved the session store to redis with a one day TTL and a much longer description of why', {
      session: 'sess-answer',
      type: 'assistant',
    });
    for (const c of ps) writeChunks(store, c.session, [c]);
    writeChunks(store, 'sess-answer', [answer]);
    const refs = refsOf(await find(store, log, 'redis', { limit: 10 }));
    expect(refs).toHaveLength(10);
    expect(refs.indexOf(answer.id)).toBe(2);
    // What comes from further down holds the asked word.
    expect(new Set(refs)).toEqual(new Set(refs.filter((r) => r === answer.id || ps.some((c) => c.id === r))));
  });

  it('counts the parts of one long output as one call, and calls with other heads apart', async () => {
    const { store, log } = setup();
    // One call's output in three parts, and three edits of one file with different strings.
    const parts = [1, 2, 3].map((p) =>
      chunk(`log-part-${p}`, `Bash: npm test\n\npart ${p}: flaky retry test failed`, {
        type: 'tool',
        tool: 'Bash',
        title: 'Bash: npm test',
        toolUseId: 'toolu_one',
        part: [p, 3],
      }),
    );
    const edits = [1, 2, 3].map((e) =>
      chunk(`edit-${e}`, `Edit: /src/retry.ts\nold_string: flaky${e}\nnew_string: retry test ${e}\n\nThe file was updated`, {
        type: 'tool',
        tool: 'Edit',
        title: 'Edit: /src/retry.ts',
      }),
    );
    writeChunks(store, 'sess-a', [...parts, ...edits]);
    const answer = chunk('answer-2', 'a retry note', { session: 'sess-b', type: 'user' });
    writeChunks(store, 'sess-b', [answer]);
    const all = refsOf(await find(store, log, 'flaky retry test'));
    // Nothing of these waits: none is a third copy of a call.
    expect(all.indexOf(answer.id)).toBe(all.length - 1);
  });
});

// ---- 5. merges ----

describe('merging segments', () => {
  const QUERIES = ['server config', 'timeout', 'rende', 'kernelz', 'configuratoin middleware', 'socket thread worker', '"cache deploy"'];

  function corpus(): Chunk[] {
    const rnd = prng(5);
    return Array.from({ length: 200 }, (_, i) =>
      chunk(`merge-${i}`, fillerText(rnd, 5 + Math.floor(rnd() * 30)), {
        session: ['sess-a', 'sess-b', 'sess-c'][i % 3] as string,
        keywords: rnd() < 0.3 ? [VOCAB[Math.floor(rnd() * VOCAB.length)] as string] : [],
        files: rnd() < 0.2 ? [`src/${VOCAB[Math.floor(rnd() * VOCAB.length)]}.ts`] : [],
      }),
    );
  }

  async function ranking(store: Store, log: Logger) {
    const out: Record<string, Array<[string, number]>> = {};
    for (const q of QUERIES) out[q] = (await find(store, log, q, { limit: 1000 })).map((r) => [r.ref, r.score]);
    return out;
  }

  it('ranks the same whether built at once, through 200 small refreshes, or rebuilt; segments stay O(log n)', async () => {
    const list = corpus();
    const once = setup();
    for (const [sid, l] of bySession(list)) writeChunks(once.store, sid, l);
    await refreshIndex(once.store, once.log);
    expect(readManifest(once.data).segments).toHaveLength(1);
    const expected = await ranking(once.store, once.log);
    for (const q of QUERIES) expect(expected[q]?.length, q).toBeGreaterThan(0);

    const small = setup();
    let maxSegments = 0;
    for (const [i, c] of list.entries()) {
      writeChunks(small.store, c.session, [c]);
      expect(await refreshIndex(small.store, small.log)).toEqual({ indexed: 1, complete: true });
      const segments = readManifest(small.data).segments;
      maxSegments = Math.max(maxSegments, segments.length);
      expect(segments.length, `after ${i + 1} chunks`).toBeLessThanOrEqual(2 * Math.log2(i + 1) + 2);
      expect(segments.reduce((n, s) => n + s.docs, 0)).toBe(i + 1);
    }
    expect(maxSegments).toBeGreaterThan(1); // it did keep several segments at times, so merges ran
    expect(readdirSync(join(small.data, 'index')).filter((f) => f.endsWith('.bin'))).toHaveLength(readManifest(small.data).segments.length);
    expect(await ranking(small.store, small.log)).toEqual(expected);

    await refreshIndex(small.store, small.log, { rebuild: true });
    expect(await ranking(small.store, small.log)).toEqual(expected);
    expect(liveIds(small.store, small.log).sort()).toEqual(idsOf(list));
  });
});

// ---- 6. catalog lines without their file ----

describe('a catalog line whose chunk file is missing', () => {
  async function indexedSession() {
    const env = setup();
    const first = [0, 1].map((i) => chunk(`late-${i}`, `first ${planted(300 + i)}`, { session: 'sess-a' }));
    writeChunks(env.store, 'sess-a', first);
    await refreshIndex(env.store, env.log);
    return { ...env, first };
  }

  it('near the end of the catalog: the refresh stops there and picks it up once the file appears', async () => {
    const { data, store, log } = await indexedSession();
    const late = chunk('late-2', `late ${planted(302)}`, { session: 'sess-a' });
    const after = chunk('late-3', `after ${planted(303)}`, { session: 'sess-a' });
    const before = statSync(catalogFile(store, 'sess-a')).size;
    appendCatalogOnly(store, 'sess-a', [late.id, after.id]);
    writeChunkFileOnly(store, after); // the next chunk's file is there, the late one's is not yet

    await refreshIndex(store, log);
    expect(readManifest(data).catalogs['sess-a']).toBe(before); // stopped at the line of the missing file
    expect(await find(store, log, planted(302))).toEqual([]);

    writeChunkFileOnly(store, late);
    await refreshIndex(store, log);
    expect(readManifest(data).catalogs['sess-a']).toBe(statSync(catalogFile(store, 'sess-a')).size);
    expect(refsOf(await find(store, log, planted(302)))).toEqual([late.id]);
    expect(refsOf(await find(store, log, planted(303)))).toEqual([after.id]);
    expect(liveIds(store, log)).toHaveLength(4);
  });

  it('far behind the end (more than 256 KB of catalog after it): skipped with a log line', async () => {
    const { data, store, log, first } = await indexedSession();
    const lost = chunk('late-lost', `lost ${planted(310)}`, { session: 'sess-a' });
    const more = chunk('late-more', `more ${planted(311)}`, { session: 'sess-a' });
    writeChunkFileOnly(store, more);
    // One line (no file ever: a crash), then 300 KB of lines listing a chunk that exists.
    const relist = catalogLine(more.id);
    appendCatalogOnly(store, 'sess-a', [lost.id]);
    appendFileSync(catalogFile(store, 'sess-a'), relist.repeat(Math.ceil((300 * 1024) / relist.length)));

    expect(await refreshIndex(store, log)).toEqual({ indexed: 1, complete: true });
    expect(readManifest(data).catalogs['sess-a']).toBe(statSync(catalogFile(store, 'sess-a')).size);
    expect(refsOf(await find(store, log, planted(311)))).toEqual([more.id]);
    expect(liveIds(store, log).sort()).toEqual(idsOf([...first, more]));
    expect(log.lines.some((l) => l.level !== 'debug' && l.message.includes(lost.id))).toBe(true);
  });

  it("a session's first indexing does not lose a chunk whose file lands just after (a writer mid-way)", async () => {
    // writeChunks appends the catalog lines first, then writes the files. A refresh that sees a new
    // session in between must still index the chunk once its file is there.
    const { data, store, log } = await indexedSession();
    const done = chunk('new-0', `done ${planted(320)}`, { session: 'sess-new' });
    const inFlight = chunk('new-1', `in flight ${planted(321)}`, { session: 'sess-new' });
    appendCatalogOnly(store, 'sess-new', [done.id, inFlight.id]);
    writeChunkFileOnly(store, done);
    await refreshIndex(store, log);
    expect(refsOf(await find(store, log, planted(320)))).toEqual([done.id]);

    writeChunkFileOnly(store, inFlight);
    await refreshIndex(store, log);
    expect(refsOf(await find(store, log, planted(321)))).toEqual([inFlight.id]);
    expect(liveIds(store, log).sort()).toEqual(chunkIdsOnDisk(data));
  });

  it("a session's first indexing takes the files listed past a line it stopped at, and the read past that line does not take them again", async () => {
    // Another process archives the session meanwhile: the catalog read stops at a file not yet
    // written, and a file listed after it is already there. Indexed by the folder listing and again
    // from the catalog, its older copy was hidden but still counted in every score.
    const { data, store, log } = await indexedSession();
    const done = chunk('once-0', `done ${planted(330)}`, { session: 'sess-once' });
    const inFlight = chunk('once-1', `in flight ${planted(331)}`, { session: 'sess-once' });
    const after = chunk('once-2', `after ${planted(332)} shared words`, { session: 'sess-once' });
    appendCatalogOnly(store, 'sess-once', [done.id, inFlight.id, after.id]);
    writeChunkFileOnly(store, done);
    writeChunkFileOnly(store, after);
    const first = await refreshIndex(store, log);
    expect(refsOf(await find(store, log, planted(330)))).toEqual([done.id]);
    expect(refsOf(await find(store, log, planted(332)))).toEqual([after.id]); // at once, not after the stall

    writeChunkFileOnly(store, inFlight);
    const second = await refreshIndex(store, log);
    // Three chunks, three docs indexed in all (a merge may drop a second copy later, not this count).
    expect(first.indexed + second.indexed).toBe(3);
    expect(Object.values(readManifest(data).deleted).flat()).toEqual([]);
    expect(readManifest(data).ahead?.['sess-once']).toBeUndefined(); // the read got past it
    expect(liveIds(store, log).sort()).toEqual(chunkIdsOnDisk(data));
    // Scores equal those of an index built once from the same files.
    const expected = await find(store, log, 'shared words');
    await refreshIndex(store, log, { rebuild: true });
    expect(await find(store, log, 'shared words')).toEqual(expected);
  });

  it('a rebuild indexes at once the chunks listed after a line whose writer died (no file ever), and skips that line a minute later', async () => {
    const { data, store, log } = await indexedSession();
    const dead = chunk('dead-0', `never written ${planted(340)}`, { session: 'sess-dead' });
    const after = chunk('dead-1', `after the dead line ${planted(341)}`, { session: 'sess-dead' });
    appendCatalogOnly(store, 'sess-dead', [dead.id, after.id]);
    writeChunkFileOnly(store, after);
    expect(await refreshIndex(store, log, { rebuild: true })).toEqual({ indexed: 3, complete: true });
    expect(refsOf(await find(store, log, planted(341)))).toEqual([after.id]);
    // A minute later the dead line is skipped; the chunk after it is not indexed twice.
    const m = readManifest(data);
    const stalled = m.stalled?.['sess-dead'];
    expect(stalled).toBeDefined();
    writeFileSync(join(data, 'index', 'manifest.json'), JSON.stringify({ ...m, stalled: { 'sess-dead': { ...stalled, since: Date.now() - 120_000 } } }));
    expect((await refreshIndex(store, log)).indexed).toBe(0);
    expect(Object.values(readManifest(data).deleted).flat()).toEqual([]);
    expect(readManifest(data).catalogs['sess-dead']).toBe(statSync(catalogFile(store, 'sess-dead')).size);
    expect(liveIds(store, log).sort()).toEqual(chunkIdsOnDisk(data));
  });
});

// ---- 7. sessions removed or reset ----

describe('removed and reset sessions', () => {
  async function twoSessions() {
    const env = setup();
    const a = [0, 1, 2].map((i) => chunk(`rm-a${i}`, `alpha ${planted(400 + i)}`, { session: 'sess-a' }));
    const b = [0, 1, 2].map((i) => chunk(`rm-b${i}`, `beta ${planted(410 + i)}`, { session: 'sess-b' }));
    writeChunks(env.store, 'sess-a', a);
    writeChunks(env.store, 'sess-b', b);
    await refreshIndex(env.store, env.log);
    return { ...env, a, b };
  }

  it('a deleted session folder: its chunks are no longer returned', async () => {
    const { data, store, log, a, b } = await twoSessions();
    rmSync(join(data, 'sessions', 'sess-b'), { recursive: true });
    expect(await find(store, log, planted(410))).toEqual([]);
    expect(sortedRefs(await find(store, log, 'alpha beta'))).toEqual(idsOf(a));
    expect(liveIds(store, log).sort()).toEqual(idsOf(a));
    for (const c of b) expect(await find(store, log, planted(410 + b.indexOf(c)))).toEqual([]);
  });

  it('a deleted session is forgotten by the manifest, so the next refresh is a no-op again', async () => {
    const { data, store, log } = await twoSessions();
    rmSync(join(data, 'sessions', 'sess-b'), { recursive: true });
    await refreshIndex(store, log);
    expect(Object.keys(readManifest(data).catalogs)).toEqual(['sess-a']);
    // "Cheap when nothing changed (no lock)": with the index lock held elsewhere, a refresh that has
    // nothing to do still completes; one that wants the lock gives up (waitMs 0) and says so.
    const release = tryLock(join(data, 'index', 'manifest.json'));
    expect(release).toBeDefined();
    try {
      expect(await refreshIndex(store, log, { waitMs: 0 })).toEqual({ indexed: 0, complete: true });
    } finally {
      release?.();
    }
  });

  it('the no-op check itself: with nothing changed, a refresh never waits for the lock', async () => {
    const { data, store, log } = await twoSessions();
    const release = tryLock(join(data, 'index', 'manifest.json'));
    try {
      expect(await refreshIndex(store, log, { waitMs: 0 })).toEqual({ indexed: 0, complete: true });
      writeChunks(store, 'sess-a', [chunk('rm-a9', 'one more')]);
      expect(await refreshIndex(store, log, { waitMs: 0 })).toEqual({ indexed: 0, complete: false });
    } finally {
      release?.();
    }
    expect(await refreshIndex(store, log)).toEqual({ indexed: 1, complete: true });
  });

  it('a shrunk catalog: the session is read again from its folder', async () => {
    const { data, store, log, a, b } = await twoSessions();
    // Two chunk files of sess-b are removed and its catalog rewritten shorter (say, by a cleanup).
    const [kept, gone1, gone2] = b as [Chunk, Chunk, Chunk];
    rmSync(chunkPath(store, 'sess-b', gone1.id));
    rmSync(chunkPath(store, 'sess-b', gone2.id));
    writeFileSync(catalogFile(store, 'sess-b'), catalogLine(kept.id));
    await refreshIndex(store, log);
    expect(refsOf(await find(store, log, planted(410)))).toEqual([kept.id]);
    expect(await find(store, log, planted(411))).toEqual([]);
    expect(await find(store, log, planted(412))).toEqual([]);
    expect(liveIds(store, log).sort()).toEqual(idsOf([...a, kept]));
    expect(readManifest(data).catalogs['sess-b']).toBe(statSync(catalogFile(store, 'sess-b')).size);
    // New chunks after the reset are read from the catalog as usual.
    const next = chunk('rm-b3', `beta again ${planted(413)}`, { session: 'sess-b' });
    writeChunks(store, 'sess-b', [next]);
    expect(refsOf(await find(store, log, planted(413)))).toEqual([next.id]);
    expect(liveIds(store, log).sort()).toEqual(idsOf([...a, kept, next]));
  });
});

// ---- 8. real processes ----

/** A copy of a real transcript as another session, with a planted word in its first prompt. */
function variantTranscript(dir: string, source: string, sessionId: string, word: string): string {
  const lines = readFileSync(source, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  let planted = false;
  const out = lines.map((line) => {
    const entry = JSON.parse(line) as Record<string, unknown> & { message?: { content?: unknown } };
    if (typeof entry.sessionId === 'string') entry.sessionId = sessionId;
    if (!planted && entry.type === 'user' && typeof entry.message?.content === 'string') {
      entry.message.content = `${entry.message.content} ${word}`;
      planted = true;
    }
    return JSON.stringify(entry);
  });
  expect(planted).toBe(true);
  const file = join(dir, `${sessionId}.jsonl`);
  writeFileSync(file, `${out.join('\n')}\n`);
  return file;
}

/** A data dir and a project folder for CLI runs; the CLI logs at `logLevel`. */
function cliSetup(logLevel?: 'debug') {
  const root = tempDir();
  const data = join(root, 'data');
  const proj = join(root, 'proj');
  mkdirSync(proj);
  const env = baseEnv(root, { CTXL_HOME: data, ...(logLevel === undefined ? {} : { CTXL_LOG_LEVEL: logLevel }) });
  return { root, data, proj, env };
}

/**
 * A transcript of `steps` prompts, each followed by a Bash call with its output (about two chunks a
 * step: enough steps start ctxl ingest's segment worker); `word(i)` is planted in prompt i.
 */
function bigTranscript(o: {
  root: string;
  proj: string;
  sessionId: string;
  steps: number;
  seed: number;
  word: (i: number) => string | undefined;
  words?: number;
}): string {
  const rnd = prng(o.seed);
  const t = scriptedTranscript(o.sessionId, o.proj);
  for (let i = 0; i < o.steps; i++) {
    const word = o.word(i);
    t.user(`step ${i}: ${fillerText(rnd, o.words ?? 10)}${word === undefined ? '' : ` ${word}`}`);
    t.tool('Bash', { command: `npm test -- part${i}` }, `${fillerText(rnd, 3 * (o.words ?? 10))}\nTests ${i} passed`);
  }
  const file = join(o.root, `${o.sessionId}.jsonl`);
  t.write(file);
  return file;
}

/** `ctxl ingest` of each file in turn, while `readers` recall processes query in loops (at least twice each). */
async function ingestWhileRecalling(o: {
  files: readonly string[];
  readers: number;
  query: (reader: number, round: number) => string[];
  env: ProcEnv;
  root: string;
  proj: string;
}) {
  let writing = true;
  const writer = (async () => {
    const out: RunResult[] = [];
    try {
      for (const file of o.files) out.push(await runCliAsync(['ingest', file, '--cwd', o.proj, '--json'], o.env, o.root));
    } finally {
      writing = false;
    }
    return out;
  })();
  const reader = async (k: number) => {
    const out: RunResult[] = [];
    // More rounds while the writer is still going (bounded either way).
    for (let round = 0; round < 40 && (round < 2 || writing); round++) {
      out.push(await runCliAsync(['recall', '--cwd', o.proj, '--limit', '5', '--json', '--', ...o.query(k, round)], o.env, o.root));
    }
    return out;
  };
  const [ingests, ...recalls] = await Promise.all([writer, ...Array.from({ length: o.readers }, (_, k) => reader(k))]);
  return { ingests, recalls: recalls.flat() };
}

/** Every chunk file on disk is live in the index, once. */
function expectEachChunkOnce(data: string): void {
  const log = captureLogger();
  const live = liveIds(openStore(data, log), log);
  expect(new Set(live).size).toBe(live.length); // no chunk twice
  expect(live.sort()).toEqual(chunkIdsOnDisk(data)); // and none lost
}

describe('the CLI as concurrent processes', () => {
  it('6 recall processes racing an ingesting process leave an index without duplicates or losses', async () => {
    const root = tempDir();
    const data = join(root, 'data');
    const proj = join(root, 'proj');
    mkdirSync(proj);
    const env = baseEnv(root, { CTXL_HOME: data });
    const crud = fixturePath('tomjnsn__agentlogs/crud.jsonl');
    const words = [0, 1, 2, 3, 4].map((i) => planted(500 + i));
    const variants = words.map((w, i) => variantTranscript(root, crud, `0000000${i}-aaaa-4bbb-8ccc-dddddddddddd`, w));
    const realOnes = ['tomjnsn__agentlogs/todos.jsonl', 'tomjnsn__agentlogs/compact.jsonl'].map(fixturePath);

    // A first session indexed before the race, so the recalls have something to read from the start.
    const seed = runCli(['ingest', variants[0] as string, '--cwd', proj, '--json'], env, root);
    expect(seed.status, seed.stderr).toBe(0);

    const { ingests, recalls } = await ingestWhileRecalling({
      files: [...variants.slice(1), ...realOnes],
      readers: 6,
      query: (k, round) => [words[(k + round) % words.length] as string, 'joke'],
      env,
      root,
      proj,
    });
    for (const r of ingests) expect(r.status, r.stderr).toBe(0);
    for (const r of recalls) {
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      expect(Array.isArray((JSON.parse(r.stdout) as CliRecall).results)).toBe(true);
    }

    expectEachChunkOnce(data);
    for (const [i, word] of words.entries()) {
      const r = runCli(['recall', '--cwd', proj, '--limit', '5', '--json', '--', word], env, root);
      expect(r.status, r.stderr).toBe(0);
      const results = (JSON.parse(r.stdout) as CliRecall).results;
      expect(
        results.map((x) => x.sessionId),
        word,
      ).toEqual([`0000000${i}-aaaa-4bbb-8ccc-dddddddddddd`]);
      expect(results[0]?.snippet).toContain(word);
    }
    expect(readLog(data).filter((l) => l.level === 'warn' || l.level === 'error')).toEqual([]);
  }, 120_000);

  it('recall processes racing an ingest whose index the worker builds leave an index without duplicates or losses', async () => {
    const { root, data, proj, env } = cliSetup('debug');
    const words = Array.from({ length: 6 }, (_, i) => planted(950 + i));
    const sessions = ['00000010-aaaa-4bbb-8ccc-dddddddddddd', '00000011-aaaa-4bbb-8ccc-dddddddddddd'];
    const files = sessions.map((sessionId, k) =>
      bigTranscript({ root, proj, sessionId, steps: 600, seed: 78 + k, word: (i) => (i % 200 === 0 ? words[k * 3 + i / 200] : undefined) }),
    );
    const { ingests, recalls } = await ingestWhileRecalling({
      files,
      readers: 4,
      query: (k, round) => [words[(k + round) % words.length] as string],
      env,
      root,
      proj,
    });
    for (const r of [...ingests, ...recalls]) expect(r.status, r.stderr).toBe(0);

    expectEachChunkOnce(data);
    for (const [i, word] of words.entries()) {
      const r = runCli(['recall', '--cwd', proj, '--limit', '5', '--json', '--', word], env, root);
      expect(r.status, r.stderr).toBe(0);
      expect(
        (JSON.parse(r.stdout) as CliRecall).results.map((x) => x.sessionId),
        word,
      ).toEqual([sessions[i < 3 ? 0 : 1]]);
    }
    expect(readLog(data).filter((l) => l.level === 'warn' || l.level === 'error')).toEqual([]);
    // Both ingests ran with the worker started (a racing recall may index some chunks first, from disk).
    expect(readLog(data).filter((l) => /laid out by the worker/.test(l.msg))).toHaveLength(2);
  }, 120_000);

  it('an ingest killed (SIGKILL) while its workers run, then run again: each chunk indexed once, none lost', async () => {
    const { root, data, proj, env } = cliSetup();
    const words = Array.from({ length: 4 }, (_, i) => planted(970 + i));
    const sessionId = '0000002a-aaaa-4bbb-8ccc-dddddddddddd';
    const file = bigTranscript({ root, proj, sessionId, steps: 1_200, seed: 79, word: (i) => (i % 300 === 0 ? words[i / 300] : undefined) });
    const catalog = join(data, 'sessions', sessionId, 'catalog.jsonl');
    // Killed once its catalog lists more than the worker's start (its workers are running by then).
    const child = spawn(process.execPath, [join(distDir, 'cli.mjs'), 'ingest', file, '--cwd', proj, '--json'], { env, cwd: root, stdio: 'ignore' });
    const killed = await new Promise<boolean>((resolve) => {
      const poll = setInterval(() => {
        const lines = existsSync(catalog) ? readFileSync(catalog, 'utf8').split('\n').length : 0;
        if (lines > 700) {
          clearInterval(poll);
          child.kill('SIGKILL');
          resolve(true);
        }
      }, 2);
      child.on('exit', () => {
        clearInterval(poll);
        resolve(false);
      });
    });
    await new Promise((resolve) => (child.exitCode === null && child.signalCode === null ? child.on('exit', resolve) : resolve(undefined)));
    expect(killed).toBe(true); // killed mid-way, not finished before the poll saw it
    const again = runCli(['ingest', file, '--cwd', proj, '--json'], env, root);
    expect(again.status, again.stderr).toBe(0);
    const recall = runCli(['recall', '--cwd', proj, '--limit', '5', '--json', '--', words[0] as string], env, root); // brings the index up to date
    expect(recall.status, recall.stderr).toBe(0);

    expectEachChunkOnce(data);
    for (const word of words) {
      const r = runCli(['recall', '--cwd', proj, '--limit', '5', '--json', '--', word], env, root);
      expect(
        (JSON.parse(r.stdout) as CliRecall).results.filter((x) => x.snippet.includes(word)),
        word,
      ).toHaveLength(1);
    }
  }, 120_000);

  it('a transcript big enough for the segment worker: ctxl ingest indexes each chunk once, as a rebuild would', () => {
    const { root, data, proj, env } = cliSetup('debug');
    const words = Array.from({ length: 12 }, (_, i) => planted(900 + i));
    const file = bigTranscript({
      root,
      proj,
      sessionId: '0000000a-aaaa-4bbb-8ccc-dddddddddddd',
      steps: 700,
      seed: 77,
      words: 12,
      word: (i) => (i % 60 === 0 ? words[i / 60] : undefined),
    });
    const ingest = runCli(['ingest', file, '--cwd', proj, '--json'], env, root);
    expect(ingest.status, ingest.stderr).toBe(0);
    expect((JSON.parse(ingest.stdout) as { chunksAdded: number }).chunksAdded).toBeGreaterThan(1_000); // past the worker's start
    // The worker laid the segment out (not the main thread after it declined).
    expect(
      readLog(data)
        .filter((l) => /index segments laid out by the worker/.test(l.msg))
        .map((l) => l.msg),
    ).toEqual(['ingest: 1 index segments laid out by the worker, 0 by the main thread']);

    const recallAll = () =>
      [...words, 'passed', 'server timeout'].map((w) => {
        const r = runCli(['recall', '--cwd', proj, '--limit', '20', '--json', '--', w], env, root);
        expect(r.status, r.stderr).toBe(0);
        return JSON.parse(r.stdout) as CliRecall;
      });
    expectEachChunkOnce(data);
    const before = recallAll();
    for (const [i, word] of words.entries()) expect(before[i]?.results.map((x) => x.snippet.includes(word))).toEqual([true]);

    // The same index built on the main thread from the chunk files ranks everything the same.
    const r = runCli(['reindex', '--all', '--json'], env, root);
    expect(r.status, r.stderr).toBe(0);
    expect(recallAll()).toEqual(before);
    expect(readLog(data).filter((l) => l.level === 'warn' || l.level === 'error')).toEqual([]);
  }, 60_000);

  it('ctxl reindex --all --json after deleting index/ gives the same recall results', () => {
    const root = tempDir();
    const data = join(root, 'data');
    const proj = join(root, 'proj');
    mkdirSync(proj);
    const env = baseEnv(root, { CTXL_HOME: data });
    for (const dest of [
      'tomjnsn__agentlogs/crud.jsonl',
      'tomjnsn__agentlogs/todos.jsonl',
      'tomjnsn__agentlogs/compact.jsonl',
      'oneryalcin__fasthooks/sample_main_transcript.jsonl',
    ]) {
      const r = runCli(['ingest', fixturePath(dest), '--cwd', proj, '--json'], env, root);
      expect(r.status, r.stderr).toBe(0);
    }
    const queries = [['joke'], ['todo', 'file'], ['read', 'the', 'file'], ['delete'], ['hook'], ['type:tool'], ['"JOKE.md"']];
    const recallAll = () =>
      queries.map((q) => {
        const r = runCli(['recall', '--cwd', proj, '--limit', '20', '--json', '--', ...q], env, root);
        expect(r.status, r.stderr).toBe(0);
        return JSON.parse(r.stdout) as CliRecall;
      });
    const before = recallAll();
    expect(before.filter((b) => b.results.length > 0).length).toBeGreaterThanOrEqual(5);

    rmSync(join(data, 'index'), { recursive: true });
    const r = runCli(['reindex', '--all', '--json'], env, root);
    expect(r.status, r.stderr).toBe(0);
    const counts = JSON.parse(r.stdout) as { sessions: number; chunks: number };
    expect(counts).toEqual({ sessions: readdirSync(join(data, 'sessions')).length, chunks: chunkIdsOnDisk(data).length, damaged: 0, restored: 0 });
    expect(recallAll()).toEqual(before);
  }, 60_000);

  it("ctxl reindex restores a damaged tool output that only mentions a stub or the client's preview", () => {
    const root = tempDir();
    const data = join(root, 'data');
    const proj = join(root, 'proj');
    mkdirSync(proj);
    const env = baseEnv(root, { CTXL_HOME: data });
    const sid = '6f3a4b5c-7d8e-4f9a-8b1c-2d3e4f5a6b7c';
    const base = { sessionId: sid, cwd: proj, version: '2.1.332', isSidechain: false, userType: 'external', timestamp: '2026-11-01T09:00:00.000Z' };
    const found =
      "lib/context/stub.ts:59:export const STUB_MARK = 'output shortened in context';\nlib/cli/reindex-command.ts:112:  if (output.startsWith('<persisted-output>')) return false;";
    const call = { type: 'tool_use', id: 'toolu_grep_marks', name: 'Bash', input: { command: 'grep -rn persisted-output lib' } };
    const file = join(root, `${sid}.jsonl`);
    writeFileSync(
      file,
      `${[
        { ...base, type: 'user', uuid: 'u-1', parentUuid: null, message: { role: 'user', content: 'Where do we detect stubs?' } },
        { ...base, type: 'assistant', uuid: 'a-1', parentUuid: 'u-1', message: { id: 'm1', role: 'assistant', model: 'claude-sonnet-4-5', content: [call] } },
        {
          ...base,
          type: 'user',
          uuid: 'r-1',
          parentUuid: 'a-1',
          message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_grep_marks', content: found }] },
        },
      ]
        .map((e) => JSON.stringify(e))
        .join('\n')}\n`,
    );
    expect(runCli(['ingest', file, '--cwd', proj, '--json'], env, root).status).toBe(0);
    const dir = join(data, 'sessions', sid, 'archived');
    const name = readdirSync(dir).find((n) => readFileSync(join(dir, n), 'utf8').includes('STUB_MARK')) as string;
    const sound = readFileSync(join(dir, name), 'utf8');
    writeFileSync(join(dir, name), sound.slice(0, 30));
    const r = runCli(['reindex', '--all', '--json'], env, root);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ damaged: 1, restored: 1 });
    expect(readFileSync(join(dir, name), 'utf8')).toBe(sound);
    // A chunk file deleted outright (its catalog still lists it) comes back the same way.
    rmSync(join(dir, name));
    const again = runCli(['reindex', '--all', '--json'], env, root);
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ damaged: 1, restored: 1 });
    expect(readFileSync(join(dir, name), 'utf8')).toBe(sound);
  }, 30_000);

  it("ctxl reindex restores damaged chunk files from their transcript, leaving the session's cursor where it was", () => {
    const root = tempDir();
    const data = join(root, 'data');
    const proj = join(root, 'proj');
    mkdirSync(proj);
    const env = baseEnv(root, { CTXL_HOME: data });
    const transcript = fixturePath('tomjnsn__agentlogs/crud.jsonl');
    // With its phases replayed: a restored chunk carries the phase it was said in.
    const ingest = runCli(['ingest', transcript, '--cwd', proj, '--ledgers', '--json'], env, root);
    expect(ingest.status, ingest.stderr).toBe(0);
    const recallAll = () =>
      [['joke'], ['todo', 'file'], ['delete']].map((q) => {
        const r = runCli(['recall', '--cwd', proj, '--limit', '20', '--json', '--', ...q], env, root);
        expect(r.status, r.stderr).toBe(0);
        return JSON.parse(r.stdout) as CliRecall;
      });
    const before = recallAll();
    const [sid] = readdirSync(join(data, 'sessions'));
    const dir = join(data, 'sessions', sid as string, 'archived');
    const cursor = readFileSync(join(data, 'sessions', sid as string, 'cursor.json'), 'utf8');
    const ids = chunkIdsOnDisk(data);
    // Chunks of the transcript (a ledger chunk is written from the phases, not the transcript).
    const fromTranscript = ids.filter((id) => !readFileSync(join(dir, `${id}.md`), 'utf8').includes('type: "ledger"'));
    const longest = [...fromTranscript].sort((a, b) => statSync(join(dir, `${b}.md`)).size - statSync(join(dir, `${a}.md`)).size)[0] as string;
    const victims = [fromTranscript[0], fromTranscript[Math.floor(fromTranscript.length / 2)], longest, fromTranscript[1]] as string[];
    expect(new Set(victims).size).toBe(4);
    const sound = victims.map((id) => readFileSync(join(dir, `${id}.md`), 'utf8'));
    expect(sound.some((text) => /^phase: "(?!unknown")/m.test(text))).toBe(true);
    writeFileSync(join(dir, `${victims[0]}.md`), (sound[0] as string).slice(0, 40)); // cut short in its frontmatter
    writeFileSync(join(dir, `${victims[1]}.md`), 'garbage\n\u0000\u0001 not a chunk');
    // Cut short in its text, right after one of its newlines: the frontmatter is whole, the file still parses as Markdown.
    const body = sound[2] as string;
    writeFileSync(join(dir, `${victims[2]}.md`), body.slice(0, body.lastIndexOf('\n', body.length - 20) + 1));
    // Overwritten in place inside its text: as long as before, every line still there.
    writeFileSync(join(dir, `${victims[3]}.md`), overwriteText(sound[3] as string));

    const r = runCli(['reindex', '--all', '--json'], env, root);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ sessions: 1, chunks: ids.length, damaged: 4, restored: 4 });
    expect(victims.map((id) => readFileSync(join(dir, `${id}.md`), 'utf8'))).toEqual(sound);
    expect(recallAll()).toEqual(before);
    // The live cursor is untouched, and the restore's own is gone.
    expect(readFileSync(join(data, 'sessions', sid as string, 'cursor.json'), 'utf8')).toBe(cursor);
    expect(readdirSync(join(data, 'sessions', sid as string)).filter((n) => n.startsWith('restore-'))).toEqual([]);
    const text = runCli(['reindex', '--all'], env, root);
    expect(text.stdout.trim()).toBe(`index rebuilt: ${ids.length} chunks in 1 session(s)`);
  }, 60_000);

  it('ctxl reindex keeps what is left of a chunk cut short that its transcript cannot restore, marked as cut short', () => {
    const { root, env, dir, ids, victim } = archivedWithoutTranscript();
    const whole = readFileSync(join(dir, `${victim}.md`), 'utf8');
    const cut = whole.slice(0, whole.length - 40);
    writeFileSync(join(dir, `${victim}.md`), cut);
    const r = runCli(['reindex', '--all', '--json'], env, root);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ sessions: 1, chunks: ids.length, damaged: 1, restored: 0 });
    const kept = readFileSync(join(dir, `${victim}.md`), 'utf8');
    const text = cut.slice(cut.indexOf('\n---\n') + 5);
    expect(kept.endsWith(`${text}\n${CUT_SHORT_NOTE}\n`)).toBe(true);
    // Sound now: a second reindex finds nothing damaged, and recall reads the kept text.
    expect(JSON.parse(runCli(['reindex', '--all', '--json'], env, root).stdout)).toMatchObject({ damaged: 0 });
    const shown = runCli(['show', victim], env, root);
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(CUT_SHORT_NOTE);
  }, 60_000);

  it('ctxl reindex leaves a chunk overwritten in place that its transcript cannot restore as it is: damaged, never passed off as cut short or whole', () => {
    const { root, env, dir, ids, victim } = archivedWithoutTranscript();
    const garbled = overwriteText(readFileSync(join(dir, `${victim}.md`), 'utf8'));
    writeFileSync(join(dir, `${victim}.md`), garbled);
    const r = runCli(['reindex', '--all', '--json'], env, root);
    expect(r.status, r.stderr).toBe(0);
    // Left out of the index, and left on disk as it was.
    expect(JSON.parse(r.stdout)).toEqual({ sessions: 1, chunks: ids.length - 1, damaged: 1, restored: 0 });
    expect(readFileSync(join(dir, `${victim}.md`), 'utf8')).toBe(garbled);
    // Still damaged on the next run, and out of the results: show says so.
    expect(JSON.parse(runCli(['reindex', '--all', '--json'], env, root).stdout)).toMatchObject({ damaged: 1 });
    const shown = runCli(['show', victim], env, root);
    expect(`${shown.stdout}${shown.stderr}`).not.toContain('XXXXXXXX');
  }, 60_000);

  it('ctxl reindex finishes the restores of a reindex killed part-way: a file set aside and not written again, or written again and its aside left', () => {
    const root = tempDir();
    const data = join(root, 'data');
    const proj = join(root, 'proj');
    mkdirSync(proj);
    const env = baseEnv(root, { CTXL_HOME: data });
    expect(runCli(['ingest', fixturePath('tomjnsn__agentlogs/crud.jsonl'), '--cwd', proj, '--json'], env, root).status).toBe(0);
    const [sid] = readdirSync(join(data, 'sessions'));
    const dir = join(data, 'sessions', sid as string, 'archived');
    const ids = chunkIdsOnDisk(data);
    const [gone, rewritten] = [ids[0], ids[Math.floor(ids.length / 2)]] as string[];
    const sound = [gone, rewritten].map((id) => readFileSync(join(dir, `${id}.md`), 'utf8'));
    // The killed run had set both aside (damaged); it had written the second one again, not the first.
    rmSync(join(dir, `${gone}.md`));
    writeFileSync(join(dir, `${gone}.md.damaged`), (sound[0] as string).slice(0, 40));
    writeFileSync(join(dir, `${rewritten}.md.damaged`), 'garbage');

    const r = runCli(['reindex', '--all', '--json'], env, root);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ sessions: 1, chunks: ids.length, damaged: 2, restored: 2 });
    expect([gone, rewritten].map((id) => readFileSync(join(dir, `${id}.md`), 'utf8'))).toEqual(sound);
    expect(readdirSync(dir).filter((n) => n.endsWith('.damaged'))).toEqual([]);
  }, 60_000);
});

// ---- 10. filters ----

describe('query filters and project scope', () => {
  const W = 'kappaword';
  async function corpus() {
    const env = setup();
    const t = (daysAgo: number) => new Date(NOW.getTime() - daysAgo * DAY).toISOString();
    const c = {
      user: chunk('f-user', `deploy the widget ${W}`, { type: 'user', session: 'alpha-1', phase: 'planning', timestamp: t(10), files: ['src/Widget.tsx'] }),
      bash: chunk('f-bash', `npm run build ${W}`, { type: 'tool', tool: 'Bash', session: 'alpha-2', timestamp: t(1) }),
      read: chunk('f-read', `read the router ${W}`, { type: 'tool', tool: 'Read', session: 'beta-1', timestamp: t(0.5), files: ['lib/server/Router.ts'] }),
      assistant: chunk('f-asst', `${W} reply about tests`, { session: 'beta-1', phase: 'testing', timestamp: t(0.25), files: ['lib/server/router.test.ts'] }),
      untimed: chunk('f-untimed', `${W} with no usable time`, { session: 'beta-1', timestamp: 'garbage' }),
      other: chunk('f-other', `${W} in another project`, { type: 'user', session: 'gamma-1', project: OTHER_PROJECT, timestamp: t(0.1) }),
    };
    for (const [sid, list] of bySession(Object.values(c))) writeChunks(env.store, sid, list);
    return { ...env, c };
  }

  it('keeps to the project unless no project is given', async () => {
    const { store, log, c } = await corpus();
    const inProject = [c.user, c.bash, c.read, c.assistant, c.untimed];
    expect(sortedRefs(await find(store, log, W, { projectRoot: PROJECT }))).toEqual(idsOf(inProject));
    expect(sortedRefs(await find(store, log, W, { projectRoot: OTHER_PROJECT }))).toEqual([c.other.id]);
    expect(sortedRefs(await find(store, log, W))).toEqual(idsOf([...inProject, c.other]));
  });

  it.each<[string, Array<'user' | 'bash' | 'read' | 'assistant' | 'untimed' | 'other'>]>([
    [`${W} type:bash`, ['bash']],
    [`${W} type:Bash`, ['bash']],
    [`${W} type:read`, ['read']],
    [`${W} type:tool`, ['bash', 'read']],
    [`${W} type:user`, ['user']],
    [`${W} type:assistant`, ['assistant', 'untimed']],
    [`${W} phase:testing`, ['assistant']],
    [`${W} phase:Planning`, ['user']],
    [`${W} session:alpha`, ['user', 'bash']],
    [`${W} session:beta-1`, ['read', 'assistant', 'untimed']],
    [`${W} session:gamma`, []],
    [`${W} since:2d`, ['bash', 'read', 'assistant']],
    [`${W} since:12h`, ['read', 'assistant']],
    [`${W} file:router`, ['read', 'assistant']],
    [`${W} file:WIDGET`, ['user']],
    [`${W} file:.test.`, ['assistant']],
    [`${W} type:tool session:beta phase:implementation`, ['read']],
    ['type:tool', ['bash', 'read']],
  ])('%s (in project)', async (raw, expected) => {
    const { store, log, c } = await corpus();
    expect(sortedRefs(await find(store, log, raw, { projectRoot: PROJECT }))).toEqual(idsOf(expected.map((k) => c[k])));
  });

  it('file: matches a Windows path with either slash', async () => {
    const { store, log } = setup();
    const win = chunk('f-win', 'read the ocelot module', { type: 'tool', tool: 'Read', session: 'sess-a', files: ['C:\\work\\app\\src\\Ocelot.ts'] });
    writeChunks(store, 'sess-a', [win]);
    for (const raw of ['ocelot file:src/ocelot.ts', 'ocelot file:src\\ocelot.ts', 'file:app/src'])
      expect(refsOf(await find(store, log, raw)), raw).toEqual([win.id]);
    expect(await find(store, log, 'ocelot file:lib/ocelot.ts')).toEqual([]);
  });

  it('a filter-only query lists newest first; results carry type, tool, phase and session', async () => {
    const { store, log, c } = await corpus();
    const results = await find(store, log, 'session:beta', { projectRoot: PROJECT });
    expect(refsOf(results)).toEqual([c.assistant.id, c.read.id, c.untimed.id]);
    const bash = (await find(store, log, `${W} type:bash`, { projectRoot: PROJECT }))[0];
    expect(bash).toMatchObject({ ref: c.bash.id, type: 'tool', tool: 'Bash', phase: 'implementation', sessionId: 'alpha-2' });
    expect(bash?.snippet).toContain(W);
  });

  it('finds unicode words and a word only a file path holds', async () => {
    const { store, log } = setup();
    const u = chunk('uni', 'Straße naïve café 日本語テキスト x𝒳yz', { session: 'sess-u' });
    const f = chunk('file-only', 'edited one file', { session: 'sess-u', files: ['src/zygomorphic.ts'] });
    writeChunks(store, 'sess-u', [u, f]);
    for (const word of ['straße', 'Straße', 'café', '日本語テキスト', 'x𝒳yz']) {
      expect(refsOf(await find(store, log, word)), word).toEqual([u.id]);
    }
    expect(refsOf(await find(store, log, 'zygomorphic'))).toEqual([f.id]);
  });
});

// ---- 11. edit distance ----

describe('editDistance', () => {
  /** Plain Levenshtein, for reference. */
  function levenshtein(a: string, b: string): number {
    const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
    for (let i = 1; i <= a.length; i++)
      for (let j = 1; j <= b.length; j++) {
        const row = d[i] as number[];
        const up = d[i - 1] as number[];
        row[j] = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
      }
    return d[a.length]?.[b.length] as number;
  }

  it('computes the distance when it is within the bound', () => {
    expect(editDistance('kitten', 'sitting', 3)).toBe(3);
    expect(editDistance('kitten', 'kitten', 0)).toBe(0);
    expect(editDistance('configuration', 'configuratoin', 2)).toBe(2);
    expect(editDistance('timeout', 'timeouts', 1)).toBe(1);
    expect(editDistance('', 'abc', 3)).toBe(3);
    expect(editDistance('abc', '', 3)).toBe(3);
    expect(editDistance('flaw', 'lawn', 5)).toBe(2);
  });

  it('stops early at max + 1 once the distance must exceed the bound', () => {
    expect(editDistance('a'.repeat(500), 'b'.repeat(500), 2)).toBe(3);
    expect(editDistance('kitten', 'sitting', 2)).toBe(3);
    expect(editDistance('abcdefgh', 'zyxwvuts', 0)).toBe(1);
  });

  it('agrees with plain Levenshtein: exact within the bound, above it otherwise', () => {
    const rnd = prng(11);
    const word = () => Array.from({ length: Math.floor(rnd() * 9) }, () => 'abc'[Math.floor(rnd() * 3)]).join('');
    for (let i = 0; i < 2000; i++) {
      const a = word();
      const b = word();
      const max = Math.floor(rnd() * 5);
      const d = levenshtein(a, b);
      const got = editDistance(a, b, max);
      if (d <= max) expect(got, `${a} ${b} ${max}`).toBe(d);
      else expect(got, `${a} ${b} ${max}`).toBeGreaterThan(max);
    }
  });
});

// ---- findings of a cold review, kept as regressions ----

describe('review regressions', () => {
  it('a listed chunk whose file never comes stalls its session only for a while, then is skipped', async () => {
    const { data, store, log } = setup();
    const a = chunk('stall-a', `first ${planted(700)}`);
    const lost = chunk('stall-lost', `never written ${planted(701)}`);
    const b = chunk('stall-b', `later ${planted(702)}`);
    writeChunks(store, 'sess-a', [a]);
    await refreshIndex(store, log); // the session is known: later lines are read from the catalog
    appendCatalogOnly(store, 'sess-a', [lost.id]); // its writer died before writing the file
    writeChunks(store, 'sess-a', [b]);
    await refreshIndex(store, log);
    expect(sortedRefs(await find(store, log, planted(702)))).toEqual([]); // waiting for the lost file
    // A minute later (the stall's start moved back), the line is skipped and the rest indexed.
    const m = readManifest(data);
    const stalled = m.stalled?.['sess-a'];
    expect(stalled).toBeDefined();
    writeFileSync(join(data, 'index', 'manifest.json'), JSON.stringify({ ...m, stalled: { 'sess-a': { ...stalled, since: Date.now() - 120_000 } } }));
    expect(sortedRefs(await find(store, log, planted(702)))).toEqual([b.id]);
    expect(log.lines.some((l) => l.level === 'warn' && l.message.includes(lost.id))).toBe(true);
  });

  it('scores stay positive and the ranking stable when chunks are re-listed many times', async () => {
    const fresh = setup();
    const other = setup();
    const docs = [chunk('rl-1', 'planetoid widget widget'), chunk('rl-2', 'planetoid gadget'), chunk('rl-3', 'widget only here')];
    writeChunks(fresh.store, 'sess-a', docs);
    const expected = await find(fresh.store, fresh.log, 'planetoid widget');
    writeChunks(other.store, 'sess-a', docs);
    await refreshIndex(other.store, other.log);
    for (let i = 0; i < 17; i++) {
      appendCatalogOnly(other.store, 'sess-a', [docs[2]?.id ?? '']); // listed again: older copies hidden
      await refreshIndex(other.store, other.log);
    }
    const after = await find(other.store, other.log, 'planetoid widget');
    expect(refsOf(after)).toEqual(refsOf(expected));
    for (const r of after) expect(r.score).toBeGreaterThan(0);
  });

  it('a lost catalog: ctxl reindex still finds every chunk file', async () => {
    const { store, log } = setup();
    const list = [chunk('lc-1', `one ${planted(710)}`), chunk('lc-2', `two ${planted(711)}`)];
    writeChunks(store, 'sess-a', list);
    rmSync(catalogFile(store, 'sess-a'));
    await refreshIndex(store, log, { rebuild: true });
    for (const [i, c] of list.entries()) expect(refsOf(await find(store, log, planted(710 + i)))).toEqual([c.id]);
  });

  it('a chunk file whose id is not a chunk id is skipped with a log line; the rest is searchable', async () => {
    const { store, log } = setup();
    const good = chunk('bid-good', `fine ${planted(720)}`);
    const bad = { ...chunk('bid-bad', `odd ${planted(721)}`), id: 'NOT-A-HEX-ID' };
    writeChunks(store, 'sess-a', [good]);
    writeChunkFileOnly(store, bad);
    appendCatalogOnly(store, 'sess-a', [bad.id]);
    expect(refsOf(await find(store, log, planted(720)))).toEqual([good.id]);
    expect(log.lines.some((l) => l.level === 'warn' && l.message.includes('NOT-A-HEX-ID'))).toBe(true);
  });

  it('one session bigger than a batch is indexed in several saved steps', async () => {
    const { data, store, log } = setup();
    const list = Array.from({ length: 4_100 }, (_, i) => chunk(`big-${i}`, `row ${i} ${i === 4_099 ? planted(730) : 'filler'}`));
    writeChunks(store, 'sess-a', list);
    await refreshIndex(store, log, { maxMergeDocs: 0 });
    const manifest = readManifest(data);
    expect(manifest.segments.length).toBeGreaterThan(1); // a segment per batch, not one for the session
    // Each chunk once: the chunks of the first batch are not indexed again by the pass over the
    // session's folder (they would be hidden duplicates, counted in every document frequency).
    expect(manifest.segments.reduce((n, seg) => n + seg.docs, 0)).toBe(4_100);
    expect(Object.values(manifest.deleted).flat()).toEqual([]);
    expect(liveIds(store, log).sort()).toEqual(idsOf(list));
    expect(refsOf(await find(store, log, planted(730)))).toEqual([list[4_099]?.id]);
  });
});

describe('TermCounter', () => {
  it('counts exactly the terms tokenize() gives with surface terms, per field, over many docs sharing its caches; lengths without them', () => {
    const counter = new TermCounter();
    const rnd = prng(99);
    const vocab = [
      ...VOCAB,
      'parseConfigFile',
      'HTTPServerError2',
      'src/lib/a.ts',
      'ENOENT',
      '30s',
      'x'.repeat(130),
      'Straße',
      'x𝒳yz',
      'the',
      'a-b.c/d',
      'v1.2.3',
      '使用数据库连接',
      'ログインのバグ',
      '버그를',
      'parseConfig数据-x',
      '很'.repeat(200),
    ];
    for (let doc = 0; doc < 300; doc++) {
      const text = Array.from({ length: Math.floor(rnd() * 60) }, () => vocab[Math.floor(rnd() * vocab.length)]).join(rnd() < 0.5 ? ' ' : '\n');
      const keywords = [vocab[Math.floor(rnd() * vocab.length)] as string];
      const files = rnd() < 0.5 ? [] : ['lib/index/builder.ts'];
      const got = counter.count({ ...chunk(`tc-${doc}`, text), keywords, files });
      const expected = new Map<string, number>();
      const add = (terms: string[], unit: number) => {
        for (const t of terms) expected.set(t, (expected.get(t) ?? 0) + unit);
      };
      const fields = [text, keywords.join(' '), files.join(' ')];
      for (const [i, field] of fields.entries()) add(tokenize(field, undefined, true), 2 ** (20 * i));
      expect(got.lengths).toEqual(fields.map((f) => tokenize(f).length));
      const counted = new Map([...got.ids].map((id, i) => [counter.names[id] as string, got.packed[i] as number]));
      expect(counted).toEqual(expected);
    }
  });
});

describe('the segment worker of ctxl ingest', () => {
  const WORKER = join(import.meta.dirname, '..', '..', 'dist', 'programs', 'segment-worker.mjs');
  const list = (): Chunk[] => [
    chunk('w-1', 'The server timeout is configured in parseConfigFile; timeouts timeouts.', { keywords: ['parseConfigFile'], files: ['src/config/parse.ts'] }),
    chunk('w-2', 'Straße naïve café 日本語テキスト and x𝒳yz in one line', { phase: 'planning' }),
    chunk('w-3', 'npm run build failed with ENOENT', { type: 'tool', tool: 'Bash', files: ['src/zygomorphic.ts'], keywords: ['ENOENT'] }),
    chunk('w-4', 'summary of the work so far', { type: 'summary', phase: '', timestamp: 'not a time' }),
    chunk('w-5', 'server server server', { session: 'sess-b', type: 'tool', tool: 'Read', files: ['lib/a.ts', 'lib/b.ts'] }),
  ];
  const inThread = (chunks: readonly Chunk[]) => {
    const builder = new SegmentBuilder();
    for (const c of chunks) builder.add(c);
    return Buffer.from(builder.encode());
  };

  it('lays out the very bytes the main thread would, for any order asked, and twice in a row', () => {
    const worker = startSegmentWorker(WORKER);
    expect(worker).toBeDefined();
    try {
      const chunks = list();
      for (const c of chunks) worker?.add(c);
      const first = [chunks[2], chunks[0], chunks[4]] as Chunk[];
      expect(Buffer.from(worker?.encode(first) ?? [])).toEqual(inThread(first));
      const rest = [chunks[3], chunks[1]] as Chunk[];
      expect(Buffer.from(worker?.encode(rest) ?? [])).toEqual(inThread(rest));
      // A second file of the same ingest: the worker starts a fresh term dictionary and still agrees.
      const again = [chunk('w-6', 'render the widget with the new cache'), chunk('w-7', 'widget cache render')];
      for (const c of again) worker?.add(c);
      expect(Buffer.from(worker?.encode(again) ?? [])).toEqual(inThread(again));
    } finally {
      worker?.close();
    }
  });

  it('a chunk written again counts in its newest text; a chunk it never got, or another copy of one, makes it decline', () => {
    const worker = startSegmentWorker(WORKER);
    expect(worker).toBeDefined();
    try {
      const [a, b] = list() as [Chunk, Chunk];
      worker?.add(a);
      const newer = { ...a, text: 'completely different words now' };
      worker?.add(newer);
      worker?.add(b);
      expect(Buffer.from(worker?.encode([newer, b]) ?? [])).toEqual(inThread([newer, b]));
      const unknown = chunk('w-never', 'never sent to the worker');
      worker?.add(a);
      expect(worker?.encode([a, unknown])).toBeUndefined(); // the caller builds this one itself
      // A copy read back from disk (the same id, another object) may hold another text: declined.
      worker?.add(b);
      expect(worker?.encode([{ ...b }])).toBeUndefined();
      // Declining does not break it: the next segment comes from the worker again.
      expect(Buffer.from(worker?.encode([b]) ?? [])).toEqual(inThread([b]));
      // After a reset (a transcript done), nothing sent before is held.
      worker?.add(a);
      worker?.reset();
      expect(worker?.encode([a])).toBeUndefined();
      expect(worker?.counts).toEqual({ built: 2, declined: 3 });
    } finally {
      worker?.close();
    }
  });

  it('without its bundle (running from sources) there is no worker, and nothing fails', () => {
    expect(startSegmentWorker(join(tempDir(), 'missing.mjs'))).toBeUndefined();
    expect(startSegmentWorker(undefined)).toBeUndefined();
  });
});

// ---- 12. the candidates' cut-off ----

describe('cutOff', () => {
  /** The sort it replaced: the want-th largest key, or -Infinity when there are no more than want. */
  const bySort = (segments: Array<{ docs: number[]; key: Float64Array }>, want: number) => {
    const all = segments.flatMap(({ docs, key }) => docs.map((d) => key[d] as number)).sort((a, b) => a - b);
    return all.length <= want ? Number.NEGATIVE_INFINITY : (all[all.length - want] as number);
  };

  it('is the want-th largest score over every segment, ties and all, as a full sort gives it', () => {
    const rnd = prng(77);
    for (let round = 0; round < 300; round++) {
      const segments = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => {
        const size = Math.floor(rnd() * 120);
        // Few distinct values: many ties at the cut.
        const key = Float64Array.from({ length: size }, () => Math.floor(rnd() * 12) / 4);
        const docs = Array.from({ length: size }, (_, d) => d).filter(() => rnd() < 0.7);
        return { docs, key };
      });
      const want = 1 + Math.floor(rnd() * 60);
      expect(cutOff(segments, want)).toBe(bySort(segments, want));
    }
  });
});

/** A chunk file with 16 characters of its text overwritten by X's, in place: same length, same lines. */
function overwriteText(file: string): string {
  const start = file.indexOf('\n---\n') + 5;
  const at = start + Math.max(0, Math.floor((file.length - start) / 2) - 8);
  const run = file.slice(at, at + 16).replace(/[^\n]/g, 'X');
  return file.slice(0, at) + run + file.slice(at + run.length);
}

/**
 * A data dir holding the crud fixture's archive, its transcript gone (nothing can restore a chunk),
 * and the largest chunk's id: the victim a test damages.
 */
function archivedWithoutTranscript() {
  const root = tempDir();
  const data = join(root, 'data');
  const proj = join(root, 'proj');
  mkdirSync(proj);
  const env = baseEnv(root, { CTXL_HOME: data });
  const transcript = join(root, 'crud.jsonl');
  writeFileSync(transcript, readFileSync(fixturePath('tomjnsn__agentlogs/crud.jsonl')));
  expect(runCli(['ingest', transcript, '--cwd', proj, '--json'], env, root).status).toBe(0);
  rmSync(transcript);
  const [sid] = readdirSync(join(data, 'sessions'));
  const dir = join(data, 'sessions', sid as string, 'archived');
  const ids = chunkIdsOnDisk(data);
  const victim = [...ids].sort((a, b) => statSync(join(dir, `${b}.md`)).size - statSync(join(dir, `${a}.md`)).size)[0] as string;
  return { root, env, dir, ids, victim };
}
