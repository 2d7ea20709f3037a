// UserPromptExpansion: a typed `/recall …` gets its results attached as context, in one step.
import { answerRecall, isRecallCommand } from '../lib/recall/answer.ts';
import { runHook } from '../lib/runtime/hook-runtime.ts';
import { userPromptExpansionInput } from '../lib/runtime/schemas.ts';

runHook({
  event: 'UserPromptExpansion',
  schema: userPromptExpansionInput,
  handler: async (input, ctx) => {
    if (!isRecallCommand(input.command_name)) return undefined;
    const text = await answerRecall(input.command_args ?? '', input.command_name ?? 'recall', input, ctx);
    return { hookSpecificOutput: { hookEventName: 'UserPromptExpansion', additionalContext: text } };
  },
});
