// `ctxl status [--session ID] [--cwd DIR] [--json]` and `/context-status`: the current session's
// phase, its context use in four zones (a bar on a terminal, the numbers with --json) and how far
// its transcript was read.

import { join } from 'node:path';
import { budgetJson, zoneBar, zoneLines } from '../context/budget.ts';
import { savedBudget } from '../context/budget-store.ts';
import { sessionWindow } from '../context/claude-settings.ts';
import { thousands } from '../context/thousands.ts';
import { readPhaseFile } from '../phase/phase-store.ts';
import { loadConfig } from '../runtime/config.ts';
import { createFileLogger } from '../runtime/log.ts';
import { dataDir, type Env, sanitizeName } from '../runtime/paths.ts';
import { findProjectRoot, listDir, openStore, readTextFile } from '../runtime/store.ts';
import { readCursor, readSession } from '../session/session-files.ts';
import { contextTokens } from '../transcript/context-size.ts';

export interface StatusReport {
  sessionId: string | undefined;
  projectRoot: string;
  phase: string;
  contextTokens: number | undefined;
  window: number;
  percent: number | undefined;
  transcriptLines: number | undefined;
  compactions: number | undefined;
  lastSeenAt: string | undefined;
  closed: boolean | undefined;
  /** The four zones and the compression level as of the last turn; undefined before the first. */
  budget: ReturnType<typeof budgetJson> | undefined;
}

/** `/context-status` (or `/context-lifecycle:context-status`), answered by the UserPromptExpansion hook. */
export function isStatusCommand(name: string | undefined): boolean {
  return name === 'context-status' || name === 'context-lifecycle:context-status';
}

export function status(input: { env: Env; cwd: string; sessionId: string | undefined; now: Date }): StatusReport {
  const log = createFileLogger({ file: undefined, scope: 'cli' });
  const store = openStore(dataDir(input.env), log);
  const projectRoot = findProjectRoot(input.cwd).root;
  const sessionId = input.sessionId ?? latestSessionFor(store.root, projectRoot, input.now);
  const session = sessionId === undefined ? undefined : readSession(store, sessionId, log, input.now);
  const cursor = sessionId === undefined ? undefined : readCursor(store, sessionId, log, input.now);
  const tokens = cursor === undefined ? undefined : contextTokens(cursor.context);
  const { config } = loadConfig({
    env: input.env,
    userText: readTextFile(join(store.root, 'config.json')),
    projectText: readTextFile(join(projectRoot, '.claude', 'context-lifecycle.json')),
  });
  const window = sessionWindow({ env: input.env, config, projectRoot: session?.projectRoot ?? projectRoot, models: [cursor?.context.model, session?.model] });
  const budget =
    sessionId === undefined
      ? undefined
      : savedBudget({ store, log, env: input.env, config, project: { root: session?.projectRoot ?? projectRoot } }, sessionId, cursor, [session?.model]);
  return {
    sessionId,
    projectRoot: session?.projectRoot ?? projectRoot,
    phase: sessionId === undefined ? 'unknown' : (readPhaseFile(store, sessionId, log, input.now)?.tracker.phase ?? 'unknown'),
    contextTokens: tokens,
    window,
    percent: tokens === undefined ? undefined : Math.round((tokens / window) * 1000) / 10,
    transcriptLines: cursor?.lines,
    compactions: cursor?.context.compactions,
    lastSeenAt: session?.lastSeenAt,
    closed: session === undefined ? undefined : session.closedAt !== undefined,
    budget: budget?.measured === true ? budgetJson(budget) : undefined,
  };
}

/** The most recently seen session of a project (session.json carries its project root). */
function latestSessionFor(root: string, projectRoot: string, now: Date): string | undefined {
  const log = createFileLogger({ file: undefined, scope: 'cli' });
  const store = openStore(root, log);
  let best: { id: string; seen: string } | undefined;
  for (const id of listDir(join(root, 'sessions'))) {
    if (sanitizeName(id) !== id) continue;
    const s = readSession(store, id, log, now);
    if (s === undefined || s.projectRoot !== projectRoot) continue;
    if (best === undefined || s.lastSeenAt > best.seen) best = { id, seen: s.lastSeenAt };
  }
  return best?.id;
}

export function renderStatus(r: StatusReport): string {
  if (r.sessionId === undefined) return `context-lifecycle: no session recorded yet for ${r.projectRoot}`;
  const lines = [`context-lifecycle · session ${r.sessionId}${r.closed === true ? ' (ended)' : ''}`, `phase: ${r.phase}`];
  if (r.contextTokens === undefined) lines.push('context: not measured yet (measured at the end of each turn)');
  else lines.push(`context: ${thousands(r.contextTokens)} of ${thousands(r.window)} tokens (${r.percent}%) ${bar(r.percent ?? 0)}`);
  if (r.budget !== undefined) {
    lines.push(`zones: ${zoneBar(r.budget, 40)}  █ used  ░ free  · working room  ! past the buffer line`, ...zoneLines(r.budget).map((l) => `  ${l}`));
  }
  if (r.transcriptLines !== undefined) lines.push(`transcript: ${r.transcriptLines} lines read, ${r.compactions ?? 0} compaction(s)`);
  return lines.join('\n');
}

function bar(percent: number): string {
  const width = 20;
  const filled = Math.max(0, Math.min(width, Math.round((percent / 100) * width)));
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}
