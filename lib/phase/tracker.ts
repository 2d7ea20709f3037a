// The phase state machine: spans of one phase each, changed at once by explicit signals (`/phase`,
// a clear prompt, a handoff) and by tool heuristics only on sustained evidence. Pure: the caller
// loads and saves the state and passes the time in.
//
// Hysteresis, in three parts:
// - Each heuristic change has its own rule over the last few tool signals (the window) and needs
//   several calls that agree: one source edit in a design is a quick fix, two are implementation;
//   testing needs the edits to have turned to tests; review needs diffs and reading with no edit.
// - A change only happens on a call that itself points to the new phase (the second source edit,
//   not the read after it), so a neutral call never tips the balance; reading alone never leaves a
//   phase (only a fresh task list with reading re-plans).
// - After an explicit change (or an approved plan) the window is cleared and, for QUIET_EVENTS
//   calls, every rule needs one more agreeing call and re-planning is off: the user's word outweighs
//   our guesses for a while.
import type { Phase, SignalKind, ToolSignal } from './signals.ts';
import { PHASES } from './signals.ts';

export const PHASE_STATE_VERSION = 1;

export interface PhaseSpan {
  n: number; // 1-based order in the session
  phase: Phase;
  start: string; // ISO time
  end?: string;
  by: 'start' | 'explicit' | 'prompt' | 'handoff' | 'tools';
  trigger: string; // human readable why
  signals: Partial<Record<SignalKind, number>>; // counts observed during the span
  events: number; // tool events observed during the span
}

/** One tool signal in the window: kind and detail, short keys because the file is rewritten on every call. */
interface RecentSignal {
  k: SignalKind;
  d?: string;
  /** When it was observed: a change found by the rules starts at the first call of its run. */
  t?: string;
}

export interface PhaseState {
  version: typeof PHASE_STATE_VERSION;
  phase: Phase;
  /** Oldest first, at most MAX_SPANS: beyond that the oldest are dropped (and counted in `dropped`); numbers keep counting. */
  spans: PhaseSpan[];
  /** The last WINDOW tool signals, oldest first. */
  recent: RecentSignal[];
  /** Tool events left during which heuristics need more evidence (after an explicit change). */
  quiet: number;
  /** Spans dropped from the front of `spans`. */
  dropped: number;
}

export interface Transition {
  from: Phase;
  to: Phase;
  span: PhaseSpan;
}

const MAX_SPANS = 200;
const WINDOW = 12;
const QUIET_EVENTS = 8;

type Known = Exclude<Phase, 'unknown'>;
type By = PhaseSpan['by'];

export function newPhaseState(now: string): PhaseState {
  return {
    version: PHASE_STATE_VERSION,
    phase: 'unknown',
    spans: [{ n: 1, phase: 'unknown', start: now, by: 'start', trigger: 'session start', signals: {}, events: 0 }],
    recent: [],
    quiet: 0,
    dropped: 0,
  };
}

/** Counts one tool call and changes the phase when the recent calls clearly say so. Mutates `state`. */
export function observeTool(state: PhaseState, signal: ToolSignal, now: string): Transition | undefined {
  const entry: RecentSignal = signal.detail === undefined ? { k: signal.kind, t: now } : { k: signal.kind, d: signal.detail, t: now };
  state.recent.push(entry);
  if (state.recent.length > WINDOW) state.recent.splice(0, state.recent.length - WINDOW);
  const strict = state.quiet > 0;
  if (state.quiet > 0) state.quiet--;
  const verdict = decide(state.recent, state.phase, strict);
  const transition = verdict === undefined || verdict.phase === state.phase ? undefined : openRun(state, verdict, now);
  if (signal.kind === 'plan-exit') {
    // The user approved the plan: their word, as with an explicit change (the plan file and the
    // reading before it are no evidence for planning any more).
    state.recent = [];
    state.quiet = QUIET_EVENTS;
  }
  const current = currentSpan(state);
  current.signals[signal.kind] = (current.signals[signal.kind] ?? 0) + 1;
  current.events++;
  return transition;
}

/**
 * An explicit, prompt or handoff change: applies at once. Already in that phase: no transition, but
 * the span now records the stronger reason, and the quiet period starts again either way.
 */
