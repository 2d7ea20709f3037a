// Phase files in the data dir. Per session, under <data>/sessions/<sid>/: phase.json (the tracker,
// each span's work, which ledgers are due and written), facts.jsonl (decisions, constraints, … read
// from the transcript, append-only) and ledgers/phase-<N>-<name>.md. Per project, under
// <data>/projects/<key>/: decisions.jsonl (the decision log, append-only) and sessions.jsonl (the
// sessions that wrote a ledger, for the timeline). A hand-edited or damaged file is read if
// possible, else set aside with a log line and rebuilt; nothing else is lost.
import type { Logger } from '../runtime/log.ts';
import { claudeProjectDirName } from '../runtime/paths.ts';
import { openRangeReader, pathExists, readTextFile, type Store } from '../runtime/store.ts';
import type { Fact } from './facts.ts';
import type { SpanWork, Todo } from './span-work.ts';
import { newPhaseState, type PhaseSpan, type PhaseState, readPhaseState } from './tracker.ts';

export const PHASE_FILE_VERSION = 1;
export const FACT_VERSION = 1;
export const DECISION_VERSION = 1;

export interface LedgerRef {
  /** File name under the session's ledgers/ folder. */
  file: string;
  /** Path relative to the project root when it was also written to L3. */
  l3?: string;
  at: string;
}

export interface PhaseFile {
  version: typeof PHASE_FILE_VERSION;
  tracker: PhaseState;
  /** Work per span number. */
  work: Record<string, SpanWork>;
  /** Spans that ended since their ledger was written: written at the next Stop, PreCompact or SessionEnd. */
  due: number[];
  ledgers: Record<string, LedgerRef>;
  /** The session's first request, as the goal of its ledgers. */
  goal?: string;
  /** The latest task list of the session (a span may have none of its own). */
  todos?: Todo[];
  /** Bytes of events.jsonl folded in so far (rebuilt from the log when this file is). */
  eventsOffset?: number;
}

export interface FactRecord extends Fact {
  v: typeof FACT_VERSION;
  /** Span number the fact was stated in. */
  n: number;
  phase: string;
  /** L2 chunk it came from. */
  ref: string;
  t: string;
  key: string;
}

export interface DecisionRecord {
  v: typeof DECISION_VERSION;
  id: string;
  t: string;
  session: string;
  phase: string;
  text: string;
  reason?: string;
  chosen?: string;
  rejected?: string[];
  ref: string;
  /** Ids of earlier decisions this one replaces. */
  supersedes?: string[];
}

export const phaseFile = (store: Store, sid: string) => store.path('sessions', sid, 'phase.json');
export const factsFile = (store: Store, sid: string) => store.path('sessions', sid, 'facts.jsonl');
export const ledgerDir = (store: Store, sid: string) => store.path('sessions', sid, 'ledgers');
export const decisionsFile = (store: Store, projectRoot: string) => store.path('projects', claudeProjectDirName(projectRoot), 'decisions.jsonl');
export const projectSessionsFile = (store: Store, projectRoot: string) => store.path('projects', claudeProjectDirName(projectRoot), 'sessions.jsonl');

/** Whether the session has phases at all: a tool call seen or a phase set (else: only the start). */
export function hasPhases(file: PhaseFile | undefined): boolean {
  return file?.tracker.spans.some((s) => s.events > 0 || s.by !== 'start') === true;
}

/** The spans worth showing: not an empty stretch of unknown phase (before the first signal), unless it is the running one. */
export function shownSpans(file: PhaseFile): PhaseSpan[] {
  const last = file.tracker.spans.at(-1);
  return file.tracker.spans.filter((s) => !(s.phase === 'unknown' && s.events === 0 && s !== last));
}

