// A phase ledger: what one phase span established, as Markdown with frontmatter. Built from the
// span's work (tool calls), the facts read from the transcript and the tracker's timeline; no model.
// Pure: the writer (ledgers.ts) supplies everything and puts the text on disk.
import { chunkHash } from '../archive/hash.ts';
import type { DecisionRecord, FactRecord } from './phase-store.ts';
import type { Phase } from './signals.ts';
import { keyChanges, type SpanWork, type TestRecord, type Todo } from './span-work.ts';
import { countsText } from './test-results.ts';
import type { PhaseSpan } from './tracker.ts';

export const LEDGER_VERSION = 1;

export interface LedgerInput {
  session: string;
  project: string;
  span: PhaseSpan;
  work: SpanWork | undefined;
  goal: string | undefined;
  /** Every fact of the session so far (constraints and requirements hold across spans). */
  facts: readonly FactRecord[];
  /** The task list: the span's own, else the session's latest. */
  todos: readonly Todo[] | undefined;
  /** Decision ids as the decision log knows them, by fact key. */
  decisionIds: ReadonlyMap<string, string>;
  now: string;
  /** The span is still running (PreCompact, SessionEnd): the ledger is a checkpoint. */
  open: boolean;
}

export interface LedgerMeta {
  version: typeof LEDGER_VERSION;
  kind: 'phase-ledger';
  session: string;
  project: string;
  n: number;
  phase: Phase;
  start: string;
  end?: string;
  status: 'open' | 'closed';
  trigger: string;
  written: string;
  decisions: string[];
  /** The latest test result of the span, if any. */
  tests?: { passed: number; failed: number; skipped: number; uncounted?: true };
}

const MAX_LIST = 12;

export const ledgerFileName = (span: { n: number; phase: string }) => `phase-${span.n}-${span.phase}.md`;

/** Stable across sessions and machines: the same decision text in a project gets the same id. */
export const decisionId = (key: string) => `D-${chunkHash(`decision\n${key}`).slice(0, 8)}`;

export function buildLedger(input: LedgerInput): { meta: LedgerMeta; body: string } {
  const { span, work } = input;
  const inSpan = (f: FactRecord) => f.n === span.n;
  const decisions = dedupe(input.facts.filter((f) => f.kind === 'decision' && inSpan(f)));
  const constraints = dedupe(input.facts.filter((f) => f.kind === 'constraint'));
  const requirements = dedupe(input.facts.filter((f) => f.kind === 'requirement'));
  const next = dedupe(input.facts.filter((f) => f.kind === 'next-step' && inSpan(f))).slice(-6);
  const openFacts = dedupe(input.facts.filter((f) => f.kind === 'open-item' && inSpan(f)));
  const todos = input.todos ?? [];
  const lastTest = work?.tests.at(-1);
  const meta: LedgerMeta = {
    version: LEDGER_VERSION,
    kind: 'phase-ledger',
    session: input.session,
    project: input.project,
    n: span.n,
    phase: span.phase,
    start: span.start,
    status: input.open ? 'open' : 'closed',
    trigger: span.trigger,
    written: input.now,
    decisions: decisions.map((d) => input.decisionIds.get(d.key) ?? decisionId(d.key)),
  };
  if (span.end !== undefined && !input.open) meta.end = span.end;
  if (lastTest !== undefined)
    meta.tests = { passed: lastTest.passed, failed: lastTest.failed, skipped: lastTest.skipped, ...(lastTest.uncounted === true ? { uncounted: true } : {}) };

  const out: string[] = [];
  const end = input.open ? undefined : span.end;
  out.push(`# Phase ${span.n}: ${span.phase}${input.open ? ' (in progress)' : ''}`, '');
  out.push(
    `Session \`${input.session}\` · ${span.start}${end === undefined ? ' → now' : ` → ${end} (${duration(span.start, end)})`} · entered ${triggerText(span)}`,
  );
  section(out, 'Goal', input.goal === undefined ? [] : [input.goal]);
  section(
    out,
    'Requirements',
    cap(requirements).map((f) => `${f.text}${ref(f)}`),
  );
  section(
    out,
    'Decisions',
    cap(decisions).map(
      (d) =>
        `**${input.decisionIds.get(d.key) ?? decisionId(d.key)}** ${d.text}${d.reason !== undefined && !d.text.includes(d.reason) ? ` *Why:* ${d.reason}` : ''}${ref(d)}`,
    ),
  );
  section(
    out,
    'Constraints',
    cap(constraints).map((f) => `${f.text}${ref(f)}`),
  );
  const values = dedupe(input.facts.filter((f) => f.kind === 'value' && inSpan(f))).slice(-MAX_LIST);
  section(out, 'Values set', [
    ...keyChanges(work?.changes ?? [], { values: 20, other: 6 }).map((c) => `\`${c.file}\`: ${c.text}`),
    ...values.map((f) => `${f.text}${ref(f)}`),
  ]);
  section(
    out,
    'Files touched',
    (work?.files ?? []).slice(-20).map((f) => `\`${f}\``),
  );
  if (work !== undefined && work.reads > 0) out.push('', `${work.reads} file read${work.reads === 1 ? '' : 's'} besides.`);
  section(out, 'Commands and test results', commandLines(work));
  section(
    out,
    'Tasks',
    todos.map((t) => `[${t.status === 'completed' ? 'x' : t.status === 'in_progress' ? '~' : ' '}] ${t.content}`),
  );
  const openTodos = todos.filter((t) => t.status !== 'completed').map((t) => t.content);
  section(out, 'Open items', [...openFacts.map((f) => `${f.text}${ref(f)}`), ...openTodos.map((t) => `${t} (task list)`)].slice(0, MAX_LIST));
  section(
    out,
    'Next steps',
    next.map((f) => `${f.text}${ref(f)}`),
  );
  out.push(
    '',
    '## Details',
    '',
    `Full text of anything above: \`/recall show <ref>\`. This phase's archive: \`/recall phase:${span.phase} session:${input.session}\`.`,
  );
  return { meta, body: out.join('\n') };
}

