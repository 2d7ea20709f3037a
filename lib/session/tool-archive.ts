// PostToolUse archives a large tool output to L2 at once: the transcript may only ever hold a stub or
// Claude Code's 2 KB preview of it. Small outputs wait for Stop, which archives them from the
// transcript. Chunk ids match what Stop derives for the same tool call, so nothing is stored twice.
// A persisted output too big for the hook's deadline goes to a job file that a detached one-shot
// process (`ctxl run-job`) archives: the hook never blocks the session on it. So does an in-memory
// output over 128 K characters: a Read's job names its file, line range and a hash of the lines (the
// job reads them again), anything else is spooled redacted into the job file. Either way it is on
// disk before a stub names it, and the detached process chunks and indexes it. A transcript line too
// long for a pass to read is queued as a job too (LineJob).
import { isAbsolute, join } from 'node:path';
import { archiveDir, writeChunks } from '../archive/archive-store.ts';
import type { Chunk } from '../archive/chunk-file.ts';
import {
  type ChunkContext,
  type ChunkerState,
  chunksFromEntries,
  MAX_PARTS,
  partChars,
  redactInput,
  splitText,
  type ToolCallHead,
  toolPartChunk,
  toolPartId,
} from '../archive/chunker.ts';
import { cutPoints, readRange } from '../archive/file-parts.ts';
import { chunkHash, sampleHash } from '../archive/hash.ts';
import { redactText } from '../archive/redact.ts';
import { type ToolOutput, toolOutput } from '../archive/tool-output.ts';
import { spawnDetached } from '../runtime/detached.ts';
import { processGone, thisProcess } from '../runtime/lock.ts';
import { listDir, openRangeReader, pathExists, readTextFile, removePath, renamePath, statSafe } from '../runtime/store.ts';
import { parseLine } from '../transcript/entries.ts';
import { scanLines } from '../transcript/lines.ts';
import type { SessionEnv } from './session-files.ts';

/** Persisted outputs above this are archived by a detached process, not inside the hook. */
export const INLINE_MAX_BYTES = 4 * 1024 * 1024;
/** With `spoolAbove`, in-memory outputs longer than this go to a job: chunking 1 MB costs a hook ~300 ms. */
export const INLINE_TEXT_CHARS = 128 * 1024;
const JOB_VERSION = 1;

interface JobHead {
  version: typeof JOB_VERSION;
  sessionId: string;
  projectRoot: string;
  phase: string;
  call: ToolCallHead;
  /** Starts after the first (a job whose process died is started again by a later Stop). */
  attempts?: number;
  /** Queued by a transcript pass, not started yet: the next Stop starts it at once, `ctxl ingest` runs it. */
  waiting?: true;
  /** The process working on it (a hook, or `ctxl run-job` once started): when it is gone, the job starts again at once. */
  owner?: { host: string; pid: number };
  /**
   * `owner` is the process that started the job's process (a hook, gone within moments): the job's
   * process names itself owner when it begins. Still so HANDOFF_MS after the starter is gone, the
   * job's process died before it began, and the job starts again.
   */
  handoff?: true;
  /** The parts of its output on disk when it was last started: a run that added some made progress. */
  parts?: number;
}
/** A persisted output: the job reads it from the client's file. */
export type FileJob = JobHead & { kind: 'tool-output'; file: string };
/** An in-memory output: the job holds its redacted text. */
export type TextJob = JobHead & {
  kind: 'tool-text';
  text: string;
  /** The output's length before redaction, which sizes its parts (absent in a job of an older version). */
  chars?: number;
};
/**
 * A Read: its text is the file's, so the job reads the lines again and checks them against what the
 * tool returned (nothing of it is copied, in clear or redacted, by the hook). `hash` is of the whole
 * text; with `stat`, of a sample of it (sampleHash), and the file must still have that size and
 * those times: the hook takes that shortcut only for a file last changed before the call began.
 */
export type ReadJob = JobHead & { kind: 'tool-read'; file: string; startLine: number; lines: number; hash: string; stat?: FileStamp };
/**
 * A file's size, modification and change times (ms), as the hook saw them. The change time is set
 * by every write and cannot be set back (`cp -p`, `touch -r` and `rsync -t` restore the mtime only).
 */
