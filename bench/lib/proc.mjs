// Spawning a hook (or the floor) the way Claude Code does: `node <file>` with the hook JSON on stdin,
// in the session's cwd. spawnSync keeps the parent idle while the child runs, so the wall time around
// it is the child's life plus a constant spawn/reap cost that the floor pays too.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MAX_BUFFER = 64 * 1024 * 1024;

/**
 * CPU time (user + system, ms) of all our children reaped so far: cutime + cstime from
 * /proc/self/stat, in clock ticks (USER_HZ, 100 on Linux). One delta is only good to ±10 ms, but the
 * truncation is unbiased, so the mean over many runs is accurate to about a millisecond. Unlike wall
 * time it does not count time spent waiting for a core, so it stays steady on a loaded machine.
 * undefined where /proc is missing.
 */
export function childCpuMs() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(f[13]) + Number(f[14]);
    return Number.isFinite(ticks) ? ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The node flags hooks.json gives a hook (`node --max-semi-space-size=1 "…/stop.mjs"`): the bench runs
 * each hook exactly as Claude Code would.
 */
const HOOK_FLAGS = (() => {
  const map = new Map();
  const hooks = JSON.parse(readFileSync(new URL('../../hooks.json', import.meta.url), 'utf8')).hooks;
  for (const groups of Object.values(hooks)) {
    for (const group of groups) {
      for (const h of group.hooks) {
        const m = /^node((?:\s+--[^\s"]+)*)\s+"[^"]*\/dist\/([a-z-]+\.mjs)"/.exec(h.command);
        if (m !== null) map.set(m[2], m[1].trim() === '' ? [] : m[1].trim().split(/\s+/));
      }
    }
  }
  return map;
})();

/** The node flags hooks.json gives `dist/<name>` (e.g. `stop.mjs`), [] when none. */
export function hookFlags(name) {
  return HOOK_FLAGS.get(name) ?? [];
}

function withHookFlags(args) {
  const file = args.find((a) => a.endsWith('.mjs'));
  const flags = file === undefined ? [] : (HOOK_FLAGS.get(file.split('/').pop()) ?? []);
  return flags.length === 0 || !file.includes('/dist') ? args : [...flags, ...args];
}

/** Run `node [nodeArgs…] file` once; `input` undefined means stdin is /dev/null (for `node -e ''`). */
export function runNode(rawArgs, { input, cwd, env, wrapper }) {
  const args = withHookFlags(rawArgs);
  const argv = wrapper === undefined ? [process.execPath, ...args] : [...wrapper, process.execPath, ...args];
  const cpu0 = childCpuMs();
  const started = process.hrtime.bigint();
  const r = spawnSync(argv[0], argv.slice(1), {
    input,
    cwd,
    env,
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    maxBuffer: MAX_BUFFER,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const cpu1 = childCpuMs();
  return {
    ms,
    cpuMs: cpu0 === undefined || cpu1 === undefined ? Number.NaN : cpu1 - cpu0,
    status: r.status,
    signal: r.signal,
    error: r.error,
    stdout: r.stdout?.toString('utf8') ?? '',
    stderr: r.stderr?.toString('utf8') ?? '',
  };
}

/** A one-line reason when the process itself misbehaved (crash, signal, stray stderr); else undefined. */
export function processProblem(r) {
  if (r.error !== undefined) return `spawn failed: ${r.error.message}`;
  if (r.signal !== null) return `killed by ${r.signal}`;
  if (r.status !== 0) return `exit ${r.status}: ${firstLine(r.stderr)}`;
  if (r.stderr.trim() !== '') return `stderr: ${firstLine(r.stderr)}`;
  return undefined;
}

function firstLine(text) {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}

// ---- peak RSS ----

// CTXL_BENCH_GNU_TIME overrides the path (set it to a missing file to exercise the fallback).
const GNU_TIME = process.env.CTXL_BENCH_GNU_TIME ?? '/usr/bin/time';
const PROBE = new URL('../rss-probe.mjs', import.meta.url);

/**
 * 'time' (GNU time -f %M) when it is present and answers sanely, else 'probe' (--import of
 * bench/rss-probe.mjs, which records process.resourceUsage().maxRSS at exit).
 */
export function pickRssMethod(preference) {
  if (preference === 'probe') return 'probe';
  const works = existsSync(GNU_TIME) && gnuTimeWorks();
  if (preference === 'time' && !works) throw new Error(`--rss-method time: ${GNU_TIME} is missing or does not support -f %M -o`);
  return works ? 'time' : 'probe';
}

function gnuTimeWorks() {
  const dir = mkdtempSync(join(tmpdir(), 'ctxl-bench-time-'));
  try {
    const out = join(dir, 'rss');
    const r = spawnSync(GNU_TIME, ['-f', '%M', '-o', out, process.execPath, '-e', ''], { stdio: 'ignore' });
    if (r.status !== 0 || !existsSync(out)) return false;
    const kb = Number(readFileSync(out, 'utf8').trim().split('\n').pop());
    return Number.isFinite(kb) && kb > 1000;
  } catch {
    return false;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Run once under the chosen method; returns the run plus `kb` (peak RSS in KiB). */
export function runNodeRss(method, args, options, rssFile) {
  rmSync(rssFile, { force: true });
  const r =
    method === 'time'
      ? runNode(args, { ...options, wrapper: [GNU_TIME, '-f', '%M', '-o', rssFile] })
      : runNode(['--import', PROBE.href, ...args], { ...options, env: { ...options.env, CTXL_BENCH_RSS_FILE: rssFile } });
  let kb;
  try {
    // GNU time prefixes "Command exited with non-zero status N" when the child fails; the number is last.
    kb = Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop());
  } catch {
    kb = Number.NaN;
  }
  return { ...r, kb };
}
