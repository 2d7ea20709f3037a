// A scripted session for the four-zone budget tests: a transcript whose assistant lines carry the
// usage of a chosen Working-zone fill, and the compiled hooks run against it as processes (data dir
// via CTXL_HOME, the project as cwd).
//
// The numbers, for a `claude-sonnet-4-5` transcript (200K window) and the default zones 10/10/65/15:
// Claude Code compacts at 200K − 20K − 13K = 167K, so the Buffer is max(15%, 33K) = 33K; System and
// Ledger are 20K each; Working is min(65% = 130K, 200K − 33K − 20K − 20K) = 127K. The session's first
// usage (the System zone, measured) is 20K, and nothing is injected by hooks (Ledger 0), so a context
// of 20K + p × 127K tokens is a Working zone p full.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parseChunk } from '../../../lib/archive/chunk-file.ts';
import { baseEnv, type RunResult, runHookSync } from './proc.ts';
import { scriptedTranscript } from './scripted-transcript.ts';

type Obj = Record<string, unknown>;

export const WINDOW = 200_000;
export const SYSTEM_TOKENS = 20_000;
export const WORKING_TOKENS = 127_000;
/** Context tokens for a Working zone `pct` percent full. */
export const tokensAt = (pct: number) => SYSTEM_TOKENS + Math.round((pct * WORKING_TOKENS) / 100);

/** Usage of an assistant line whose context totals `tokens` (input + cache creation + cache read + output). */
export function usageOf(tokens: number, output = 120): Obj {
  return { input_tokens: 3, cache_creation_input_tokens: 400, cache_read_input_tokens: tokens - 403 - output, output_tokens: output };
}

/** A hook's stdout: nothing, or exactly one JSON object (anything else fails the test). */
export function jsonOut(r: RunResult): Obj | undefined {
  expect(r.signal).toBeNull();
  expect(r.status).toBe(0);
  if (r.stdout === '') return undefined;
  const value: unknown = JSON.parse(r.stdout);
  expect(value !== null && typeof value === 'object' && !Array.isArray(value), `not one JSON object: ${r.stdout.slice(0, 200)}`).toBe(true);
  return value as Obj;
}

export interface SessionOptions {
  env?: Record<string, string>;
  sid?: string;
  /** The model the assistant lines name (it decides the window); the writer's default is a Sonnet 4.5. */
  model?: string;
}

