import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asksForEarliest, asksForLatest, describeSpans, readTime, startOfWork, type TimeSpan, timeSpans, within } from '../../lib/recall/when.ts';
import { recallIds, recallSandbox, recallText } from './helpers/recall-sandbox.ts';
import { useTempDirs } from './helpers/tmp.ts';

const tempDir = useTempDirs('ctxl-when-');
// Local time throughout, as the module reads a question: these hold in any time zone.
const now = new Date(2026, 10, 30, 15, 0); // Monday 30 November 2026, 15:00
const day = (y: number, m: number, d: number, days = 1): TimeSpan => ({ start: new Date(y, m, d).getTime(), end: new Date(y, m, d + days).getTime() });
const spans = (q: string) => timeSpans(q, now);
/** The spans of a question in one year (a date without a year stands for it in each of ten). */
const inYear = (q: string, y: number) => spans(q).filter((s) => new Date(s.start).getFullYear() === y);

describe('timeSpans', () => {
  it('reads a month and day in the usual English forms, in each of the last ten years when no year is given', () => {
    for (const q of ['where did I eat on February 14th?', 'feb 14', 'Feb. 14', 'the 14th of February', '14 feb']) {
      expect(inYear(q, 2025), q).toEqual([day(2025, 1, 14)]);
      expect(spans(q), q).toHaveLength(11);
    }
    expect(spans('on February 14, 2025')).toEqual([day(2025, 1, 14)]);
    expect(spans('what changed on 2025-03-05')).toEqual([day(2025, 2, 5)]);
    // No such day: the month is what it names.
    expect(inYear('February 30th', 2025)).toEqual([day(2025, 1, 1, 28)]);
  });

  it('reads parts of a month: early, mid, late, the end, a week of it', () => {
    expect(inYear('what did we decide in mid April', 2025)).toEqual([day(2025, 3, 10, 11)]);
    expect(inYear('mid-April', 2025)).toEqual([day(2025, 3, 10, 11)]);
    expect(inYear('early March', 2025)).toEqual([day(2025, 2, 1, 10)]);
    expect(inYear('in late September', 2025)).toEqual([day(2025, 8, 20, 11)]);
    expect(inYear('at the end of February', 2024)).toEqual([day(2024, 1, 24, 6)]); // 2024 is a leap year
    expect(inYear('in the first week of March', 2025)).toEqual([day(2025, 2, 1, 7)]);
    expect(inYear('the last week of march', 2025)).toEqual([day(2025, 2, 24, 8)]);
    // An ordinal without "week" is a day.
    expect(inYear('the 3rd of March', 2025)).toEqual([day(2025, 2, 3)]);
    expect(inYear('the 4th of July deploy', 2025)).toEqual([day(2025, 6, 4)]);
    expect(inYear('March 3-5', 2025)).toEqual([day(2025, 2, 3, 3)]);
  });

  it('reads a whole month, but not May or March as everyday words', () => {
    expect(spans('in March 2025')).toEqual([day(2025, 2, 1, 31)]);
    expect(inYear('what did I buy in June', 2025)).toEqual([day(2025, 5, 1, 30)]);
    expect(inYear('during may', 2025)).toEqual([day(2025, 4, 1, 31)]);
    expect(spans('Last March')).toEqual([day(2026, 2, 1, 31)]);
    expect(spans('what did we ship last march')).toEqual([day(2026, 2, 1, 31)]);
    expect(inYear('march 14', 2025)).toEqual([day(2025, 2, 14)]);
    expect(inYear('Sep 3', 2025)).toEqual([day(2025, 8, 3)]);
    expect(spans('in 2025')).toEqual([day(2025, 0, 1, 365)]);
    expect(inYear('the August release', 2025)).toEqual([day(2025, 7, 1, 31)]);
  });

  it('reads no date in the everyday uses of may, march, sep, dec and oct, in paths or in calls', () => {
    for (const q of [
      'may I rename the timeout flag',
      'march the migration forward',
      'the jan config',
      'the first call succeeds but the second may fail',
      'the first may be null',
      'the last may be empty',
      'running too late may drop events',
      'why node 18 may not support fetch',
      'port 22 may be blocked',
      'the 1st may be undefined',
      'split by sep in the csv parser',
      'join the list of sep characters',
      'convert dec 12 to hex',
      'the number of dec places',
      'parse the oct 7 permissions',
      'what did we name the august module',
      'open docs/2025-03.md',
      'logs/2025-03-05/app.log had the stack trace',
      'the release/2025-03 branch',
      'read 2025-03-notes.md',
      'why does date.today() return UTC',
      'the monday cron',
      'sunday build',
      'today.ts',
      'the friday.ts file',
      'monday.com integration',
      'fails on the 2nd retry',
      'on the 3rd call the cache misses',
      'in 2024.1',
      'in 2024 rows',
      'SPLIT ON SEP',
      'ROUND TO DEC 2 PLACES',
    ])
      expect(spans(q), q).toEqual([]);
    expect(spans('what failed at 2025-03-05T14:22:00Z')).toEqual([day(2025, 2, 5)]);
  });

  it('reads days relative to now', () => {
    expect(spans('what broke yesterday')).toEqual([day(2026, 10, 29)]);
    expect(spans('the day before yesterday')).toEqual([day(2026, 10, 28)]);
    expect(spans('what did we do this morning')).toEqual([day(2026, 10, 30)]);
    expect(spans('three days ago')).toEqual([day(2026, 10, 26, 3)]);
    expect(spans('a week ago')).toEqual([day(2026, 10, 20, 7)]);
    expect(spans('what did we change last week')).toEqual([day(2026, 10, 23, 7)]);
    expect(spans('this week')).toEqual([day(2026, 10, 30)]);
    expect(spans('last month')).toEqual([day(2026, 9, 1, 31)]);
    expect(spans('last tuesday')).toEqual([day(2026, 10, 24)]);
    // Today is a Monday: "on Monday" is a week ago, not today.
    expect(spans('on monday')).toEqual([day(2026, 10, 23)]);
    expect(spans('what did we do tuesday')).toEqual([day(2026, 10, 24)]);
    expect(spans('a couple of days ago')).toEqual([day(2026, 10, 27, 3)]);
    // "About", "around", "roughly" belong to the phrase, not to what is searched.
    expect(spans('around a month ago')).toEqual(spans('a month ago'));
    expect(readTime('what were we doing with redis around a month ago', now).rest.trim()).toBe('what were we doing with redis');
    expect(readTime('roughly two weeks ago what broke', now).rest.trim()).toBe('what broke');
    expect(spans('over the last weekend')).toEqual([day(2026, 10, 28, 2)]);
    // The weekend before or after an event is not the latest one.
    expect(spans('what was I cramming the weekend before my first day at the new job?')).toEqual([]);
    expect(spans('what did I draft the weekend after my birthday')).toEqual([]);
    expect(spans('what did I draft over the weekend, after the party')).toEqual([day(2026, 10, 28, 2)]);
    // "Last" and "this" name the weekend whatever follows; "the weekend before last" is the one before it.
    expect(spans('what did I cook last weekend after the party')).toEqual([day(2026, 10, 28, 2)]);
    expect(spans('what did we eat this weekend before the wedding')).toEqual([day(2026, 10, 28, 2)]);
    expect(spans('the weekend before last')).toEqual([day(2026, 10, 21, 2)]);
    expect(spans('the past few days')).toEqual([day(2026, 10, 27, 4)]);
    expect(spans('in the last two weeks')).toEqual([day(2026, 10, 16, 15)]);
    expect(spans('where did we eat on the 14th')).toContainEqual(day(2026, 10, 14));
    expect(spans('where did we eat on the 14th')).toContainEqual(day(2026, 0, 14));
  });

  it('reads "the weekend of" a date as its weekend, with the Friday before and the Monday after', () => {
    // 14 February 2026 is a Saturday: Friday the 13th to Monday the 16th.
    expect(inYear('where did we spend the weekend of February 14th?', 2026)).toEqual([day(2026, 1, 13, 4)]);
    expect(readTime('where did we spend the weekend of February 14th?', now).rest).not.toMatch(/weekend/);
    // A Sunday's weekend is the one it ends; a Tuesday's the one after it.
    expect(inYear('the weekend of March 15', 2026)).toEqual([day(2026, 2, 13, 4)]);
    expect(inYear('the weekend of March 3', 2026)).toEqual([day(2026, 2, 6, 4)]);
    expect(spans('what did we do the weekend of the 7th')).toContainEqual(day(2026, 10, 6, 4));
    // Not a date after it: "the weekend" is the latest, as before.
    expect(spans('the weekend of fun we had')).toEqual([day(2026, 10, 28, 2)]);
    // Only its own date is widened: yesterday stays a day.
    expect(spans('what did I do yesterday and the weekend of the 14th')).toContainEqual(day(2026, 10, 29));
  });

  it('runs a date after since, from or after on to today, and reads none after before or until', () => {
    expect(spans('what changed since March')).toEqual([{ start: new Date(2026, 2, 1).getTime(), end: new Date(2026, 11, 1).getTime() }]);
    expect(spans('what changed since 2024')).toEqual([{ start: new Date(2024, 0, 1).getTime(), end: new Date(2026, 11, 1).getTime() }]);
    expect(spans('what did we have before May 3')).toEqual([]);
    expect(spans('until February 14th')).toEqual([]);
  });

  it('reads a range of days or months as one span, closed at both ends', () => {
    for (const q of [
      'what did I do from March 20 to 23',
      'March 20-23',
      'the trip from Friday 20th to Monday 23rd March',
      'from the 20th to the 23rd of March',
      '20 to 23 March',
    ])
      expect(inYear(q, 2025), q).toEqual([day(2025, 2, 20, 4)]);
    expect(inYear('between March 3 and March 9', 2025)).toEqual([day(2025, 2, 3, 7)]);
    expect(inYear('between the 3rd and the 9th of March', 2025)).toEqual([day(2025, 2, 3, 7)]);
    expect(inYear('March 28 – April 3', 2025)).toEqual([day(2025, 2, 28, 7)]);
    expect(spans('from March 28 to April 3, 2025')).toEqual([day(2025, 2, 28, 7)]);
    // Across New Year: it starts the year before the one it ends in.
    expect(inYear('December 28 to January 3', 2024)).toEqual([day(2024, 11, 28, 7)]);
    expect(spans('from January to March 2025')).toEqual([day(2025, 0, 1, 31 + 28 + 31)]);
    expect(spans('between Feb and April 2025')).toEqual([day(2025, 1, 1, 28 + 31 + 30)]);
    expect(inYear('from January to March', 2024)).toEqual([day(2024, 0, 1, 31 + 29 + 31)]);
    // A year on each end, or on the first only; ISO dates.
    expect(spans('from December 28, 2024 to January 3, 2025')).toEqual([day(2024, 11, 28, 7)]);
    expect(spans('from December 28, 2024 to January 3')).toEqual([day(2024, 11, 28, 7)]);
    expect(spans('from Mar 3 2025 to Apr 3 2025')).toEqual([day(2025, 2, 3, 32)]);
    expect(spans('from 2025-03-20 to 2025-03-23')).toEqual([day(2025, 2, 20, 4)]);
    // Backwards: no range, but each end is its day (and neither runs on to today).
    expect(spans('from March 20, 2025 to March 3, 2025')).toEqual([day(2025, 2, 3), day(2025, 2, 20)]);
    expect(spans('from 2025-03-23 to 2025-03-20')).toEqual([day(2025, 2, 20), day(2025, 2, 23)]);
    // Before or until a range is no span, as before a day; "from X to Y" where each end is read
    // alone does not run on to today.
    expect(spans('before March 20 to 23')).toEqual([]);
    expect(spans('until March 20-23')).toEqual([]);
    expect(spans('from Christmas 2024 to New Year 2025')).toEqual([day(2024, 11, 24, 3), day(2024, 11, 31, 2)]);
    // "and" without "between" is two days; a month said once is no backward range.
    expect(inYear('on March 3 and 9', 2025)).toEqual([day(2025, 2, 3), day(2025, 2, 9)]);
    expect(inYear('from March 3 to May 9', 2025)).toEqual([day(2025, 2, 3, 68)]);
    expect(inYear('March 20 to 3', 2025)).toEqual([day(2025, 2, 20)]);
    // Counts and code stay counts: no month is read.
    for (const q of ['retries went from 2 to 3 may break the build', 'from 3 to 5 march steps', 'jan to mar columns']) expect(spans(q), q).toEqual([]);
  });

  it('reads seasons and holidays, and leaves their names words of the question', () => {
    // In November, last summer is this year's: the latest that has ended.
    expect(spans('where did we go last summer')).toEqual([day(2026, 5, 1, 30 + 31 + 31)]);
    expect(spans('the summer of 2024')).toEqual([day(2024, 5, 1, 30 + 31 + 31)]);
    expect(spans('in the spring of 2025')).toEqual([day(2025, 2, 1, 31 + 30 + 31)]);
    expect(spans('this past winter')).toEqual([day(2025, 11, 1, 31 + 31 + 28)]);
    expect(inYear('what did I do in the summer', 2024)).toEqual([day(2024, 5, 1, 30 + 31 + 31)]);
    expect(spans('in the summer')).toHaveLength(11);
    expect(spans('last Christmas')).toEqual([day(2025, 11, 24, 3)]);
    expect(spans('on Christmas Eve 2024')).toEqual([day(2024, 11, 24)]);
    expect(spans("on New Year's Eve 2024")).toEqual([day(2024, 11, 31)]);
    expect(inYear('on Valentine’s Day', 2025)).toEqual([day(2025, 1, 14)]);
    expect(spans('this Thanksgiving')).toEqual([day(2026, 10, 26, 4)]); // the fourth Thursday
    expect(spans('easter 2025')).toEqual([day(2025, 3, 18, 4)]); // Good Friday to Easter Monday
    expect(spans('a fortnight ago')).toEqual([day(2026, 10, 13, 7)]);
    expect(spans('the other day')).toEqual([day(2026, 10, 23, 7)]);
    expect(readTime('what did I get my sister for Christmas', now).rest).toContain('Christmas');
    const rest = readTime('where did we go last summer', now).rest;
    expect(rest).toContain('summer');
    expect(rest).not.toContain('last');
    // "This winter" asked in March is the one just ended; "this spring" in November this year's.
    expect(timeSpans('this winter', new Date(2026, 2, 5))).toEqual([day(2025, 11, 1, 31 + 31 + 28)]);
    expect(timeSpans('this winter', now)).toEqual([day(2026, 11, 1, 31 + 31 + 28)]);
    expect(timeSpans('this spring', now)).toEqual([day(2026, 2, 1, 31 + 30 + 31)]);
    expect(timeSpans('this  past winter', now)).toEqual([day(2025, 11, 1, 31 + 31 + 28)]);
    // In January, last Christmas is the one just gone; on Christmas Eve, last year's.
    expect(timeSpans('last Christmas', new Date(2027, 0, 10))).toEqual([day(2026, 11, 24, 3)]);
    expect(timeSpans('last Christmas', new Date(2026, 11, 24, 12))).toEqual([day(2025, 11, 24, 3)]);
    expect(inYear('on valentines', 2025)).toEqual([day(2025, 1, 14)]);
    // A bare name is no time: "Christmas dinner" is said of one, not on it.
    expect(spans('the Christmas dinner menu')).toEqual([]);
    expect(readTime('on christmas.ts', now).rest).toContain('christmas.ts');
    // Seasons and holidays as words of code.
    for (const q of [
      'Easter egg in the footer',
      'Christmas tree shaking in the bundler',
      'on christmas.ts',
      'in summer.ts',
      'new Year(2025)',
      'the halloween theme in the css',
      'in winter mode',
      'in the spring config',
    ])
      expect(spans(q), q).toEqual([]);
    // Spring and fall as words of code.
    for (const q of ['in Spring Boot', 'in spring we autowire beans', 'the tests fall back to polling', 'spring cleaning of the repo', 'summer is a variable'])
      expect(spans(q), q).toEqual([]);
  });

  it('says in words how it read a date', () => {
    expect(describeSpans(spans('yesterday'), now)).toBe('2026-11-29');
    expect(describeSpans(spans('in the first week of March 2025'), now)).toBe('2025-03-01 to 2025-03-07');
    expect(describeSpans(spans('on February 14th'), now)).toBe('2026-02-14 or 2025-02-14 or 2024-02-14 (and 8 more)');
    expect(describeSpans(spans('on the 14th'), now)).toBe('2026-11-14 or 2026-10-14 or 2026-09-14 (and 9 more)');
    expect(describeSpans(spans('yesterday or last Tuesday'), now)).toBe('2026-11-29 or 2026-11-24');
    expect(describeSpans(spans('on February 14th 2025 or March 3rd 2025'), now)).toBe('2025-03-03 or 2025-02-14');
    expect(describeSpans(spans('why does the retry loop time out'), now)).toBeUndefined();
  });

  it('names nothing for a question without a date, and merges overlapping spans', () => {
    for (const q of ['why does the retry loop time out', 'bump to 2.7.3', 'the 14th test', 'port 5173', 'timeout 30s']) expect(spans(q), q).toEqual([]);
    expect(inYear('early March, around March 5th', 2025)).toEqual([day(2025, 2, 1, 10)]);
    const s = spans('yesterday');
    expect(within(s, new Date(2026, 10, 29, 23, 59).getTime())).toBe(true);
    expect(within(s, new Date(2026, 10, 30, 0, 0).getTime())).toBe(false);
  });
});