export function setPhase(state: PhaseState, phase: Known, by: 'explicit' | 'prompt' | 'handoff', trigger: string, now: string): Transition | undefined {
  state.quiet = QUIET_EVENTS;
  // What Claude did before the user spoke is no evidence against what the user said.
  state.recent = [];
  if (state.phase === phase) {
    const span = currentSpan(state);
    if (STRENGTH[by] >= STRENGTH[span.by]) {
      span.by = by;
      span.trigger = trigger;
    }
    return undefined;
  }
  return openSpan(state, phase, by, trigger, now);
}

/**
 * Accepts a parsed JSON value if it is a usable state, else undefined. Tolerates hand edits: extra
 * fields are dropped, missing optional ones get defaults, spans are sorted by number, unusable spans
 * and window entries are skipped. A valid `phase` that differs from the last span's is taken as a
 * correction of that span.
 */
export function readPhaseState(value: unknown): PhaseState | undefined {
  if (!isObj(value) || value.version !== PHASE_STATE_VERSION || !Array.isArray(value.spans)) return undefined;
  const spans = value.spans
    .map(readSpan)
    .filter((s): s is PhaseSpan => s !== undefined)
    .sort((a, b) => a.n - b.n || (a.start < b.start ? -1 : a.start > b.start ? 1 : 0)); // ISO times: code-unit order, no ICU collator
  if (spans.length === 0) return undefined;
  const kept = spans.slice(-MAX_SPANS);
  const last = kept[kept.length - 1] as PhaseSpan;
  const phase = isPhase(value.phase) ? value.phase : last.phase;
  last.phase = phase;
  const recent = Array.isArray(value.recent) ? value.recent.map(readRecent).filter((r): r is RecentSignal => r !== undefined) : [];
  return {
    version: PHASE_STATE_VERSION,
    phase,
    spans: kept,
    recent: recent.slice(-WINDOW),
    quiet: natural(value.quiet, QUIET_EVENTS),
    dropped: natural(value.dropped, Number.MAX_SAFE_INTEGER) + (spans.length - kept.length),
  };
}

// ---- spans ----------------------------------------------------------------------------------------

const STRENGTH: Record<By, number> = { start: 0, tools: 1, handoff: 2, prompt: 3, explicit: 4 };

/**
 * The calls that show a change come before the call that settles it: the new span starts at the
 * first of them (the run of supporting calls, neutral ones in between, right before now), and they
 * are counted in it. So the timeline, the ledgers and the phase of archived text say when the
 * change happened, not when it became certain.
 */
function openRun(state: PhaseState, verdict: Verdict, now: string): Transition {
  // (`now` is the start when no earlier call supports the change.)
  const previous = currentSpan(state);
  const run: RecentSignal[] = [];
  let start = now;
  // Leaving 'unknown' (the session's start), every call so far was the way into the first phase found.
  const first = previous.phase === 'unknown';
  // The newest signal (the one being observed) is counted by observeTool once the span is open.
  for (let i = state.recent.length - 2; i >= 0; i--) {
    const r = state.recent[i] as RecentSignal;
    if (r.t === undefined || r.t < previous.start) break;
    if (first || SUPPORT[verdict.phase].includes(r.k)) {
      run.push(r);
      start = r.t;
    } else if (NEUTRAL[verdict.phase].includes(r.k)) run.push(r);
    else break;
  }
  // Neutral calls before the first supporting one stay where they were.
  const moved = run.filter((r) => (r.t as string) >= start);
  const transition = openSpan(state, verdict.phase, 'tools', verdict.trigger, start);
  for (const r of moved) {
    previous.signals[r.k] = Math.max(0, (previous.signals[r.k] ?? 0) - 1);
    if (previous.signals[r.k] === 0) delete previous.signals[r.k];
    previous.events = Math.max(0, previous.events - 1);
    transition.span.signals[r.k] = (transition.span.signals[r.k] ?? 0) + 1;
    transition.span.events++;
  }
  return transition;
}

const SUPPORT: Record<Known, readonly SignalKind[]> = {
  planning: ['todo', 'read', 'search', 'web'],
  design: ['edit-doc', 'read', 'search', 'web'],
  implementation: ['edit-source', 'edit-config', 'build'],
  testing: ['edit-test', 'test-run'],
  review: ['review-cmd'],
};
const NEUTRAL: Record<Known, readonly SignalKind[]> = {
  planning: ['shell', 'other'],
  design: ['shell', 'other', 'todo'],
  implementation: ['read', 'search', 'web', 'shell', 'other', 'test-run'],
  testing: ['read', 'search', 'web', 'shell', 'other', 'build'],
  review: ['read', 'search', 'web', 'shell', 'other'],
};

