// Stop: read what the turn added to the transcript (from the byte cursor), archive it to L2 and
// save the cursor; subagent transcripts are archived under this session.
import { runHook } from '../lib/runtime/hook-runtime.ts';
import { stopInput } from '../lib/runtime/schemas.ts';
import { catchUpSession } from '../lib/session/session-files.ts';

runHook({
  event: 'Stop',
  schema: stopInput,
  handler: async (input, ctx) => {
    if (input.transcript_path === undefined) return undefined;
    const result = await catchUpSession(ctx, input.session_id, input.transcript_path);
    if (result !== undefined) ctx.log.debug(`read ${result.newLines} new lines (${result.newBytes} bytes); archived ${result.archived.added} new chunks`);
    return undefined;
  },
});