export function budgetSession(tempDir: () => string, options: SessionOptions = {}) {
  const home = tempDir();
  const data = join(home, 'data');
  const project = join(home, 'project');
  mkdirSync(join(project, '.git'), { recursive: true });
  const env = baseEnv(home, { CTXL_HOME: data, ...options.env });
  const sid = options.sid ?? 'budget-session-1';
  let transcript = join(home, 'transcript.jsonl');
  const s = scriptedTranscript(sid, project, { now: () => Date.now() });
  // At fill 0 the first usage is the System zone exactly (what the first request carried, no output);
  // a session whose first line comes at a higher fill has no System measure worth the name.
  let pct = 0;
  let plus = 0;
  let measured = false;
  const setUsage = () => {
    const msg = s.lines.at(-1)?.message as Obj;
    msg.usage = measured || pct > 0 ? usageOf(tokensAt(pct) + plus) : usageOf(SYSTEM_TOKENS, 0);
    if (options.model !== undefined) msg.model = options.model;
    measured = true;
  };
  const stamp = () => new Date(Math.max(Date.parse((s.lines.at(-1)?.timestamp as string | undefined) ?? '') + 1 || 0, Date.now())).toISOString();
  const common = () => ({ isSidechain: false, userType: 'external', cwd: project, sessionId: sid, version: '2.1.332', gitBranch: 'main', timestamp: stamp() });
  const run = (hook: string, input: Obj, extraEnv: Record<string, string> = {}) =>
    runHookSync(hook, JSON.stringify({ session_id: sid, transcript_path: transcript, cwd: project, ...input }), { ...env, ...extraEnv }, { cwd: project });
  const sessionDir = join(data, 'sessions', sid);

  const t = {
    home,
    data,
    project,
    env,
    sid,
    sessionDir,
    lines: s.lines,
    get transcript() {
      return transcript;
    },
    /** Point the hooks at another transcript path (e.g. one that does not exist yet). */
    useTranscript(path: string) {
      transcript = path;
    },
    /** Assistant lines from now on report a Working zone `p` percent full (plus `extra` tokens elsewhere, e.g. the Ledger zone). */
    fill(p: number, extra = 0) {
      pct = p;
      plus = extra;
    },
    write() {
      s.write(transcript);
    },
    run,
    prompt(text: string) {
      s.user(text);
      s.write(transcript);
      jsonOut(run('user-prompt-submit', { hook_event_name: 'UserPromptSubmit', prompt: text }));
    },
    /** An assistant text line at the current fill. */
    say(text: string) {
      s.assistant(text);
      setUsage();
      s.write(transcript);
    },
    /**
     * A tool call as Claude Code makes it: the assistant's tool_use line (at the current fill) is in
     * the transcript, PostToolUse runs with the same tool_use id, then the result line is appended.
     */
    post(name: string, input: Obj, response: unknown, extra: Obj = {}, extraEnv: Record<string, string> = {}) {
      const id = s.toolUse(name, input);
      setUsage();
      s.write(transcript);
      const r = run(
        'post-tool-use',
        { hook_event_name: 'PostToolUse', tool_name: name, tool_input: input, tool_response: response, tool_use_id: id, ...extra },
        extraEnv,
      );
      const out = jsonOut(r);
      const stub = (out?.hookSpecificOutput as Obj | undefined)?.updatedToolOutput as Obj | undefined;
      // What the model reads, and what the transcript then holds: the stub in place of the output.
      s.toolResult(id, resultText(stub ?? response));
      s.write(transcript);
      return { id, r, out, stub };
    },
    /** A Bash call that failed (PostToolUseFailure), e.g. a test run with a failing test. */
    fail(command: string, error: string) {
      const id = s.toolUse('Bash', { command });
      setUsage();
      s.toolResult(id, error);
      s.write(transcript);
      expect(
        jsonOut(run('post-tool-use-failure', { hook_event_name: 'PostToolUseFailure', tool_name: 'Bash', tool_input: { command }, tool_use_id: id, error })),
      ).toBeUndefined();
    },
    stop(active = false, extraEnv: Record<string, string> = {}) {
      s.write(transcript);
      const out = jsonOut(run('stop', { hook_event_name: 'Stop', stop_hook_active: active, last_assistant_message: 'done' }, extraEnv));
      return {
        out,
        systemMessage: out?.systemMessage as string | undefined,
        context: (out?.hookSpecificOutput as Obj | undefined)?.additionalContext as string | undefined,
      };
    },
    preCompact(trigger = 'auto') {
      s.write(transcript);
      return run('pre-compact', { hook_event_name: 'PreCompact', trigger, custom_instructions: null });
    },
    /** SessionStart(compact): the brief's text (additionalContext), or undefined. */
    sessionStart(source: string, extraEnv: Record<string, string> = {}) {
      const r = run('session-start', { hook_event_name: 'SessionStart', source, model: 'claude-sonnet-4-5-20250929' }, extraEnv);
      const out = jsonOut(r);
      return (out?.hookSpecificOutput as Obj | undefined)?.additionalContext as string | undefined;
    },
    /** Claude Code's compaction: a compact_boundary line (its postTokens) and the summary. */
    compact(postTokens: number, summary = 'Summary of the conversation so far.') {
      const last = s.lines.at(-1) as Obj;
      const boundary = randomUUID();
      s.lines.push({
        ...common(),
        parentUuid: null,
        logicalParentUuid: last.uuid,
        uuid: boundary,
        type: 'system',
        subtype: 'compact_boundary',
        content: 'Conversation compacted',
        level: 'info',
        compactMetadata: { trigger: 'auto', preTokens: tokensAt(pct), postTokens },
      });
      s.lines.push({
        ...common(),
        parentUuid: boundary,
        uuid: randomUUID(),
        type: 'user',
        isCompactSummary: true,
        message: { role: 'user', content: summary },
      });
      s.write(transcript);
    },
    /** Text a hook added to the context, as the client records it (an attachment line). */
    inject(text: string, hookName = 'SessionStart') {
      const last = s.lines.at(-1) as Obj | undefined;
      s.lines.push({
        ...common(),
        parentUuid: last?.uuid ?? null,
        uuid: randomUUID(),
        type: 'attachment',
        attachment: { type: 'hook_additional_context', hookName, hookEvent: hookName, content: [text] },
      });
      s.write(transcript);
    },
    /** A subagent's assistant line (isSidechain) reporting its own, larger context. */
    sidechain(text: string, tokens: number) {
      const last = s.lines.at(-1) as Obj | undefined;
      s.lines.push({
        ...common(),
        isSidechain: true,
        parentUuid: last?.uuid ?? null,
        uuid: randomUUID(),
        type: 'assistant',
        message: {
          model: options.model ?? 'claude-sonnet-4-5-20250929',
          id: `msg_${randomUUID().replaceAll('-', '')}`,
          type: 'message',
          role: 'assistant',
          content: [{ type: 'text', text }],
          stop_reason: null,
          usage: usageOf(tokens),
        },
      });
      s.write(transcript);
    },
    budgetFile: () => JSON.parse(readFileSync(join(sessionDir, 'budget.json'), 'utf8')) as Obj,
    events: () =>
      existsSync(join(sessionDir, 'events.jsonl'))
        ? readFileSync(join(sessionDir, 'events.jsonl'), 'utf8')
            .split('\n')
            .filter((l) => l !== '')
            .map((l) => JSON.parse(l) as Obj)
        : [],
    ledgers: () => (existsSync(join(sessionDir, 'ledgers')) ? readdirSync(join(sessionDir, 'ledgers')).sort() : []),
    /** Every decision in the project's decision log(s) under <data>/projects/. */
    decisions: () => {
      const root = join(data, 'projects');
      if (!existsSync(root)) return [];
      return readdirSync(root).flatMap((dir) => {
        const file = join(root, dir, 'decisions.jsonl');
        if (!existsSync(file)) return [];
        return readFileSync(file, 'utf8')
          .split('\n')
          .filter((l) => l !== '')
          .map((l) => JSON.parse(l) as Obj);
      });
    },
    /**
     * Wait until the detached archive jobs PostToolUse started (a large stubbed output is spooled for
     * `ctxl run-job`) are done: each removes its job file when its chunks are written.
     */
    async jobsDone(timeoutMs = 20_000) {
      const dir = join(data, 'jobs');
      const pending = () => (existsSync(dir) ? readdirSync(dir).filter((f) => f.startsWith(`${sid}-`) && f.endsWith('.json')) : []);
      const until = Date.now() + timeoutMs;
      while (pending().length > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(pending(), 'archive jobs still pending').toEqual([]);
    },
    /** The archived parts of one tool call, in order (parsed chunk files). */
    toolParts(toolUseId: string) {
      const dir = join(sessionDir, 'archived');
      if (!existsSync(dir)) return [];
      return readdirSync(dir)
        .filter((f) => f.endsWith('.md'))
        .map((f) => parseChunk(readFileSync(join(dir, f), 'utf8')))
        .flatMap((p) => (p.ok && p.chunk.toolUseId === toolUseId ? [p.chunk] : []))
        .sort((a, b) => (a.part?.[0] ?? 1) - (b.part?.[0] ?? 1));
    },
  };
  return t;
}

export type BudgetSession = ReturnType<typeof budgetSession>;

/** The text a tool result line holds for a tool response (or a stub in its shape). */
function resultText(response: unknown): string {
  if (typeof response === 'string') return response;
  const r = (response ?? {}) as Obj;
  const file = r.file as Obj | undefined;
  for (const v of [r.stdout, file?.content, r.content]) if (typeof v === 'string') return v;
  return JSON.stringify(response).slice(0, 2_000);
}

/** `n` numbered lines of about `width` characters (no blank lines, so archive parts rejoin with '\n'). */
export function numberedLines(n: number, width = 60, word = 'output'): string {
  return Array.from({ length: n }, (_, i) => `${word} line ${String(i + 1).padStart(6, '0')} `.padEnd(width, 'x')).join('\n');
}

/** Text of about `bytes` bytes in lines of about 60 characters. */
export const textOfSize = (bytes: number, word = 'output') => numberedLines(Math.ceil(bytes / 61), 60, word);
