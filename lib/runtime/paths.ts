// Where things live. Pure: every function takes the environment it needs as an argument.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export type Env = Readonly<Record<string, string | undefined>>;

/** `${CLAUDE_CONFIG_DIR:-~/.claude}` */
export function configDir(env: Env): string {
  const fromEnv = env.CLAUDE_CONFIG_DIR;
  if (fromEnv !== undefined && fromEnv !== '') return resolve(fromEnv);
  return join(env.HOME && env.HOME !== '' ? env.HOME : homedir(), '.claude');
}

/** `$CTXL_HOME`, else `<config>/memory`. */
export function dataDir(env: Env): string {
  const fromEnv = env.CTXL_HOME;
  if (fromEnv !== undefined && fromEnv !== '') return resolve(fromEnv);
  return join(configDir(env), 'memory');
}

/** Our log file, `<data>/logs/ctxl.log` (undefined when no data dir can be named). */
export function logFile(env: Env): string | undefined {
  try {
    return join(dataDir(env), 'logs', 'ctxl.log');
  } catch {
    return undefined;
  }
}

/** `CTXL_DISABLE` set to a truthy spelling: the plugin does nothing and writes nothing. */
export function isDisabledByEnv(env: Env): boolean {
  const raw = env.CTXL_DISABLE;
  return raw !== undefined && /^(1|true|yes|on)$/i.test(raw);
}

const MAX_NAME = 128;

/**
 * Make any externally supplied string safe as one path segment: `[^A-Za-z0-9._-]` → `_`, at most 128
 * chars. Names made only of dots (`.`, `..`) would still escape, so they are prefixed.
 */
export function sanitizeName(raw: string): string {
  let name = raw.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, MAX_NAME);
  if (name === '' || /^\.+$/.test(name)) name = `_${name}`.slice(0, MAX_NAME);
  return name;
}

/** Claude Code's transcript folder name for a cwd (reference §5.1): used to find transcripts. */
export function claudeProjectDirName(path: string): string {
  const s = path.replace(/[^a-zA-Z0-9]/g, '-');
  if (s.length <= 200) return s;
  let h = 0;
  for (let i = 0; i < path.length; i++) h = ((h << 5) - h + path.charCodeAt(i)) | 0;
  return `${s.slice(0, 200)}-${Math.abs(h).toString(36)}`;
}

/** How the user (and Claude) call recall here: a plugin's commands are namespaced (reference §3.2). */
export function recallCommandFor(env: Env): string {
  return env.CLAUDE_PLUGIN_ROOT === undefined ? '/recall' : '/context-lifecycle:recall';
}
