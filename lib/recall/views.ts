// The views of `/recall` over phase memory: `timeline` (phases of the project's sessions with
// durations and ledger links), `decisions` (the decision chain, newest first, superseded ones
// marked) and `phase:<name>` alone (that phase's ledgers). Read from the data dir, which has
// everything whether or not L3 is on.
import { join } from 'node:path';
import { duration, firstOf } from '../phase/ledger.ts';
import { type DecisionRecord, ledgerDir, type PhaseFile, readDecisions, readPhaseFile, readProjectSessions, shownSpans } from '../phase/phase-store.ts';
import { parsePhaseName } from '../phase/signals.ts';
import type { Logger } from '../runtime/log.ts';
import { readTextFile, type Store } from '../runtime/store.ts';

export interface ViewEnv {
  store: Store;
  log: Logger;
  now: Date;
  projectRoot: string;
  /** Characters the view may use. */
  maxChars?: number;
}

const DEFAULT_CHARS = 8_000;
const MAX_SESSIONS = 12;

export interface TimelineSpan {
  n: number;
  phase: string;
  start: string;
  end?: string;
  by: string;
  trigger: string;
  events: number;
  /** The ledger in the data dir (absolute). */
  ledger?: string;
  /** The ledger in the project (relative to its root), when L3 is on. */
  l3?: string;
}

export interface SessionTimeline {
  session: string;
  spans: TimelineSpan[];
}

/** The project's sessions with phase spans, newest first (the current session can be put first). */
export function projectTimeline(env: ViewEnv, options: { first?: string; limit?: number } = {}): SessionTimeline[] {
  const ids = readProjectSessions(env.store, env.projectRoot, env.log);
  if (options.first !== undefined) ids.unshift(options.first);
  const out: SessionTimeline[] = [];
  const seen = new Set<string>();
  for (const session of ids) {
    if (seen.has(session)) continue;
    seen.add(session);
    const file = readPhaseFile(env.store, session, env.log, env.now);
    if (file === undefined) continue;
    out.push({ session, spans: timelineSpans(env.store, session, file) });
    if (out.length >= (options.limit ?? MAX_SESSIONS)) break;
  }
  return out;
}

export function timelineSpans(store: Store, session: string, file: PhaseFile): TimelineSpan[] {
  return shownSpans(file).map((s) => {
    const span: TimelineSpan = { n: s.n, phase: s.phase, start: s.start, by: s.by, trigger: s.trigger, events: s.events };
    if (s.end !== undefined) span.end = s.end;
    const ledger = file.ledgers[String(s.n)];
    if (ledger !== undefined) {
      span.ledger = join(ledgerDir(store, session), ledger.file);
      if (ledger.l3 !== undefined) span.l3 = ledger.l3;
    }
    return span;
  });
}

export function timelineMarkdown(env: ViewEnv, current?: string): string {
  const sessions = projectTimeline(env, current === undefined ? {} : { first: current });
  if (sessions.length === 0) return 'No phase timeline yet for this project: phases are tracked from the first tool call of a session.';
  const now = env.now.toISOString();
  const out = [`Phase timeline of ${env.projectRoot}, newest session first:`];
  for (const s of sessions) {
    const first = s.spans[0];
    const last = s.spans.at(-1);
    if (first === undefined || last === undefined) continue;
    out.push('', `**Session \`${s.session}\`** from ${first.start.slice(0, 16).replace('T', ' ')}${s.session === current ? ' (this session)' : ''}`);
    for (const span of s.spans) {
      const end = span.end ?? (s.session === current ? now : undefined);
      const took = end === undefined ? '' : ` ${duration(span.start, end)}`;
      const where = span.l3 ?? span.ledger;
      const link = where === undefined ? '' : ` · ledger \`${where}\``;
      const running = span.end === undefined && s.session === current ? ' (current)' : '';
      out.push(
        `${span.n}. ${span.phase}${took}${running}, ${span.by === 'start' ? 'from the start' : span.trigger}, ${span.events} tool call${span.events === 1 ? '' : 's'}${link}`,
      );
    }
  }
  return fitLines(out, env.maxChars ?? DEFAULT_CHARS);
}

