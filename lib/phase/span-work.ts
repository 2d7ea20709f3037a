// What happened during one phase span, gathered from tool calls as PostToolUse sees them: files
// touched, commands and their test results, the task list. Pure; bounded so the phase file stays
// small however long the session runs.
import { redactText } from '../archive/redact.ts';
import { filesOf } from '../transcript/tool-input.ts';
import type { SignalKind, ToolSignal } from './signals.ts';
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

export interface ValueChange {
  file: string;
  text: string;
  t: string;
}

export interface SpanWork {
  /** Files edited or written, most recent last. */
  files: string[];
  /** Small edits' changed lines, most recent last (older phase files lack it). */
  changes?: ValueChange[];
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

/**
 * What the phase tracker needs of one tool call, digested where the call is seen (PostToolUse) and
 * stored in the event log line, so phase.json is brought up to date later, in order, from the log:
 * the signal, the files edited, the command and how it ended, a parsed test result, the task list.
 * Everything in it is redacted.
 */
export interface CallDigest {
  k: SignalKind;
  d?: string;
  files?: string[];
  cmd?: string;
  ok: boolean;
  exit?: number;
  test?: TestRun;
  todos?: Todo[];
  /** TaskCreate: a task added; TaskUpdate: a status set by id. */
  task?: { subject: string; id?: string } | { id: string; status: Todo['status'] };
  /** A small edit's changed lines, "old → new" (the exact values a summary rounds off). */
  chg?: string;
}

const SUMMARY_WORDS = /\b(?:pass(?:ed|ing)?|fail(?:ed|ing|ures?)?|tests?)\b/i;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Digest one tool call (pure). `input` is the raw tool_input; `output` its text, if any. */
export function digestCall(call: {
  tool: string;
  input: unknown;
  response: unknown;
  output?: string | undefined;
  ok: boolean;
  exit?: number | undefined;
  signal: ToolSignal;
}): CallDigest {
  const input = isObj(call.input) ? call.input : {};
  const digest: CallDigest = { k: call.signal.kind, ok: call.ok };
  if (call.signal.detail !== undefined) digest.d = call.signal.detail;
  if (call.exit !== undefined) digest.exit = call.exit;
  if (call.signal.kind.startsWith('edit-')) {
    const files = filesOf(input);
    if (files.length > 0) digest.files = files.slice(0, 20);
    const change = editChange(input);
    if (change !== undefined) digest.chg = change;
  }
  if (typeof input.command === 'string') {
    digest.cmd = cut(redactText(input.command.trim()), MAX_COMMAND_CHARS);
    // A test command's output is parsed; another command's only when its end speaks of passing or
    // failing (a custom test script): the parsers' patterns cost a hook more to compile than the
    // rest of its work, and most shell output is no test run.
    const kind = call.signal.kind;
    const looksLikeTests = (out: string) => SUMMARY_WORDS.test(out.slice(-4_096));
    if (call.output !== undefined && (kind === 'test-run' || ((kind === 'shell' || kind === 'build') && looksLikeTests(call.output)))) {
      const run = parseTestOutput(call.output, input.command);
      if (run !== undefined) digest.test = { ...run, failures: run.failures.map((f) => redactText(f)) };
    }
  }
  if (call.tool === 'TodoWrite' && Array.isArray(input.todos)) {
    const todos = todosOf(input.todos);
    if (todos !== undefined) digest.todos = todos;
  }
  if (call.tool === 'TaskCreate' && typeof input.subject === 'string') {
    const task: { subject: string; id?: string } = { subject: cut(redactText(input.subject.trim()), 200) };
    const id = taskId(call.response);
    if (id !== undefined) task.id = id;
    digest.task = task;
  }
  const status = input.status;
  if (call.tool === 'TaskUpdate' && (typeof input.taskId === 'string' || typeof input.taskId === 'number')) {
    if (status === 'pending' || status === 'in_progress' || status === 'completed') digest.task = { id: String(input.taskId), status };
  }
  return digest;
}

const CHANGE_CHARS = 240;
const MAX_CHANGES = 20;

/** The lines a small Edit changed, as "old → new"; undefined for large or multi-hunk rewrites. */
export function editChange(input: Obj): string | undefined {
  const edits = Array.isArray(input.edits) ? input.edits.filter(isObj) : [input];
  const parts: string[] = [];
  for (const edit of edits.slice(0, 3)) {
    const { old_string: before, new_string: after } = edit;
    if (typeof before !== 'string' || typeof after !== 'string' || before.length > 2_000 || after.length > 2_000) return undefined;
    const a = before.split('\n');
    const b = after.split('\n');
    let head = 0;
    while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
    let tail = 0;
    while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail += 1;
    // Redacted line by line before anything is cut: a cut secret no longer matches its rule.
    const gone = a
      .slice(head, a.length - tail)
      .map((l) => redactText(l.trim()))
      .filter((l) => l !== '');
    const added = b
      .slice(head, b.length - tail)
      .map((l) => redactText(l.trim()))
      .filter((l) => l !== '');
    if (gone.length > 3 || added.length > 3 || added.length === 0) return undefined;
    // Two changes a line apart: the line between them stayed; pair the lines that changed.
    if (gone.length === added.length) {
      for (const [i, line] of added.entries()) if (line !== gone[i]) parts.push(`${gone[i]} → ${line}`);
    } else parts.push(`${gone.join(' ⏎ ') || '(nothing)'} → ${added.join(' ⏎ ')}`);
  }
  const text = parts.join('; ');
  return text === '' ? undefined : cut(text, CHANGE_CHARS);
}

// A value change: an edit whose old and new lines differ only in their literals (numbers, quoted
// strings, versions, durations): `maxRetries = 3 → maxRetries = 6`, `ttl: "1h" → ttl: "15m"`,
// `pydantic==2.8.0 → pydantic==2.7.4`. These are the exact values a summary rounds off; an added
// import or a rewritten call is work, and the archive holds it.
// A quoted string followed by ':' is a key (`"timeout": 30`), kept; matched first, so the quote
// that closes it never opens a string of its own.
const LITERAL =
  /("[^"\n]{0,200}"|'[^'\n]{0,200}')(?=\s?:)|"[^"\n]{0,200}"|'[^'\n]{0,200}'|`[^`\n]{0,200}`|(?<![\w.])v?\d[\d_.,]{0,40}(?:[a-zA-Z]{1,3}|%)?(?![\w.])/g;
/** Where editChange joined the changes of one edit: "; " not followed by the arrow (`x = 3; → x = 6;` is one change). */
const PART_SEPARATOR = /; (?!→)/;

/** The line with its literals blanked, or undefined when it holds none. */
function skeleton(line: string): string | undefined {
  let found = false;
  const out = line.replace(LITERAL, (literal: string, key: string | undefined) => {
    if (key !== undefined) return literal;
    found = true;
    return '\u0000';
  });
  return found ? out.replace(/\s+/g, ' ').trim() : undefined;
}

/** The skeleton of a change whose sides differ only in literals ("a = 3 → a = 6"), else undefined. */
export function valueChangeKey(change: ValueChange): string | undefined {
  // One change per part ("a → b; c → d" from a multi-edit): each part must be a value change.
  const keys: string[] = [];
  for (const part of change.text.split(PART_SEPARATOR)) {
    const arrow = part.indexOf(' → ');
    if (arrow <= 0) return undefined;
    const before = part.slice(0, arrow);
    const after = part.slice(arrow + 3);
    if (before === '(nothing)' || before.includes(' ⏎ ') || after.includes(' ⏎ ')) return undefined;
    const key = skeleton(before);
    if (key === undefined || key !== skeleton(after) || key.replace(/[\W_]/g, '') === '') return undefined;
    keys.push(key);
  }
  return keys.length === 0 ? undefined : `${change.file}\n${keys.join('\n')}`;
}

/**
 * The changes worth carrying across a compaction: the latest `other` changes that set no value, then
 * the value changes (the latest `values`; one setting changed twice is one line, `3 → 5 → 6`), each
 * group oldest first. Pure.
 */
export function keyChanges(changes: readonly ValueChange[], limits: { values: number; other: number }): ValueChange[] {
  // A chain continues where its last value is the one the next change starts from: `timeout = 30 →
  // 60` then `timeout = 5 → 10` (a second section's setting of the same shape) are two lines.
  // The sides of a chain: old, then each new value; a multi-part change is a chain of its own.
  const chains: Array<{ key: string; sides: string[]; change: ValueChange }> = [];
  const other: ValueChange[] = [];
  for (const c of changes) {
    const key = valueChangeKey(c);
    if (key === undefined) {
      other.push(c);
      continue;
    }
    const arrow = c.text.indexOf(' → ');
    const sides = PART_SEPARATOR.test(c.text) ? [] : [c.text.slice(0, arrow), c.text.slice(arrow + 3)];
    const at = sides.length === 0 ? -1 : chains.findLastIndex((x) => x.key === key && x.sides.at(-1) === sides[0]);
    // Re-inserted at the end: a chain sorts by its latest change.
    const earlier = at === -1 ? [] : (chains.splice(at, 1)[0] as (typeof chains)[number]).sides;
    chains.push({ key, sides: [...earlier, ...sides.slice(earlier.length === 0 ? 0 : 1)], change: c });
  }
  const text = (x: (typeof chains)[number]) =>
    x.sides.length === 0
      ? x.change.text
      : (x.sides.length <= MAX_CHAIN ? x.sides : [x.sides[0] as string, '…', ...x.sides.slice(-(MAX_CHAIN - 2))]).join(' → ');
  // The values last: a list cut to fit keeps its last items.
  return [...other.slice(-limits.other), ...chains.slice(-limits.values).map((x) => ({ ...x.change, text: text(x) }))];
}
/** Values of a chain shown: the first, then the latest (`0 → … → 7 → 8 → 9`). */
const MAX_CHAIN = 6;

/** Of a span's MAX_CHANGES, the changes that set no value keep at least this many places. */
const MIN_OTHER_CHANGES = 8;

/** Over the cap: the oldest change that sets no value while those hold more than their share, else the oldest value change. */
function dropOldestChange(changes: ValueChange[]): void {
  const plain = changes.filter((c) => valueChangeKey(c) === undefined).length;
  const victim = changes.findIndex((c) => (valueChangeKey(c) === undefined) === plain > MIN_OTHER_CHANGES);
  changes.splice(victim === -1 ? 0 : victim, 1);
}

/** Record a digested call in the span's work (mutates `work`). `root`: files under it are kept relative. */
export function applyDigest(work: SpanWork, digest: CallDigest, t: string, root?: string): void {
  if (digest.k.startsWith('edit-')) {
    const first = digest.files?.[0];
    if (digest.chg !== undefined && first !== undefined) {
      work.changes ??= [];
      work.changes.push({ file: projectRelative(first, root), text: digest.chg, t });
      if (work.changes.length > MAX_CHANGES) dropOldestChange(work.changes);
    }
    for (const raw of digest.files ?? []) {
      const file = projectRelative(raw, root);
      pushRecent(work.files, file, MAX_FILES);
      work.fileAt ??= {};
      work.fileAt[file] = t;
      for (const k of Object.keys(work.fileAt)) if (!work.files.includes(k)) delete work.fileAt[k];
    }
  } else if (digest.k === 'read') work.reads += 1;
  if (digest.cmd !== undefined) {
    const record: CommandRecord = { command: digest.cmd, ok: digest.ok, t };
    if (digest.exit !== undefined) record.exit = digest.exit;
    work.commands.push(record);
    if (work.commands.length > MAX_COMMANDS) work.commands.splice(0, work.commands.length - MAX_COMMANDS);
    if (digest.test !== undefined) {
      work.tests.push({ ...digest.test, command: digest.cmd, t });
      if (work.tests.length > MAX_TESTS) work.tests.splice(0, work.tests.length - MAX_TESTS);
    }
  }
  if (digest.todos !== undefined) work.todos = digest.todos.map((x) => ({ ...x }));
  const task = digest.task;
  if (task !== undefined && 'subject' in task) {
    const todos = work.todos ?? [];
    const todo: Todo = { content: task.subject, status: 'pending' };
    if (task.id !== undefined) todo.id = task.id;
    if (todos.length < MAX_TODOS) todos.push(todo);
    work.todos = todos;
  } else if (task !== undefined) {
    const todo = work.todos?.find((x) => x.id === task.id);
    if (todo !== undefined) todo.status = task.status;
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
  if (from.changes !== undefined) {
    const changes = from.changes.filter((c) => c.t >= since);
    from.changes = from.changes.filter((c) => c.t < since);
    if (changes.length > 0) to.changes = [...changes, ...(to.changes ?? [])];
  }
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

/** At most `max` characters, with … when cut. */
export function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
