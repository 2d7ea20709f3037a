// `ctxl reindex`: rebuild the search index from the chunk files, remove what killed writers left, and
// restore damaged chunk files from their session's transcript.
import { join } from 'node:path';
import { archiveDir, catalogFile, catalogLineId, listChunkIds, readChunk, removeTempLeftovers, writeChunks } from '../archive/archive-store.ts';
import { type Chunk, salvageCutShort } from '../archive/chunk-file.ts';
import { toolOutputOf, toolPartId } from '../archive/chunker.ts';
import { chunkHash } from '../archive/hash.ts';
import { STUB_MARK } from '../context/stub.ts';
import { refreshIndex } from '../index/refresh.ts';
import { tagPhase } from '../phase/ledgers.ts';
import { readPhaseFile } from '../phase/phase-store.ts';
import { archiveStats } from '../recall/recall.ts';
import { findProjectRoot, listDir, pathExists, readTextFile, removePath, removeStaleTemps, renamePath, statSafe } from '../runtime/store.ts';
import { readSession, rearchiveSession, type SessionEnv } from '../session/session-files.ts';
import type { CliEnv } from './cli-runtime.ts';

export interface ReindexResult {
  sessions: number;
  chunks: number;
  /** Chunk files found damaged (cut short, overwritten with garbage): skipped by the index. */
  damaged: number;
  /** Of those, how many were archived again from their session's transcript. */
  restored: number;
}

export async function reindexCommand(cli: CliEnv, options: { cwd: string; all: boolean }): Promise<ReindexResult> {
  const projectRoot = options.all ? undefined : findProjectRoot(options.cwd).root;
  const bad = new Map<string, Set<string>>();
  const onBad = (sessionId: string, id: string) => bad.set(sessionId, (bad.get(sessionId) ?? new Set()).add(id));
  // First what a reindex killed while restoring left, so the rebuild sees the files as they will stay.
  const finished = resumeRestores(cli, onBad);
  const done = await refreshIndex(cli.store, cli.log, { rebuild: true, waitMs: 60_000, onBad });
  if (!done.complete) throw new Error('the index is busy (another process holds its lock); try again');
  let temps = 0;
  for (const id of listDir(cli.store.path('sessions'))) {
    temps += removeTempLeftovers(cli.store, id, cli.now.getTime());
    // A chunk its catalog lists whose file is gone (deleted by hand, lost with a disk) is damaged too.
    for (const gone of missingChunks(cli, id)) onBad(id, gone);
  }
  temps += removeStaleTemps(cli.store.path('jobs'), cli.now.getTime());
  if (temps > 0) cli.log.info(`reindex: removed ${temps} temporary file(s) left by killed writers`);
  const { restored: again, salvaged } = await restoreDamaged(cli, bad);
  const restored = finished + again;
  if (restored + salvaged > 0) await refreshIndex(cli.store, cli.log, { waitMs: 60_000 });
  const { chunks, sessions } = archiveStats(cli.store, cli.log, projectRoot);
  let damaged = finished;
  for (const ids of bad.values()) damaged += ids.size;
  return { sessions, chunks, damaged, restored };
}

/** Ids the session's catalog lists whose chunk file is not there. */
function missingChunks(cli: CliEnv, sessionId: string): string[] {
  const text = readTextFile(catalogFile(cli.store, sessionId));
  if (text === undefined) return [];
  const present = new Set(listChunkIds(cli.store, sessionId));
  const bytes = Buffer.from(text);
  const missing = new Set<string>();
  let start = 0;
  for (let end = bytes.indexOf(10); end !== -1; start = end + 1, end = bytes.indexOf(10, start)) {
    const id = catalogLineId(bytes, start, end);
    if (id !== undefined && !present.has(id)) missing.add(id);
  }
  return [...missing];
}

/**
 * Damaged chunk files come back from their session's transcript while it is there: the session is
 * archived again from its first line (each chunk is keyed by its content, so the sound ones are
 * found as they are), each chunk tagged with the phase its time falls in. A part of a large output
 * that the transcript holds only as a stub or a preview cannot come back that way: the damaged file
 * is put back as it was (and counted), and salvaged if it was cut short inside its text. Returns how
 * many are sound again, and how many of the rest were salvaged.
 */