describe('ranking with a date in the question (ctxl recall)', () => {
  it('favours what was said on the day the question names, and brings in that day when its words miss', () => {
    const ids: Record<string, string> = {};
    // One line a day from 10 February 2025 (noon UTC).
    const home = tempDir();
    const order = recallSandbox(
      home,
      'ffff7777-0000-4000-8000-000000000007',
      (t) => {
        ids.feb10 = t.user('the staging deploy failed again, the health check timed out; the february invoice run is next');
        t.assistant('I raised the health check timeout to 20 seconds.');
        ids.feb12 = t.user('the staging deploy failed again, the health check timed out');
        t.assistant('The probe path was wrong; fixed it in the chart.');
        ids.feb14 = t.user("we're doing dinner at Gogi House tonight, the korean bbq place downtown");
        t.assistant('Have fun at Gogi House.');
        ids.feb16 = t.user('where can I eat lunch near the office');
      },
      { start: Date.parse('2025-02-09T12:00:00.000Z'), stepMs: 86_400_000 },
    );
    expect(order('why did the staging deploy fail on February 12th')[0]).toBe(ids.feb12);
    expect(order('why did the staging deploy fail on February 10th')[0]).toBe(ids.feb10);
    // "eat" is only in the 16th's line; the 14th's answer shares no word with the question.
    expect(order('where did I eat')).not.toContain(ids.feb14);
    expect(order('where did I eat on February 14th').slice(0, 3)).toContain(ids.feb14);
    // A question of date words only: that span's chunks, newest first, not another day's "february".
    expect(order('what happened on February 14th')).toEqual([ids.feb14]);
    expect(order('what did we talk about on February 13th or February 14th')).toEqual([ids.feb14, expect.any(String)]);
    // The user's words of the span first: the 14th's request before the 15th's answer.
    expect(order('what happened on February 14th or February 15th')[0]).toBe(ids.feb14);
    // Nothing said that day: the answer says how the date was read.
    expect(recallText(home, ['--', 'what happened on February 20th 2025'])).toMatch(/^No archived context from 2025-02-20 matches/);
    // What is left of a contraction frames the question too.
    expect(order("what's happened on February 14th")).toEqual([ids.feb14]);
    // "Building" frames it as "working on" does: the 12th's words of a build are not searched for.
    expect(order('what were we building on February 14th')).toEqual([ids.feb14]);
  });
});

