// lib/transcript/reader.ts: every fixture with stats in the manifest is read with advanceTranscript
// and checked against the manifest's counts; incremental reading must equal one-shot reading; torn,
// oversize, CRLF, non-object and rewritten/shrunk files behave as documented.
import { appendFileSync, copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ParsedLine } from '../../lib/transcript/entries.ts';
import type { RawLine } from '../../lib/transcript/lines.ts';
import { type AdvanceResult, advanceTranscript, startCursor, type TranscriptCursor } from '../../lib/transcript/reader.ts';
import { transcriptFixtures } from './helpers/manifest.ts';
import { prng } from './helpers/prng.ts';
import { pyJsonDumpsLength } from './helpers/py-json.ts';
import { useTempDirs } from './helpers/tmp.ts';

const tempDir = useTempDirs('ctxl-reader-');
const fixtures = transcriptFixtures();

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

interface Stats {
  parsed: number;
  types: Record<string, number>;
  subtypes: Record<string, number>;
  versions: Record<string, number>;
  blocks: Record<string, number>;
  models: Record<string, number>;
  sidechain: number;
  compactSummary: number;
  sessions: Set<string>;
  maxToolResultChars: number;
  /** Cross-checks between the raw blocks and the reader's entries. */
  toolUseBlocks: number;
  toolUseEntries: number;
  toolResultBlocks: number;
  toolResultEntries: number;
}

const newStats = (): Stats => ({
  parsed: 0,
  types: {},
  subtypes: {},
  versions: {},
  blocks: {},
  models: {},
  sidechain: 0,
  compactSummary: 0,
  sessions: new Set(),
  maxToolResultChars: 0,
  toolUseBlocks: 0,
  toolUseEntries: 0,
  toolResultBlocks: 0,
  toolResultEntries: 0,
});

const bump = (m: Record<string, number>, k: string) => {
  m[k] = (m[k] ?? 0) + 1;
};

/** The visitor: counts from the reader's ParsedLine where it has them, from the raw line otherwise. */
function visitor(stats: Stats) {
  return (parsed: ParsedLine, raw: RawLine) => {
    stats.parsed += 1;
    expect(raw.text).toBeTypeOf('string');
    const obj = JSON.parse(raw.text as string) as unknown;
    expect(isObj(obj)).toBe(true);
    const line = obj as Obj;
    bump(stats.types, parsed.type);
    if ('subtype' in line) bump(stats.subtypes, `${parsed.type}:${String(line.subtype)}`);
    if ('version' in line) bump(stats.versions, String(line.version));
    if (parsed.sidechain) stats.sidechain += 1;
    if (parsed.entries.some((e) => e.kind === 'compact-summary')) stats.compactSummary += 1;
    const sid = parsed.entries[0]?.sessionId;
    if (sid !== undefined && sid !== '') stats.sessions.add(sid);
    stats.toolUseEntries += parsed.entries.filter((e) => e.kind === 'tool-use').length;
    stats.toolResultEntries += parsed.entries.filter((e) => e.kind === 'tool-result').length;
    const message = line.message;
    if (!isObj(message)) return;
    if (typeof message.model === 'string' && message.model !== '') bump(stats.models, message.model);
    const content = message.content;
    if (typeof content === 'string') bump(stats.blocks, '<str>');
    else if (Array.isArray(content)) {
      for (const block of content) {
        if (!isObj(block)) continue;
        bump(stats.blocks, String(block.type));
        if (block.type === 'tool_result') stats.maxToolResultChars = Math.max(stats.maxToolResultChars, pyJsonDumpsLength(block.content));
        if (parsed.type === 'assistant' && (block.type === 'tool_use' || block.type === 'server_tool_use') && typeof block.name === 'string')
          stats.toolUseBlocks += 1;
        if (parsed.type === 'user' && line.isCompactSummary !== true && block.type === 'tool_result') stats.toolResultBlocks += 1;
      }
    }
  };
}

async function readAll(path: string): Promise<{ stats: Stats; result: AdvanceResult }> {
  const stats = newStats();
  const result = await advanceTranscript(path, undefined, { visit: visitor(stats) });
  return { stats, result };
}

