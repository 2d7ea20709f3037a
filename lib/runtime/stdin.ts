// A hook's stdin, read without process.stdin. Claude Code hands a hook its input on one end of a Unix
// socket pair (blocking) and closes its own end. For a socket or pipe, process.stdin builds a
// net.Socket, which loads node:net and the stream modules: about 7 ms of every hook's start, more
// than most hooks' own work. So:
// - a terminal or /dev/null has nothing to read;
// - a regular file (`node hook.mjs < input.json`) is read with readSync: it cannot block;
// - a socket or pipe is read through libuv's pipe handle itself, the binding net.Socket wraps
//   (listed by process.binding for userland, its read protocol unchanged since Node 12). Its reads
//   run on the event loop, so the deadline timer still fires when stdin is never closed; fs.read
//   would block in libuv's thread pool, and a blocked pool thread holds up process.exit;
// - where that binding is missing or not what it was, or where process.binding would print a
//   deprecation warning (--pending-deprecation), process.stdin as before.
import { fstatSync, readSync } from 'node:fs';

/** Text of all of stdin; undefined when it is over `max` bytes (the rest is drained, not kept). */
export async function readStdin(max: number): Promise<string | undefined> {
  let kind: 'none' | 'file' | 'stream';
  try {
    const st = fstatSync(0);
    kind = st.isCharacterDevice() ? 'none' : st.isFile() ? 'file' : 'stream';
  } catch {
    kind = 'none'; // no stdin at all
  }
  if (kind === 'none') return '';
  const sink = textSink(max);
  if (kind === 'file') readFile(sink);
  else {
    const pipe = pipeBinding();
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

function readFile(sink: Sink): void {
  for (;;) {
    const buf = Buffer.allocUnsafe(1 << 16);
    const n = readSync(0, buf, 0, buf.length, null);
    if (n === 0) return;
    sink.add(buf.subarray(0, n));
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
  try {
    const options = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
    if (options.includes('--pending-deprecation') || process.env.NODE_PENDING_DEPRECATION === '1') return undefined;
    const binding = (process as unknown as { binding?: (name: string) => unknown }).binding;
    if (typeof binding !== 'function') return undefined;
    const pipe = binding('pipe_wrap') as { Pipe?: unknown; constants?: { SOCKET?: unknown } };
    const stream = binding('stream_wrap') as { streamBaseState?: unknown; kReadBytesOrError?: unknown; kArrayBufferOffset?: unknown };
    const uv = binding('uv') as { UV_EOF?: unknown };
    const { Pipe } = pipe;
    const socket = pipe.constants?.SOCKET;
    const { streamBaseState: state, kReadBytesOrError: bytesOrError, kArrayBufferOffset: offset } = stream;
    if (typeof Pipe !== 'function' || typeof socket !== 'number' || !(state instanceof Int32Array)) return undefined;
    if (typeof bytesOrError !== 'number' || typeof offset !== 'number' || typeof uv.UV_EOF !== 'number') return undefined;
    const Handle = Pipe as new (type: number) => PipeHandle;
    return { create: () => new Handle(socket), state, bytesOrError, offset, eof: uv.UV_EOF };
  } catch {
    return undefined;
  }
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
      handle.readStop();
      // Left open: closing it would free fd 0 for the next file this process opens.
      if (n === b.eof) resolve(true);
      else reject(new Error(`reading stdin failed (libuv error ${n})`));
    };
    if (handle.readStart() !== 0) resolve(false);
  });
}
