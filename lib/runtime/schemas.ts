// Hook inputs (Claude Code 2.1.332, reference §1). Loose objects: fields added by newer versions pass.
// Each is built in a pure IIFE, so a hook's bundle builds only the schema of its own event (building
// all of them was a few ms of every hook's start).
import * as z from 'zod/mini';

/**
 * A schema built on first use, not when its module loads: a hook bundles modules whose schemas most
 * of its runs never need, and building zod schemas is a visible part of a hook's start.
 */
export function lazySchema<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

const base = () => ({
  session_id: z.string().check(z.minLength(1)),
  transcript_path: z.optional(z.string()),
  cwd: z.string().check(z.minLength(1)),
  hook_event_name: z.string(),
  prompt_id: z.optional(z.string()),
  permission_mode: z.optional(z.string()),
  agent_id: z.optional(z.string()),
  agent_type: z.optional(z.string()),
});

export const sessionStartInput = /* @__PURE__ */ (() =>
  z.looseObject({
    ...base(),
    source: z.optional(z.string()),
    model: z.optional(z.string()),
    context_tokens: z.optional(z.number()),
  }))();
export type SessionStartInput = z.infer<typeof sessionStartInput>;

export const userPromptSubmitInput = /* @__PURE__ */ (() => z.looseObject({ ...base(), prompt: z.optional(z.string()) }))();
export type UserPromptSubmitInput = z.infer<typeof userPromptSubmitInput>;

export const postToolUseInput = /* @__PURE__ */ (() =>
  z.looseObject({
    ...base(),
    tool_name: z.string(),
    tool_input: z.optional(z.unknown()),
    tool_response: z.optional(z.unknown()),
    tool_use_id: z.optional(z.string()),
    duration_ms: z.optional(z.number()),
    error: z.optional(z.unknown()),
    is_interrupt: z.optional(z.boolean()),
  }))();
export type PostToolUseInput = z.infer<typeof postToolUseInput>;

export const preCompactInput = /* @__PURE__ */ (() =>
  z.looseObject({
    ...base(),
    trigger: z.optional(z.string()),
    custom_instructions: z.optional(z.nullable(z.string())),
  }))();
export type PreCompactInput = z.infer<typeof preCompactInput>;

export const stopInput = /* @__PURE__ */ (() =>
  z.looseObject({
    ...base(),
    stop_hook_active: z.optional(z.boolean()),
    last_assistant_message: z.optional(z.string()),
  }))();
export type StopInput = z.infer<typeof stopInput>;

export const userPromptExpansionInput = /* @__PURE__ */ (() =>
  z.looseObject({
    ...base(),
    command_name: z.optional(z.string()),
    command_args: z.optional(z.string()),
    expansion_type: z.optional(z.string()),
  }))();
export type UserPromptExpansionInput = z.infer<typeof userPromptExpansionInput>;

export const preToolUseInput = /* @__PURE__ */ (() =>
  z.looseObject({ ...base(), tool_name: z.string(), tool_input: z.optional(z.unknown()), tool_use_id: z.optional(z.string()) }))();
export type PreToolUseInput = z.infer<typeof preToolUseInput>;

export const sessionEndInput = /* @__PURE__ */ (() => z.looseObject({ ...base(), reason: z.optional(z.string()) }))();
export type SessionEndInput = z.infer<typeof sessionEndInput>;

export type HookInput = z.infer<z.ZodMiniObject<ReturnType<typeof base>>>;
