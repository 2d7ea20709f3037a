// Realistic Claude Code transcript lines (reference §5.3, 2.1.332 shape), deterministic from a seed:
// user prompts, assistant text and tool_use lines (one line per content block, usage repeated on each),
// tool_result lines of a few KB with `toolUseResult`, and the odd attachment / system line.
import { closeSync, openSync, writeSync } from 'node:fs';

export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  'the a to of and in is for that with on this it we be as by not are from at or an if then else when ' +
  'function return const let import export type interface async await promise cursor transcript session hook ' +
  'context window budget phase ledger archive recall index chunk token usage summary compaction stub buffer ' +
  'file path line offset byte anchor reader writer lock store config schema parse validate error warning test ' +
  'build bundle module runtime deadline timeout stdin stdout json record event tool command result output input ' +
  'should would could must never always first last next previous current new old large small fast slow'
).split(' ');

const FILES = [
  'lib/transcript/reader.ts',
  'lib/transcript/lines.ts',
  'lib/runtime/store.ts',
  'lib/runtime/hook-runtime.ts',
  'lib/session/session-files.ts',
  'hooks/stop.ts',
  'test/unit/reader.test.ts',
  'README.md',
];

function pick(r, list) {
  return list[Math.floor(r() * list.length)];
}

function sentence(r, min, max) {
  const n = min + Math.floor(r() * (max - min + 1));
  const words = [];
  for (let i = 0; i < n; i++) words.push(pick(r, WORDS));
  const s = words.join(' ');
  return `${s[0].toUpperCase()}${s.slice(1)}.`;
}

function prose(r, chars) {
  const parts = [];
  let size = 0;
  while (size < chars) {
    const s = sentence(r, 6, 18);
    parts.push(s);
    size += s.length + 1;
  }
  return parts.join(' ');
}

function codeLines(r, chars) {
  const lines = [];
  let size = 0;
  let n = 1;
  while (size < chars) {
    const indent = '  '.repeat(Math.floor(r() * 3));
    const kind = r();
    let text;
    if (kind < 0.25) text = `${indent}const ${pick(r, WORDS)}${Math.floor(r() * 90)} = await ${pick(r, WORDS)}(${pick(r, WORDS)}, ${Math.floor(r() * 1000)});`;
    else if (kind < 0.45) text = `${indent}if (${pick(r, WORDS)} === undefined) return ${pick(r, WORDS)};`;
    else if (kind < 0.6) text = `${indent}// ${sentence(r, 4, 12)}`;
    else if (kind < 0.75) text = `${indent}export function ${pick(r, WORDS)}${pick(r, WORDS)}(${pick(r, WORDS)}: string): number {`;
    else text = `${indent}${pick(r, WORDS)}.${pick(r, WORDS)}(${JSON.stringify(pick(r, WORDS))});`;
    const line = `${String(n).padStart(6)}\t${text}`;
    lines.push(line);
    size += line.length + 1;
    n += 1;
  }
  return lines.join('\n');
}

