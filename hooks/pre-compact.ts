// PreCompact (manual, auto): make L2 complete up to this moment, before the summary replaces the
// conversation, checkpoint the phase ledger, and print the steering text that Claude Code appends to
// the compaction instructions (plain text). Fires several times per compaction: everything here is
// idempotent and the text is the same each time.
import { preCompactSteering } from '../lib/context/compaction.ts';
import { catchUpWithPhase, writeLedgers } from '../lib/phase/ledgers.ts';
import { runHook } from '../lib/runtime/hook-runtime.ts';
import { recallCommandFor } from '../lib/runtime/paths.ts';
import { preCompactInput } from '../lib/runtime/schemas.ts';

runHook({
  event: 'PreCompact',
  schema: preCompactInput,
  handler: async (input, ctx) => {
    if (input.transcript_path === undefined) return undefined;
    const result = await catchUpWithPhase(ctx, input.session_id, input.transcript_path);
    if (result !== undefined) ctx.log.debug(`read ${result.newLines} new lines (${result.newBytes} bytes); archived ${result.archived.added} new chunks`);
    await writeLedgers(ctx, input.session_id, { current: true });
    const recall = recallCommandFor(ctx.env);
    return preCompactSteering(ctx, input.session_id, input.transcript_path, { recallCommand: recall, caughtUp: result !== undefined });
  },
});