function currentSpan(state: PhaseState): PhaseSpan {
  const span = state.spans[state.spans.length - 1];
  if (span === undefined) throw new Error('phase state has no span'); // newPhaseState and readPhaseState guarantee one
  return span;
}

function openSpan(state: PhaseState, phase: Phase, by: By, trigger: string, now: string): Transition {
  const from = state.phase;
  const previous = currentSpan(state);
  previous.end = now;
  const span: PhaseSpan = { n: previous.n + 1, phase, start: now, by, trigger, signals: {}, events: 0 };
  state.spans.push(span);
  if (state.spans.length > MAX_SPANS) {
    state.dropped += state.spans.length - MAX_SPANS;
    state.spans.splice(0, state.spans.length - MAX_SPANS);
  }
  state.phase = phase;
  return { from, to: phase, span };
}

// ---- the rules ------------------------------------------------------------------------------------

interface Verdict {
  phase: Known;
  trigger: string;
}

const EDITS: readonly SignalKind[] = ['edit-source', 'edit-test', 'edit-doc', 'edit-config'];
/** Calls that change or check the code; reading around them is neutral between implementation and testing. */
const WORK: readonly SignalKind[] = [...EDITS, 'test-run', 'build'];
const LOOKING: readonly SignalKind[] = ['read', 'search', 'web'];

/** The window's tail of `n` calls, with counts by kind and the details of some kinds. */
class Tail {
  readonly items: RecentSignal[];
  constructor(recent: RecentSignal[], n: number) {
    this.items = recent.slice(-n);
  }
  get size(): number {
    return this.items.length;
  }
  count(...kinds: readonly SignalKind[]): number {
    return this.items.filter((r) => kinds.includes(r.k)).length;
  }
  /** Distinct details of these kinds, newest first, for the trigger text. */
  names(kinds: readonly SignalKind[], max = 3): string {
    const seen: string[] = [];
    for (let i = this.items.length - 1; i >= 0 && seen.length < max; i--) {
      const r = this.items[i] as RecentSignal;
      if (kinds.includes(r.k) && r.d !== undefined && !seen.includes(r.d)) seen.push(r.d);
    }
    return seen.length === 0 ? '' : ` (${seen.join(', ')})`;
  }
}

/** A review command about changes rather than history: a diff or a pull request (from the signal's detail, the command's first words). */
function aboutChanges(r: RecentSignal): boolean {
  return r.k === 'review-cmd' && /diff|gh pr|pull_?request/i.test(r.d ?? '');
}

/** "3 of the last 5 changes", "the last change". */
function share(n: number, size: number, what: string): string {
  if (size === 1) return `the last ${what.replace(/s$/, '')}`;
  return n === size ? `all of the last ${size} ${what}` : `${n} of the last ${size} ${what}`;
}

function workCalls(recent: RecentSignal[]): RecentSignal[] {
  return recent.filter((r) => WORK.includes(r.k));
}

/** Whether the last `n` edits to source or tests in the window are all of this kind. */
function lastEditsAre(recent: RecentSignal[], kind: SignalKind, n: number): boolean {
  const edits = recent.filter((r) => r.k === 'edit-source' || r.k === 'edit-test').slice(-n);
  return edits.length === n && edits.every((r) => r.k === kind);
}

/** Whether the latest edit (to source or tests) is of this kind and so are two of the last three. */
function editsTurnedTo(recent: RecentSignal[], kind: SignalKind): boolean {
  const edits = recent.filter((r) => r.k === 'edit-source' || r.k === 'edit-test').slice(-3);
  return edits.length === 3 && edits[2]?.k === kind && edits.filter((r) => r.k === kind).length >= 2;
}

function decide(recent: RecentSignal[], phase: Phase, strict: boolean): Verdict | undefined {
  const now = recent[recent.length - 1]?.k;
  if (now === undefined) return undefined;
  // One more agreeing call for every rule while the user's word is fresh.
  const more = strict ? 1 : 0;
  switch (now) {
    case 'plan-exit':
      return { phase: 'implementation', trigger: 'tools: the plan was approved (ExitPlanMode)' };
    case 'edit-source':
      return toImplementation(recent, phase, more);
    case 'edit-test':
      return toTesting(recent, phase, more) ?? (phase === 'planning' || phase === 'design' ? toImplementation(recent, phase, more) : undefined);
    // Runs and builds confirm edits made while planning or designing; elsewhere only an edit moves to implementation.
    case 'test-run':
      return toTesting(recent, phase, more) ?? (phase === 'planning' || phase === 'design' ? toImplementation(recent, phase, more) : undefined);
    case 'build':
    case 'edit-config':
      return phase === 'planning' || phase === 'design' ? toImplementation(recent, phase, more) : undefined;
    case 'edit-doc':
      return toDesign(recent, phase, more);
    case 'review-cmd':
      return toReview(recent, phase, more) ?? toPlanning(recent, phase, strict);
    case 'read':
    case 'search':
    case 'web':
    case 'todo':
      return toReview(recent, phase, more) ?? toPlanning(recent, phase, strict);
    default:
      return undefined;
  }
}

