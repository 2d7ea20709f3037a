// Feeding the phase tracker from the hooks that see signals as they happen: PostToolUse and
// PostToolUseFailure (tool heuristics, and the span's work: files, commands, test results, tasks),
// UserPromptSubmit (clear statements in a prompt) and `/phase <name>` (explicit). A change marks the
// ended span's ledger due; the next Stop, PreCompact or SessionEnd writes it (they read the
// transcript; these hooks must stay cheap).
import { redactText, stripPrivate } from '../archive/redact.ts';
import { toolOutput } from '../archive/tool-output.ts';
import { markDue, type PhaseFile, updatePhaseFile } from './phase-store.ts';
import { type Phase, promptPhase, toolSignal } from './signals.ts';
import { emptyWork, moveWorkSince, recordToolCall } from './span-work.ts';
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

export async function observeToolCall(env: Env, sessionId: string, call: ObservedCall): Promise<Transition | undefined> {
  let output: string | undefined = toolOutput(call.response).text;
  if (!call.ok && call.error !== undefined) {
    const error = typeof call.error === 'string' ? call.error : JSON.stringify(call.error);
    output = output === '' ? error : `${output}\n${error}`;
  }
  return updatePhaseFile(env, sessionId, (file) => applyToolCall(file, { ...call, output }, env.now().toISOString(), env.project?.root));
}

/**
 * One tool call into the phase file (mutates it): the tracker, then the span's work; a change found
 * from tool calls takes the work since its start along. Pure; the hooks and `ingest --ledgers` share it.
 */
export function applyToolCall(
  file: PhaseFile,
  call: { tool: string; input: unknown; response: unknown; output?: string | undefined; ok: boolean },
  now: string,
  root: string | undefined,
): Transition | undefined {
  // Redacted before the tracker sees it: a signal's detail (a command, a path) lands in phase.json
  // and in the trigger text of the timeline and the ledgers.
  const signal = toolSignal({ tool: call.tool, input: redactStrings(call.input), ok: call.ok });
  const response = isObj(call.response) ? call.response : undefined;
  const exit = response?.exitCode ?? response?.exit_code ?? response?.returnCode;
  const output = call.output === '' ? undefined : call.output;
  const transition = observeTool(file.tracker, signal, now);
  if (transition !== undefined) {
    markDue(file, transition.span.n - 1);
    const before = file.work[String(transition.span.n - 1)];
    if (before !== undefined && transition.span.start < now) {
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
    if (work.todos === undefined && file.todos !== undefined && (call.tool === 'TaskCreate' || call.tool === 'TaskUpdate'))
      work.todos = file.todos.map((t) => ({ ...t }));
    recordToolCall(work, {
      tool: call.tool,
      input: call.input,
      output,
      ok: call.ok,
      exit: typeof exit === 'number' ? exit : undefined,
      kind: signal.kind,
      t: now,
      root,
      response: call.response,
    });
    if (work.todos !== undefined) file.todos = work.todos;
  }
  pruneWork(file);
  return transition;
}

/** The top-level strings of a tool input, redacted (what toolSignal reads: commands, paths, patterns, URLs). */
export function redactStrings(input: unknown): unknown {
  if (!isObj(input)) return input;
  return Object.fromEntries(Object.entries(input).map(([k, v]) => [k, typeof v === 'string' ? redactText(stripPrivate(v)) : v]));
}

/** A clear phase statement in the user's prompt applies at once (its quote is kept: redacted first). */
export async function observePrompt(env: Env, sessionId: string, prompt: string): Promise<Transition | undefined> {
  // Redaction only for a prompt that states a phase (its regexes cost a hook more than the check).
  const said = promptPhase(prompt) === undefined ? undefined : promptPhase(redactText(stripPrivate(prompt)));
  if (said === undefined) return undefined;
  return updatePhaseFile(env, sessionId, (file) => change(file, said.phase, 'prompt', `prompt: "${said.quote}"`, env.now().toISOString()));
}

/** `/phase <name>`. */
export async function setPhaseExplicitly(env: Env, sessionId: string, phase: Exclude<Phase, 'unknown'>, byClaude = false): Promise<Transition | undefined> {
  const trigger = `explicit: /phase ${phase}${byClaude ? ' (invoked by Claude)' : ''}`;
  return updatePhaseFile(env, sessionId, (file) => change(file, phase, 'explicit', trigger, env.now().toISOString()));
}

function change(file: PhaseFile, phase: Exclude<Phase, 'unknown'>, by: 'prompt' | 'explicit', trigger: string, now: string): Transition | undefined {
  const transition = setPhase(file.tracker, phase, by, trigger, now);
  if (transition !== undefined) markDue(file, transition.span.n - 1);
  return transition;
}

/** Work of old spans whose ledger is written is dropped: phase.json is rewritten on every tool call. */
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
