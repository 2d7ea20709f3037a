// `ctxl doctor [--json]`: is everything wired and healthy? Exit 0 when all is well, 1 otherwise.
// JSON: {"ok": bool, "problems": [{"code", "message", "fix"}]} (a contract: see DESIGN.md).
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { dirname, join } from 'node:path';
import { tempLeftovers } from '../archive/archive-store.ts';
import { pausedSessions } from '../runtime/breaker.ts';
import { PROGRAMS_DIR } from '../runtime/code-cache.ts';
import { loadConfig } from '../runtime/config.ts';
import { STALE_MS } from '../runtime/lock.ts';
import { dataDir, type Env } from '../runtime/paths.ts';
import { findProjectRoot, listDir, pathExists, readTextFile, statSafe } from '../runtime/store.ts';
import { runtimeDir, unrunnablePath } from './install.ts';
import { commandFile, countOurHooks, isOurCommand, ourEnabledPlugins } from './settings-merge.ts';

export interface Problem {
  code: string;
  message: string;
  fix: string;
}

export interface DoctorReport {
  ok: boolean;
  problems: Problem[];
  /** Human lines for the text output (not part of the JSON contract). */
  notes: string[];
}

const EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PreCompact',
  'Stop',
  'SessionEnd',
];

export function doctor(input: { env: Env; configDir: string; cwd: string; now: Date; packageRoot: string }): DoctorReport {
  const problems: Problem[] = [];
  const notes: string[] = [];
  const add = (code: string, message: string, fix: string) => problems.push({ code, message, fix });

  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) add('node-version', `node ${process.versions.node} is older than 20.19`, 'install Node.js 20.19 or newer');
  else notes.push(`node ${process.versions.node}`);

  // Where the hooks are bound.
  const settingsFile = join(input.configDir, 'settings.json');
  let settings: Record<string, unknown> = {};
  const text = readTextFile(settingsFile);
  if (text !== undefined && text.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      add('settings-invalid', `${settingsFile} is not valid JSON`, 'fix the JSON syntax; Claude Code ignores an invalid settings file');
    }
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) settings = parsed as Record<string, unknown>;
    else if (parsed !== undefined) add('settings-invalid', `${settingsFile} is not a JSON object`, 'make it an object ({…}); Claude Code ignores it as it is');
  }
  // The hooks start as `node <V8 flags> …/dist/<hook>.mjs` (flags from this package's hooks.json and
  // from the commands a plain install bound): a `node` that refuses one starts no hook at all. The
  // `node` checked is the one on PATH, as Claude Code's shell finds it.
  const flags = hookNodeFlags([...hookCommands(readTextFile(join(input.packageRoot, 'hooks.json'))), ...hookCommands(text).filter(isOurCommand)]);
  if (flags.length > 0) {
    const r = spawnSync('node', [...flags, '-e', ''], { encoding: 'utf8', timeout: 10_000, env: input.env });
    const why = (r.stderr ?? '').trim().split('\n')[0] ?? '';
    if (r.error !== undefined || r.signal !== null) notes.push(`could not check the hooks' node flags (${r.error?.message ?? r.signal})`);
    else if (r.status !== 0)
      add(
        'node-flags',
        `node on PATH refuses the hooks' flags (${flags.join(' ')}): ${why}`,
        'use the Node.js version the hooks were built for (20.19+), or remove the flag it names from hooks.json',
      );
    else notes.push(`node on PATH accepts the hooks' flags (${flags.join(' ')})`);
  }

  const plain = countOurHooks(settings);
  const plugins = ourEnabledPlugins(settings);
  for (const event of EVENTS) {
    const where = [
      plain.has(event) ? `settings.json${(plain.get(event) ?? 0) > 1 ? ` ×${plain.get(event)}` : ''}` : undefined,
      plugins.length > 0 ? `plugin ${plugins.join(', ')}` : undefined,
    ].filter(Boolean);
    notes.push(`${event.padEnd(19)} ${where.length > 0 ? where.join(' + ') : 'not bound'}`);
    if ((plain.get(event) ?? 0) > 1)
      add(
        'duplicate-hook',
        `${event} is bound ${plain.get(event)} times in settings.json`,
        'run `ctxl install` again: it replaces all of our entries with one set',
      );
  }
  if (plain.size === 0 && plugins.length === 0)
    add(
      'not-installed',
      'no context-lifecycle hooks are bound (neither settings.json nor an enabled plugin)',
      'run `ctxl install` (or `ctxl install --plugin`)',
    );
  // Some events bound in settings.json and others not: an install edited by hand, or cut short.
  const unbound = plugins.length === 0 && plain.size > 0 ? EVENTS.filter((e) => !plain.has(e)) : [];
  if (unbound.length > 0)
    add(
      'missing-hook',
      `${unbound.join(', ')} not bound in settings.json: that part of the plugin does nothing`,
      'run `ctxl install` again: it binds every hook once',
    );
  if (plain.size > 0 && plugins.length > 0)
    add(
      'double-install',
      `installed both in settings.json and as plugin ${plugins.join(', ')}: every hook runs twice`,
      'run `ctxl uninstall`, then install one way only',
    );

  // Plain install: every bound command must point at a file that exists, and so must the program
  // that file runs (dist/programs/<name>-<hash>.js).
  // A plugin runs from the plugin cache under the config folder, a plain install from its runtime copy there.
  const unrunnable = plain.size > 0 || plugins.length > 0 ? unrunnablePath(runtimeDir(input.configDir)) : undefined;
  if (unrunnable !== undefined) add('unrunnable-path', unrunnable, 'move the config folder (CLAUDE_CONFIG_DIR) to a path without a backslash');
  if (plain.size > 0) {
    const cli = join(runtimeDir(input.configDir), 'dist', 'cli.mjs');
    for (const command of boundCommands(settings)) {
      const file = commandFile(command);
      if (file === undefined) continue;
      if (!pathExists(file)) {
        add('missing-runtime', `a hook points at ${file}, which does not exist`, 'run `ctxl install` again from a checkout');
        continue;
      }
      for (const program of loaderPrograms(file))
        if (!pathExists(program)) add('missing-runtime', `${file} runs ${program}, which does not exist`, 'run `ctxl install` again from a checkout');
    }
    if (!pathExists(cli) || loaderPrograms(cli).some((program) => !pathExists(program)))
      add('missing-runtime', `${runtimeDir(input.configDir)} is incomplete`, 'run `ctxl install` again');
  }

  // Data dir: private and writable.
  const data = dataDir(input.env);
  const stat = statSafe(data);
  if (stat === undefined) notes.push(`data dir ${data} (created on first use)`);
  else {
    notes.push(`data dir ${data}`);
    if ((stat.mode & 0o077) !== 0) add('data-dir-permissions', `${data} is readable by others (mode ${(stat.mode & 0o777).toString(8)})`, `chmod 700 ${data}`);
    try {
      accessSync(data, constants.W_OK);
    } catch {
      add('data-dir-unwritable', `${data} is not writable`, `make ${data} writable by you, or set CTXL_HOME`);
    }
  }

  // What killed processes leave: temp files in chunk folders (reindex removes them) and locks
  // nobody holds any more (the next run takes them over; only said).
  if (stat !== undefined) {
    const leftovers = dataLeftovers(data, input.now.getTime());
    if (leftovers.temps > 0)
      add(
        'temp-leftovers',
        `${leftovers.temps} temporary file(s) left in chunk folders by processes killed while writing`,
        'run `ctxl reindex` (it removes them)',
      );
    if (leftovers.staleLocks > 0) notes.push(`${leftovers.staleLocks} lock(s) older than ${STALE_MS / 1000} s: the next run takes them over`);
    // Archive jobs: waiting or running ones are only said; one set aside after three starts that added nothing
    // means an output that is not whole in L2.
    const jobs = listDir(join(data, 'jobs'));
    const failed = jobs.filter((name) => /\.json\.bad-/.test(name));
    const pending = jobs.filter((name) => name.endsWith('.json')).length;
    if (pending > 0) notes.push(`${pending} archive job(s) waiting or running (a large tool output being archived)`);
    if (failed.length > 0)
      add(
        'jobs-failed',
        `${failed.length} archive job(s) were set aside (three starts that archived nothing, or a file that is not JSON), so their outputs are not whole in L2 (${join(data, 'jobs', failed[0] as string)}${failed.length > 1 ? ', …' : ''})`,
        'see the log for why; then `ctxl run-job <file>` runs one again, or delete it',
      );
  }

  // Configuration files.
  const project = findProjectRoot(input.cwd);
  const { problems: configProblems } = loadConfig({
    env: input.env,
    userText: readTextFile(join(data, 'config.json')),
    projectText: readTextFile(join(project.root, '.claude', 'context-lifecycle.json')),
  });
  for (const p of configProblems)
    add('config-invalid', `${p.source} config: ${p.message}`, 'fix or remove the key (see the configuration table in the README)');

  // Circuit breakers and recent errors.
  for (const file of listDir(join(data, 'state')).filter((f) => f.startsWith('breaker-'))) {
    try {
      for (const { session, openUntil } of pausedSessions(readTextFile(join(data, 'state', file)) ?? '', input.now)) {
        add(
          'circuit-open',
          `${file.slice(8, -5)} is paused in session ${session} after repeated failures until ${openUntil}`,
          'see the errors below; it retries by itself after the cool-down',
        );
      }
    } catch {}
  }
  const errors = recentErrors(join(data, 'logs', 'ctxl.log'), input.now);
  if (errors.length > 0)
    add('recent-errors', `${errors.length} error(s) in the log in the last 24 h; last: ${errors.at(-1)}`, `read ${join(data, 'logs', 'ctxl.log')}`);

  return { ok: problems.length === 0, problems, notes };
}