function toImplementation(recent: RecentSignal[], phase: Phase, more: number): Verdict | undefined {
  if (phase === 'implementation') return undefined;
  const w = new Tail(workCalls(recent), 5);
  const source = w.count('edit-source');
  const tests = w.count('edit-test');
  const trigger = `tools: ${share(source, w.size, 'changes')} edited source files${w.names(['edit-source'])}`;
  const ahead = source > tests && source >= w.count('edit-doc');
  // From testing, fixing what a test found is part of testing: implementation needs the edits to turn to source.
  if (phase === 'testing') return ahead && source >= 3 + more && lastEditsAre(recent, 'edit-source', 3) ? { phase: 'implementation', trigger } : undefined;
  // From unknown, any edit says more than nothing; elsewhere a second source edit close to the first is no longer a quick fix.
  if (ahead && source >= (phase === 'unknown' ? 1 : 2) + more) return { phase: 'implementation', trigger };
  // Nor is one source edit followed by runs, builds and test edits, with no doc in between: that is someone at work.
  const run = new Tail(workCalls(recent), 4 + more);
  if ((phase === 'planning' || phase === 'design') && run.size === 4 + more && run.items[0]?.k === 'edit-source' && run.count('edit-doc') === 0) {
    return {
      phase: 'implementation',
      trigger: `tools: the last ${run.size} changes edited, built and ran the code${run.names(['edit-source', 'test-run', 'build'], 2)}`,
    };
  }
  return undefined;
}

function toTesting(recent: RecentSignal[], phase: Phase, more: number): Verdict | undefined {
  if (phase === 'testing') return undefined;
  const w = new Tail(workCalls(recent), 5);
  const tests = w.count('edit-test');
  const runs = w.count('test-run');
  const source = w.count('edit-source');
  const ran = runs === 0 ? '' : runs === 1 ? ' and 1 was a test run' : ` and ${runs} were test runs`;
  const verdict: Verdict = { phase: 'testing', trigger: `tools: ${share(tests, w.size, 'changes')} edited tests${ran}${w.names(['edit-test'])}` };
  // From unknown, as for implementation, one edit says more than nothing.
  if (phase === 'unknown') return tests >= 1 && source < tests ? verdict : undefined;
  if (tests < 2 || tests + runs < 3 + more || source >= tests) return undefined;
  // Edit, run, edit, run on source is implementation, even with a test touched on the way: from there,
  // testing means the edits have turned to tests.
  if (phase === 'implementation' && !editsTurnedTo(recent, 'edit-test')) return undefined;
  return verdict;
}

function toReview(recent: RecentSignal[], phase: Phase, more: number): Verdict | undefined {
  if (phase === 'review') return undefined;
  const t = new Tail(recent, 8);
  const calm = new Tail(recent, 4);
  const reviews = t.count('review-cmd');
  const changes = t.items.filter(aboutChanges).length;
  const looks = calm.count(...LOOKING, 'review-cmd');
  // Reviewing is looking without changing: a run or a build on the way is fine, an edit is not.
  if (calm.count(...EDITS) > 0) return undefined;
  // Before anything was built, git log and blame are how one learns the code: there, review needs
  // commands about changes (a diff, a PR), and more of them.
  const early = phase === 'planning' || phase === 'design' || phase === 'unknown';
  const need = (phase === 'planning' || phase === 'design' ? 3 : 2) + more;
  if (reviews < need || (early && changes === 0) || looks < Math.min(calm.size, phase === 'unknown' ? 2 : 3)) return undefined;
  return { phase: 'review', trigger: `tools: ${reviews} review commands${t.names(['review-cmd'], 2)} and reading in the last ${t.size} calls, no edits` };
}

