// Every hook runs through runHook: read stdin (capped), validate, run the handler under a deadline
// shorter than the hook's `timeout`, print exactly one JSON object (PreCompact: plain text) or
// nothing, and exit 0 whatever happens. Failures go to one log line each; after `breakerFailures`
// consecutive failures in one session a hook skips its work there for `breakerCooldownSeconds`
// (said once in the log).
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import * as z from 'zod/mini';
import { openBreaker } from './breaker.ts';
import { type Config, type ConfigProblem, isDisabledByEnv, loadConfig } from './config.ts';
import { writeAll } from './fd-write.ts';
import { createFileLogger, type Logger } from './log.ts';
import { dataDir as dataDirFor, type Env, logFile } from './paths.ts';
import type { HookInput } from './schemas.ts';
import { readStdin } from './stdin.ts';
import { findProjectRoot, openStore, readTextFile, type Store } from './store.ts';

/** Set per hook file by build.mjs from hooks.json (`timeout` × 1000). */
declare const __CTXL_HOOK_TIMEOUT_MS__: number | undefined;

export const MAX_STDIN_BYTES = 32 * 1024 * 1024;
const SESSION_END_BUDGET_MS = 1_500; // reference §1.8: plugin timeouts cannot raise it

export type HookEvent =
  | 'SessionStart'
  | 'UserPromptSubmit'
  | 'UserPromptExpansion'
  | 'PreToolUse'
  | 'PostToolUse'
  | 'PostToolUseFailure'
  | 'PreCompact'
  | 'Stop'
  | 'SessionEnd';

export interface HookContext {
  event: HookEvent;
  env: Env;
  config: Config;
  log: Logger;
  store: Store;
  project: { root: string; git: boolean };
  now: () => Date;
  /** Milliseconds left before the deadline; long work checks it and stops early. */
  timeLeft: () => number;
  /** Called before work long enough for V8's optimizing compiler to pay (see allowOptimizing). */
  longWork: () => void;
}

export type HookOutput = Record<string, unknown> | string | undefined;
export type HookHandler<T> = (input: T, context: HookContext) => Promise<HookOutput> | HookOutput;

export interface HookSpec<T extends HookInput> {
  event: HookEvent;
  schema: z.ZodMiniType<T>;
  handler: HookHandler<T>;
}

export function deadlineFor(event: HookEvent, timeoutMs: number): number {
  const margin = Math.max(300, Math.round(timeoutMs * 0.2));
  const deadline = Math.max(200, timeoutMs - margin);
  return event === 'SessionEnd' ? Math.min(deadline, SESSION_END_BUDGET_MS - 300) : deadline;
}

export function runHook<T extends HookInput>(spec: HookSpec<T>): void {
  const env = process.env as Env;
  const started = Date.now();
  const timeoutMs = typeof __CTXL_HOOK_TIMEOUT_MS__ === 'number' ? __CTXL_HOOK_TIMEOUT_MS__ : 10_000;
  const override = Number(env.CTXL_DEADLINE_MS);
  const deadlineMs = Number.isFinite(override) && override > 0 ? Math.min(override, deadlineFor(spec.event, timeoutMs)) : deadlineFor(spec.event, timeoutMs);
  const log = createFileLogger({ file: logFile(env), scope: spec.event });
  let finished = false;
  const finish = (stdout?: string) => {
    if (finished) return;
    finished = true;
    // A full pipe is waited for until the deadline; once part of the answer is out, until just
    // before Claude Code's timeout (half a JSON object is worse than none).
    if (stdout !== undefined && stdout !== '') writeStdout(stdout, started + deadlineMs, started + timeoutMs - 100, log);
    process.exit(0);
  };

  // Nothing a library prints may reach stdout: Claude Code would read it as our answer.
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    console[method] = (...args: unknown[]) => log.debug(`console.${method}`, args.map(String).join(' '));
  }
  process.on('uncaughtException', (error) => {
    log.error('uncaught exception', error);
    finish();
  });
  process.on('unhandledRejection', (error) => {
    log.error('unhandled rejection', error);
    finish();
  });
  const timer = setTimeout(() => {
    log.warn(`deadline of ${deadlineMs} ms reached; exiting without output`);
    finish();
  }, deadlineMs);
  timer.unref();

  run()
    .then(finish, (error: unknown) => {
      log.error('hook failed', error);
      finish();
    })
    .finally(() => clearTimeout(timer));

  async function run(): Promise<string | undefined> {
    const raw = await readStdin(MAX_STDIN_BYTES);
    if (isDisabledByEnv(env)) return undefined;
    if (raw === undefined) {
      log.warn(`stdin larger than ${MAX_STDIN_BYTES} bytes; skipped`);
      return undefined;
    }
    const input = parseInput(raw, spec.schema, log);
    if (input === undefined) return undefined;

    const project = findProjectRoot(input.cwd);
    const projectText = readTextFile(join(project.root, '.claude', 'context-lifecycle.json'));
    const root = dataDirFor(env);
    const { config, problems } = loadConfig({ env, userText: readTextFile(join(root, 'config.json')), projectText });
    log.setLevel(config.logLevel);
    reportConfigProblems(problems, log);
    if (config.disabled) return undefined;

    const store = openStore(root, log);
    const breaker = openBreaker(store, spec.event, (input as { session_id: string }).session_id, config, log);
    if (!breaker.allows(new Date())) return undefined;
    if (env.CTXL_DEBUG_DELAY_MS !== undefined) await sleep(Number(env.CTXL_DEBUG_DELAY_MS) || 0);

    const context: HookContext = {
      event: spec.event,
      env,
      config,
      log,
      store,
      project,
      now: () => new Date(),
      timeLeft: () => deadlineMs - (Date.now() - started),
      longWork: () => allowOptimizing(log),
    };
    let output: HookOutput;
    try {
      if (env.CTXL_DEBUG_FAIL === '1') throw new Error('CTXL_DEBUG_FAIL=1: simulated internal failure');
      output = await spec.handler(input, context);
    } catch (error) {
      // A file of the user's we may not read (a transcript of another user's, mode 000) is theirs to
      // fix, not a failure of ours: said once per run, and the breaker does not count it.
      const { code } = error as NodeJS.ErrnoException;
      const path = usersFileOf(error, store.root);
      if ((code === 'EACCES' || code === 'EPERM') && path !== undefined) {
        log.warn(`no permission to read ${path}; nothing done`);
        return undefined;
      }
      log.error('hook failed', error);
      breaker.failed(new Date());
      return undefined;
    }
    breaker.succeeded();
    return render(spec.event, output, log);
  }
}

