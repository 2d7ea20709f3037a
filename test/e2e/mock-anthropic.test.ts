// The mock Messages API on its own (no client): the SSE it streams, compaction detection, body
// decoding and the search helpers the e2e tests rely on.
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPACT_MARKER, MockAnthropic, requestIncludes, requestTexts, text, toolUse } from '../support/mock-anthropic.ts';

interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

function parseSse(body: string): SseEvent[] {
  return body
    .split('\n\n')
    .filter((chunk) => chunk.trim() !== '')
    .map((chunk) => {
      const event = /^event: (.*)$/m.exec(chunk)?.[1] ?? '';
      const data = JSON.parse(/^data: (.*)$/m.exec(chunk)?.[1] ?? '{}') as Record<string, unknown>;
      return { event, data };
    });
}

describe('mock Anthropic API', () => {
  let mock: MockAnthropic;
  const post = (body: unknown, headers: Record<string, string> = {}, path = '/v1/messages?beta=true') =>
    fetch(`${mock.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

  beforeAll(async () => {
    mock = await MockAnthropic.start();
  });
  afterAll(async () => {
    await mock.close();
  });

  it('streams a text turn with the scripted usage', async () => {
    mock.reset();
    mock.script(text('Hello there', { input_tokens: 70_000 }));
    const res = await post({ model: 'claude-test', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const events = parseSse(await res.text());
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'ping',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const start = events[0]?.data.message as { model: string; usage: { input_tokens: number } };
    expect(start.model).toBe('claude-test');
    expect(start.usage.input_tokens).toBe(70_000);
    const deltas = events.filter((e) => e.event === 'content_block_delta').map((e) => (e.data.delta as { text: string }).text);
    expect(deltas.join('')).toBe('Hello there');
    expect(events[6]?.data.delta).toEqual({ stop_reason: 'end_turn', stop_sequence: null });
  });

  it('streams a tool_use turn as input_json_delta pieces', async () => {
    mock.reset();
    mock.script(toolUse('Bash', { command: 'echo hi', description: 'd' }, { id: 'toolu_x' }));
    const events = parseSse(await (await post({ model: 'm', messages: [] })).text());
    const block = events.find((e) => e.event === 'content_block_start')?.data.content_block;
    expect(block).toEqual({ type: 'tool_use', id: 'toolu_x', name: 'Bash', input: {} });
    const json = events
      .filter((e) => e.event === 'content_block_delta')
      .map((e) => (e.data.delta as { partial_json: string }).partial_json)
      .join('');
    expect(JSON.parse(json)).toEqual({ command: 'echo hi', description: 'd' });
    expect(events.find((e) => e.event === 'message_delta')?.data.delta).toEqual({ stop_reason: 'tool_use', stop_sequence: null });
  });

  it('answers compaction requests with the summary without using a turn', async () => {
    mock.reset();
    mock.script(text('kept for later'));
    const body = { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: `Reply with an <analysis> block ${COMPACT_MARKER}.` }] }] };
    const events = parseSse(await (await post(body)).text());
    const reply = events
      .filter((e) => e.event === 'content_block_delta')
      .map((e) => (e.data.delta as { text: string }).text)
      .join('');
    expect(reply).toContain('<summary>');
    expect(mock.pending).toBe(1);
    expect(mock.compactions().length).toBe(1);
  });

  it('decodes gzip bodies, answers count_tokens and HEAD, and finds requests', async () => {
    mock.reset();
    mock.script(text('one'), text('two'));
    const first = await fetch(`${mock.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ model: 'm', system: [{ type: 'text', text: 'SYS' }], messages: [{ role: 'user', content: 'FIRST-NEEDLE' }] })),
    });
    await first.text();
    expect((await post({ messages: [] }, {}, '/v1/messages/count_tokens')).status).toBe(200);
    expect((await fetch(`${mock.url}/api/hello`, { method: 'HEAD' })).status).toBe(200);
    await (await post({ model: 'm', messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'SECOND' }] }] })).text();

    expect(mock.problems).toEqual([]);
    expect(mock.requests.map((r) => r.kind)).toEqual(['messages', 'count_tokens', 'other', 'messages']);
    const [a, , , b] = mock.requests;
    expect(a && requestTexts(a)).toEqual(['SYS', 'FIRST-NEEDLE']);
    expect(requestIncludes(b, 'SECOND')).toBe(true);
    expect(mock.containing('FIRST-NEEDLE')).toEqual([a]);
    expect(mock.nextTurnAfter(a)).toBe(b);
    expect(mock.nextAfter((r) => r.kind === 'count_tokens')).toBe(b);
    expect(mock.nextAfter(b)).toBeUndefined();
  });
});
