// PostToolUse: append a compact record of the tool call to the session's event log, with its digest
// for the phase tracker (signal, files, command, test result, tasks), and archive a large output to
// L2 at once.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { digestToolCall } from '../lib/phase/observe.ts';
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
    // The phase digest rides on the event line: no lock here; the next hook that needs the phase folds it.
    const ph = digestToolCall({ tool: input.tool_name, input: input.tool_input, response: input.tool_response, ok: true });
    // A subagent's calls are its own errand (an Explore agent reads a lot): the fold skips them.
    ctx.store.appendLine(eventsFile(ctx.store, input.session_id), { ...event, ph, ...(input.agent_id === undefined ? {} : { agent: input.agent_id }) });
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
