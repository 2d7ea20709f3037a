// Feeding the phase tracker. Tool calls: PostToolUse and PostToolUseFailure digest each call (the
// signal, files, command, test result, task list; redacted) into the event-log line they append
// anyway, and take no lock; the next hook that needs the phase (UserPromptSubmit with a phase
// statement, Stop, PreCompact, SessionEnd, SessionStart, /phase, /recall) folds the new lines into
// phase.json, in order, under its lock. Prompts and `/phase <name>` apply at once. A change marks
// the ended span's ledger due; Stop, PreCompact or SessionEnd writes it.
import { redactText, stripPrivate } from '../archive/redact.ts';
import { toolOutput } from '../archive/tool-output.ts';
import type { Logger } from '../runtime/log.ts';
import { openRangeReader, statSafe } from '../runtime/store.ts';
import { markDue, type PhaseFile, readPhaseFile, updatePhaseFile } from './phase-store.ts';
import { type Phase, promptPhase, toolSignal } from './signals.ts';
import { applyDigest, type CallDigest, digestCall, emptyWork, moveWorkSince } from './span-work.ts';
import { observeTool, setPhase, type Transition } from './tracker.ts';

type Env = Parameters<typeof updatePhaseFile>[0] & { project?: { root: string } };

/** Spans whose work is kept once their ledger is written (older work lives in the ledgers). */
const KEEP_WORK_SPANS = 8;

export interface ObservedCall {
  tool: string;
  input: unknown;
  response: unknown;
  ok: boolean;
  error?: unknown;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The digest of a tool call as PostToolUse(Failure) sees it, for its event-log line. Pure. */
export function digestToolCall(call: ObservedCall & { output?: string }): CallDigest {
  // Only a command's output is read (for test results): no other call pays for building it.
  const command = isObj(call.input) && typeof call.input.command === 'string';
  let output = command ? (call.output ?? toolOutput(call.response).text) : '';
  if (command && !call.ok && call.error !== undefined) {
    const error = typeof call.error === 'string' ? call.error : JSON.stringify(call.error);
    output = output === '' ? error : `${output}\n${error}`;
  }
  const response = isObj(call.response) ? call.response : undefined;
  const exit = response?.exitCode ?? response?.exit_code ?? response?.returnCode;
  // Redacted before the tracker sees it: a signal's detail (a command, a path) lands in phase.json
  // and in the trigger text of the timeline and the ledgers.
  const signal = toolSignal({ tool: call.tool, input: redactStrings(call.input), ok: call.ok });
  return digestCall({ ...call, output: output === '' ? undefined : output, exit: typeof exit === 'number' ? exit : undefined, signal });
}

/**
 * One digested call into the phase file (mutates it): the tracker, then the span's work; a change
 * found from tool calls takes the work since its start along. Pure: the fold and `ingest --ledgers`
 * share it.
 */
export function applyCall(file: PhaseFile, digest: CallDigest, t: string, root: string | undefined): Transition | undefined {
  const signal = digest.d === undefined ? { kind: digest.k } : { kind: digest.k, detail: digest.d };
  const transition = observeTool(file.tracker, signal, t);
  if (transition !== undefined) {
    markDue(file, transition.span.n - 1);
    const before = file.work[String(transition.span.n - 1)];
    if (before !== undefined && transition.span.start < t) {
      const after = emptyWork();
      moveWorkSince(before, after, transition.span.start);
      file.work[String(transition.span.n)] = after;
    }
  }
  const span = file.tracker.spans.at(-1);
  if (span !== undefined) {
    const key = String(span.n);
    const work = file.work[key] ?? emptyWork();
    file.work[key] = work;
    // Task tools edit the session's list one task at a time: a new span starts from it.
    if (work.todos === undefined && file.todos !== undefined && digest.task !== undefined) work.todos = file.todos.map((x) => ({ ...x }));
    applyDigest(work, digest, t, root);
    if (work.todos !== undefined) file.todos = work.todos;
  }
  pruneWork(file);
  return transition;
}

/** Fields that carry file contents, which toolSignal never reads: not worth redacting here. */
const CONTENT_KEYS = new Set(['content', 'new_string', 'old_string', 'new_source', 'edits', 'todos']);

/** The top-level strings of a tool input that toolSignal reads (commands, paths, patterns, URLs), redacted. */
export function redactStrings(input: unknown): unknown {
  if (!isObj(input)) return input;
  return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, typeof v === 'string' && !CONTENT_KEYS.has(k) ? redactText(stripPrivate(v)) : v]));
}