/** Temp leftovers in chunk folders (archive-store's tempLeftovers), and lock folders older than STALE_MS. */
function dataLeftovers(data: string, now: number): { temps: number; staleLocks: number } {
  let temps = 0;
  let staleLocks = 0;
  const oldLock = (dir: string, name: string) => name.endsWith('.lock') && now - (statSafe(join(dir, name))?.mtimeMs ?? now) > STALE_MS;
  for (const name of listDir(join(data, 'index'))) if (oldLock(join(data, 'index'), name)) staleLocks += 1;
  for (const id of listDir(join(data, 'sessions'))) {
    const session = join(data, 'sessions', id);
    for (const name of listDir(session)) if (oldLock(session, name)) staleLocks += 1;
    temps += tempLeftovers(join(session, 'archived'), now).length;
  }
  return { temps, staleLocks };
}

function boundCommands(settings: Record<string, unknown>): string[] {
  const out: string[] = [];
  const hooks = settings.hooks;
  if (hooks === null || typeof hooks !== 'object') return out;
  for (const groups of Object.values(hooks as Record<string, unknown>)) {
    if (!Array.isArray(groups)) continue;
    for (const g of groups) {
      const handlers = (g as { hooks?: unknown }).hooks;
      if (!Array.isArray(handlers)) continue;
      for (const h of handlers) {
        const command = (h as { command?: unknown }).command;
        if (isOurCommand(command)) out.push(command as string);
      }
    }
  }
  return out;
}

