// Every dist/<name>.mjs is a small ES module that runs its bundled program, dist/programs/<name>-
// <hash>.js, through V8's code cache. Compiling a 100–200 KB bundle is the largest part of what a
// hook adds to a bare Node start; with the cache V8 deserializes the code compiled by an earlier run
// instead. Node 22 can do this for ES modules itself; Node 20 cannot, so this is the vm.Script way
// (as v8-compile-cache did for CommonJS). The program's file is named by its build hash, which the
// loader holds: a loader can only ever run its own build's program (an update caught halfway finds
// the file missing and says so), and Node's ES module loader reads, decodes and scans only the
// small loader (holding the program, as comments, cost each start ~2 ms).
//
// The cache is an optimization and nothing else: a missing, foreign, damaged or unwritable cache
// means compiling as before, silently. Two things make that hold:
// - V8 checks only a cache's header (its version, flags, the source length), not its payload, and
//   a damaged payload crashes the process. So the file holds the payload twice behind a small
//   header, and is used only when both copies are equal (a memcmp: random damage, a torn or
//   interleaved write cannot pass it) and the file belongs to this user. (The same change made to
//   both copies is tampering, not damage: whoever can write the user's 0700 data dir can as well
//   edit the hooks.)
// - The name says what made it: the program's build hash, Node version and architecture, and a
//   hash of the program file's size and mtime (a hand-edited program gets a new cache), of Node's
//   flags and of NODE_OPTIONS (V8 rejects a cache made under other flags: `ctxl run-job` and a
//   typed `ctxl` keep one each instead of rewriting each other's).
// It is written only into a data dir that already exists and never with CTXL_DISABLE set, so a
// run that would write nothing (a misused command, `install --dry-run` on a fresh machine, the
// plugin switched off) still writes nothing; to a fresh temporary name, then renamed.
import {
  closeSync,
  existsSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { writeAll } from './fd-write.ts';
import { dataDir, isDisabledByEnv, logFile } from './paths.ts';

export const CODE_CACHE_DIR = join('cache', 'code');

/** `ctxlcc` and the format's version; then the payload's length (u32 LE), the payload, the payload again. */
const MAGIC = Buffer.from('ctxlcc\x00\x01', 'latin1');
const HEAD = MAGIC.length + 4;

/** Caches of other builds, flags or Node versions of a program are removed once this old. */
const STALE_MS = 7 * 86_400_000;
const LEFTOVER_MS = 3_600_000;

export interface CachedProgram {
  /** The bundle's name (`session-start`): the cache file's prefix. */
  name: string;
  /** Hash of the program's source, computed at build time. */
  hash: string;
  /** A hook fails silently (one log line, exit 0); the CLI says why and exits 1. */
  hook: boolean;
  /** A run that took longer than this leaves the cache unwritten (a hook near its deadline). */
  writeWithinMs: number;
}

/** What the dist file was when this process read it, and how Node was started. */
export interface CacheVariant {
  size: number;
  mtimeMs: number;
  execArgv: readonly string[];
  /**
   * The CLI's command (`ingest`, `recall`): a cache holds the functions its first run compiled, so
   * each command keeps its own, or the first command typed after an update would decide for all.
   */
  command?: string | undefined;
}

/** Where a program's cache lives, or undefined when caching is off (`CTXL_CODE_CACHE=0`). */
export function codeCachePath(env: NodeJS.ProcessEnv, p: Pick<CachedProgram, 'name' | 'hash'>, v: CacheVariant): string | undefined {
  if (env.CTXL_CODE_CACHE !== undefined && /^(0|false|no|off)$/i.test(env.CTXL_CODE_CACHE)) return undefined;
  const variant = smallHash(`${v.size}:${v.mtimeMs}:${v.execArgv.join(' ')}:${env.NODE_OPTIONS ?? ''}${v.command === undefined ? '' : `:${v.command}`}`);
  return join(dataDir(env), CODE_CACHE_DIR, `${p.name}-${p.hash}-${process.version}-${process.arch}-${variant}.bin`);
}

/** The folder beside the loaders that holds their programs. */
export const PROGRAMS_DIR = 'programs';

/** Where the loader at `url` finds its program: `programs/<name>-<hash>.js` beside it. */
export function programFile(url: string, p: Pick<CachedProgram, 'name' | 'hash'>): string {
  return fileURLToPath(new URL(`${PROGRAMS_DIR}/${p.name}-${p.hash}.js`, url));
}

/** Run the program `(function (moduleUrl) { … })` of the loader at `url`. */
export function runCached(p: CachedProgram, url: string): void {
  const started = Date.now();
  let script: Script;
  let cachePath: string | undefined;
  let cachedData: Buffer | undefined;
  try {
    const file = programFile(url, p);
    const { text, size, mtimeMs } = readProgram(file);
    try {
      cachePath = codeCachePath(process.env, p, { size, mtimeMs, execArgv: process.execArgv, command: p.hook ? undefined : commandOf(process.argv) });
      if (cachePath !== undefined) cachedData = readCache(cachePath);
    } catch {}
    try {
      script = new Script(text, { filename: file, ...(cachedData === undefined ? {} : { cachedData }) });
    } catch (error) {
      throw new Error(`${file}: ${error instanceof Error ? error.message : String(error)} (a damaged file?); reinstall`);
    }
  } catch (error) {
    loaderFailed(p, error);
    return;
  }
  const program = script.runInThisContext() as (url: string) => void;
  if (cachePath !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) {
    const cacheFile = cachePath;
    // At exit the cache holds every function this run compiled, not only the top level.
    // A failed run (a misused command) leaves none.
    process.once('exit', (code) => {
      if (code !== 0 || Date.now() - started > p.writeWithinMs || isDisabledByEnv(process.env) || !existsSync(dataDir(process.env))) return;
      saveCache(cacheFile, p.name, () => script.createCachedData());
    });
  }
  program(url);
}

/** A CLI run's command word, if it looks like one (anything else shares the plain cache). */
function commandOf(argv: readonly string[]): string | undefined {
  const word = argv[2];
  return word !== undefined && /^[a-z][a-z-]{1,19}$/.test(word) ? word : undefined;
}

function readProgram(file: string): { text: string; size: number; mtimeMs: number } {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new Error(code === 'ENOENT' ? `${file} is missing (an install or update that did not finish?); reinstall` : `${file}: ${code ?? String(error)}`);
  }
  try {
    const st = fstatSync(fd);
    return { text: readFileSync(fd, 'utf8'), size: st.size, mtimeMs: st.mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/** The payload of a cache file that is whole and this user's, else undefined. */
function readCache(file: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return undefined;
    if (st.size < HEAD || st.size > 64 * 1024 * 1024) return undefined;
    const buf = Buffer.allocUnsafe(st.size);
    if (readSync(fd, buf, 0, st.size, 0) !== st.size) return undefined;
    const n = buf.readUInt32LE(MAGIC.length);
    if (!buf.subarray(0, MAGIC.length).equals(MAGIC) || st.size !== HEAD + 2 * n) return undefined;
    const payload = buf.subarray(HEAD, HEAD + n);
    return payload.equals(buf.subarray(HEAD + n)) ? payload : undefined;
  } finally {
    closeSync(fd);
  }
}

/** The bytes of a cache file for `payload`. */
export function cacheFileBytes(payload: Uint8Array): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32LE(payload.length, 0);
  return Buffer.concat([MAGIC, length, payload, payload]);
}

/** `post-tool-use-<hash>-…bin` is a cache of post-tool-use; `post-tool-use-failure-…` is not. */
function isCacheOf(name: string, file: string): boolean {
  return file.startsWith(`${name}-`) && /^[0-9a-f]{16}-.*\.bin$/.test(file.slice(name.length + 1));
}

function saveCache(file: string, name: string, data: () => Buffer): void {
  try {
    const dir = join(file, '..');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    // Flushed before the rename: after a power loss the name holds the whole file or nothing, never
    // blocks that were not written yet (once per build and Node version, so the fsync is cheap).
    const fd = openSync(tmp, 'wx', 0o600);
    try {
      const bytes = cacheFileBytes(data());
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
    // Other builds' and Node versions' caches of this program, a week after they were written. Not
    // at once: two installs (or two Node versions) in use side by side would delete each other's.
    // This build's other variants (flags, CLI commands) stay while the build does. A temporary file
    // left by a process killed while writing goes after an hour.
    const mine = file.slice(dir.length + 1);
    const thisBuild = mine.slice(0, mine.lastIndexOf('-') + 1);
    const now = Date.now();
    for (const other of readdirSync(dir)) {
      const leftover = other.endsWith('.tmp');
      if (other === mine || !(leftover || isCacheOf(name, other)) || (!leftover && other.startsWith(thisBuild))) continue;
      const path = join(dir, other);
      if (now - statSync(path).mtimeMs > (leftover ? LEFTOVER_MS : STALE_MS)) unlinkSync(path);
    }
  } catch {}
}

/**
 * A loader that cannot run its program: a hook logs one line and exits 0; the CLI exits 1. The line
 * has log.ts's shape, written directly: the logger (and its rotation) would be compiled into every
 * loader, which runs without the code cache, for a path taken only by a damaged dist file.
 */
function loaderFailed(p: CachedProgram, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  if (!p.hook) {
    writeAll(2, `ctxl: internal error: ${message}\n`);
    process.exitCode = 1;
    return;
  }
  try {
    const file = logFile(process.env);
    if (file === undefined) return;
    mkdirSync(join(file, '..'), { recursive: true, mode: 0o700 });
    const line = { t: new Date().toISOString(), level: 'error', scope: p.name, msg: `could not start: ${message}` };
    writeFileSync(file, `${JSON.stringify(line)}\n`, { flag: 'a', mode: 0o600 });
  } catch {}
}

/** FNV-1a of a short string, as 8 hex characters. */
function smallHash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return (h >>> 0).toString(16).padStart(8, '0');
}