/** Append `bytes` to `file` in pieces cut at the given offsets, advancing the cursor after each piece. */
async function readInPieces(bytes: Buffer, cuts: number[], file: string, stats: Stats): Promise<{ cursor: TranscriptCursor; resets: number }> {
  writeFileSync(file, '');
  let cursor: TranscriptCursor | undefined;
  let resets = 0;
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    appendFileSync(file, bytes.subarray(at, cut));
    at = cut;
    const r = await advanceTranscript(file, cursor, { visit: visitor(stats) });
    if (r.reset !== undefined) resets += 1;
    expect(r.cursor.offset).toBeGreaterThanOrEqual(cursor?.offset ?? 0);
    cursor = r.cursor;
  }
  return { cursor: cursor as TranscriptCursor, resets };
}

const plain = (s: Stats) => ({ ...s, sessions: [...s.sessions].sort() });

describe('pyJsonDumpsLength (the manifest’s maxToolResultChars measure)', () => {
  // Expected lengths computed with CPython: len(json.dumps(value)).
  it.each([
    ['empty string', '', 2],
    ['quote and backslash', 'a"b\\c', 9],
    ['control characters', 'tab\there\nnl\r\b\f\u0001\u001f\u007f', 39],
    ['non-ASCII and astral', 'é😀中', 26],
    ['empty array', [], 2],
    ['empty object', {}, 2],
    ['mixed array', [1, 'x', null, true, false], 27],
    ['nested object', { a: [1, { b: 'c' }], d: {} }, 31],
    ['negative integer', -12, 3],
    [
      'content blocks',
      [
        { type: 'text', text: 'hi' },
        { type: 'image', source: { type: 'base64', data: 'AAAA' } },
      ],
      97,
    ],
  ] as Array<[string, unknown, number]>)('%s', (_name, value, expected) => {
    expect(pyJsonDumpsLength(value)).toBe(expected);
  });
});

describe('advanceTranscript over the manifest fixtures', () => {
  it('finds the fixtures', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(19);
  });

  it.each(fixtures.map((f) => [f.dest, f] as const))('%s matches the manifest counts', async (_dest, fixture) => {
    const { stats, result } = await readAll(fixture.path);
    const m = fixture.stats;
    const size = readFileSync(fixture.path).length;
    expect(result.reset).toBeUndefined();
    expect(result.cursor.offset).toBe(size);
    expect(result.newBytes).toBe(size);
    expect(result.cursor.lines).toBe(m.lines);
    expect(result.newLines).toBe(m.lines);
    expect(result.cursor.bad).toBe(m.bad);
    expect(result.cursor.oversize).toBe(0);
    expect(stats.parsed).toBe(m.lines - m.bad);
    expect(stats.types).toEqual(m.types);
    expect(stats.subtypes).toEqual(m.subtypes);
    expect(stats.versions).toEqual(m.versions);
    expect(stats.blocks).toEqual(m.blocks);
    expect(stats.models).toEqual(m.models);
    expect(stats.sidechain).toBe(m.sidechain);
    expect(stats.compactSummary).toBe(m.compactSummary);
    expect(stats.sessions.size).toBe(m.sessions);
    expect(stats.maxToolResultChars).toBe(m.maxToolResultChars);
    // Every tool call and tool result block becomes an entry the archive can use.
    expect(stats.toolUseEntries).toBe(stats.toolUseBlocks);
    expect(stats.toolResultEntries).toBe(stats.toolResultBlocks);
  });
});

