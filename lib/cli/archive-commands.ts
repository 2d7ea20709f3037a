// `ctxl ingest`: transcripts into the archive from the command line, with exactly the code the hooks
// use (reindex-command.ts rebuilds the index, job-commands.ts runs archive jobs).
import { closeSync, openSync, readSync } from 'node:fs';
import { basename, join } from 'node:path';
import { catalogFile, listChunkIds } from '../archive/archive-store.ts';
import type { Chunk } from '../archive/chunk-file.ts';
import { validTime } from '../archive/chunker.ts';
import { type DeferredWriter, deferredWriter } from '../archive/deferred-writes.ts';
import { refreshIndex } from '../index/refresh.ts';
import { type SegmentWorker, startSegmentWorker } from '../index/segment-worker-client.ts';
import { catchUpWithPhase } from '../phase/ledgers.ts';
import { readPhaseFile } from '../phase/phase-store.ts';
import { replayPhases } from '../phase/replay.ts';
import { loadConfig } from '../runtime/config.ts';
import { configDir, type Env, sanitizeName } from '../runtime/paths.ts';
import { findProjectRoot, listDir, readTextFile, statSafe, writeFileAtomic } from '../runtime/store.ts';
import { catchUpSession, readCursor, type SessionEnv, subagentTranscripts, touchSession } from '../session/session-files.ts';
import { claimJobs } from '../session/tool-archive.ts';
import { UsageError } from './args.ts';
import type { CliEnv } from './cli-runtime.ts';
import { runJob } from './job-commands.ts';

export interface IngestSummary {
  sessions: number;
  chunksAdded: number;
  chunksTotal: number;
}

/** What `ctxl ingest` did, and the transcripts it could not archive (their session stayed locked). */
export interface IngestResult {
  summary: IngestSummary;
  busy: string[];
}

/** What the first lines of a transcript say: its session id and cwd, and whether it holds a message. */
interface TranscriptIdentity {
  sessionId?: string;
  cwd?: string;
  /** A user or assistant line was seen: a transcript, even with no session id (then the file name's). */
  messages?: boolean;
  /** The first valid timestamp of the lines read: when the session started. */
  firstAt?: string;
}

/** Session id and cwd as the transcript records them (first lines that carry them). */
function transcriptIdentity(file: string): TranscriptIdentity {
  const found: TranscriptIdentity = {};
  // Both are on the first lines of a transcript: read in 64 KB steps (no stream and no readline to
  // load for it), over the first 4 MB of lines at most. A line longer than LONG_LINE_BYTES (a pasted
  // log as the first prompt) is skipped, not decoded: the lines after it name the session too.
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(64 * 1024);
    // Bytes of a line not complete yet: decoded once it is (a long first line is not re-split).
    let rest: Buffer[] = [];
    let restBytes = 0;
    let skipping = false;
    let decoded = 0;
    // The start of each long line passed over: its keys before `message` name the session too.
    const heads: string[] = [];
    for (let position = 0; decoded < IDENTITY_SCAN_BYTES && position < SKIP_SCAN_BYTES; ) {
      const n = readSync(fd, buffer, 0, buffer.length, position);
      if (n === 0) break;
      position += n;
      let piece = Buffer.from(buffer.subarray(0, n));
      if (skipping) {
        const end = piece.indexOf(0x0a);
        if (end === -1) continue;
        // The long line ends here: the next line starts after its newline.
        skipping = false;
        piece = piece.subarray(end + 1);
      }
      const last = piece.lastIndexOf(0x0a);
      if (last === -1) {
        rest.push(piece);
        restBytes += piece.length;
        if (restBytes > LONG_LINE_BYTES) {
          if (heads.length < 4) heads.push(Buffer.concat(rest).subarray(0, HEAD_BYTES).toString('utf8'));
          skipping = true;
          rest = [];
          restBytes = 0;
        }
        continue;
      }
      const whole = Buffer.concat([...rest, piece.subarray(0, last)]);
      decoded += whole.length;
      rest = [piece.subarray(last + 1)];
      restBytes = rest[0]?.length ?? 0;
      for (const line of whole.toString('utf8').split('\n')) if (noteIdentity(line, found)) return found;
    }
    if (!skipping) noteIdentity(Buffer.concat(rest).toString('utf8'), found);
    for (const head of heads) noteHead(head, found);
  } finally {
    closeSync(fd);
  }
  return found;
}

/** Bytes of a long line kept for its top-level keys. */
const HEAD_BYTES = 64 * 1024;

