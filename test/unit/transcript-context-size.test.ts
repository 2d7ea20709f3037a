// lib/transcript/context-size.ts: the context size is the last main-thread usage (one count per
// message, however many lines it spans), sidechains ignored, reset by a compaction boundary's
// postTokens, plus 4 chars/token for what came after the last usage.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHARS_PER_TOKEN, contextTokens, emptyContext, foldContext } from '../../lib/transcript/context-size.ts';
import { parseLine } from '../../lib/transcript/entries.ts';
import { advanceTranscript } from '../../lib/transcript/reader.ts';
import { transcriptFixtures } from './helpers/manifest.ts';
import { useTempDirs } from './helpers/tmp.ts';

const tempDir = useTempDirs('ctxl-context-');

interface UsageSpec {
  input: number;
  cacheCreation?: number;
  cacheRead?: number;
  output?: number;
}

let uuid = 0;
const meta = (sidechain = false) => ({ uuid: `u${++uuid}`, sessionId: 'sess', isSidechain: sidechain, timestamp: '2026-11-29T10:00:00.000Z' });

function assistant(id: string, usage: UsageSpec, block: Record<string, unknown> = { type: 'text', text: 'reply' }, sidechain = false) {
  return {
    ...meta(sidechain),
    type: 'assistant',
    requestId: `req_${id}`,
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: 'claude-opus-5-5',
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
const toolResult = (text: string) => ({
  ...meta(),
  type: 'user',
  message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: text }] },
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

function fold(lines: object[]) {
  const state = emptyContext();
  for (const line of lines) {
    const parsed = parseLine(JSON.stringify(line));
    expect(parsed).toBeDefined();
    if (parsed !== undefined) foldContext(state, parsed);
  }
  return state;
}

describe('context size', () => {
  it('uses 4 characters per token for estimates', () => {
    expect(CHARS_PER_TOKEN).toBe(4);
  });

  it('counts a tool input nested too deep to stringify as nothing, and goes on', () => {
    // JSON.parse takes 20,000 levels; JSON.stringify overflows the stack on them.
    const deep = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
    const raw = `{"type":"assistant","uuid":"deep","sessionId":"sess","timestamp":"2026-11-29T10:00:00.000Z","message":{"id":"m-deep","role":"assistant","content":[{"type":"tool_use","id":"tu","name":"Write","input":{"meta":${deep}}}]}}`;
    const parsed = parseLine(raw);
    expect(parsed).toBeDefined();
    const state = emptyContext();
    if (parsed !== undefined) expect(() => foldContext(state, parsed)).not.toThrow();
    expect(state.charsAfter).toBe('Write'.length);
  });

  it('takes the last main-thread usage: input + cache creation + cache read', () => {
    const state = fold([
      userText('hi'),
      assistant('msg_1', { input: 10_000, cacheCreation: 2_000, cacheRead: 500 }),
      userText('again'),
      assistant('msg_2', { input: 1_000, cacheCreation: 300, cacheRead: 20_000 }),
    ]);
    expect(contextTokens(state)).toBe(21_300);
    expect(state.usageKey).toBe('msg_2|req_msg_2');
  });

  it('counts one message once however many lines carry its usage', () => {
    const usage = { input: 5_000, cacheCreation: 1_000, cacheRead: 4_000 };
    const state = fold([
      assistant('msg_1', usage, { type: 'thinking', thinking: 'hmm '.repeat(100), signature: 's' }),
      assistant('msg_1', usage, { type: 'text', text: 'Let me look.' }),
      assistant('msg_1', usage, { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } }),
    ]);
    expect(contextTokens(state)).toBe(10_000);
    expect(state.charsAfter).toBe(0);
  });

  it('ignores sidechain usage and sidechain content', () => {
    const state = fold([
      assistant('msg_main', { input: 8_000 }),
      userText('x'.repeat(4_000), true),
      assistant('msg_side', { input: 90_000, cacheRead: 10_000 }, { type: 'text', text: 'sub' }, true),
    ]);
    expect(contextTokens(state)).toBe(8_000);
  });

  it('resets to a compact boundary’s postTokens, without adding the summary again', () => {
    const state = fold([
      assistant('msg_1', { input: 150_000 }),
      boundary(2_714),
      summary('This session is being continued from a previous conversation. '.repeat(50)),
    ]);
    expect(state.compactions).toBe(1);
    expect(contextTokens(state)).toBe(2_714);
  });

  it('estimates the summary when an older boundary has no postTokens', () => {
    const text = 's'.repeat(4_000);
    const state = fold([assistant('msg_1', { input: 150_000 }), boundary(undefined), summary(text)]);
    expect(contextTokens(state)).toBe(1_000);
  });

  it('adds ceil(chars / 4) for content after the last usage', () => {
    const state = fold([assistant('msg_1', { input: 1_000 }), userText('u'.repeat(401)), toolResult('r'.repeat(10))]);
    expect(state.charsAfter).toBe(411);
    expect(contextTokens(state)).toBe(1_000 + Math.ceil(411 / 4));
  });

  it('drops the estimate once a newer usage arrives', () => {
    const state = fold([assistant('msg_1', { input: 1_000 }), userText('u'.repeat(4_000)), assistant('msg_2', { input: 2_500 })]);
    expect(contextTokens(state)).toBe(2_500);
    expect(state.charsAfter).toBe(0);
  });

  it('remembers the first usage as the system share', () => {
    const state = fold([assistant('msg_1', { input: 12_000, cacheCreation: 455 }), assistant('msg_2', { input: 30_000 })]);
    expect(state.firstReported).toBe(12_455);
  });

  it('gives the same context state when a transcript is read line by line or at once', async () => {
    const lines = [
      userText('start'),
      assistant('msg_1', { input: 3_000, cacheRead: 7_000 }),
      assistant('msg_1', { input: 3_000, cacheRead: 7_000 }, { type: 'tool_use', id: 't', name: 'Read', input: { file_path: '/a' } }),
      toolResult('content of a'),
      boundary(1_500),
      summary('summary'),
      userText('after compaction'),
    ];
    const file = join(tempDir(), 't.jsonl');
    writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const r = await advanceTranscript(file, undefined);
    expect(r.cursor.context).toEqual(fold(lines));
    expect(contextTokens(r.cursor.context)).toBe(1_500 + Math.ceil('after compaction'.length / 4));
  });
});