export function newPhaseFile(now: string): PhaseFile {
  return { version: PHASE_FILE_VERSION, tracker: newPhaseState(now), work: {}, due: [], ledgers: {} };
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * phase.json, tolerating hand edits: a usable tracker is kept even when the rest is damaged (the
 * rest is rebuilt empty). Unreadable or of an unknown version: set aside, logged, undefined.
 */
export function readPhaseFile(store: Store, sid: string, log: Logger, now: Date): PhaseFile | undefined {
  const file = phaseFile(store, sid);
  const text = readTextFile(file);
  if (text === undefined) {
    // Missing is new; present but unreadable (permissions, a folder) is left alone: see updatePhaseFile.
    if (pathExists(file)) log.warn(`${file}: cannot be read; left in place, phases not updated`);
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return setAside(store, file, log, now, 'not JSON');
  }
  if (!isObj(value)) return setAside(store, file, log, now, 'not an object');
  if (value.version !== PHASE_FILE_VERSION) return setAside(store, file, log, now, `unknown version ${JSON.stringify(value.version)}`);
  const tracker = readPhaseState(value.tracker);
  if (tracker === undefined) return setAside(store, file, log, now, 'no usable phase state');
  const out: PhaseFile = { version: PHASE_FILE_VERSION, tracker, work: {}, due: [], ledgers: {} };
  if (isObj(value.work)) {
    for (const [n, w] of Object.entries(value.work)) {
      if (isObj(w) && Array.isArray(w.files) && Array.isArray(w.commands) && Array.isArray(w.tests)) out.work[n] = w as unknown as SpanWork;
    }
  }
  if (Array.isArray(value.due)) out.due = value.due.filter((n): n is number => Number.isInteger(n));
  if (isObj(value.ledgers)) {
    for (const [n, l] of Object.entries(value.ledgers)) {
      if (isObj(l) && typeof l.file === 'string' && typeof l.at === 'string') out.ledgers[n] = l as unknown as LedgerRef;
    }
  }
  if (typeof value.goal === 'string') out.goal = value.goal;
  if (Array.isArray(value.todos)) out.todos = value.todos as Todo[];
  if (typeof value.eventsOffset === 'number' && Number.isInteger(value.eventsOffset) && value.eventsOffset >= 0) out.eventsOffset = value.eventsOffset;
  return out;
}

function setAside(store: Store, file: string, log: Logger, now: Date, why: string): undefined {
  const aside = store.setAside(file, now);
  log.warn(`${file}: ${why}; ${aside === undefined ? 'left in place' : `set aside as ${aside}`} and rebuilt`);
  return undefined;
}

/** Read-modify-write phase.json under its lock. `fn` returns what the caller wants back. */
export async function updatePhaseFile<R>(
  env: { store: Store; log: Logger; now: () => Date; timeLeft?: () => number },
  sid: string,
  fn: (file: PhaseFile) => R | Promise<R>,
): Promise<R | undefined> {
  const file = phaseFile(env.store, sid);
  return env.store.withLock(
    file,
    async () => {
      const now = env.now();
      const read = readPhaseFile(env.store, sid, env.log, now);
      // Unreadable but there (a damaged one was renamed aside by now): never written over as if new.
      if (read === undefined && pathExists(file)) return undefined;
      const current = read ?? newPhaseFile(now.toISOString());
      const result = await fn(current);
      env.store.writeJson(file, current);
      return result;
    },
    { waitMs: Math.min(2_000, Math.max(100, (env.timeLeft?.() ?? 4_000) / 2)) },
  );
}

/** A span ended: its ledger is written at the next Stop, PreCompact or SessionEnd. */
export function markDue(file: PhaseFile, n: number | undefined): void {
  if (n !== undefined && n >= 1 && !file.due.includes(n)) file.due.push(n);
}

/** Resume: the session's last span ended with the session (SessionEnd); it goes on now. */
export async function reopenLastSpan(env: Parameters<typeof updatePhaseFile>[0], sid: string): Promise<void> {
  const current = readPhaseFile(env.store, sid, env.log, env.now());
  if (current?.tracker.spans.at(-1)?.end === undefined) return; // nothing to reopen: no write
  await updatePhaseFile(env, sid, (file) => {
    const last = file.tracker.spans.at(-1);
    if (last !== undefined) delete last.end;
  });
}

/**
 * Lines of an append-only JSONL file that parse and pass `accept`; the others are counted and logged.
 * With `tailBytes`, only the file's end is read (the newest lines; a cut first line is dropped).
 */
export function readJsonLines<T>(file: string, log: Logger, accept: (value: unknown) => value is T, tailBytes?: number): T[] {
  const text = tailBytes === undefined ? readTextFile(file) : readTail(file, tailBytes);
  if (text === undefined) return [];
  const out: T[] = [];
  let bad = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const value: unknown = JSON.parse(line);
      if (accept(value)) out.push(value);
      else bad += 1;
    } catch {
      bad += 1; // a torn last line after a crash, or a hand edit
    }
  }
  if (bad > 0) log.info(`${file}: ${bad} unreadable line${bad === 1 ? '' : 's'} skipped`);
  return out;
}

function readTail(file: string, bytes: number): string | undefined {
  const reader = openRangeReader(file);
  if (reader === undefined) return undefined;
  try {
    if (reader.size <= bytes) return reader.read(0, reader.size).toString('utf8');
    const text = reader.read(reader.size - bytes, bytes).toString('utf8');
    return text.slice(text.indexOf('\n') + 1);
  } finally {
    reader.close();
  }
}

export const isFactRecord = (v: unknown): v is FactRecord =>
  isObj(v) && v.v === FACT_VERSION && typeof v.kind === 'string' && typeof v.text === 'string' && typeof v.n === 'number' && typeof v.key === 'string';

export const isDecisionRecord = (v: unknown): v is DecisionRecord =>
  isObj(v) && v.v === DECISION_VERSION && typeof v.id === 'string' && typeof v.text === 'string' && typeof v.t === 'string';

export function readFacts(store: Store, sid: string, log: Logger): FactRecord[] {
  return readJsonLines(factsFile(store, sid), log, isFactRecord);
}

/** The project's decision log; with `tailBytes`, only its newest part (SessionStart needs no more). */
export function readDecisions(store: Store, projectRoot: string, log: Logger, tailBytes?: number): DecisionRecord[] {
  return readJsonLines(decisionsFile(store, projectRoot), log, isDecisionRecord, tailBytes);
}

export interface ProjectSessionLine {
  v: 1;
  session: string;
  t: string;
}

/** The project's sessions, newest first by `t` (the start of their latest phase), each once. */
export function readProjectSessions(store: Store, projectRoot: string, log: Logger): string[] {
  const lines = readJsonLines(
    projectSessionsFile(store, projectRoot),
    log,
    (v): v is ProjectSessionLine => isObj(v) && typeof v.session === 'string' && typeof v.t === 'string',
  );
  // A backfill (`ingest --all --ledgers`) appends in file order, not in time order: sort.
  const latest = new Map<string, string>();
  for (const l of lines) if ((latest.get(l.session) ?? '') < l.t) latest.set(l.session, l.t);
  return [...latest].sort((a, b) => (a[1] < b[1] ? 1 : a[1] > b[1] ? -1 : 0)).map(([s]) => s);
}