function toDesign(recent: RecentSignal[], phase: Phase, more: number): Verdict | undefined {
  if (phase === 'design') return undefined;
  const t = new Tail(recent, WINDOW);
  const docs = t.count('edit-doc');
  const looks = t.count(...LOOKING);
  const source = t.count('edit-source');
  // Before any code, writing a document after reading is designing. Once code is being written, a
  // README or CHANGELOG touch is part of it: design then needs a run of doc edits and no code.
  const late = phase === 'implementation' || phase === 'testing' || phase === 'review';
  const need = (late ? 3 : 1) + more;
  if (docs < need || looks < (late ? 2 : 3) || source > (late ? 0 : 1) || t.count('edit-test') > 0) return undefined;
  const edits = docs === 1 ? 'a doc written' : `${docs} edits to docs`;
  return { phase: 'design', trigger: `tools: ${edits}${t.names(['edit-doc'])} after ${looks} reads in the last ${t.size} calls, no code` };
}

function toPlanning(recent: RecentSignal[], phase: Phase, strict: boolean): Verdict | undefined {
  // Reading and listing tasks right after the user named a phase is how Claude begins on it.
  if (phase === 'planning' || strict) return undefined;
  const t = new Tail(recent, 6);
  const looks = t.count(...LOOKING);
  if (phase === 'unknown') {
    // The session's first look around is how a task starts: planning (git log included: history is
    // research). One read says little (a review, a test pass or a design also start by reading): it
    // takes three looks, or a task list, which is planning by itself. A session that has looked at a
    // diff or a PR is not planning from reading: it is a review until edits say otherwise.
    const firstLooks = recent.filter((r) => LOOKING.includes(r.k) || r.k === 'todo' || (r.k === 'review-cmd' && !aboutChanges(r))).length;
    const todos = recent.filter((r) => r.k === 'todo').length;
    if (firstLooks < recent.length || (todos === 0 && firstLooks < 3)) return undefined;
    return { phase: 'planning', trigger: 'tools: the session started by reading and searching the code' };
  }
  // Elsewhere reading alone is part of the work; a fresh task list with reading and no edits is re-planning.
  if (t.count('todo') === 0 || t.count(...EDITS) > 0 || looks < 3) return undefined;
  return { phase: 'planning', trigger: `tools: a new task list and ${looks} reads or searches in the last ${t.size} calls, no edits` };
}

// ---- reading a stored state ----------------------------------------------------------------------

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const BY: readonly By[] = ['start', 'explicit', 'prompt', 'handoff', 'tools'];
const KINDS: readonly SignalKind[] = [
  'read',
  'search',
  'web',
  'edit-source',
  'edit-test',
  'edit-doc',
  'edit-config',
  'test-run',
  'build',
  'review-cmd',
  'todo',
  'plan-exit',
  'shell',
  'other',
];

function isPhase(v: unknown): v is Phase {
  return v === 'unknown' || (PHASES as readonly unknown[]).includes(v);
}

function isKind(v: unknown): v is SignalKind {
  return (KINDS as readonly unknown[]).includes(v);
}

function natural(v: unknown, max: number): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.min(Math.floor(v), max) : 0;
}

function readSpan(v: unknown): PhaseSpan | undefined {
  if (!isObj(v) || !isPhase(v.phase) || typeof v.start !== 'string' || typeof v.n !== 'number' || !Number.isInteger(v.n) || v.n < 1) return undefined;
  const signals: Partial<Record<SignalKind, number>> = {};
  if (isObj(v.signals)) {
    for (const [k, c] of Object.entries(v.signals)) if (isKind(k) && natural(c, Number.MAX_SAFE_INTEGER) > 0) signals[k] = natural(c, Number.MAX_SAFE_INTEGER);
  }
  const span: PhaseSpan = {
    n: v.n,
    phase: v.phase,
    start: v.start,
    by: BY.includes(v.by as By) ? (v.by as By) : 'tools',
    trigger: typeof v.trigger === 'string' ? v.trigger : '',
    signals,
    events: natural(v.events, Number.MAX_SAFE_INTEGER),
  };
  if (typeof v.end === 'string') span.end = v.end;
  return span;
}

function readRecent(v: unknown): RecentSignal | undefined {
  if (!isObj(v) || !isKind(v.k)) return undefined;
  const r: RecentSignal = typeof v.d === 'string' ? { k: v.k, d: v.d.slice(0, 80) } : { k: v.k };
  if (typeof v.t === 'string' && !Number.isNaN(Date.parse(v.t))) r.t = v.t;
  return r;
}