export interface DecisionView extends DecisionRecord {
  supersededBy?: string;
}

/** The decision chain, newest first, each id once; superseded ones carry the id that replaced them. */
export function decisionChain(store: Store, projectRoot: string, log: Logger, tailBytes?: number): DecisionView[] {
  const all = firstOf(readDecisions(store, projectRoot, log, tailBytes), (d) => d.id);
  const replacedBy = new Map<string, string>();
  for (const d of all) for (const old of d.supersedes ?? []) replacedBy.set(old, d.id);
  return all
    .map((d): DecisionView => {
      const by = replacedBy.get(d.id);
      return by === undefined ? d : { ...d, supersededBy: by };
    })
    .sort((a, b) => (a.t < b.t ? 1 : a.t > b.t ? -1 : 0));
}

export function decisionsMarkdown(env: ViewEnv): string {
  const chain = decisionChain(env.store, env.projectRoot, env.log);
  if (chain.length === 0)
    return 'No decisions recorded for this project yet. They are read from what Claude says ("I\'ll use X because …", "Decision: …") when a phase ledger is written.';
  const out = [`Decisions of ${env.projectRoot}, newest first (${chain.length}):`, ''];
  for (const d of chain) out.push(decisionLine(d));
  return fitLines(out, env.maxChars ?? DEFAULT_CHARS);
}

export function decisionLine(d: DecisionView): string {
  const why = d.reason !== undefined && !d.text.includes(d.reason) ? ` Why: ${d.reason}` : '';
  const text = d.supersededBy === undefined ? `${d.text}${why}` : `~~${d.text}~~ (superseded by ${d.supersededBy})`;
  return `- **${d.id}** ${d.t.slice(0, 10)} ${d.phase}: ${text} (ref \`${d.ref}\`)`;
}

/** `/recall phase:<name>` with nothing else: the ledgers of that phase, newest first; undefined if none. */
export function phaseLedgersMarkdown(env: ViewEnv, phaseName: string): string | undefined {
  const phase = parsePhaseName(phaseName) ?? phaseName;
  const found: Array<{ session: string; start: string; text: string; path: string }> = [];
  for (const s of projectTimeline(env, { limit: 50 })) {
    for (const span of s.spans) {
      if (span.phase !== phase) continue;
      if (span.ledger === undefined) continue;
      const text = readTextFile(span.ledger);
      if (text === undefined) continue;
      found.push({ session: s.session, start: span.start, text: stripFrontmatter(text), path: span.l3 ?? span.ledger });
    }
  }
  if (found.length === 0) return undefined;
  found.sort((a, b) => (a.start < b.start ? 1 : -1));
  const out = [`${found.length} ${phase} ledger${found.length === 1 ? '' : 's'} in this project, newest first:`];
  for (const f of found) out.push('', `<!-- ${f.path} -->`, f.text.trim());
  return fitLines(out, env.maxChars ?? DEFAULT_CHARS);
}

function stripFrontmatter(text: string): string {
  if (!text.startsWith('---\n')) return text;
  const end = text.indexOf('\n---\n', 3);
  return end === -1 ? text : text.slice(end + 5);
}

/** Lines up to a character budget, with a note of what was left out. */
export function fitLines(lines: readonly string[], maxChars: number): string {
  let used = 0;
  const out: string[] = [];
  for (const [i, line] of lines.entries()) {
    if (used + line.length + 1 > maxChars - 80) {
      out.push(`… (${lines.length - i} more lines; narrow the view or use \`ctxl timeline --json\`)`);
      break;
    }
    out.push(line);
    used += line.length + 1;
  }
  return out.join('\n');
}
