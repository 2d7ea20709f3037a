// A hook's stdin, read without process.stdin. Claude Code hands a hook its input on one end of a Unix
// socket pair (blocking) and closes its own end. For a socket or pipe, process.stdin builds a
// net.Socket, which loads node:net and the stream modules: about 7 ms of every hook's start, more
// than most hooks' own work. So:
// - a terminal or /dev/null has nothing to read;
// - a regular file (`node hook.mjs < input.json`) is read with readSync: it cannot block, and one
//   over the cap is not read at all (it has no writer to drain);
// - a socket or FIFO is read through libuv's pipe handle itself, the binding net.Socket wraps
//   (listed by process.binding for userland, its read protocol unchanged since Node 12). Its reads
//   run on the event loop, so the deadline timer still fires when stdin is never closed; fs.read
//   would block in libuv's thread pool, and a blocked pool thread holds up process.exit;
// - anything else (a directory or a block device, which epoll refuses and libuv would abort on),
//   and where that binding is missing or not what it was, or where process.binding would print a
//   deprecation warning (--pending-deprecation), process.stdin as before.
import { fstatSync, readSync } from 'node:fs';
import { nodeBinding } from './bindings.ts';

/** Text of all of stdin; undefined when it is over `max` bytes (a pipe is drained, a file left unread). */
export async function readStdin(max: number): Promise<string | undefined> {
  let kind: 'none' | 'file' | 'pipe' | 'other';
  let size = 0;
  try {
    const st = fstatSync(0);
    size = st.size;
    kind = st.isCharacterDevice() ? 'none' : st.isFile() ? 'file' : st.isFIFO() || st.isSocket() ? 'pipe' : 'other';
  } catch {
    kind = 'none'; // no stdin at all
  }
  if (kind === 'none') return '';
  const sink = textSink(max);
  if (kind === 'file') {
    if (size > max) return undefined;
    readFile(sink, max);
  } else {
    const pipe = kind === 'pipe' ? pipeBinding() : undefined;
    if (pipe === undefined || !(await readPipe(pipe, sink))) {
      for await (const chunk of process.stdin as AsyncIterable<Buffer>) sink.add(chunk);
    }
  }
  return sink.end();
}

interface Sink {
  add(bytes: Uint8Array): void;
  end(): string | undefined;
}

/**
 * Keeps the bytes and decodes them once at the end. Strings decoded read by read would live in V8's
 * young generation, and each scavenge would copy all of them again (two copies of a 2.5 MB input,
 * ~8 ms); the read buffers live outside the heap. Past `max` the bytes are counted, not kept.
 */
function textSink(max: number): Sink {
  const chunks: Uint8Array[] = [];
  let size = 0;
  return {
    add(bytes) {
      size += bytes.length;
      if (size <= max) chunks.push(bytes);
      else chunks.length = 0;
    },
    end() {
      if (size > max) return undefined;
      const whole = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
      return whole === undefined ? '' : Buffer.from(whole.buffer, whole.byteOffset, whole.byteLength).toString('utf8');
    },
  };
}

/** Up to `max` bytes and one more (a file that grew past the cap is not read to its end). */
function readFile(sink: Sink, max: number): void {
  for (let read = 0; read <= max; ) {
    const buf = Buffer.allocUnsafe(1 << 16);
    const n = readSync(0, buf, 0, buf.length, null);
    if (n === 0) return;
    sink.add(buf.subarray(0, n));
    read += n;
  }
}

interface PipeHandle {
  open(fd: number): number;
  readStart(): number;
  readStop(): number;
  onread: ((buffer: ArrayBuffer | undefined) => void) | undefined;
}

interface PipeBinding {
  create(): PipeHandle;
  /** streamBaseState: where the handle puts a read's byte count (or error) and its offset. */
  state: Int32Array;
  bytesOrError: number;
  offset: number;
  eof: number;
}

function pipeBinding(): PipeBinding | undefined {
  const pipe = nodeBinding('pipe_wrap') as { Pipe?: unknown; constants?: { SOCKET?: unknown } } | undefined;
  const stream = nodeBinding('stream_wrap') as { streamBaseState?: unknown; kReadBytesOrError?: unknown; kArrayBufferOffset?: unknown } | undefined;
  const uv = nodeBinding('uv') as { UV_EOF?: unknown } | undefined;
  if (pipe === undefined || stream === undefined || uv === undefined) return undefined;
  const { Pipe } = pipe;
  const socket = pipe.constants?.SOCKET;
  const { streamBaseState: state, kReadBytesOrError: bytesOrError, kArrayBufferOffset: offset } = stream;
  if (typeof Pipe !== 'function' || typeof socket !== 'number' || !(state instanceof Int32Array)) return undefined;
  if (typeof bytesOrError !== 'number' || typeof offset !== 'number' || typeof uv.UV_EOF !== 'number') return undefined;
  const Handle = Pipe as new (type: number) => PipeHandle;
  return { create: () => new Handle(socket), state, bytesOrError, offset, eof: uv.UV_EOF };
}

/**
 * Read fd 0 to its end through a pipe handle. False when the handle would not open or start (nothing
 * was read: the caller falls back to process.stdin); a read error rejects.
 */
function readPipe(b: PipeBinding, sink: Sink): Promise<boolean> {
  return new Promise((resolve, reject) => {
    let handle: PipeHandle;
    try {
      handle = b.create();
      if (handle.open(0) !== 0) return resolve(false);
    } catch {
      return resolve(false);
    }
    handle.onread = (buffer) => {
      const n = b.state[b.bytesOrError] ?? 0;
      if (n > 0 && buffer instanceof ArrayBuffer) {
        sink.add(new Uint8Array(buffer, b.state[b.offset] ?? 0, n));
        return;
      }
      if (n === 0) return; // nothing this time (EAGAIN)
      handle.readStop(); // left open: the process exits soon, and libuv never closes fds 0–2 anyway
      if (n === b.eof) resolve(true);
      else reject(new Error(`reading stdin failed (libuv error ${n})`));
    };
    if (handle.readStart() !== 0) resolve(false);
  });
}
