// PreCompact (manual, auto): bring the transcript cursor up to this moment. Fires several times per
// compaction, so everything here is idempotent. Plain stdout would steer the summary; nothing yet.
import { runHook } from '../lib/runtime/hook-runtime.ts';
import { preCompactInput } from '../lib/runtime/schemas.ts';
import { advanceSessionCursor } from '../lib/session/session-files.ts';

runHook({
  event: 'PreCompact',
  schema: preCompactInput,
  handler: async (input, ctx) => {
    if (input.transcript_path === undefined) return undefined;
    const result = await advanceSessionCursor(ctx, input.session_id, input.transcript_path);
    if (result !== undefined) ctx.log.debug(`read ${result.newLines} new lines (${result.newBytes} bytes)`);
    return undefined;
  },
});