describe('a time counted from the start of the work', () => {
  it('reads the first days, weeks or month of the project, and the start said as a time', () => {
    const days = (q: string) => startOfWork(q)?.days;
    expect(days('what did we set up in the first week of the project')).toBe(7);
    expect(days('what broke on the first day')).toBe(1);
    expect(days('which libraries did we add in the first couple of weeks')).toBe(14);
    expect(days('the first days of the project')).toBe(4);
    expect(days('which db did we pick early on?')).toBe(14);
    expect(days('near the start of the project')).toBe(14);
    expect(days('the first month of this repo')).toBe(31);
    expect(days('what did we decide about routing back near the start')).toBe(14);
    expect(days('at the very beginning of the project, which database')).toBe(14);
    expect(days('early on, which logger did we pick')).toBe(14);
    expect(days('when we first started, what was the plan')).toBe(14);
    // The phrase is what is cut from the question's words.
    const q = 'what did we set up in the first week of the project';
    const at = startOfWork(q)?.at as [number, number];
    expect(q.slice(...at)).toBe('in the first week of the project');
  });

  it("reads no start that is another thing's: a job's first week, a month's, a run's, a file's or a clause's", () => {
    for (const q of [
      'my first week at the new job',
      'the first week of March',
      'what was the start of the outage',
      'what went wrong at the start of the run',
      'the start of the function',
      'we should have used it from the start',
      'restart the beginning',
      // A clause of its own after the time, "early on" or a start inside a clause, a start of something else.
      'the first day I used the new laptop',
      'what did I cook the first week I was in Lisbon',
      "the first month's rent",
      'why do we return early on empty input',
      'should the parser fail early on a bad header',
      'what error did we get when we started the dev server',
      'the error is near the start, line 3',
    ])
      expect(startOfWork(q), q).toBeUndefined();
  });

  it('favours what was said in the first days the archive holds (ctxl recall)', () => {
    const ids: Record<string, string> = {};
    const home = tempDir();
    // One line a day for three weeks from 2 March 2026.
    const order = recallSandbox(
      home,
      'ffff7777-0000-4000-8000-000000000021',
      (t) => {
        ids.logger = t.user('set up structured logging with pino for the service');
        t.assistant('Pino is in, with JSON output.');
        for (let i = 0; i < 14; i++) {
          t.user(`day ${i}: renamed the helpers of module ${i}`);
          t.assistant('Done.');
        }
        // A closer match of the words, said later.
        ids.later = t.user('set up logging for the worker: the same logging set up as the service, logging to stdout');
      },
      { start: Date.parse('2026-03-02T12:00:00.000Z'), stepMs: 43_200_000 },
    );
    expect(order('what logging did we set up')[0]).toBe(ids.later);
    expect(order('what logging did we set up in the first week of the project')[0]).toBe(ids.logger);
  });
});

