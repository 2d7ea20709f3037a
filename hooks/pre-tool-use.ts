// PreToolUse(Skill): when Claude invokes the recall command itself, attach the results the same way.
import { answerRecall, isRecallCommand } from '../lib/recall/answer.ts';
import { runHook } from '../lib/runtime/hook-runtime.ts';
import { preToolUseInput } from '../lib/runtime/schemas.ts';

runHook({
  event: 'PreToolUse',
  schema: preToolUseInput,
  handler: async (input, ctx) => {
    const call = input.tool_input as { skill?: unknown; args?: unknown } | undefined;
    const skill = typeof call?.skill === 'string' ? call.skill : undefined;
    if (input.tool_name !== 'Skill' || !isRecallCommand(skill)) return undefined;
    const text = await answerRecall(typeof call?.args === 'string' ? call.args : '', skill ?? 'recall', input, ctx);
    return { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: text } };
  },
});
