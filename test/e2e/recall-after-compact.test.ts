// The archive's promise, end to end with the real client: a detail planted early in a session is
// dropped by a compaction summary, and `/recall` in the next turn brings it back into the request the
// model receives, in one step, with quotes and `$(…)` in the arguments executing nothing.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CtxlData } from '../support/ctxl-data.ts';
import { hookProblems, runsOf } from '../support/debug-log.ts';
import { MockAnthropic, type RecordedRequest, requestIncludes, text, toolUse } from '../support/mock-anthropic.ts';
import { type ClaudeResult, makeSandbox, REPO_ROOT, runClaude, runCli, type Sandbox } from '../support/run-claude.ts';

const DETAIL = 'requestTimeoutMs is now 45000 (was 30000) in config/http-client.yaml';

describe('/recall brings back a detail the compaction summary dropped (plugin-dir)', () => {
  const bin = inject('claudeBin');
  let mock: MockAnthropic;
  let sandbox: Sandbox;
  let planted: ClaudeResult;
  let compacted: ClaudeResult;
  let recalled: ClaudeResult;
  let sid: string;
  let recallRequest: RecordedRequest | undefined;
  const canary = () => join(sandbox.root, 'canary');

  beforeAll(async () => {
    mock = await MockAnthropic.start();
    sandbox = makeSandbox('recall');
    const claude = (label: string, prompt: string, args: string[]) =>
      runClaude({ bin, sandbox, mock, prompt, label, args: ['--plugin-dir', REPO_ROOT, ...args] });

    // 1. The detail appears in a tool output and in Claude's reply.
    mock.script(toolUse('Bash', { command: `echo '${DETAIL}'`, description: 'Show the new timeout' }), text(`Done: ${DETAIL}.`));
    planted = await claude('plant', 'Raise the HTTP client timeout and tell me the new value.', ['--allowedTools', 'Bash(echo:*)']);
    sid = planted.sessionId ?? '';
    // 2. A compaction whose summary keeps only generalities.
    mock.compactText = '<analysis>short</analysis>\n<summary>The user worked on HTTP client settings. Nothing is pending.</summary>';
    compacted = await claude('compact', '/compact', ['--resume', sid]);
    // 3. The next turn asks for it with /recall; the argument carries shell metacharacters.
    mock.script(text('RECALLED'));
    // A plugin's commands are namespaced: /context-lifecycle:recall (a plain install has /recall).
    recalled = await claude('recall', `/context-lifecycle:recall "timeout" http-client $(touch ${canary()}) ; it's`, ['--resume', sid]);
    recallRequest = recalled.requests.find((r) => r.kind === 'messages');
  });

  afterAll(async () => {
    await mock?.close();
    sandbox?.cleanup();
  });

  it('every run succeeded and no hook failed', () => {
    for (const run of [planted, compacted, recalled]) {
      expect(run.code, run.describe()).toBe(0);
      expect(hookProblems(run.debugLog)).toEqual([]);
    }
    expect(new CtxlData(sandbox.data).logErrors()).toEqual([]);
  });

  it('the compaction summary did not keep the detail', () => {
    expect(mock.compactText).not.toContain('45000');
    expect(runsOf(compacted.debugLog, 'PreCompact').map((r) => r.status)).toEqual([0]);
  });

  it('PreCompact archived the detail to L2 before the summary replaced it', async () => {
    const out = await runCli(sandbox, ['recall', 'timeout', '45000', '--cwd', sandbox.project, '--json']);
    expect(out.code, out.stderr).toBe(0);
    const json = JSON.parse(out.stdout) as { results: Array<{ snippet: string; sessionId: string; sourceUuids: string[] }> };
    expect(json.results.length).toBeGreaterThan(0);
    expect(json.results.some((r) => r.snippet.includes('45000') && r.sessionId === sid)).toBe(true);
    expect(json.results[0]?.sourceUuids.length).toBeGreaterThan(0);
  });

  it('/recall in the next turn put the detail into the request the model received', () => {
    expect(recalled.json?.result).toBe('RECALLED');
    expect(runsOf(recalled.debugLog, 'UserPromptExpansion').map((r) => r.status)).toEqual([0]);
    expect(requestIncludes(recallRequest, 'context-lifecycle recall results')).toBe(true);
    expect(requestIncludes(recallRequest, '45000')).toBe(true);
    expect(requestIncludes(recallRequest, 'config/http-client.yaml')).toBe(true);
  });

  it('the arguments reached the hook byte-exact and executed nothing', () => {
    expect(requestIncludes(recallRequest, `$(touch ${canary()}) ; it's`)).toBe(true);
    expect(existsSync(canary())).toBe(false);
  });
});

describe('Claude invoking the recall command itself gets the results in one step (plugin-dir)', () => {
  const bin = inject('claudeBin');
  let mock: MockAnthropic;
  let sandbox: Sandbox;
  let runs: ClaudeResult[] = [];
  let asked: ClaudeResult;
  let afterSkill: RecordedRequest | undefined;

  beforeAll(async () => {
    mock = await MockAnthropic.start();
    sandbox = makeSandbox('recall-skill');
    const claude = (label: string, prompt: string, args: string[]) =>
      runClaude({ bin, sandbox, mock, prompt, label, args: ['--plugin-dir', REPO_ROOT, ...args] });
    mock.script(toolUse('Bash', { command: `echo '${DETAIL}'`, description: 'Show the new timeout' }), text(`Done: ${DETAIL}.`));
    const planted = await claude('plant', 'Raise the HTTP client timeout and tell me the new value.', ['--allowedTools', 'Bash(echo:*)']);
    const sid = planted.sessionId ?? '';
    mock.compactText = '<analysis>short</analysis>\n<summary>The user worked on HTTP client settings. Nothing is pending.</summary>';
    const compacted = await claude('compact', '/compact', ['--resume', sid]);
    // The model decides to look it up: a Skill call with the arguments, then its answer.
    mock.script(toolUse('Skill', { skill: 'context-lifecycle:recall', args: 'timeout http-client' }), text('ANSWERED'));
    asked = await claude('ask', 'What is the HTTP client timeout now?', ['--resume', sid, '--allowedTools', 'Skill']);
    runs = [planted, compacted, asked];
    // The request after the Skill call is the one that carries its result.
    afterSkill = asked.requests.filter((r) => r.kind === 'messages').at(-1);
  });

  afterAll(async () => {
    await mock?.close();
    sandbox?.cleanup();
  });

  it('every run succeeded and no hook failed', () => {
    for (const run of runs) {
      expect(run.code, run.describe()).toBe(0);
      expect(hookProblems(run.debugLog)).toEqual([]);
    }
    expect(new CtxlData(sandbox.data).logErrors()).toEqual([]);
  });

  it('PreToolUse(Skill) answered, and the next request holds the archived detail', () => {
    expect(asked.json?.result).toBe('ANSWERED');
    expect(runsOf(asked.debugLog, 'PreToolUse').some((r) => r.status === 0)).toBe(true);
    expect(requestIncludes(afterSkill, 'context-lifecycle recall results')).toBe(true);
    expect(requestIncludes(afterSkill, '45000')).toBe(true);
  });
});
