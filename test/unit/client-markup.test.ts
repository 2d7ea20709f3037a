import { describe, expect, it } from 'vitest';
import { chunksFromEntries, emptyChunkerState } from '../../lib/archive/chunker.ts';
import { typedText } from '../../lib/archive/client-markup.ts';
import { factsOfChunk } from '../../lib/phase/ledgers.ts';
import { entriesOf } from '../../lib/transcript/entries.ts';

describe('typedText: the client markup of slash commands, as the user typed and saw them', () => {
  it('a command with arguments (2.x: message first, then name and args)', () => {
    const text =
      '<command-message>orchestrator is running…</command-message>\n<command-name>/orchestrator</command-name>\n<command-args>create TODO app by Next.js</command-args>';
    expect(typedText(text)).toBe('/orchestrator create TODO app by Next.js');
  });

  it('an older layout, indented, with no arguments', () => {
    expect(
      typedText('<command-name>/compact</command-name>\n            <command-message>compact</command-message>\n            <command-args></command-args>'),
    ).toBe('/compact');
  });

  it('a name without its slash, with contents, and text around the tags', () => {
    const text =
      '<command-name>test-command</command-name><command-args>--verbose</command-args><command-message>Running</command-message><command-contents>{"x": 1}</command-contents> and more';
    expect(typedText(text)).toBe('/test-command --verbose\n\n{"x": 1}\n\nand more');
  });

  it("a local command's output without its wrapper; an empty one is nothing", () => {
    expect(typedText('<local-command-stdout>Compacted (ctrl+o to see full summary)</local-command-stdout>')).toBe('Compacted (ctrl+o to see full summary)');
    expect(typedText('<local-command-stdout></local-command-stdout>')).toBe('');
  });

  it('other text stays as it is, tags written in prose included', () => {
    expect(typedText('Fix the parser.')).toBe('Fix the parser.');
    expect(typedText('what does <command-name> mean in the transcript?')).toBe('what does <command-name> mean in the transcript?');
    const mention =
      "Why does my hook parser drop the user's words? The transcript line has <command-name>/compact</command-name> and then <command-args></command-args>, and my regex keeps only the first tag.";
    expect(typedText(mention)).toBe(mention);
    const output = 'The client wraps it as <local-command-stdout>Compacted</local-command-stdout>, see?';
    expect(typedText(output)).toBe(output);
  });

  it('arguments that hold a closing tag are kept whole', () => {
    const text = '<command-message>recall</command-message>\n<command-name>/recall</command-name>\n<command-args>what does </command-args> mean</command-args>';
    expect(typedText(text)).toBe('/recall what does </command-args> mean');
  });

  it('many unclosed tags (a pasted log of 5 MB) come back whole, in one pass', () => {
    // A regex search per tag from every start was quadratic here: minutes, past the test's timeout.
    const text = `<command-name>/x</command-name>${'<command-args>'.repeat(400_000)}`;
    expect(typedText(text)).toBe(`/x\n\n${'<command-args>'.repeat(400_000)}`);
  });
});

describe('archived user chunks', () => {
  const ctx = { session: 's', project: 'p', phase: 'unknown', hash: (s: string) => s.slice(0, 60), now: '2026-11-30T00:00:00.000Z' };
  const user = (uuid: string, content: string) => ({ type: 'user', uuid, timestamp: '2026-11-30T00:00:00.000Z', message: { role: 'user', content } });

  it('a typed command is archived as typed, under the id it always had; an empty local output is not archived', () => {
    const entries = [
      ...entriesOf(user('u1', '<command-message>recall</command-message>\n<command-name>/recall</command-name>\n<command-args>retry budget</command-args>'))
        .entries,
      ...entriesOf(user('u2', '<local-command-stdout></local-command-stdout>')).entries,
      ...entriesOf(user('u3', '<local-command-stdout>Total cost: $0.12</local-command-stdout>')).entries,
    ];
    const chunks = chunksFromEntries(entries, emptyChunkerState(), ctx);
    expect(chunks.map((c) => c.text)).toEqual(['/recall retry budget', 'Total cost: $0.12']);
    expect(chunks[0]?.id).toBe(ctx.hash('user|s|u1|0'));
    expect(chunks[0]?.keywords).not.toContain('command-name');
    expect(chunks.map((c) => c.client)).toEqual([true, true]);
  });

  it("no facts or goal come from the client's records: /compact's output holds what PreCompact hooks printed, ours included", () => {
    const steering =
      '<local-command-stdout>Compacted (ctrl+o to see full summary)\nPreCompact [node pre-compact.mjs] completed successfully: Context-lifecycle notes for this summary.\nKeep the following word for word in the summary, with their ids, most important first:\nNever push to main on a Friday.</local-command-stdout>';
    const entries = [
      ...entriesOf(
        user(
          'u1',
          '<command-name>/compact</command-name>\n<command-message>compact</command-message>\n<command-args>never drop the retry notes</command-args>',
        ),
      ).entries,
      ...entriesOf(user('u2', steering)).entries,
      ...entriesOf(user('u3', 'Never push to main on a Friday.')).entries,
    ];
    const chunks = chunksFromEntries(entries, emptyChunkerState(), ctx);
    expect(chunks).toHaveLength(3);
    expect(factsOfChunk(chunks[0] as (typeof chunks)[number], [])).toEqual([]);
    expect(factsOfChunk(chunks[1] as (typeof chunks)[number], [])).toEqual([]);
    // The same words typed by the user are a constraint.
    expect(factsOfChunk(chunks[2] as (typeof chunks)[number], []).map((f) => f.kind)).toContain('constraint');
  });
});

describe("the chunker's record of what the main thread said last", () => {
  const ctx = { session: 's', project: '/p', phase: 'unknown', now: '2026-11-30T00:00:00.000Z', hash: (s: string) => s.replace(/\W/g, '').slice(-16) };
  const assistant = (uuid: string, text: string, isSidechain = false) => ({
    type: 'assistant',
    uuid,
    isSidechain,
    timestamp: '2026-11-30T00:00:00.000Z',
    message: { role: 'assistant', content: [{ type: 'text', text }] },
  });

  it("keeps the main thread's latest assistant text for the next prompt; a subagent's words do not replace it", () => {
    const state = emptyChunkerState();
    const chunks = chunksFromEntries(
      [...entriesOf(assistant('a1', 'Should we use Pinia or Vuex?')).entries, ...entriesOf(assistant('a2', 'Explored 40 files.', true)).entries],
      state,
      ctx,
    );
    expect(state.said).toEqual([chunks[0]?.id]);
  });
});
