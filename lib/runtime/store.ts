// The only module that touches the file system for our own data (the transcript reader reads Claude
// Code's file read-only; the logger appends its own file). Writes are atomic (temp file + rename in
// the same directory), appends are single write() calls, and load→mutate→save sequences run under a
// cross-process lock (lock.ts: mkdir-based, a dead owner's lock recovered at once).
import {
  closeSync,
  constants,
  copyFileSync,
  existsSync,
  fstatSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type * as z from 'zod/mini';
import { lock } from './lock.ts';
import type { Logger } from './log.ts';
import { sanitizeName } from './paths.ts';

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;

export type ReadResult<T> = { ok: true; value: T } | { ok: false; reason: 'missing' | 'corrupt' | 'invalid' | 'io'; detail?: string };

export interface Store {
  readonly root: string;
  /** Absolute path of a file under the data dir; every segment is sanitised, so no input escapes. */
  path(...segments: string[]): string;
  /** `schema` may be a function that builds it: a missing file then costs no schema (~0.3 ms of a hook's start each). */
  readJson<T>(file: string, schema: z.ZodMiniType<T> | (() => z.ZodMiniType<T>)): ReadResult<T>;
  writeJson(file: string, value: unknown): void;
  appendLine(file: string, record: unknown): void;
  /** Several records in one write(): one open and one syscall however many. */
  appendLines(file: string, records: readonly unknown[]): void;
  /** Move a corrupt file aside (`<name>.bad-<time>`) so it is kept for inspection and rebuilt. */
  setAside(file: string, now: Date): string | undefined;
  withLock<R>(file: string, fn: () => Promise<R> | R, options?: { waitMs?: number }): Promise<R | undefined>;
}

export function openStore(root: string, log: Logger): Store {
  const absRoot = resolve(root);
  const path = (...segments: string[]) => join(absRoot, ...segments.map(sanitizeName));
  // One mkdir per folder per process: archiving writes many files into few folders.
  const made = new Set<string>();
  const ensureParent = (file: string) => {
    const dir = dirname(file);
    if (made.has(dir)) return;
    mkdirSync(dir, { recursive: true, mode: DIR_MODE });
    made.add(dir);
  };
  const appendLines = (file: string, records: readonly unknown[]): void => {
    if (records.length === 0) return;
    ensureParent(file);
    // One write() with O_APPEND: concurrent appenders never interleave inside a line on local disks.
    const fd = openSync(file, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT, FILE_MODE);
    try {
      const text = records.map((r) => `${JSON.stringify(r)}\n`).join('');
      writeSync(fd, endsMidLine(fd) ? `\n${text}` : text);
    } finally {
      closeSync(fd);
    }
  };
  return {
    root: absRoot,
    path,
    readJson<T>(file: string, schema: z.ZodMiniType<T> | (() => z.ZodMiniType<T>)): ReadResult<T> {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: false, reason: 'missing' };
        return { ok: false, reason: 'io', detail: (error as Error).message };
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        return { ok: false, reason: 'corrupt', detail: (error as Error).message };
      }
      const result = (typeof schema === 'function' ? schema() : schema).safeParse(parsed);
      if (!result.success) return { ok: false, reason: 'invalid', detail: result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') };
      return { ok: true, value: result.data };
    },
    writeJson(file: string, value: unknown): void {
      ensureParent(file);
      writeFileAtomic(file, `${JSON.stringify(value)}\n`);
    },
    appendLine(file: string, record: unknown): void {
      appendLines(file, [record]);
    },
    appendLines,
    setAside(file: string, now: Date): string | undefined {
      const aside = `${file}.bad-${now.toISOString().replace(/[:.]/g, '-')}`;
      try {
        renameSync(file, aside);
        return aside;
      } catch {
        return undefined;
      }
    },
    async withLock<R>(file: string, fn: () => Promise<R> | R, options?: { waitMs?: number }): Promise<R | undefined> {
      ensureParent(file);
      const release = await lock(file, options?.waitMs ?? 2_000);
      if (release === undefined) {
        log.warn('lock busy, skipped', { file });
        return undefined;
      }
      try {
        return await fn();
      } finally {
        release();
      }
    },
  };
}