/**
 * What the start of a line too long to parse says, for what its whole lines did not: the client
 * writes sessionId and cwd before message, so they are read there and nowhere after it (the
 * message may quote another transcript).
 */
function noteHead(head: string, found: TranscriptIdentity): void {
  const at = head.indexOf('"message"');
  const keys = at === -1 ? head : head.slice(0, at);
  const value = (key: string): string | undefined => {
    const m = new RegExp(`"${key}"\\s*:\\s*("(?:[^"\\\\]|\\\\.){1,4096}")`).exec(keys);
    try {
      const v = m?.[1] === undefined ? undefined : (JSON.parse(m[1]) as string);
      return v === '' ? undefined : v;
    } catch {
      return undefined;
    }
  };
  const sessionId = found.sessionId ?? value('sessionId');
  const cwd = found.cwd ?? value('cwd');
  if (sessionId !== undefined) found.sessionId = sessionId;
  if (cwd !== undefined) found.cwd = cwd;
  if (/"type"\s*:\s*"(?:user|assistant)"/.test(keys) && at !== -1) found.messages = true;
}

const IDENTITY_SCAN_BYTES = 4 * 1024 * 1024;
/** A line longer than this is passed over by the identity scan (read, not decoded). */
const LONG_LINE_BYTES = 1024 * 1024;
/** How far the scan reads at most, long lines passed over included. */
const SKIP_SCAN_BYTES = 256 * 1024 * 1024;

/** Notes what a line says; true once the session id and cwd are both known. */
function noteIdentity(line: string, found: TranscriptIdentity): boolean {
  try {
    const v = JSON.parse(line) as { sessionId?: unknown; cwd?: unknown; type?: unknown; message?: unknown; timestamp?: unknown };
    if (found.sessionId === undefined && typeof v.sessionId === 'string' && v.sessionId !== '') found.sessionId = v.sessionId;
    if (found.cwd === undefined && typeof v.cwd === 'string' && v.cwd !== '') found.cwd = v.cwd;
    if ((v.type === 'user' || v.type === 'assistant') && typeof v.message === 'object' && v.message !== null) found.messages = true;
    const at = found.firstAt === undefined && typeof v.timestamp === 'string' ? validTime(v.timestamp) : undefined;
    if (at !== undefined) found.firstAt = at;
  } catch {}
  return found.sessionId !== undefined && found.cwd !== undefined;
}

/** A transcript (with its subagents') under this many bytes is written without the writer thread. */
const WRITER_MIN_BYTES = 2 * 1024 * 1024;

/** Chunks written before `ctxl ingest` brings the index up to date (a segment's worth). */
const INDEX_BATCH_CHUNKS = 4_000;

/** Chunks of one transcript that start the segment worker (fewer are indexed faster than it starts). */
const SEGMENT_WORKER_CHUNKS = 512;

interface SegmentWorkerSlot {
  worker?: SegmentWorker | undefined;
  started?: boolean;
}

/** How long `ctxl ingest` waits for a session a hook or another ingest is archiving. */
const INGEST_LOCK_WAIT_MS = 30_000;

export interface IngestOptions {
  cwd?: string | undefined;
  ledgers?: boolean;
  /** How long a session's lock is waited for before the transcript is reported busy. */
  lockWaitMs?: number;
}

export async function ingestFiles(cli: CliEnv, files: readonly string[], options: IngestOptions): Promise<IngestResult> {
  const touched = new Set<string>();
  const busy: string[] = [];
  let added = 0;
  const writer = deferredWriter((file, text) => writeFileAtomic(file, text));
  const segments: SegmentWorkerSlot = {};
  try {
    added = await ingestEach(cli, files, options, touched, busy, writer, segments);
  } finally {
    const counts = segments.worker?.counts;
    if (counts !== undefined) cli.log.debug(`ingest: ${counts.built} index segments laid out by the worker, ${counts.declined} by the main thread`);
    segments.worker?.close();
    for (const failure of writer.close()) cli.log.warn(`archive: could not write ${failure}`);
  }
  if (cli.isTTY && files.length > 0) cli.err('\n');
  let total = 0;
  for (const id of touched) total += listChunkIds(cli.store, id).length;
  return { summary: { sessions: touched.size, chunksAdded: added, chunksTotal: total }, busy };
}

