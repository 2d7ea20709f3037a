// lib/transcript/tail.ts: the context size at a transcript's end read backwards from its tail, on real
// files: the last main-thread usage (sidechains never), the lines after it counted as characters, a
// compaction boundary after it starting from postTokens, one message over several lines, a usage
// further back than one 64 KB block, no usage at all, a torn last line. It must agree with the forward
// fold over every line, on the shared real transcripts and on every prefix of them. Also the new
// `hook-context` entry (lib/transcript/entries.ts) and injectedChars in foldContext.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ContextState, contextTokens, emptyContext, foldContext } from '../../lib/transcript/context-size.ts';
import { parseLine } from '../../lib/transcript/entries.ts';
import { contextAtEnd, TAIL_MAX_BYTES } from '../../lib/transcript/tail.ts';
import { transcriptFixtures } from './helpers/manifest.ts';
import { useTempDirs } from './helpers/tmp.ts';

const tempDir = useTempDirs('ctxl-tail-');

interface UsageSpec {
  input: number;
  cacheCreation?: number;
  cacheRead?: number;
  output?: number;
}

let uuid = 0;
const meta = (sidechain = false) => ({ uuid: `u${++uuid}`, sessionId: 'sess', isSidechain: sidechain, timestamp: '2026-11-29T10:00:00.000Z' });

function assistant(
  id: string,
  usage: UsageSpec,
  block: Record<string, unknown> = { type: 'text', text: 'reply' },
  sidechain = false,
  model = 'claude-opus-5-5',
) {
  return {
    ...meta(sidechain),
    type: 'assistant',
    requestId: `req_${id}`,
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model,
      content: [block],
      usage: {
        input_tokens: usage.input,
        cache_creation_input_tokens: usage.cacheCreation ?? 0,
        cache_read_input_tokens: usage.cacheRead ?? 0,
        output_tokens: usage.output ?? 0,
      },
    },
  };
}
const userText = (text: string, sidechain = false) => ({ ...meta(sidechain), type: 'user', message: { role: 'user', content: text } });
const toolResult = (text: string, id = 't1') => ({
  ...meta(),
  type: 'user',
  message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text }] },
});
const boundary = (postTokens: number | undefined) => ({
  ...meta(),
  parentUuid: null,
  type: 'system',
  subtype: 'compact_boundary',
  content: 'Conversation compacted',
  compactMetadata: { trigger: 'auto', preTokens: 150_000, ...(postTokens === undefined ? {} : { postTokens }) },
});
const summary = (text: string) => ({ ...meta(), type: 'user', isCompactSummary: true, message: { role: 'user', content: text } });
const attachment = (body: Record<string, unknown>, sidechain = false) => ({ ...meta(sidechain), type: 'attachment', attachment: body });
const hookContext = (content: unknown, hookName = 'PostToolUse:Bash', sidechain = false) =>
  attachment({ type: 'hook_additional_context', content, hookName, toolUseID: 'toolu_1' }, sidechain);

function write(lines: Array<object | string>, end = '\n'): string {
  const file = join(tempDir(), 'transcript.jsonl');
  writeFileSync(file, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + end);
  return file;
}

/** The forward fold over every line of a text (what Stop's cursor computes). */
function forward(text: string): ContextState {
  const state = emptyContext();
  for (const line of text.split('\n')) {
    const parsed = line.trim() === '' ? undefined : parseLine(line);
    if (parsed !== undefined) foldContext(state, parsed);
  }
  return state;
}

/** Whether the forward fold saw something a tail read can start from: a main-thread usage or a boundary. */
const anchored = (s: ContextState) => s.usageKey !== undefined || s.compactions > 0;

