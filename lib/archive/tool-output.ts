// The text a tool produced, from PostToolUse's structured `tool_response` (reference §11.1): Bash
// stdout and stderr (over 30,000 characters the full text is only in `persistedOutputPath`), Read's
// file content, Grep/Glob matches, MCP content blocks. Pure.
import { textOf } from '../transcript/entries.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

export interface ToolOutput {
  /** The text in the response (for a persisted Bash output: the first 30,000 characters). */
  text: string;
  /** Where the full output is, when the response holds only its start. */
  persistedPath?: string;
  /** The full output's size in bytes. */
  bytes: number;
}

export function toolOutput(response: unknown): ToolOutput {
  if (typeof response === 'string') return { text: response, bytes: Buffer.byteLength(response) };
  if (Array.isArray(response)) return sized(textOf(response));
  if (!isObj(response)) return { text: '', bytes: 0 };
  if (typeof response.stdout === 'string' || typeof response.stderr === 'string') {
    const stdout = String(response.stdout ?? '');
    const stderr = typeof response.stderr === 'string' ? response.stderr : '';
    // `bytes` is what the tool printed; the `[stderr]` label is only for the archived text.
    const out: ToolOutput = { text: stderr === '' ? stdout : `${stdout}\n[stderr]\n${stderr}`, bytes: Buffer.byteLength(stdout) + Buffer.byteLength(stderr) };
    // Over 30,000 characters Claude Code keeps only the start here; the size is the full output's.
    if (typeof response.persistedOutputSize === 'number') out.bytes = response.persistedOutputSize;
    if (typeof response.persistedOutputPath === 'string') out.persistedPath = response.persistedOutputPath;
    return out;
  }
  if (isObj(response.file) && typeof response.file.content === 'string') return sized(response.file.content);
  if (typeof response.content === 'string') return sized(response.content);
  if (Array.isArray(response.content)) return sized(textOf(response.content));
  if (Array.isArray(response.filenames)) return sized(response.filenames.filter((f) => typeof f === 'string').join('\n'));
  if (typeof response.result === 'string') return sized(response.result);
  return { text: '', bytes: 0 };
}

const sized = (text: string): ToolOutput => ({ text, bytes: Buffer.byteLength(text) });
