// A Logger that keeps its lines in memory, for calling lib code directly.
import type { Logger, LogLevel } from '../../../lib/runtime/log.ts';

export interface CapturedLine {
  level: LogLevel;
  message: string;
  detail: unknown;
}

export function captureLogger(): Logger & { lines: CapturedLine[] } {
  const lines: CapturedLine[] = [];
  const at = (level: LogLevel) => (message: string, detail?: unknown) => {
    lines.push({ level, message, detail });
  };
  return { lines, error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug'), setLevel: () => undefined, file: undefined };
}