async function ingestEach(
  cli: CliEnv,
  files: readonly string[],
  options: IngestOptions,
  touched: Set<string>,
  busy: string[],
  writer: DeferredWriter,
  segments: SegmentWorkerSlot,
): Promise<number> {
  let added = 0;
  // The chunks written since the index was last brought up to date, handed to it (not read back).
  // It is brought up to date after a transcript the segment worker counted (the worker holds its
  // chunks), once a batch of chunks waits, and at the end: a refresh per small session (a segment,
  // the manifest and merges each time) cost more than archiving it.
  const known = new Map<string, Chunk>();
  // Each session's catalog size when its pass ended. One that grew since (an archive job, or another
  // process, rewrote a chunk and listed it again) is read back from disk: a text held here may be
  // older (a persisted output's preview where the job wrote the full text).
  const passEnds = new Map<string, number>();
  const run: IngestRun = { cli, options, writer, segments, touched, busy, known, passEnds };
  const refresh = async () => {
    let changed = false;
    for (const [id, size] of passEnds) {
      if ((statSafe(catalogFile(cli.store, id))?.size ?? 0) === size) continue;
      changed = true;
      for (const [chunkId, chunk] of known) if (chunk.session === id) known.delete(chunkId);
    }
    if (changed) segments.worker?.reset(); // it counted the same texts
    await refreshIndex(cli.store, cli.log, { known, prebuilt: segments.worker?.encode });
    // What the refresh did not ask for (it stopped early) will be read back from disk next time.
    segments.worker?.reset();
    known.clear();
    passEnds.clear();
  };
  try {
    for (const [i, file] of files.entries()) {
      if (cli.isTTY) cli.err(`\r[${i + 1}/${files.length}] ${basename(file).slice(0, 60).padEnd(60)}`);
      if (statSafe(file)?.isFile() !== true) {
        if (files.length === 1) throw new UsageError(`cannot read ${file}`);
        cli.log.warn(`ingest: cannot read ${file}; skipped`);
        continue;
      }
      // Under 2 MB (a few hundred chunks), the writer thread costs more than the writes it takes over:
      // the pass waits for them before it saves its cursor (274 chunks of a real session: 10% faster
      // without it; 150 sessions of 16 chunks each: 11%).
      const bytes = transcriptBytes(file);
      writer.threaded(bytes >= WRITER_MIN_BYTES);
      // Chunks waiting are indexed first: the segment worker a large transcript starts lays out
      // batches of the chunks it counted, and declines a batch mixed with others.
      if (bytes >= WRITER_MIN_BYTES && known.size > 0) await refresh();
      // A file where no line names a session and none is a message is no transcript (a stray .json,
      // a file of bookkeeping lines only): said, and no session is made up for it. Messages with no
      // session id are the file name's session. Only a file read whole can be told apart so.
      const identity = transcriptIdentity(file);
      if (identity.sessionId === undefined && identity.messages !== true && (statSafe(file)?.size ?? 0) <= IDENTITY_SCAN_BYTES) {
        if (files.length === 1) throw new UsageError(`not a Claude Code transcript (no line names a session or holds a message): ${file}`);
        cli.log.info(`ingest: ${file} has no line that names a session or holds a message; skipped`);
        continue;
      }
      added += await ingestTranscript(run, file, identity);
      if (segments.worker !== undefined || known.size >= INDEX_BATCH_CHUNKS) await refresh();
    }
  } catch (error) {
    // The transcripts done so far are indexed all the same (else the next search pays for it).
    await refresh().catch((e: unknown) => cli.log.warn('ingest: could not bring the index up to date', e));
    throw error;
  }
  // Also what the archive jobs wrote, and what other processes did meanwhile.
  await refresh();
  return added;
}

/** What one `ctxl ingest` run shares between its transcripts. */
interface IngestRun {
  cli: CliEnv;
  options: IngestOptions;
  writer: DeferredWriter;
  segments: SegmentWorkerSlot;
  touched: Set<string>;
  busy: string[];
  /** Chunks written since the index was last brought up to date. */
  known: Map<string, Chunk>;
  /** Each session's catalog size when its pass ended. */
  passEnds: Map<string, number>;
}

