// What both ctxl programs share (main.ts, every command; search-main.ts, the search commands only):
// writing the output, the environment of a command, and how the process ends.
import { join } from 'node:path';
import { loadConfig } from '../runtime/config.ts';
import { isTerminal, writeAll } from '../runtime/fd-write.ts';
import { createFileLogger, type Logger } from '../runtime/log.ts';
import { dataDir, type Env, logFile } from '../runtime/paths.ts';
import { openStore, readTextFile, type Store } from '../runtime/store.ts';
import { type Parsed, UsageError } from './args.ts';

export interface CliEnv {
  env: Env;
  store: Store;
  log: Logger;
  now: Date;
  out: (line: string) => void;
  err: (text: string) => void;
  isTTY: boolean;
}

// Through fd 1 and 2 directly: the streams of process.stdout and process.stderr cost ~5 ms each to build.
// A reader that left (`ctxl recall … | head`) gets nothing more; any other failure to write the
// output (a full disk behind `> file`) is said once on stderr and makes the exit code 1.
export const err = (text: string) => {
  writeAll(2, text);
};
let stdoutGone = false;
let outputFailed = false;
export const out = (line: string) => {
  if (stdoutGone || outputFailed) return;
  const problem = writeAll(1, `${line}\n`);
  if (problem === 'EPIPE') stdoutGone = true;
  else if (problem !== undefined) {
    outputFailed = true;
    err(`ctxl: could not write the output (${problem})\n`);
  }
};

export function noPositional(p: Parsed, command: string): void {
  if (p.positional.length > 0) throw new UsageError(`${command} takes no argument '${p.positional[0]}'`);
}

export function cliEnv(env: Env, now: Date): CliEnv {
  const log = createFileLogger({ file: logFile(env), scope: 'cli' });
  // The log level the hooks use (the user's config file, then CTXL_LOG_LEVEL); no project file here.
  try {
    log.setLevel(loadConfig({ env, userText: readTextFile(join(dataDir(env), 'config.json')) }).config.logLevel);
  } catch {}
  return { env, store: openStore(dataDir(env), log), log, now, out, err, isTTY: isTerminal(2) };
}

/**
 * Run a program's main and end the process with its exit code. Not a top-level await: the bundle
 * runs as a function's body (build.mjs, lib/runtime/code-cache.ts). An explicit exit once the
 * command is done: left to end by itself, Node first waits for V8's queued background work
 * (optimizing compiles, mostly), 7–16 ms of a small `ctxl ingest`. Nothing is pending by then:
 * output and logs are written synchronously, workers are closed, and the code cache is saved on
 * 'exit'. `known` marks the errors whose message is for the user as it is (no stack).
 */
export function runCli(main: (argv: string[]) => Promise<number>, known: (error: unknown) => boolean = () => false): void {
  main(process.argv.slice(2)).then(
    (code) => process.exit(outputFailed ? 1 : code),
    (error: unknown) => {
      const usage = error instanceof UsageError;
      // A file-system refusal (EACCES on a read-only folder, ENOSPC) is the user's to fix: its message
      // names the path and the reason, and a stack would only hide it.
      const io =
        error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && typeof (error as NodeJS.ErrnoException).syscall === 'string';
      const plain = usage || io || known(error);
      err(`ctxl: ${plain ? (error as Error).message : `internal error: ${(error as Error).stack ?? String(error)}`}\n`);
      process.exit(usage ? 2 : 1);
    },
  );
}