describe('incremental reading', () => {
  it.each(fixtures.map((f, i) => [f.dest, f, i] as const))('%s: random byte splits give the same result as one read', async (_dest, fixture, index) => {
    const bytes = readFileSync(fixture.path);
    const once = await readAll(fixture.path);
    const random = prng(0xc0ffee + index);
    const count = Math.min(12, Math.max(1, bytes.length - 1));
    const cuts = [...new Set(Array.from({ length: count }, () => 1 + Math.floor(random() * (bytes.length - 1))))].sort((a, b) => a - b);
    const stats = newStats();
    const { cursor, resets } = await readInPieces(bytes, cuts, join(tempDir(), 't.jsonl'), stats);
    expect(resets).toBe(0);
    expect(plain(stats)).toEqual(plain(once.stats));
    expect(cursor.offset).toBe(once.result.cursor.offset);
    expect(cursor.lines).toBe(once.result.cursor.lines);
    expect(cursor.bad).toBe(once.result.cursor.bad);
    expect(cursor.context).toEqual(once.result.cursor.context);
  });

  it('splits at every line boundary and mid-line of a real session', async () => {
    const fixture = fixtures.find((f) => f.dest.endsWith('sample_main_transcript.jsonl'));
    expect(fixture).toBeDefined();
    const bytes = readFileSync((fixture as { path: string }).path);
    const once = await readAll((fixture as { path: string }).path);
    const cuts: number[] = [];
    for (let i = bytes.indexOf(0x0a); i !== -1 && i < bytes.length - 1; i = bytes.indexOf(0x0a, i + 1)) {
      cuts.push(i, i + 1); // just before the newline (a complete object without newline) and just after it
      const next = bytes.indexOf(0x0a, i + 1);
      if (next > i + 3) cuts.push(i + 1 + Math.floor((next - i) / 2)); // mid-line
    }
    const stats = newStats();
    const { cursor } = await readInPieces(
      bytes,
      [...new Set(cuts)].sort((a, b) => a - b),
      join(tempDir(), 't.jsonl'),
      stats,
    );
    expect(plain(stats)).toEqual(plain(once.stats));
    expect(cursor.lines).toBe(once.result.cursor.lines);
    expect(cursor.context).toEqual(once.result.cursor.context);
  });

  it('a non-object JSON line split after a prefix that is itself valid JSON still counts once', async () => {
    // `42` written as `4` then `2\n`: the reader must not take the torn `4` as a complete line.
    const file = join(tempDir(), 't.jsonl');
    writeFileSync(file, '{"type":"user","message":{"role":"user","content":"a"}}\n4');
    const first = await advanceTranscript(file, undefined);
    appendFileSync(file, '2\n{"type":"user","message":{"role":"user","content":"b"}}\n');
    const second = await advanceTranscript(file, first.cursor);
    const once = await advanceTranscript(file, undefined);
    expect(once.cursor.lines).toBe(3);
    expect(once.cursor.bad).toBe(1);
    expect(second.cursor.lines).toBe(once.cursor.lines);
    expect(second.cursor.bad).toBe(once.cursor.bad);
  });
});

describe('torn, oversize and odd lines', () => {
  const user = (text: string) => JSON.stringify({ type: 'user', sessionId: 's', message: { role: 'user', content: text } });

  it('does not consume a torn last line until it is completed', async () => {
    const file = join(tempDir(), 't.jsonl');
    const complete = `${user('first')}\n`;
    const second = user('second');
    writeFileSync(file, complete + second.slice(0, 25));
    const seen: string[] = [];
    const visit = (p: ParsedLine) => {
      for (const e of p.entries) if (e.kind === 'user-text') seen.push(e.text);
    };
    const a = await advanceTranscript(file, undefined, { visit });
    expect(a.cursor.offset).toBe(Buffer.byteLength(complete));
    expect(a.newLines).toBe(1);
    expect(seen).toEqual(['first']);
    // Still torn: nothing new.
    appendFileSync(file, second.slice(25, 40));
    const b = await advanceTranscript(file, a.cursor, { visit });
    expect(b.newLines).toBe(0);
    expect(b.cursor.offset).toBe(a.cursor.offset);
    appendFileSync(file, `${second.slice(40)}\n`);
    const c = await advanceTranscript(file, b.cursor, { visit });
    expect(c.newLines).toBe(1);
    expect(c.cursor.lines).toBe(2);
    expect(c.cursor.offset).toBe(readFileSync(file).length);
    expect(seen).toEqual(['first', 'second']);
  });

  it('takes a complete last object without a newline, and does not count it again when the newline arrives', async () => {
    const file = join(tempDir(), 't.jsonl');
    writeFileSync(file, `${user('a')}\n${user('b')}`);
    const a = await advanceTranscript(file, undefined);
    expect(a.cursor.lines).toBe(2);
    expect(a.cursor.offset).toBe(readFileSync(file).length);
    appendFileSync(file, `\n${user('c')}\n`);
    const b = await advanceTranscript(file, a.cursor);
    expect(b.reset).toBeUndefined();
    expect(b.newLines).toBe(1);
    expect(b.cursor.lines).toBe(3);
  });

  it('skips a line over maxLineBytes, counts it as oversize, and keeps reading later lines', async () => {
    const file = join(tempDir(), 't.jsonl');
    const big = user('x'.repeat(700_000)); // spans several 256 KiB read chunks
    writeFileSync(file, `${user('before')}\n${big}\n${user('after')}\n`);
    const texts: string[] = [];
    const r = await advanceTranscript(file, undefined, {
      maxLineBytes: 1000,
      visit: (p) => {
        for (const e of p.entries) if (e.kind === 'user-text') texts.push(e.text);
      },
    });
    expect(texts).toEqual(['before', 'after']);
    expect(r.cursor.oversize).toBe(1);
    expect(r.cursor.lines).toBe(3);
    expect(r.cursor.bad).toBe(0);
    expect(r.cursor.offset).toBe(readFileSync(file).length);
  });

  it('keeps a line of exactly maxLineBytes and skips one byte more', async () => {
    const file = join(tempDir(), 't.jsonl');
    const exact = user('y'.repeat(20));
    const longer = user('y'.repeat(21));
    writeFileSync(file, `${exact}\n${longer}\n`);
    const r = await advanceTranscript(file, undefined, { maxLineBytes: Buffer.byteLength(exact) });
    expect(r.cursor.lines).toBe(2);
    expect(r.cursor.oversize).toBe(1);
  });

  it('reads CRLF lines without the carriage return', async () => {
    const file = join(tempDir(), 't.jsonl');
    writeFileSync(file, `${user('one')}\r\n\r\n${user('two')}\r\n`);
    const raws: string[] = [];
    const r = await advanceTranscript(file, undefined, {
      visit: (_p, raw) => {
        raws.push(raw.text as string);
      },
    });
    expect(r.cursor.lines).toBe(2);
    expect(r.cursor.bad).toBe(0);
    expect(raws).toEqual([user('one'), user('two')]);
  });

  it('counts non-object JSON lines and invalid JSON as bad, and blank lines not at all', async () => {
    const file = join(tempDir(), 't.jsonl');
    writeFileSync(file, ['[]', '42', '"x"', 'null', 'true', '{not json', '', '   ', user('ok'), '{}'].join('\n') + '\n');
    const types: string[] = [];
    const r = await advanceTranscript(file, undefined, {
      visit: (p) => {
        types.push(p.type);
      },
    });
    expect(r.cursor.bad).toBe(6);
    expect(r.cursor.lines).toBe(8);
    expect(types).toEqual(['user', 'null']);
  });

  it('reads an empty file as nothing', async () => {
    const file = join(tempDir(), 't.jsonl');
    writeFileSync(file, '');
    const r = await advanceTranscript(file, undefined);
    expect(r.cursor).toEqual(startCursor());
    expect(r.newLines).toBe(0);
  });
});