describe('a day of tool traffic', () => {
  it("brings in what the user said that day when the question's words miss it, however many tool calls the day holds", () => {
    const ids: Record<string, string> = {};
    const calls: string[] = [];
    const home = tempDir();
    // Ten minutes a line from 11 February 2025, 20:00 UTC: the 12th starts at the 25th line.
    const order = recallSandbox(
      home,
      'ffff7777-0000-4000-8000-00000000000c',
      (t) => {
        ids.other = t.user('the helm upgrade of the chart went through');
        for (let i = 0; i < 23; i++) t.assistant(`noted ${i}`);
        ids.request = t.user("let's move the service to Python 3.13, the image and CI too");
        // 45 calls, a chunk each: more in the day than join without a word.
        for (let i = 0; i < 45; i++) calls.push(t.tool('Bash', { command: `ls dir${i}` }, `file${i}.txt`)[0]);
      },
      { start: Date.parse('2025-02-11T20:00:00.000Z'), stepMs: 600_000 },
    );
    const found = order('what did we upgrade on February 12th');
    expect(found.slice(0, 5)).toContain(ids.request);
    // The day's tool calls, which match no word, stay out.
    expect(found.filter((id) => calls.includes(id as string))).toEqual([]);
  });
});

describe('the tool calls of a span', () => {
  it("rank below what was said in it: the request and its answer say what the day's work was", () => {
    const ids: Record<string, string> = {};
    const home = tempDir();
    // Ten minutes a line from 12 February 2025, 09:00 UTC.
    const order = recallSandbox(
      home,
      'ffff7777-0000-4000-8000-00000000000d',
      (t) => {
        t.user('morning, the invoice totals are off by a cent again');
        ids.ask = t.user('the nightly export job crashed again, can you find out why');
        const log = 'export job crashed: out of memory\nexport job restarted\nexport job crashed: out of memory\nexport job crashed: out of memory';
        [ids.log] = t.tool('Bash', { command: 'journalctl -u export --since today' }, log) as [string, string];
        t.assistant('It ran out of memory on the biggest tenant; I capped each batch at 500 rows.');
      },
      { start: Date.parse('2025-02-12T09:00:00.000Z'), stepMs: 600_000 },
    );
    // The log says the question's words most: without a date it leads.
    expect(order('why did the export job crash').slice(0, 2)).toEqual([ids.log, ids.ask]);
    expect(order('why did the export job crash on February 12th').slice(0, 2)).toEqual([ids.ask, ids.log]);
  });
});

