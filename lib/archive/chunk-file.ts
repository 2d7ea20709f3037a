// An L2 chunk on disk: Markdown with frontmatter. Every frontmatter value is written as JSON, which
// is also valid YAML, so the file reads well, any YAML tool parses it, and reading it back takes a
// few lines here instead of a YAML library in every hook bundle.
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
 * The frontmatter key that holds the text's length (UTF-16 code units, as JavaScript counts): a
 * file cut short inside its text (a disk that filled, a copy that stopped) still parses, and only
 * this tells it from a shorter text. Files written before it have none and are taken as they are.
 */
const LENGTH_KEY = 'length';

export function renderChunk(chunk: Chunk): string {
  const lines = ['---'];
  for (const key of ORDER) {
    const value = chunk[key];
    if (value !== undefined) lines.push(`${key}: ${JSON.stringify(value)}`);
  }
  lines.push(`${LENGTH_KEY}: ${chunk.text.length}`, '---', '');
  return `${lines.join('\n')}${chunk.text}\n`;
}

export type ParsedChunk = { ok: true; chunk: Chunk } | { ok: false; reason: string };

export function parseChunk(file: string): ParsedChunk {
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
    // Its own newline ends the file: a file cut right after a newline of the text lacks one.
    if (typeof length !== 'number' || !body.endsWith('\n') || text.length !== length)
      return { ok: false, reason: `text of ${text.length} characters where the frontmatter says ${JSON.stringify(length)} (cut short?)` };
    delete meta[LENGTH_KEY];
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
