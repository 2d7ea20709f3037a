// PostToolUse archives a large tool output to L2 at once: the transcript may only ever hold a stub or
// Claude Code's 2 KB preview of it. Small outputs wait for Stop, which archives them from the
// transcript. Chunk ids match what Stop derives for the same tool call, so nothing is stored twice.
// A persisted output too big for the hook's deadline goes to a job file that a detached one-shot
// process (`ctxl run-job`) archives: the hook never blocks the session on it.
import { writeChunks } from '../archive/archive-store.ts';
import { type ChunkContext, PART_CHARS, splitText, type ToolCallHead, toolPartChunk } from '../archive/chunker.ts';
import { cutPoints, readRange } from '../archive/file-parts.ts';
import { chunkHash } from '../archive/hash.ts';
import { redactText } from '../archive/redact.ts';
import { toolOutput } from '../archive/tool-output.ts';
import { statSafe } from '../runtime/store.ts';
import type { SessionEnv } from './session-files.ts';

/** At most this many parts for one output: a 100 MB log becomes ~200 chunks, not 17,000. */
const MAX_PARTS = 200;
/** Persisted outputs above this are archived by a detached process, not inside the hook. */
export const INLINE_MAX_BYTES = 4 * 1024 * 1024;
const JOB_VERSION = 1;

export interface ArchiveJob {
  version: typeof JOB_VERSION;
  kind: 'tool-output';
  sessionId: string;
  projectRoot: string;
  phase: string;
  call: ToolCallHead;
  file: string;
}

export async function archiveToolCall(
  env: SessionEnv,
  sessionId: string,
  call: ToolCallHead & { response: unknown },
  options: { minBytes: number; phase?: string; cliPath?: string },
): Promise<{ chunks: number; deferred: boolean }> {
  const out = toolOutput(call.response);
  if (out.bytes < options.minBytes) return { chunks: 0, deferred: false };
  const head: ToolCallHead = { toolUseId: call.toolUseId, name: call.name, input: call.input, isError: call.isError };
  const persisted = out.persistedPath === undefined ? undefined : statSafe(out.persistedPath);
  if (out.persistedPath !== undefined && persisted?.isFile() === true) {
    if (persisted.size > INLINE_MAX_BYTES && options.cliPath !== undefined) {
      // The job file outlives this process: nothing in it may be a secret in clear.
      const redactedCall: ToolCallHead = { ...head, input: JSON.parse(redactText(JSON.stringify(head.input ?? null))) as unknown };
      const job: ArchiveJob = {
        version: JOB_VERSION,
        kind: 'tool-output',
        sessionId,
        projectRoot: env.project.root,
        phase: options.phase ?? 'unknown',
        call: redactedCall,
        file: out.persistedPath,
      };
      await startJob(env, job, options.cliPath);
      return { chunks: 0, deferred: true };
    }
    return { chunks: await archiveFile(env, { ...headJob(env, sessionId, options.phase), call: head, file: out.persistedPath }), deferred: false };
  }
  const ctx = chunkContext(env, sessionId, options.phase, chunkHash);
  // At most MAX_PARTS parts, written a batch at a time with a yield between batches, so a 30 MB
  // output held in memory neither makes thousands of files nor keeps the deadline from firing.
  const parts = splitText(out.text, Math.max(PART_CHARS, Math.ceil(out.text.length / MAX_PARTS)));
  const meta = { uuids: [], timestamp: ctx.now, sidechain: false };
  let added = 0;
  for (let i = 0; i < parts.length; i += 8) {
    const batch = parts.slice(i, i + 8).map((text, k) => toolPartChunk(head, redactText(text), [i + k + 1, parts.length], meta, ctx));
    added += writeChunks(env.store, sessionId, batch, { hash: ctx.hash }).added;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { chunks: added, deferred: false };
}

/** Archive a file-held output part by part: memory stays bounded by one part. */
export async function archiveFile(env: SessionEnv, job: Omit<ArchiveJob, 'version' | 'kind'>): Promise<number> {
  const size = statSafe(job.file)?.size ?? 0;
  const ctx = chunkContext(env, job.sessionId, job.phase, chunkHash);
  const meta = { uuids: [], timestamp: ctx.now, sidechain: false };
  const partBytes = Math.max(PART_CHARS, Math.ceil(size / MAX_PARTS));
  const cuts = cutPoints(job.file, size, partBytes);
  let written = 0;
  for (const [i, start] of cuts.entries()) {
    const text = redactText(readRange(job.file, start, cuts[i + 1] ?? size));
    written += writeChunks(env.store, job.sessionId, [toolPartChunk(job.call, text, [i + 1, cuts.length], meta, ctx)], { hash: ctx.hash }).added;
    // Let timers (the hook's deadline) run between parts.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return written;
}

function headJob(env: SessionEnv, sessionId: string, phase: string | undefined) {
  return { sessionId, projectRoot: env.project.root, phase: phase ?? 'unknown' };
}

function chunkContext(env: SessionEnv, sessionId: string, phase: string | undefined, hash: (s: string) => string): ChunkContext {
  return { session: sessionId, project: env.project.root, phase: phase ?? 'unknown', now: env.now().toISOString(), hash };
}

/** Write the job next to the session's files and start `node <cli> run-job <file>` detached. */
async function startJob(env: SessionEnv, job: ArchiveJob, cliPath: string): Promise<void> {
  // Loaded only here: every other PostToolUse call would pay for child_process at startup.
  const { spawn } = await import('node:child_process');
  const file = env.store.path('jobs', `${job.sessionId}-${job.call.toolUseId}.json`);
  env.store.writeJson(file, job);
  // A small heap keeps the job's memory bounded by one part (116 MB of output: 77 MB peak RSS).
  const child = spawn(process.execPath, ['--max-old-space-size=48', '--max-semi-space-size=4', cliPath, 'run-job', file], {
    detached: true,
    stdio: 'ignore',
    env: process.env,
  });
  child.on('error', (error) => env.log.warn(`could not start the archive job ${file}`, error));
  child.unref();
  env.log.info(`archiving ${job.file} in the background (${file})`);
}
