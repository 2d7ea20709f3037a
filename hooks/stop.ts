// Stop: read what the turn added to the transcript (from the byte cursor), archive it to L2, read
// its facts, save the cursor; then write the ledgers of phases that ended during the turn.
import { catchUpWithPhase, writeLedgers } from '../lib/phase/ledgers.ts';
import { runHook } from '../lib/runtime/hook-runtime.ts';
import { stopInput } from '../lib/runtime/schemas.ts';

runHook({
  event: 'Stop',
  schema: stopInput,
  handler: async (input, ctx) => {
    if (input.transcript_path === undefined) return undefined;
    const result = await catchUpWithPhase(ctx, input.session_id, input.transcript_path);
    if (result !== undefined) ctx.log.debug(`read ${result.newLines} new lines (${result.newBytes} bytes); archived ${result.archived.added} new chunks`);
    const ledgers = await writeLedgers(ctx, input.session_id, { current: false });
    if (ledgers.length > 0) ctx.log.info(`wrote ${ledgers.map((l) => l.file).join(', ')}`);
    return undefined;
  },
});
