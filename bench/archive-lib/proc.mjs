// Child processes for the archive bench: `node dist/cli.mjs …` and the baselines, timed from spawn to
// exit. spawnSync keeps this process idle while the child runs, so the wall time is the child's life
// plus a constant spawn/reap cost that every baseline pays too. `runAsync` is only used to build data
// sets in parallel, never for a timed figure.
import { spawn } from 'node:child_process';
import { childCpuMs, runNode as runNodeTimed } from '../lib/proc.mjs';
import { NODE_START_ENV } from '../lib/scenarios.mjs';

// CPU time of reaped children: the hook bench's helper (see its comment on accuracy).
export { childCpuMs };

/** Run `node …args` synchronously, timed: the hook bench's runner (stdin from /dev/null). */
export function runNode(args, { cwd, env } = {}) {
  return runNodeTimed(args, { cwd, env });
}

export function runNodeAsync(args, { cwd, env } = {}) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (b) => out.push(b));
    child.stderr.on('data', (b) => err.push(b));
    child.on('error', (error) => resolve({ ms: 0, status: null, signal: null, error, stdout: '', stderr: '' }));
    child.on('close', (status, signal) =>
      resolve({
        ms: Number(process.hrtime.bigint() - started) / 1e6,
        status,
        signal,
        error: undefined,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
  });
}

/** A one-line reason when a child misbehaved (crash, signal, non-zero exit); else undefined. */
export function problemOf(r) {
  if (r.error !== undefined) return `spawn failed: ${r.error.message}`;
  if (r.signal !== null) return `killed by ${r.signal}`;
  if (r.status !== 0) return `exit ${r.status}: ${firstLine(r.stderr) || firstLine(r.stdout)}`;
  return undefined;
}

const firstLine = (s) => (s.trim().split('\n')[0] ?? '').slice(0, 200);

/** Parse the last JSON line of a child's stdout; undefined when there is none. */
export function jsonOut(r) {
  const lines = r.stdout.trim().split('\n');
  try {
    return JSON.parse(lines[lines.length - 1]);
  } catch {
    return undefined;
  }
}

/**
 * The environment every child gets: the caller's, minus anything of ours that could change behaviour,
 * plus CTXL_HOME and an empty Claude config dir (so nothing reads or writes the user's ~/.claude).
 */
export function childEnv({ home, configDir }) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('CTXL_') || k === 'CLAUDE_CONFIG_DIR' || NODE_START_ENV.includes(k) || k.startsWith('CLAUDE_CODE_')) continue;
    env[k] = v;
  }
  env.CTXL_HOME = home;
  env.CLAUDE_CONFIG_DIR = configDir;
  env.TZ = 'UTC';
  return env;
}
