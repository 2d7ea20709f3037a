// When a question says it happened: "on February 14th", "in the first week of March", "mid April",
// "yesterday", "last Tuesday", "three days ago", "2025-03-05". The search favours what was said in
// those spans (search.ts): the words of such a question rarely name what its answer says ("where
// did we eat on the 14th" of "dinner at Gogi House"), its date does. Spans are in local time (the
// user's calendar). A date without a year stands for that date in each of the last ten years: an
// archive spans several, and "February 14th" asked in November means the one before. Pure.

/** A span of time, [start, end) in epoch ms. */
export interface TimeSpan {
  start: number;
  end: number;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = '(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\\.?';
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?';
const YEAR = '(?:,?\\s+((?:19|20)\\d{2}))?';
const WORD_END = '(?![\\w-])';
const WORD_START = '(?<![\\w-])';

/** Years back a date without a year may be in. */
const YEARS_BACK = 10;

const NUMBER_WORDS: Record<string, number> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  couple: 2,
  few: 3,
};
/** Month names that are a date on their own, with no preposition or year: not the abbreviations, not May or March. */
const BARE_MONTHS = new Set(['january', 'february', 'april', 'june', 'july', 'august', 'september', 'october', 'november', 'december']);
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** Parts of a month: the first and last day each phrase stands for (the last is capped at the month's end). */
const PARTS: Record<string, [number, number]> = {
  early: [1, 10],
  'beginning of': [1, 7],
  'start of': [1, 7],
  mid: [10, 20],
  middle: [10, 20],
  'middle of': [10, 20],
  late: [20, 31],
  'end of': [24, 31],
  first: [1, 7],
  '1st': [1, 7],
  second: [8, 14],
  '2nd': [8, 14],
  third: [15, 21],
  '3rd': [15, 21],
  fourth: [22, 28],
  '4th': [22, 28],
  last: [24, 31],
};

interface Found {
  spans: TimeSpan[];
  /** Where in the text each match was, so a shorter pattern does not read the same words again. */
  taken: Array<[number, number]>;
}

/** The spans of time a question names, merged; empty when it names none. */
export function timeSpans(text: string, now: Date): TimeSpan[] {
  const lower = text.toLowerCase();
  const found: Found = { spans: [], taken: [] };
  const thisYear = now.getFullYear();
  const years = (year: string | undefined) => (year === undefined ? range(thisYear - YEARS_BACK, thisYear) : [Number(year)]);

  // "the first week of March", "mid-April", "late September 2025"
  const parts = Object.keys(PARTS)
    .sort((a, b) => b.length - a.length)
    .join('|');
  each(lower, `${WORD_START}(?:the\\s+)?(${parts})(?:[\\s-]+week)?[\\s-]+(?:of\\s+)?${MONTH}${YEAR}${WORD_END}`, found, (m) => {
    const [from, to] = PARTS[m[1] as string] as [number, number];
    const month = monthOf(m[2] as string);
    return years(m[3]).map((y) => daySpan(y, month, from, Math.min(to, daysIn(y, month)) - from + 1));
  });
  // "February 14th", "Feb. 14, 2025", "May 3"
  each(lower, `${WORD_START}${MONTH}\\s+${DAY}${YEAR}${WORD_END}`, found, (m) => {
    const month = monthOf(m[1] as string);
    return dayOfMonth(years(m[3]), month, Number(m[2]));
  });
  // "14 February", "the 14th of February"
  each(lower, `${WORD_START}(?:the\\s+)?${DAY}\\s+(?:of\\s+)?${MONTH}${YEAR}${WORD_END}`, found, (m) => {
    const month = monthOf(m[2] as string);
    return dayOfMonth(years(m[3]), month, Number(m[1]));
  });
  // "2025-03-05", "2025-03"
  each(lower, `${WORD_START}((?:19|20)\\d{2})-(\\d{2})(?:-(\\d{2}))?(?![\\w-])`, found, (m) => {
    const y = Number(m[1]);
    const month = Number(m[2]) - 1;
    if (month < 0 || month > 11) return [];
    if (m[3] === undefined) return [daySpan(y, month, 1, daysIn(y, month))];
    return dayOfMonth([y], month, Number(m[3]));
  });
  // "in March", "during May 2025", "March 2025"; a bare month name, except the two that are
  // everyday words ("may I", "march on"), which need a preposition or a year.
  each(lower, `${WORD_START}(?:(in|during|since|until|through|throughout|from|of|by|before|after)\\s+)?${MONTH}${YEAR}${WORD_END}`, found, (m) => {
    const name = m[2] as string;
    const bare = m[1] === undefined && m[3] === undefined;
    if (bare && !BARE_MONTHS.has(name)) return [];
    const month = monthOf(name);
    return years(m[3]).map((y) => daySpan(y, month, 1, daysIn(y, month)));
  });

  // Relative to now.
  const today = startOfDay(now);
  const day = (back: number, days = 1) => ({ start: shiftDays(today, -back), end: shiftDays(today, -back + days) });
  each(lower, `${WORD_START}(?:the\\s+)?day\\s+before\\s+yesterday${WORD_END}`, found, () => [day(2)]);
  each(lower, `${WORD_START}(?:yesterday|last\\s+night)${WORD_END}`, found, () => [day(1)]);
  each(lower, `${WORD_START}(?:today|this\\s+(?:morning|afternoon|evening))${WORD_END}`, found, () => [day(0)]);
  each(lower, `${WORD_START}(\\d{1,2}|${Object.keys(NUMBER_WORDS).join('|')})\\s+(day|week|month)s?\\s+ago${WORD_END}`, found, (m) => {
    const n = /^\d/.test(m[1] as string) ? Number(m[1]) : (NUMBER_WORDS[m[1] as string] as number);
    // "three days ago" is rarely exact: the day before and after count too; a week or month ago, a week around it.
    if (m[2] === 'day') return [day(n + 1, 3)];
    const back = m[2] === 'week' ? 7 * n : 30 * n;
    return [day(back + 3, 7)];
  });
  each(lower, `${WORD_START}(last|this|past)\\s+(week|month|year)${WORD_END}`, found, (m) => {
    const unit = m[2] as string;
    if (m[1] === 'past') {
      const days = unit === 'week' ? 7 : unit === 'month' ? 30 : 365;
      return [day(days, days + 1)];
    }
    if (unit === 'week') {
      const monday = new Date(shiftDays(today, -((today.getDay() + 6) % 7)));
      return m[1] === 'this' ? [{ start: monday.getTime(), end: shiftDays(today, 1) }] : [{ start: shiftDays(monday, -7), end: monday.getTime() }];
    }
    if (unit === 'month') {
      const first = new Date(today.getFullYear(), today.getMonth(), 1);
      return m[1] === 'this'
        ? [{ start: first.getTime(), end: shiftDays(today, 1) }]
        : [{ start: new Date(today.getFullYear(), today.getMonth() - 1, 1).getTime(), end: first.getTime() }];
    }
    const jan1 = new Date(today.getFullYear(), 0, 1);
    return m[1] === 'this'
      ? [{ start: jan1.getTime(), end: shiftDays(today, 1) }]
      : [{ start: new Date(today.getFullYear() - 1, 0, 1).getTime(), end: jan1.getTime() }];
  });
  // "on Tuesday", "last Friday": the latest such day before today ("last" also skips today's weekday).
  each(lower, `${WORD_START}(on|last|this\\s+past|past)\\s+(${WEEKDAYS.join('|')})${WORD_END}`, found, (m) => {
    const want = WEEKDAYS.indexOf(m[2] as string);
    let back = (today.getDay() - want + 7) % 7;
    if (back === 0) back = 7;
    return [day(back)];
  });
  return merge(found.spans);
}

/**
 * Whether a question asks how things stand now ("where do I live now", "the current timeout", "what
 * do I eat these days"): a fact that changed was said twice, and the later saying answers it.
 */
export function asksForLatest(text: string): boolean {
  return LATEST.test(text.toLowerCase());
}
const LATEST = /(?<![\w-])(?:now|nowadays|currently|current|these days|at the moment|at present|any ?more|lately|latest|most recent|still)(?![\w-])/;

/** Whether `t` (epoch ms) lies in one of the spans. */
export function within(spans: readonly TimeSpan[], t: number): boolean {
  for (const s of spans) if (t >= s.start && t < s.end) return true;
  return false;
}

function each(text: string, source: string, found: Found, spansOf: (m: RegExpExecArray) => TimeSpan[]): void {
  const re = new RegExp(source, 'g');
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const from = m.index;
    const to = from + m[0].length;
    if (found.taken.some(([a, b]) => from < b && to > a)) continue;
    const spans = spansOf(m);
    if (spans.length === 0) continue;
    found.taken.push([from, to]);
    found.spans.push(...spans);
  }
}

function monthOf(name: string): number {
  return MONTHS.indexOf(name.slice(0, 3));
}

function dayOfMonth(years: readonly number[], month: number, date: number): TimeSpan[] {
  return years.flatMap((y) => (date >= 1 && date <= daysIn(y, month) ? [daySpan(y, month, date, 1)] : []));
}

/** `days` calendar days from the given date, in local time (a day of a clock change is 23 or 25 hours). */
function daySpan(year: number, month: number, date: number, days: number): TimeSpan {
  return { start: new Date(year, month, date).getTime(), end: new Date(year, month, date + days).getTime() };
}

const daysIn = (year: number, month: number) => new Date(year, month + 1, 0).getDate();
const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate());
const shiftDays = (d: Date, n: number) => new Date(d.getFullYear(), d.getMonth(), d.getDate() + n).getTime();
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

function merge(spans: TimeSpan[]): TimeSpan[] {
  const sorted = spans.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start);
  const out: TimeSpan[] = [];
  for (const s of sorted) {
    const last = out.at(-1);
    if (last !== undefined && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}
