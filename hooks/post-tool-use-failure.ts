// PostToolUseFailure: failed tools fire this instead of PostToolUse; record them the same way.
import { runHook } from '../lib/runtime/hook-runtime.ts';
import { postToolUseInput } from '../lib/runtime/schemas.ts';
import { eventsFile } from '../lib/session/session-files.ts';
import { toolEvent } from '../lib/session/tool-event.ts';

runHook({
  event: 'PostToolUseFailure',
  schema: postToolUseInput,
  handler: (input, ctx) => {
    const event = toolEvent(
      {
        tool: input.tool_name,
        toolUseId: input.tool_use_id,
        input: input.tool_input,
        response: input.tool_response,
        durationMs: input.duration_ms,
        error: input.error ?? 'failed',
        interrupted: input.is_interrupt,
      },
      ctx.now(),
    );
    ctx.store.appendLine(eventsFile(ctx.store, input.session_id), event);
    return undefined;
  },
});
