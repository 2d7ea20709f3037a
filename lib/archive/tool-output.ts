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
    const stderr = typeof response.stderr === 'string' && response.stderr !== '' ? `\n[stderr]\n${response.stderr}` : '';
    const out = { ...sized(`${String(response.stdout ?? '')}${stderr}`) };
    if (typeof response.persistedOutputPath === 'string' && typeof response.persistedOutputSize === 'number') {
      return { ...out, persistedPath: response.persistedOutputPath, bytes: response.persistedOutputSize };
    }
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
