// A small transcript writer in Claude Code's line format (shapes copied from the crud.jsonl fixture):
// user and assistant lines, tool calls with or without their result, chained by parentUuid, one
// timestamp step apart.
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';

type Obj = Record<string, unknown>;

export interface ScriptedTranscript {
  lines: Obj[];
  /** Each returns the uuid of the line it added. */
  user(text: string): string;
  assistant(text: string): string;
  /** The assistant's tool_use line alone (a call still running); returns the tool_use id. */
  toolUse(name: string, input: Obj): string;
  /** The tool_result line for a tool_use id; returns its uuid. */
  toolResult(id: string, output: string): string;
  /** A tool call and its result; returns both lines' uuids, in transcript order. */
  tool(name: string, input: Obj, output: string): [string, string];
  text(): string;
  write(file: string): void;
}

/** `now`: timestamps from this clock instead of `start` + `stepMs` steps (for runs that interleave hooks). */
export function scriptedTranscript(sessionId: string, cwd: string, options: { start?: number; stepMs?: number; now?: () => number } = {}): ScriptedTranscript {
  const lines: Obj[] = [];
  let parent: string | null = null;
  let clock = options.start ?? Date.parse('2025-10-12T21:35:53.000Z');
  const push = (fields: Obj): string => {
    const uuid = randomUUID();
    clock = options.now === undefined ? clock + (options.stepMs ?? 1_000) : Math.max(clock + 1, options.now());
    lines.push({
      parentUuid: parent,
      isSidechain: false,
      userType: 'external',
      cwd,
      sessionId,
      version: '2.1.332',
      gitBranch: 'main',
      uuid,
      timestamp: new Date(clock).toISOString(),
      ...fields,
    });
    parent = uuid;
    return uuid;
  };
  const assistantLine = (content: Obj[]) => ({
    type: 'assistant',
    requestId: `req_${lines.length}`,
    message: {
      model: 'claude-sonnet-4-5-20250929',
      id: `msg_${randomUUID().replaceAll('-', '')}`,
      type: 'message',
      role: 'assistant',
      content,
      stop_reason: null,
      usage: { input_tokens: 4, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000, output_tokens: 10 },
    },
  });
  const self: ScriptedTranscript = {
    lines,
    user: (text) => push({ type: 'user', message: { role: 'user', content: text } }),
    assistant: (text) => push(assistantLine([{ type: 'text', text }])),
    toolUse(name, input) {
      const id = `toolu_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
      push(assistantLine([{ type: 'tool_use', id, name, input }]));
      return id;
    },
    toolResult: (id, output) =>
      push({
        type: 'user',
        message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: output }] },
        toolUseResult: { stdout: output, stderr: '', interrupted: false, isImage: false },
      }),
    tool(name, input, output) {
      const id = self.toolUse(name, input);
      const use = lines.at(-1)?.uuid as string;
      return [use, self.toolResult(id, output)];
    },
    text: () => `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`,
    write: (file) => writeFileSync(file, self.text()),
  };
  return self;
}