describe('context size of real sessions', () => {
  const fixture = (suffix: string) => {
    const f = transcriptFixtures().find((x) => x.dest.endsWith(suffix));
    expect(f).toBeDefined();
    return (f as { path: string }).path;
  };
  /** The context state just before the first compact_boundary line, and that boundary's preTokens. */
  async function beforeBoundary(path: string) {
    const lines = readFileSync(path, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes('"compact_boundary"'));
    expect(at).toBeGreaterThan(0);
    const pre = (JSON.parse(lines[at] as string) as { compactMetadata: { preTokens: number } }).compactMetadata.preTokens;
    const file = join(tempDir(), 'head.jsonl');
    writeFileSync(file, `${lines.slice(0, at).join('\n')}\n`);
    const r = await advanceTranscript(file, undefined);
    return { tokens: contextTokens(r.cursor.context), pre };
  }

  it('matches Claude Code’s own preTokens exactly when the last usage is the last content (compact.jsonl)', async () => {
    const { tokens, pre } = await beforeBoundary(fixture('tomjnsn__agentlogs/compact.jsonl'));
    expect(pre).toBe(15_808);
    expect(tokens).toBe(pre);
  });

  it('estimates within 5% of Claude Code’s preTokens when content follows the last usage (sample_main_transcript.jsonl)', async () => {
    const { tokens, pre } = await beforeBoundary(fixture('oneryalcin__fasthooks/sample_main_transcript.jsonl'));
    expect(Math.abs(tokens - pre) / pre).toBeLessThan(0.05);
  });

  it('after an old-style boundary (no postTokens), counts the summary and later prompts at 4 chars/token', async () => {
    const r = await advanceTranscript(fixture('tomjnsn__agentlogs/compact.jsonl'), undefined);
    expect(r.cursor.context.compactions).toBe(1);
    expect(r.cursor.context.reported).toBe(0);
    // summary 2178 chars + prompts of 200, 134 and 92 chars after it
    expect(r.cursor.context.charsAfter).toBe(2_178 + 200 + 134 + 92);
    expect(contextTokens(r.cursor.context)).toBe(Math.ceil(2_604 / 4));
  });

  it('never counts sidechain usage: a transcript of only sidechain lines has no reported tokens', async () => {
    const r = await advanceTranscript(fixture('sample_agent_sidechain.jsonl'), undefined);
    expect(r.cursor.context.reported).toBe(0);
    expect(r.cursor.context.charsAfter).toBe(0);
  });
});
