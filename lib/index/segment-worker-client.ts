// The main thread's side of dist/programs/segment-worker.mjs (see there). Used by `ctxl ingest` only: a
// worker costs ~20 ms to start, which a hook or a small transcript would not win back. Any failure
// (no bundle next to this one, a worker that died or does not answer) just means the caller builds
// the segment itself, as it always could.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { Chunk } from '../archive/chunk-file.ts';
import type { IndexInput } from './builder.ts';
import type { SegmentWorkerData, SegmentWorkerReply, SegmentWorkerRequest } from './segment-worker.ts';

/** Chunks sent in one message. */
const BATCH = 32;
/** Chunks the worker holds at most (about 2 KB of counts each); more are built by the main thread. */
const MAX_DOCS = 50_000;
/**
 * How long a segment may take the worker before the main thread builds it itself. The caller holds
 * the index lock meanwhile, so this stays well below the lock's staleness (60 s): a dead worker is
 * only noticed by this timeout.
 */
const REPLY_MS = 10_000;

export interface SegmentWorker {
  /** A chunk as written, to count now. */
  add(chunk: Chunk): void;
  /** The segment of these chunks, in this order, or undefined (build it yourself). */
  encode(chunks: readonly Chunk[]): Uint8Array | undefined;
  /** Forget every chunk sent (a transcript is done: what was not asked for will be read from disk). */
  reset(): void;
  /** Segments laid out by the worker, and those it left to the caller. */
  readonly counts: { built: number; declined: number };
  close(): void;
}

/** The worker bundle beside this one (dist/), or undefined when running from sources. */
function segmentWorkerFile(): string | undefined {
  try {
    const file = fileURLToPath(new URL('./programs/segment-worker.mjs', import.meta.url));
    return existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

/** `onProblem` hears why the worker stopped (it failed, exited or did not answer). */
export function startSegmentWorker(file = segmentWorkerFile(), onProblem: (why: string) => void = () => {}): SegmentWorker | undefined {
  if (file === undefined || !existsSync(file)) return undefined;
  let worker: Worker | undefined;
  let port: MessagePort;
  const shared = new SharedArrayBuffer(4);
  const done = new Int32Array(shared);
  try {
    const channel = new MessageChannel();
    const data: SegmentWorkerData = { state: shared, replies: channel.port2, maxDocs: MAX_DOCS };
    worker = new Worker(file, { workerData: data, transferList: [channel.port2] });
    worker.unref();
    // A worker that failed or exited is not waited for (seen between transcripts; while this thread
    // waits for a reply, only the reply timeout can tell).
    worker.on('error', (error) => stop(`failed: ${error.message}`));
    worker.on('exit', (code) => stop(code === 0 || closing ? undefined : `exited with ${code}`));
    port = channel.port1;
    port.unref();
  } catch {
    return undefined;
  }
  let batch: IndexInput[] = [];
  let seq = 0;
  let closing = false;
  const counts = { built: 0, declined: 0 };
  // The chunk objects sent, by id: a segment asked for with another copy of a chunk (read back from
  // disk, rewritten meanwhile) is not the worker's to lay out.
  const sent = new Map<string, Chunk>();
  const nap = new Int32Array(new SharedArrayBuffer(4));
  const post = (message: SegmentWorkerRequest): boolean => {
    try {
      worker?.postMessage(message);
      return worker !== undefined;
    } catch (error) {
      stop(`could not be sent a message: ${(error as Error).message}`);
      return false;
    }
  };
  const flush = () => {
    if (batch.length === 0) return;
    post({ t: 'add', chunks: batch });
    batch = [];
  };
  const stop = (why?: string) => {
    if (worker === undefined) return;
    if (why !== undefined) onProblem(why);
    closing = true;
    void worker.terminate();
    worker = undefined;
    sent.clear();
  };
  const reply = (want: number): SegmentWorkerReply | undefined => {
    const until = Date.now() + REPLY_MS;
    while (Atomics.load(done, 0) < want) {
      const left = until - Date.now();
      if (left <= 0) return undefined;
      Atomics.wait(done, 0, Atomics.load(done, 0), Math.min(left, 1_000));
    }
    for (let tries = 0; tries < 100; tries++) {
      const got = receiveMessageOnPort(port)?.message as SegmentWorkerReply | undefined;
      if (got !== undefined && got.seq === want) return got;
      if (got === undefined) Atomics.wait(nap, 0, 0, 1); // posted, not yet delivered
    }
    return undefined;
  };

  return {
    add(chunk) {
      if (worker === undefined) return;
      const { id, session, project, type, tool, phase, timestamp, files, keywords, text } = chunk;
      const input: IndexInput = { id, session, project, type, phase, timestamp, files, keywords, text };
      if (tool !== undefined) input.tool = tool;
      sent.set(id, chunk);
      batch.push(input);
      if (batch.length >= BATCH) flush();
    },
    encode(chunks) {
      if (worker === undefined) return undefined;
      if (!chunks.every((c) => sent.get(c.id) === c)) {
        counts.declined += 1;
        return undefined;
      }
      flush();
      seq += 1;
      if (!post({ t: 'encode', seq, ids: chunks.map((c) => c.id) })) return undefined;
      const got = reply(seq);
      if (got === undefined || got.error !== undefined) {
        // Late or broken: it would only be waited for again.
        stop(got === undefined ? `gave no answer in ${REPLY_MS / 1000} s` : `failed: ${got.error}`);
        return undefined;
      }
      for (const c of chunks) sent.delete(c.id);
      if (got.bytes === undefined) counts.declined += 1;
      else counts.built += 1;
      return got.bytes;
    },
    reset() {
      if (worker === undefined) return;
      batch = [];
      sent.clear();
      post({ t: 'reset' });
    },
    counts,
    close() {
      stop();
    },
  };
}
