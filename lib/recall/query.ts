// `/recall` query syntax: words, "quoted phrases", and the filters phase:, type:, file:, session:,
// since:. Any other `word:` is a plain word (so `http://x` or `note:` still search); a phase: or
// since: whose value means nothing is a problem to tell the user, not a word. Pure.

import { PHASES, parsePhaseName } from '../phase/signals.ts';

export interface Query {
  words: string[];
  phrases: string[];
  /** Filters whose value means nothing (`since:lastweek`, `phase:lunch`): said, not searched as words. */
  problems?: string[];
  phase?: string;
  type?: string;
  file?: string;
  session?: string;
  /** ISO time; chunks older than this are left out. */
  since?: string;
}

const FILTERS = new Set(['phase', 'type', 'file', 'session', 'since']);

export function parseQuery(input: string, now: Date): Query {
  const query: Query = { words: [], phrases: [] };
  // Tokens: key:"quoted value", "quoted phrase", or a bare run of non-space characters.
  const re = /([A-Za-z]+):"([^"]*)"|"([^"]*)"?|(\S+)/g;
  for (const m of input.matchAll(re)) {
    if (m[1] !== undefined) {
      const key = m[1].toLowerCase();
      if (assignFilter(query, key, m[2] ?? '', now)) continue;
      if (FILTERS.has(key) && (m[2] ?? '') !== '') addProblem(query, filterProblem(key, m[2] ?? ''));
      else query.phrases.push(`${m[1]}:${m[2] ?? ''}`.trim());
      continue;
    }
    if (m[3] !== undefined) {
      if (m[3].trim() !== '') query.phrases.push(m[3].trim());
      continue;
    }
    const token = m[4] ?? '';
    const colon = token.indexOf(':');
    if (colon > 0) {
      const key = token.slice(0, colon).toLowerCase();
      const value = token.slice(colon + 1);
      if (FILTERS.has(key) && value !== '') {
        if (!assignFilter(query, key, value, now)) addProblem(query, filterProblem(key, value));
        continue;
      }
    }
    query.words.push(token);
  }
  return query;
}

function assignFilter(query: Query, key: string, value: string, now: Date): boolean {
  switch (key) {
    case 'phase': {
      // The names the tracker uses, or what `/phase` accepts for them (plan, impl, test…).
      const lower = value.toLowerCase();
      const phase = lower === 'unknown' ? lower : parsePhaseName(lower);
      if (phase === undefined) return false;
      query.phase = phase;
      return true;
    }
    case 'type':
      // A chunk type (user, assistant, tool, summary, ledger) or a tool's name (bash, read, mcp__…).
      query.type = value.toLowerCase();
      return true;
    case 'file':
    case 'session':
      query[key] = value;
      return true;
    case 'since': {
      const since = parseSince(value, now);
      if (since === undefined) return false;
      query.since = since;
      return true;
    }
    default:
      return false;
  }
}

function filterProblem(key: string, value: string): string {
  if (key === 'since') return `\`since:${value}\` is not a time: use 30m, 3h, 2d, 1w, today, yesterday or a date like 2026-11-30`;
  return `\`${key}:${value}\` is not a phase: use ${PHASES.join(', ')}`;
}

function addProblem(query: Query, problem: string): void {
  query.problems = [...(query.problems ?? []), problem];
}

/** A year, month, date or date-time as ISO 8601 writes it (2026, 2026-11, 2026-11-30, 2026-11-30T09:00…). */
const ISO_DATE = /^\d{4}(?:-\d{2}(?:-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})?)?)?)?$/i;

/** `2d`, `3h`, `1w`, `30m`, `7` (days), `today`, `yesterday`, or an ISO date/time. */
export function parseSince(value: string, now: Date): string | undefined {
  // A bare number is days (Date.parse would read `7` as July 2001); four digits stay a year.
  const rel = /^(\d+)\s*(m|min|h|d|w)$/i.exec(value.trim()) ?? /^(\d{1,3})()$/.exec(value.trim());
  if (rel !== null) {
    const n = Number(rel[1]);
    const unit = (rel[2] || 'd').toLowerCase();
    const ms = unit.startsWith('m') ? 60_000 : unit === 'h' ? 3_600_000 : unit === 'd' ? 86_400_000 : 7 * 86_400_000;
    return new Date(now.getTime() - n * ms).toISOString();
  }
  if (value === 'today' || value === 'yesterday') {
    const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    if (value === 'yesterday') day.setUTCDate(day.getUTCDate() - 1);
    return day.toISOString();
  }
  // Only ISO forms: Date.parse reads `12/25` as 2001-12-25.
  if (!ISO_DATE.test(value.trim())) return undefined;
  const t = Date.parse(value.trim());
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}

/** The text handed to the ranker: words and phrases together. */
export function searchText(q: Query): string {
  return [...q.words, ...q.phrases].join(' ');
}

/** Whether any filter narrows the search (a search by filters alone lists the newest first). */
export function hasFilters(q: Query): boolean {
  return q.phase !== undefined || q.type !== undefined || q.file !== undefined || q.session !== undefined || q.since !== undefined;
}

export function isEmpty(q: Query): boolean {
  return q.words.length === 0 && q.phrases.length === 0 && !hasFilters(q);
}
