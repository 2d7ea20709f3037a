// The compact record PostToolUse appends to a session's event log: what ran, on which files, how it
// ended, how big it was. Pure; the command is redacted and cut so the log stays small and clean.
import { redactText } from '../archive/redact.ts';
import { type ToolOutput, toolOutput } from '../archive/tool-output.ts';
import { filesOf } from '../transcript/tool-input.ts';

export const TOOL_EVENT_VERSION = 1;
const MAX_COMMAND = 500;
const MAX_ERROR = 300;

export interface ToolEvent {
  v: typeof TOOL_EVENT_VERSION;
  t: string;
  tool: string;
  id?: string;
  ok: boolean;
  files?: string[];
  command?: string;
  exit?: number;
  interrupted?: boolean;
  error?: string;
  inBytes: number;
  outBytes: number;
  ms?: number;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

export interface ToolCall {
  tool: string;
  toolUseId?: string | undefined;
  input: unknown;
  response: unknown;
  durationMs?: number | undefined;
  /** Set for PostToolUseFailure. */
  error?: unknown;
  interrupted?: boolean | undefined;
  /** The response's text, when the caller already has it (PostToolUse): not computed again. */
  output?: ToolOutput;
}

export function toolEvent(call: ToolCall, now: Date): ToolEvent {
  const input = isObj(call.input) ? call.input : {};
  const response = isObj(call.response) ? call.response : undefined;
  const event: ToolEvent = {
    v: TOOL_EVENT_VERSION,
    t: now.toISOString(),
    tool: call.tool,
    ok: call.error === undefined,
    inBytes: byteLength(call.input),
    outBytes: outputSize(call.response, call.output),
  };
  if (call.toolUseId !== undefined) event.id = call.toolUseId;
  const files = filesOf(input);
  if (files.length > 0) event.files = files;
  if (typeof input.command === 'string') event.command = cut(redactText(input.command), MAX_COMMAND);
  const exit = response?.exitCode ?? response?.exit_code ?? response?.returnCode;
  if (typeof exit === 'number') event.exit = exit;
  if (response?.interrupted === true || call.interrupted === true) event.interrupted = true;
  if (call.error !== undefined) event.error = cut(redactText(typeof call.error === 'string' ? call.error : JSON.stringify(call.error)), MAX_ERROR);
  if (call.durationMs !== undefined) event.ms = call.durationMs;
  return event;
}

/** What the tool produced, in bytes of text (as archived); the JSON size for structured-only results. */
export function outputSize(response: unknown, output: ToolOutput = toolOutput(response)): number {
  const text = output.bytes;
  return text > 0 || !isObj(response) ? text : byteLength(response);
}

function byteLength(value: unknown): number {
  if (value === undefined) return 0;
  try {
    return Buffer.byteLength(JSON.stringify(value));
  } catch {
    return 0;
  }
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