function recentErrors(file: string, now: Date): string[] {
  const text = readTextFile(file);
  if (text === undefined) return [];
  const since = now.getTime() - 24 * 3600 * 1000;
  const out: string[] = [];
  for (const line of text.split('\n').slice(-500)) {
    try {
      const entry = JSON.parse(line) as { t?: string; level?: string; scope?: string; msg?: string };
      if (entry.level === 'error' && entry.t !== undefined && Date.parse(entry.t) >= since) out.push(`${entry.scope}: ${entry.msg}`);
    } catch {}
  }
  return out;
}

/** The hook commands in a hooks.json or settings.json text (none when it is not JSON). */
export function hookCommands(text: string | undefined): string[] {
  const out: string[] = [];
  try {
    const hooks = (JSON.parse(text ?? '{}') as { hooks?: unknown }).hooks;
    if (typeof hooks !== 'object' || hooks === null) return out;
    for (const groups of Object.values(hooks)) {
      if (!Array.isArray(groups)) continue;
      for (const group of groups as Array<{ hooks?: unknown }>) {
        if (!Array.isArray(group?.hooks)) continue;
        for (const h of group.hooks as Array<{ command?: unknown }>) if (typeof h?.command === 'string') out.push(h.command);
      }
    }
  } catch {}
  return out;
}

/** The programs a dist loader may run (`programs/<name>-<hash>.js` beside it): one, or the CLI's two. */
export function loaderPrograms(loader: string): string[] {
  return [...(readTextFile(loader) ?? '').matchAll(/name:"([a-z-]+)",hash:"([0-9a-f]{16})"/g)].map((m) =>
    join(dirname(loader), PROGRAMS_DIR, `${m[1]}-${m[2]}.js`),
  );
}

/** The distinct node flags of `node --a --b "…"` commands. */
export function hookNodeFlags(commands: readonly string[]): string[] {
  const flags = new Set<string>();
  for (const command of commands) {
    const m = /^node((?:\s+--[^\s"]+)*)\s/.exec(command);
    for (const f of m?.[1]?.trim().split(/\s+/) ?? []) if (f !== '') flags.add(f);
  }
  return [...flags];
}
