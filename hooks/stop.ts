// Stop: read what the turn added to the transcript (from the byte cursor) and save the cursor.
import { runHook } from '../lib/runtime/hook-runtime.ts';
import { stopInput } from '../lib/runtime/schemas.ts';
import { advanceSessionCursor } from '../lib/session/session-files.ts';

runHook({
  event: 'Stop',
  schema: stopInput,
  handler: async (input, ctx) => {
    if (input.transcript_path === undefined) return undefined;
    const result = await advanceSessionCursor(ctx, input.session_id, input.transcript_path);
    if (result !== undefined) ctx.log.debug(`read ${result.newLines} new lines (${result.newBytes} bytes)`);
    return undefined;
  },
});