describe('files that shrank or were rewritten', () => {
  const fixture = () => fixtures.find((f) => f.dest.endsWith('crud.jsonl')) as { path: string; stats: { lines: number } };

  it('restarts from 0 with reset "shrunk" when the file is shorter than the cursor', async () => {
    const file = join(tempDir(), 't.jsonl');
    copyFileSync(fixture().path, file);
    const a = await advanceTranscript(file, undefined);
    expect(a.cursor.lines).toBe(fixture().stats.lines);
    const lines = readFileSync(file, 'utf8').split('\n').slice(0, 5);
    writeFileSync(file, `${lines.join('\n')}\n`);
    let visited = 0;
    const b = await advanceTranscript(file, a.cursor, {
      visit: () => {
        visited += 1;
      },
    });
    expect(b.reset).toBe('shrunk');
    expect(b.cursor.lines).toBe(5);
    expect(visited).toBe(5);
    expect(b.cursor.offset).toBe(readFileSync(file).length);
    const fresh = await advanceTranscript(file, undefined);
    expect(b.cursor.context).toEqual(fresh.cursor.context);
  });

  it('restarts from 0 with reset "rewritten" when the bytes before the cursor changed', async () => {
    const file = join(tempDir(), 't.jsonl');
    copyFileSync(fixture().path, file);
    const a = await advanceTranscript(file, undefined);
    const other = fixtures.find((f) => f.dest.endsWith('todos.jsonl')) as { path: string };
    const replacement = Buffer.concat([readFileSync(other.path), readFileSync(other.path)]);
    expect(replacement.length).toBeGreaterThan(a.cursor.offset);
    writeFileSync(file, replacement);
    const b = await advanceTranscript(file, a.cursor);
    const fresh = await advanceTranscript(file, undefined);
    expect(b.reset).toBe('rewritten');
    expect(b.cursor.lines).toBe(fresh.cursor.lines);
    expect(b.cursor.offset).toBe(replacement.length);
    expect(b.cursor.context).toEqual(fresh.cursor.context);
  });

  it('does not reset when the file only grew', async () => {
    const file = join(tempDir(), 't.jsonl');
    copyFileSync(fixture().path, file);
    const a = await advanceTranscript(file, undefined);
    appendFileSync(file, '{"type":"user","message":{"role":"user","content":"more"}}\n');
    const b = await advanceTranscript(file, a.cursor);
    expect(b.reset).toBeUndefined();
    expect(b.newLines).toBe(1);
    expect(b.cursor.lines).toBe(a.cursor.lines + 1);
  });
});