/** The file a system error names when it lies outside our data dir (the user's, theirs to fix); else undefined. */
export function usersFileOf(error: unknown, dataRoot: string): string | undefined {
  const path = (error as NodeJS.ErrnoException | undefined)?.path;
  return path === undefined || path.startsWith(dataRoot) ? undefined : path;
}

function render(event: HookEvent, output: HookOutput, log: Logger): string | undefined {
  if (output === undefined) return undefined;
  if (typeof output === 'string') {
    if (event !== 'PreCompact') {
      log.error(`${event} handler returned plain text; only PreCompact may`);
      return undefined;
    }
    return output;
  }
  if (event === 'PreCompact') {
    log.error('PreCompact handler returned JSON; Claude Code rejects hookSpecificOutput there');
    return undefined;
  }
  return JSON.stringify(output);
}

let optimizing = false;

/**
 * Stop and the `/recall` hooks start with `node --no-opt` (hooks.json): a run of ~130 ms is faster
 * without TurboFan compiling on a helper thread. A long run is the other way round (a first Stop
 * over 20 MB of backlog took ~2× as long), so work that knows it will be long turns the compiler
 * back on. V8 reads the flag at each tiering decision. (The code cache keeps the flags it was made
 * under: made in such a run it is rejected once by the next and made again.)
 */
function allowOptimizing(log: Logger): void {
  if (optimizing || !process.execArgv.some((a) => a === '--no-opt' || a === '--no-turbofan')) return;
  optimizing = true;
  setFlagsFromString('--turbofan');
  log.debug('long work ahead: V8 optimizing compiler turned on');
}

function parseInput<T>(raw: string, schema: z.ZodMiniType<T>, log: Logger): T | undefined {
  if (raw.trim() === '') {
    log.warn('empty stdin; nothing to do');
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    // Not a byte of it is logged, nor the parser's message (which quotes it): stdin that is not
    // JSON may be anything, a pasted key among it.
    const at = /position (\d+)/.exec((error as Error).message)?.[1];
    log.warn(`stdin is not JSON (${raw.length} characters${at === undefined ? '' : `, invalid at ${at}`}); its text is not logged`);
    return undefined;
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    log.warn(`hook input rejected: ${z.prettifyError(result.error).replace(/\n/g, ' ')}`);
    return undefined;
  }
  return result.data;
}

function reportConfigProblems(problems: ConfigProblem[], log: Logger): void {
  for (const p of problems) log.warn(`config (${p.source}): ${p.message}`);
}

/**
 * Write the answer to fd 1 directly: process.stdout would build a stream (~7 ms of a hook's start)
 * for one write. Our answers are far below a pipe's buffer, so the write does not block. A full
 * pipe (EAGAIN) is retried until `deadline` if nothing is out yet, else until `hardLimit`; a pipe
 * that Claude Code closed (a cancelled hook, EPIPE) is not an error of ours.
 */
function writeStdout(text: string, deadline: number, hardLimit: number, log: Logger): void {
  const problem = writeAll(1, text, (partial) => Date.now() < (partial ? hardLimit : deadline));
  if (problem !== undefined && problem !== 'EPIPE') log.warn(`could not write the answer to stdout (${problem})`);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