describe('contextAtEnd', () => {
  it('refuses a path that is no regular file at once: a FIFO would block the open, past any deadline', async () => {
    const fifo = join(tempDir(), 'transcript.jsonl');
    execFileSync('mkfifo', [fifo]);
    await expect(contextAtEnd(fifo)).rejects.toMatchObject({ code: 'ENOTFILE' });
    await expect(contextAtEnd(tempDir())).rejects.toBeDefined();
  });

  it('takes the last main-thread usage; a later sidechain usage and sidechain content do not count', async () => {
    const file = write([
      userText('hi'),
      assistant('msg_1', { input: 10_000, cacheCreation: 2_000, cacheRead: 500, output: 100 }),
      userText('x'.repeat(4_000), true),
      assistant('msg_side', { input: 90_000, cacheRead: 10_000 }, { type: 'text', text: 'sub' }, true),
    ]);
    const state = await contextAtEnd(file);
    expect(state).toMatchObject({ reported: 12_600, charsAfter: 0, usageKey: 'msg_1|req_msg_1', model: 'claude-opus-5-5' });
    expect(contextTokens(state as ContextState)).toBe(12_600);
  });

  it('counts the main-thread lines after the last usage as characters', async () => {
    const file = write([
      assistant('msg_1', { input: 5_000 }),
      assistant('msg_2', { input: 1_000, cacheRead: 20_000 }, { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }),
      toolResult('r'.repeat(10)),
      userText('u'.repeat(401)),
    ]);
    const state = await contextAtEnd(file);
    expect(state?.reported).toBe(21_000);
    expect(state?.charsAfter).toBe(411);
    expect(contextTokens(state as ContextState)).toBe(21_000 + Math.ceil(411 / 4));
  });

  it('counts one message once however many lines carry its usage, and what follows its last line', async () => {
    const usage = { input: 5_000, cacheCreation: 1_000, cacheRead: 4_000 };
    const lines = [
      userText('start'),
      assistant('msg_1', usage, { type: 'thinking', thinking: 'hmm '.repeat(500), signature: 's' }),
      assistant('msg_1', usage, { type: 'text', text: 'Let me look.' }),
      assistant('msg_1', usage, { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/a' } }),
    ];
    const state = await contextAtEnd(write(lines));
    expect(state).toMatchObject({ reported: 10_000, charsAfter: 0, usageKey: 'msg_1|req_msg_1' });
    const after = await contextAtEnd(write([...lines, toolResult('c'.repeat(800))]));
    expect(contextTokens(after as ContextState)).toBe(10_200);
  });

  it('starts from a compact boundary after the last usage: its postTokens, the summary not added again', async () => {
    const file = write([
      assistant('msg_1', { input: 150_000 }),
      boundary(2_714),
      summary('This session is being continued from a previous conversation. '.repeat(50)),
      userText('u'.repeat(40)),
    ]);
    const state = await contextAtEnd(file);
    expect(state).toMatchObject({ reported: 2_714, charsAfter: 40, usageKey: undefined, compactions: 1 });
    expect(contextTokens(state as ContextState)).toBe(2_724);
  });

  it('an old-style boundary (no postTokens) counts the summary at 4 chars/token', async () => {
    const state = await contextAtEnd(write([assistant('msg_1', { input: 150_000 }), boundary(undefined), summary('s'.repeat(4_000))]));
    expect(contextTokens(state as ContextState)).toBe(1_000);
  });

  it('a usage after a boundary wins over it', async () => {
    const state = await contextAtEnd(write([boundary(3_000), summary('s'), assistant('msg_9', { input: 7_000, output: 50 })]));
    expect(state).toMatchObject({ reported: 7_050, charsAfter: 0, compactions: 0 });
  });

  it('finds a usage further back than one 64 KB block (a 300 KB attachment line after it)', async () => {
    const lines = [
      assistant('msg_0', { input: 99_999 }),
      assistant('msg_1', { input: 12_345 }),
      attachment({ type: 'file', filename: '/p/big.txt', content: { type: 'text', file: { content: 'a'.repeat(300_000) } } }),
      userText('u'.repeat(100)),
    ];
    const file = write(lines);
    const state = await contextAtEnd(file);
    expect(state).toMatchObject({ reported: 12_345, charsAfter: 100, usageKey: 'msg_1|req_msg_1' });
    expect(contextTokens(state as ContextState)).toBe(contextTokens(forward(readFileSync(file, 'utf8'))));
  });

  it('counts a 300 KB tool result after the usage in full', async () => {
    const file = write([assistant('msg_1', { input: 20_000 }), toolResult('r'.repeat(300_000)), userText('u'.repeat(3))]);
    const state = await contextAtEnd(file);
    expect(state?.charsAfter).toBe(300_003);
    expect(contextTokens(state as ContextState)).toBe(20_000 + 75_001);
  });

  it('gives up past maxBytes of tail (the caller falls back to the last Stop)', async () => {
    const file = write([assistant('msg_1', { input: 20_000 }), toolResult('r'.repeat(300_000))]);
    expect(await contextAtEnd(file, 100_000)).toBeUndefined();
    expect((await contextAtEnd(file))?.reported).toBe(20_000);
    expect(TAIL_MAX_BYTES).toBe(8 * 1024 * 1024);
  });

  it('no main-thread usage or boundary at all: undefined (also for an empty file and a sidechain-only one)', async () => {
    expect(await contextAtEnd(write([userText('hello'), toolResult('out'), userText('more')]))).toBeUndefined();
    expect(await contextAtEnd(write([], ''))).toBeUndefined();
    expect(await contextAtEnd(write([userText('q', true), assistant('s1', { input: 5_000 }, { type: 'text', text: 'a' }, true)]))).toBeUndefined();
    // A usage of all zeros (a client-made message) is no measure either.
    expect(await contextAtEnd(write([assistant('msg_z', { input: 0 }, { type: 'text', text: 'API Error' }, false, '<synthetic>')]))).toBeUndefined();
  });

  it('a missing file rejects with ENOENT (budget-store treats that as "no transcript yet")', async () => {
    await expect(contextAtEnd(join(tempDir(), 'nope.jsonl'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('ignores a torn last line, even one that looks like a usage', async () => {
    const whole = [assistant('msg_1', { input: 8_000 }), userText('u'.repeat(20))];
    const torn = JSON.stringify(userText('v'.repeat(500))).slice(0, 200);
    expect((await contextAtEnd(write([...whole, torn], '')))?.charsAfter).toBe(20);
    const tornUsage = JSON.stringify(assistant('msg_2', { input: 50_000 })).slice(0, -30);
    expect(tornUsage).toContain('"usage"');
    const state = await contextAtEnd(write([...whole, tornUsage], ''));
    expect(state).toMatchObject({ reported: 8_000, charsAfter: 20 });
  });

  it('finds a usage line that sits exactly at a 64 KB block edge (before it, or as its first line)', async () => {
    const usage = JSON.stringify(assistant('msg_1', { input: 4_321 }));
    /** A tool result line of exactly `length` characters. */
    const resultLine = (length: number) => {
      const line = toolResult('');
      const base = JSON.stringify(line).length;
      (line.message.content[0] as { content: string }).content = 'f'.repeat(length - base);
      return { text: JSON.stringify(line), chars: length - base };
    };
    // The block holds only the result line: the usage ends right before it.
    const after = resultLine(64 * 1024 - 1);
    const edge = write([userText('start'), usage, after.text]);
    expect(readFileSync(edge).length - (after.text.length + 1)).toBe(readFileSync(edge, 'utf8').indexOf(after.text));
    expect(await contextAtEnd(edge)).toMatchObject({ reported: 4_321, charsAfter: after.chars });
    // The block starts exactly with the usage line, which therefore looks cut at first.
    const rest = resultLine(64 * 1024 - usage.length - 2);
    const first = write([userText('start'), usage, rest.text]);
    expect(readFileSync(first).length - 64 * 1024).toBe(readFileSync(first, 'utf8').indexOf(usage));
    expect(await contextAtEnd(first)).toMatchObject({ reported: 4_321, charsAfter: rest.chars });
  });

  it('counts multi-byte characters the way the forward fold does across block edges', async () => {
    const file = write([assistant('msg_1', { input: 1_000 }), toolResult('é😀'.repeat(40_000)), userText('ü'.repeat(33))]);
    const state = await contextAtEnd(file);
    expect(state?.charsAfter).toBe('é😀'.length * 40_000 + 33);
    expect(state).toEqual({ ...forward(readFileSync(file, 'utf8')), firstReported: state?.firstReported });
  });
});

describe('contextAtEnd agrees with the forward fold on real transcripts', () => {
  const fixtures = transcriptFixtures();

  it('has fixtures with usage to compare', () => {
    const withUsage = fixtures.filter((f) => anchored(forward(readFileSync(f.path, 'utf8'))));
    expect(withUsage.length).toBeGreaterThanOrEqual(10);
  });

  it.each(fixtures.map((f) => [f.dest, f.path]))('%s: the same contextTokens at the end', async (_dest, path) => {
    const full = forward(readFileSync(path, 'utf8'));
    const tail = await contextAtEnd(path);
    if (!anchored(full)) {
      expect(tail).toBeUndefined();
      return;
    }
    expect(tail).toBeDefined();
    expect(contextTokens(tail as ContextState)).toBe(contextTokens(full));
    expect({ reported: tail?.reported, charsAfter: tail?.charsAfter, usageKey: tail?.usageKey }).toEqual({
      reported: full.reported,
      charsAfter: full.charsAfter,
      usageKey: full.usageKey,
    });
  });

  it('the same contextTokens after every line of every fixture (up to 60 cut points each)', async () => {
    const dir = tempDir();
    let compared = 0;
    for (const f of fixtures) {
      const text = readFileSync(f.path, 'utf8');
      const ends: number[] = [];
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) ends.push(i + 1);
      const step = Math.max(1, Math.ceil(ends.length / 60));
      for (let k = 0; k < ends.length; k += step) {
        const prefix = text.slice(0, ends[k]);
        const file = join(dir, 'prefix.jsonl');
        writeFileSync(file, prefix);
        const full = forward(prefix);
        const tail = await contextAtEnd(file);
        const where = `${f.dest} after line ${k + 1}`;
        if (!anchored(full)) {
          expect(tail, where).toBeUndefined();
          continue;
        }
        expect(tail, where).toBeDefined();
        expect(contextTokens(tail as ContextState), where).toBe(contextTokens(full));
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(200);
  });
});

describe('hook-context entries and injectedChars', () => {
  it('parses a hook_additional_context attachment: its strings joined by newlines, the hook name kept', () => {
    const line = hookContext(['CTX-NOTE: full output stored as ref #42', 'second part'], 'PostToolUse:Bash');
    const parsed = parseLine(JSON.stringify(line));
    expect(parsed?.type).toBe('attachment');
    expect(parsed?.usage).toBeUndefined();
    expect(parsed?.entries).toEqual([
      {
        uuid: line.uuid,
        parentUuid: undefined,
        timestamp: '2026-11-29T10:00:00.000Z',
        sessionId: 'sess',
        sidechain: false,
        lineType: 'attachment',
        kind: 'hook-context',
        hook: 'PostToolUse:Bash',
        text: 'CTX-NOTE: full output stored as ref #42\nsecond part',
      },
    ]);
  });

  it('drops non-strings from the content, takes a plain string as is, and a missing hook name as ""', () => {
    const entry = (content: unknown, hookName?: string) => {
      const body: Record<string, unknown> = { type: 'hook_additional_context', content };
      if (hookName !== undefined) body.hookName = hookName;
      return parseLine(JSON.stringify(attachment(body)))?.entries[0];
    };
    expect(entry(['a', 5, null, { text: 'x' }, 'b'], 'SessionStart')).toMatchObject({ kind: 'hook-context', hook: 'SessionStart', text: 'a\nb' });
    expect(entry('plain text')).toMatchObject({ kind: 'hook-context', hook: '', text: 'plain text' });
    expect(entry(42)).toMatchObject({ kind: 'hook-context', text: '' });
  });

  it.each(['hook_success', 'hook_non_blocking_error', 'file', 'instructions'])('an attachment of type %s is other', (type) => {
    expect(parseLine(JSON.stringify(attachment({ type, content: ['x'] })))?.entries.map((e) => e.kind)).toEqual(['other']);
  });

  const fold = (lines: object[]) => forward(lines.map((l) => JSON.stringify(l)).join('\n'));

  it('foldContext adds hook context to injectedChars and to the characters after the last usage', () => {
    const state = fold([assistant('msg_1', { input: 9_000 }), hookContext(['x'.repeat(100)]), hookContext(['y'.repeat(20), 'z'.repeat(9)])]);
    expect(state.injectedChars).toBe(130);
    expect(state.charsAfter).toBe(130);
    expect(contextTokens(state)).toBe(9_000 + Math.ceil(130 / 4));
  });

  it('a later usage keeps injectedChars (the injected text is still in context) but folds charsAfter into the report', () => {
    const state = fold([hookContext(['x'.repeat(100)]), assistant('msg_1', { input: 9_000 }), hookContext(['y'.repeat(40)])]);
    expect(state.injectedChars).toBe(140);
    expect(state.charsAfter).toBe(40);
  });

  it('a compact boundary resets injectedChars; injections after it count again', () => {
    const state = fold([hookContext(['x'.repeat(100)]), assistant('msg_1', { input: 150_000 }), boundary(3_000), hookContext(['n'.repeat(60)])]);
    expect(state.compactions).toBe(1);
    expect(state.injectedChars).toBe(60);
    expect(contextTokens(state)).toBe(3_000 + 15);
    expect(fold([hookContext(['x'.repeat(100)]), boundary(3_000)]).injectedChars).toBe(0);
  });

  it('sidechain hook context is not counted; a state without injections has no injectedChars', () => {
    const state = fold([assistant('msg_1', { input: 1_000 }), hookContext(['x'.repeat(100)], 'PostToolUse:Bash', true)]);
    expect(state.injectedChars).toBeUndefined();
    expect(state.charsAfter).toBe(0);
  });

  it('contextAtEnd counts hook context after the last usage like the forward fold', async () => {
    const lines = [hookContext(['before'.repeat(10)]), assistant('msg_1', { input: 2_000 }), toolResult('out'), hookContext(['CTX: stub of ref r-1'])];
    const file = write(lines);
    const tail = await contextAtEnd(file);
    expect(tail?.charsAfter).toBe(3 + 'CTX: stub of ref r-1'.length);
    // Only what follows the usage: the tail cannot know earlier injections (budget-store keeps those).
    expect(tail?.injectedChars).toBe('CTX: stub of ref r-1'.length);
    expect(contextTokens(tail as ContextState)).toBe(contextTokens(fold(lines)));
  });
});