describe("a span's requests and what came of them", () => {
  it('lists the requests that say something before "ok bye", and pulls in the reply to each', () => {
    const ids: Record<string, string> = {};
    const home = tempDir();
    // Ten minutes a line from 12 February 2025, 09:00 UTC.
    const order = recallSandbox(
      home,
      'ffff7777-0000-4000-8000-00000000000e',
      (t) => {
        ids.ask = t.user('all the api pods went unready for five minutes this morning, customers saw errors');
        t.tool('Bash', { command: 'kubectl get events --field-selector reason=Unhealthy' }, 'Readiness probe failed: HTTP probe failed with statuscode: 503');
        ids.reply = t.assistant('The readiness check also waited on the maps service, which restarted for an update; I took it out of the check.');
        t.user('good');
        t.assistant('Anything else?');
        ids.bye = t.user('ok bye');
      },
      { start: Date.parse('2025-02-12T09:00:00.000Z'), stepMs: 600_000 },
    );
    // No word of the question is in the day: its chunks join by their time alone.
    const found = order('what caused the outage on February 12th');
    expect(found.slice(0, 2)).toEqual([ids.ask, ids.reply]);
    expect(found.indexOf(ids.bye)).toBeGreaterThan(found.indexOf(ids.reply));
  });

  it('pulls in no reply for "what did I tell you": the user\'s words are the answer', () => {
    const ids: Record<string, string> = {};
    const home = tempDir();
    const order = recallSandbox(
      home,
      'ffff7777-0000-4000-8000-00000000000f',
      (t) => {
        ids.limp = t.user('the dog came back limping, the dog has to rest for two weeks');
        ids.reply = t.assistant('Poor thing. A snuffle mat keeps her busy while she rests.');
        ids.sleep = t.user('the dog slept the whole afternoon after the park');
      },
      { start: Date.parse('2025-02-12T09:00:00.000Z'), stepMs: 600_000 },
    );
    expect(order('what did I tell you about the dog on February 12th').slice(0, 2)).toEqual([ids.limp, ids.sleep]);
    // Asked what happened, the reply to the leading request comes before the weaker telling.
    expect(order('what happened with the dog on February 12th').slice(0, 2)).toEqual([ids.limp, ids.reply]);
  });
});

