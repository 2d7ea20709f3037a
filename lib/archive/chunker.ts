// Transcript entries → L2 chunks. A chunk is one user message, one assistant text, one compaction
// summary, or one tool call with its result (a long result split at paragraph or line boundaries).
// Thinking and bookkeeping entries are not content. A chunk's id hashes its identity (session, kind,
// source uuid or tool_use id, part), so archiving the same entry again is a no-op. Pure: the hash,
// the project and the phase come in as arguments; pending tool calls travel in a serialisable state.

import type { Entry } from '../transcript/entries.ts';
import { filesOf } from '../transcript/tool-input.ts';
import { CHUNK_VERSION, type Chunk, type ChunkType } from './chunk-file.ts';
import { typedText, withoutClientNotes, withoutTrailingReminder } from './client-markup.ts';
import { keywords } from './keywords.ts';
import { redactText } from './redact.ts';
import { SECRET_FIELD, secretFieldValue } from './secret-rules.ts';
import { toolOutput } from './tool-output.ts';

export const PART_CHARS = 6_000;
/** At most this many parts for one output: a 100 MB log becomes ~200 chunks, not 17,000. */
export const MAX_PARTS = 200;
/**
 * The part size of an output of `length` characters. Every writer of one tool call (the transcript
 * pass, PostToolUse, its job) splits alike, so their parts meet by id and by text: a copy split in
 * more parts than another left its extra parts behind, a second copy of the output's end.
 */
export const partChars = (length: number) => Math.max(PART_CHARS, Math.ceil(length / MAX_PARTS));
const INPUT_CHARS = 2_000;
const MAX_PENDING = 200;

export interface PendingToolUse {
  name: string;
  input: unknown;
  uuid: string | undefined;
  timestamp: string | undefined;
  /** A subagent's call (absent in cursors saved before it was recorded: such a call is never given up on). */
  sidechain?: boolean;
  /** Open when a line too long for a pass, naming no result and no assistant's, went to a job: its result may be there. */
  queued?: boolean;
}

/** The tool name a result gets whose call was never read. */
export const UNNAMED_TOOL = 'tool';

export interface ChunkerState {
  pending: Record<string, PendingToolUse>;
  /** The last valid timestamp read: what a line without one (or with a broken one) is stamped with. */
  lastTime?: string;
  /**
   * The chunks of the main thread's latest assistant text: what the next prompt answers ("Pinia."
   * to "Pinia or Vuex?"), kept with the cursor so a pass that opens on the prompt finds it.
   */
  said?: string[];
}

export interface ChunkContext {
  session: string;
  project: string;
  phase: string;
  hash: (identity: string) => string;
  /** Used when an entry has no timestamp. */
  now: string;
}

export const emptyChunkerState = (): ChunkerState => ({ pending: {} });
/** Parts of a long assistant text kept in `said` (its last ones: a question ends it). */
const MAX_SAID = 4;

export function chunksFromEntries(entries: readonly Entry[], state: ChunkerState, ctx: ChunkContext): Chunk[] {
  const out: Chunk[] = [];
  // A line that brings results is no new prompt, whatever text it holds beside them (before them, too).
  const answers = entries.some((e) => e.kind === 'tool-result');
  for (const raw of entries) {
    // A line without a usable timestamp was said when the line before it was (a dated entry of the
    // same line, else the time of archiving, when none came before): not at the moment of
    // archiving, which `since:` would misplace.
    const valid = validTime(raw.timestamp);
    if (valid !== undefined) state.lastTime = valid;
    const entry = valid !== undefined ? raw : { ...raw, timestamp: state.lastTime ?? firstTime(entries) ?? ctx.now };
    switch (entry.kind) {
      case 'user-text': {
        const typed = entry.meta ? '' : typedText(entry.text);
        const text = withoutClientNotes(typed);
        if (text.trim() === '') break;
        if (!entry.sidechain && entry.lineType === 'user' && !answers) out.push(...unanswered(state, ctx));
        const chunks = simple('user', entry, ctx, text);
        // A typed command or a command's output is the client's; words left once its notes are out are the user's.
        if (typed !== entry.text) for (const c of chunks) c.client = true;
        out.push(...chunks);
        break;
      }
      case 'assistant-text': {
        if (entry.text.trim() === '') break;
        const chunks = simple('assistant', entry, ctx);
        if (!entry.sidechain) state.said = chunks.slice(-MAX_SAID).map((c) => c.id);
        out.push(...chunks);
        break;
      }
      case 'compact-summary':
        out.push(...simple('summary', entry, ctx));
        break;
      case 'tool-use':
        // Redacted now: the pending call is saved in cursor.json until its result arrives.
        state.pending[entry.id] = {
          name: entry.name,
          input: redactInput(entry.input),
          uuid: entry.uuid,
          timestamp: entry.timestamp,
          sidechain: entry.sidechain,
        };
        trimPending(state);
        break;
      case 'tool-result': {
        const use = state.pending[entry.toolUseId];
        delete state.pending[entry.toolUseId];
        // A Read's text as the file holds it, from the entry's structured result, as PostToolUse and
        // its job take it (toolOutput): the result block numbers each line ("    12→…"), a longer
        // copy in more parts. None (an image, an older client): the block's text.
        const output = (use?.name === 'Read' && !entry.isError && toolOutput(entry.structured).text) || entry.text;
        out.push(...toolChunks({ toolUseId: entry.toolUseId, use, result: entry, output, isError: entry.isError }, ctx));
        break;
      }
      default:
        break;
    }
  }
  return out;
}

