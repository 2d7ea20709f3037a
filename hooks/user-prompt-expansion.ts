// UserPromptExpansion: a typed `/recall …` gets its results attached as context, in one step; a
// typed `/phase …` sets or shows the phase the same way, and `/context-status` shows the session's
// status. No command runs a shell line: nothing to quote, nothing for the user to permit.
import { isStatusCommand, renderStatus, status } from '../lib/cli/status.ts';
import { sessionBudgetLines } from '../lib/context/budget-store.ts';
import { answerPhase, isPhaseCommand } from '../lib/phase/phase-command.ts';
import { answerRecall, isRecallCommand } from '../lib/recall/answer.ts';
import { runHook } from '../lib/runtime/hook-runtime.ts';
import { userPromptExpansionInput } from '../lib/runtime/schemas.ts';

runHook({
  event: 'UserPromptExpansion',
  schema: userPromptExpansionInput,
  handler: async (input, ctx) => {
    let text: string | undefined;
    if (isRecallCommand(input.command_name))
      text = await answerRecall(input.command_args ?? '', input.command_name ?? 'recall', input, ctx, () => sessionBudgetLines(ctx, input.session_id));
    else if (isPhaseCommand(input.command_name)) text = await answerPhase(input.command_args ?? '', input.session_id, ctx);
    else if (isStatusCommand(input.command_name)) text = renderStatus(status({ env: ctx.env, cwd: input.cwd, sessionId: input.session_id, now: ctx.now() }));
    return text === undefined ? undefined : { hookSpecificOutput: { hookEventName: 'UserPromptExpansion', additionalContext: text } };
  },
});
