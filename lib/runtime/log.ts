// A file logger that can never break a hook: JSON lines, 0600 file in a 0700 dir, rotated to `.1`
// above 1 MiB. Never writes to stdout or stderr. Synchronous so a line is on disk before exit.
import { appendFileSync, chmodSync, lstatSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export type LogLevel = 'error' | 'warn' | 'info' | 'debug';
const RANK: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 };
const ROTATE_BYTES = 1024 * 1024;

export interface Logger {
  error(message: string, detail?: unknown): void;
  warn(message: string, detail?: unknown): void;
  info(message: string, detail?: unknown): void;
  debug(message: string, detail?: unknown): void;
  /** Raise or lower the level once config is known. */
  setLevel(level: LogLevel): void;
  readonly file: string | undefined;
}

export interface LoggerOptions {
  file: string | undefined; // undefined: a logger that drops everything (tests, read-only data dir)
  scope: string;
  level?: LogLevel;
  now?: () => Date;
  sessionId?: string;
}

export function createFileLogger(options: LoggerOptions): Logger {
  let level: LogLevel = options.level ?? 'warn';
  const now = options.now ?? (() => new Date());
  const write = (at: LogLevel, message: string, detail?: unknown): void => {
    if (options.file === undefined || RANK[at] > RANK[level]) return;
    const line: Record<string, unknown> = { t: now().toISOString(), level: at, scope: options.scope, msg: message };
    if (options.sessionId !== undefined) line.session = options.sessionId;
    if (detail !== undefined) line.detail = describe(detail);
    const text = `${JSON.stringify(line)}\n`;
    // A read-only data dir must still leave a trace: fall back to a private folder in the temp dir.
    if (!appendTo(options.file, text)) appendTo(fallbackLogFile(), text);
  };
  return {
    error: (m, d) => write('error', m, d),
    warn: (m, d) => write('warn', m, d),
    info: (m, d) => write('info', m, d),
    debug: (m, d) => write('debug', m, d),
    setLevel: (l) => {
      level = l;
    },
    file: options.file,
  };
}

function appendTo(file: string | undefined, text: string): boolean {
  if (file === undefined) return false;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    rotateIfLarge(file);
    appendFileSync(file, text, { mode: 0o600 });
    return true;
  } catch {
    // Logging must never throw: a full disk loses the line, not the session.
    return false;
  }
}

/** `<tmp>/context-lifecycle-<uid>/ctxl.log`, used only if that folder is ours and not a link. */
export function fallbackLogFile(): string | undefined {
  const uid = typeof process.getuid === 'function' ? process.getuid() : 0;
  const dir = join(tmpdir(), `context-lifecycle-${uid}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = lstatSync(dir);
    if (!stat.isDirectory() || stat.isSymbolicLink() || (typeof process.getuid === 'function' && stat.uid !== uid) || (stat.mode & 0o077) !== 0)
      return undefined;
    return join(dir, 'ctxl.log');
  } catch {
    return undefined;
  }
}

function rotateIfLarge(file: string): void {
  let size = 0;
  try {
    size = statSync(file).size;
  } catch {
    return;
  }
  if (size < ROTATE_BYTES) return;
  try {
    renameSync(file, `${file}.1`);
    chmodSync(`${file}.1`, 0o600);
  } catch {
    // Another process rotated first.
  }
}

function describe(detail: unknown): unknown {
  if (detail instanceof Error) {
    const code = (detail as NodeJS.ErrnoException).code;
    return { error: detail.message, ...(code === undefined ? {} : { code }), stack: detail.stack?.split('\n').slice(1, 4).join(' | ') };
  }
  if (typeof detail === 'string') return detail.length > 2000 ? `${detail.slice(0, 2000)}…` : detail;
  return detail;
}
