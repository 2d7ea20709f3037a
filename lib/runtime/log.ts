// A file logger that can never break a hook: JSON lines, 0600 file in a 0700 dir, rotated to `.1`
// above 1 MiB. Never writes to stdout or stderr. Synchronous so a line is on disk before exit.
import { appendFileSync, chmodSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

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
  let dirReady = false;
  const write = (at: LogLevel, message: string, detail?: unknown): void => {
    if (options.file === undefined || RANK[at] > RANK[level]) return;
    try {
      if (!dirReady) {
        mkdirSync(dirname(options.file), { recursive: true, mode: 0o700 });
        dirReady = true;
      }
      rotateIfLarge(options.file);
      const line: Record<string, unknown> = { t: now().toISOString(), level: at, scope: options.scope, msg: message };
      if (options.sessionId !== undefined) line.session = options.sessionId;
      if (detail !== undefined) line.detail = describe(detail);
      appendFileSync(options.file, `${JSON.stringify(line)}\n`, { mode: 0o600 });
    } catch {
      // Logging must never throw: a full disk or a read-only dir loses the line, not the session.
    }
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
