// Reading what our hooks wrote under $CTXL_HOME: sessions/<sid>/{session,cursor}.json,
// sessions/<sid>/events.jsonl and logs/ctxl.log. Tolerant of missing files (returns undefined/[]),
// so a test can say what is missing instead of crashing on ENOENT.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SessionJson {
  version: number;
  sessionId: string;
  cwd: string;
  source?: string;
  prompts: number;
  starts: number;
  closedAt?: string;
  endReason?: string;
  [key: string]: unknown;
}

export interface CursorJson {
  version: number;
  offset: number;
  lines: number;
  context: { reported: number; compactions: number; [key: string]: unknown };
  transcriptPath?: string;
  [key: string]: unknown;
}

export interface ToolEventJson {
  v: number;
  t: string;
  tool: string;
  id?: string;
  ok: boolean;
  command?: string;
  [key: string]: unknown;
}

export interface LogLine {
  t: string;
  level: string;
  scope?: string;
  msg: string;
  [key: string]: unknown;
}

function readJson<T>(file: string): T | undefined {
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

function readJsonLines<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

export class CtxlData {
  constructor(readonly root: string) {}

  sessionDir(sessionId: string): string {
    return join(this.root, 'sessions', sessionId);
  }

  session(sessionId: string): SessionJson | undefined {
    return readJson<SessionJson>(join(this.sessionDir(sessionId), 'session.json'));
  }

  cursor(sessionId: string): CursorJson | undefined {
    return readJson<CursorJson>(join(this.sessionDir(sessionId), 'cursor.json'));
  }

  events(sessionId: string): ToolEventJson[] {
    return readJsonLines<ToolEventJson>(join(this.sessionDir(sessionId), 'events.jsonl'));
  }

  log(): LogLine[] {
    return readJsonLines<LogLine>(join(this.root, 'logs', 'ctxl.log'));
  }

  /** Lines of level error in logs/ctxl.log (each is a problem by the project's convention). */
  logErrors(): LogLine[] {
    return this.log().filter((l) => l.level === 'error');
  }
}
