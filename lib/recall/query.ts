// `/recall` query syntax: words, "quoted phrases", and the filters phase:, type:, file:, session:,
// since:. Any other `word:` is a plain word (so `http://x` or `note:` still search). Pure.

export interface Query {
  words: string[];
  phrases: string[];
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
      if (!assignFilter(query, m[1].toLowerCase(), m[2] ?? '', now)) query.phrases.push(`${m[1]}:${m[2] ?? ''}`.trim());
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
      if (FILTERS.has(key) && value !== '' && assignFilter(query, key, value, now)) continue;
    }
    query.words.push(token);
  }
  return query;
}

function assignFilter(query: Query, key: string, value: string, now: Date): boolean {
  switch (key) {
    case 'phase':
    case 'type':
      query[key] = value.toLowerCase();
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
  const t = Date.parse(value);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}

/** The text handed to the ranker: words and phrases together. */
export function searchText(q: Query): string {
  return [...q.words, ...q.phrases].join(' ');
}

export function isEmpty(q: Query): boolean {
  return (
    q.words.length === 0 &&
    q.phrases.length === 0 &&
    q.phase === undefined &&
    q.type === undefined &&
    q.file === undefined &&
    q.session === undefined &&
    q.since === undefined
  );
}
