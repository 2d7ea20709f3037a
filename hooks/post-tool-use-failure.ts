// PostToolUseFailure: failed tools fire this instead of PostToolUse; record them the same way (a
// failing test command lands here too, with its output in the error).
import { digestToolCall } from '../lib/phase/observe.ts';
import { runHook } from '../lib/runtime/hook-runtime.ts';
import { postToolUseInput } from '../lib/runtime/schemas.ts';
import { eventsFile } from '../lib/session/session-files.ts';
import { toolEvent } from '../lib/session/tool-event.ts';

runHook({
  event: 'PostToolUseFailure',
  schema: postToolUseInput,
  handler: async (input, ctx) => {
    const error = input.error ?? 'failed';
    const event = toolEvent(
      {
        tool: input.tool_name,
        toolUseId: input.tool_use_id,
        input: input.tool_input,
        response: input.tool_response,
        durationMs: input.duration_ms,
        error,
        interrupted: input.is_interrupt,
      },
      ctx.now(),
    );
    const ph = digestToolCall({ tool: input.tool_name, input: input.tool_input, response: input.tool_response, ok: false, error });
    ctx.store.appendLine(eventsFile(ctx.store, input.session_id), { ...event, ph, ...(input.agent_id === undefined ? {} : { agent: input.agent_id }) });
    return undefined;
  },
});
