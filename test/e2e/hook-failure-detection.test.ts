// Proves the "no hook errored" checks of the other e2e tests can fail: a throwaway plugin whose hooks
// all exit 1 must be caught by hookProblems (debug log) and hookErrorAttachments (transcript).
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { hookProblems, hookRuns } from '../support/debug-log.ts';
import { MockAnthropic, text, toolUse } from '../support/mock-anthropic.ts';
import { type ClaudeResult, makeSandbox, runClaude, type Sandbox } from '../support/run-claude.ts';
import { hookErrorAttachments, readTranscript, transcriptPath } from '../support/transcript.ts';

const EVENTS = ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop', 'SessionEnd'];

describe('the hook-error detectors catch a failing hook', () => {
  const bin = inject('claudeBin');
  let mock: MockAnthropic;
  let sandbox: Sandbox;
  let run: ClaudeResult;

  beforeAll(async () => {
    mock = await MockAnthropic.start();
    sandbox = makeSandbox('failing-hooks');
    const plugin = join(sandbox.root, 'failing-plugin');
    mkdirSync(join(plugin, '.claude-plugin'), { recursive: true });
    mkdirSync(join(plugin, 'hooks'), { recursive: true });
    writeFileSync(join(plugin, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'failing-plugin', version: '0.0.1' }));
    writeFileSync(join(plugin, 'fail.sh'), '#!/bin/sh\ncat >/dev/null\necho "FAIL-STDERR-$1" >&2\nexit 1\n');
    chmodSync(join(plugin, 'fail.sh'), 0o755);
    const hooks = Object.fromEntries(EVENTS.map((e) => [e, [{ hooks: [{ type: 'command', command: `sh "\${CLAUDE_PLUGIN_ROOT}/fail.sh" ${e}` }] }]]));
    writeFileSync(join(plugin, 'hooks', 'hooks.json'), JSON.stringify({ hooks }));
    mock.script(toolUse('Bash', { command: 'echo detector', description: 'x' }), text('DETECTOR-DONE'));
    run = await runClaude({ bin, sandbox, mock, label: 'failing', prompt: 'go', args: ['--plugin-dir', plugin, '--allowedTools', 'Bash(echo:*)'] });
  });

  afterAll(async () => {
    await mock?.close();
    sandbox?.cleanup();
  });

  it('flags every failing event in the debug log, SessionEnd included', () => {
    expect(run.code, run.describe()).toBe(0);
    const failed = hookRuns(run.debugLog).filter((r) => r.status === 1);
    expect(new Set(failed.map((r) => r.event))).toEqual(new Set(EVENTS));
    const problems = hookProblems(run.debugLog);
    for (const event of EVENTS)
      expect(
        problems.some((p) => p.includes(event)),
        `${event} in ${run.debugFile}`,
      ).toBe(true);
  });

  it('finds hook_non_blocking_error attachments in the transcript', () => {
    const t = readTranscript(transcriptPath(sandbox.configDir, sandbox.project, run.sessionId ?? ''));
    const events = hookErrorAttachments(t).map((a) => a.hookEvent);
    // SessionEnd runs after the transcript is final, so it leaves no attachment.
    expect(new Set(events)).toEqual(new Set(['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop']));
  });
});
