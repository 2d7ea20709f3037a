// What a session established, gathered once for the three texts that carry it across a compaction:
// PreCompact's steering, SessionStart(compact)'s brief and Stop's advice. Reads the phase file, the
// facts and the project's decision log; everything after `readSessionDigest` is pure.
import { join } from 'node:path';
import { chunkHash } from '../archive/hash.ts';
import { decisionId, dedupe, duration, testLine } from '../phase/ledger.ts';
import { type FactRecord, ledgerDir, type PhaseFile, readFacts, readPhaseFile, shownSpans } from '../phase/phase-store.ts';
import { keyChanges, type TestRecord } from '../phase/span-work.ts';
import { runPassed } from '../phase/test-results.ts';
import { type DecisionView, decisionChain } from '../recall/views.ts';
import type { Logger } from '../runtime/log.ts';
import type { Store } from '../runtime/store.ts';

export interface DigestItem {
  id?: string;
  text: string;
  reason?: string;
  /** L2 ref of where it was said. */
  ref?: string;
}

export interface SessionDigest {
  phase: string;
  /** When the current phase started and what started it. */
  since?: string;
  trigger?: string;
  /** "planning 5m → implementation 20m (now)". */
  timeline: string;
  /** The phases in order, without durations: "planning → design → implementation". */
  sequence: string;
  goal?: string;
  decisions: DigestItem[];
  constraints: DigestItem[];
  requirements: DigestItem[];
  open: DigestItem[];
  next: DigestItem[];
  /** Exact values: small edits ("file: old → new") and sentences that set a value. */
  values: DigestItem[];
  /** Files edited in the current phase, most recent first. */
  files: string[];
  /** The latest test runs, most recent last. */
  tests: string[];
  /** Failing tests of recent runs, with whether a later run of the same command passed. */
  failures: string[];
  /** Where the ledgers are (L3 path when written there). */
  ledgers: string[];
}

const MAX_ITEMS = 12;
const DECISION_TAIL_BYTES = 16 * 1024;

export const constraintId = (key: string) => `C-${chunkHash(`constraint\n${key}`).slice(0, 8)}`;

export function readSessionDigest(env: { store: Store; log: Logger; now: Date; projectRoot: string }, sessionId: string): SessionDigest | undefined {
  const file = readPhaseFile(env.store, sessionId, env.log, env.now);
  const facts = readFacts(env.store, sessionId, env.log);
  if (file === undefined && facts.length === 0) return undefined;
  // Decisions of earlier sessions still hold: the newest few of the project's log come along.
  const chain = liveDecisions(env.store, env.projectRoot, env.log);
  return digestOf(file, facts, chain, env.now.toISOString(), (n) => {
    const ref = file?.ledgers[String(n)];
    return ref === undefined ? undefined : (ref.l3 ?? join(ledgerDir(env.store, sessionId), ref.file));
  });
}

