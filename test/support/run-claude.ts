// Running the real Claude Code client (`claude -p`) hermetically: a temporary HOME (so config is
// $HOME/.claude), a temporary git project, an `env -i`-like environment, stdin from /dev/null, a
// debug log per run, and the mock API on loopback (reference §7.2).
import { type SpawnOptions, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MockAnthropic, RecordedRequest } from './mock-anthropic.ts';
import { removeTree } from './remove-tree.ts';

/** The repository root (this file is test/support/run-claude.ts). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = join(REPO_ROOT, 'dist', 'cli.mjs');

export interface Sandbox {
  root: string;
  home: string;
  /** `$HOME/.claude` (CLAUDE_CONFIG_DIR is never set). */
  configDir: string;
  project: string;
  /** `$CTXL_HOME`; not created up front, so our hooks create it (0700) themselves. */
  data: string;
  /** TMPDIR and CLAUDE_CODE_TMPDIR (the client keeps per-project scratch files there). */
  tmp: string;
  cleanup(): void;
}

/** `homeName`: the home folder's name (one with a space checks that every path we write is quoted). */
export function makeSandbox(label: string, homeName = 'home'): Sandbox {
  // realpath: on macOS /tmp is a symlink and Claude Code records the resolved cwd.
  const root = realpathSync(mkdtempSync(join(tmpdir(), `ctxl-e2e-${label}-`)));
  const home = join(root, homeName);
  const project = join(root, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  mkdirSync(join(root, 'tmp'), { recursive: true });
  const git = spawnSync('git', ['init', '-q', '.'], { cwd: project, encoding: 'utf8' });
  if (git.status !== 0) throw new Error(`git init failed in ${project}: ${git.error?.message ?? git.stderr}`);
  return {
    root,
    home,
    configDir: join(home, '.claude'),
    project,
    data: join(root, 'data'),
    tmp: join(root, 'tmp'),
    cleanup() {
      if (process.env.CTXL_E2E_KEEP === '1') {
        console.log(`[e2e] kept ${root}`);
        return;
      }
      removeTree(root);
    },
  };
}

/** PATH for the client and its hooks: the node running the tests first, then the system. */
export function minimalPath(): string {
  return [dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(delimiter);
}

/** The environment every run starts from (nothing inherited from the test process). */
export function baseEnv(sandbox: Sandbox, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: minimalPath(),
    HOME: sandbox.home,
    TERM: 'dumb',
    TMPDIR: sandbox.tmp,
    CLAUDE_CODE_TMPDIR: sandbox.tmp,
    CTXL_HOME: sandbox.data,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    ...extra,
  };
}

export interface ProcessResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  ms: number;
}

/** spawn without blocking the event loop (the mock API lives in this process and must keep answering). */
export function runProcess(command: string, args: string[], options: SpawnOptions & { timeoutMs: number }): Promise<ProcessResult> {
  const started = Date.now();
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr, timedOut, ms: Date.now() - started });
    });
  });
}

export interface ClaudeRunOptions {
  bin: string;
  sandbox: Sandbox;
  mock: MockAnthropic;
  prompt: string;
  /** Extra CLI arguments (`--plugin-dir`, `--resume`, `--allowedTools` …). */
  args?: string[];
  env?: Record<string, string>;
  /** Names the debug log file; defaults to a counter. */
  label?: string;
  timeoutMs?: number;
}

export interface ClaudeResult extends ProcessResult {
  /** The parsed `--output-format json` result, when stdout was JSON. */
  json: Record<string, unknown> | undefined;
  sessionId: string | undefined;
  debugFile: string;
  debugLog: string;
  /** What the mock API received during this run, in order. */
  requests: RecordedRequest[];
  /** A one-paragraph summary for assertion messages. */
  describe(): string;
}

let runCounter = 0;

export async function runClaude(o: ClaudeRunOptions): Promise<ClaudeResult> {
  const label = `${String(++runCounter).padStart(2, '0')}-${(o.label ?? 'run').replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const debugFile = join(o.sandbox.root, `debug-${label}.log`);
  const firstSeq = o.mock.requests.length;
  const env = baseEnv(o.sandbox, {
    ANTHROPIC_BASE_URL: o.mock.url,
    ANTHROPIC_API_KEY: 'sk-ant-test',
    ...o.env,
  });
  const args = ['-p', o.prompt, '--output-format', 'json', '--debug-file', debugFile, ...(o.args ?? [])];
  const r = await runProcess(o.bin, args, { cwd: o.sandbox.project, env, timeoutMs: o.timeoutMs ?? 60_000 });
  let json: Record<string, unknown> | undefined;
  try {
    json = JSON.parse(r.stdout) as Record<string, unknown>;
  } catch {
    json = undefined;
  }
  const debugLog = existsSync(debugFile) ? readFileSync(debugFile, 'utf8') : '';
  const requests = o.mock.requests.slice(firstSeq);
  const sessionId = typeof json?.session_id === 'string' ? json.session_id : undefined;
  return {
    ...r,
    json,
    sessionId,
    debugFile,
    debugLog,
    requests,
    describe: () =>
      [
        `claude -p ${JSON.stringify(o.prompt)} ${(o.args ?? []).join(' ')} → exit ${r.code}${r.signal === null ? '' : ` (${r.signal})`}${r.timedOut ? ' TIMED OUT' : ''} in ${r.ms} ms`,
        `stdout: ${r.stdout.slice(0, 600)}`,
        `stderr: ${r.stderr.slice(0, 600)}`,
        `requests: ${requests.map((q) => `${q.method} ${q.path} [${q.kind}]`).join(', ')}`,
        `debug log: ${debugFile}`,
      ].join('\n'),
  };
}

/** Run `node dist/cli.mjs …` with the sandbox's environment. */
export function runCli(sandbox: Sandbox, args: string[], env: Record<string, string> = {}, timeoutMs = 120_000): Promise<ProcessResult> {
  return runProcess(process.execPath, [CLI, ...args], { cwd: sandbox.project, env: baseEnv(sandbox, env), timeoutMs });
}