let tmpCounter = 0;

/** Temp file in the same directory, then rename: a reader sees the old or the new file, never half. */
/**
 * The temporary name writeFileAtomic gives a Markdown or JSON file: `<file>.<pid>.<n>.<time>.tmp`,
 * the time in base 36 (8 digits until 2059). Nothing wider: L3 sits in the user's repository.
 */
const WRITE_TEMP = /\.(?:md|json|jsonl)\.\d{1,10}\.\d{1,10}\.[0-9a-z]{8,9}\.tmp$/;
/** A temporary file older than this is a killed writer's; a younger one may be a live writer's. */
export const STALE_TEMP_MS = 10 * 60_000;

/** Remove what writers killed mid-write left in `dir` (our temporary names only, older than STALE_TEMP_MS); returns how many. */
export function removeStaleTemps(dir: string, now: number): number {
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!WRITE_TEMP.test(name)) continue;
    const file = join(dir, name);
    const stat = statSafe(file);
    if (stat?.isFile() !== true || now - stat.mtimeMs <= STALE_TEMP_MS) continue;
    try {
      unlinkSync(file);
      removed += 1;
    } catch {}
  }
  return removed;
}

export function writeFileAtomic(file: string, data: string | Uint8Array, options?: { mode?: number; fsync?: boolean }): void {
  // pid + counter is unique among live processes; node:crypto would cost a hook ~2 ms to load.
  const tmp = `${file}.${process.pid}.${++tmpCounter}.${Date.now().toString(36)}.tmp`;
  const fd = openSync(tmp, 'w', options?.mode ?? FILE_MODE);
  try {
    // Bytes, written until all are: on a nearly full disk a write may take only part of them and
    // say so by its count, not by an error; renamed in place, the part would pass for the file.
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    let done = 0;
    while (done < bytes.length) {
      const n = writeSync(fd, bytes, done, bytes.length - done);
      if (n <= 0) throw Object.assign(new Error(`short write to ${tmp}`), { code: 'ENOSPC' });
      done += n;
    }
    if (options?.fsync === true) fsyncSync(fd);
  } catch (error) {
    // Nothing half written stays behind, not even as a temp file.
    closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {}
    throw error;
  }
  closeSync(fd);
  try {
    renameSync(tmp, file);
  } catch (error) {
    try {
      unlinkSync(tmp);
    } catch {}
    throw error;
  }
}

/**
 * Whether a file ends inside a line: a writer killed mid-append left a torn last line. The next
 * append starts a new line, so the torn one costs only itself (glued on, it took the next record).
 */
function endsMidLine(fd: number): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  return readSync(fd, last, 0, 1, size - 1) === 1 && last[0] !== 10;
}

/** Positioned reads of one file (the search index reads only the parts a query needs). */
export interface RangeReader {
  readonly size: number;
  read(offset: number, length: number): Buffer;
  /** Fill a typed array from `offset` (a fresh typed array is aligned, a pooled Buffer may not be). */
  readInto(offset: number, target: ArrayBufferView): void;
  close(): void;
}

/** Open a file for positioned reads; undefined when it does not exist. */
export function openRangeReader(file: string): RangeReader | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const size = fstatSync(fd).size;
  const fill = (offset: number, target: ArrayBufferView) => {
    const view = new Uint8Array(target.buffer, target.byteOffset, target.byteLength);
    let done = 0;
    while (done < view.length) {
      const n = readSync(fd, view, done, view.length - done, offset + done);
      if (n === 0) throw new Error(`${file}: ends at ${offset + done}, expected ${offset + view.length}`);
      done += n;
    }
  };
  return {
    size,
    read(offset, length) {
      const out = Buffer.allocUnsafe(length);
      fill(offset, out);
      return out;
    },
    readInto: fill,
    close: () => closeSync(fd),
  };
}

