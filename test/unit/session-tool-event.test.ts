// lib/session/tool-event.ts: the compact record of one tool call (pure).
import { describe, expect, it } from 'vitest';
import { outputSize, TOOL_EVENT_VERSION, toolEvent } from '../../lib/session/tool-event.ts';
import { filesOf } from '../../lib/transcript/tool-input.ts';

const NOW = new Date('2026-11-29T13:15:37.087Z');

describe('toolEvent', () => {
  it('records a successful Bash call', () => {
    const input = { command: 'npm test', description: 'run tests' };
    const e = toolEvent(
      { tool: 'Bash', toolUseId: 'toolu_1', input, response: { stdout: 'ok\n', stderr: '', interrupted: false, exitCode: 0 }, durationMs: 51 },
      NOW,
    );
    expect(e).toEqual({
      v: TOOL_EVENT_VERSION,
      t: '2026-11-29T13:15:37.087Z',
      tool: 'Bash',
      id: 'toolu_1',
      ok: true,
      command: 'npm test',
      exit: 0,
      inBytes: Buffer.byteLength(JSON.stringify(input)),
      outBytes: 3,
      ms: 51,
    });
  });

  it('records a failure with its error, redacted and cut', () => {
    const e = toolEvent(
      { tool: 'Bash', input: { command: 'x' }, response: undefined, error: `PASSWORD=hunter2hunter2 ${'e'.repeat(400)}`, interrupted: true },
      NOW,
    );
    expect(e.ok).toBe(false);
    expect(e.interrupted).toBe(true);
    expect(e.error?.startsWith('PASSWORD=[REDACTED:secret] ')).toBe(true);
    expect(e.error).toHaveLength(301);
    expect(e.error?.endsWith('…')).toBe(true);
  });

  it('stringifies a structured error', () => {
    expect(toolEvent({ tool: 'X', input: {}, response: undefined, error: { code: 7 } }, NOW).error).toBe('{"code":7}');
  });

  it('cuts a long command after redacting it', () => {
    const e = toolEvent({ tool: 'Bash', input: { command: `DB_PASSWORD=hunter2hunter2 ${'c'.repeat(1_000)}` }, response: {} }, NOW);
    expect(e.command?.startsWith('DB_PASSWORD=[REDACTED:secret] ')).toBe(true);
    expect(e.command).toHaveLength(501);
  });

  it('reads the exit code under its several names', () => {
    for (const response of [{ exitCode: 2 }, { exit_code: 2 }, { returnCode: 2 }]) expect(toolEvent({ tool: 'Bash', input: {}, response }, NOW).exit).toBe(2);
  });

  it('omits what it does not know', () => {
    const e = toolEvent({ tool: 'TodoWrite', input: 'not an object', response: null }, NOW);
    expect(Object.keys(e).sort()).toEqual(['inBytes', 'ok', 'outBytes', 't', 'tool', 'v']);
    expect(e.outBytes).toBe(0);
  });
});

describe('filesOf', () => {
  it('collects the paths a tool names, once each', () => {
    expect(filesOf({ file_path: '/a.ts' })).toEqual(['/a.ts']);
    expect(filesOf({ notebook_path: '/n.ipynb' })).toEqual(['/n.ipynb']);
    expect(filesOf({ path: '/src', pattern: 'x' })).toEqual(['/src']);
    expect(filesOf({ file_path: '/a.ts', edits: [{ file_path: '/a.ts' }, { file_path: '/b.ts' }, 'junk'] })).toEqual(['/a.ts', '/b.ts']);
    expect(filesOf({ file_path: '', path: 3 })).toEqual([]);
  });
});

describe('outputSize', () => {
  it('measures the text a tool produced, in UTF-8 bytes', () => {
    expect(outputSize('héllo')).toBe(6);
    expect(outputSize({ stdout: 'ab', stderr: 'ü' })).toBe(4);
    expect(outputSize({ stdout: 'ab' })).toBe(2);
    expect(outputSize({ type: 'text', file: { filePath: '/a', content: 'abc' } })).toBe(3);
    expect(outputSize({ content: 'abcd' })).toBe(4);
    expect(outputSize({ persistedOutputSize: 123_456, stdout: 'preview' })).toBe(123_456);
    expect(outputSize({ filePath: '/a', structuredPatch: [] })).toBe(Buffer.byteLength(JSON.stringify({ filePath: '/a', structuredPatch: [] })));
    expect(outputSize(undefined)).toBe(0);
    expect(outputSize([1, 2])).toBe(0);
  });
});
