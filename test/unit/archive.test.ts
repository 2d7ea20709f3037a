import { appendFileSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Chunk, CUT_SHORT_NOTE, parseChunk, renderChunk, salvageCutShort } from '../../lib/archive/chunk-file.ts';
import { splitText } from '../../lib/archive/chunker.ts';
import { deferredWriter } from '../../lib/archive/deferred-writes.ts';
import {
  britishStems,
  isSurface,
  keywords,
  moneyAmounts,
  queryTerms,
  SURFACE_MARK,
  scanWords,
  splitIdentifier,
  stem,
  tokenize,
  words,
  wordTerms,
} from '../../lib/archive/keywords.ts';
import { openStore } from '../../lib/runtime/store.ts';
import { advanceSessionCursor, cursorFile, subagentTranscripts } from '../../lib/session/session-files.ts';
import { captureLogger } from './helpers/logger.ts';
import { fixturePath, transcriptFixtures } from './helpers/manifest.ts';
import { prng } from './helpers/prng.ts';
import { baseEnv, readLog, runCli, runHookSync } from './helpers/proc.ts';
import { scriptedTranscript } from './helpers/scripted-transcript.ts';
import { listFiles, useTempDirs } from './helpers/tmp.ts';

const tempDir = useTempDirs('ctxl-archive-');

// ---- fixtures ----

/** A real transcript with thinking blocks, tool calls and a compaction summary. */
const MAIN = fixturePath('oneryalcin__fasthooks/sample_main_transcript.jsonl');
/** Real tool calls with their results, no thinking. */
const CRUD = fixturePath('tomjnsn__agentlogs/crud.jsonl');
/** Schema zoo: progress, attachments, odd entry types, several session ids. */
const SMALL = fixturePath('synthetic/jazzyalex__agent-sessions/small.jsonl');
/** A parent transcript with `<sid>/subagents/agent-*.jsonl` next to it. */
const PARENT = fixturePath('synthetic/jazzyalex__agent-sessions/subagent/0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f.jsonl');
const PARENT_SID = '0a1b2c3d-4e5f-4061-8071-2a3b4c5d6e7f';
const SUBAGENT = fixturePath(`synthetic/jazzyalex__agent-sessions/subagent/${PARENT_SID}/subagents/agent-a0ad4f44468bdf20d.jsonl`);

type Obj = Record<string, unknown>;

/** The JSON lines of a transcript (blank and broken lines left out). */
function transcriptLines(file: string): Obj[] {
  const out: Obj[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    try {
      const v = JSON.parse(line) as unknown;
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) out.push(v as Obj);
    } catch {}
  }
  return out;
}

/** Content blocks of a line's message (a string content is one text block). */
function blocksOf(line: Obj): Obj[] {
  const message = line.message as Obj | undefined;
  const content = message?.content;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? (content.filter((b) => b !== null && typeof b === 'object') as Obj[]) : [];
}

// ---- a sandbox: data dir, project dir, and the CLI and hooks run against them ----

interface IngestSummary {
  sessions: number;
  chunksAdded: number;
  chunksTotal: number;
}