async function restoreDamaged(cli: CliEnv, bad: ReadonlyMap<string, ReadonlySet<string>>): Promise<{ restored: number; salvaged: number }> {
  let restored = 0;
  let salvaged = 0;
  for (const [sessionId, ids] of bad) {
    const record = readSession(cli.store, sessionId, cli.log, cli.now);
    const transcript = record?.transcriptPath;
    if (transcript === undefined || statSafe(transcript)?.isFile() !== true) {
      cli.log.warn(`reindex: ${ids.size} damaged chunk(s) of session ${sessionId} cannot be restored: its transcript is gone`);
      salvaged += salvage(cli, sessionId, ids);
      continue;
    }
    const env: SessionEnv = {
      store: cli.store,
      log: cli.log,
      now: () => cli.now,
      project: { root: record?.projectRoot ?? findProjectRoot(record?.cwd ?? process.cwd()).root },
    };
    const dir = archiveDir(cli.store, sessionId);
    const aside = (id: string) => join(dir, `${id}.md.damaged`);
    for (const id of ids) move(join(dir, `${id}.md`), aside(id));
    const spans = readPhaseFile(cli.store, sessionId, cli.log, cli.now)?.tracker.spans ?? [];
    const tag = (chunk: Chunk) => void tagPhase(chunk, spans);
    try {
      await rearchiveSession(env, sessionId, transcript, tag);
    } catch (error) {
      cli.log.warn(`reindex: could not archive session ${sessionId} again to restore its damaged chunks`, error);
    }
    const unsound = new Set<string>();
    for (const id of ids) {
      if (restoredWhole(cli, sessionId, id)) removePath(aside(id));
      else {
        move(aside(id), join(dir, `${id}.md`));
        unsound.add(id);
      }
    }
    restored += ids.size - unsound.size;
    if (unsound.size > 0)
      cli.log.warn(
        `reindex: ${unsound.size} damaged chunk(s) of session ${sessionId} cannot be written again from its transcript (a ledger, or a large output the transcript holds only as a stub or preview); left as they were`,
      );
    salvaged += salvage(cli, sessionId, unsound);
  }
  return { restored, salvaged };
}

/**
 * Of damaged chunks that stay so, those cut short inside their text are written again with what is
 * left and a note that says so (CUT_SHORT_NOTE): found by /recall as before they were checked,
 * never passed off as whole. Returns how many.
 */
function salvage(cli: CliEnv, sessionId: string, ids: ReadonlySet<string>): number {
  const dir = archiveDir(cli.store, sessionId);
  const kept: Chunk[] = [];
  for (const id of ids) {
    const text = readTextFile(join(dir, `${id}.md`));
    const chunk = text === undefined ? undefined : salvageCutShort(text);
    if (chunk !== undefined && chunk.id === id) kept.push(chunk);
  }
  if (kept.length === 0) return 0;
  writeChunks(cli.store, sessionId, kept);
  cli.log.warn(`reindex: kept what is left of ${kept.length} chunk(s) of session ${sessionId} cut short inside their text, marked as cut short`);
  return kept.length;
}

/**
 * What a reindex killed while restoring left: a damaged chunk file set aside (`<id>.md.damaged`).
 * Rewritten whole since, the aside goes (and counts as restored); otherwise the chunk is damaged
 * again for this run to restore, and the aside is the file as it was (a copy of the transcript's
 * stub written meanwhile goes). Returns how many were finished.
 */
function resumeRestores(cli: CliEnv, onBad: (sessionId: string, id: string) => void): number {
  let finished = 0;
  for (const sessionId of listDir(cli.store.path('sessions'))) {
    const dir = archiveDir(cli.store, sessionId);
    for (const name of listDir(dir)) {
      const id = /^([0-9a-f]{16})\.md\.damaged$/.exec(name)?.[1];
      if (id === undefined) continue;
      const file = join(dir, `${id}.md`);
      if (pathExists(file) && restoredWhole(cli, sessionId, id)) {
        removePath(join(dir, name));
        finished += 1;
        continue;
      }
      removePath(file);
      onBad(sessionId, id);
    }
  }
  if (finished > 0) cli.log.info(`reindex: finished ${finished} restore(s) a killed reindex had begun`);
  return finished;
}

/** A rename that a file removed meanwhile does not fail. */
function move(from: string, to: string): void {
  try {
    renamePath(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * Whether a chunk written again from the transcript is the chunk that was damaged: not when the
 * archive holds more parts of its output than this copy counts (the transcript held a stub or a
 * preview of an output archived whole).
 */
function restoredWhole(cli: CliEnv, sessionId: string, id: string): boolean {
  const read = readChunk(cli.store, sessionId, id);
  if (read?.ok !== true) return false;
  const c = read.chunk;
  if (c.type !== 'tool' || c.toolUseId === undefined) return true;
  // The transcript's copy of an output it does not hold whole: a stub, or the client's preview (the
  // output after the call's line starts with it; an output that merely mentions them is whole).
  const output = toolOutputOf(c).trimStart();
  if ((output.startsWith('[context-lifecycle]') && output.split('\n', 1)[0]?.includes(STUB_MARK) === true) || output.startsWith('<persisted-output>'))
    return false;
  const beyond = toolPartId(chunkHash, sessionId, c.toolUseId, c.part?.[1] ?? 1);
  return !pathExists(join(archiveDir(cli.store, sessionId), `${beyond}.md`));
}
