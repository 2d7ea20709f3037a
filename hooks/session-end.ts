// SessionEnd: mark the session closed, start the archive jobs nothing else would, and write the
// running phase's ledger. Claude Code gives all SessionEnd hooks 1.5 s in total: the transcript is
// read only when time is left for it.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { catchUpWithPhase, writeLedgers } from '../lib/phase/ledgers.ts';
import { runHook } from '../lib/runtime/hook-runtime.ts';
import { sessionEndInput } from '../lib/runtime/schemas.ts';
import { pathExists } from '../lib/runtime/store.ts';
import { touchSession } from '../lib/session/session-files.ts';
import { startJobs } from '../lib/session/tool-archive.ts';

runHook({
  event: 'SessionEnd',
  schema: sessionEndInput,
  handler: async (input, ctx) => {
    await touchSession(ctx, { sessionId: input.session_id, cwd: input.cwd, transcriptPath: input.transcript_path, end: { reason: input.reason ?? 'other' } });
    const transcript = input.transcript_path;
    if (transcript !== undefined && pathExists(transcript) && ctx.timeLeft() > 800) await catchUpWithPhase(ctx, input.session_id, transcript);
    // No Stop comes after this one: archive jobs queued or left by a process that died start now.
    await startJobs(ctx, input.session_id, join(dirname(fileURLToPath(import.meta.url)), 'cli.mjs'));
    await writeLedgers(ctx, input.session_id, { current: true, final: true });
    return undefined;
  },
});
