// An L2 chunk on disk: Markdown with frontmatter. Every frontmatter value is written as JSON, which
// is also valid YAML, so the file reads well, any YAML tool parses it, and reading it back takes a
// few lines here instead of a YAML library in every hook bundle.
import { textHash } from './hash.ts';

export const CHUNK_VERSION = 1;

/** `ledger`: a phase ledger, archived so `/recall` finds it with the rest. */
export type ChunkType = 'user' | 'assistant' | 'tool' | 'summary' | 'ledger';

export interface ChunkMeta {
  version: typeof CHUNK_VERSION;
  id: string;
  session: string;
  project: string;
  phase: string;
  type: ChunkType;
  tool?: string;
  /** The tool call a tool chunk came from (its parts share it). */
  toolUseId?: string;
  files: string[];
  timestamp: string;
  sourceUuids: string[];
  keywords: string[];
  title: string;
  sidechain?: boolean;
  /** 1-based part number and count when a long tool output was split. */
  part?: [number, number];
  /**
   * Claude Code's own record, not the user's words: a typed slash command (kept as `/x args`) or a
   * local command's output (which holds what hooks printed, ours included). No facts or goal come from it.
   */
  client?: true;
}

export interface Chunk extends ChunkMeta {
  text: string;
}

const ORDER: ReadonlyArray<keyof ChunkMeta> = [
  'version',
  'id',
  'session',
  'project',
  'phase',
  'type',
  'tool',
  'toolUseId',
  'files',
  'timestamp',
  'sourceUuids',
  'keywords',
  'title',
  'sidechain',
  'part',
  'client',
];

/**
 * The frontmatter key that holds the text's length (UTF-16 code units: JavaScript's string length,
 * not bytes or code points): a file cut short inside its text (a disk that filled, a copy that
 * stopped) still parses, and only this tells it from a shorter text. Files written before it have
 * none and are taken as they are.
 */
const LENGTH_KEY = 'length';
/**
 * The frontmatter key that holds textHash() of the text: a text overwritten in place (a damaged
 * disk, a stray write) keeps its length, and only this tells it from the one written. Files
 * written before it have none and are taken as they are (as without a length).
 */
const HASH_KEY = 'textHash';

export function renderChunk(chunk: Chunk): string {
  const lines = ['---'];
  for (const key of ORDER) {
    const value = chunk[key];
    if (value !== undefined) lines.push(`${key}: ${JSON.stringify(value)}`);
  }
  const text = asWritten(chunk.text);
  lines.push(`${LENGTH_KEY}: ${text.length}`, `${HASH_KEY}: "${textHash(text)}"`, '---', '');
  return `${lines.join('\n')}${text}\n`;
}

/**
 * The text as it reads back from its UTF-8 file: a lone surrogate (half of an emoji, cut off by the
 * client's truncation or a split at a length) is written as U+FFFD, and the hash must be of that.
 */
function asWritten(text: string): string {
  const t = text as unknown as { isWellFormed(): boolean; toWellFormed(): string }; // ES2024, in Node 20
  return t.isWellFormed() ? text : t.toWellFormed();
}

export type ParsedChunk = { ok: true; chunk: Chunk } | { ok: false; reason: string };

export function parseChunk(file: string): ParsedChunk {
  return parse(file, true);
}

/** What ends a salvaged text (see salvageCutShort). */
export const CUT_SHORT_NOTE = '[cut short: the rest of this text was lost from its file]';

/**
 * A chunk whose file was cut short inside its text (its frontmatter whole), with the text that is
 * left and a note that says so: what `ctxl reindex` keeps of a chunk it cannot write again from its
 * transcript (a ledger, a large output the transcript holds only as a stub). Undefined for a sound
 * file or any other damage.
 */
export function salvageCutShort(file: string): Chunk | undefined {
  const loose = parse(file, false);
  if (!loose.ok || parse(file, true).ok || !cutShort(file, loose.chunk.text)) return undefined;
  return { ...loose.chunk, text: `${loose.chunk.text}\n${CUT_SHORT_NOTE}` };
}

/**
 * Whether a file was cut short: its text shorter than its frontmatter says, or whole but for the
 * file's last newline. Not one overwritten at its length: what is left of that is no text of ours.
 */
function cutShort(file: string, text: string): boolean {
  const declared = new RegExp(`^${LENGTH_KEY}: (\\d+)$`, 'm').exec(file.slice(0, file.indexOf('\n---\n', 3)));
  if (declared === null) return false;
  const length = Number(declared[1]);
  return text.length < length || (text.length === length && !file.endsWith('\n'));
}

function parse(file: string, checkLength: boolean): ParsedChunk {
  if (!file.startsWith('---\n')) return { ok: false, reason: 'no frontmatter' };
  const end = file.indexOf('\n---\n', 3);
  if (end === -1) return { ok: false, reason: 'frontmatter not closed (truncated?)' };
  const meta: Record<string, unknown> = {};
  for (const line of file.slice(4, end).split('\n')) {
    const colon = line.indexOf(': ');
    if (colon === -1) return { ok: false, reason: `bad frontmatter line ${JSON.stringify(line.slice(0, 40))}` };
    try {
      meta[line.slice(0, colon)] = JSON.parse(line.slice(colon + 2));
    } catch {
      return { ok: false, reason: `bad value for ${line.slice(0, colon)}` };
    }
  }
  if (meta.version !== CHUNK_VERSION) return { ok: false, reason: `unknown version ${JSON.stringify(meta.version)}` };
  for (const key of ['id', 'session', 'type', 'timestamp'] as const) {
    if (typeof meta[key] !== 'string') return { ok: false, reason: `missing ${key}` };
  }
  const body = file.slice(end + 5);
  const text = body.endsWith('\n') ? body.slice(0, -1) : body;
  const length = meta[LENGTH_KEY];
  if (length !== undefined) {
    if (checkLength && (typeof length !== 'number' || text.length !== length))
      return { ok: false, reason: `text of ${text.length} characters where the frontmatter says ${JSON.stringify(length)} (cut short?)` };
    // renderChunk ends every file with a newline of its own: only its last byte is missing.
    if (checkLength && !body.endsWith('\n')) return { ok: false, reason: 'no newline at the end of the file (cut short?)' };
    delete meta[LENGTH_KEY];
  }
  const hash = meta[HASH_KEY];
  if (hash !== undefined) {
    if (checkLength && hash !== textHash(text)) return { ok: false, reason: 'text does not match its textHash (overwritten or damaged?)' };
    delete meta[HASH_KEY];
  }
  return {
    ok: true,
    chunk: {
      ...(meta as unknown as ChunkMeta),
      files: Array.isArray(meta.files) ? (meta.files as string[]) : [],
      sourceUuids: Array.isArray(meta.sourceUuids) ? (meta.sourceUuids as string[]) : [],
      keywords: Array.isArray(meta.keywords) ? (meta.keywords as string[]) : [],
      text,
    },
  };
}
