// Typed entries from one transcript line. One line can hold several (a user message with text and
// tool results; older assistant lines with several blocks). Unknown types, non-object lines and odd
// shapes become `other` or nothing; nothing here throws.

export interface EntryMeta {
  uuid: string | undefined;
  parentUuid: string | undefined;
  timestamp: string | undefined;
  sessionId: string | undefined;
  sidechain: boolean;
  /** The line's `type` (user, assistant, system, summary, attachment, …). */
  lineType: string;
}

export type Entry = EntryMeta &
  /** `block`: which text block of its line, from 1 for the second (a line may hold several). */
  (
    | { kind: 'user-text'; text: string; meta: boolean; block?: number }
    | { kind: 'assistant-text'; text: string; messageId: string | undefined; block?: number }
    | { kind: 'thinking'; text: string }
    | { kind: 'tool-use'; id: string; name: string; input: unknown; messageId: string | undefined }
    | { kind: 'tool-result'; toolUseId: string; text: string; isError: boolean; structured: unknown }
    | {
        kind: 'compact-boundary';
        trigger: string | undefined;
        preTokens: number | undefined;
        postTokens: number | undefined;
        logicalParentUuid: string | undefined;
      }
    | { kind: 'compact-summary'; text: string }
    | { kind: 'title'; text: string }
    /** Text a hook added to the context (`attachment` of type hook_additional_context). */
    | { kind: 'hook-context'; hook: string; text: string }
    | { kind: 'other' }
  );

export type EntryKind = Entry['kind'];

export interface Usage {
  /** message.id + requestId: usage repeats on every block line of one message. */
  key: string;
  input: number;
  cacheCreation: number;
  cacheRead: number;
  output: number;
  model: string | undefined;
}

export interface ParsedLine {
  entries: Entry[];
  /** Usage of a main-thread or sidechain assistant line (sidechain flag is on the entries). */
  usage: Usage | undefined;
  sidechain: boolean;
  type: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Parse one line's text; undefined for lines that are not JSON objects. */
export function parseLine(text: string): ParsedLine | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObj(value)) return undefined;
  return entriesOf(value);
}

export function entriesOf(line: Obj): ParsedLine {
  const type = str(line.type) ?? 'null';
  const sidechain = line.isSidechain === true;
  const meta: EntryMeta = {
    uuid: str(line.uuid),
    parentUuid: str(line.parentUuid),
    timestamp: str(line.timestamp),
    sessionId: str(line.sessionId) ?? str(line.session_id),
    sidechain,
    lineType: type,
  };
  const entries: Entry[] = [];
  let usage: Usage | undefined;
  const message = isObj(line.message) ? line.message : undefined;

  if (type === 'system' && line.subtype === 'compact_boundary') {
    const m = isObj(line.compactMetadata) ? line.compactMetadata : isObj(line.compact_metadata) ? line.compact_metadata : {};
    entries.push({
      ...meta,
      kind: 'compact-boundary',
      trigger: str(m.trigger),
      preTokens: num(m.preTokens) ?? num(m.pre_tokens),
      postTokens: num(m.postTokens) ?? num(m.post_tokens),
      logicalParentUuid: str(line.logicalParentUuid),
    });
  } else if (type === 'summary') {
    const text = str(line.summary);
    if (text !== undefined) entries.push({ ...meta, kind: 'title', text });
  } else if (type === 'user' && message !== undefined) {
    if (line.isCompactSummary === true) {
      entries.push({ ...meta, kind: 'compact-summary', text: textOf(message.content) });
    } else {
      userEntries(message.content, line, meta, entries);
    }
  } else if (type === 'assistant' && message !== undefined) {
    const messageId = str(message.id);
    assistantEntries(message.content, messageId, meta, entries);
    usage = usageOf(message, messageId, str(line.requestId));
  } else if (type === 'attachment' && isObj(line.attachment) && line.attachment.type === 'queued_command') {
    // A prompt typed while Claude was working: this attachment is its only record in the transcript.
    const text = textOf(line.attachment.prompt);
    if (text.trim() !== '') entries.push({ ...meta, kind: 'user-text', text, meta: false });
  } else if (type === 'attachment' && isObj(line.attachment) && line.attachment.type === 'hook_additional_context') {
    const content = line.attachment.content;
    const text = Array.isArray(content) ? content.filter((c) => typeof c === 'string').join('\n') : (str(content) ?? '');
    entries.push({ ...meta, kind: 'hook-context', hook: str(line.attachment.hookName) ?? '', text });
  }
  if (entries.length === 0) entries.push({ ...meta, kind: 'other' });
  return { entries, usage, sidechain, type };
}

