// UserPromptSubmit: count the prompt on the session record (phase signals from prompts come later).
import { runHook } from '../lib/runtime/hook-runtime.ts';
import { userPromptSubmitInput } from '../lib/runtime/schemas.ts';
import { touchSession } from '../lib/session/session-files.ts';

runHook({
  event: 'UserPromptSubmit',
  schema: userPromptSubmitInput,
  handler: async (input, ctx) => {
    await touchSession(ctx, { sessionId: input.session_id, cwd: input.cwd, transcriptPath: input.transcript_path, prompt: true });
    return undefined;
  },
});
