// PreToolUse(Skill): when Claude invokes the recall or phase command itself, attach the answer the
// same way as for a typed command.
import { sessionBudgetLines } from '../lib/context/budget-store.ts';
import { answerPhase, isPhaseCommand } from '../lib/phase/phase-command.ts';
import { answerRecall, isRecallCommand } from '../lib/recall/answer.ts';
import { runHook } from '../lib/runtime/hook-runtime.ts';
import { preToolUseInput } from '../lib/runtime/schemas.ts';

runHook({
  event: 'PreToolUse',
  schema: preToolUseInput,
  handler: async (input, ctx) => {
    const call = input.tool_input as { skill?: unknown; args?: unknown } | undefined;
    const skill = typeof call?.skill === 'string' ? call.skill : undefined;
    if (input.tool_name !== 'Skill') return undefined;
    const args = typeof call?.args === 'string' ? call.args : '';
    let text: string | undefined;
    if (isRecallCommand(skill)) text = await answerRecall(args, skill ?? 'recall', input, ctx, () => sessionBudgetLines(ctx, input.session_id));
    else if (isPhaseCommand(skill)) text = await answerPhase(args, input.session_id, ctx, true);
    return text === undefined ? undefined : { hookSpecificOutput: { hookEventName: 'PreToolUse', additionalContext: text } };
  },
});