function userEntries(content: unknown, line: Obj, meta: EntryMeta, out: Entry[]): void {
  const isMeta = line.isMeta === true;
  if (typeof content === 'string') {
    out.push({ ...meta, kind: 'user-text', text: content, meta: isMeta });
    return;
  }
  if (!Array.isArray(content)) return;
  let texts = 0;
  let docs = 0;
  let others = 0;
  for (const block of content) {
    if (!isObj(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') out.push({ ...meta, kind: 'user-text', text: block.text, meta: isMeta, ...blockNo(texts++) });
    else if (block.type === 'document' && isObj(block.source) && block.source.type === 'text' && typeof block.source.data === 'string') {
      // A plain-text document the user attached: its text, under its title.
      // Numbered apart from the text blocks (whose chunk ids stay what they were): 1000 and up.
      const title = str(block.title);
      out.push({
        ...meta,
        kind: 'user-text',
        text: title === undefined ? block.source.data : `${title}\n\n${block.source.data}`,
        meta: isMeta,
        block: 1000 + docs++,
      });
    } else if (block.type === 'tool_result') {
      out.push({
        ...meta,
        kind: 'tool-result',
        toolUseId: str(block.tool_use_id) ?? '',
        text: textOf(block.content),
        isError: block.is_error === true,
        structured: line.toolUseResult,
      });
    } else if (unknownText(block)) out.push({ ...meta, kind: 'user-text', text: block.text as string, meta: isMeta, block: UNKNOWN_BLOCKS + others++ });
  }
}

/**
 * A block of a type this reader does not know that carries text (a later client's): its text is
 * content. Numbered apart from the known blocks, whose chunk ids stay what they were.
 */
function unknownText(block: Obj): boolean {
  return (
    typeof block.text === 'string' &&
    block.text.trim() !== '' &&
    typeof block.type === 'string' &&
    !KNOWN_BLOCKS.has(block.type) &&
    !block.type.endsWith('_tool_result')
  );
}
const KNOWN_BLOCKS = new Set(['text', 'thinking', 'redacted_thinking', 'tool_use', 'server_tool_use', 'tool_result', 'image', 'document']);
const UNKNOWN_BLOCKS = 2000;

function assistantEntries(content: unknown, messageId: string | undefined, meta: EntryMeta, out: Entry[]): void {
  if (typeof content === 'string') {
    out.push({ ...meta, kind: 'assistant-text', text: content, messageId });
    return;
  }
  if (!Array.isArray(content)) return;
  let texts = 0;
  let others = 0;
  for (const block of content) {
    if (!isObj(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string')
      out.push({ ...meta, kind: 'assistant-text', text: block.text, messageId, ...blockNo(texts++) });
    else if (unknownText(block)) out.push({ ...meta, kind: 'assistant-text', text: block.text as string, messageId, block: UNKNOWN_BLOCKS + others++ });
    else if (block.type === 'thinking' && typeof block.thinking === 'string') out.push({ ...meta, kind: 'thinking', text: block.thinking });
    else if ((block.type === 'tool_use' || block.type === 'server_tool_use') && typeof block.name === 'string') {
      out.push({ ...meta, kind: 'tool-use', id: str(block.id) ?? '', name: block.name, input: block.input, messageId });
    } else if (typeof block.type === 'string' && block.type.endsWith('_tool_result') && typeof block.tool_use_id === 'string') {
      // A server tool's result (web_search_tool_result, web_fetch_tool_result…) comes in the same
      // assistant message as its call: it closes the call as a user line's tool_result would.
      const isError = isObj(block.content) && typeof block.content.type === 'string' && block.content.type.endsWith('_error');
      out.push({ ...meta, kind: 'tool-result', toolUseId: block.tool_use_id, text: serverResultText(block.content), isError, structured: undefined });
    }
  }
}

/** A server tool result as text: each result's title and address (web search), or its text. */
function serverResultText(content: unknown): string {
  if (!Array.isArray(content)) return isObj(content) ? (str(content.error_code) ?? textOf([content])) : textOf(content);
  const lines: string[] = [];
  for (const item of content) {
    if (!isObj(item)) continue;
    const title = str(item.title);
    const url = str(item.url);
    if (title !== undefined || url !== undefined) lines.push([title, url].filter((x) => x !== undefined).join(' — '));
    else if (typeof item.text === 'string') lines.push(item.text);
  }
  return lines.join('\n');
}

/** The block number of a line's second and later text blocks; the first has none (its chunk id predates them). */
const blockNo = (k: number): { block?: number } => (k === 0 ? {} : { block: k });

function usageOf(message: Obj, messageId: string | undefined, requestId: string | undefined): Usage | undefined {
  const u = message.usage;
  if (!isObj(u)) return undefined;
  return {
    key: `${messageId ?? ''}|${requestId ?? ''}`,
    input: num(u.input_tokens) ?? 0,
    cacheCreation: num(u.cache_creation_input_tokens) ?? 0,
    cacheRead: num(u.cache_read_input_tokens) ?? 0,
    output: num(u.output_tokens) ?? 0,
    model: str(message.model),
  };
}

/** Flatten message or tool-result content to text (images and other blocks become a short marker). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    if (typeof block === 'string') parts.push(block);
    else if (isObj(block)) {
      if (typeof block.text === 'string') parts.push(block.text);
      else if (block.type === 'image') parts.push('[image]');
    }
  }
  return parts.join('\n');
}
