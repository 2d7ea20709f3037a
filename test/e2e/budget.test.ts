// The four-zone budget end to end with the real client: what the model really receives.
// - Below L0→L1 a large Bash output reaches the model whole; once the Working zone is past it, the
//   next request carries our stub in place of the output (Bash, Read, Grep), the transcript holds no
//   hook_error_during_execution (a malformed replacement is silently ignored by the client), and the
//   stub's ref gives back the full text.
// - Stop tells the user once at the crossing (a hook_system_message in the transcript) and, at
//   L1→L2, Claude too: one more request carrying our note.
// - /compact: the compaction request carries PreCompact's steering with the decision and the
//   constraint by id; the first request after it carries SessionStart(compact)'s brief.
// Our window is fixed at 200K (CTXL_WINDOW_TOKENS) and the mock reports the usage that puts the
// session where each step needs it.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CtxlData } from '../support/ctxl-data.ts';
import { hookProblems, runsOf } from '../support/debug-log.ts';
import { MockAnthropic, type RecordedRequest, requestTexts, text, toolUse, type Usage } from '../support/mock-anthropic.ts';
import { type ClaudeResult, makeSandbox, REPO_ROOT, runClaude, runCli, type Sandbox } from '../support/run-claude.ts';
import { attachments, hookErrorAttachments, readTranscript, sessionStartContexts, transcriptPath } from '../support/transcript.ts';

const CONSTRAINT = 'Never run the migrations against the staging database.';
const DECISION = "I'll use undici rather than axios because it keeps connections alive by default.";
const usage = (input: number): Usage => ({ input_tokens: input, output_tokens: 50, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
const toolResults = (r: RecordedRequest | undefined): string[] => {
  const body = (r?.body ?? {}) as { messages?: Array<{ content?: unknown }> };
  const out: string[] = [];
  for (const m of body.messages ?? []) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content as Array<Record<string, unknown>>) {
      if (b.type !== 'tool_result') continue;
      out.push(typeof b.content === 'string' ? b.content : JSON.stringify(b.content));
    }
  }
  return out;
};