function testOutput(r, chars) {
  const lines = [];
  let size = 0;
  while (size < chars) {
    const ok = r() > 0.08;
    const line = ok
      ? ` ✓ ${pick(r, FILES).replace(/\.ts$/, '.test.ts')} > ${sentence(r, 3, 8)} ${Math.floor(r() * 40)}ms`
      : ` × ${pick(r, FILES)} > ${sentence(r, 3, 8)}\n   AssertionError: expected ${Math.floor(r() * 100)} to be ${Math.floor(r() * 100)}`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n\n Test Files  ${Math.floor(r() * 20)} passed\n      Tests  ${Math.floor(r() * 300)} passed`;
}

export function bashStdout(seed, chars) {
  return testOutput(rng(seed), chars);
}

export function promptText(seed, chars) {
  return prose(rng(seed), chars);
}

function hex(r, n) {
  let s = '';
  for (let i = 0; i < n; i++) s += Math.floor(r() * 16).toString(16);
  return s;
}

function uuid(r) {
  return `${hex(r, 8)}-${hex(r, 4)}-4${hex(r, 3)}-a${hex(r, 3)}-${hex(r, 12)}`;
}

/**
 * A generator of transcript lines (as JSON strings, no newline). `state` carries the parent uuid, the
 * clock and the token count, so that two generators can continue one conversation.
 */
export function createConversation({ seed, sessionId, cwd, parentUuid = null, startMs = Date.UTC(2026, 10, 1, 9, 0, 0) }) {
  const r = rng(seed);
  let parent = parentUuid;
  let clock = startMs;
  let tokens = 18_000;
  let turn = 0;
  const common = () => ({
    parentUuid: parent,
    isSidechain: false,
    userType: 'external',
    cwd,
    sessionId,
    version: '2.1.332',
    gitBranch: 'main',
  });
  const stamp = () => {
    clock += 500 + Math.floor(r() * 20_000);
    return new Date(clock).toISOString();
  };
  const emit = (line) => {
    parent = line.uuid;
    return JSON.stringify(line);
  };
  const user = (content, extra) =>
    emit({
      ...common(),
      type: 'user',
      message: { role: 'user', content },
      uuid: uuid(r),
      timestamp: stamp(),
      permissionMode: 'default',
      ...extra,
    });
  const assistant = (block, messageId, requestId, stop) => {
    tokens += 200 + Math.floor(r() * 3000);
    return emit({
      ...common(),
      type: 'assistant',
      requestId,
      message: {
        id: messageId,
        type: 'message',
        role: 'assistant',
        model: 'claude-opus-5-5',
        content: [block],
        stop_reason: stop,
        stop_sequence: null,
        usage: {
          input_tokens: 3 + Math.floor(r() * 20),
          cache_creation_input_tokens: 300 + Math.floor(r() * 4000),
          cache_read_input_tokens: tokens,
          output_tokens: 40 + Math.floor(r() * 900),
          service_tier: 'standard',
          cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
        },
      },
      uuid: uuid(r),
      timestamp: stamp(),
      effort: 'medium',
    });
  };

  /** One prompt → a few tool calls → a final answer; yields the lines of one turn. */
  function* nextTurn() {
    turn += 1;
    const promptId = uuid(r);
    yield user(prose(r, 120 + Math.floor(r() * 700)), { promptId });
    if (turn % 7 === 1) {
      yield emit({
        ...common(),
        type: 'attachment',
        attachment: { type: 'hook_additional_context', content: [prose(r, 200)], hookEvent: 'UserPromptSubmit' },
        uuid: uuid(r),
        timestamp: stamp(),
      });
    }
    const calls = 1 + Math.floor(r() * 4);
    for (let c = 0; c < calls; c++) {
      const messageId = `msg_${hex(r, 24)}`;
      const requestId = `req_${hex(r, 24)}`;
      yield assistant({ type: 'text', text: prose(r, 80 + Math.floor(r() * 400)) }, messageId, requestId, null);
      const toolId = `toolu_${hex(r, 24)}`;
      const kind = r();
      let block;
      let resultText;
      let structured;
      if (kind < 0.45) {
        const command = pick(r, ['npm test', 'npx vitest run test/unit', 'npm run typecheck', 'git diff --stat', 'ls -la lib']);
        block = { type: 'tool_use', id: toolId, name: 'Bash', input: { command, description: sentence(r, 3, 7) } };
        resultText = testOutput(r, 1500 + Math.floor(r() * 4500));
        structured = { stdout: resultText, stderr: '', interrupted: false, isImage: false, noOutputExpected: false };
      } else if (kind < 0.8) {
        const filePath = `${cwd}/${pick(r, FILES)}`;
        block = { type: 'tool_use', id: toolId, name: 'Read', input: { file_path: filePath } };
        resultText = codeLines(r, 1500 + Math.floor(r() * 5000));
        structured = { type: 'text', file: { filePath, content: resultText, numLines: resultText.split('\n').length, startLine: 1 } };
      } else {
        const filePath = `${cwd}/${pick(r, FILES)}`;
        const oldString = codeLines(r, 200);
        const newString = codeLines(r, 260);
        block = { type: 'tool_use', id: toolId, name: 'Edit', input: { file_path: filePath, old_string: oldString, new_string: newString } };
        resultText = `The file ${filePath} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${codeLines(r, 900)}`;
        structured = { filePath, oldString, newString, structuredPatch: [], userModified: false };
      }
      const useLine = assistant(block, messageId, requestId, 'tool_use');
      const useUuid = parent;
      yield useLine;
      yield user([{ tool_use_id: toolId, type: 'tool_result', content: resultText, is_error: false }], {
        promptId,
        toolUseResult: structured,
        sourceToolAssistantUUID: useUuid,
      });
    }
    yield assistant({ type: 'text', text: prose(r, 200 + Math.floor(r() * 900)) }, `msg_${hex(r, 24)}`, `req_${hex(r, 24)}`, 'end_turn');
    if (turn % 5 === 0) {
      yield emit({
        ...common(),
        type: 'system',
        subtype: 'stop_hook_summary',
        content: '',
        level: 'info',
        hookCount: 1,
        hookInfos: [{ command: 'node dist/stop.mjs' }],
        uuid: uuid(r),
        timestamp: stamp(),
      });
    }
  }

  /** Whole turns until at least `bytes` bytes (with newlines) have been produced. */
  function take(bytes) {
    const lines = [];
    let size = 0;
    while (size < bytes) {
      for (const line of nextTurn()) {
        lines.push(line);
        size += Buffer.byteLength(line) + 1;
      }
    }
    return { text: `${lines.join('\n')}\n`, bytes: size, lines: lines.length };
  }

  /** Stream whole turns straight to a file until it holds at least `bytes`; returns the size written. */
  function writeTo(file, bytes, flags = 'w') {
    const fd = openSync(file, flags);
    let size = 0;
    try {
      while (size < bytes) {
        const { text, bytes: n } = take(Math.min(1 << 20, bytes - size));
        writeSync(fd, text);
        size += n;
      }
    } finally {
      closeSync(fd);
    }
    return size;
  }

  return { take, writeTo };
}
