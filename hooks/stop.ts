// Stop: read what the turn added to the transcript (from the byte cursor), archive it to L2, read
// its facts, save the cursor; write the ledgers of phases that ended during the turn; measure the
// budget and, at a level crossing, advise once (at L2→L3 also write the ledger and promote decisions).
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stopBudget } from '../lib/context/compaction.ts';
import { catchUpWithPhase, writeLedgers } from '../lib/phase/ledgers.ts';
import { runHook } from '../lib/runtime/hook-runtime.ts';
import { recallCommandFor } from '../lib/runtime/paths.ts';
import { stopInput } from '../lib/runtime/schemas.ts';
import { startJobs } from '../lib/session/tool-archive.ts';

runHook({
  event: 'Stop',
  schema: stopInput,
  handler: async (input, ctx) => {
    if (input.transcript_path === undefined) return undefined;
    const result = await catchUpWithPhase(ctx, input.session_id, input.transcript_path);
    if (result !== undefined) ctx.log.debug(`read ${result.newLines} new lines (${result.newBytes} bytes); archived ${result.archived.added} new chunks`);
    // A stubbed output whose archive job died is started again (the stub's ref must come to hold it).
    await startJobs(ctx, input.session_id, join(dirname(fileURLToPath(import.meta.url)), 'cli.mjs'));
    const ledgers = await writeLedgers(ctx, input.session_id, { current: false });
    if (ledgers.length > 0) ctx.log.info(`wrote ${ledgers.map((l) => l.file).join(', ')}`);
    const measured = await stopBudget(ctx, {
      sessionId: input.session_id,
      stopHookActive: input.stop_hook_active === true,
      recallCommand: recallCommandFor(ctx.env),
      cursor: result?.cursor,
    });
    const advice = measured?.advice;
    if (advice === undefined) return undefined;
    return advice.additionalContext === undefined
      ? { systemMessage: advice.systemMessage }
      : { systemMessage: advice.systemMessage, hookSpecificOutput: { hookEventName: 'Stop', additionalContext: advice.additionalContext } };
  },
});
