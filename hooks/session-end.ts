// SessionEnd: mark the session closed. Claude Code gives all SessionEnd hooks 1.5 s in total.
import { runHook } from '../lib/runtime/hook-runtime.ts';
import { sessionEndInput } from '../lib/runtime/schemas.ts';
import { touchSession } from '../lib/session/session-files.ts';

runHook({
  event: 'SessionEnd',
  schema: sessionEndInput,
  handler: async (input, ctx) => {
    await touchSession(ctx, { sessionId: input.session_id, cwd: input.cwd, transcriptPath: input.transcript_path, end: { reason: input.reason ?? 'other' } });
    return undefined;
  },
});
