// `ctxl run-job <file>` and `ctxl run-jobs`: the detached half of a hook's slow work (a large tool
// output, a transcript line too long for a pass), run in a process of its own.
import { readFileSync, rmSync } from 'node:fs';
import { writeChunks } from '../archive/archive-store.ts';
import type { Chunk } from '../archive/chunk-file.ts';
import { chunkHash } from '../archive/hash.ts';
import { thisProcess } from '../runtime/lock.ts';
import { cursorFile, type SessionEnv } from '../session/session-files.ts';
import { type ArchiveJob, archiveFile, archiveSpooled, archiveTranscriptLine, claimJobs, ownedJob, type PartWriter } from '../session/tool-archive.ts';
import type { CliEnv } from './cli-runtime.ts';

/** How long a job waits for a session a transcript pass is archiving (Stop's own deadline is shorter). */
const JOB_LOCK_WAIT_MS = 60_000;

/**
 * `ctxl run-jobs`: every session's archive jobs that need a start (see claimJobs), run here one
 * after the other. SessionStart starts it detached when the jobs folder holds any: a job whose
 * process died after its session's last Stop would otherwise wait for that session to come back.
 */
export async function runJobs(cli: CliEnv): Promise<{ ran: number; added: number; failed: number }> {
  const env: SessionEnv = { store: cli.store, log: cli.log, now: () => cli.now, project: { root: process.cwd() } };
  const r = { ran: 0, added: 0, failed: 0 };
  for (const { file } of claimJobs(env)) {
    try {
      const added = await runJob(cli, file);
      if (added === undefined) r.failed += 1;
      else {
        r.ran += 1;
        r.added += added;
      }
    } catch (error) {
      r.failed += 1;
      cli.log.warn(`run-jobs: ${file} could not run now; a later start runs it again`, error);
    }
  }
  return r;
}

/**
 * `ctxl run-job <file>`: the detached half of a hook's slow work, and the persisted outputs an ingest
 * queued. The job file is removed when done. Returns the chunks added, or undefined when the file
 * is no job to run.
 */
export async function runJob(cli: CliEnv, file: string): Promise<number | undefined> {
  let job: ArchiveJob;
  try {
    job = JSON.parse(readFileSync(file, 'utf8')) as ArchiveJob;
  } catch (error) {
    cli.log.warn(`run-job: cannot read ${file}: ${(error as Error).message}`);
    return undefined;
  }
  if (job.version !== 1 || (job.kind !== 'tool-output' && job.kind !== 'tool-text' && job.kind !== 'tool-read' && job.kind !== 'transcript-line')) {
    cli.log.warn(`run-job: ${file} is not a job this version knows; left in place`);
    return undefined;
  }
  const env: SessionEnv = { store: cli.store, log: cli.log, now: () => cli.now, project: { root: job.projectRoot } };
  // Named as its owner: a Stop that finds this process gone starts the job again at once, and
  // leaves it alone while it runs, however long.
  cli.store.writeJson(file, ownedJob(job, thisProcess()));
  // Each batch under the session's cursor lock, which every transcript pass (a subagent's too) holds:
  // two writers that both find a part missing would both write it, and the last rename would win
  // (the preview, at times).
  const underLock = async (sessionId: string, write: () => number): Promise<number> => {
    const added = await env.store.withLock(cursorFile(env.store, sessionId), write, { waitMs: JOB_LOCK_WAIT_MS });
    if (added !== undefined) return added;
    const why = `session ${sessionId} stayed locked for ${JOB_LOCK_WAIT_MS / 1000} s; ${file} is left for a later Stop to run again`;
    cli.log.warn(`run-job: ${why}`);
    throw new Error(why);
  };
  // A part added after a transcript pass archived the preview as part 1 takes part 1's uuids (fromFirstPart).
  const locked: PartWriter = (env, sessionId, chunks, hash) =>
    underLock(sessionId, () => writeChunks(env.store, sessionId, chunks, { hash, fullOutput: true, fromFirstPart: true }).added);
  if (job.kind === 'transcript-line') {
    // Written as the transcript pass writes.
    const write = (chunks: Chunk[], nameCall?: boolean) =>
      underLock(
        job.sessionId,
        () => writeChunks(env.store, job.sessionId, chunks, nameCall === true ? { hash: chunkHash, nameCall } : { hash: chunkHash }).added,
      );
    const added = await archiveTranscriptLine(env, job, write);
    if (added === undefined)
      cli.log.warn(
        `run-job: the line at byte ${job.start} of ${job.transcript} is no longer there (the transcript was rewritten or is gone); nothing archived`,
      );
    else cli.log.info(`run-job: archived the line at byte ${job.start} of ${job.transcript} in ${added} new chunks`);
    rmSync(file, { force: true });
    return added ?? 0;
  }
  const added = job.kind === 'tool-output' ? (await archiveFile(env, job, locked)).written : (await archiveSpooled(env, job, locked)).written;
  cli.log.info(`run-job: archived ${job.kind === 'tool-text' ? `a spooled ${job.call.name} output` : job.file} in ${added} new chunks`);
  rmSync(file, { force: true });
  return added;
}