describe('a span against the same words said another time', () => {
  it('ranks what was said in the span above a closer match of the words from another month', () => {
    const ids: Record<string, string> = {};
    const home = tempDir();
    // One line a day from 11 February 2025 (noon UTC); the later vet visit a month on.
    const order = recallSandbox(
      home,
      'ffff7777-0000-4000-8000-000000000009',
      (t) => {
        t.user('new harness for the dog, the old one chafes');
        t.user('weekend plans: the lake if it stays dry');
        ids.span = t.user('took Biscuit to the vet for the limp: a soft tissue strain');
        t.assistant('Rest and short leash walks are the usual advice for a strain.');
        for (let i = 0; i < 26; i++) t.user(`day ${i}: nothing new`);
        ids.later = t.user('the vet visit went fine, the vet says the limp is gone');
      },
      { start: Date.parse('2025-02-10T12:00:00.000Z'), stepMs: 86_400_000 },
    );
    // Without the date the later line leads: the question's words, more of them, more often. It
    // scores 1.6 times the span's line, which a span's boost of 1.5 did not overcome.
    expect(order('what did the vet say about the limp')[0]).toBe(ids.later);
    expect(order('what did the vet say about the limp on February 13th')[0]).toBe(ids.span);
  });
});

describe('a time relative to an event', () => {
  it('reads how far before or after which event, and leaves the question its words', () => {
    const read = (q: string) => readTime(q, now);
    expect(read('what was I drafting the weekend after my birthday?')).toMatchObject({ spans: [], relative: { event: 'my birthday', from: 0, to: 10 } });
    expect(read('a few days before I flew out with my sister I told you something was hurting — where was it?').relative).toEqual({
      event: 'i flew out with my sister',
      from: -4,
      to: 1,
    });
    expect(read('what bugged me in the week after it was finished?').relative).toEqual({ event: 'it was finished', from: 0, to: 9 });
    expect(read('the day before I left for my big trip in April, what was I deciding?').relative).toEqual({
      event: 'i left for my big trip in april',
      from: -2,
      to: 1,
    });
    expect(read('what did we change right after the outage').relative).toEqual({ event: 'the outage', from: 0, to: 4 });
    expect(read('two weeks after the launch what broke').relative).toEqual({ event: 'the launch', from: 0, to: 16 });
    // Not an event: a time of its own, a pronoun alone, or no unit.
    expect(read('the day before yesterday').relative).toBeUndefined();
    expect(read('what did I do the day after that?').relative).toBeUndefined();
    expect(read('run the tests after the build').relative).toBeUndefined();
    expect(read('what did we decide before lunch').relative).toBeUndefined();
  });

  it('reads the time of an event itself: "the day I turned 34", "the week we moved"', () => {
    const read = (q: string) => readTime(q, now);
    expect(read('what was I working on the day I turned 34?')).toMatchObject({ spans: [], relative: { event: 'i turned 34', from: -1, to: 2, around: true } });
    expect(read('what did we fix the week we moved').relative).toEqual({ event: 'we moved', from: -4, to: 5, around: true });
    expect(read('that weekend we went to Porto, where did we eat?').relative).toEqual({ event: 'we went to porto', from: -2, to: 4, around: true });
    // A subject alone is no event; before or after still reads as before.
    expect(read("what's the day I should pick").relative).toBeUndefined();
    // "Need" is no past, though it ends in -ed.
    expect(read('what should I pack the day I need to leave').relative).toBeUndefined();
    // Two spaces in the event: the rest of the question is kept.
    expect(read('what was I reading the day I  turned 34?').rest).toMatch(/^what was I reading\s+I\s+turned 34\?$/);
    expect(read('what did I cook the night my sister arrived').relative).toEqual({ event: 'my sister arrived', from: -1, to: 2, around: true });
    expect(read('the day before I flew out').relative).toEqual({ event: 'i flew out', from: -2, to: 1 });
  });

  it('lists what was said nearest the event for a question of its time alone (ctxl recall)', () => {
    const ids: Record<string, string> = {};
    // One line every six hours from 20 April 2025, noon UTC.
    const order = recallSandbox(
      tempDir(),
      'ffff7777-0000-4000-8000-000000000018',
      (t) => {
        for (let i = 0; i < 6; i++) t.user(`working on the export job, step ${i}: the working copy is clean`);
        ids.birthday = t.user("it's my birthday today, 34! but first: raise the partner rate limit to 300 per minute");
        t.assistant('Happy birthday! Raised the partner limit to 300 per minute.');
        for (let i = 0; i < 6; i++) t.user(`back to the invoices table, part ${i}`);
        for (let i = 0; i < 6; i++) t.user(`working on the billing report, working draft ${i}`);
      },
      { start: Date.parse('2025-04-20T12:00:00.000Z'), stepMs: 6 * 3_600_000 },
    );
    expect(order('what was I working on the day I turned 34?')[0]).toBe(ids.birthday);
  });

  it('dates the event by where it was spoken of (a day it names, "tomorrow") and favours what was said in the span', () => {
    const ids: Record<string, string> = {};
    const home = tempDir();
    // One line a day from 9 February 2025 (noon UTC).
    const order = recallSandbox(
      home,
      'ffff7777-0000-4000-8000-000000000017',
      (t) => {
        ids.letter = t.user('drafting a cover letter');
        t.assistant('Good luck with it.');
        ids.toast = t.user("how do I write a toast for a friend's birthday");
        t.assistant('Keep it short and warm.');
        ids.birthday = t.user("it's my birthday tomorrow, dinner with friends on Saturday");
        t.assistant('Happy birthday!');
        t.user('what is a good stretch for tight hips');
        t.assistant('Try the pigeon pose.');
        t.user('how long do I boil an egg');
        ids.speech = t.user("drafting Kavya's maid of honour speech today, with the story of the logging road");
        t.assistant('Lovely story to open with.');
      },
      { start: Date.parse('2025-02-09T12:00:00.000Z'), stepMs: 86_400_000 },
    );
    expect(order('what was I drafting the weekend after my birthday?')[0]).toBe(ids.speech);
    expect(order('what was I drafting the week before my birthday?')[0]).toBe(ids.letter);
  });
});