/** An event-log line as the fold reads it: the digest (`ph`), when, and whose (a subagent's are skipped). */
interface LoggedEvent {
  t?: unknown;
  ph?: CallDigest;
  agent?: unknown;
}

/**
 * Fold the event-log lines written since the last fold into the phase file (mutates it). Returns
 * the transitions. Lines without a digest (older versions) or from a subagent are skipped.
 */
export function foldEvents(file: PhaseFile, log: Logger, eventsPath: string, root: string | undefined): Transition[] {
  const out: Transition[] = [];
  const reader = openRangeReader(eventsPath);
  if (reader === undefined) return out;
  try {
    const from = file.eventsOffset ?? 0;
    if (reader.size < from) {
      // The log shrank (removed by hand): what it held is in phase.json already; start over at its end.
      log.warn(`${eventsPath}: shorter than the phase file's offset; continuing from its end`);
      file.eventsOffset = reader.size;
      return out;
    }
    if (reader.size === from) return out;
    const text = reader.read(from, reader.size - from).toString('utf8');
    const end = text.lastIndexOf('\n') + 1; // a line still being written waits for the next fold
    for (const line of text.slice(0, end).split('\n')) {
      if (line === '') continue;
      let ev: LoggedEvent;
      try {
        ev = JSON.parse(line) as LoggedEvent;
      } catch {
        continue;
      }
      if (!isObj(ev.ph) || typeof ev.ph.k !== 'string' || typeof ev.t !== 'string' || ev.agent !== undefined) continue;
      const t = applyCall(file, ev.ph, ev.t, root);
      if (t !== undefined) out.push(t);
    }
    file.eventsOffset = from + Buffer.byteLength(text.slice(0, end));
  } finally {
    reader.close();
  }
  return out;
}

/** Bring phase.json up to date with the event log (a read and a stat when there is nothing new). */
export async function syncPhase(env: Env, sessionId: string, eventsPath: string): Promise<Transition[]> {
  const size = statSafe(eventsPath)?.size ?? 0;
  const peek = readPhaseFile(env.store, sessionId, env.log, env.now());
  if (size <= (peek?.eventsOffset ?? 0) && peek !== undefined) return [];
  if (size === 0) return [];
  return (await updatePhaseFile(env, sessionId, (file) => foldEvents(file, env.log, eventsPath, env.project?.root))) ?? [];
}

/** A clear phase statement in the user's prompt applies at once (its quote is kept: redacted first). */
export async function observePrompt(env: Env, sessionId: string, prompt: string, eventsPath: string): Promise<Transition | undefined> {
  // Redaction only for a prompt that states a phase (its regexes cost a hook more than the check).
  const said = promptPhase(prompt) === undefined ? undefined : promptPhase(redactText(stripPrivate(prompt)));
  if (said === undefined) return undefined;
  return updatePhaseFile(env, sessionId, (file) => {
    // The calls before the prompt come first.
    foldEvents(file, env.log, eventsPath, env.project?.root);
    return change(file, said.phase, 'prompt', `prompt: "${said.quote}"`, env.now().toISOString());
  });
}

/** `/phase <name>`. */
export async function setPhaseExplicitly(
  env: Env,
  sessionId: string,
  phase: Exclude<Phase, 'unknown'>,
  eventsPath: string,
  byClaude = false,
): Promise<Transition | undefined> {
  const trigger = `explicit: /phase ${phase}${byClaude ? ' (invoked by Claude)' : ''}`;
  return updatePhaseFile(env, sessionId, (file) => {
    foldEvents(file, env.log, eventsPath, env.project?.root);
    return change(file, phase, 'explicit', trigger, env.now().toISOString());
  });
}

function change(file: PhaseFile, phase: Exclude<Phase, 'unknown'>, by: 'prompt' | 'explicit', trigger: string, now: string): Transition | undefined {
  const transition = setPhase(file.tracker, phase, by, trigger, now);
  if (transition !== undefined) markDue(file, transition.span.n - 1);
  return transition;
}

/** Work of old spans whose ledger is written is dropped: phase.json is rewritten at each fold. */
function pruneWork(file: PhaseFile): void {
  const last = file.tracker.spans.at(-1)?.n ?? 0;
  // Ledger refs of spans the tracker no longer keeps (it keeps the last 200).
  const first = file.tracker.spans[0]?.n ?? 0;
  for (const key of Object.keys(file.ledgers)) if (Number(key) < first) delete file.ledgers[key];
  for (const key of Object.keys(file.work)) {
    const n = Number(key);
    if (n <= last - KEEP_WORK_SPANS && file.ledgers[key] !== undefined && !file.due.includes(n)) delete file.work[key];
  }
}
