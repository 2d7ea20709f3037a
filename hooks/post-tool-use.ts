// PostToolUse: append a compact record of the tool call to the session's event log, feed the phase
// tracker (and the span's work: files, commands, test results, tasks), and archive a large output
// to L2 at once.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { observeToolCall } from '../lib/phase/observe.ts';
import { runHook } from '../lib/runtime/hook-runtime.ts';
import { postToolUseInput } from '../lib/runtime/schemas.ts';
import { eventsFile } from '../lib/session/session-files.ts';
import { archiveToolCall } from '../lib/session/tool-archive.ts';
import { toolEvent } from '../lib/session/tool-event.ts';

runHook({
  event: 'PostToolUse',
  schema: postToolUseInput,
  handler: async (input, ctx) => {
    const event = toolEvent(
      { tool: input.tool_name, toolUseId: input.tool_use_id, input: input.tool_input, response: input.tool_response, durationMs: input.duration_ms },
      ctx.now(),
    );
    ctx.store.appendLine(eventsFile(ctx.store, input.session_id), event);
    // A subagent's calls are its own errand (an Explore agent reads a lot): they do not move the phase.
    const transition =
      input.agent_id === undefined
        ? await observeToolCall(ctx, input.session_id, { tool: input.tool_name, input: input.tool_input, response: input.tool_response, ok: true })
        : undefined;
    if (transition !== undefined) ctx.log.info(`phase ${transition.from} → ${transition.to} (${transition.span.trigger})`);
    if (event.outBytes >= ctx.config.archiveToolOutputBytes && input.tool_use_id !== undefined) {
      const head = { toolUseId: input.tool_use_id, name: input.tool_name, input: input.tool_input, isError: false };
      const cliPath = join(dirname(fileURLToPath(import.meta.url)), 'cli.mjs');
      const r = await archiveToolCall(
        ctx,
        input.session_id,
        { ...head, response: input.tool_response },
        { minBytes: ctx.config.archiveToolOutputBytes, cliPath },
      );
      ctx.log.debug(`archived a ${event.outBytes}-byte ${input.tool_name} output: ${r.deferred ? 'in the background' : `${r.chunks} chunks`}`);
    }
    return undefined;
  },
});
