// PreCompact (manual, auto): make L2 complete up to this moment, before the summary replaces the
// conversation, and checkpoint the phase ledger. Fires several times per compaction, so everything
// here is idempotent. Plain stdout would steer the summary; the steering text comes with the budget.
import { catchUpWithPhase, writeLedgers } from '../lib/phase/ledgers.ts';
import { runHook } from '../lib/runtime/hook-runtime.ts';
import { preCompactInput } from '../lib/runtime/schemas.ts';

runHook({
  event: 'PreCompact',
  schema: preCompactInput,
  handler: async (input, ctx) => {
    if (input.transcript_path === undefined) return undefined;
    const result = await catchUpWithPhase(ctx, input.session_id, input.transcript_path);
    if (result !== undefined) ctx.log.debug(`read ${result.newLines} new lines (${result.newBytes} bytes); archived ${result.archived.added} new chunks`);
    await writeLedgers(ctx, input.session_id, { current: true });
    return undefined;
  },
});
