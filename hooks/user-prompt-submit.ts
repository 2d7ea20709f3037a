// UserPromptSubmit: count the prompt on the session record; a clear phase statement in it ("let's
// write the tests") sets the phase at once.
import { observePrompt } from '../lib/phase/observe.ts';
import { runHook } from '../lib/runtime/hook-runtime.ts';
import { userPromptSubmitInput } from '../lib/runtime/schemas.ts';
import { eventsFile, touchSession } from '../lib/session/session-files.ts';

runHook({
  event: 'UserPromptSubmit',
  schema: userPromptSubmitInput,
  handler: async (input, ctx) => {
    await touchSession(ctx, { sessionId: input.session_id, cwd: input.cwd, transcriptPath: input.transcript_path, prompt: true });
    if (input.prompt !== undefined && !input.prompt.trimStart().startsWith('/')) {
      const transition = await observePrompt(ctx, input.session_id, input.prompt, eventsFile(ctx.store, input.session_id));
      if (transition !== undefined) ctx.log.info(`phase ${transition.from} → ${transition.to} (${transition.span.trigger})`);
    }
    return undefined;
  },
});
