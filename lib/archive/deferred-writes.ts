// Chunk files written by a worker thread while the main thread goes on parsing and chunking: a
// backfill creates thousands of small files, and each create costs a syscall round trip that the
// main thread would otherwise wait out. Used by `ctxl ingest` only (a hook writes a few files; a
// worker would cost more to start than it saves).
//
// Order and crash safety stay those of direct writes: the caller lists a chunk in the catalog before
// handing it over, and calls drain() before it records progress (the cursor), so a crash can only
// leave a listed chunk without its file, which the index already tolerates.
import { readdirSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { ChunkWriter } from './archive-store.ts';
import type { Chunk } from './chunk-file.ts';

/** Files handed to the worker in one message. */
const BATCH = 32;
/** Below this many files per process, the worker is not started: direct writes are cheaper. */
const START_AFTER = 64;
/** Files queued before the main thread waits for the worker (bounds the memory held). */
const MAX_QUEUED = 4096;

// Plain CommonJS for `eval: true`. state[0] counts files done, state[1] failures. Each file is
// written to a temporary name and renamed, as writeFileAtomic does.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const fs = require('node:fs');
const state = new Int32Array(workerData.state);
const errors = workerData.errors;
let n = 0;
parentPort.on('message', (batch) => {
  for (const [file, text] of batch) {
    const tmp = file + '.' + process.pid + '.w' + (++n) + '.tmp';
    try {
      const fd = fs.openSync(tmp, 'w', 0o600);
      try { fs.writeSync(fd, text); } finally { fs.closeSync(fd); }
      fs.renameSync(tmp, file);
    } catch (error) {
      try { fs.unlinkSync(tmp); } catch {}
      Atomics.add(state, 1, 1);
      errors.postMessage(file + ': ' + (error && error.message));
    }
    Atomics.add(state, 0, 1);
    Atomics.notify(state, 0);
  }
});
`;

export interface DeferredWriter extends ChunkWriter {
  /**
   * Whether the files that follow may go to the worker (default yes). A small transcript's pass
   * writes its own: it drains before it saves its cursor, so the hand-over would only add a wait.
   */
  threaded(on: boolean): void;
  /** Wait for every queued file; returns the failures ("file: reason") since the last drain. */
  drain(): string[];
  /** Drain, then stop the worker. */
  close(): string[];
}

/**
 * `direct` writes a file on the calling thread (used until the worker pays off, when threaded(false)
 * and as fallback); the worker starts once more than START_AFTER files were written.
 */
export function deferredWriter(direct: (file: string, text: string) => void): DeferredWriter {
  const pending = new Map<string, Chunk>();
  // Names in each chunk folder, listed once per pass: with the worker creating files in that folder,
  // a stat per chunk waits on the folder's lock (it cost more than the writes saved). Each pass
  // holds the session's cursor lock, so writers of other processes wait for it; between passes
  // they may add files, so each pass lists again (forget()).
  const listed = new Map<string, Set<string>>();
  const names = (dir: string): Set<string> => {
    let set = listed.get(dir);
    if (set === undefined) {
      try {
        set = new Set(readdirSync(dir));
      } catch {
        set = new Set();
      }
      listed.set(dir, set);
    }
    return set;
  };
  const order: string[] = [];
  let batch: Array<[string, string]> = [];
  let worker: Worker | undefined;
  let state: Int32Array | undefined;
  let errorPort: MessagePort | undefined;
  let posted = 0;
  let retired = 0; // files of `order` already done and dropped from `pending`
  let directFailures: string[] = [];
  let written = 0;
  let useWorker = true;

  const start = (): boolean => {
    try {
      const shared = new SharedArrayBuffer(8);
      const channel = new MessageChannel();
      worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { state: shared, errors: channel.port2 }, transferList: [channel.port2] });
      worker.unref();
      state = new Int32Array(shared);
      errorPort = channel.port1;
      errorPort.unref();
      return true;
    } catch {
      return false;
    }
  };
  const retire = () => {
    const done = state === undefined ? posted : Atomics.load(state, 0);
    while (retired < done) {
      pending.delete(order[retired] as string);
      retired += 1;
    }
    if (retired === order.length) {
      order.length = 0;
      posted -= retired;
      if (state !== undefined) Atomics.sub(state, 0, retired);
      retired = 0;
    }
  };
  const post = () => {
    if (batch.length === 0 || worker === undefined) return;
    worker.postMessage(batch);
    posted += batch.length;
    batch = [];
  };
  const waitFor = (count: number) => {
    if (state === undefined) return;
    for (;;) {
      const done = Atomics.load(state, 0);
      if (done >= count) return;
      Atomics.wait(state, 0, done, 1000);
    }
  };
  const failures = (): string[] => {
    const out = directFailures;
    directFailures = [];
    if (errorPort !== undefined) {
      for (let m = receiveMessageOnPort(errorPort); m !== undefined; m = receiveMessageOnPort(errorPort)) out.push(String(m.message));
    }
    return out;
  };

  return {
    pending,
    threaded(on) {
      useWorker = on;
    },
    forget() {
      listed.clear();
    },
    exists(file) {
      return names(dirname(file)).has(basename(file));
    },
    write(file, text, chunk) {
      names(dirname(file)).add(basename(file));
      written += 1;
      if (!useWorker || (worker === undefined && (written <= START_AFTER || !start()))) {
        try {
          direct(file, text);
        } catch (error) {
          directFailures.push(`${file}: ${(error as Error).message}`);
        }
        return;
      }
      pending.set(file, chunk);
      order.push(file);
      batch.push([file, text]);
      if (batch.length >= BATCH) post();
      if (posted - retired >= MAX_QUEUED) {
        waitFor(posted - MAX_QUEUED / 2);
        retire();
      }
    },
    drain() {
      post();
      waitFor(posted);
      retire();
      return failures();
    },
    close() {
      const out = this.drain();
      void worker?.terminate();
      worker = undefined;
      return out;
    },
  };
}
