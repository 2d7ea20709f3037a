// The hook-lifecycle scenario the e2e tests run against the real Claude Code client, once per way of
// installing the hooks (`--plugin-dir <repo>` or a plain `ctxl install` into ~/.claude):
//
//   A  startup: prompt → Bash tool_use (`echo e2e-marker-123`) → final text
//   B  `/compact keep markers` with --resume A        (manual compaction)
//   C  a prompt with --resume A                       (the first request after the manual compaction)
//   D  a new session with CLAUDE_CODE_AUTO_COMPACT_WINDOW=100000 where the mock reports 70,000 input
//      tokens on the second tool turn, so the next request is preceded by an auto-compaction
//   E  `/context-status` with --resume D                (answered by our UserPromptExpansion hook)
//
// The plain install goes into a home folder whose name has a space: every path it writes into
// settings.json, commands and skills must survive that.
//
// All runs happen in beforeAll (they depend on each other); each `it` checks one claim.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CtxlData, type CursorJson, type SessionJson } from './ctxl-data.ts';
import { effectiveWindow, errorLines, hookProblems, ourHookRuns, runsOf } from './debug-log.ts';
import { MockAnthropic, type RecordedRequest, requestIncludes, text, toolUse } from './mock-anthropic.ts';
import { type ClaudeResult, makeSandbox, type ProcessResult, REPO_ROOT, runClaude, runCli, type Sandbox } from './run-claude.ts';
import { compactBoundaries, hookErrorAttachments, readTranscript, sessionStartContexts, type Transcript, transcriptPath } from './transcript.ts';

export type InstallMode = 'plugin-dir' | 'plain-install';

export interface LifecycleOptions {
  /**
   * Also check the design contracts that compare our injected status with the client's own numbers
   * (window size, context size after a compaction). Mode-independent, so one suite is enough.
   */
  contracts?: boolean;
}

const MARKER = 'e2e-marker-123';
const ADDITIONAL = 'SessionStart hook additional context: ';

