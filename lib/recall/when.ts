// When a question says it happened: "on February 14th", "in the first week of March", "mid April",
// "yesterday", "last Tuesday", "three days ago", "2025-03-05". The search favours what was said in
// those spans (search.ts): the words of such a question rarely name what its answer says ("where
// did we eat on the 14th" of "dinner at Gogi House"), its date does. Spans are in local time (the
// user's calendar). A date without a year stands for that date in this year and each of the ten
// before: an archive spans several, and "February 14th" asked in November means this year's or
// an earlier one. Pure.

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

/** Years back a date without a year may be in (besides this one). */
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
/** A count in digits or words, as group 1 ("3", "three", "a couple"). */
const COUNT = `(\\d{1,2}|${Object.keys(NUMBER_WORDS).join('|')})`;
const countOf = (word: string) => (/^\d/.test(word) ? Number(word) : (NUMBER_WORDS[word] as number));
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** Parts of a month: the first and last day each phrase stands for (the last is capped at the month's end). */
const PARTS: Record<string, [number, number]> = {
  early: [1, 10],
  'beginning of': [1, 7],
  'start of': [1, 7],
  mid: [10, 20],
  'middle of': [10, 20],
  late: [20, 31],
  'end of': [24, 31],
};
/** Weeks of a month ("the first week of March"): only with the word week. */
const WEEKS: Record<string, [number, number]> = {
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

/**
 * Month names that are everyday words of chat or code ("the first may fail", the csv `sep`, `dec`
 * places): a month only with a preposition before them, a year or an ordinal day after, or in
 * title case ("Sep 3", not "SEP"). March is also a month before a day, after "last" or a part of a
 * month ("march 14", "last march", "early march"); may is not ("may 2 times").
 */
const AMBIGUOUS = new Set(['may', 'march', 'mar', 'sep', 'sept', 'dec', 'oct', 'jun']);
const FULL_NAMES = new Set(['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december']);
const PREPOSITION = '(?:in|on|during|since|until|till|through|throughout|from|of|by|before|after|around|about)';
/** Nouns that make "on the 2nd", "in 2024" a count, not a date. */
const COUNTED =
  '(?!\\s+(?:try|tries|attempts?|retry|retries|calls?|runs?|times?|pass|passes|lines?|rows?|columns?|items?|elements?|steps?|rounds?|iterations?|pages?|tests?|ms|bytes|records|entries|files|users|requests|errors|words|characters|chars)\\b)';

/**
 * What every pattern below needs one of (a month's first three letters, day, week, month, year, ago,
 * a part of the day, a year, an ordinal): most questions name no time, and compiling the patterns
 * costs a cold process 2–3 ms, a /recall hook's whole margin.
 */
const CUE =
  /jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|day|week|month|year|ago|night|morning|afternoon|evening|spring|summer|autumn|fall|winter|christmas|xmas|valentine|halloween|thanksgiving|easter|(?:19|20)\d\d|\d(?:st|nd|rd|th)/;

interface Found {
  spans: TimeSpan[];
  /** Where in the text the match that read each span began (same order as spans). */
  from: number[];
  /** Where in the text each match was, so a shorter pattern does not read the same words again. */
  read: Array<[number, number]>;
  /** The words cut from the question: what was read, but a season's or a holiday's name. */
  taken: Array<[number, number]>;
}

/** What a question says about time: its spans, and its text without the words that said them. */
export interface TimeReading {
  spans: TimeSpan[];
  rest: string;
  /** A time said relative to an event ("the week after the bathroom was finished"). */
  relative?: RelativeTime;
}

/**
 * "The day before I flew out", "a few days after my interview": the event's words, and the days
 * around the event's day that the span covers, [from, to), with a day of slack on the near side (an
 * event's day is known from when it was spoken of, which may be the day before or after it).
 */
export interface RelativeTime {
  event: string;
  from: number;
  to: number;
  /** The span is around the event ("the day I turned 34"), not before or after it. */
  around?: boolean;
}

const RELATIVE_UNITS: Record<string, number> = { day: 1, night: 1, evening: 1, morning: 1, afternoon: 1, weekend: 8, week: 7, month: 31 };
/** How many units: "a few days", "a couple of weeks", "three days" (longest first for the pattern). */
const RELATIVE_COUNTS: Record<string, number> = { 'a few': 3, 'a couple of': 2, 'couple of': 2, several: 5, the: 1, ...NUMBER_WORDS };
const RELATIVE_COUNT_WORDS = Object.keys(RELATIVE_COUNTS).sort((a, b) => b.length - a.length);
/** "the day before", "a few days after", "two weeks before", "right after": then the event's words. */
const RELATIVE = new RegExp(
  `(?<![\\w-])(?<!(?:last|this|next|past|coming)\\s+)(?:(?:(${RELATIVE_COUNT_WORDS.join('|')}|\\d{1,2})\\s+)?(day|night|evening|morning|afternoon|weekend|week|month)s?|(right|just|shortly|soon))\\s+(?:right\\s+|just\\s+|shortly\\s+)?(before|after|prior\\s+to|following)\\s+(?!(?:that|this|then|it)\\s*(?:[,;?!.]|$)|(?:yesterday|today|tomorrow|last|next)\\b)([^,;?!.—–]+)`,
);
/** Where an event's words end: a question's own words start again ("… I told you something was hurting"). */
const EVENT_END = /\s+(?:what|which|who|whom|where|why|how|i\s+(?:told|said|asked|mentioned)|you\s+(?:told|said|suggested|recommended))\b/;

/** Past forms not in -ed: an event is told in the past ("the day we went", not "the day I should pick"). */
const PAST_IRREGULAR =
  'was|were|had|went|got|came|left|took|met|flew|began|bought|sold|ran|won|lost|made|saw|gave|found|broke|fell|drove|wrote|spent|sent|held|became|felt|heard|kept|paid|quit|rode|sat|slept|spoke|stood|swam|threw|told|woke|wore|built|caught|chose|did|ate|drank|forgot|hit|hurt|let|put|read|set|shut|split|tore|upset';
/**
 * "The day I turned 34", "the week we moved", "that weekend we went to Porto": the time of an event
 * itself, told by a subject and what they did. Its days around the event's day ([from, to), a day of
 * slack on each side).
 */
const OF_EVENT = new RegExp(
  `(?<![\\w-])(?:the|that)\\s+(day|night|evening|morning|afternoon|weekend|week)\\s+(?:that\\s+|when\\s+)?((?:i|we|he|she|they|(?:my|our)\\s+[\\w'-]+)\\s+(?:(?!(?:need|feed|speed|seed|breed|bleed|exceed|proceed|succeed|embed|shed|bed|red|wed)(?![\\w'-]))\\w+ed|${PAST_IRREGULAR})(?![\\w'-])[^,;?!.—–]*)`,
);
const OF_EVENT_DAYS: Record<string, [number, number]> = { week: [-4, 5], weekend: [-2, 4] };

/** An event-relative time in a question, or undefined. */
export function relativeTime(text: string): { relative: RelativeTime; at: [number, number]; whole: [number, number] } | undefined {
  const lower = text.toLowerCase();
  if (!/\b(?:before|after|prior|following)\b/.test(lower)) return eventTime(lower);
  const m = RELATIVE.exec(lower);
  if (m === null) return eventTime(lower);
  const [, count, unit, near, direction, tail] = m;
  const event = eventWords(tail as string);
  if (!/[a-z]{3}/.test(event)) return undefined;
  const days = near !== undefined ? 2 : (RELATIVE_UNITS[unit as string] ?? 1) * (count === undefined ? 1 : (RELATIVE_COUNTS[count] ?? Number(count)));
  const before = direction === 'before' || (direction as string).startsWith('prior');
  const relative = before ? { event, from: -days - 1, to: 1 } : { event, from: 0, to: days + 2 };
  const start = m.index;
  const unitEnd = start + m[0].length - (tail as string).length;
  const eventAt = lower.indexOf(event, unitEnd);
  return { relative, at: [start, unitEnd], whole: [start, eventAt === -1 ? unitEnd : eventAt + event.length] };
}

/** An event's words: up to where the question goes on (EVENT_END), at most ten, single-spaced. */
function eventWords(tail: string): string {
  let event = tail.trim();
  const end = EVENT_END.exec(event);
  if (end !== null && end.index > 0) event = event.slice(0, end.index);
  return event.split(/\s+/).slice(0, 10).join(' ');
}

/** "The day I turned 34": the event's own days (OF_EVENT), or undefined. */
function eventTime(lower: string): { relative: RelativeTime; at: [number, number]; whole: [number, number] } | undefined {
  const m = OF_EVENT.exec(lower);
  if (m === null) return undefined;
  const event = eventWords(m[2] as string);
  // The subject alone is no event ("the day I" of "what's the day I …?" needs a word after it).
  if (!/\s[a-z]{2}/.test(event)) return undefined;
  const [from, to] = OF_EVENT_DAYS[m[1] as string] ?? [-1, 2];
  // Offsets from the match: the event was rebuilt with single spaces, so it may not be found as is.
  const unitEnd = m.index + m[0].length - (m[2] as string).length;
  const eventAt = lower.indexOf(event, unitEnd);
  return {
    relative: { event, from, to, around: true },
    at: [m.index, unitEnd],
    whole: [m.index, eventAt === -1 ? m.index + m[0].length : eventAt + event.length],
  };
}

/** The spans of time a question names, merged; empty when it names none. */
export function timeSpans(text: string, now: Date): TimeSpan[] {
  return readTime(text, now).spans;
}

export function readTime(text: string, now: Date): TimeReading {
  const lower = text.toLowerCase();
  const relative = relativeTime(text);
  if (!CUE.test(lower)) return relative === undefined ? { spans: [], rest: text } : { spans: [], rest: cut(text, [relative.at]), relative: relative.relative };
  // The words that say how far from the event are no date of their own ("the weekend before …").
  const found: Found = { spans: [], from: [], read: relative === undefined ? [] : [relative.at], taken: relative === undefined ? [] : [relative.at] };
  // "The weekend of February 14th": the date below is read as a day, then widened to its weekend.
  const weekendOf = WEEKEND_OF.exec(lower);
  if (weekendOf !== null) {
    const at: [number, number] = [weekendOf.index, weekendOf.index + weekendOf[0].length];
    found.read.push(at);
    found.taken.push(at);
  }
  const thisYear = now.getFullYear();
  const today = startOfDay(now);
  const tomorrow = shiftDays(today, 1);
  const years = (year: string | undefined) => (year === undefined ? range(thisYear - YEARS_BACK, thisYear) : [Number(year)]);
  const titleCase = (m: RegExpExecArray, g: number) => {
    const at = m.indices?.[g]?.[0] ?? -1;
    return at >= 0 && /^[A-Z][a-z]/.test(text.slice(at, at + 2));
  };
  /** Whether the month name of group `g` reads as a month here (see AMBIGUOUS). */
  const isMonth = (m: RegExpExecArray, g: number, more: { prep?: boolean; year?: boolean; ordinal?: boolean; march?: boolean }) => {
    const name = m[g] as string;
    if (!AMBIGUOUS.has(name) || more.prep === true || more.year === true || more.ordinal === true) return true;
    return (more.march === true && name === 'march') || titleCase(m, g);
  };
  const prepBefore = (m: RegExpExecArray) => new RegExp(`${PREPOSITION}\\s+(?:the\\s+)?$`).test(lower.slice(Math.max(0, m.index - 16), m.index));
  const read = (source: string, spansOf: (m: RegExpExecArray) => TimeSpan[], closed = false, kept?: number) =>
    each(lower, source, found, spansOf, today.getTime(), tomorrow, closed, kept);

  // Ranges, closed at both ends ("from" here starts no span that runs on to today): "from March 20
  // to 23", "March 28 – April 3", "between the 3rd and the 9th of March", "Friday 20th to Monday
  // 23rd March", "from January to March". A month may be said once, on either side.
  const weekday = `(?:(?:${WEEKDAYS.join('|')}),?\\s+)?`;
  const point = `${weekday}(?:${MONTH}\\s+${DAY}|(?:the\\s+)?${DAY}(?:\\s+(of\\s+)?${MONTH})?)`;
  // "March 3 and 9" is two days; "between March 3 and 9" is the days from one to the other.
  const twoDays = (m: RegExpExecArray) => m[1] !== 'between' && /\sand\s/.test(m[0]);
  read(
    `${WORD_START}(?:(from|between)\\s+)?${point}${YEAR}${RANGE_LINK}${point}${YEAR}${WORD_END}`,
    (m) => {
      // Groups: 1 lead; 2–6 the first point (month, day | day, of, month); 7 its year; 8–12 the
      // second point; 13 its year.
      const ordinal = /\d(?:st|nd|rd|th)/.test(m[0]);
      const lead = m[1] !== undefined || prepBefore(m);
      const year = m[13] ?? m[7];
      const months: Array<[number, boolean]> = [
        [2, lead],
        [6, m[5] !== undefined],
        [8, lead],
        [12, m[11] !== undefined],
      ];
      for (const [g, prep] of months)
        if (m[g] !== undefined && !isMonth(m, g, { prep, year: year !== undefined, ordinal, march: g === 2 || g === 8 })) return [];
      const firstMonth = m[2] ?? m[6];
      const secondMonth = m[8] ?? m[12] ?? firstMonth;
      if (secondMonth === undefined) return [];
      const month1 = monthOf(firstMonth ?? secondMonth);
      const month2 = monthOf(secondMonth);
      const [fromDay, toDay] = [Number(m[3] ?? m[4]), Number(m[9] ?? m[10])];
      if (twoDays(m)) {
        const starts = m[7] === undefined ? years(m[13]) : [Number(m[7])];
        return [...dayOfMonth(starts, month1, fromDay), ...dayOfMonth(years(m[13]), month2, toDay)];
      }
      // A month said once is both ends' ("March 20 to 23"): "March 20 to 3" is no range.
      if ((firstMonth === undefined) !== (m[8] === undefined && m[12] === undefined) && toDay < fromDay) return [];
      // A year on the first end only is the range's ("from December 28, 2024 to January 3").
      const fromYear = m[7] === undefined ? undefined : Number(m[7]);
      const wraps = month2 < month1 || (month2 === month1 && toDay < fromDay);
      const endYears = m[13] === undefined && fromYear !== undefined ? [wraps ? fromYear + 1 : fromYear] : years(m[13]);
      return closedRange(endYears, month1, fromDay, month2, toDay, fromYear);
    },
    true,
  );
  // "from 2025-03-20 to 2025-03-23"
  read(
    `${WORD_START}(?:(from|between)\\s+)?((?:19|20)\\d{2})-(\\d{2})-(\\d{2})${RANGE_LINK}((?:19|20)\\d{2})-(\\d{2})-(\\d{2})(?![\\w/.-])`,
    (m) => {
      if (twoDays(m)) return [];
      const [y1, m1, d1, y2, m2, d2] = [2, 3, 4, 5, 6, 7].map((g) => Number(m[g])) as [number, number, number, number, number, number];
      return m1 >= 1 && m1 <= 12 && m2 >= 1 && m2 <= 12 ? closedRange([y2], m1 - 1, d1, m2 - 1, d2, y1) : [];
    },
    true,
  );
  read(
    `${WORD_START}(?:(from|between)\\s+)?${MONTH}${RANGE_LINK}${MONTH}${YEAR}${WORD_END}`,
    (m) => {
      if (m[1] === undefined && m[4] === undefined && !prepBefore(m)) return [];
      if (twoDays(m)) return [];
      for (const g of [2, 3]) {
        const name = m[g] as string;
        if (AMBIGUOUS.has(name) && !FULL_NAMES.has(name) && !titleCase(m, g)) return [];
      }
      const month1 = monthOf(m[2] as string);
      const month2 = monthOf(m[3] as string);
      return years(m[4]).flatMap((y) => closedRange([y], month1, 1, month2, daysIn(y, month2)));
    },
    true,
  );
  // Seasons and holidays: "last summer", "in the winter", "the summer of 2025", "over Christmas",
  // "last Thanksgiving". Their names stay words of the question ("what did I get my sister for
  // Christmas" is answered by a chunk that says Christmas, not only by one said that day).
  const latestEnded = (spanIn: (y: number) => TimeSpan) => {
    for (let y = thisYear; y >= thisYear - 2; y--) if (spanIn(y).end <= today.getTime()) return [spanIn(y)];
    return [];
  };
  const thisOne = (spanIn: (y: number) => TimeSpan) => {
    // The one under way, else the nearest of those in this calendar year: "this winter" in March is
    // the one just ended, in November the one to come; "this spring" in November is this year's.
    const t = today.getTime();
    const [jan1, nextJan1] = [new Date(thisYear, 0, 1).getTime(), new Date(thisYear + 1, 0, 1).getTime()];
    const near = [thisYear - 1, thisYear, thisYear + 1].map(spanIn).filter((s) => s.start < nextJan1 && s.end > jan1);
    const away = (s: TimeSpan) => (t < s.start ? s.start - t : t >= s.end ? t - s.end : 0);
    near.sort((x, y) => away(x) - away(y));
    return near.slice(0, 1);
  };
  const seasonal = (spanIn: (y: number) => TimeSpan, which: string | undefined, year: string | undefined) => {
    if (year !== undefined) return [spanIn(Number(year))];
    const said = which?.replace(/\s+/g, ' ');
    if (said === 'this') return thisOne(spanIn);
    if (said !== undefined) return latestEnded(spanIn);
    return range(thisYear - YEARS_BACK, thisYear).map(spanIn);
  };
  // Words of code and chat too ("Spring Boot", "fall back", "winter mode", an Easter egg, a
  // `christmas.ts`): a season or a holiday only after last, this or a preposition, or before a year,
  // and not as a file, a call or a member; spring and fall after a preposition only with "the".
  const [named, nameEnd] = ['(?<![\\w.$/-])', '(?![\\w(/-]|\\.\\w)'];
  read(
    `${named}(?:(last|this\\s+past|this|past)\\s+|(${SEASON_PREPOSITION}\\s+(?:the\\s+)?))?(spring|summer|autumn|fall|winter)(?:\\s+(?:of\\s+)?((?:19|20)\\d{2}))?${nameEnd}${NOT_A_TIME_NOUN}`,
    (m) => {
      const [, which, prep, name, year] = m;
      const codeWord = name === 'spring' || name === 'fall';
      if (which === undefined && year === undefined && (prep === undefined || (codeWord && !/\sthe\s+$/.test(prep)))) return [];
      const [first, last] = SEASONS[name as string] as [number, number];
      return seasonal((y) => ({ start: new Date(y, first, 1).getTime(), end: new Date(y, last + 1, 1).getTime() }), which, year);
    },
    false,
    3,
  );
  read(
    `${named}(?:(last|this\\s+past|this|past)\\s+|(${SEASON_PREPOSITION}\\s+(?:the\\s+)?))?(${HOLIDAY})(?:\\s+(?:of\\s+)?((?:19|20)\\d{2}))?${nameEnd}${NOT_A_TIME_NOUN}`,
    (m) => {
      const [, which, prep, name, year] = m;
      if (which === undefined && year === undefined && prep === undefined) return [];
      const spanIn = holidayIn(name as string);
      return spanIn === undefined ? [] : seasonal(spanIn, which, year);
    },
    false,
    3,
  );

  // "the first week of March", "mid-April", "late September 2025", "in late May"
  const weeks = Object.keys(WEEKS).join('|');
  read(`${WORD_START}(?:the\\s+)?(${weeks})[\\s-]+week[\\s-]+(?:of\\s+|in\\s+)?${MONTH}${YEAR}${WORD_END}`, (m) =>
    monthPart(years(m[3]), monthOf(m[2] as string), WEEKS[m[1] as string] as [number, number]),
  );
  const parts = Object.keys(PARTS)
    .sort((a, b) => b.length - a.length)
    .join('|');
  read(`${WORD_START}(?:the\\s+)?(${parts})[\\s-]+${MONTH}${YEAR}${WORD_END}`, (m) => {
    if (!isMonth(m, 2, { prep: (m[1] as string).endsWith(' of') || prepBefore(m), year: m[3] !== undefined, march: true })) return [];
    return monthPart(years(m[3]), monthOf(m[2] as string), PARTS[m[1] as string] as [number, number]);
  });
  // "February 14th", "Feb. 14, 2025", "on May 3", "March 3-5", "march 14"
  read(`${WORD_START}${MONTH}\\s+${DAY}(?:\\s*(?:-|to|until|through)\\s*(\\d{1,2})(?:st|nd|rd|th)?)?${YEAR}${WORD_END}`, (m) => {
    if (!isMonth(m, 1, { prep: prepBefore(m), year: m[4] !== undefined, ordinal: /\d(?:st|nd|rd|th)/.test(m[0]), march: true })) return [];
    const month = monthOf(m[1] as string);
    const from = Number(m[2]);
    const to = m[3] === undefined ? from : Number(m[3]);
    if (to < from || to - from > 31) return dayOfMonth(years(m[4]), month, from);
    return years(m[4]).flatMap((y) => (from >= 1 && to <= daysIn(y, month) ? [daySpan(y, month, from, to - from + 1)] : []));
  });
  // "14 February", "the 14th of February", "the 3rd of March"
  read(`${WORD_START}(?:the\\s+)?${DAY}\\s+(?:(of)\\s+)?${MONTH}${YEAR}${WORD_END}`, (m) => {
    if (!isMonth(m, 3, { prep: m[2] !== undefined, year: m[4] !== undefined })) return [];
    const month = monthOf(m[3] as string);
    return dayOfMonth(years(m[4]), month, Number(m[1]));
  });
  // "2025-03-05", "2025-03-05T14:22:00Z", "2025-03"; not inside a path or a file name (docs/2025-03.md).
  read(`(?<![\\w/.-])((?:19|20)\\d{2})-(\\d{2})(?:-(\\d{2}))?(?=t\\d|$|[^\\w/.-]|\\.(?!\\w))`, (m) => {
    const y = Number(m[1]);
    const month = Number(m[2]) - 1;
    if (month < 0 || month > 11) return [];
    if (m[3] === undefined) return [daySpan(y, month, 1, daysIn(y, month))];
    return dayOfMonth([y], month, Number(m[3]));
  });
  // "last March": that month, the latest one before this one.
  read(`${WORD_START}last\\s+${MONTH}${WORD_END}`, (m) => {
    if (!isMonth(m, 1, { march: true })) return [];
    const month = monthOf(m[1] as string);
    const y = month < now.getMonth() ? thisYear : thisYear - 1;
    return [daySpan(y, month, 1, daysIn(y, month))];
  });
  // "in March", "during May 2025", "March 2025", "the August release" (a bare month in title case).
  read(`${WORD_START}(?:(${PREPOSITION})\\s+)?${MONTH}${YEAR}${WORD_END}`, (m) => {
    const name = m[2] as string;
    const title = titleCase(m, 2);
    // With a preposition, any month but a code word's abbreviation (`of sep characters`) in lower
    // case; bare, a full name in title case that is no everyday word.
    const codeWord = AMBIGUOUS.has(name) && !FULL_NAMES.has(name);
    const ok = m[3] !== undefined || (m[1] !== undefined ? !codeWord || title : title && FULL_NAMES.has(name) && !AMBIGUOUS.has(name));
    if (!ok) return [];
    const month = monthOf(name);
    return years(m[3]).map((y) => daySpan(y, month, 1, daysIn(y, month)));
  });
  // "in 2025", not "in 2024.1" or "in 2024 rows"
  read(`${WORD_START}(?:in|during|since|of|throughout|from|after|before|until)\\s+((?:19|20)\\d{2})(?![\\w-]|\\.\\d)${COUNTED}`, (m) => [
    { start: new Date(Number(m[1]), 0, 1).getTime(), end: new Date(Number(m[1]) + 1, 0, 1).getTime() },
  ]);
  // "on the 14th": that day of this month and of the eleven before it (not "on the 2nd retry"); "the
  // weekend of the 14th" too.
  read(`(?:${WORD_START}on\\s+|(?<=weekend\\s+of\\s+))the\\s+(\\d{1,2})(?:st|nd|rd|th)${WORD_END}${COUNTED}`, (m) => {
    const date = Number(m[1]);
    const out: TimeSpan[] = [];
    for (let back = 0; back < 12; back++) {
      const first = new Date(thisYear, now.getMonth() - back, 1);
      if (date >= 1 && date <= daysIn(first.getFullYear(), first.getMonth())) out.push(daySpan(first.getFullYear(), first.getMonth(), date, 1));
    }
    return out;
  });

  // Relative to now. Not a method, a member, a path or a file (`date.today()`, `today.ts`, `monday.com`).
  const day = (back: number, days = 1) => ({ start: shiftDays(today, -back), end: shiftDays(today, -back + days) });
  const [from, to] = ['(?<![\\w.$/-])', '(?![\\w(/-]|\\.\\w)'];
  read(`${from}(?:the\\s+)?day\\s+before\\s+yesterday${to}`, () => [day(2)]);
  read(`${from}(?:yesterday|last\\s+night)${to}`, () => [day(1)]);
  read(`${from}(?:today|this\\s+(?:morning|afternoon|evening))${to}`, () => [day(0)]);
  // "About", "around", "roughly" are the phrase's, not words to search ("I bonk around km 70" led
  // "what were we doing with redis around a month ago"). Wider spans the further back (a week and a
  // half of a month, a month of four) moved questions both ways on two held-out sets, and lost one
  // in all: a week it is.
  read(
    `${from}(?:(?:about|around|roughly|approximately|approx\\.?|nearly|almost|maybe|some|circa)\\s+(?:a\\s+(?=(?:few|couple)\\b))?)?${COUNT}\\s+(?:of\\s+)?(day|week|month)s?\\s+ago${to}`,
    (m) => {
      const n = countOf(m[1] as string);
      // "three days ago" is rarely exact: the day before and after count too; a week or month ago, a week around it.
      if (m[2] === 'day') return [day(n + 1, 3)];
      const back = m[2] === 'week' ? 7 * n : 30 * n;
      return [day(back + 3, 7)];
    },
  );
  // "the past few days", "in the last two weeks", "over the past 3 days": up to today.
  read(`${from}(?:past|last)\\s+${COUNT}\\s+(day|week|month)s${to}`, (m) => {
    const n = countOf(m[1] as string);
    const days = n * (m[2] === 'day' ? 1 : m[2] === 'week' ? 7 : 30);
    return [day(days, days + 1)];
  });
  // "last weekend", "over the weekend", "this weekend": the latest Saturday and Sunday (this one on a weekend).
  // "The weekend before last": the one before the latest.
  read(`${from}the\\s+weekend\\s+before\\s+last${to}`, () => {
    const dow = today.getDay();
    return [day((dow === 6 ? 7 : dow === 0 ? 8 : dow + 1) + 7, 2)];
  });
  // "The weekend before my first day" is the one before an event, not the latest: no span ("last
  // weekend, after the party" and "this weekend before the wedding" name theirs).
  read(`${from}(last|this|the|over\\s+the)\\s+weekend${to}`, (m) => {
    if ((m[1] === 'the' || (m[1] as string).startsWith('over')) && /^\s+(?:right\s+|just\s+)?(?:before|after)\b/.test(lower.slice(m.index + m[0].length)))
      return [];
    const dow = today.getDay();
    const back = m[1] === 'last' ? (dow === 6 ? 7 : dow === 0 ? 8 : dow + 1) : dow === 6 ? 0 : dow === 0 ? 1 : dow + 1;
    return [day(back, 2)];
  });
  read(`${from}(last|this|past)\\s+(week|month|year)${to}`, (m) => {
    const unit = m[2] as string;
    if (m[1] === 'past') {
      const days = unit === 'week' ? 7 : unit === 'month' ? 30 : 365;
      return [day(days, days + 1)];
    }
    if (unit === 'week') {
      const monday = new Date(shiftDays(today, -((today.getDay() + 6) % 7)));
      return m[1] === 'this' ? [{ start: monday.getTime(), end: tomorrow }] : [{ start: shiftDays(monday, -7), end: monday.getTime() }];
    }
    if (unit === 'month') {
      const first = new Date(today.getFullYear(), today.getMonth(), 1);
      return m[1] === 'this'
        ? [{ start: first.getTime(), end: tomorrow }]
        : [{ start: new Date(today.getFullYear(), today.getMonth() - 1, 1).getTime(), end: first.getTime() }];
    }
    const jan1 = new Date(today.getFullYear(), 0, 1);
    return m[1] === 'this' ? [{ start: jan1.getTime(), end: tomorrow }] : [{ start: new Date(today.getFullYear() - 1, 0, 1).getTime(), end: jan1.getTime() }];
  });
  // "on Tuesday", "last Friday", "what did we do tuesday?": the latest such day before today ("last"
  // also skips today's weekday). A bare weekday only where a clause ends ("the monday cron" is none).
  read(`${from}(?:(?:on|last|this\\s+past|past)\\s+(${WEEKDAYS.join('|')})${to}|(${WEEKDAYS.join('|')})(?=\\s*(?:[?!,;]|\\.(?!\\w)|$)))`, (m) => {
    const want = WEEKDAYS.indexOf((m[1] ?? m[2]) as string);
    let back = (today.getDay() - want + 7) % 7;
    if (back === 0) back = 7;
    return [day(back)];
  });
  // "The other day": a day or so up to a week back. "A fortnight ago": the week around two weeks back.
  read(`${from}the\\s+other\\s+day${to}`, () => [day(7, 7)]);
  read(`${from}(?:a|one)\\s+fortnight\\s+ago${to}`, () => [day(17, 7)]);

  // Only the date right after "the weekend of" ("yesterday and the weekend of the 14th": not yesterday).
  const dateAt = weekendOf === null ? -1 : weekendOf.index + weekendOf[0].length;
  const spans = found.spans.map((s, i) => (found.from[i] === dateAt && s.end - s.start <= 25 * HOUR_MS ? weekendAround(new Date(s.start)) : s));
  const reading: TimeReading = { spans: merge(spans), rest: cut(text, found.taken) };
  if (relative !== undefined) reading.relative = relative.relative;
  return reading;
}

/** "(the) weekend of" before a date ("the weekend of the 14th", "weekend of March 3"). */
const WEEKEND_OF = new RegExp(
  `${WORD_START}(?:the\\s+)?weekend\\s+of\\s+(?=the\\s+\\d{1,2}(?:st|nd|rd|th)${WORD_END}|(?:the\\s+)?\\d{1,2}(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH}${WORD_END}|${MONTH}\\s+\\d)`,
);
const HOUR_MS = 3_600_000;

/**
 * The weekend a day belongs to: its Saturday and Sunday (a Monday to Thursday's, the one after), with
 * the Friday before and the Monday after, when a weekend's plans and its stories are told.
 */
function weekendAround(day: Date): TimeSpan {
  const dow = day.getDay();
  const toSaturday = dow === 0 ? -1 : 6 - dow;
  return { start: shiftDays(day, toSaturday - 1), end: shiftDays(day, toSaturday + 3) };
}

/** The text without these ranges (each becomes a space). */
export function cut(text: string, ranges: ReadonlyArray<[number, number]>): string {
  let rest = '';
  let last = 0;
  for (const [a, b] of [...ranges].sort((x, y) => x[0] - y[0])) {
    rest += `${text.slice(last, a)} `;
    last = b;
  }
  return rest + text.slice(last);
}

/** The work's scope a start may name: "the first week of the project". */
const OF_WORK = '\\s+of\\s+(?:the|this|our)\\s+(?:project|repo|codebase|app|work)';
/** Not a clause of its own after the time ("the first week I was in Lisbon", "the first month's rent"). */
const NO_CLAUSE = "(?![\\w'’-]|\\s+(?:of|at|in|on|after|since|back|with|as|i|we|you|he|she|they|it|my|our|your|his|her|their)\\b)";
/**
 * "In the first week of the project", "back near the start", "at the very beginning of the repo",
 * "in the early days", "when we first started": a time counted from the archive's first day, not
 * from today. A first week that belongs to something else is not the work's ("my first week at the
 * new job", "the first week of March", "the first week I was in Lisbon"); nor is a start without
 * "back" or "of the project" (a run's, a file's: "the error is near the start"), "early on" inside
 * a clause ("fail early on a bad header"), or "when we started the dev server".
 */
const START_OF_WORK = new RegExp(
  [
    `(?:(?:in|during|over|for)\\s+)?the\\s+(?:very\\s+)?first\\s+(days?|few days|couple of days|weeks?|couple of weeks|two weeks|few weeks|months?)(?:${OF_WORK}(?![\\w-])|${NO_CLAUSE})`,
    `back\\s+(?:at|near|from|in|towards?)\\s+the\\s+(?:very\\s+)?(start|beginning)(?:${OF_WORK})?(?![\\w-]|\\s+of\\b)`,
    `(?:(?:at|from|in|near|towards?)\\s+)?the\\s+(?:very\\s+)?(start|beginning)${OF_WORK}(?![\\w-])`,
    // "Early on" where its clause ends: "which logger did we pick early on?", "early on, …".
    '(?:early on(?=\\s*(?:[,.;?!]|$))|in the early days|when we first (?:started|began|kicked off))',
  ]
    .map((alt) => `(?<![\\w-])${alt}(?![\\w-])`)
    .join('|'),
);
const START_DAYS: Record<string, number> = {
  day: 1,
  days: 4,
  'few days': 4,
  'couple of days': 3,
  week: 7,
  weeks: 14,
  'couple of weeks': 14,
  'two weeks': 14,
  'few weeks': 21,
  month: 31,
  months: 62,
};
/** Days from the archive's first that "the start" or "early on" covers. */
const START_SPAN_DAYS = 14;

/**
 * A question's time counted from the start of the work ("what did we set up in the first week of
 * the project"): the phrase, and how many days from the first day it covers. search.ts dates the
 * first day by the archive. Undefined when the question names no such time.
 */
export function startOfWork(text: string): { at: [number, number]; days: number } | undefined {
  const m = START_OF_WORK.exec(text.toLowerCase());
  if (m === null) return undefined;
  const unit = m[1] ?? m[2] ?? m[3];
  return { at: [m.index, m.index + m[0].length], days: unit === undefined ? START_SPAN_DAYS : (START_DAYS[unit] ?? START_SPAN_DAYS) };
}

/**
 * Whether a question asks how things stand now ("where do I live now", "the current timeout", "what
 * do I eat these days"): a fact that changed was said twice, and the later saying answers it.
 */
export function asksForLatest(text: string): boolean {
  return LATEST.test(text.toLowerCase());
}
// Not in code: `Date.now()`, `current.ts`, `lodash@latest`, `state.current`.
const LATEST = /(?<![\w.$@-])(?:now|nowadays|currently|current|these days|at the moment|at present|any ?more|lately|latest|most recent|still)(?![\w(-]|\.\w)/;

/**
 * Whether a question asks how things first stood ("what was the timeout originally", "when did I
 * first mention the move", "what did we use before we switched"): a fact that changed was said
 * twice, and the earlier saying answers it. Not "used to" of a tool ("what is used to build it"),
 * only of a person; not "first" alone ("the first migration" is a thing, not a time).
 */
export function asksForEarliest(text: string): boolean {
  return EARLIEST.test(text.toLowerCase());
}
const EARLIEST = new RegExp(
  `(?<![\\w.$@-])(?:${[
    'originally|initially|at first|to begin with|previously|the original|the old',
    // Not "at the start of March": a span (timeSpans reads it).
    '(?:at the (?:very )?(?:start|beginning)|in the beginning)(?! of\\b)',
    '(?:the|my|our) (?:very )?first (?:time|conversation|chat|session|talk|mention)',
    '(?:i|we|you|they|he|she) used to|did (?:i|we|you|they) use to',
    '(?:i|we|you) first (?:mention(?:ed)?|bring up|brought up|talk(?:ed)?|tell|told|say|said|ask(?:ed)?|start(?:ed)?|try|tried|set|hear(?:d)?|meet|met|get|got|decide(?:d)?|choose|chose|pick(?:ed)?)',
    'first (?:mentioned|brought up|came up|come up)',
    'before (?:i|we|you) (?:changed|switched|updated|moved|bumped|raised|lowered|replaced|migrated)',
  ].join('|')})(?![\\w(-]|\\.\\w)`,
);

/**
 * Which saying of a changed fact a question asks for: the newest ("now", "currently"), the oldest
 * ("originally", "at first"), the newest more weakly (the present tense, no word of the past: "what
 * is the pool size"), or none (neither, or both ends: "what was it originally, and now?").
 */
export function askedOrder(text: string): 'latest' | 'earliest' | 'present' | undefined {
  const latest = asksForLatest(text);
  const earliest = asksForEarliest(text);
  if (latest !== earliest) return latest ? 'latest' : 'earliest';
  return !latest && PRESENT.test(text) && !PAST.test(text) ? 'present' : undefined;
}
const PRESENT = /^\s*(?:what|which|who|where|how(?: much| many| long| often| big| old)?)(?:'s|'re|\s+(?:is|are|do|does))\b/i;
const PAST = /(?<![\w'-])(?:did|was|were|had|used to|ago|last|yesterday|before|first|originally)(?![\w'-])/i;

/**
 * The spans in words, for a message: `2026-11-29`, `2026-03-01 to 2026-11-30`, `2026-11-29 or
 * 2026-11-24`; the latest three that have begun (a date without a year or a day of the month stands
 * for several), then how many more. Undefined when there are none.
 */
export function describeSpans(spans: readonly TimeSpan[], now: Date): string | undefined {
  if (spans.length === 0) return undefined;
  const begun = spans.filter((s) => s.start <= now.getTime()).sort((a, b) => b.start - a.start);
  const listed = begun.length > 0 ? begun : [...spans].sort((a, b) => a.start - b.start);
  const words = listed.slice(0, SPANS_SAID).map((span) => {
    const first = localDate(span.start);
    const last = localDate(span.end - 1);
    return first === last ? first : `${first} to ${last}`;
  });
  const more = listed.length - words.length;
  return `${words.join(' or ')}${more > 0 ? ` (and ${more} more)` : ''}`;
}
const SPANS_SAID = 3;

function localDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** Whether `t` (epoch ms) lies in one of the spans. */
export function within(spans: readonly TimeSpan[], t: number): boolean {
  for (const s of spans) if (t >= s.start && t < s.end) return true;
  return false;
}

/**
 * Run one pattern over the text, skipping what an earlier one read. A date after "since", "from" or
 * "after" runs on to today (from its latest occurrence); after "before", "until" or "by" it is no span
 * (what came before is most of an archive).
 */
function each(
  text: string,
  source: string,
  found: Found,
  spansOf: (m: RegExpExecArray) => TimeSpan[],
  today: number,
  tomorrow: number,
  closed: boolean,
  kept: number | undefined,
): void {
  const re = new RegExp(source, 'gd');
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const from = m.index;
    const to = from + m[0].length;
    if (found.read.some(([a, b]) => from < b && to > a)) continue;
    let spans = spansOf(m);
    if (spans.length === 0) continue;
    found.read.push([from, to]);
    const keep = kept === undefined ? undefined : m.indices?.[kept];
    if (keep === undefined) found.taken.push([from, to]);
    else found.taken.push([from, keep[0]], [keep[1], to]);
    const lead =
      /^(since|from|after|before|until|till|by)\s/.exec(m[0])?.[1] ??
      /(?:^|\s)(since|from|after|before|until|till|by)\s+(?:the\s+)?$/.exec(text.slice(Math.max(0, from - 12), from))?.[1];
    if (lead === 'before' || lead === 'until' || lead === 'till' || lead === 'by') continue;
    // "From Christmas to New Year": each end is read by itself, and neither runs on to today.
    if (lead !== undefined && !closed && !/^\s*(?:[-–]|to\s|until\s|till\s|through\s|thru\s)/.test(text.slice(to))) {
      const start = Math.max(...spans.map((s) => (s.start <= today ? s.start : Number.NEGATIVE_INFINITY)));
      spans = Number.isFinite(start) ? [{ start, end: tomorrow }] : [];
    }
    found.spans.push(...spans);
    found.from.push(...spans.map(() => from));
  }
}

/** What may come before a season's or a holiday's name for it to be a time ("for Christmas", "in the winter"). */
const SEASON_PREPOSITION = '(?:in|on|at|during|over|through|throughout|for|around|since|after|before|until|till|by|from|of|near)';
/** Nouns that make a season or a holiday a name of something else ("winter mode", "Easter egg", "Christmas tree shaking"). */
const NOT_A_TIME_NOUN =
  '(?!\\s+(?:boot|framework|security|data|cloud|mvc|batch|integration|beans?|webflux|context|application|app|jpa|shell|kafka|session|back|through|over|mode|theme|config|configuration|profile|controller|component|class|module|service|release|build|version|branch|sprint|eggs?|tree[\\s-]+shak\\w*)\\b)';

/** Seasons by their first and last month (northern, meteorological); winter ends in the next year's February. */
const SEASONS: Record<string, [number, number]> = { spring: [2, 4], summer: [5, 7], autumn: [8, 10], fall: [8, 10], winter: [11, 13] };

const HOLIDAY =
  "christmas\\s+eve|christmas(?:\\s+day)?|xmas|new\\s+year['’]?s\\s+eve|new\\s+year['’]?s(?:\\s+day)?|new\\s+year|valentine['’]?s(?:\\s+day)?|halloween|thanksgiving|easter";

/** A holiday's days in a year, by its name as HOLIDAY matched it (Christmas: the 24th to the 26th). */
function holidayIn(name: string): ((y: number) => TimeSpan) | undefined {
  const days = (month: number, date: number, n: number) => (y: number) => daySpan(y, month, date, n);
  const key = name.replace(/['’]/g, '').replace(/\s+/g, ' ');
  if (key === 'christmas eve') return days(11, 24, 1);
  if (key === 'christmas day') return days(11, 25, 1);
  if (key === 'christmas' || key === 'xmas') return days(11, 24, 3);
  if (key === 'new years eve') return days(11, 31, 1);
  if (key === 'new years day') return days(0, 1, 1);
  // "New Year" of a year: its eve and its first day.
  if (key.startsWith('new year')) return (y) => daySpan(y - 1, 11, 31, 2);
  if (key.startsWith('valentine')) return days(1, 14, 1);
  if (key === 'halloween') return days(9, 31, 1);
  // The fourth Thursday of November (US) and its long weekend.
  if (key === 'thanksgiving') return (y) => daySpan(y, 10, 1 + ((4 - new Date(y, 10, 1).getDay() + 7) % 7) + 21, 4);
  // Good Friday to Easter Monday.
  if (key === 'easter')
    return (y) => {
      const [month, date] = easterSunday(y);
      return daySpan(y, month, date - 2, 4);
    };
  return undefined;
}

/** Easter Sunday of a Gregorian year, [month (0-based), date] (the anonymous Gregorian computus). */
function easterSunday(y: number): [number, number] {
  const a = y % 19;
  const b = Math.floor(y / 100);
  const c = y % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const date = ((h + l - 7 * m + 114) % 31) + 1;
  return [month - 1, date];
}

/** What joins the two ends of a range: a dash, or to, until, through, and ("and" after "between" only). */
const RANGE_LINK = '(?:\\s*[-–]\\s*|\\s+(?:to|until|till|through|thru|and)\\s+)';
/** Longest range, in days: a year. */
const MAX_RANGE_DAYS = 366;

/**
 * Day `fromDay` of `fromMonth` to day `toDay` of `toMonth`, both included, ending in each of the years
 * (a range that crosses New Year starts the year before, unless `fromYear` says). None when a day is
 * no day of its month, or the range is backwards or longer than a year.
 */
function closedRange(years: readonly number[], fromMonth: number, fromDay: number, toMonth: number, toDay: number, fromYear?: number): TimeSpan[] {
  return years.flatMap((y) => {
    const startYear = fromYear ?? (toMonth < fromMonth || (toMonth === fromMonth && toDay < fromDay) ? y - 1 : y);
    if (fromDay < 1 || fromDay > daysIn(startYear, fromMonth) || toDay < 1 || toDay > daysIn(y, toMonth)) return [];
    const start = new Date(startYear, fromMonth, fromDay).getTime();
    const end = new Date(y, toMonth, toDay + 1).getTime();
    // By the calendar, so a clock change inside the range does not count.
    const longest = new Date(startYear, fromMonth, fromDay + MAX_RANGE_DAYS).getTime();
    return end <= start || end > longest ? [] : [{ start, end }];
  });
}

function monthOf(name: string): number {
  return MONTHS.indexOf(name.slice(0, 3));
}

/** Days `from`–`to` of a month (a part or a week of it), in each year, cut at the month's end. */
function monthPart(years: readonly number[], month: number, [from, to]: [number, number]): TimeSpan[] {
  return years.map((y) => daySpan(y, month, from, Math.min(to, daysIn(y, month)) - from + 1));
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
