// SessionEnd: mark the session closed, start the archive jobs nothing else would, and write the
// running phase's ledger. Claude Code gives all SessionEnd hooks 1.5 s in total: the transcript is
// read only when time is left for it.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { catchUpWithPhase, writeLedgers } from '../lib/phase/ledgers.ts';
import { spawnDetached } from '../lib/runtime/detached.ts';
import { runHook } from '../lib/runtime/hook-runtime.ts';
import { sessionEndInput } from '../lib/runtime/schemas.ts';
import { statSafe } from '../lib/runtime/store.ts';
import { sessionBacklogBytes, touchSession } from '../lib/session/session-files.ts';
import { startJobs } from '../lib/session/tool-archive.ts';

/**
 * Backlog read here, at most (the transcript's and its subagents'): a pass runs to the end of what
 * it reads and no deadline stops it (a 42 MB backlog took SessionEnd past Claude Code's 1.5 s). More
 * is archived by `ctxl ingest`, started detached.
 */
const INLINE_BACKLOG_BYTES = 3 * 1024 * 1024;

runHook({
  event: 'SessionEnd',
  schema: sessionEndInput,
  handler: async (input, ctx) => {
    await touchSession(ctx, { sessionId: input.session_id, cwd: input.cwd, transcriptPath: input.transcript_path, end: { reason: input.reason ?? 'other' } });
    const transcript = input.transcript_path;
    const size = transcript === undefined ? undefined : statSafe(transcript);
    const cli = join(dirname(fileURLToPath(import.meta.url)), 'cli.mjs');
    if (transcript !== undefined && size?.isFile() === true) {
      // Its subagents' transcripts are read with it, so their backlogs count too.
      const backlog = sessionBacklogBytes(ctx.store, input.session_id, transcript, size.size, ctx.log, ctx.now());
      if (backlog > INLINE_BACKLOG_BYTES) {
        // No Stop comes after this one: the backlog is archived in the background (the ledgers
        // below are written with what the session knew before it).
        try {
          await spawnDetached(process.execPath, [cli, 'ingest', transcript, '--cwd', input.cwd], process.env);
          ctx.log.info(`archiving a ${backlog}-byte backlog of ${input.session_id} in the background`);
        } catch (error) {
          ctx.log.warn(`could not start the archive of ${input.session_id}'s backlog`, error);
        }
      } else if (ctx.timeLeft() > 800) await catchUpWithPhase(ctx, input.session_id, transcript);
    }
    // Archive jobs queued or left by a process that died start now.
    await startJobs(ctx, input.session_id, cli);
    await writeLedgers(ctx, input.session_id, { current: true, final: true });
    return undefined;
  },
});