function sandbox() {
  const home = tempDir();
  const data = join(home, 'data');
  const project = join(home, 'project');
  mkdirSync(project);
  const env = baseEnv(home, { CTXL_HOME: data });
  const cli = (...args: string[]) => runCli(args, env, project);
  const ingest = (file: string, cwd = project): IngestSummary => {
    const r = cli('ingest', file, '--cwd', cwd, '--json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    return JSON.parse(r.stdout) as IngestSummary;
  };
  const hook = (name: string, input: Obj) => {
    const r = runHookSync(name, JSON.stringify(input), env, { cwd: project });
    expect(r.status).toBe(0);
    return r;
  };
  return { home, data, project, env, cli, ingest, hook };
}

/** Every chunk file of a session (or of all sessions), parsed; a file that does not parse fails the test. */
function readChunks(data: string, sessionId?: string): Chunk[] {
  const files = listFiles(join(data, 'sessions')).filter((f) => /^[^/]+\/archived\/[^/]+\.md$/.test(f));
  return files
    .filter((f) => sessionId === undefined || f.startsWith(`${sessionId}/`))
    .map((f) => {
      const parsed = parseChunk(readFileSync(join(data, 'sessions', f), 'utf8'));
      if (!parsed.ok) throw new Error(`${f}: ${parsed.reason}`);
      return parsed.chunk;
    });
}

const chunkIds = (data: string, sessionId: string) => readChunks(data, sessionId).map((c) => c.id);

/** Ids listed in a session's catalog.jsonl, in order, repeats kept. */
function catalogIds(data: string, sessionId: string): string[] {
  return readFileSync(join(data, 'sessions', sessionId, 'catalog.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as { v: number; id: string }).id);
}

/** The archived folder and catalog of a session, file by file (cursor.json moves its clock on every run). */
function archiveSnapshot(data: string, sessionId: string): Record<string, string> {
  const dir = join(data, 'sessions', sessionId);
  const snap: Record<string, string> = {};
  for (const f of listFiles(dir)) if (f.startsWith('archived/') || f === 'catalog.jsonl') snap[f] = readFileSync(join(dir, f), 'utf8');
  return snap;
}

function stopInput(sessionId: string, transcript: string, cwd: string): Obj {
  return { session_id: sessionId, transcript_path: transcript, cwd, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'done' };
}

function preCompactInput(sessionId: string, transcript: string, cwd: string): Obj {
  return { session_id: sessionId, transcript_path: transcript, cwd, hook_event_name: 'PreCompact', trigger: 'auto', custom_instructions: null };
}

// ---- 1. ingest ----

describe('ctxl ingest', () => {
  it('prints the JSON summary, is idempotent, and stores one file per chunk', () => {
    const t = sandbox();
    const sid = transcriptLines(CRUD).find((l) => typeof l.sessionId === 'string')?.sessionId as string;

    const first = t.ingest(CRUD);
    expect(Object.keys(first).sort()).toEqual(['chunksAdded', 'chunksTotal', 'sessions']);
    expect(first.sessions).toBe(1);
    expect(first.chunksAdded).toBeGreaterThan(0);
    expect(first.chunksTotal).toBe(first.chunksAdded);

    const second = t.ingest(CRUD);
    expect(second).toEqual({ sessions: 1, chunksAdded: 0, chunksTotal: first.chunksTotal });

    // The session id comes from the entries; the files on disk are exactly the chunks counted.
    const files = listFiles(join(t.data, 'sessions', sid, 'archived'));
    expect(files).toHaveLength(first.chunksTotal);
    expect(new Set(catalogIds(t.data, sid))).toEqual(new Set(files.map((f) => f.replace(/\.md$/, ''))));
    expect(catalogIds(t.data, sid)).toHaveLength(first.chunksTotal); // the second run listed nothing again
  });

  it('a transcript holding its lines twice is archived once: added counts each chunk once, listed once', () => {
    const t = sandbox();
    const sid = transcriptLines(CRUD).find((l) => typeof l.sessionId === 'string')?.sessionId as string;
    const twice = join(t.home, 'twice.jsonl');
    const text = readFileSync(CRUD, 'utf8');
    writeFileSync(twice, `${text}${text.endsWith('\n') ? '' : '\n'}${text}`);
    const r = t.ingest(twice);
    const files = listFiles(join(t.data, 'sessions', sid, 'archived'));
    expect(r.chunksAdded).toBe(files.length);
    expect(r.chunksTotal).toBe(files.length);
    expect(catalogIds(t.data, sid)).toHaveLength(files.length);
  });

  it('exits non-zero with a one-line error for a file that does not exist', () => {
    const t = sandbox();
    const r = t.cli('ingest', join(t.home, 'missing.jsonl'), '--json');
    expect(r.status).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/cannot read/);
  });
});

describe('the chunk writer thread of ctxl ingest', () => {
  const chunkOf = (id: string) => ({ id }) as Chunk;

  it('writes every file once past its start, exact, and reports a file it could not write', () => {
    const dir = join(tempDir(), 'archived');
    mkdirSync(dir);
    const direct: string[] = [];
    const writer = deferredWriter((file, text) => {
      direct.push(file);
      writeFileSync(file, text);
    });
    const texts = Array.from({ length: 300 }, (_, i) => `chunk ${i} ${'é'.repeat(i % 7)}\n`.repeat(1 + (i % 50)));
    texts.forEach((text, i) => {
      const file = join(dir, `${i.toString(16).padStart(16, '0')}.md`);
      expect(writer.exists(file)).toBe(false);
      writer.write(file, text, chunkOf(String(i)));
      expect(writer.exists(file)).toBe(true); // listed as soon as handed over
    });
    writer.write(join(dir, 'missing', 'x.md'), 'no folder', chunkOf('x'));
    const failures = writer.close();
    expect(direct).toHaveLength(64); // the first 64 on this thread, the rest on the worker
    expect(failures).toHaveLength(1);
    expect(failures[0]).toContain('x.md');
    expect(writer.pending.size).toBe(0);
    for (const [i, text] of texts.entries()) expect(readFileSync(join(dir, `${i.toString(16).padStart(16, '0')}.md`), 'utf8')).toBe(text);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('writes on the calling thread while not threaded (a small transcript), also once the worker runs', () => {
    const dir = tempDir();
    let direct = 0;
    const writer = deferredWriter((file, text) => {
      direct += 1;
      writeFileSync(file, text);
    });
    writer.threaded(false);
    for (let i = 0; i < 100; i++) writer.write(join(dir, `a${i}.md`), `text ${i}`, chunkOf(`a${i}`));
    expect(direct).toBe(100); // never started for these
    writer.threaded(true);
    for (let i = 0; i < 100; i++) writer.write(join(dir, `b${i}.md`), `text ${i}`, chunkOf(`b${i}`));
    expect(writer.drain()).toEqual([]);
    expect(direct).toBe(100); // past 64 files in all, the worker took these
    writer.threaded(false);
    writer.write(join(dir, 'c.md'), 'text c', chunkOf('c'));
    expect(direct).toBe(101);
    expect(writer.close()).toEqual([]);
    for (const name of ['a99.md', 'b0.md', 'b99.md', 'c.md']) expect(existsSync(join(dir, name))).toBe(true);
  });
});

// ---- 2. what a chunk holds ----

describe('chunk files from a real transcript', () => {
  it('the fixture has what this test needs (manifest)', () => {
    const stats = transcriptFixtures().find((f) => f.dest === 'oneryalcin__fasthooks/sample_main_transcript.jsonl')?.stats;
    expect(stats?.blocks.thinking ?? 0).toBeGreaterThan(0);
    expect(stats?.blocks.tool_result ?? 0).toBeGreaterThan(0);
    expect(stats?.compactSummary ?? 0).toBeGreaterThan(0);
  });

  it('carry version 1, session, project, type, timestamp and real uuids in transcript order', () => {
    const t = sandbox();
    const lines = transcriptLines(MAIN);
    const sid = lines.find((l) => typeof l.sessionId === 'string')?.sessionId as string;
    t.ingest(MAIN);
    const chunks = readChunks(t.data);
    expect(chunks.length).toBeGreaterThan(0);

    const position = new Map<string, number>();
    lines.forEach((l, i) => {
      if (typeof l.uuid === 'string') position.set(l.uuid, i);
    });
    for (const c of chunks) {
      expect(c.version).toBe(1);
      expect(c.session).toBe(sid);
      expect(c.project).toBe(t.project);
      expect(['user', 'assistant', 'tool', 'summary']).toContain(c.type);
      expect(new Date(c.timestamp).toISOString()).toBe(c.timestamp);
      expect(c.sourceUuids.length).toBeGreaterThan(0);
      const at = c.sourceUuids.map((u) => position.get(u));
      for (const p of at) expect(p, `${c.id}: uuid not in the transcript`).toBeDefined();
      // Transcript order: strictly increasing line positions.
      for (let i = 1; i < at.length; i++) expect(at[i] as number).toBeGreaterThan(at[i - 1] as number);
    }

    // A tool chunk: the tool_use entry's uuid, then the tool_result entry's, both for its call.
    const tools = chunks.filter((c) => c.type === 'tool');
    const results = lines.flatMap((l) => blocksOf(l).filter((b) => b.type === 'tool_result'));
    expect(tools.filter((c) => c.part === undefined || c.part[0] === 1)).toHaveLength(results.length);
    for (const c of tools) {
      expect(c.sourceUuids).toHaveLength(2);
      const [use, result] = c.sourceUuids.map((u) => lines[position.get(u) as number] as Obj);
      expect(blocksOf(use as Obj).some((b) => b.type === 'tool_use' && b.id === c.toolUseId)).toBe(true);
      expect(blocksOf(result as Obj).some((b) => b.type === 'tool_result' && b.tool_use_id === c.toolUseId)).toBe(true);
    }

    // One assistant chunk per assistant text block, one summary for the compaction summary.
    const assistantTexts = lines
      .filter((l) => l.type === 'assistant')
      .flatMap((l) => blocksOf(l).filter((b) => b.type === 'text' && String(b.text).trim() !== ''));
    expect(new Set(chunks.filter((c) => c.type === 'assistant').map((c) => c.sourceUuids[0])).size).toBe(assistantTexts.length);
    const summaryLine = lines.find((l) => l.isCompactSummary === true);
    expect(chunks.some((c) => c.type === 'summary' && c.sourceUuids[0] === summaryLine?.uuid)).toBe(true);
  });

  it('never hold thinking-block text', () => {
    const t = sandbox();
    t.ingest(MAIN);
    const texts = readChunks(t.data).map((c) => `${c.title}\n${c.text}`);
    const thinking = transcriptLines(MAIN).flatMap((l) =>
      blocksOf(l)
        .filter((b) => b.type === 'thinking')
        .map((b) => String(b.thinking)),
    );
    expect(thinking.length).toBeGreaterThan(0);
    for (const think of thinking) {
      // Start and end of each thinking block: neither appears in any chunk.
      for (const piece of [think.slice(0, 40), think.slice(-40)])
        expect(
          texts.some((x) => x.includes(piece)),
          piece,
        ).toBe(false);
    }
  });

  it('never come from progress entries or other bookkeeping lines', () => {
    const t = sandbox();
    t.ingest(SMALL);
    const chunks = readChunks(t.data);
    expect(chunks.length).toBeGreaterThan(0);
    const lines = transcriptLines(SMALL);
    const progress = lines.filter((l) => l.type === 'progress');
    expect(progress.length).toBeGreaterThan(0);
    // uuids of the other lines (the fixture reuses a placeholder uuid on some content lines: those are left out).
    // A queued prompt's attachment is the user's words (its only record), not bookkeeping.
    const queued = (l: Obj) => l.type === 'attachment' && (l.attachment as Obj | undefined)?.type === 'queued_command';
    const isContent = (l: Obj) => l.type === 'user' || l.type === 'assistant' || queued(l);
    const contentUuids = new Set(lines.filter(isContent).map((l) => l.uuid));
    const bookkeeping = new Set(lines.filter((l) => !isContent(l) && typeof l.uuid === 'string' && !contentUuids.has(l.uuid)).map((l) => l.uuid as string));
    expect(bookkeeping).toContain(progress[0]?.uuid);
    for (const c of chunks) for (const u of c.sourceUuids) expect(bookkeeping.has(u), `${c.id} came from ${u}`).toBe(false);
    // The progress line's own text is not archived either.
    expect(chunks.some((c) => c.text.includes('hook placeholder'))).toBe(false);
  });
});

// ---- 3. subagents ----

describe('entry shapes real transcripts hold', () => {
  const SID = 'a1b2c3d4-0000-4000-8000-00000000shap';
  const line = (o: Obj) => JSON.stringify({ sessionId: SID, timestamp: '2026-11-30T10:00:00.000Z', cwd: '/tmp', isSidechain: false, ...o });
  const write = (t: ReturnType<typeof sandbox>, lines: string[]) => {
    const file = join(t.home, `${SID}.jsonl`);
    writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  };

  it('archives every text block of a line, and the first keeps the id it always had', () => {
    const t = sandbox();
    const file = write(t, [
      line({
        type: 'user',
        uuid: 'u-1',
        message: {
          role: 'user',
          content: [
            { type: 'text', text: '<ide_opened_file>src/frob.ts</ide_opened_file>' },
            { type: 'text', text: 'please rename frobnicate' },
          ],
        },
      }),
      line({
        type: 'assistant',
        uuid: 'a-1',
        message: {
          id: 'msg_1',
          role: 'assistant',
          content: [
            { type: 'text', text: 'Sure, I will rename frobnicate.' },
            { type: 'text', text: 'Second paragraph about the zebracorn.' },
          ],
        },
      }),
    ]);
    const summary = t.ingest(file);
    expect(summary).toEqual({ sessions: 1, chunksAdded: 4, chunksTotal: 4 });
    const texts = readChunks(t.data, SID).map((c) => `${c.type}: ${c.text}`);
    expect(texts.sort()).toEqual([
      'assistant: Second paragraph about the zebracorn.',
      'assistant: Sure, I will rename frobnicate.',
      'user: <ide_opened_file>src/frob.ts</ide_opened_file>',
      'user: please rename frobnicate',
    ]);
    const first = readChunks(t.data, SID).find((c) => c.text === 'please rename frobnicate');
    expect(first?.sourceUuids).toEqual(['u-1']);
    expect(t.ingest(file).chunksAdded).toBe(0);
  });

  it("archives the text of a block type it does not know (a later client's), without moving the known blocks' ids", () => {
    const t = sandbox();
    const content = [
      { type: 'text', text: 'Known first block.' },
      { type: 'future_text_block', text: 'cited fact narwhalcitation' },
      { type: 'text', text: 'Known second block.' },
      { type: 'future_blob', data: 'AAAA' },
    ];
    const known = write(t, [
      line({ type: 'assistant', uuid: 'a-1', message: { id: 'm1', role: 'assistant', content: content.filter((b) => b.type === 'text') } }),
    ]);
    t.ingest(known);
    const before = readChunks(t.data, SID).map((c) => c.id);
    const file = write(t, [
      line({ type: 'assistant', uuid: 'a-1', message: { id: 'm1', role: 'assistant', content } }),
      line({ type: 'user', uuid: 'u-1', message: { role: 'user', content: [{ type: 'future_note', text: 'user side pangolinnote' }] } }),
    ]);
    expect(t.ingest(file)).toMatchObject({ chunksAdded: 2, chunksTotal: 4 });
    const chunks = readChunks(t.data, SID);
    expect(chunks.map((c) => c.id)).toEqual(expect.arrayContaining(before));
    expect(chunks.map((c) => `${c.type}: ${c.text}`).sort()).toEqual([
      'assistant: Known first block.',
      'assistant: Known second block.',
      'assistant: cited fact narwhalcitation',
      'user: user side pangolinnote',
    ]);
  });

  it('stamps a line without a timestamp, or with a broken one, with the time of the line before', () => {
    const t = sandbox();
    const at = (o: Obj, timestamp: string | undefined) => {
      const v = JSON.parse(line(o)) as Obj;
      if (timestamp === undefined) delete v.timestamp;
      else v.timestamp = timestamp;
      return JSON.stringify(v);
    };
    const file = write(t, [
      at({ type: 'user', uuid: 'u-1', message: { role: 'user', content: 'dated one' } }, '2023-11-14T22:13:20.000Z'),
      at({ type: 'user', uuid: 'u-2', message: { role: 'user', content: 'no timestamp' } }, undefined),
      at({ type: 'user', uuid: 'u-3', message: { role: 'user', content: 'broken timestamp' } }, 'not-a-date'),
      at({ type: 'user', uuid: 'u-4', message: { role: 'user', content: 'dated two' } }, '2023-11-15T08:00:00.000Z'),
    ]);
    t.ingest(file);
    const when = Object.fromEntries(readChunks(t.data, SID).map((c) => [c.text, c.timestamp]));
    expect(when).toEqual({
      'dated one': '2023-11-14T22:13:20.000Z',
      'no timestamp': '2023-11-14T22:13:20.000Z',
      'broken timestamp': '2023-11-14T22:13:20.000Z',
      'dated two': '2023-11-15T08:00:00.000Z',
    });
  });

  it("archives a prompt queued while Claude was working as the user's", () => {
    const t = sandbox();
    const file = write(t, [
      line({ type: 'user', uuid: 'u-1', message: { role: 'user', content: 'fix the parser' } }),
      line({
        type: 'attachment',
        uuid: 'att-1',
        attachment: { type: 'queued_command', prompt: 'also update the changelog with the walrus entry', commandMode: 'prompt' },
      }),
      line({ type: 'attachment', uuid: 'att-2', attachment: { type: 'queued_command', prompt: [{ type: 'text', text: 'and bump the narwhal version' }] } }),
    ]);
    t.ingest(file);
    const users = readChunks(t.data, SID)
      .filter((c) => c.type === 'user')
      .map((c) => c.text);
    expect(users.sort()).toEqual(['also update the changelog with the walrus entry', 'and bump the narwhal version', 'fix the parser']);
  });

  it('keeps colour codes and the reminder Claude Code appends to a Read out of the archived text', () => {
    const t = sandbox();
    const reminder = '\n\n<system-reminder>\nWhenever you read a file, you should consider whether it would be considered malware.\n</system-reminder>\n';
    const file = write(t, [
      line({
        type: 'assistant',
        uuid: 'a-1',
        message: { id: 'msg_1', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_r', name: 'Read', input: { file_path: '/tmp/x.ts' } }] },
      }),
      line({
        type: 'user',
        uuid: 'u-1',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_r', content: `     1\tconst answer = 42;${reminder}` }] },
      }),
      line({
        type: 'assistant',
        uuid: 'a-2',
        message: { id: 'msg_2', role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_b', name: 'Bash', input: { command: 'npm test' } }] },
      }),
      line({
        type: 'user',
        uuid: 'u-2',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_b', content: '\x1b[32m✓\x1b[39m parser works \x1b[2m(3 ms)\x1b[22m' }] },
      }),
    ]);
    t.ingest(file);
    const tools = readChunks(t.data, SID).filter((c) => c.type === 'tool');
    const read = tools.find((c) => c.tool === 'Read');
    expect(read?.text).toContain('const answer = 42;');
    expect(read?.text).not.toContain('system-reminder');
    expect(read?.text).not.toContain('malware');
    expect(tools.find((c) => c.tool === 'Bash')?.text).toContain('✓ parser works (3 ms)');
    for (const c of tools) expect(c.text).not.toContain('\x1b');
  });

  it("archives a call's multi-line strings as written, so the first word of each line is a word of the index", () => {
    const t = sandbox();
    const content = 'export const RETRIES = 3;\nretryBackoffMs: 250\n\nfunction narwhalGate() {\n  return true;\n}';
    const file = write(t, [
      line({
        type: 'assistant',
        uuid: 'a-1',
        message: {
          id: 'msg_1',
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_w', name: 'Write', input: { file_path: '/tmp/gate.ts', content } }],
        },
      }),
      line({
        type: 'user',
        uuid: 'u-1',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_w', content: 'File created successfully' }] },
      }),
      line({
        type: 'assistant',
        uuid: 'a-2',
        message: {
          id: 'msg_2',
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: 'toolu_m',
              name: 'MultiEdit',
              input: { file_path: '/tmp/gate.ts', edits: [{ old_string: 'a\nquokkaLimit = 1', new_string: 'b' }] },
            },
          ],
        },
      }),
      line({ type: 'user', uuid: 'u-2', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_m', content: 'Applied 1 edit' }] } }),
    ]);
    t.ingest(file);
    const tools = readChunks(t.data, SID).filter((c) => c.type === 'tool');
    const written = tools.find((c) => c.tool === 'Write');
    expect(written?.text.split('\n\n')[0]).toBe(
      'Write: /tmp/gate.ts\ncontent:\n  export const RETRIES = 3;\n  retryBackoffMs: 250\n  function narwhalGate() {\n    return true;\n  }',
    );
    expect(written?.text.endsWith('File created successfully')).toBe(true);
    expect(tools.find((c) => c.tool === 'MultiEdit')?.text).toContain('edits:\n  -\n    old_string:\n      a\n      quokkaLimit = 1\n    new_string: "b"');
    // As JSON, `\nretryBackoffMs` and `\nfunction narwhalGate` were the terms "nretrybackoffms" and "nfunction".
    for (const c of tools) expect(c.keywords.filter((k) => /^n(?:retry|function|export|quokka)/.test(k))).toEqual([]);
    for (const [query, tool] of [
      ['retryBackoffMs', 'Write'],
      ['quokkaLimit', 'MultiEdit'],
    ]) {
      const r = t.cli('recall', '--json', '--limit', '1', '--', query as string);
      expect(r.status).toBe(0);
      expect((JSON.parse(r.stdout) as { results: Array<{ title: string }> }).results[0]?.title).toContain(tool);
    }
  });

  it("keeps a call's description on the line after its command, where a question in plain words finds it", () => {
    const t = sandbox();
    const file = write(t, [
      line({
        type: 'assistant',
        uuid: 'a-1',
        message: {
          id: 'msg_1',
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: 'toolu_b',
              name: 'Bash',
              input: { command: 'node scripts/reindex.mjs --all', description: '  Rebuild the\n search index ' },
            },
          ],
        },
      }),
      line({
        type: 'user',
        uuid: 'u-1',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_b', content: 'reindexed 41327 documents in 93.4s' }] },
      }),
      line({
        type: 'assistant',
        uuid: 'a-2',
        message: {
          id: 'msg_2',
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: 'toolu_t',
              name: 'Task',
              input: { description: 'Map the repo structure', prompt: 'List the top-level folders.', subagent_type: 'Explore' },
            },
          ],
        },
      }),
      line({ type: 'user', uuid: 'u-2', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_t', content: 'src/, test/, docs/' }] } }),
    ]);
    t.ingest(file);
    const tools = readChunks(t.data, SID).filter((c) => c.type === 'tool');
    const bash = tools.find((c) => c.tool === 'Bash');
    expect(bash?.text).toBe('Bash: node scripts/reindex.mjs --all\nRebuild the search index\n\nreindexed 41327 documents in 93.4s');
    // The title stays the call's first line.
    expect(bash?.title).toBe('Bash: node scripts/reindex.mjs --all');
    expect(tools.find((c) => c.tool === 'Task')?.text.split('\n\n')[0]).toBe(
      'Task\nMap the repo structure\nprompt: "List the top-level folders."\nsubagent_type: "Explore"',
    );
    const r = t.cli('recall', '--json', '--limit', '1', '--', 'how long did rebuilding the search index take');
    expect((JSON.parse(r.stdout) as { results: Array<{ title: string }> }).results[0]?.title).toBe('Bash: node scripts/reindex.mjs --all');
  });

  it("archives Claude's task list as a checklist, without the client's fixed answer; another answer as it is, another shape as fields", () => {
    const t = sandbox();
    const ack =
      'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable';
    const todoCall = (id: string, uuid: string, input: unknown) =>
      line({ type: 'assistant', uuid, message: { id: `msg_${id}`, role: 'assistant', content: [{ type: 'tool_use', id, name: 'TodoWrite', input }] } });
    const result = (id: string, uuid: string, content: string) =>
      line({ type: 'user', uuid, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] } });
    const file = write(t, [
      todoCall('toolu_1', 'a-1', {
        todos: [
          { content: 'Add the late fee', status: 'completed', activeForm: 'Adding the late fee' },
          { content: 'Test the\n  fee rounding', status: 'in_progress', activeForm: 'Testing the fee rounding' },
          { content: 'Update the docs', status: 'pending', activeForm: 'Updating the docs' },
        ],
      }),
      result('toolu_1', 'u-1', ack),
      todoCall('toolu_2', 'a-2', { todos: [{ content: 'Ship it', status: 'pending', activeForm: 'Shipping it' }] }),
      result('toolu_2', 'u-2', 'Todo list rejected: too many items'),
      todoCall('toolu_3', 'a-3', { todos: [{ title: 'no content field' }] }),
      result('toolu_3', 'u-3', ack),
    ]);
    t.ingest(file);
    const text = (id: string) => readChunks(t.data, SID).find((c) => c.toolUseId === id)?.text;
    expect(text('toolu_1')).toBe('TodoWrite\n- [x] Add the late fee\n- [ ] Test the fee rounding (in progress)\n- [ ] Update the docs\n\n');
    expect(text('toolu_2')).toBe('TodoWrite\n- [ ] Ship it\n\nTodo list rejected: too many items');
    // Not a list of items with content: its fields, as any call's.
    expect(text('toolu_3')).toBe('TodoWrite\ntodos:\n  -\n    title: "no content field"\n\n');
  });
  it('archives a call that never got its result once the user types again; a prompt queued while a call runs and a subagent wait', () => {
    const t = sandbox();
    const call = (uuid: string, id: string, name: string, input: Obj, extra: Obj = {}) =>
      line({ type: 'assistant', uuid, ...extra, message: { id: `msg_${uuid}`, role: 'assistant', content: [{ type: 'tool_use', id, name, input }] } });
    const result = (uuid: string, id: string, content: string, extra: Obj = {}) =>
      line({ type: 'user', uuid, ...extra, message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] } });
    const file = write(t, [
      // Killed mid-call (no result), then resumed with a new prompt.
      call('a-1', 'toolu_lost', 'Edit', { file_path: '/tmp/gear.ts', old_string: 'const teeth = 12', new_string: 'const teeth = 16' }),
      line({ type: 'user', uuid: 'u-1', message: { role: 'user', content: 'where were we with the gearbox' } }),
      // A prompt typed while a call runs comes as an attachment, before the call's result.
      call('a-2', 'toolu_slow', 'Bash', { command: 'npm run build' }),
      line({ type: 'attachment', uuid: 'att-1', attachment: { type: 'queued_command', prompt: 'then run the linter' } }),
      result('u-2', 'toolu_slow', 'built in 41s'),
      // A line with text beside a result (before it, too) answers; it is no new prompt.
      call('a-4', 'toolu_mixed', 'Bash', { command: 'npm run lint' }),
      line({
        type: 'user',
        uuid: 'u-5',
        message: {
          role: 'user',
          content: [
            { type: 'text', text: 'also look at the warnings' },
            { type: 'tool_result', tool_use_id: 'toolu_mixed', content: 'lint: 0 errors' },
          ],
        },
      }),
      // A subagent's call waits for its own result, whatever the main conversation says meanwhile.
      call('a-3', 'toolu_sub', 'Grep', { pattern: 'walrus' }, { isSidechain: true }),
      line({ type: 'user', uuid: 'u-3', message: { role: 'user', content: 'and the docs?' } }),
      result('u-4', 'toolu_sub', 'src/walrus.ts:3', { isSidechain: true }),
    ]);
    t.ingest(file);
    const tools = readChunks(t.data, SID).filter((c) => c.type === 'tool');
    const lost = tools.find((c) => c.toolUseId === 'toolu_lost');
    expect(lost?.text).toContain('old_string: "const teeth = 12"');
    expect(lost?.text.endsWith('[no result: the conversation went on before this call returned]')).toBe(true);
    expect(lost?.sourceUuids).toEqual(['a-1']);
    expect(tools.find((c) => c.toolUseId === 'toolu_slow')?.text.endsWith('built in 41s')).toBe(true);
    expect(tools.find((c) => c.toolUseId === 'toolu_mixed')?.text.endsWith('lint: 0 errors')).toBe(true);
    expect(tools.find((c) => c.toolUseId === 'toolu_sub')?.text.endsWith('src/walrus.ts:3')).toBe(true);
    const cursor = JSON.parse(readFileSync(join(t.data, 'sessions', SID, 'cursor.json'), 'utf8')) as { chunker: { pending: Obj } };
    expect(cursor.chunker.pending).toEqual({});
  });

  it("leaves what Claude Code writes into a user's message out of the user's words: system reminders, the interruption notice", () => {
    const t = sandbox();
    const file = write(t, [
      line({
        type: 'user',
        uuid: 'u-1',
        message: { role: 'user', content: 'rename the walrus module\n\n<system-reminder>\nA CLAUDE.md is now in scope.\n</system-reminder>' },
      }),
      line({
        type: 'user',
        uuid: 'u-2',
        message: { role: 'user', content: [{ type: 'text', text: '<system-reminder>cwd changed to /tmp/other via /cd</system-reminder>' }] },
      }),
      line({ type: 'user', uuid: 'u-3', message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user for tool use]' }] } }),
      line({ type: 'user', uuid: 'u-4', message: { role: 'user', content: '[Request interrupted by user]' } }),
      // The user's own words about the notice, a block quoted inside a line, and an unclosed tag stay as written.
      line({ type: 'user', uuid: 'u-5', message: { role: 'user', content: 'why did I see [Request interrupted by user] twice?' } }),
      line({ type: 'user', uuid: 'u-6', message: { role: 'user', content: 'what does <system-reminder> do' } }),
      line({
        type: 'user',
        uuid: 'u-7',
        message: { role: 'user', content: 'my hook prints <system-reminder>lint: 3 errors</system-reminder> but Claude ignores it' },
      }),
      // The harness's shapes: a block and the prompt on one line; blocks back to back before it.
      line({
        type: 'user',
        uuid: 'u-8',
        message: { role: 'user', content: "<system-reminder>The user's timezone is UTC</system-reminder>fix the narwhal loop" },
      }),
      line({
        type: 'user',
        uuid: 'u-9',
        message: {
          role: 'user',
          content: '<system-reminder>a</system-reminder><system-reminder>\nNote: x.ts was read before\n</system-reminder>\nadd a quokka test',
        },
      }),
    ]);
    t.ingest(file);
    const users = readChunks(t.data, SID).filter((c) => c.type === 'user');
    expect(users.map((c) => c.text).sort()).toEqual([
      'add a quokka test',
      'fix the narwhal loop',
      'my hook prints <system-reminder>lint: 3 errors</system-reminder> but Claude ignores it',
      'rename the walrus module',
      'what does <system-reminder> do',
      'why did I see [Request interrupted by user] twice?',
    ]);
    // What is left is the user's own: goals and constraints are read from it (client chunks give none).
    expect(users.every((c) => c.client !== true)).toBe(true);
  });

  it('archives a server tool call with its result from the same message, and a text document the user attached', () => {
    const t = sandbox();
    const file = write(t, [
      line({
        type: 'user',
        uuid: 'u-1',
        message: {
          role: 'user',
          content: [
            { type: 'document', title: 'notes.txt', source: { type: 'text', media_type: 'text/plain', data: 'The pangolin release ships on Friday.' } },
            { type: 'text', text: 'look up the quokka protocol' },
          ],
        },
      }),
      line({
        type: 'assistant',
        uuid: 'a-1',
        message: {
          id: 'msg_1',
          role: 'assistant',
          content: [
            { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'quokka protocol spec' } },
            {
              type: 'web_search_tool_result',
              tool_use_id: 'srvtoolu_1',
              content: [
                { type: 'web_search_result', title: 'Quokka Protocol 2.0', url: 'https://example.org/quokka', encrypted_content: 'EqAbCd', page_age: '2 days' },
                { type: 'web_search_result', title: 'Quokka FAQ', url: 'https://example.org/faq', encrypted_content: 'EqEfGh' },
              ],
            },
            { type: 'text', text: 'The spec is version 2.0.' },
          ],
        },
      }),
    ]);
    t.ingest(file);
    const chunks = readChunks(t.data, SID);
    const search = chunks.find((c) => c.type === 'tool');
    expect(search?.tool).toBe('web_search');
    expect(search?.text).toContain('quokka protocol spec');
    expect(search?.text).toContain('Quokka Protocol 2.0 — https://example.org/quokka');
    expect(search?.text).not.toContain('EqAbCd');
    expect(search?.sourceUuids).toEqual(['a-1']);
    const users = chunks.filter((c) => c.type === 'user').map((c) => c.text);
    expect(users.sort()).toEqual(['look up the quokka protocol', 'notes.txt\n\nThe pangolin release ships on Friday.']);
    // The text block keeps the id it had before documents were archived: the uuid alone.
    expect(chunks.find((c) => c.text === 'look up the quokka protocol')?.sourceUuids).toEqual(['u-1']);
    expect(t.ingest(file).chunksAdded).toBe(0);
  });
});

describe('subagent transcripts', () => {
  it('are archived under the parent session, marked sidechain', () => {
    const t = sandbox();
    t.ingest(PARENT);
    expect(listFiles(join(t.data, 'sessions')).every((f) => f.startsWith(`${PARENT_SID}/`))).toBe(true);
    const chunks = readChunks(t.data, PARENT_SID);
    const subUuids = new Set(transcriptLines(SUBAGENT).map((l) => l.uuid as string));
    const fromSub = chunks.filter((c) => c.sourceUuids.some((u) => subUuids.has(u)));
    expect(fromSub.map((c) => c.type).sort()).toEqual(['assistant', 'tool', 'user']);
    for (const c of fromSub) {
      expect(c.session).toBe(PARENT_SID);
      expect(c.sidechain).toBe(true);
    }
    expect(fromSub.find((c) => c.type === 'user')?.text).toBe('Search the repo for TODO comments');
    // And the parent's own messages are there too, not marked sidechain.
    expect(chunks.some((c) => c.text === 'Delegate a repo search to a subagent' && c.sidechain === undefined)).toBe(true);
  });

  it("a workflow's agents, two folders further down, are archived too; its journal is no transcript", () => {
    const t = sandbox();
    const dir = join(t.home, 'projects-copy');
    const run = join(dir, PARENT_SID, 'subagents', 'workflows', 'wf_1');
    mkdirSync(run, { recursive: true });
    const parent = join(dir, `${PARENT_SID}.jsonl`);
    copyFileSync(PARENT, parent);
    copyFileSync(SUBAGENT, join(run, 'agent-a0ad4f44468bdf20d.jsonl'));
    writeFileSync(join(run, 'journal.jsonl'), `${JSON.stringify({ type: 'started', agentId: 'a0ad4f44468bdf20d', label: 'journal-only-label' })}\n`);
    writeFileSync(join(run, 'agent-a0ad4f44468bdf20d.meta.json'), '{"label":"x"}');
    const summary = t.ingest(parent);
    const chunks = readChunks(t.data, PARENT_SID);
    const subUuids = new Set(transcriptLines(SUBAGENT).map((l) => l.uuid as string));
    const fromSub = chunks.filter((c) => c.sourceUuids.some((u) => subUuids.has(u)));
    expect(fromSub.map((c) => c.type).sort()).toEqual(['assistant', 'tool', 'user']);
    for (const c of fromSub) expect(c.sidechain).toBe(true);
    expect(chunks.some((c) => c.text.includes('journal-only-label'))).toBe(false);
    expect(summary.chunksAdded).toBe(chunks.length);
    const cursors = readdirSync(join(t.data, 'sessions', PARENT_SID)).filter((f) => f.startsWith('cursor-'));
    expect(cursors.some((f) => /^cursor-workflows-wf_1-agent-a0ad4f44468bdf20d-[0-9a-f]{8}\.json$/.test(f))).toBe(true);
    expect(t.ingest(parent).chunksAdded).toBe(0);
  });

  it('are looked for up to four folders below subagents/, each with a cursor of its own', () => {
    const t = sandbox();
    const sid = 'a1b2c3d4-0000-4000-8000-0000000000aa';
    const root = join(t.home, 'p', sid, 'subagents');
    const files = [
      'agent-x.jsonl',
      'agent/x.jsonl',
      'agent-x/y.jsonl',
      'a/b/c/d/deep.jsonl',
      'a/b/c/d/e/too-deep.jsonl',
      'w/journal.jsonl',
      'w/agent-journal.jsonl',
    ];
    for (const f of files) {
      mkdirSync(dirname(join(root, f)), { recursive: true });
      writeFileSync(join(root, f), '');
    }
    mkdirSync(join(root, 'dir.jsonl'));
    const found = subagentTranscripts(join(t.home, 'p', `${sid}.jsonl`), sid);
    expect(found.map((f) => f.file.slice(root.length + 1)).sort()).toEqual([
      'a/b/c/d/deep.jsonl',
      'agent-x.jsonl',
      'agent-x/y.jsonl',
      'agent/x.jsonl',
      'w/agent-journal.jsonl',
    ]);
    expect(found.find((f) => f.file.endsWith('/agent-x.jsonl'))?.cursorName).toBe('cursor-agent-x.json');
    expect(new Set(found.map((f) => f.cursorName)).size).toBe(found.length);
  });

  it('are found by ctxl recall under the parent session', () => {
    const t = sandbox();
    t.ingest(PARENT);
    const r = t.cli('recall', 'TODO', 'comments', '--json');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { results: Array<{ sessionId: string; sourceUuids: string[] }> };
    expect(out.results.some((x) => x.sessionId === PARENT_SID && x.sourceUuids.includes('cu1'))).toBe(true);
  });

  it("a subagent's pass waits for the session's own cursor lock (a large output's job writes under it)", async () => {
    const t = sandbox();
    const store = openStore(t.data, captureLogger());
    const env = { store, log: captureLogger(), now: () => new Date(), project: { root: t.project }, timeLeft: () => 600 };
    let during: Awaited<ReturnType<typeof advanceSessionCursor>> | 'not run' = 'not run';
    await store.withLock(cursorFile(store, PARENT_SID), async () => {
      during = await advanceSessionCursor(env, PARENT_SID, SUBAGENT, { cursorName: 'cursor-agent-a0ad4f44468bdf20d.json' });
    });
    expect(during).toBeUndefined(); // busy: gave up after its wait, wrote nothing
    expect(existsSync(join(t.data, 'sessions', PARENT_SID, 'archived'))).toBe(false);
    const after = await advanceSessionCursor(env, PARENT_SID, SUBAGENT, { cursorName: 'cursor-agent-a0ad4f44468bdf20d.json' });
    expect(after?.archived.added).toBeGreaterThan(0);
  });

  // Regression: ingestFiles adds up only the main transcript's `archived.added` (catchUpSession returns
  // the main advance), so chunks archived from subagent transcripts are stored but not counted.
  it('ingest counts subagent chunks in chunksAdded (fresh data dir: added equals total)', () => {
    const t = sandbox();
    const summary = t.ingest(PARENT);
    expect(summary.chunksTotal).toBe(readChunks(t.data, PARENT_SID).length);
    expect(summary.chunksAdded).toBe(summary.chunksTotal);
  });
});

// ---- 4. the chunk file format ----

function sampleChunk(over: Partial<Chunk> = {}): Chunk {
  return {
    version: 1,
    id: 'abcdef0123456789',
    session: 'sess-1',
    project: '/repo',
    phase: 'implementation',
    type: 'tool',
    tool: 'Bash',
    toolUseId: 'toolu_1',
    files: ['/repo/src/a.ts'],
    timestamp: '2025-10-12T21:35:53.825Z',
    sourceUuids: ['u1', 'u2'],
    keywords: ['npm', 'a.ts'],
    title: 'Bash: npm test -- "quoted" \\ back',
    sidechain: true,
    part: [2, 3],
    text: 'Bash: npm test\n\n---\nnot frontmatter: "x"\n---\nü ✓ 日本\nlast line',
    ...over,
  };
}

describe('splitText', () => {
  // The split as it was first written (copying the rest after each cut): part boundaries decide chunk
  // ids, so a faster split must cut exactly where this one did.
  function reference(text: string, max: number): string[] {
    if (text.length <= max) return [text];
    const parts: string[] = [];
    let rest = text;
    while (rest.length > max) {
      const window = rest.slice(0, max);
      let at = window.lastIndexOf('\n\n');
      if (at < max / 2) at = window.lastIndexOf('\n');
      if (at < max / 2) at = max;
      parts.push(rest.slice(0, at));
      rest = rest.slice(at).replace(/^\n+/, '');
    }
    if (rest !== '') parts.push(rest);
    return parts;
  }

  it('cuts where the reference split cuts, on paragraphs, lines, runs of newlines and long lines', () => {
    const rnd = prng(4242);
    const pieces = ['\n', '\n\n', '\n\n\n', 'word ', 'x'.repeat(40), 'a line of text\n', 'é', '𝒳'];
    for (let round = 0; round < 400; round++) {
      let text = '';
      const length = Math.floor(rnd() * 3_000);
      while (text.length < length) text += pieces[Math.floor(rnd() * pieces.length)];
      const max = 2 + Math.floor(rnd() * 300);
      expect(splitText(text, max), `round ${round}, max ${max}`).toEqual(reference(text, max));
    }
  });
});

describe('renderChunk / parseChunk', () => {
  it('round-trips every field, including a body with --- lines and a trailing newline', () => {
    for (const chunk of [
      sampleChunk(),
      sampleChunk({ text: 'ends with a newline\n' }),
      sampleChunk({ text: '' }),
      // Optional fields absent stay absent.
      { ...sampleChunk({ type: 'user', title: 'hi' }), tool: undefined, toolUseId: undefined, sidechain: undefined, part: undefined },
    ]) {
      const clean = JSON.parse(JSON.stringify(chunk)) as Chunk; // drop keys set to undefined
      const parsed = parseChunk(renderChunk(clean));
      expect(parsed).toEqual({ ok: true, chunk: clean });
    }
  });

  it('writes frontmatter a reader can see: one JSON value per line between --- lines', () => {
    const file = renderChunk(sampleChunk());
    const head = file.split('\n---\n')[0] as string;
    expect(file.startsWith('---\nversion: 1\nid: "abcdef0123456789"\n')).toBe(true);
    for (const line of head.split('\n').slice(1)) expect(() => JSON.parse(line.slice(line.indexOf(': ') + 2))).not.toThrow();
  });

  // Regression: parseChunk strips one leading newline from the body (`.replace(/^\n/, '')` in
  // chunk-file.ts), but renderChunk writes none, so a text that starts with a newline loses it.
  it('reads a file written before the length key as it was', () => {
    const chunk = sampleChunk({ text: 'line one\nline two' });
    const old = renderChunk(chunk)
      .replace(/^length: .*\n/m, '')
      .replace(/^textHash: .*\n/m, '');
    expect(old).not.toContain('length:');
    expect(parseChunk(old)).toEqual({ ok: true, chunk });
    // And cut short, it is none the wiser (the reason for the key).
    expect(parseChunk(old.slice(0, -5)).ok).toBe(true);
  });

  it('a text overwritten in place at its length is told by its textHash; a file written before the hash is read as it was', () => {
    const chunk = sampleChunk({ text: 'const timeoutMs = 30_000;\nretry(3);' });
    const file = renderChunk(chunk);
    expect(file).toMatch(/^textHash: "[0-9a-f]{8}"$/m);
    const overwritten = file.replace('30_000', '45_000');
    expect(overwritten.length).toBe(file.length);
    const parsed = parseChunk(overwritten);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(/textHash/);
    // Not taken for a text cut short: what is left of it is no text of ours.
    expect(salvageCutShort(overwritten)).toBeUndefined();
    // Half an emoji (a lone surrogate) is written as U+FFFD, and hashed as written: the file is sound.
    const cut = sampleChunk({ text: 'emoji cut in two: \ud83d, and the rest' });
    expect(parseChunk(Buffer.from(renderChunk(cut), 'utf8').toString('utf8'))).toEqual({
      ok: true,
      chunk: { ...cut, text: 'emoji cut in two: \ufffd, and the rest' },
    });
    // Written with a length and no hash (before the hash), it parses as before.
    const noHash = file.replace(/^textHash: .*\n/m, '');
    expect(parseChunk(noHash)).toEqual({ ok: true, chunk });
    expect(parseChunk(noHash.replace('30_000', '45_000')).ok).toBe(true);
  });

  it('salvages a file cut short inside its text, marked as such; not a sound file or other damage', () => {
    const chunk = sampleChunk({ text: 'line one\nline two\nline three' });
    const file = renderChunk(chunk);
    expect(salvageCutShort(file.slice(0, -7))).toEqual({ ...chunk, text: `line one\nline two\nline\n${CUT_SHORT_NOTE}` });
    expect(salvageCutShort(file)).toBeUndefined();
    expect(salvageCutShort(file.slice(0, 60))).toBeUndefined();
    expect(parseChunk(renderChunk(salvageCutShort(file.slice(0, -7)) as Chunk)).ok).toBe(true);
  });

  it('round-trips a text that starts with a newline', () => {
    const chunk = sampleChunk({ text: '\nindented paste' });
    expect(parseChunk(renderChunk(chunk))).toEqual({ ok: true, chunk });
  });

  it.each([
    ['no frontmatter', 'just text\n', /no frontmatter/],
    ['truncated inside the frontmatter', renderChunk(sampleChunk()).slice(0, 60), /not closed/],
    ['a line that is not key: value', '---\nversion: 1\ngarbage\n---\ntext\n', /bad frontmatter line/],
    ['a value that is not JSON', '---\nversion: 1\nid: abc\n---\ntext\n', /bad value for id/],
    ['an unknown version', renderChunk(sampleChunk()).replace('version: 1', 'version: 2'), /unknown version 2/],
    ['a missing id', renderChunk(sampleChunk()).replace(/^id: .*\n/m, ''), /missing id/],
    ['an empty file', '', /no frontmatter/],
    ['a text cut short', renderChunk(sampleChunk({ text: 'line one\nline two\nline three' })).slice(0, -6), /cut short/],
    [
      'a text cut right after one of its newlines',
      renderChunk(sampleChunk({ text: 'line one\nline two\nline three' })).replace(/line three\n$/, ''),
      /cut short/,
    ],
    ['a text cut at the end of the frontmatter', renderChunk(sampleChunk()).replace(/\n---\n[\s\S]*$/, '\n---\n'), /cut short/],
    ['a text with more after its end', `${renderChunk(sampleChunk())}appended\n`, /cut short/],
    ['a file that lost only its last newline', renderChunk(sampleChunk()).slice(0, -1), /no newline at the end/],
  ])('reports %s as ok:false with a reason', (_name, text, reason) => {
    const parsed = parseChunk(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(reason);
  });

  it('a corrupt chunk file is left out of ctxl recall with a log line; the other results still come', () => {
    const t = sandbox();
    t.ingest(MAIN);
    const sid = readChunks(t.data)[0]?.session as string;
    const query = ['hello_world.py', '--json'];
    const before = JSON.parse(t.cli('recall', ...query).stdout) as { results: Array<{ ref: string }> };
    expect(before.results.length).toBeGreaterThan(2);
    const victim = before.results[0]?.ref as string;
    const file = join(t.data, 'sessions', sid, 'archived', `${victim}.md`);
    writeFileSync(file, readFileSync(file, 'utf8').slice(0, 50)); // cut inside the frontmatter

    const r = t.cli('recall', ...query);
    expect(r.status).toBe(0);
    const after = JSON.parse(r.stdout) as { results: Array<{ ref: string }> };
    const refs = after.results.map((x) => x.ref);
    expect(refs).not.toContain(victim);
    // The others all still come, and the next-ranked chunk moves up into the freed place. (Their
    // order may change: the victim no longer lends its words to the query, see search.ts.)
    const others = before.results.map((x) => x.ref).filter((ref) => ref !== victim);
    expect(refs).toEqual(expect.arrayContaining(others));
    expect(refs).toHaveLength(before.results.length);
    const lines = readLog(t.data).filter((l) => l.msg.includes(victim));
    expect(lines).toHaveLength(1);
    expect(lines[0]?.level).toBe('warn');
    expect(lines[0]?.msg).toMatch(/not closed/);
  });
});

// ---- 5. the tokenizer ----

describe('tokenize', () => {
  it('finds words exactly as the word regex does (character scan and words() vs matchAll, 30,000 random texts)', () => {
    const WORD = /[\p{L}\p{N}_$]+(?:[.\-/][\p{L}\p{N}_$]+)*/gu;
    const pieces = ['a', 'Z', '0', '_', '$', '.', '-', '/', ' ', 'é', '𝒳', '\uD835', '中', '٣', '!', '\n', '..', '-/'];
    const random = prng(0x0dd);
    for (let n = 0; n < 30_000; n++) {
      let text = '';
      const length = Math.floor(random() * 14);
      for (let i = 0; i < length; i++) text += pieces[Math.floor(random() * pieces.length)];
      const expected = [...text.matchAll(WORD)].map((m) => m[0]);
      expect(scanWords(text), JSON.stringify(text)).toEqual(expected);
      expect(words(text), JSON.stringify(text)).toEqual(expected);
    }
    // A text too long for the regex engine's backtrack stack (one word of millions of joined pieces) is scanned.
    expect(words('a-'.repeat(4_000_000))).toEqual(scanWords('a-'.repeat(4_000_000)));
    // Past the characters the regex serves (the first 1 M of a process), words() scans.
    const long = 'parseConfig(path.join(dir, "x.ts")) -> ENOENT 30s é 中文 '.repeat(24_000);
    expect(words(long)).toEqual([...long.matchAll(WORD)].map((m) => m[0]));
    expect(words(long)).toEqual(scanWords(long));
  });

  it('splits identifiers exactly as the regex rules say (character scan vs the regex chain, 20,000 random words)', () => {
    // The rules the scan implements, written as regexes: lower/digit→Upper, UPPER run→Upper+lower, letter→digit, separators.
    const byRegex = (word: string) =>
      word
        .replace(/([a-z\d])([A-Z])/g, '$1 $2')
        .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
        .replace(/([A-Za-z])(\d)/g, '$1 $2')
        .split(/[\s_\-.$/]+/)
        .filter((p) => p !== '');
    const random = prng(0x5eed);
    const alphabet = 'aAbBzZ09_-.$/éÉx';
    for (let n = 0; n < 20_000; n++) {
      let word = '';
      const length = 1 + Math.floor(random() * 10);
      for (let i = 0; i < length; i++) word += alphabet[Math.floor(random() * alphabet.length)];
      expect(splitIdentifier(word), JSON.stringify(word)).toEqual(byRegex(word));
    }
  });

  it('splits identifiers on case, _ and -, and keeps the whole identifier', () => {
    expect(tokenize('parseConfigFile')).toEqual(['parseconfigfile', stem('parse'), 'config', stem('file')]);
    expect(tokenize('retry_count')).toEqual(['retry_count', 'retry', 'count']);
    expect(tokenize('max-retries')).toEqual(['max-retries', 'max', 'retry']);
    expect(splitIdentifier('HTTPServerError2')).toEqual(['HTTP', 'Server', 'Error', '2']);
    expect(tokenize('XMLHttpRequest')).toEqual(expect.arrayContaining(['xmlhttprequest', 'xml', 'http', 'request']));
  });

  it('gives a product named with a db or js suffix its name alone, as a question says it', () => {
    expect(tokenize('timescaledb')).toEqual([stem('timescaledb'), stem('timescale')]);
    expect(tokenize('mongodb dynamodb nodejs vuejs')).toEqual(
      expect.arrayContaining([stem('mongodb'), stem('mongo'), stem('dynamodb'), stem('dynamo'), stem('nodejs'), stem('node'), stem('vuejs'), stem('vue')]),
    );
    // Too short to be a name before the suffix: debuggers, and words that only end so.
    expect(tokenize('gdb lldb pdb ipdb')).toEqual(['gdb', 'lldb', 'pdb', 'ipdb'].map(stem));
    expect(tokenize('TimescaleDB')).toEqual(expect.arrayContaining([stem('timescale'), 'db']));
  });

  it('gives a path its segments and its base name', () => {
    const terms = tokenize('see src/net/http-client.ts for it');
    expect(terms).toEqual(expect.arrayContaining(['src', 'net', 'http-client.ts', 'http', 'client']));
    expect(tokenize('/repo/lib/archive/chunker.ts')).toEqual(expect.arrayContaining(['repo', 'lib', stem('archive'), 'chunker.ts', 'chunker']));
  });

  it('keeps error codes and numbers with units whole', () => {
    const terms = tokenize('ENOENT then TS2304 and E0425, waited 30s with 512MB and 1.5GB');
    expect(terms).toEqual(expect.arrayContaining(['enoent', 'ts2304', 'e0425', '30s', '512mb', '1.5gb']));
  });

  it('stems plurals, -ing and -ed, and leaves names and codes exact', () => {
    expect(stem('timeouts')).toBe('timeout');
    expect(stem('retries')).toBe('retry');
    expect(stem('classes')).toBe('class');
    expect(stem('building')).toBe(stem('build'));
    expect(stem('failed')).toBe(stem('fail'));
    expect(stem('status')).toBe('status');
    expect(stem('ts2304')).toBe('ts2304');
    expect(queryTerms('timeouts')).toEqual(tokenize('timeout'));
  });

  // Verbs that end in e: the stem drops it, so every form meets.
  it('matches -ed and -ing forms of verbs that end in e (parse, parsed, parsing), and undoubles (stopped)', () => {
    expect(stem('parsed')).toBe(stem('parse'));
    expect(stem('parsing')).toBe(stem('parse'));
    expect(stem('parses')).toBe(stem('parse'));
    expect(stem('cached')).toBe(stem('cache'));
    expect(stem('stopped')).toBe(stem('stop'));
    expect(stem('installed')).toBe(stem('install'));
    expect(stem('string')).toBe('string');
  });

  it('meets British and American spellings: -our, -ise, -yse, -re and the words no rule covers', () => {
    const same = [
      ['colour', 'color'],
      ['behavioural', 'behavioral'],
      ['favourites', 'favorites'],
      ['optimise', 'optimize'],
      ['optimising', 'optimizing'],
      ['normalisation', 'normalization'],
      ['initialised', 'initialized'],
      ['analyse', 'analyze'],
      ['analysed', 'analyzed'],
      ['centre', 'center'],
      ['kilometres', 'kilometers'],
      ['tyres', 'tires'],
      ['grey', 'gray'],
      ['programme', 'program'],
      ['catalogue', 'catalog'],
      ['licence', 'license'],
      ['defence', 'defense'],
      ['travelled', 'traveled'],
      ['cancelling', 'canceling'],
      ['signalled', 'signaled'],
      ['misspelled', 'misspell'],
      ['reselling', 'resell'],
    ];
    for (const [british, american] of same) expect(tokenize(british as string), british).toEqual(tokenize(american as string));
    // Not what only ends like one: hour, tour, rise and analysis keep their own stems.
    for (const [a, b] of [
      ['hour', 'hor'],
      ['tour', 'tor'],
      ['rise', 'riz'],
      ['analysis', 'analyze'],
    ])
      expect(tokenize(a as string)).not.toEqual(tokenize(b as string));
    // A word and the one that only looks like its British form change alike: they still meet.
    expect(tokenize('promise')).toEqual(tokenize('promised'));
    // The thesaurus looks a word up by its first letters: gray's British stem starts with others.
    expect(britishStems(tokenize('gray')[0] as string)).toEqual(['grey']);
    expect(britishStems(tokenize('color')[0] as string)).toEqual([]);
  });

  it("reads an acronym's plural as the acronym and as typed in lower case: APIs, URLs, IDs, ORMs (not split on case)", () => {
    expect(tokenize('APIs URLs IDs ORMs PRs')).toEqual(['api', 'apis', 'url', 'id', 'ids', 'orm', 'pr', 'prs']);
    // So a question that says "apis" or "prs" (which stem to themselves) still finds them.
    expect(tokenize('APIs')).toContain(tokenize('apis')[0]);
    expect(tokenize('PRs')).toContain(tokenize('prs')[0]);
    // Not a word that only ends in s after capitals, nor an identifier.
    expect(tokenize('HTTPServer')).toEqual(['httpserver', 'http', 'server']);
    expect(tokenize('APIS')).toEqual(['apis']);
  });

  it("keeps a word's own form beside its stem as a surface term, for the index and a question's words only", () => {
    expect(tokenize('Running shoes came')).toEqual(['run', stem('shoes'), stem('came')]);
    expect(tokenize('Running shoes came', undefined, true)).toEqual([
      'run',
      `running${SURFACE_MARK}`,
      stem('shoes'),
      `shoes${SURFACE_MARK}`,
      stem('came'),
      `came${SURFACE_MARK}`,
    ]);
    expect(wordTerms('running')).toEqual(['run', 'running', `running${SURFACE_MARK}`, 'running']);
    // None when the stem is the word, and none for an identifier's pieces or a compound's whole.
    expect(tokenize('total run', undefined, true)).toEqual(['total', 'run']);
    expect(tokenize('runningTotal', undefined, true)).toEqual(['runningtotal', 'run', 'total']);
    expect(tokenize('src/components/x.ts', undefined, true)).toContain(`components${SURFACE_MARK}`);
    expect(isSurface(`shoes${SURFACE_MARK}`)).toBe(true);
    expect(isSurface('shoes')).toBe(false);
  });

  it('drops stop words and keeps the content words', () => {
    const terms = tokenize('The function should return the value of this and that');
    for (const stop of ['the', 'should', 'return', 'of', 'this', 'and', 'that']) expect(terms).not.toContain(stop);
    expect(terms).toEqual(['function', stem('value')]);
  });

  it('indexes a CJK run by its pairs of characters, and the rest of the word as any word', () => {
    expect(tokenize('使用数据库连接')).toEqual(['使用', '用数', '数据', '据库', '库连', '连接']);
    expect(queryTerms('数据库')).toEqual(['数据', '据库']);
    expect(tokenize('数')).toEqual(['数']);
    expect(tokenize('ログインのバグ')).toEqual(['ログ', 'グイ', 'イン', 'ンの', 'のバ', 'バグ']);
    expect(tokenize('버그를 고쳤다')).toEqual(['버그', '그를', '고쳤', '쳤다']);
    expect(tokenize('使用redis连接')).toEqual(['使用', 'redis', '连接']);
    expect(tokenize('parseConfig数据-x')).toEqual(['parseconfig', stem('parse'), 'config', '数据', 'x']);
    // A sentence longer than the longest word indexed is no blob: it is indexed.
    expect(tokenize('很'.repeat(200))).toHaveLength(199);
    expect(tokenize('x'.repeat(200))).toEqual([]);
    // A blob joined to a CJK word is still no term.
    expect(tokenize(`证书/${'QUJD'.repeat(60)}`)).toEqual(['证书']);
  });

  it('repeats terms for term frequency; query terms do not', () => {
    expect(tokenize('cache cache caches')).toEqual([stem('cache'), stem('cache'), stem('cache')]);
    expect(queryTerms('cache cache caches')).toEqual([stem('cache')]);
  });
});

describe('moneyAmounts', () => {
  it.each([
    ["It's £48 a session and she reckons I need five or six", 1],
    ['Salary goes from £58k to £66k.', 2],
    ['We booked the removals for £1,150; the deposit was €200 and the van $75.', 3],
    ['a year of cloud storage for 99 EUR, or 120 dollars', 2],
    ['48 € a night, or 1.150,00 € the week; US$120; EUR 1.5m; CHF 80; $4.99; $2k', 7],
    // Not money: a shell's ${HOME}, its arguments and SQL's placeholders, a register, weights,
    // plain numbers, costs without an amount.
    ['echo ${HOME} and foo$1; echo "$1"; awk \'{print $1}\'', 0],
    ['WHERE id = $1 AND org = $2', 0],
    ['movl $0, %eax', 0],
    ['she lost 5 pounds and ran 10 km in 52 minutes', 0],
    ['list your fixed costs first, then compare the price, the fee and the charge', 0],
  ])('%j: %i', (text, n) => {
    expect(moneyAmounts(text)).toBe(n);
  });

  it('reads a long run of numbers (a CSV) in one pass', () => {
    // Tried from every digit with an unbounded group, "1,1,1,…" was quadratic: 10 s for 80 KB,
    // about 40 s for these 160 KB, past the test's timeout (a few ms in one pass).
    expect(moneyAmounts('1,'.repeat(80_000))).toBe(0);
    expect(moneyAmounts(`${'1.'.repeat(80_000)}5 EUR`)).toBe(0);
    expect(moneyAmounts(`${'12 '.repeat(80_000)}15 EUR`)).toBe(1);
  });
});

describe('keywords', () => {
  it('lists file base names, then code-like words in order, then the frequent plain words', () => {
    const text = 'the parser parser reads parseConfigFile and throws ENOENT after 30s; parser again, retry_count';
    expect(keywords({ text, files: ['/repo/src/config.ts'] })).toEqual(['config.ts', 'parseconfigfile', 'enoent', '30s', 'retry_count', 'parser']);
  });

  it('stops at max code-like words; the frequent words and anything after the last one leave the list as it was', () => {
    const code = Array.from({ length: 20 }, (_, i) => `name_${i}`);
    const withTail = `${code.join(' ')} ${'tail '.repeat(50)}lastWordHere`;
    const expected = code.slice(0, 16);
    expect(keywords({ text: withTail })).toEqual(expected);
    expect(keywords({ text: code.join(' ') })).toEqual(expected);
    // Files count toward max: two files leave room for 14 code-like words.
    expect(keywords({ text: withTail, files: ['a/one.ts', 'b/two.ts'] })).toEqual(['one.ts', 'two.ts', ...code.slice(0, 14)]);
    // More files than max: the first max of them, however long the text.
    const files = Array.from({ length: 18 }, (_, i) => `f${i}.ts`);
    expect(keywords({ text: withTail, files })).toEqual(files.slice(0, 16));
  });
});

// ---- 6. secrets and private regions ----

/** Fake secrets assembled at run time, so no complete token sits in the source. */
const ANTHROPIC_KEY = ['sk-', 'ant-', 'api03-', 'Q7vRw2xLmN4pK8sT1uY6zA3bC5dE9fG0hJ2kL4mN6pQ8rS0tU'].join('');
const PRIVATE_WORD = 'zanzibarquokka';

/** Every file under `dir` that holds `needle`, case-insensitively (index segments store lower case). */
function filesHolding(dir: string, needle: string): string[] {
  const lower = needle.toLowerCase();
  return listFiles(dir).filter((f) => readFileSync(join(dir, f)).toString('latin1').toLowerCase().includes(lower));
}

describe('secrets and <private> regions never reach the data dir', () => {
  it('through ingest, Stop, PostToolUse and /recall: redacted in chunks, absent from every file', () => {
    const t = sandbox();
    const sid = 'secret-session';
    const s = scriptedTranscript(sid, t.project);
    s.user(`Deploy with my key ${ANTHROPIC_KEY} please. <private>The ${PRIVATE_WORD} vault code is 4411</private> Thanks.`);
    s.assistant(`Setting ANTHROPIC_API_KEY=${ANTHROPIC_KEY} for the deploy.`);
    const id = s.toolUse('Bash', { command: `export ANTHROPIC_API_KEY=${ANTHROPIC_KEY} && ./deploy.sh`, description: 'deploy' });
    s.toolResult(id, `deploying with ${ANTHROPIC_KEY}\n<private>${PRIVATE_WORD} output</private>\ndone`);
    s.assistant('Deployed.');
    const transcript = join(t.home, 'transcript.jsonl');
    writeFileSync(transcript, s.text());

    t.ingest(transcript);
    t.hook('stop', stopInput('secret-session-2', transcript, t.project));
    t.hook('post-tool-use', {
      session_id: 'secret-session-2',
      transcript_path: transcript,
      cwd: t.project,
      hook_event_name: 'PostToolUse',
      tool_name: 'Bash',
      tool_input: { command: `export ANTHROPIC_API_KEY=${ANTHROPIC_KEY} && ./deploy.sh` },
      tool_response: { stdout: `deploying with ${ANTHROPIC_KEY}\n`, stderr: '', interrupted: false, isImage: false },
      tool_use_id: 'toolu_live',
      duration_ms: 5,
    });
    const recall = t.hook('user-prompt-expansion', {
      session_id: sid,
      transcript_path: transcript,
      cwd: t.project,
      hook_event_name: 'UserPromptExpansion',
      expansion_type: 'slash_command',
      command_name: 'recall',
      command_args: 'deploy key',
      prompt: '/recall deploy key',
    });
    expect(recall.stdout).not.toContain(ANTHROPIC_KEY);

    expect(filesHolding(t.data, ANTHROPIC_KEY)).toEqual([]);
    expect(filesHolding(t.data, ANTHROPIC_KEY.slice(-24))).toEqual([]);
    expect(filesHolding(t.data, PRIVATE_WORD)).toEqual([]);

    const chunks = readChunks(t.data, sid);
    expect(chunks.length).toBe(4);
    expect(chunks.filter((c) => c.text.includes('[REDACTED:anthropic-key]')).length).toBe(3);
    expect(chunks.filter((c) => c.text.includes('[PRIVATE]')).length).toBe(2);
    expect(chunks.find((c) => c.type === 'tool')?.title).toBe('Bash: export ANTHROPIC_API_KEY=[REDACTED:anthropic-key] && ./deploy.sh');
  });

  // Regression: the chunker keeps a tool_use whose result is not in the transcript yet in its pending state
  // (chunker.ts, case 'tool-use': `input: entry.input`, unredacted), and advanceSessionCursor saves
  // that state in cursor.json (`chunker` field): the command's secret and <private> text are on disk
  // in clear until the result arrives (and for good if it never does).
  it('a tool call still waiting for its result leaves no secret in cursor.json', () => {
    const t = sandbox();
    const s = scriptedTranscript('pending-session', t.project);
    s.user('deploy it');
    s.toolUse('Bash', { command: `export ANTHROPIC_API_KEY=${ANTHROPIC_KEY} && ./deploy.sh <private>${PRIVATE_WORD}</private>` });
    const transcript = join(t.home, 'transcript.jsonl');
    writeFileSync(transcript, s.text());
    t.hook('stop', stopInput('pending-session', transcript, t.project));
    expect(filesHolding(t.data, ANTHROPIC_KEY.slice(-24))).toEqual([]);
    expect(filesHolding(t.data, PRIVATE_WORD)).toEqual([]);
  });
});

// ---- 7. Stop and PreCompact archive incrementally ----

describe('Stop and PreCompact', () => {
  const crudLines = readFileSync(CRUD, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  const crudSid = transcriptLines(CRUD).find((l) => typeof l.sessionId === 'string')?.sessionId as string;
  // Cut right after the first tool_use line: its tool_result arrives with the second part.
  const cut = crudLines.findIndex((l) => l.includes('"type":"tool_use"')) + 1;
  const firstToolId = (blocksOf(JSON.parse(crudLines[cut - 1] as string) as Obj).find((b) => b.type === 'tool_use') as Obj).id as string;

  it('Stop archives what is new, completes a tool call split across runs, and duplicates nothing', () => {
    const t = sandbox();
    const transcript = join(t.home, 'transcript.jsonl');
    writeFileSync(transcript, `${crudLines.slice(0, cut).join('\n')}\n`);
    t.hook('stop', stopInput(crudSid, transcript, t.project));
    const first = chunkIds(t.data, crudSid);
    expect(first.length).toBeGreaterThan(0);
    // The call has no result yet, so it has no chunk yet.
    expect(readChunks(t.data, crudSid).some((c) => c.toolUseId === firstToolId)).toBe(false);

    appendFileSync(transcript, `${crudLines.slice(cut).join('\n')}\n`);
    t.hook('stop', stopInput(crudSid, transcript, t.project));
    const second = chunkIds(t.data, crudSid);
    expect(second.length).toBeGreaterThan(first.length);
    expect(second).toEqual(expect.arrayContaining(first));
    expect(catalogIds(t.data, crudSid).sort()).toEqual([...second].sort()); // each id listed once

    const tool = readChunks(t.data, crudSid).find((c) => c.toolUseId === firstToolId);
    const useUuid = (JSON.parse(crudLines[cut - 1] as string) as Obj).uuid;
    const resultUuid = (JSON.parse(crudLines[cut] as string) as Obj).uuid;
    expect(tool?.sourceUuids).toEqual([useUuid, resultUuid]);

    // Two Stops over the pieces leave exactly what one ingest of the whole file leaves.
    const other = sandbox();
    const whole = join(other.home, 'whole.jsonl');
    copyFileSync(CRUD, whole);
    other.ingest(whole, t.project);
    expect(archiveSnapshot(t.data, crudSid)).toEqual(archiveSnapshot(other.data, crudSid));
    expect(readLog(t.data).filter((l) => l.level === 'error' || l.level === 'warn')).toEqual([]);
  });

  it('a long backfill (chunk files written by a worker thread) leaves what one Stop leaves', () => {
    // Past the first 64 chunks, ingest hands new chunk files to a worker thread. The archive must
    // come out exactly as the hook path writes it: every listed chunk on disk, no temporary files.
    const sid = 'long-backfill';
    const t = sandbox();
    const s = scriptedTranscript(sid, t.project);
    const rnd = prng(7);
    for (let i = 0; i < 240; i++) {
      if (i % 20 === 0) s.user(`step ${i}: keep going with the parser module ${i}`);
      s.tool('Bash', { command: `npm test -- case${i}` }, `case${i} ${'ok '.repeat(20 + Math.floor(rnd() * 200))}\nTests ${i} passed`);
    }
    const transcript = join(t.home, 'long.jsonl');
    s.write(transcript);
    const summary = t.ingest(transcript);
    expect(summary.chunksAdded).toBeGreaterThan(250);
    expect(summary.chunksTotal).toBe(summary.chunksAdded);
    const ids = chunkIds(t.data, sid);
    expect(catalogIds(t.data, sid).sort()).toEqual([...ids].sort());
    expect(listFiles(t.data).filter((f) => f.endsWith('.tmp'))).toEqual([]);

    const other = sandbox();
    const copy = join(other.home, 'long.jsonl');
    copyFileSync(transcript, copy);
    other.hook('stop', stopInput(sid, copy, t.project));
    expect(archiveSnapshot(t.data, sid)).toEqual(archiveSnapshot(other.data, sid));
    // Re-ingesting adds nothing, and every chunk is found.
    expect(t.ingest(transcript)).toEqual({ sessions: 1, chunksAdded: 0, chunksTotal: ids.length });
    const hit = t.cli('recall', 'case217', '--cwd', t.project, '--json');
    expect(JSON.parse(hit.stdout).results[0].snippet).toContain('case217');
    expect(readLog(t.data).filter((l) => l.level === 'error' || l.level === 'warn')).toEqual([]);
  });

  it('Stop with nothing new adds nothing', () => {
    const t = sandbox();
    const transcript = join(t.home, 'transcript.jsonl');
    copyFileSync(CRUD, transcript);
    t.hook('stop', stopInput(crudSid, transcript, t.project));
    const before = archiveSnapshot(t.data, crudSid);
    t.hook('stop', stopInput(crudSid, transcript, t.project));
    expect(archiveSnapshot(t.data, crudSid)).toEqual(before);
  });

  it('PreCompact makes L2 complete after a Stop, and a second PreCompact adds nothing', () => {
    const t = sandbox();
    const transcript = join(t.home, 'transcript.jsonl');
    writeFileSync(transcript, `${crudLines.slice(0, cut).join('\n')}\n`);
    t.hook('stop', stopInput(crudSid, transcript, t.project));
    appendFileSync(transcript, `${crudLines.slice(cut).join('\n')}\n`);

    const r1 = t.hook('pre-compact', preCompactInput(crudSid, transcript, t.project));
    expect(r1.stdout.trimStart().startsWith('{')).toBe(false);
    const afterFirst = archiveSnapshot(t.data, crudSid);
    const ids = chunkIds(t.data, crudSid);
    expect(ids.length).toBeGreaterThan(0);
    expect(readChunks(t.data, crudSid).some((c) => c.toolUseId === firstToolId)).toBe(true);

    t.hook('pre-compact', preCompactInput(crudSid, transcript, t.project));
    expect(archiveSnapshot(t.data, crudSid)).toEqual(afterFirst);

    // Everything the transcript had is in L2: an ingest of the same file finds nothing to add.
    expect(t.ingest(transcript)).toEqual({ sessions: 1, chunksAdded: 0, chunksTotal: ids.length });
  });
});