/** A timestamp as the client writes it (ISO 8601, a date that exists), or undefined. */
export function validTime(t: string | undefined): string | undefined {
  return t !== undefined && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(t) && !Number.isNaN(Date.parse(t)) ? t : undefined;
}

const firstTime = (entries: readonly Entry[]): string | undefined => {
  for (const e of entries) {
    const t = validTime(e.timestamp);
    if (t !== undefined) return t;
  }
  return undefined;
};

/** A tool input with every string redacted; long strings other than a command are cut (only the head is archived). */
export function redactInput(value: unknown, key = '', depth = 0): unknown {
  if (typeof value === 'string') {
    // `{"password": "S3cr3tPa55"}`: the field's name says what its value is.
    if (SECRET_FIELD.test(key) && secretFieldValue(value)) return '[REDACTED:secret]';
    return redactText(key === 'command' || value.length <= PENDING_STRING_CHARS ? value : value.slice(0, PENDING_STRING_CHARS));
  }
  if (depth > 16) return null;
  if (Array.isArray(value)) return value.map((v) => redactInput(v, '', depth + 1));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactInput(v, k, depth + 1)]));
  return value;
}
const PENDING_STRING_CHARS = 4 * INPUT_CHARS;

/** `shown`: the text to archive, when it is not the entry's own (its identity stays the entry's). */
function simple(type: ChunkType, entry: Entry & { text: string }, ctx: ChunkContext, shown = entry.text): Chunk[] {
  const rawText = entry.text;
  const text = redactText(shown);
  // A line's later text blocks are chunks of their own: with the line's uuid alone they would share
  // the first one's id and replace it.
  const block = entry.kind === 'user-text' || entry.kind === 'assistant-text' ? entry.block : undefined;
  const identity = entry.uuid === undefined ? ctx.hash(rawText) : block === undefined ? entry.uuid : `${entry.uuid}#${block}`;
  const parts = splitText(text, PART_CHARS);
  return parts.map((part, i) =>
    base(ctx, {
      id: ctx.hash(`${type}|${ctx.session}|${identity}|${i}`),
      type,
      text: part,
      title: titleOf(type, part),
      timestamp: entry.timestamp ?? ctx.now,
      sourceUuids: entry.uuid === undefined ? [] : [entry.uuid],
      files: [],
      sidechain: entry.sidechain,
      part: parts.length > 1 ? [i + 1, parts.length] : undefined,
    }),
  );
}

/** What a call that never got its result archives in place of one. */
const NO_RESULT = '[no result: the conversation went on before this call returned]';

/**
 * The main conversation's calls still waiting for a result when the user types again, archived
 * with NO_RESULT: Claude Code writes a call's result before the next prompt (an interrupted call
 * gets one too), so these never will (the session was killed mid-call and resumed). Waiting for
 * ever, they were lost: an Edit's old and new text, a command that was run. A prompt typed while
 * a call runs is an attachment, not a user line, and gives up on nothing; a subagent's calls wait,
 * and so do the calls marked `queued` (see advanceSessionCursor's onOversize).
 */
function unanswered(state: ChunkerState, ctx: ChunkContext): Chunk[] {
  const out: Chunk[] = [];
  for (const [toolUseId, use] of Object.entries(state.pending)) {
    if (use.sidechain !== false || use.queued === true) continue;
    delete state.pending[toolUseId];
    out.push(...toolChunks({ toolUseId, use, result: undefined, output: NO_RESULT, isError: false }, ctx));
  }
  return out;
}