export function lifecycleSuite(mode: InstallMode, options: LifecycleOptions = {}): void {
  describe(`hook lifecycle in the real client (${mode})`, () => {
    const bin = inject('claudeBin');
    let mock: MockAnthropic;
    let sandbox: Sandbox;
    let data: CtxlData;
    let install: ProcessResult | undefined;
    let doctorBefore: ProcessResult | undefined;
    let start: ClaudeResult;
    let manual: ClaudeResult;
    let resumed: ClaudeResult;
    let auto: ClaudeResult;
    let statusRun: ClaudeResult;
    let sid: string;
    let autoSid: string;
    /** State right after run A, before later runs move it. */
    let afterStart: { transcript: Transcript; cursor: CursorJson | undefined; session: SessionJson | undefined };
    let transcript: Transcript; // session A, after run C
    let autoTranscript: Transcript;

    const hookArgs = () => (mode === 'plugin-dir' ? ['--plugin-dir', REPO_ROOT] : []);
    const claude = (label: string, prompt: string, args: string[], env: Record<string, string> = {}) =>
      runClaude({ bin, sandbox, mock, prompt, label, env, args: [...hookArgs(), ...args] });
    const allRuns = () => [start, manual, resumed, auto, statusRun];

    beforeAll(async () => {
      mock = await MockAnthropic.start();
      sandbox = makeSandbox(mode, mode === 'plain-install' ? 'home dir' : 'home');
      data = new CtxlData(sandbox.data);
      if (mode === 'plain-install') {
        install = await runCli(sandbox, ['install']);
        if (install.code !== 0) throw new Error(`ctxl install failed (exit ${install.code}): ${install.stdout}${install.stderr}`);
        doctorBefore = await runCli(sandbox, ['doctor', '--json']);
      }

      // A: startup with a real Bash call.
      mock.script(
        toolUse('Bash', { command: `echo ${MARKER}`, description: 'Print the e2e marker' }, { id: 'toolu_e2e_marker' }),
        text('MARKER-DONE: printed the marker.'),
      );
      start = await claude('startup', 'Print the e2e marker with echo.', ['--allowedTools', 'Bash(echo:*)']);
      if (start.code !== 0 || start.sessionId === undefined) throw new Error(`run A failed\n${start.describe()}`);
      sid = start.sessionId;
      const path = transcriptPath(sandbox.configDir, sandbox.project, sid);
      afterStart = { transcript: readTranscript(path), cursor: data.cursor(sid), session: data.session(sid) };

      // B: manual compaction of session A.
      manual = await claude('compact-manual', '/compact keep markers', ['--resume', sid]);
      // C: the next prompt in session A: its first request is the first one after the compaction.
      mock.script(text('RESUMED-AFTER-COMPACT'));
      resumed = await claude('resume-after-compact', 'What have we done so far?', ['--resume', sid]);
      transcript = readTranscript(path);

      // D: auto-compaction in a new session.
      mock.script(
        toolUse('Bash', { command: 'echo auto-step-1', description: 'Step one' }),
        toolUse('Bash', { command: 'echo auto-step-2', description: 'Step two' }, { usage: { input_tokens: 70_000 } }),
        text('AUTO-DONE'),
      );
      auto = await claude('compact-auto', 'Run the two steps.', ['--allowedTools', 'Bash(echo:*)'], { CLAUDE_CODE_AUTO_COMPACT_WINDOW: '100000' });
      if (auto.sessionId === undefined) throw new Error(`run D failed\n${auto.describe()}`);
      autoSid = auto.sessionId;
      autoTranscript = readTranscript(transcriptPath(sandbox.configDir, sandbox.project, autoSid));

      // E: the status command, in session D (measured: its Stop ran).
      mock.script(text('STATUS-RELAYED'));
      const statusCommand = mode === 'plugin-dir' ? '/context-lifecycle:context-status' : '/context-status';
      statusRun = await claude('context-status', statusCommand, ['--resume', autoSid]);
    });

    afterAll(async () => {
      await mock?.close();
      sandbox?.cleanup();
    });

    if (mode === 'plain-install') {
      it('installs into the temporary ~/.claude and doctor --json says ok', () => {
        expect(install?.code).toBe(0);
        expect(doctorBefore?.code, doctorBefore?.stdout).toBe(0);
        expect(JSON.parse(doctorBefore?.stdout ?? '{}')).toEqual({ ok: true, problems: [] });
      });
    }

    it('every run succeeded and used up exactly the scripted turns', () => {
      for (const run of allRuns()) {
        expect(run.code, run.describe()).toBe(0);
        expect(run.json?.is_error, run.describe()).toBe(false);
      }
      expect(start.json?.result).toBe('MARKER-DONE: printed the marker.');
      expect(resumed.json?.result).toBe('RESUMED-AFTER-COMPACT');
      expect(auto.json?.result).toBe('AUTO-DONE');
      expect(statusRun.json?.result).toBe('STATUS-RELAYED');
      expect(mock.pending).toBe(0);
      expect(mock.problems).toEqual([]);
      // -p with DISABLE_NONESSENTIAL_TRAFFIC talks to /v1/messages only.
      expect(mock.requests.filter((r) => r.kind === 'other' || r.kind === 'count_tokens').map((r) => `${r.method} ${r.url}`)).toEqual([]);
    });

    it('fired SessionStart, UserPromptSubmit, PostToolUse, Stop and SessionEnd once each, from the expected place, all exit 0', () => {
      const log = start.debugLog;
      const expected: Array<[string, string | undefined]> = [
        ['SessionStart', 'startup'],
        ['UserPromptSubmit', undefined],
        ['PostToolUse', 'Bash'],
        ['Stop', undefined],
        ['SessionEnd', 'other'],
      ];
      for (const [event, matcher] of expected) {
        const runs = runsOf(log, event, matcher);
        expect(runs.length, `${event}${matcher === undefined ? '' : `:${matcher}`} runs in ${start.debugFile}`).toBe(1);
        expect(runs[0]?.status, runs[0]?.line).toBe(0);
      }
      // Nothing ran twice (a plugin and a plain install at once would double every hook).
      expect(ourHookRuns(log).length).toBe(expected.length);
      const root = mode === 'plugin-dir' ? REPO_ROOT : join(sandbox.configDir, 'context-lifecycle');
      const ss = runsOf(log, 'SessionStart', 'startup')[0];
      // hooks.json's command (its node flags included), with the root filled in.
      const bound = (JSON.parse(readFileSync(join(REPO_ROOT, 'hooks.json'), 'utf8')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> })
        .hooks.SessionStart?.[0]?.hooks[0]?.command;
      expect(bound).toMatch(/^node .*dist\/session-start\.mjs/);
      expect(ss?.command).toBe(bound?.replace('${CLAUDE_PLUGIN_ROOT}/dist/session-start.mjs', join(root, 'dist', 'session-start.mjs')));
      expect(ss?.plugin).toBe(mode === 'plugin-dir' ? 'context-lifecycle@inline' : undefined);
    });

    it('no hook errored: debug logs, transcript attachments and logs/ctxl.log are clean', () => {
      for (const run of allRuns()) expect(hookProblems(run.debugLog), `${run.debugFile}\n${errorLines(run.debugLog).join('\n')}`).toEqual([]);
      expect(hookErrorAttachments(transcript)).toEqual([]);
      expect(hookErrorAttachments(autoTranscript)).toEqual([]);
      expect(data.logErrors()).toEqual([]);
    });

    it('the SessionStart text reached the model in the next request', () => {
      const contexts = sessionStartContexts(afterStart.transcript, 'startup');
      expect(contexts.length).toBe(1);
      const injected = contexts[0]?.text ?? '';
      expect(injected.startsWith('[context-lifecycle]')).toBe(true);
      const first = start.requests.find((r) => r.kind === 'messages');
      expect(requestIncludes(first, `${ADDITIONAL}${injected}`), `first request of ${start.debugFile}`).toBe(true);
    });

    it('PostToolUse recorded the real Bash call in events.jsonl', () => {
      // The tool really ran: its output went back to the model.
      const afterTool = start.requests.filter((r) => r.kind === 'messages')[1];
      expect(requestIncludes(afterTool, MARKER)).toBe(true);
      const bash = data.events(sid).filter((e) => e.tool === 'Bash');
      expect(bash).toEqual([expect.objectContaining({ v: 1, tool: 'Bash', id: 'toolu_e2e_marker', ok: true, command: `echo ${MARKER}` })]);
    });

    it('Stop moved the transcript cursor to the end of what the turn wrote (SessionEnd to the end)', () => {
      const { cursor, transcript: t } = afterStart;
      expect(cursor, `cursor.json of ${sid}`).toBeDefined();
      if (cursor === undefined) return;
      expect(cursor.transcriptPath).toBe(t.path);
      expect(cursor.offset).toBeGreaterThan(0);
      expect(cursor.lines).toBeGreaterThan(0);
      expect(cursor.offset).toBeLessThanOrEqual(t.size);
      // On a line boundary, with the line count matching the bytes read.
      expect(t.lines.some((l) => l.end === cursor.offset)).toBe(true);
      expect(cursor.lines).toBe(t.lines.filter((l) => l.end <= cursor.offset).length);
      // Everything up to the final answer was read; what follows Stop (its summary, cost) may not be.
      const answer = t.lines.find((l) => l.entry.type === 'assistant' && JSON.stringify(l.entry).includes('MARKER-DONE'));
      expect(answer, 'the final assistant line').toBeDefined();
      expect(cursor.offset).toBeGreaterThanOrEqual(answer?.end ?? Number.POSITIVE_INFINITY);
      // SessionEnd reads what came after Stop (its summary) for the last ledger: the cursor then ends
      // at the end of the file, else before that summary.
      const stopSummary = t.lines.findLast((l) => l.entry.type === 'system' && l.entry.subtype === 'stop_hook_summary');
      if (stopSummary !== undefined && cursor.offset !== t.lines.at(-1)?.end) expect(cursor.offset).toBeLessThanOrEqual(stopSummary.start);
    });

    it('manual /compact fired PreCompact(manual), then SessionStart(compact)', () => {
      const log = manual.debugLog;
      const pre = runsOf(log, 'PreCompact', 'manual');
      const compact = runsOf(log, 'SessionStart', 'compact');
      expect(pre.length, manual.debugFile).toBeGreaterThanOrEqual(1);
      expect(compact.length, manual.debugFile).toBe(1);
      expect([...pre, ...compact].map((r) => r.status)).toEqual([...pre, ...compact].map(() => 0));
      expect(Math.max(...pre.map((r) => r.index))).toBeLessThan(compact[0]?.index ?? -1);
      expect(runsOf(log, 'SessionStart', 'resume').length).toBe(1);
      expect(runsOf(log, 'SessionEnd', 'other').length).toBe(1);
      const compactions = manual.requests.filter((r) => r.kind === 'compact');
      expect(compactions.length).toBe(1);
      expect(requestIncludes(compactions[0], 'keep markers')).toBe(true);
      expect(compactBoundaries(transcript).map((b) => b.trigger)).toEqual(['manual']);
    });

    it('the SessionStart(compact) text reached the first request after the manual compaction', () => {
      const boundary = compactBoundaries(transcript)[0];
      const contexts = sessionStartContexts(transcript, 'compact').filter((c) => c.line.start > (boundary?.start ?? 0));
      expect(contexts.length).toBe(1);
      const injected = contexts[0]?.text ?? '';
      expect(injected.startsWith('[context-lifecycle]')).toBe(true);
      const first = resumed.requests.find((r) => r.kind === 'messages');
      // It is the first request after the compaction: it starts from the summary.
      expect(requestIncludes(first, 'MOCK-SUMMARY-TEXT')).toBe(true);
      expect(requestIncludes(first, `${ADDITIONAL}${injected}`), resumed.debugFile).toBe(true);
    });

    it('a forced auto-compaction fired PreCompact(auto), then SessionStart(compact), whose text reached the next request', () => {
      const log = auto.debugLog;
      expect(log).toMatch(/autocompact: .*level=compact effectiveWindow=80000/);
      const pre = runsOf(log, 'PreCompact', 'auto');
      const compact = runsOf(log, 'SessionStart', 'compact');
      expect(pre.length, auto.debugFile).toBeGreaterThanOrEqual(1);
      expect(compact.length, auto.debugFile).toBe(1);
      expect([...pre, ...compact].map((r) => r.status)).toEqual([...pre, ...compact].map(() => 0));
      expect(Math.max(...pre.map((r) => r.index))).toBeLessThan(compact[0]?.index ?? -1);
      expect(runsOf(log, 'PostToolUse', 'Bash').length).toBe(2);

      const boundaries = compactBoundaries(autoTranscript);
      expect(boundaries.map((b) => b.trigger)).toEqual(['auto']);
      expect(Number(boundaries[0]?.preTokens)).toBeGreaterThanOrEqual(70_000);
      const compactions = auto.requests.filter((r) => r.kind === 'compact');
      expect(compactions.length).toBe(1);
      const contexts = sessionStartContexts(autoTranscript, 'compact');
      expect(contexts.length).toBe(1);
      const injected = contexts[0]?.text ?? '';
      expect(injected.startsWith('[context-lifecycle]')).toBe(true);
      const next = mock.nextTurnAfter(compactions[0]);
      expect(next?.seq).toBe(auto.requests.at(-1)?.seq);
      expect(requestIncludes(next, `${ADDITIONAL}${injected}`), auto.debugFile).toBe(true);
      const before = auto.requests.filter((r: RecordedRequest) => r.seq < (compactions[0]?.seq ?? 0));
      expect(before.some((r) => requestIncludes(r, `${ADDITIONAL}${injected}`))).toBe(false);
      // The cursor saw the compaction (Stop ran after it).
      expect(data.cursor(autoSid)?.context.compactions).toBe(1);
    });

    it('/context-status put the session status into the request it sent, from our hook alone', () => {
      const log = statusRun.debugLog;
      expect(
        runsOf(log, 'UserPromptExpansion').map((r) => r.status),
        statusRun.debugFile,
      ).toEqual([0]);
      const request = statusRun.requests.find((r) => r.kind === 'messages');
      const status = `UserPromptExpansion hook additional context: context-lifecycle · session ${autoSid}`;
      expect(requestIncludes(request, status), statusRun.debugFile).toBe(true);
      expect(requestIncludes(request, 'phase: ')).toBe(true);
      // What session D's hooks recorded: its context use and its compaction.
      expect(requestIncludes(request, ' tokens (')).toBe(true);
      expect(requestIncludes(request, '1 compaction(s)')).toBe(true);
      // No shell command ran for it (nothing to quote, nothing to permit).
      expect(log).not.toMatch(/Shell command permission check failed|dist\/cli\.mjs status/);
    });

    it('SessionEnd marked each session closed', () => {
      expect(afterStart.session?.closedAt, 'session.json right after run A').toEqual(expect.any(String));
      for (const id of [sid, autoSid]) {
        const session = data.session(id);
        expect(session?.sessionId).toBe(id);
        expect(session?.closedAt, `session.json of ${id}`).toEqual(expect.any(String));
        expect(session?.endReason).toBe('other');
      }
      expect(data.session(sid)?.prompts).toBe(2);
    });

    if (mode === 'plain-install') {
      it('doctor --json is still ok after the sessions', async () => {
        const doctor = await runCli(sandbox, ['doctor', '--json']);
        expect(JSON.parse(doctor.stdout)).toEqual({ ok: true, problems: [] });
        expect(doctor.code).toBe(0);
      });
    }

    if (options.contracts === true) {
      it('contract: the window in the injected status is the window the client uses', () => {
        // Session A ran without CLAUDE_CODE_AUTO_COMPACT_WINDOW, so the client uses the model's window.
        const modelUsage = (resumed.json?.modelUsage ?? {}) as Record<string, { contextWindow?: number }>;
        const clientWindow = Object.values(modelUsage)[0]?.contextWindow;
        expect(clientWindow, 'modelUsage.*.contextWindow in the -p result').toEqual(expect.any(Number));
        // The client's own auto-compact arithmetic agrees: effectiveWindow = window - 20,000.
        expect(effectiveWindow(resumed.debugLog)).toBe((clientWindow ?? 0) - 20_000);
        const status = sessionStartContexts(transcript, 'resume').at(-1)?.text ?? '';
        const ours = /of ([\d,]+) tokens/.exec(status)?.[1];
        expect(ours, `status line: ${status}`).toBeDefined();
        expect(Number(ours?.replaceAll(',', '')), `status line: ${status}`).toBe(clientWindow);
      });

      it('contract: after a compaction the injected status does not report the pre-compaction context size', () => {
        const boundary = compactBoundaries(autoTranscript)[0];
        const preTokens = Number(boundary?.preTokens);
        const status = sessionStartContexts(autoTranscript, 'compact')[0]?.text ?? '';
        const reported = /context: ([\d,]+) of/.exec(status)?.[1];
        // Either no number (not measured yet) or one well below what was compacted away.
        if (reported !== undefined) expect(Number(reported.replaceAll(',', '')), `status line: ${status}; preTokens ${preTokens}`).toBeLessThan(preTokens / 2);
        expect(status.startsWith('[context-lifecycle]')).toBe(true);
      });
    }
  });
}
