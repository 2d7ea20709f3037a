// The start of every dist/*.mjs file: it runs the bundled program, which build.mjs appended to the
// same file as line comments, through V8's code cache. Compiling a 100–200 KB bundle is the largest
// part of what a hook adds to a bare Node start; with the cache V8 deserializes the code compiled
// by an earlier run instead. Node 22 can do this for ES modules itself; Node 20 cannot, so this is
// the vm.Script way (as v8-compile-cache did for CommonJS). One file per program, so an update
// that replaces it can never pair a loader with another build's program.
//
// The cache is an optimization and nothing else: any problem (unreadable or rejected cache, a
// read-only disk) means compiling as before, silently. It is written only into a data dir that
// already exists and never with CTXL_DISABLE set, so a run that would write nothing (a misused
// command, `install --dry-run` on a fresh machine, the plugin switched off) still writes nothing. Files are named by the bundle's
// hash, the Node version and the architecture, so a cache is only offered to the exact code and
// engine that made it; V8 also checks its own version, flags and the source length, and rejects a
// cache that does not fit (then it is rewritten). Written to a temporary name and renamed.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';
import { dataDir, isDisabledByEnv } from './paths.ts';

export const CODE_CACHE_DIR = join('cache', 'code');

export interface CachedProgram {
  /** The bundle's name (`session-start`): the cache file's prefix. */
  name: string;
  /** Hash of the program's source, computed at build time. */
  hash: string;
  /** A run that took longer than this leaves the cache unwritten (a hook near its deadline). */
  writeWithinMs: number;
}

/** Where a program's cache lives, or undefined when caching is off (`CTXL_CODE_CACHE=0`). */
export function codeCachePath(env: NodeJS.ProcessEnv, p: Pick<CachedProgram, 'name' | 'hash'>): string | undefined {
  if (env.CTXL_CODE_CACHE === '0') return undefined;
  return join(dataDir(env), CODE_CACHE_DIR, `${p.name}-${p.hash}-${process.version}-${process.arch}.bin`);
}

/**
 * Run the program stored after the line `mark` in the file at `url`: `(function (moduleUrl) { … })`,
 * each of its lines behind `//`. (The line is searched with its line breaks, which the loader's own
 * quoted copy of `mark` does not have.)
 */
export function runCached(p: CachedProgram, url: string, mark: string): void {
  const started = Date.now();
  const file = fileURLToPath(url);
  const text = readFileSync(file, 'utf8');
  const line = `\n${mark}\n`;
  const source = text.slice(text.indexOf(line) + line.length).replace(/^\/\//gm, '');
  let cachePath: string | undefined;
  let cachedData: Buffer | undefined;
  try {
    cachePath = codeCachePath(process.env, p);
    if (cachePath !== undefined) cachedData = readFileSync(cachePath);
  } catch {}
  const script = new Script(source, { filename: file, ...(cachedData === undefined ? {} : { cachedData }) });
  const program = script.runInThisContext() as (url: string) => void;
  if (cachePath !== undefined && (cachedData === undefined || script.cachedDataRejected === true)) {
    const cacheFile = cachePath;
    // At exit the cache holds every function this run compiled, not only the top level.
    process.once('exit', () => {
      if (Date.now() - started > p.writeWithinMs || isDisabledByEnv(process.env) || !existsSync(dataDir(process.env))) return;
      saveCache(cacheFile, p.name, () => script.createCachedData());
    });
  }
  program(url);
}

/** `post-tool-use-<hash>-…bin` is a cache of post-tool-use; `post-tool-use-failure-…` is not. */
function isCacheOf(name: string, file: string): boolean {
  return file.startsWith(`${name}-`) && /^[0-9a-f]{16}-.*\.bin$/.test(file.slice(name.length + 1));
}

function saveCache(file: string, name: string, data: () => Buffer): void {
  try {
    const dir = join(file, '..');
    mkdirSync(dir, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, data(), { mode: 0o600 });
    renameSync(tmp, file);
    // Caches of other builds or Node versions of this program are dead weight now.
    const mine = file.slice(dir.length + 1);
    for (const other of readdirSync(dir)) {
      if (other !== mine && isCacheOf(name, other)) unlinkSync(join(dir, other));
    }
  } catch {}
}