function toolChunks(
  call: { toolUseId: string; use: PendingToolUse | undefined; result: Entry | undefined; output: string; isError: boolean },
  ctx: ChunkContext,
): Chunk[] {
  const output = withoutTrailingReminder(call.output);
  // The client's fixed answer to a task list matched every question about progress or tasks.
  const said = call.use?.name === 'TodoWrite' && TODO_WRITE_ACK.test(output.trim()) ? '' : output;
  const parts = splitText(redactText(said), partChars(said.length));
  // One uuid when the call and its result share a line (a server tool: web search).
  const uuids = [...new Set([call.use?.uuid, call.result?.uuid])].filter((u): u is string => u !== undefined);
  const head = { toolUseId: call.toolUseId, name: call.use?.name ?? UNNAMED_TOOL, input: call.use?.input, isError: call.isError };
  const meta = { uuids, timestamp: call.result?.timestamp ?? call.use?.timestamp ?? ctx.now, sidechain: call.result?.sidechain === true };
  return parts.map((part, i) => toolPartChunk(head, part, [i + 1, parts.length], meta, ctx));
}

export interface ToolCallHead {
  toolUseId: string;
  name: string;
  input: unknown;
  isError: boolean;
}

/** One part of a tool call's archive; `part` is 1-based [index, count]. The output must be redacted. */
/** A tool chunk's output: its text after the call's line(s) (see toolPartChunk). */
export function toolOutputOf(chunk: Pick<Chunk, 'text'>): string {
  const at = chunk.text.indexOf('\n\n');
  return at === -1 ? '' : chunk.text.slice(at + 2);
}

/** A tool chunk's head: the call's line(s) before its output, at most `max` characters. */
export function toolHeadOf(chunk: Pick<Chunk, 'text'>, max: number): string {
  const at = chunk.text.indexOf('\n\n');
  return chunk.text.slice(0, Math.min(at === -1 ? chunk.text.length : at, max));
}

export function toolPartChunk(
  call: ToolCallHead,
  output: string,
  part: [number, number],
  meta: { uuids: string[]; timestamp: string; sidechain: boolean },
  ctx: ChunkContext,
): Chunk {
  const head = headOf(call);
  return base(ctx, {
    id: toolPartId(ctx.hash, ctx.session, call.toolUseId, part[0] - 1),
    type: 'tool',
    tool: call.name,
    toolUseId: call.toolUseId,
    text: `${head}\n\n${call.isError ? '[error]\n' : ''}${output}`,
    title: titleOf('tool', head),
    timestamp: meta.timestamp,
    sourceUuids: meta.uuids,
    files: filesOf(call.input),
    sidechain: meta.sidechain,
    part: part[1] > 1 ? part : undefined,
  });
}

/** A call's head, rendered and redacted once: every part of its output repeats it (a 1 MB output has 170). */
const heads = new WeakMap<ToolCallHead, string>();
function headOf(call: ToolCallHead): string {
  let head = heads.get(call);
  if (head === undefined) {
    head = redactText(describeCall(call.name, call.input));
    heads.set(call, head);
  }
  return head;
}

function base(
  ctx: ChunkContext,
  c: Omit<Chunk, 'version' | 'session' | 'project' | 'phase' | 'keywords' | 'sidechain' | 'part'> & { sidechain: boolean; part: [number, number] | undefined },
): Chunk {
  const chunk: Chunk = {
    version: CHUNK_VERSION,
    id: c.id,
    session: ctx.session,
    project: ctx.project,
    phase: ctx.phase,
    type: c.type,
    files: c.files,
    timestamp: c.timestamp,
    sourceUuids: c.sourceUuids,
    keywords: keywords({ text: c.text, files: c.files }),
    title: c.title,
    text: c.text,
  };
  if (c.tool !== undefined) chunk.tool = c.tool;
  if (c.toolUseId !== undefined) chunk.toolUseId = c.toolUseId;
  if (c.sidechain) chunk.sidechain = true;
  if (c.part !== undefined) chunk.part = c.part;
  return chunk;
}

/** Part `index` (0-based) of a tool call's chunks: the same id whoever archives it first. */
export function toolPartId(hash: (identity: string) => string, session: string, toolUseId: string, index: number): string {
  return hash(`tool|${session}|${toolUseId}|${index}`);
}

/**
 * `Bash: npm test`, `Read: /src/a.ts`, else the tool name and its input (cut); the call's own
 * `description` ("Rebuild the search index", "Analyze the repo structure") on the line after: it
 * says in plain words what the command does, as a question about it will ("how long did rebuilding
 * the index take" of `node scripts/reindex.mjs --all`).
 */
export function describeCall(name: string, input: unknown): string {
  if (!isObject(input)) return name;
  const list = todoList(name, input);
  if (list !== undefined) return `${name}\n${cut(list, INPUT_CHARS)}`;
  const about =
    typeof input.description === 'string' && input.description.trim() !== ''
      ? `\n${cut(input.description.trim().replace(/\s+/g, ' '), DESCRIPTION_CHARS)}`
      : '';
  if (typeof input.command === 'string') return `${name}: ${input.command}${about}`;
  const files = filesOf(input);
  const rest = { ...input };
  for (const key of ['file_path', 'notebook_path', 'path', 'description']) delete rest[key];
  const detail = Object.keys(rest).length === 0 ? '' : `\n${cut(inputText(rest, ''), INPUT_CHARS)}`;
  if (files.length > 0) return `${name}: ${files.join(', ')}${about}${detail}`;
  return `${name}${about}${detail}`;
}