describe('a question about how things stand now', () => {
  it('is told by its words', () => {
    for (const q of [
      'where do I live now',
      'what is the current timeout',
      'what do I eat these days',
      'which client do we use at the moment',
      'is the flag still on',
      'the latest port',
    ])
      expect(asksForLatest(q), q).toBe(true);
    for (const q of [
      'why did the retry loop time out',
      'currentUser is undefined',
      'the knowledge base',
      'snow day',
      'Date.now() returns',
      'current.ts',
      'npm install lodash@latest',
    ])
      expect(asksForLatest(q), q).toBe(false);
  });

  it('ranks the later of two sayings of a fact first (ctxl recall)', () => {
    let before = '';
    let after = '';
    const order = recallSandbox(
      tempDir(),
      'ffff8888-0000-4000-8000-000000000008',
      (t) => {
        before = t.user('set the redis pool size to 20 connections for the export job');
        for (let i = 0; i < 6; i++) t.assistant(`Note ${i}: the dashboard heartbeat stays at 20 seconds, and the report job runs nightly.`);
        after = t.user('change of plan after the load test on staging last night: the redis pool size is 50 from today');
      },
      { start: Date.parse('2025-02-09T12:00:00.000Z'), stepMs: 3_600_000 },
    );
    expect(order('redis pool size')[0]).toBe(before);
    expect(order('what is the redis pool size now')[0]).toBe(after);
    expect(order('what was the redis pool size originally')[0]).toBe(before);

    // Both ends asked: neither saying is favoured by its age.
    expect(order('what was the redis pool size originally and what is it now').slice(0, 2).sort()).toEqual([before, after].sort());
  });

  it('leans to the later saying for a question in the present tense, when the sayings are days apart', () => {
    let before = '';
    let after = '';
    const order = recallSandbox(
      tempDir(),
      'ffff8888-0000-4000-8000-00000000000b',
      (t) => {
        before = t.user('the redis pool size is 20 connections for the export job');
        for (let i = 0; i < 6; i++) t.assistant(`Note ${i}: the dashboard heartbeat stays at 20 seconds, and the report job runs nightly.`);
        after = t.user('the redis pool size is 50 connections for the export job from today');
      },
      { start: Date.parse('2025-02-09T12:00:00.000Z'), stepMs: 86_400_000 },
    );
    expect(order('redis pool size')[0]).toBe(before);
    expect(order('what is the redis pool size')[0]).toBe(after);
    // A word of the past asks no such thing.
    expect(order('what was the redis pool size')[0]).toBe(before);
  });

  it('ranks the later saying first among many older weak matches, whatever the limit', () => {
    let earlier = '';
    let later = '';
    const home = tempDir();
    const order = recallSandbox(
      home,
      'ffff8888-0000-4000-8000-00000000000a',
      (t) => {
        for (let i = 0; i < 40; i++) t.assistant(`Note ${i}: the thread pool of the image resizer is unchanged.`);
        earlier = t.assistant('Worker pool size: 20 workers.');
        later = t.assistant('The pool size is 50 from today, set in worker config.');
      },
      { start: Date.parse('2025-02-01T12:00:00.000Z'), stepMs: 3_600_000 },
    );
    expect(order('worker pool size')[0]).toBe(earlier);
    expect(order('worker pool size now')[0]).toBe(later);
    for (const limit of ['1', '2', '50']) expect(recallIds(home, ['--limit', limit, '--', 'worker', 'pool', 'size', 'now'])[0], limit).toBe(later);
    // Chunk files gone from the re-ranked head: the candidates after it fill in, as without "now".
    const refs = (
      JSON.parse(recallText(home, ['--json', '--limit', '40', '--', 'worker', 'pool', 'size'])) as { results: Array<{ ref: string; sessionId: string }> }
    ).results;
    for (const r of refs.slice(0, 30)) rmSync(join(home, 'data', 'sessions', r.sessionId, 'archived', `${r.ref}.md`));
    expect(recallIds(home, ['--limit', '1', '--', 'worker', 'pool', 'size'])).toHaveLength(1);
    expect(recallIds(home, ['--limit', '1', '--', 'worker', 'pool', 'size', 'now'])).toHaveLength(1);
  });
});