/** Pure: the digest of a phase file, its facts and the project's live decisions (newest first). */
export function digestOf(
  file: PhaseFile | undefined,
  facts: readonly FactRecord[],
  chain: ReadonlyArray<{ id: string; text: string; reason?: string; ref: string; session: string }>,
  now: string,
  ledgerPath: (n: number) => string | undefined,
): SessionDigest {
  const spans = file?.tracker.spans ?? [];
  const current = spans.at(-1);
  const item = (f: FactRecord, id?: string): DigestItem => ({
    ...(id === undefined ? {} : { id }),
    text: withRejected(f),
    ...(f.reason === undefined || f.text.includes(f.reason) ? {} : { reason: f.reason }),
    ...(f.ref === '' ? {} : { ref: f.ref }),
  });
  const of = (kind: FactRecord['kind']) => dedupe(facts.filter((f) => f.kind === kind));
  // This session's decisions first (newest last), then the project's others not already listed.
  const own = of('decision').map((f) => item(f, decisionId(f.key)));
  const ownIds = new Set(own.map((d) => d.id));
  const others = chain
    .filter((d) => !ownIds.has(d.id))
    .slice(0, 5)
    .map((d): DigestItem => ({ id: d.id, text: d.text, ...(d.reason === undefined ? {} : { reason: d.reason }), ref: d.ref }));
  const lastN = current?.n ?? 0;
  const recent = (kind: FactRecord['kind']) => of(kind).filter((f) => f.n >= lastN - 1);
  const work = file === undefined ? [] : Object.entries(file.work).sort((a, b) => Number(a[0]) - Number(b[0]));
  const currentWork = file?.work[String(lastN)];
  const tests: TestRecord[] = work.flatMap(([, w]) => w.tests).sort((a, b) => (a.t < b.t ? -1 : 1));
  const todos = (file?.todos ?? []).filter((t) => t.status !== 'completed');
  const changes = work.flatMap(([, w]) => w.changes ?? []).sort((a, b) => (a.t < b.t ? -1 : 1));
  const digest: SessionDigest = {
    phase: current?.phase ?? file?.tracker.phase ?? 'unknown',
    timeline: file === undefined ? '' : timelineOf(file, now),
    sequence:
      file === undefined
        ? ''
        : shownSpans(file)
            .slice(-8)
            .map((s) => s.phase)
            .join(' → '),
    decisions: [...others.reverse(), ...own].slice(-MAX_ITEMS),
    constraints: of('constraint')
      .map((f) => item(f, constraintId(f.key)))
      .slice(-MAX_ITEMS),
    requirements: of('requirement')
      .map((f) => item(f))
      .slice(-MAX_ITEMS),
    open: [
      ...recent('open-item').map((f) => item(f)),
      ...todos.map((t) => ({ text: `${t.status === 'in_progress' ? '(in progress) ' : ''}${t.content}` })),
    ].slice(-MAX_ITEMS),
    next: recent('next-step')
      .map((f) => item(f))
      .slice(-6),
    values: [
      ...bothEnds(of('value'), 4, 8).map((f) => item(f)),
      ...keyChanges(changes, { values: 16, other: 8 }).map((c) => ({ text: `\`${c.file}\`: ${c.text}` })),
    ],
    files: [...(currentWork?.files ?? [])].reverse().slice(0, 10),
    tests: tests.slice(-3).map(testLine),
    failures: failuresOf(tests),
    ledgers: Object.keys(file?.ledgers ?? {})
      .map(Number)
      .sort((a, b) => a - b)
      .map(ledgerPath)
      .filter((p): p is string => p !== undefined)
      .slice(-3),
  };
  if (current !== undefined) {
    digest.since = current.start;
    if (current.by !== 'start') digest.trigger = current.trigger;
  }
  if (file?.goal !== undefined) digest.goal = file.goal;
  return digest;
}

/** A decision's text, and the alternatives it turned down that the text does not name ("Pinia." after "Pinia or Vuex?"). */
function withRejected(f: FactRecord): string {
  const lower = f.text.toLowerCase();
  const missing = (f.rejected ?? []).filter((r) => !lower.includes(r.toLowerCase()));
  return missing.length === 0 ? f.text : `${f.text} (rejected: ${missing.join(', ')})`;
}

/** The first `first` and the last `last` items: a session's early values are often the ones it built on. */
function bothEnds<T>(items: readonly T[], first: number, last: number): T[] {
  return items.length <= first + last ? [...items] : [...items.slice(0, first), ...items.slice(-last)];
}

/** Failing tests of the last few failing runs; a run of the same command that passed later marks them fixed. */
function failuresOf(tests: readonly TestRecord[]): string[] {
  const out: string[] = [];
  const failing = tests.filter((t) => t.failed > 0 && t.failures.length > 0).slice(-3);
  for (const run of failing) {
    const fixed = tests.some((t) => t.command === run.command && t.t > run.t && runPassed(t));
    for (const name of run.failures.slice(0, 6)) out.push(`${name} (\`${run.command}\`${fixed ? ', passes since' : ''})`);
  }
  return [...new Set(out)].slice(-MAX_ITEMS);
}

/**
 * The project's decisions still in force, newest first, from the newest part of the log (a later
 * line can supersede an earlier one, never the reverse; a long-lived project's whole log costs ~20 ms).
 */
export function liveDecisions(store: Store, projectRoot: string, log: Logger): DecisionView[] {
  return decisionChain(store, projectRoot, log, DECISION_TAIL_BYTES).filter((d) => d.supersededBy === undefined);
}

/** "planning 5m → implementation 20m (now)": the last eight shown spans. */
export function timelineOf(file: PhaseFile, now: string): string {
  return shownSpans(file)
    .slice(-8)
    .map((s) => `${s.phase} ${duration(s.start, s.end ?? now)}${s.end === undefined ? ' (now)' : ''}`)
    .join(' → ');
}

/** One line for an item: id, text, reason, ref. */
export function itemLine(d: DigestItem, withRef = true): string {
  const why = d.reason === undefined ? '' : ` Why: ${d.reason}`;
  const ref = withRef && d.ref !== undefined ? ` (ref \`${d.ref}\`)` : '';
  return `${d.id === undefined ? '' : `[${d.id}] `}${d.text.replace(/\s*\n\s*/g, ' ')}${why}${ref}`;
}