/**
 * Claude's task list (TodoWrite) as a checklist, `- [x] Add the fee`, `- [ ] Test it (in progress)`:
 * as fields, each item said its text twice (content, activeForm) under the same three keys, and
 * every list in a session matched "status", "content" or "pending" (and, with the client's answer,
 * "todo", "task" or "progress") better than what was said about them. Undefined when the input is
 * no such list.
 */
function todoList(name: string, input: Record<string, unknown>): string | undefined {
  if (name !== 'TodoWrite' || !Array.isArray(input.todos) || Object.keys(input).length !== 1) return undefined;
  const lines: string[] = [];
  for (const item of input.todos) {
    if (!isObject(item) || typeof item.content !== 'string') return undefined;
    const mark = item.status === 'completed' ? 'x' : ' ';
    const state = item.status === 'in_progress' ? ' (in progress)' : '';
    lines.push(`- [${mark}] ${item.content.replace(/\s+/g, ' ').trim()}${state}`);
  }
  return lines.join('\n');
}

/** What the client answers every TodoWrite: no word of it is the session's. */
const TODO_WRITE_ACK =
  /^Todos have been modified successfully\. Ensure that you continue to use the todo list to track your progress\. Please proceed with the current tasks if applicable\.?$/;

/** A call's description kept in its head, at most (Claude Code's are a few words). */
const DESCRIPTION_CHARS = 200;

/**
 * A call's input as text, a `key: value` line per field: a string of several lines (a Write's
 * content, an Edit's strings, an agent's prompt) under its key as written, indented, blank lines
 * left out (the first blank line ends a tool chunk's head); any other value as JSON. As JSON, each
 * line break became `\n` glued to the next word, and the first word of every line (`\nexport`,
 * `\nretries: 3`) was lost to search. Reads at most INPUT_CHARS of a string: the head is cut there.
 */
function inputText(value: Record<string, unknown> | unknown[], indent: string): string {
  const lines: string[] = [];
  // An array's items as `-` lines (MultiEdit's edits), an object's fields as `key:` lines.
  const entries: Array<[string, unknown]> = Array.isArray(value) ? value.map((v) => ['-', v]) : Object.entries(value).map(([k, v]) => [`${k}:`, v]);
  for (const [label, v] of entries) {
    if (typeof v === 'string' && v.includes('\n')) {
      lines.push(`${indent}${label}`);
      for (const line of v.slice(0, INPUT_CHARS + 1).split(/\r?\n/)) if (line.trim() !== '') lines.push(`${indent}  ${line}`);
    } else if (v !== null && typeof v === 'object' && Object.keys(v).length > 0) {
      lines.push(`${indent}${label}`, inputText(v as Record<string, unknown> | unknown[], `${indent}  `));
    } else lines.push(`${indent}${label} ${JSON.stringify(v)}`);
  }
  return lines.join('\n');
}

/**
 * Split at paragraph boundaries, else line boundaries, else hard; each part at most `max` chars;
 * newlines at a cut are dropped. By index: copying the rest after each cut made a 1 MB output cost
 * a copy per part.
 */
export function splitText(text: string, max: number): string[] {
  if (text.length <= max) return [text];
  const parts: string[] = [];
  const n = text.length;
  let start = 0;
  while (n - start > max) {
    // Searched in the window only (a slice is a view): a lastIndexOf on the whole text would scan
    // back to its start whenever the window has no paragraph break.
    const window = text.slice(start, start + max);
    let at = window.lastIndexOf('\n\n');
    if (at < max / 2) at = window.lastIndexOf('\n');
    if (at < max / 2) at = max;
    parts.push(text.slice(start, start + at));
    start += at;
    while (start < n && text.charCodeAt(start) === 10) start++;
  }
  if (start < n) parts.push(text.slice(start));
  return parts;
}

function titleOf(type: ChunkType, text: string): string {
  const first = text.split('\n').find((l) => l.trim() !== '') ?? '';
  const prefix = type === 'summary' ? 'Compaction summary: ' : '';
  return cut(`${prefix}${first.trim()}`, 100);
}

function trimPending(state: ChunkerState): void {
  const ids = Object.keys(state.pending);
  for (const id of ids.slice(0, Math.max(0, ids.length - MAX_PENDING))) delete state.pending[id];
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…` : s);