describe('a question about how things first stood', () => {
  it('is told by its words', () => {
    for (const q of [
      'what was the timeout originally',
      'which library did we pick at first',
      'when did I first mention the move',
      'what did we talk about in our very first conversation',
      'where did I used to work',
      'what was the port before we changed it',
      'the original plan for the launch',
    ])
      expect(asksForEarliest(q), q).toBe(true);
    for (const q of [
      'what is used to build the image',
      'the first migration',
      'what did we do at the start of March',
      'in the beginning of April',
      'how old is my dog',
      'the older branch',
      'what is the timeout now',
    ])
      expect(asksForEarliest(q), q).toBe(false);
  });
});

describe('a question in the first person (ctxl recall)', () => {
  it("ranks the user's own words over the assistant's restatement of them", () => {
    let said = '';
    let restated = '';
    const order = recallSandbox(tempDir(), 'ffff9999-0000-4000-8000-000000000009', (t) => {
      said = t.user('so my sister Ana moved to Porto last spring, and she teaches piano at a music school there now');
      restated = t.assistant('Your sister teaches piano in Porto, a lovely city for it.');
      for (let i = 0; i < 6; i++) t.assistant(`Note ${i}: the dashboard heartbeat stays at 20 seconds, and the report job runs nightly.`);
    });
    expect(order('where does the sister teach piano')[0]).toBe(restated);
    expect(order('where does my sister teach piano')[0]).toBe(said);
    expect(order("where I'm told the sister teaches piano")[0]).toBe(said);
  });
});
