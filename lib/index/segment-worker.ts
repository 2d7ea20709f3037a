// The worker side of `ctxl ingest`'s index building (bundled as dist/programs/segment-worker.mjs). Tokenizing
// and counting the terms of every chunk is most of an index build; here it runs while the main
// thread is still parsing and chunking the transcript. The main thread sends each chunk as it is
// written, then asks for the segment of a list of ids, in order; the answer is the bytes the main
// thread would have built itself (the same SegmentBuilder lays them out), or `missing` when this
// worker does not hold every one of those chunks (the caller then builds the segment itself).
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';
import { type DocTerms, docOf, type IndexInput, SegmentBuilder, TermCounter } from './builder.ts';
import type { IndexedDoc } from './segment.ts';

export type SegmentWorkerRequest = { t: 'add'; chunks: IndexInput[] } | { t: 'encode'; seq: number; ids: string[] } | { t: 'reset' };
export type SegmentWorkerReply = { seq: number; bytes?: Uint8Array; missing?: true; error?: string };
export interface SegmentWorkerData {
  /** Int32Array over it: [0] the seq of the last reply posted. */
  state: SharedArrayBuffer;
  replies: MessagePort;
  /** Chunks held at most; more are dropped (their segments are built by the main thread). */
  maxDocs: number;
}

function run(): void {
  if (parentPort === null) return;
  const { state, replies, maxDocs } = workerData as SegmentWorkerData;
  const done = new Int32Array(state);
  let counter = new TermCounter();
  const held = new Map<string, { doc: IndexedDoc; terms: DocTerms }>();

  const encode = (ids: readonly string[]): SegmentWorkerReply['bytes'] | undefined => {
    if (!ids.every((id) => held.has(id))) {
      for (const id of ids) held.delete(id); // the main thread builds this segment
      return undefined;
    }
    const builder = new SegmentBuilder(counter);
    for (const id of ids) {
      const doc = held.get(id) as { doc: IndexedDoc; terms: DocTerms };
      builder.addCounted(doc.doc, doc.terms);
    }
    const bytes = builder.encode();
    for (const id of ids) held.delete(id);
    if (held.size === 0) counter = new TermCounter(); // the term dictionary would only grow
    return bytes;
  };

  parentPort.on('message', (message: SegmentWorkerRequest) => {
    if (message.t === 'reset') {
      held.clear();
      counter = new TermCounter();
      return;
    }
    if (message.t === 'add') {
      for (const chunk of message.chunks) {
        // Listed again (its text or uuids changed): the newest copy counts, as in the main thread.
        held.delete(chunk.id);
        if (held.size >= maxDocs) continue;
        try {
          const terms = counter.count(chunk);
          held.set(chunk.id, { doc: docOf(chunk, terms.lengths), terms });
        } catch {
          // Not held: a segment that needs this chunk is left to the main thread.
        }
      }
      return;
    }
    let reply: SegmentWorkerReply;
    try {
      const bytes = encode(message.ids);
      reply = bytes === undefined ? { seq: message.seq, missing: true } : { seq: message.seq, bytes };
    } catch (error) {
      reply = { seq: message.seq, error: (error as Error).message };
    }
    const transfer =
      reply.bytes !== undefined && reply.bytes.byteOffset === 0 && reply.bytes.byteLength === reply.bytes.buffer.byteLength
        ? [reply.bytes.buffer as ArrayBuffer]
        : [];
    replies.postMessage(reply, transfer);
    Atomics.store(done, 0, message.seq);
    Atomics.notify(done, 0);
  });
}

run();