// ---- plain file helpers for the CLI (install, doctor) and for project lookups ----

export function readTextFile(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Where a path really is (a symlink's target, followed to the end), or the path itself if it does not exist. */
export function realPathOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

export function statSafe(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

export function ensureDir(dir: string, mode = DIR_MODE): void {
  mkdirSync(dir, { recursive: true, mode });
}

export function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

export function removePath(path: string): void {
  rmSync(path, { recursive: true, force: true });
}

/** Atomic within one file system: used to swap a fully copied folder into place. */
export function renamePath(from: string, to: string): void {
  renameSync(from, to);
}

/** Files under a folder, as paths relative to it (links not followed). */
export function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (sub: string) => {
    for (const entry of readdirSync(join(dir, sub), { withFileTypes: true })) {
      const rel = sub === '' ? entry.name : join(sub, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (entry.isFile()) out.push(rel);
    }
  };
  if (statSafe(dir)?.isDirectory() === true) walk('');
  return out;
}

/** Copy a directory tree (files only, no links followed) and return the files written. */
export function copyTree(from: string, to: string): string[] {
  const written: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const src = join(dir, entry.name);
      const dest = join(to, relative(from, src));
      if (entry.isDirectory()) walk(src);
      else if (entry.isFile()) {
        mkdirSync(dirname(dest), { recursive: true });
        copyFileSync(src, dest);
        written.push(dest);
      }
    }
  };
  walk(from);
  return written;
}

/**
 * The project a cwd belongs to: its git top level, with worktrees mapped to the main repository
 * (a `.git` file names `<repo>/.git/worktrees/<name>`), else the directory itself. Reads `.git`
 * entries only; never spawns git (a hook cannot afford ~5 ms per call).
 */
export function findProjectRoot(cwd: string): { root: string; git: boolean } {
  // A Windows path read on another system (a transcript copied over): not relative to our working
  // directory. It is the project as recorded; there is no git folder here to look for.
  if (isForeignAbsolute(cwd)) return { root: cwd.replace(/[\\/]+$/, ''), git: false };
  let dir = resolve(cwd);
  for (;;) {
    const dotGit = join(dir, '.git');
    const stat = statSafe(dotGit);
    if (stat?.isDirectory()) return { root: dir, git: true };
    if (stat?.isFile()) {
      const main = worktreeMain(dotGit);
      return { root: main ?? dir, git: true };
    }
    const parent = dirname(dir);
    if (parent === dir) return { root: resolve(cwd), git: false };
    dir = parent;
  }
}

/** A `--cwd` value as a path: resolved here, but a Windows path read elsewhere kept as it is (see findProjectRoot). */
export function cwdOption(value: string | undefined): string {
  return value !== undefined && isForeignAbsolute(value) ? value : resolve(value ?? process.cwd());
}

/** A Windows absolute path on a system where it is none (`C:\\…`, `C:/…`, `\\\\server\\share\\…`). */
const isForeignAbsolute = (path: string) => !isAbsolute(path) && FOREIGN_ABSOLUTE.test(path);

/** `C:\\…`, `C:/…`, `\\\\server\\share\\…`: an absolute path on Windows. */
const FOREIGN_ABSOLUTE = /^(?:[A-Za-z]:[\\/]|\\\\[^\\]+\\)/;

function worktreeMain(dotGitFile: string): string | undefined {
  const text = readTextFile(dotGitFile);
  const match = text?.match(/^gitdir:\s*(.+)\s*$/m);
  if (match?.[1] === undefined) return undefined;
  const gitdir = resolve(dirname(dotGitFile), match[1].trim());
  const parts = gitdir.split(sep);
  const at = parts.lastIndexOf('worktrees');
  // <main>/.git/worktrees/<name> → <main>
  if (at >= 2 && parts[at - 1] === '.git') return parts.slice(0, at - 1).join(sep) || sep;
  return undefined;
}

export function pathExists(path: string): boolean {
  return existsSync(path);
}
