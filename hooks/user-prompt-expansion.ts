// UserPromptExpansion: a typed `/recall …` gets its results attached as context, in one step; a
// typed `/phase …` sets or shows the phase the same way.
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
    return text === undefined ? undefined : { hookSpecificOutput: { hookEventName: 'UserPromptExpansion', additionalContext: text } };
  },
});
