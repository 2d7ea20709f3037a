// Run the compiled hooks and CLI as separate processes, with a minimal, explicit environment.
import { type SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { distDir } from './paths.ts';

export type ProcEnv = Record<string, string>;

/** Bundles in dist/ that are not hooks: the CLI and the worker its ingest starts. */
export const NOT_HOOKS: ReadonlySet<string> = new Set(['cli.mjs']);

/** The hook files in dist/ (everything but the CLI and its worker), e.g. `session-start`. */
export function distHooks(): string[] {
  return readdirSync(distDir)
    .filter((f) => f.endsWith('.mjs') && !NOT_HOOKS.has(f))
    .map((f) => f.slice(0, -'.mjs'.length))
    .sort();
}

/** Environment for a hook or CLI run: nothing of the caller's leaks in besides PATH. */
export function baseEnv(home: string, extra: ProcEnv = {}): ProcEnv {
  return { PATH: process.env.PATH ?? '', HOME: home, TZ: 'UTC', ...extra };
}

export interface RunResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

const fromSync = (r: SpawnSyncReturns<string>): RunResult => ({ status: r.status, signal: r.signal, stdout: r.stdout ?? '', stderr: r.stderr ?? '' });

export function runHookSync(hook: string, input: string | Buffer, env: ProcEnv, options?: { cwd?: string; timeoutMs?: number }): RunResult {
  return fromSync(
    spawnSync(process.execPath, [join(distDir, `${hook}.mjs`)], {
      input,
      env,
      cwd: options?.cwd ?? env.HOME,
      encoding: 'utf8',
      timeout: options?.timeoutMs ?? 15_000,
      maxBuffer: 64 * 1024 * 1024,
    }),
  );
}

export function runHookAsync(hook: string, input: string, env: ProcEnv, options?: { cwd?: string; timeoutMs?: number }): Promise<RunResult> {
  return runNodeAsync([join(distDir, `${hook}.mjs`)], input, env, options?.cwd ?? env.HOME ?? '', options?.timeoutMs ?? 30_000);
}

/** `node dist/cli.mjs …args` without blocking this process (for runs that must overlap). */
export function runCliAsync(args: string[], env: ProcEnv, cwd: string): Promise<RunResult> {
  return runNodeAsync([join(distDir, 'cli.mjs'), ...args], undefined, env, cwd, 60_000);
}

function runNodeAsync(args: string[], input: string | undefined, env: ProcEnv, cwd: string, timeoutMs: number): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, cwd, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolve({ status, signal, stdout, stderr });
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}

export function runCli(args: string[], env: ProcEnv, cwd: string): RunResult {
  return fromSync(spawnSync(process.execPath, [join(distDir, 'cli.mjs'), ...args], { env, cwd, encoding: 'utf8', timeout: 30_000 }));
}

export interface LogLine {
  t: string;
  level: string;
  scope: string;
  msg: string;
  session?: string;
  detail?: unknown;
}

/** The JSON lines of `<data>/logs/ctxl.log` (empty when the file does not exist). */
export function readLog(dataDir: string): LogLine[] {
  let text: string;
  try {
    text = readFileSync(join(dataDir, 'logs', 'ctxl.log'), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as LogLine);
}

/** Hook file name (kebab case) → Claude Code event name. */
export const EVENT_OF: Record<string, string> = {
  'session-start': 'SessionStart',
  'user-prompt-submit': 'UserPromptSubmit',
  'user-prompt-expansion': 'UserPromptExpansion',
  'pre-tool-use': 'PreToolUse',
  'post-tool-use': 'PostToolUse',
  'post-tool-use-failure': 'PostToolUseFailure',
  'pre-compact': 'PreCompact',
  stop: 'Stop',
  'session-end': 'SessionEnd',
};

/** A valid input for each hook, for the given session, cwd and transcript. */
export function validInput(hook: string, o: { sessionId: string; cwd: string; transcriptPath: string }): string {
  const base = { session_id: o.sessionId, transcript_path: o.transcriptPath, cwd: o.cwd, hook_event_name: EVENT_OF[hook] ?? hook };
  switch (hook) {
    case 'session-start':
      return JSON.stringify({ ...base, source: 'startup' });
    case 'user-prompt-submit':
      return JSON.stringify({ ...base, prompt_id: 'p1', permission_mode: 'default', prompt: 'say hi' });
    case 'user-prompt-expansion':
      return JSON.stringify({
        ...base,
        expansion_type: 'slash_command',
        command_name: 'recall',
        command_args: 'hello world',
        command_source: 'userSettings',
        prompt: '/recall hello world',
      });
    case 'pre-tool-use':
      return JSON.stringify({ ...base, tool_name: 'Skill', tool_input: { skill: 'context-lifecycle:recall', args: 'hello world' }, tool_use_id: 'toolu_3' });
    case 'post-tool-use':
      return JSON.stringify({
        ...base,
        tool_name: 'Bash',
        tool_input: { command: 'echo hello', description: 'greet' },
        tool_response: { stdout: 'hello\n', stderr: '', interrupted: false, isImage: false },
        tool_use_id: 'toolu_1',
        duration_ms: 12,
      });
    case 'post-tool-use-failure':
      return JSON.stringify({ ...base, tool_name: 'Bash', tool_input: { command: 'false' }, tool_use_id: 'toolu_2', error: 'Exit code 1', duration_ms: 5 });
    case 'pre-compact':
      return JSON.stringify({ ...base, trigger: 'auto', custom_instructions: null });
    case 'stop':
      return JSON.stringify({ ...base, stop_hook_active: false, last_assistant_message: 'done' });
    case 'session-end':
      return JSON.stringify({ ...base, reason: 'other' });
    default:
      throw new Error(`no input for ${hook}`);
  }
}