/** Archive one transcript (its subagents' too) and run its session's archive jobs; returns the chunks added. */
async function ingestTranscript(run: IngestRun, file: string, identity: TranscriptIdentity): Promise<number> {
  const { cli, options, writer, segments, touched, busy, known, passEnds } = run;
  const sessionId = sanitizeName(identity.sessionId ?? basename(file, '.jsonl'));
  const cwd = options.cwd ?? identity.cwd ?? process.cwd();
  const project = findProjectRoot(cwd);
  const written = new Map<string, Chunk>();
  const sink = (_session: string, chunk: Chunk) => {
    written.set(chunk.id, chunk);
    known.set(chunk.id, chunk);
    if (segments.worker !== undefined) segments.worker.add(chunk);
    else if (segments.started !== true && written.size >= SEGMENT_WORKER_CHUNKS) {
      // Enough chunks that counting their terms on a worker pays for starting it: from here on,
      // the worker counts while this thread goes on chunking.
      segments.started = true;
      segments.worker = startSegmentWorker(undefined, (why) => cli.log.info(`ingest: the index worker stopped (${why}); the main thread indexes the rest`));
      for (const c of written.values()) segments.worker?.add(c);
    }
  };
  // The cursor lock is waited for half the time left, as in a hook.
  const lockWait = options.lockWaitMs ?? INGEST_LOCK_WAIT_MS;
  const env: SessionEnv = { store: cli.store, log: cli.log, now: () => cli.now, project, sink, writer, timeLeft: () => 2 * lockWait };
  // When the transcript ran, not now (after `ingest --all`, `ctxl status` took the last session
  // ingested for the project's latest): from its first entry here, to its last after the pass.
  // The file's last write only stands in for a transcript without times (a copy resets it).
  const start = identity.firstAt ?? statSafe(file)?.mtime.toISOString();
  await touchSession(env, { sessionId, cwd, transcriptPath: file, seen: start === undefined ? undefined : { first: start, last: start } });
  let added = 0;
  if (options.ledgers === true) {
    // Phases and ledgers first, so the archive below tags each chunk with the phase it was said in.
    const config = loadConfig({
      env: cli.env,
      userText: readTextFile(join(cli.store.root, 'config.json')),
      projectText: readTextFile(join(project.root, '.claude', 'context-lifecycle.json')),
    }).config;
    // A ledger's L2 chunk is written by the phase code, past the sink: counted by the files it added.
    const before = listChunkIds(cli.store, sessionId).length;
    const ledgers = await replayPhases({ ...env, config }, sessionId, file);
    if (ledgers.length > 0) {
      cli.log.info(`ingest: ${ledgers.length} ledgers for ${sessionId}`);
      added += listChunkIds(cli.store, sessionId).length - before;
    }
  }
  // A session with phases (tracked by the hooks, or just replayed) gets its chunks tagged and its
  // facts read as the hooks would (they may not see these lines again).
  const tracked = readPhaseFile(cli.store, sessionId, cli.log, cli.now) !== undefined;
  const result = tracked ? await catchUpWithPhase(env, sessionId, file) : await catchUpSession(env, sessionId, file);
  // Undefined: the session's cursor stayed locked for the whole wait (a live hook or ingest holds
  // it), so nothing of this transcript was archived. Said, not counted as done.
  if (result === undefined) busy.push(file);
  else {
    touched.add(sessionId);
    const last = readCursor(cli.store, sessionId, cli.log, cli.now)?.chunker?.lastTime;
    if (last !== undefined) await touchSession(env, { sessionId, cwd, seen: { first: identity.firstAt ?? last, last } });
  }
  added += result?.archived.added ?? 0;
  passEnds.set(sessionId, statSafe(catalogFile(cli.store, sessionId))?.size ?? 0);
  // The session's archive jobs to run: persisted outputs the pass found only as previews (archived
  // whole from the client's files), and any whose process died. A failed one counts an attempt.
  for (const { file: job } of claimJobs(env, sessionId)) {
    try {
      added += (await runJob(cli, job)) ?? 0;
    } catch (error) {
      cli.log.warn(`ingest: ${job} could not run now; a later Stop or ingest runs it again`, error);
    }
  }
  return added;
}

/** The bytes a pass over this transcript reads: its own and its subagents' transcripts. */
export function transcriptBytes(file: string): number {
  let bytes = statSafe(file)?.size ?? 0;
  for (const agent of subagentTranscripts(file, basename(file, '.jsonl'))) bytes += statSafe(agent.file)?.size ?? 0;
  return bytes;
}

/** Every transcript under <config>/projects/, subagent transcripts left to their parent sessions. */
export function allTranscripts(env: Env): string[] {
  const root = join(configDir(env), 'projects');
  const out: string[] = [];
  for (const project of listDir(root)) {
    for (const name of listDir(join(root, project))) if (name.endsWith('.jsonl')) out.push(join(root, project, name));
  }
  return out.sort();
}

/**
 * Rebuild the index from the chunk files. There is one index for the data dir, so it is rebuilt
 * whole; the counts are those of the project asked about (or of all with --all).
 */