function commandLines(work: SpanWork | undefined): string[] {
  if (work === undefined) return [];
  const lines: string[] = [];
  const tested = new Set(work.tests.map((t) => `${t.t}\n${t.command}`));
  for (const t of work.tests.slice(-5)) lines.push(testLine(t));
  for (const c of work.commands.slice(-8)) {
    if (tested.has(`${c.t}\n${c.command}`)) continue;
    lines.push(
      `\`${c.command}\` ${c.ok ? (c.exit === undefined || c.exit === 0 ? 'ok' : `exit ${c.exit}`) : `failed${c.exit === undefined ? '' : ` (exit ${c.exit})`}`}`,
    );
  }
  return lines;
}

export function testLine(t: TestRecord): string {
  const counts = countsText(t);
  const failing = t.failures.length > 0 ? `; failing: ${t.failures.slice(0, 5).join('; ')}` : '';
  return `\`${t.command}\` (${t.runner}): ${counts}${failing}`;
}

function triggerText(span: PhaseSpan): string {
  if (span.by === 'start') return 'at session start';
  return `by ${span.trigger}`;
}

function ref(f: { ref: string }): string {
  return f.ref === '' ? '' : ` (ref \`${f.ref}\`)`;
}

function section(out: string[], title: string, items: readonly string[]): void {
  if (items.length === 0) return;
  out.push('', `## ${title}`, '');
  for (const item of items) out.push(`- ${item.replace(/\n+/g, ' ')}`);
}

function cap<T>(items: readonly T[]): T[] {
  return items.slice(-MAX_LIST);
}

/** First occurrence of each fact key, in order. */
export function dedupe<T extends { key: string }>(facts: readonly T[]): T[] {
  return firstOf(facts, (f) => f.key);
}

/** The first item of each key, in order. */
export function firstOf<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const item of items) {
    const k = key(item);
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(item);
  }
  return out;
}

/** `1h 8m`, `25m`, `40s`. */
export function duration(start: string, end: string): string {
  const ms = Date.parse(end) - Date.parse(start);
  if (!Number.isFinite(ms) || ms < 0) return '?';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ${m % 60}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

/** The file: JSON values in the frontmatter (valid YAML too, as chunk files do). */
export function renderLedger(ledger: { meta: LedgerMeta; body: string }): string {
  const lines = ['---'];
  for (const [key, value] of Object.entries(ledger.meta)) if (value !== undefined) lines.push(`${key}: ${JSON.stringify(value)}`);
  lines.push('---', '');
  return `${lines.join('\n')}${ledger.body}\n`;
}

/** The frontmatter of a ledger file (hand edits tolerated: unknown keys kept, bad lines skipped). */
export function parseLedgerMeta(text: string): LedgerMeta | undefined {
  if (!text.startsWith('---\n')) return undefined;
  const end = text.indexOf('\n---', 3);
  if (end === -1) return undefined;
  const meta: Record<string, unknown> = {};
  for (const line of text.slice(4, end).split('\n')) {
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    const raw = line.slice(colon + 1).trim();
    try {
      meta[line.slice(0, colon).trim()] = JSON.parse(raw);
    } catch {
      meta[line.slice(0, colon).trim()] = raw.replace(/^["']|["']$/g, '');
    }
  }
  if (meta.version !== LEDGER_VERSION || typeof meta.n !== 'number' || typeof meta.phase !== 'string') return undefined;
  return meta as unknown as LedgerMeta;
}

/** A decision-log record for a decision fact. */
export function decisionRecord(fact: FactRecord, session: string, id: string): DecisionRecord {
  const rec: DecisionRecord = { v: 1, id, t: fact.t, session, phase: fact.phase, text: fact.text, ref: fact.ref };
  if (fact.reason !== undefined) rec.reason = fact.reason;
  if (fact.chosen !== undefined) rec.chosen = fact.chosen;
  if (fact.rejected !== undefined && fact.rejected.length > 0) rec.rejected = fact.rejected;
  return rec;
}

/**
 * Which earlier decisions a new one replaces: those whose choice it names as rejected ("switched
 * from X", "instead of X"). Compared on normalised words, so "Postgres" matches "postgres".
 */
export function superseded(decision: DecisionRecord, earlier: readonly DecisionRecord[], norm: (s: string) => string): string[] {
  const rejected = (decision.rejected ?? []).map(norm).filter((r) => r !== '');
  if (rejected.length === 0) return [];
  const out: string[] = [];
  for (const d of earlier) {
    if (d.id === decision.id || d.chosen === undefined) continue;
    // Whole names only: "React" rejected does not supersede "React Testing Library" chosen; a
    // rejected "the Postgres pool" does supersede "Postgres pool".
    const chosen = norm(d.chosen);
    if (chosen !== '' && rejected.some((r) => r === chosen || ` ${r} `.includes(` ${chosen} `))) out.push(d.id);
  }
  return out;
}