export interface FileStamp {
  size: number;
  mtimeMs: number;
  /** Absent in a job written before it was kept (its file is then checked by size and mtime). */
  ctimeMs?: number;
}
/** A file changed this close to a Read's start (or after it) may not hold what the Read returned. */
const CHANGE_SLACK_MS = 2_000;
/**
 * A transcript line longer than a transcript pass reads (DEFAULT_MAX_LINE_BYTES: a Write or an Edit
 * of a big file carries the file in its input and again in its result): the job reads that line
 * alone and archives it as the pass would have. `pending` holds the tool calls open at that line
 * (redacted, as the pass keeps them), so a result finds its call. `call` names the line
 * (`line-<start>`), for the job's file name.
 */
export type LineJob = JobHead & { kind: 'transcript-line'; transcript: string; start: number; end: number; pending: ChunkerState['pending'] };
export type ArchiveJob = FileJob | TextJob | ReadJob | LineJob;
/** Lines longer than this are not read even by a job (memory: ~10× the line while it is parsed). */
const LINE_JOB_MAX_BYTES = 256 * 1024 * 1024;

export async function archiveToolCall(
  env: SessionEnv,
  sessionId: string,
  call: ToolCallHead & { response: unknown },
  options: { minBytes: number; phase?: string; cliPath?: string; spoolAbove?: number; output?: ToolOutput; startedAt?: number },
): Promise<{ chunks: number; deferred: boolean; parts: number; spooled?: boolean }> {
  const out = options.output ?? toolOutput(call.response);
  if (out.bytes < options.minBytes) return { chunks: 0, deferred: false, parts: 0 };
  // Its input redacted string by string before anything is rendered, cut or written (a job file
  // too): the chunk's head is cut at 2,000 characters, and a secret the cut splits slips past the rules.
  const head: ToolCallHead = { toolUseId: call.toolUseId, name: call.name, input: redactInput(call.input), isError: call.isError };
  const persisted = out.persistedPath === undefined ? undefined : statSafe(out.persistedPath);
  if (out.persistedPath !== undefined && persisted?.isFile() === true) {
    if (persisted.size > INLINE_MAX_BYTES && options.cliPath !== undefined) {
      await startJob(env, fileJob(env, sessionId, options.phase, head, out.persistedPath), options.cliPath);
      return { chunks: 0, deferred: true, parts: 0 };
    }
    // Its job is written first and removed once every part is: a hook killed or stopped by its
    // deadline part-way leaves the job, which the next Stop runs (the parts written are kept).
    const intent = jobFile(env.store, sessionId, head.toolUseId);
    if (options.cliPath !== undefined) env.store.writeJson(intent, ownedJob(fileJob(env, sessionId, options.phase, head, out.persistedPath), thisProcess()));
    const r = await archiveFile(env, { ...headJob(env, sessionId, options.phase), call: head, file: out.persistedPath });
    if (options.cliPath !== undefined) removePath(intent);
    return { chunks: r.written, deferred: false, parts: r.parts };
  }
  if (options.spoolAbove !== undefined && options.cliPath !== undefined && out.text.length > options.spoolAbove) {
    const read = readSource(call);
    if (read !== undefined) {
      const stat = unchangedSince(read.file, options.startedAt);
      const job: ReadJob = {
        version: JOB_VERSION,
        kind: 'tool-read',
        ...headJob(env, sessionId, options.phase),
        call: head,
        ...read,
        ...(stat === undefined ? { hash: chunkHash(out.text) } : { hash: sampleHash(out.text), stat }),
      };
      await startJob(env, job, options.cliPath);
      return { chunks: 0, deferred: true, parts: textParts(out.text).length, spooled: true };
    }
    const text = redactText(out.text);
    const job: TextJob = { version: JOB_VERSION, kind: 'tool-text', ...headJob(env, sessionId, options.phase), call: head, text, chars: out.text.length };
    await startJob(env, job, options.cliPath);
    return { chunks: 0, deferred: true, parts: splitText(text, partChars(out.text.length)).length, spooled: true };
  }
  const ctx = chunkContext(env, sessionId, options.phase, chunkHash);
  // At most MAX_PARTS parts, written a batch at a time with a yield between batches, so a large
  // output held in memory neither makes thousands of files nor keeps the deadline from firing
  // (PostToolUse hands one over INLINE_TEXT_CHARS to a job: what is redacted here at once is small).
  const parts = redactedParts(out.text);
  const meta = { uuids: [], timestamp: ctx.now, sidechain: false };
  let added = 0;
  for (let i = 0; i < parts.length; i += 8) {
    const batch = parts.slice(i, i + 8).map((text, k) => toolPartChunk(head, text, [i + k + 1, parts.length], meta, ctx));
    added += writeChunks(env.store, sessionId, batch, { hash: ctx.hash, fullOutput: true }).added;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { chunks: added, deferred: false, parts: parts.length };
}

/**
 * Writes a batch of a full output's parts; returns how many were new. A detached job passes one that
 * holds the session's cursor lock meanwhile: Stop or PreCompact may be archiving the same call from
 * the transcript at that moment, and each writer checks whether a part exists, then writes it.
 */
export type PartWriter = (env: SessionEnv, sessionId: string, chunks: Chunk[], hash: (identity: string) => string) => Promise<number>;

const writeParts: PartWriter = async (env, sessionId, chunks, hash) => writeChunks(env.store, sessionId, chunks, { hash, fullOutput: true }).added;

/** Archive a file-held output part by part: memory stays bounded by one part. */
export async function archiveFile(
  env: SessionEnv,
  job: Omit<FileJob, 'version' | 'kind'>,
  write: PartWriter = writeParts,
): Promise<{ written: number; parts: number }> {
  const size = statSafe(job.file)?.size ?? 0;
  const ctx = chunkContext(env, job.sessionId, job.phase, chunkHash);
  const meta = { uuids: [], timestamp: ctx.now, sidechain: false };
  const partBytes = partChars(size);
  const cuts = cutPoints(job.file, size, partBytes);
  let written = 0;
  for (const [i, start] of cuts.entries()) {
    const text = redactText(readRange(job.file, start, cuts[i + 1] ?? size));
    written += await write(env, job.sessionId, [toolPartChunk(job.call, text, [i + 1, cuts.length], meta, ctx)], ctx.hash);
    // Let timers (the hook's deadline) run between parts.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { written, parts: cuts.length };
}

/** How many parts an output's text is archived in, near enough for a stub (redaction may move a cut). */
const textParts = (text: string) => splitText(text, partChars(text.length));
/**
 * The parts an output's text is archived in: redacted whole, then split by its length before
 * redaction, as the transcript pass splits it (chunker.ts toolChunks), so the parts of every writer
 * of a call meet by id and text. Split first, a secret or `<private>` region that a cut crossed
 * kept its other half in clear, and a redaction that changed a part's length moved the next cut.
 */
const redactedParts = (text: string) => splitText(redactText(text), partChars(text.length));

/** Where a Read's text came from: its file, first line and line count (undefined for anything else). */
function readSource(call: ToolCallHead & { response: unknown }): { file: string; startLine: number; lines: number } | undefined {
  if (call.name !== 'Read') return undefined;
  const r = call.response as { type?: unknown; file?: { filePath?: unknown; startLine?: unknown; numLines?: unknown } } | null;
  const f = r?.file;
  if (r?.type !== 'text' || typeof f?.filePath !== 'string' || typeof f.numLines !== 'number') return undefined;
  return { file: f.filePath, startLine: typeof f.startLine === 'number' ? f.startLine : 1, lines: f.numLines };
}

/**
 * The file's stamp when it last changed before the call began (its text then is what the Read
 * returned); undefined when it may have changed meanwhile, or the call's start is unknown.
 */
function unchangedSince(file: string, startedAt: number | undefined): FileStamp | undefined {
  if (startedAt === undefined) return undefined;
  const st = statSafe(file);
  if (st?.isFile() !== true || Math.max(st.mtimeMs, st.ctimeMs) >= startedAt - CHANGE_SLACK_MS) return undefined;
  return { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs };
}

const sameStamp = (file: string, stamp: FileStamp) => {
  const st = statSafe(file);
  return st !== undefined && st.size === stamp.size && st.mtimeMs === stamp.mtimeMs && (stamp.ctimeMs === undefined || st.ctimeMs === stamp.ctimeMs);
};

/** A Read job's text: the same lines of the file, and whether they are still what the tool returned. */
function readJobText(job: ReadJob): { text: string; same: boolean } | undefined {
  // With a stamp, the file must keep it from before the read to after it.
  const stampedBefore = job.stat !== undefined && sameStamp(job.file, job.stat);
  const whole = readTextFile(job.file);
  if (whole === undefined) return undefined;
  const text = whole
    .split('\n')
    .slice(job.startLine - 1, job.startLine - 1 + job.lines)
    .join('\n');
  if (job.stat === undefined) return { text, same: chunkHash(text) === job.hash };
  return { text, same: stampedBefore && sameStamp(job.file, job.stat) && sampleHash(text) === job.hash };
}

/**
 * Archive a spooled output part by part: the detached half of a stubbed output. A spooled text is
 * already redacted; a Read's lines are read again, split as the hook split them, then redacted.
 */
export async function archiveSpooled(env: SessionEnv, job: TextJob | ReadJob, write: PartWriter = writeParts): Promise<{ written: number; parts: number }> {
  const ctx = chunkContext(env, job.sessionId, job.phase, chunkHash);
  const meta = { uuids: [], timestamp: ctx.now, sidechain: false };
  let parts: string[];
  // Spooled redacted; split by the length it had before (a job of an older version: by its own).
  if (job.kind === 'tool-text') parts = splitText(job.text, partChars(job.chars ?? job.text.length));
  else {
    const read = readJobText(job);
    if (read === undefined) {
      env.log.warn(`archive job: ${job.file} is gone; the Read ${job.call.toolUseId} could not be archived`);
      return { written: 0, parts: 0 };
    }
    // Edited in the second since it was read (rare): archived as it is now, and said so.
    if (!read.same) env.log.warn(`archive job: ${job.file} changed since Read ${job.call.toolUseId}; archived as it is now`);
    const note = read.same ? '' : '[context-lifecycle] The file changed between the Read and its archiving; this is its text a moment later.\n';
    parts = redactedParts(`${note}${read.text}`);
  }
  let written = 0;
  for (let i = 0; i < parts.length; i += 8) {
    const batch = parts.slice(i, i + 8).map((text, k) => toolPartChunk(job.call, text, [i + k + 1, parts.length], meta, ctx));
    written += await write(env, job.sessionId, batch, ctx.hash);
  }
  return { written, parts: parts.length };
}

/** The job of a persisted output. It outlives this process: nothing in it may be a secret in clear. */
function fileJob(env: SessionEnv, sessionId: string, phase: string | undefined, head: ToolCallHead, file: string): FileJob {
  return { version: JOB_VERSION, kind: 'tool-output', ...headJob(env, sessionId, phase), call: { ...head, input: redactInput(head.input) }, file };
}

function headJob(env: SessionEnv, sessionId: string, phase: string | undefined) {
  return { sessionId, projectRoot: env.project.root, phase: phase ?? 'unknown' };
}

function chunkContext(env: SessionEnv, sessionId: string, phase: string | undefined, hash: (s: string) => string): ChunkContext {
  return { session: sessionId, project: env.project.root, phase: phase ?? 'unknown', now: env.now().toISOString(), hash };
}

/** Where the client kept a tool's whole output (`persistedOutputPath` of a Bash result over 30,000 characters). */
export function persistedPathOf(structured: unknown): string | undefined {
  if (structured === null || typeof structured !== 'object') return undefined;
  const path = (structured as { persistedOutputPath?: unknown }).persistedOutputPath;
  return typeof path === 'string' && isAbsolute(path) ? path : undefined;
}

/**
 * Queue a job for a persisted output L2 does not hold whole, if its file is still there: no part
 * after the first (over 30,000 characters, it always has several) and no job of PostToolUse's.
 */
export function queuePersistedOutput(env: SessionEnv, sessionId: string, call: ToolCallHead & { file: string }, phase: string | undefined): void {
  if (call.toolUseId === '' || statSafe(call.file)?.isFile() !== true) return;
  if (pathExists(join(archiveDir(env.store, sessionId), `${toolPartId(chunkHash, sessionId, call.toolUseId, 1)}.md`))) return;
  const file = jobFile(env.store, sessionId, call.toolUseId);
  if (pathExists(file)) return;
  const { file: path, ...head } = call;
  env.store.writeJson(file, { ...fileJob(env, sessionId, phase, head, path), waiting: true } satisfies FileJob);
  env.log.info(`queued the persisted ${call.name} output ${call.toolUseId} (${path}) for archiving`);
}

/** Queue the job of a transcript line too long for a pass (once: a pass that meets it again finds the job). */
export function queueOversizeLine(
  env: SessionEnv,
  sessionId: string,
  line: { transcript: string; start: number; end: number; pending: ChunkerState['pending'] },
  phase: string | undefined,
): void {
  // Named by its transcript too: a subagent's transcript may have a long line at the same offset.
  const toolUseId = `line-${chunkHash(line.transcript).slice(0, 8)}-${line.start}`;
  const file = jobFile(env.store, sessionId, toolUseId);
  const mb = ((line.end - line.start) / 2 ** 20).toFixed(1);
  if (line.end - line.start > LINE_JOB_MAX_BYTES) {
    env.log.warn(`transcript ${line.transcript}: the ${mb} MB line at byte ${line.start} is over ${LINE_JOB_MAX_BYTES / 2 ** 20} MB; not archived`);
    return;
  }
  if (pathExists(file)) return;
  const job: LineJob = {
    version: JOB_VERSION,
    kind: 'transcript-line',
    ...headJob(env, sessionId, phase),
    call: { toolUseId, name: 'transcript-line', input: undefined, isError: false },
    transcript: line.transcript,
    start: line.start,
    end: line.end,
    pending: line.pending,
    waiting: true,
  };
  env.store.writeJson(file, job);
  env.log.warn(`transcript ${line.transcript}: the ${mb} MB line at byte ${line.start} is too long to read in a pass; queued for archiving`);
}

/** How far after a long line a job reads for the results of the calls it opened: message lines, bytes to a line's start. */
const FOLLOW_LINES = 200;
const FOLLOW_BYTES = 64 * 1024 * 1024;

/**
 * Archive a transcript line too long for a pass, as the pass would have (see LineJob). A call the
 * line opens (a Write carrying a big file) has its result on a later line, which the pass archived
 * without the call: the job reads on until those results and writes their chunks again, with the
 * call (`write(chunks, true)`: an unnamed chunk takes the call, a named one, such as the full output
 * PostToolUse archived, is kept). Returns the chunks `write` added; undefined when the line is no
 * longer there (the transcript was rewritten).
 */
export async function archiveTranscriptLine(
  env: SessionEnv,
  job: LineJob,
  write: (chunks: Chunk[], nameCall?: boolean) => Promise<number>,
): Promise<number | undefined> {
  const source = openRangeReader(job.transcript);
  if (source === undefined) return undefined;
  let bytes: Buffer;
  try {
    if (source.size < job.end) return undefined;
    bytes = source.read(job.start, job.end - job.start);
  } finally {
    source.close();
  }
  const parsed = parseLine(bytes.toString('utf8'));
  if (parsed === undefined) return undefined;
  const context = chunkContext(env, job.sessionId, job.phase, chunkHash);
  const state: ChunkerState = { pending: { ...job.pending } };
  const chunks = chunksFromEntries(parsed.entries, state, context);
  let added = chunks.length === 0 ? 0 : await write(chunks);
  const opened = new Set(Object.keys(state.pending).filter((id) => job.pending[id] === undefined));
  if (opened.size === 0) return added;
  const anchor = bytes.subarray(Math.max(0, bytes.length - 48)).toString('base64');
  const scan = await scanLines(job.transcript, { offset: job.end, anchor }, { maxLineBytes: LINE_JOB_MAX_BYTES });
  if (scan.reset !== undefined) return added;
  let seen = 0;
  for await (const batch of scan.lines) {
    for (const raw of batch) {
      if (opened.size === 0 || seen >= FOLLOW_LINES || raw.start - job.end > FOLLOW_BYTES) return added;
      const line = raw.text === undefined ? undefined : parseLine(raw.text);
      if (line === undefined || line.entries.length === 0) continue; // progress and other records do not count
      seen += 1;
      const results = line.entries.filter((e) => e.kind === 'tool-result' && opened.has(e.toolUseId));
      if (results.length === 0) continue;
      for (const e of results) if (e.kind === 'tool-result') opened.delete(e.toolUseId);
      const theirs = chunksFromEntries(results, state, context);
      if (theirs.length > 0) added += await write(theirs, true);
    }
  }
  return added;
}

/** A job untouched this long is taken for dead (its process crashed or never started). */
const STALE_JOB_MS = 60_000;
/** A job whose owner still runs is left to it this long (past that, its pid may be another's). */
const OWNED_JOB_MS = 30 * 60_000;

/**
 * Whether a job should be started (again): queued and never started, or its process is gone, or
 * (no owner known) it was left untouched for a minute.
 */
export function jobNeedsStart(job: ArchiveJob, ageMs: number): boolean {
  if (job.waiting === true) return true;
  if (job.owner !== undefined && job.handoff === true) return (processGone(job.owner) && ageMs >= HANDOFF_MS) || ageMs >= STALE_JOB_MS;
  if (job.owner !== undefined) return processGone(job.owner) || ageMs >= OWNED_JOB_MS;
  return ageMs >= STALE_JOB_MS;
}
/** How long a started job's process has to name itself owner (a Node start takes well under a second). */
const HANDOFF_MS = 10_000;
/** A queued job names a file; a bigger job file is a spooled text, never queued. */
const QUEUED_JOB_MAX_BYTES = 64 * 1024;
const MAX_ATTEMPTS = 3;

/**
 * Start, detached, the session's jobs that need it (see claimJobs). Stop and SessionEnd call it:
 * most turns find the folder empty.
 */
export async function startJobs(env: SessionEnv, sessionId: string, cliPath: string): Promise<number> {
  let started = 0;
  for (const { file, job } of claimJobs(env, sessionId)) {
    await spawnJob(env, file, job, cliPath);
    started += 1;
  }
  return started;
}

/**
 * The session's jobs to start now (queued, or their process gone, or untouched too long), each
 * counted as one more attempt; one that failed three times is set aside instead. Stop and
 * SessionEnd start them detached; `ctxl ingest` runs them. Without a session: every session's
 * (`ctxl run-jobs`, which SessionStart starts for jobs their own session may never come back to).
 */
export function claimJobs(env: SessionEnv, sessionId?: string): Array<{ file: string; job: ArchiveJob }> {
  const dir = env.store.path('jobs');
  const out: Array<{ file: string; job: ArchiveJob }> = [];
  for (const name of listDir(dir)) {
    if ((sessionId !== undefined && !name.startsWith(`${sessionId}-`)) || !name.endsWith('.json')) continue;
    const file = join(dir, name);
    const st = statSafe(file);
    if (st === undefined) continue;
    const age = env.now().getTime() - st.mtimeMs;
    // A big job file is a spooled text: a fresh one is read only when its owner is gone (the owner
    // leads the file, so its head says).
    if (age < STALE_JOB_MS && st.size > QUEUED_JOB_MAX_BYTES) {
      const owner = ownerInHead(file);
      if (owner === undefined || !processGone(owner)) continue;
    }
    let job: ArchiveJob;
    try {
      job = JSON.parse(readTextFile(file) ?? '') as ArchiveJob;
    } catch {
      // Being replaced right now (writes are atomic renames, so rarely), or damaged: a file still
      // unreadable a minute after its last change is set aside, or every SessionStart would start
      // `ctxl run-jobs` for it.
      if (age >= STALE_JOB_MS && pathExists(file)) {
        renamePath(file, `${file}.bad-${env.now().toISOString().replace(/[:.]/g, '-')}`);
        env.log.warn(`archive job ${file} is not readable JSON; set aside`);
      }
      continue;
    }
    if (!jobNeedsStart(job, age)) continue;
    // A run that died after it archived more parts made progress (killed, out of memory, its machine
    // slept): only runs that added nothing count towards setting the job aside.
    const parts = partsOnDisk(env, job);
    const attempts = parts > (job.parts ?? 0) ? 1 : (job.attempts ?? 0) + 1;
    if (attempts > MAX_ATTEMPTS) {
      renamePath(file, `${file}.bad-${env.now().toISOString().replace(/[:.]/g, '-')}`);
      env.log.warn(`archive job ${file} failed ${MAX_ATTEMPTS} times; set aside`);
      continue;
    }
    const claimed = handedOff({ ...withoutRunState(job), attempts, parts } as ArchiveJob);
    env.store.writeJson(file, claimed);
    out.push({ file, job: claimed });
  }
  return out;
}

/** A job as its process `owner` works on it: the owner first, so a reader of a big job file finds it in the head. */
export function ownedJob(job: ArchiveJob, owner: { host: string; pid: number }): ArchiveJob {
  return { owner, ...withoutRunState(job) } as ArchiveJob;
}

/** A job as the process that starts its process writes it: that process its owner until the job's own takes over. */
function handedOff(job: ArchiveJob): ArchiveJob {
  return { ...ownedJob(job, thisProcess()), handoff: true } as ArchiveJob;
}

/** A job without its queued mark and its owner. */
function withoutRunState(job: ArchiveJob): Omit<ArchiveJob, 'waiting' | 'owner' | 'handoff'> {
  const { waiting: _waiting, owner: _owner, handoff: _handoff, ...rest } = job;
  return rest;
}

/** How many parts of a tool output job's output are on disk, from the first on (a transcript line's job: 0). */
function partsOnDisk(env: SessionEnv, job: ArchiveJob): number {
  if (job.kind === 'transcript-line') return 0;
  const dir = archiveDir(env.store, job.sessionId);
  let k = 0;
  while (k < MAX_PARTS && pathExists(join(dir, `${toolPartId(chunkHash, job.sessionId, job.call.toolUseId, k)}.md`))) k += 1;
  return k;
}

/** The owner at the head of a job file, read without the rest (a spooled text job is large). */
function ownerInHead(file: string): { host: string; pid: number } | undefined {
  const source = openRangeReader(file);
  if (source === undefined) return undefined;
  let head: string;
  try {
    head = source.read(0, Math.min(source.size, 512)).toString('utf8');
  } finally {
    source.close();
  }
  const m = /^\{"owner":\{"host":("(?:[^"\\]|\\.)*"),"pid":(\d+)\}/.exec(head);
  if (m === null) return undefined;
  try {
    return { host: JSON.parse(m[1] as string) as string, pid: Number(m[2]) };
  } catch {
    return undefined;
  }
}

/** The job that holds a ref's output (any of its parts) while it waits to be archived, if any. */
export function pendingJobFor(store: SessionEnv['store'], ref: string, hash: (s: string) => string): { file: string; job: ArchiveJob } | undefined {
  const dir = store.path('jobs');
  for (const name of listDir(dir)) {
    if (!name.endsWith('.json')) continue;
    try {
      const job = JSON.parse(readTextFile(join(dir, name)) ?? '') as ArchiveJob;
      for (let k = 0; k < MAX_PARTS; k++) if (toolPartId(hash, job.sessionId, job.call.toolUseId, k) === ref) return { file: join(dir, name), job };
    } catch {}
  }
  return undefined;
}

export const jobFile = (store: SessionEnv['store'], sessionId: string, toolUseId: string) => store.path('jobs', `${sessionId}-${toolUseId}.json`);

/** Write the job next to the session's files and start `node <cli> run-job <file>` detached. */
async function startJob(env: SessionEnv, job: ArchiveJob, cliPath: string): Promise<void> {
  const file = jobFile(env.store, job.sessionId, job.call.toolUseId);
  env.store.writeJson(file, handedOff(job));
  await spawnJob(env, file, job, cliPath);
}

async function spawnJob(env: SessionEnv, file: string, job: ArchiveJob, cliPath: string): Promise<void> {
  // A small heap keeps a file job's memory bounded by one part (116 MB of output: 77 MB peak RSS);
  // a Read or spooled job holds its whole text (the client's Read and Grep outputs are bounded); a
  // transcript line's job parses up to LINE_JOB_MAX_BYTES at once.
  const heap = job.kind === 'tool-output' ? 48 : job.kind === 'transcript-line' ? 1024 : 192;
  try {
    await spawnDetached(process.execPath, [`--max-old-space-size=${heap}`, '--max-semi-space-size=4', cliPath, 'run-job', file], process.env);
  } catch (error) {
    // The job file stays: a later Stop starts it again.
    env.log.warn(`could not start the archive job ${file}`, error);
    return;
  }
  const what =
    job.kind === 'tool-text'
      ? `a ${job.text.length}-character ${job.call.name} output`
      : job.kind === 'transcript-line'
        ? `the line at byte ${job.start} of ${job.transcript}`
        : job.file;
  env.log.info(`archiving ${what} in the background (${file})`);
}