describe('four-zone budget: stubs, advice, steering and the brief (plugin-dir)', () => {
  const bin = inject('claudeBin');
  let mock: MockAnthropic;
  let sandbox: Sandbox;
  let sid: string;
  const runs = {} as Record<'low' | 'high' | 'compact' | 'after', ClaudeResult>;

  beforeAll(async () => {
    mock = await MockAnthropic.start();
    sandbox = makeSandbox('budget');
    // A 40 KB source file with declarations the Read stub's outline should list.
    const lines: string[] = [];
    for (let i = 0; i < 120; i++) {
      lines.push(`export function handler${i}(input: string): string {`);
      for (let k = 0; k < 6; k++) lines.push(`  const step${k} = input.repeat(${k + 1}).slice(0, ${40 + k}); // keep the line long enough`);
      lines.push('  return input;', '}', '');
    }
    writeFileSync(join(sandbox.project, 'big-module.ts'), lines.join('\n'));
    const env = { CTXL_WINDOW_TOKENS: '200000' };
    const claude = (label: string, prompt: string, args: string[] = []) =>
      runClaude({ bin, sandbox, mock, prompt, label, env, args: ['--plugin-dir', REPO_ROOT, '--allowedTools', 'Bash(seq:*)', 'Read', 'Grep', ...args] });

    // 1. 20K tokens in context: far below L0→L1. The output reaches the model whole.
    mock.script(toolUse('Bash', { command: 'seq 1 3000', description: 'Count' }, { usage: usage(20_000) }), text(`Noted. ${DECISION}`, usage(21_000)));
    runs.low = await claude('low', `Look at the numbers. ${CONSTRAINT}`);
    sid = runs.low.sessionId ?? '';
    // 2. 130K of a 200K window: past L1→L2 (75% of the Working zone). Large outputs become stubs.
    // A small call first: the client writes a turn's transcript lines asynchronously, so the
    // PostToolUse of the turn's first call may not find that request's usage yet (on a fast machine
    // it read the 21K of the low run); every later call finds the one before it.
    mock.script(
      toolUse('Bash', { command: 'seq 1 3', description: 'Count a little' }, { usage: usage(130_000) }),
      toolUse('Bash', { command: 'seq 1 3000', description: 'Count again' }, { usage: usage(130_200) }),
      toolUse('Read', { file_path: join(sandbox.project, 'big-module.ts') }, { usage: usage(131_000) }),
      toolUse('Grep', { pattern: 'export function', path: sandbox.project, output_mode: 'content', '-n': true }, { usage: usage(132_000) }),
      text('All three looked at.', usage(133_000)),
    );
    runs.high = await claude('high', 'Count again, then read the big module and grep it.', ['--resume', sid]);
    // 3. A manual compaction, then one more turn: the first request after it.
    mock.compactText = '<analysis>short</analysis>\n<summary>The user looked at some numbers and a module. Nothing is pending.</summary>';
    runs.compact = await claude('compact', '/compact', ['--resume', sid]);
    mock.script(text('Continuing.', usage(9_000)));
    runs.after = await claude('after', 'Continue.', ['--resume', sid]);
  });

  afterAll(async () => {
    await mock?.close();
    sandbox?.cleanup();
  });

  const transcript = () => readTranscript(transcriptPath(sandbox.configDir, sandbox.project, sid));

  it('every run succeeded, no hook failed, no replacement was rejected', () => {
    for (const run of Object.values(runs)) {
      expect(run.code, run.describe()).toBe(0);
      expect(hookProblems(run.debugLog)).toEqual([]);
    }
    expect(hookErrorAttachments(transcript())).toEqual([]);
    expect(new CtxlData(sandbox.data).logErrors()).toEqual([]);
    expect(mock.problems).toEqual([]);
  });

  it('below L0→L1 the output reaches the model whole', () => {
    const second = runs.low.requests.filter((r) => r.kind === 'messages')[1];
    const results = toolResults(second);
    expect(results.some((t) => t.includes('2999\n3000'))).toBe(true);
    expect(results.some((t) => t.includes('[context-lifecycle]'))).toBe(false);
  });

  it('past L1→L2 the model receives stubs for Bash, Read and Grep, each with a ref that gives the full text back', async () => {
    const last = runs.high.requests.filter((r) => r.kind === 'messages').at(-1);
    const results = toolResults(last).slice(-3);
    expect(results).toHaveLength(3);
    const [bash, read, grep] = results as [string, string, string];
    expect(bash).toContain('[context-lifecycle] Bash: output shortened in context');
    expect(bash).not.toContain('1500\n1501');
    expect(bash).toContain('3000');
    // Read stubs keep the file's own numbering for the head and list the declarations past it.
    expect(read).toMatch(/^1\texport function handler0\(input: string\): string \{/);
    expect(read).toContain('[context-lifecycle] Read');
    expect(read).toMatch(/\t {2}91: export function handler9\(input: string\): string \{/);
    expect(read).toContain('more');
    expect(grep).toContain('[context-lifecycle] Grep');
    expect(grep).toContain('120 matching lines');
    // The stubs are what the conversation keeps: together far smaller than the outputs.
    expect(bash.length + read.length + grep.length).toBeLessThan(9_000);
    const ref = /`\/context-lifecycle:recall show ([0-9a-f]+)`/.exec(bash)?.[1];
    expect(ref).toBeDefined();
    const shown = await runCli(sandbox, ['show', ref ?? '']);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('1000\n1001');
    // Part 1 names the next part, which holds the middle the stub left out.
    const next = /Next part \(2 of \d+\): `ctxl show ([0-9a-f]+)`/.exec(shown.stdout)?.[1];
    const second = await runCli(sandbox, ['show', next ?? '']);
    expect(second.stdout).toContain('1500\n1501');
  });

  it('Stop told the user once at the crossing and Claude once, in one more request', () => {
    const messages = attachments(transcript(), 'hook_system_message').map((a) => String(a.attachment.content));
    const ours = messages.filter((m) => m.includes('context-lifecycle L1→L2'));
    expect(ours).toHaveLength(1);
    expect(ours[0]).toContain('/compact keep');
    const notes = runs.high.requests.filter((r) => requestTexts(r).some((t) => t.includes('Stop hook additional context: Context note (context-lifecycle')));
    expect(notes.length).toBeGreaterThanOrEqual(1);
    // The low turn said nothing.
    expect(runs.low.requests.some((r) => requestTexts(r).some((t) => t.includes('Context note (context-lifecycle')))).toBe(false);
  });

  it('the compaction request carries the steering: phase, the decision and the constraint by id', () => {
    const compaction = mock.compactions()[0];
    expect(compaction).toBeDefined();
    const all = requestTexts(compaction as RecordedRequest).join('\n');
    const notes = all.slice(all.indexOf('Context-lifecycle notes for this summary'));
    expect(all).toContain('Context-lifecycle notes for this summary');
    expect(notes).toMatch(/\[D-[0-9a-f]{8}\] I'll use undici rather than axios/);
    expect(notes).toMatch(/\[C-[0-9a-f]{8}\] Never run the migrations against the staging database/);
    expect(runsOf(runs.compact.debugLog, 'PreCompact').every((r) => r.status === 0)).toBe(true);
  });

  it('the first request after the compaction carries the brief with what the summary dropped', () => {
    const brief = sessionStartContexts(transcript(), 'compact').at(-1)?.text ?? '';
    expect(brief).toContain('what the compaction summary may have lost');
    expect(brief.length).toBeLessThanOrEqual(10_000);
    const first = runs.after.requests.find((r) => r.kind === 'messages');
    const seen = requestTexts(first as RecordedRequest).join('\n');
    expect(seen).toContain('what the compaction summary may have lost');
    expect(seen).toContain('undici rather than axios');
    expect(seen).toContain(CONSTRAINT);
    expect(mock.compactText).not.toContain('undici');
  });

  it('ctxl status shows the zones and the level', async () => {
    const r = await runCli(sandbox, ['status', '--json', '--session', sid], { CTXL_WINDOW_TOKENS: '200000' });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { budget?: { window: number; zones: Record<string, { tokens: number; size: number }> } };
    expect(report.budget?.window).toBe(200_000);
    expect(Object.keys(report.budget?.zones ?? {})).toEqual(['system', 'ledger', 'working', 'buffer']);
    const plain = await runCli(sandbox, ['status', '--session', sid], { CTXL_WINDOW_TOKENS: '200000' });
    expect(plain.stdout).toMatch(/Working +[\d,]+ of [\d,]+ tokens/);
    expect(readFileSync(join(sandbox.data, 'sessions', sid, 'budget.json'), 'utf8')).toContain('"version":1');
  });
});
