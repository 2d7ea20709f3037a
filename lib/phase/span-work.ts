// What happened during one phase span, gathered from tool calls as PostToolUse sees them: files
// touched, commands and their test results, the task list. Pure; bounded so the phase file stays
// small however long the session runs.
import { redactText } from '../archive/redact.ts';
import { filesOf } from '../transcript/tool-input.ts';
import type { SignalKind } from './signals.ts';
import { parseTestOutput, type TestRun } from './test-results.ts';

export const MAX_FILES = 60;
export const MAX_COMMANDS = 20;
export const MAX_TESTS = 10;
export const MAX_TODOS = 40;
const MAX_COMMAND_CHARS = 200;

export interface CommandRecord {
  command: string;
  ok: boolean;
  exit?: number;
  t: string;
}

export interface TestRecord extends TestRun {
  command: string;
  t: string;
}

export interface Todo {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
  /** TaskCreate's id, for TaskUpdate. */
  id?: string;
}

export interface SpanWork {
  /** Files edited or written, most recent last. */
  files: string[];
  /** When each file was last edited (a change found from tool calls moves the work since its start). */
  fileAt?: Record<string, string>;
  /** Files only read (counted, the ledger lists the edited ones). */
  reads: number;
  commands: CommandRecord[];
  tests: TestRecord[];
  /** The latest task list Claude's todo tool held during the span. */
  todos?: Todo[];
}

export const emptyWork = (): SpanWork => ({ files: [], reads: 0, commands: [], tests: [] });

export interface ToolCallFacts {
  tool: string;
  input: unknown;
  /** The tool's text output (for test results), if any. */
  output?: string | undefined;
  ok: boolean;
  exit?: number | undefined;
  /** The structured tool_response (TaskCreate's id). */
  response?: unknown;
  kind: SignalKind;
  t: string;
  /** The project root: files under it are kept relative (ledgers are shared through git). */
  root?: string | undefined;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Record one tool call in the span's work (mutates `work`). */
export function recordToolCall(work: SpanWork, call: ToolCallFacts): void {
  const input = isObj(call.input) ? call.input : {};
  if (call.kind.startsWith('edit-')) {
    for (const raw of filesOf(input)) {
      const file = projectRelative(raw, call.root);
      pushRecent(work.files, file, MAX_FILES);
      work.fileAt ??= {};
      work.fileAt[file] = call.t;
      for (const k of Object.keys(work.fileAt)) if (!work.files.includes(k)) delete work.fileAt[k];
    }
  } else if (call.kind === 'read') work.reads += 1;
  if (typeof input.command === 'string') {
    const command = cut(redactText(input.command.trim()), MAX_COMMAND_CHARS);
    const record: CommandRecord = { command, ok: call.ok, t: call.t };
    if (call.exit !== undefined) record.exit = call.exit;
    work.commands.push(record);
    if (work.commands.length > MAX_COMMANDS) work.commands.splice(0, work.commands.length - MAX_COMMANDS);
    if (call.output !== undefined && (call.kind === 'test-run' || call.kind === 'build' || call.kind === 'shell')) {
      const run = parseTestOutput(call.output, input.command);
      if (run !== undefined) {
        work.tests.push({ ...run, failures: run.failures.map((f) => redactText(f)), command, t: call.t });
        if (work.tests.length > MAX_TESTS) work.tests.splice(0, work.tests.length - MAX_TESTS);
      }
    }
  }
  if (call.tool === 'TodoWrite' && Array.isArray(input.todos)) {
    const todos = todosOf(input.todos);
    if (todos !== undefined) work.todos = todos;
  }
  // Claude Code's task tools: TaskCreate adds one task ({subject}), TaskUpdate sets a status by id.
  if (call.tool === 'TaskCreate' && typeof input.subject === 'string') {
    const todos = work.todos ?? [];
    const todo: Todo = { content: cut(redactText(input.subject.trim()), 200), status: 'pending' };
    const id = taskId(call.response);
    if (id !== undefined) todo.id = id;
    if (todos.length < MAX_TODOS) todos.push(todo);
    work.todos = todos;
  }
  if (call.tool === 'TaskUpdate' && (typeof input.taskId === 'string' || typeof input.taskId === 'number')) {
    const todo = work.todos?.find((t) => t.id === String(input.taskId));
    const status = input.status;
    if (todo !== undefined && (status === 'pending' || status === 'in_progress' || status === 'completed')) todo.status = status;
  }
}

/**
 * Move what happened from `since` on out of `from` into `to` (mutates both): a phase change found
 * from tool calls starts at the first call that showed it, and its work goes with it.
 */
export function moveWorkSince(from: SpanWork, to: SpanWork, since: string): void {
  for (const file of [...from.files]) {
    const at = from.fileAt?.[file];
    if (at === undefined || at < since) continue;
    from.files.splice(from.files.indexOf(file), 1);
    delete from.fileAt?.[file];
    pushRecent(to.files, file, MAX_FILES);
    to.fileAt ??= {};
    to.fileAt[file] = at;
  }
  const commands = from.commands.filter((c) => c.t >= since);
  from.commands = from.commands.filter((c) => c.t < since);
  to.commands.unshift(...commands);
  const tests = from.tests.filter((c) => c.t >= since);
  from.tests = from.tests.filter((c) => c.t < since);
  to.tests.unshift(...tests);
}

/** A TodoWrite list as we keep it (redacted, bounded); undefined if it is not a list of todos. */
export function todosOf(raw: unknown[]): Todo[] | undefined {
  const out: Todo[] = [];
  for (const item of raw) {
    if (!isObj(item) || typeof item.content !== 'string') continue;
    const status = item.status === 'completed' || item.status === 'in_progress' ? item.status : 'pending';
    out.push({ content: cut(redactText(item.content.trim()), 200), status });
    if (out.length >= MAX_TODOS) break;
  }
  return raw.length > 0 && out.length === 0 ? undefined : out;
}

function projectRelative(file: string, root: string | undefined): string {
  if (root === undefined || root === '') return file;
  const prefix = root.endsWith('/') ? root : `${root}/`;
  return file.startsWith(prefix) ? file.slice(prefix.length) : file;
}

/** The id in a TaskCreate response ({task: {id}} or {id}), if any. */
function taskId(response: unknown): string | undefined {
  if (!isObj(response)) return undefined;
  const task = isObj(response.task) ? response.task : response;
  return typeof task.id === 'string' || typeof task.id === 'number' ? String(task.id) : undefined;
}

function pushRecent(list: string[], item: string, max: number): void {
  const at = list.indexOf(item);
  if (at !== -1) list.splice(at, 1);
  list.push(item);
  if (list.length > max) list.splice(0, list.length - max);
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
