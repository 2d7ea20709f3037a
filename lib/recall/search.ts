// Search L2: bring the index up to date, rank with BM25 over one corpus (so scores from different
// sessions compare), filter on the index's columns, and read chunk files only for the results
// (snippet, title, uuids). Query terms match exactly, by prefix (5+ characters) and within one edit
// (7+ characters), with minisearch's weights for the last two.
import { readChunk } from '../archive/archive-store.ts';
import type { Chunk } from '../archive/chunk-file.ts';
import { toolHeadOf } from '../archive/chunker.ts';
import { isSurface, tokenize } from '../archive/keywords.ts';
import { type IndexView, openIndex } from '../index/manifest.ts';
import { refreshIndex } from '../index/refresh.ts';
import {
  type BucketHead,
  bucketOf,
  fieldDfsOf,
  findTerm,
  IndexCorruptError,
  kindOrdinal,
  lowerBound,
  phaseOrdinal,
  type SegmentReader,
} from '../index/segment.ts';
import type { Logger } from '../runtime/log.ts';
import type { Store } from '../runtime/store.ts';
import { askedRelations, namesOf } from './aliases.ts';
import { ASKS_ASSISTANT, asksAdvice, intentTerms, typedApostrophes } from './intent.ts';
import { type Query, searchText } from './query.ts';
import { DERIVED_WEIGHT, derivedStems, relatedTerms } from './related.ts';
import { askedOrder, cut, type RelativeTime, readTime, relativeTime, startOfWork, type TimeReading, type TimeSpan, timeSpans, within } from './when.ts';

export interface RecallResult {
  ref: string;
  score: number;
  sessionId: string;
  phase: string;
  type: string;
  timestamp: string;
  sourceUuids: string[];
  title: string;
  snippet: string;
  tool?: string;
  files: string[];
  /** Said or done in a subagent (a sidechain), not in the main conversation. */
  subagent?: true;
}

export interface SearchScope {
  store: Store;
  log: Logger;
  now: Date;
  /** Project root to search; undefined searches every project. */
  projectRoot: string | undefined;
  limit: number;
  /** Epoch ms by which the index refresh must stop (a hook's deadline). */
  deadline?: number;
}

// BM25+ as minisearch computes it, per field, summed with these boosts: text, keywords, files.
// Keywords and file paths are terms the text already holds (the tool line names the path): at full
// weight they counted twice and lifted short tool chunks over the answer (dev set: 1/1/1.5 gave
// recall@10 55.7%, 1/0.5/0.5 gives 62.0%). Half weight keeps them a tie-breaker.
const BOOST = [1, 0.5, 0.5] as const;
const K1 = 1.2;
/**
 * Length normalisation. 0.85 rather than 0.7: a long answer of the assistant's that touches a
 * question's common words ("days", "buy", "car") outranked the short message that states the fact.
 * Over four question sets (329 questions) recall@10 went 238 → 244 and recall@5 206 → 204; MRR rose
 * on three, the fourth unchanged.
 */
const B = 0.85;
const D = 0.5;
const PREFIX_WEIGHT = 0.375;
const FUZZY_WEIGHT = 0.45;
const PREFIX_MIN = 5;
/**
 * A question's own word as it was said (SURFACE_MARK), beside its stem: a bonus for the chunks that
 * say it so ("running" shoes, where run is in every `npm run`). Over four question sets (329
 * questions): 19 ranked higher and 8 lower; the LongMemEval-style set's recall@5 0.45 → 0.50. At
 * 0.2–0.3 the chat sets gained a little more, but questions on real coding sessions lost: a long
 * output that repeats a question's plain words ("file", "page", "change") outranked its answer.
 * Added as a term of its own; taken as one more form of the word (the best form counts) it did worse.
 */
const SURFACE_WEIGHT = 0.15;
const FUZZY_MIN = 7;
const PHRASE_BOOST = 1.5;
/**
 * Longer terms a query term may stand for by prefix (the closest ones). Each form's postings are
 * read and scored ("timeout" stood for 51 forms at 10,000 chunks). 32 left the dev set's figures as
 * they were and took ~8 ms off such a query, but changed half of the top 10 on the bench's big
 * archives, which have no answers to judge by: kept at 64.
 */
const MAX_PREFIX_FORMS = 64;

/** Bring the index up to date (a hook passes its deadline and leaves big merges for later). */
export async function refreshForSearch(scope: Pick<SearchScope, 'store' | 'log' | 'deadline'>, repair?: readonly string[]): Promise<void> {
  const limits =
    scope.deadline === undefined ? {} : { deadline: scope.deadline, maxMergeDocs: 20_000, waitMs: Math.max(0, Math.min(5_000, scope.deadline - Date.now())) };
  try {
    await refreshIndex(scope.store, scope.log, { ...limits, ...(repair === undefined ? {} : { repair }) });
  } catch (error) {
    // The search still answers from the index as it is; the next refresh tries again.
    scope.log.warn(`search index refresh failed: ${(error as Error).message}`);
  }
}

export async function search(query: Query, scope: SearchScope): Promise<RecallResult[]> {
  await refreshForSearch(scope);
  for (let attempt = 0; ; attempt++) {
    const view = openIndex(scope.store, scope.log);
    let damaged = view.damaged;
    try {
      if (damaged.length === 0 || attempt > 0) return rank(view, query, scope);
    } catch (error) {
      // A segment that opened but does not decode (damaged on disk). Anything else is a bug.
      if (!(error instanceof IndexCorruptError) || attempt > 0) throw error;
      damaged = view.segments.map((s) => s.reader.name);
      scope.log.warn(`search index: ${error.message}`);
    } finally {
      view.close();
    }
    // Rebuild from the chunk files (unless another process did already) and search again, once.
    // The rebuild stops at a hook's deadline; the next search goes on from there.
    await refreshForSearch(scope, damaged);
  }
}

/**
 * A query's terms, each once with how often it was said (up to MAX_REPEAT), the first
 * MAX_QUERY_TERMS of them: scored once per saying, 6,000 times "alpha" took a /recall hook 23 s,
 * past its timeout; and a pasted page of code is no keyword search. Its surface terms, as many at
 * most (a word's forms, "tests testing tested", each have one).
 */
function distinctTerms(text: string): { terms: string[]; raws: string[]; counts: number[]; surfaces: Array<{ term: string; of: string; count: number }> } {
  const allRaws: string[] = [];
  const all = tokenize(text, allRaws, true);
  const terms: string[] = [];
  const raws: string[] = [];
  const counts: number[] = [];
  const index = new Map<string, number>();
  // A surface term follows its word's stem, and goes with it: said as often, framed as it is.
  const surfaces = new Map<string, { term: string; of: string; count: number }>();
  let last: string | undefined;
  for (let i = 0; i < all.length; i++) {
    const term = all[i] as string;
    if (isSurface(term)) {
      if (last === undefined || !index.has(last)) continue;
      const s = surfaces.get(term);
      if (s !== undefined) s.count = Math.min(MAX_REPEAT, s.count + 1);
      else if (surfaces.size < MAX_QUERY_TERMS) surfaces.set(term, { term, of: last, count: 1 });
      continue;
    }
    last = term;
    const at = index.get(term);
    if (at !== undefined) counts[at] = Math.min(MAX_REPEAT, (counts[at] as number) + 1);
    else if (terms.length < MAX_QUERY_TERMS) {
      index.set(term, terms.length);
      terms.push(term);
      raws.push(allRaws[i] ?? term);
      counts.push(1);
    } else last = undefined;
  }
  return { terms, raws, counts, surfaces: [...surfaces.values()] };
}
/** Distinct terms of a query that are searched. */
const MAX_QUERY_TERMS = 64;
/** A word said more often than this counts no more. */
const MAX_REPEAT = 3;

interface Candidate {
  segment: number;
  doc: number;
  score: number;
  time: number;
}

function rank(
  view: IndexView,
  query: Query,
  scope: SearchScope,
  nested = false,
  given?: { spans: TimeSpan[]; event: ReadonlySet<string>; anchor: number | undefined },
): RecallResult[] {
  const text = searchText(query);
  if (!nested) {
    // "What was I drafting the weekend after my birthday": the event's words date the span (the
    // dates they name are the event's: "my trip in April"), then the question's own words are
    // searched in it; the event's words would find the event, not what came of it.
    const relative = relativeTime(text);
    const found = relative === undefined ? undefined : eventSpans(view, query, scope, relative.relative, cut(text, [relative.at]));
    if (relative !== undefined && found !== undefined) {
      const words = cut(text, [relative.at])
        .split(/\s+/)
        .filter((w) => w !== '');
      // A span around the event ("the day I turned 34") lists what was said nearest it first.
      const anchor = relative.relative.around === true ? found.anchor : undefined;
      return rank(view, { ...query, words }, scope, true, { spans: found.spans, event: new Set(tokenize(relative.relative.event)), anchor });
    }
  }
  const masks = view.segments.map((s) => docMask(s.reader, s.deleted, query, scope.projectRoot));
  const asked = distinctTerms(text);
  const aboutAssistant = asked.terms.length > 0 && ASKS_ASSISTANT.test(text);
  // What the user's own words count: a question about the user (1: not one; see FIRST_PERSON_BOOST).
  const userWords = aboutAssistant ? 1 : FIRST_PERSON.test(text) ? FIRST_PERSON_BOOST : FIRST_PERSON_PLURAL.test(text) ? PLURAL_BOOST : 1;
  // More than `limit`: the head is re-ranked (phrases, dates, "now", the first person), and a result
  // whose chunk file is gone is skipped. The head has a size of its own, so a ranking does not
  // depend on how many results were asked for.
  const headSize = Math.max(RERANK_HEAD, scope.limit * 3);
  const want = headSize + 10;
  // Chunk files read once per query: feedback and results read the leading ones both.
  const read = new Map<string, Chunk | undefined>();
  const chunkAt = (c: Candidate): Chunk | undefined => {
    const key = `${c.segment}:${c.doc}`;
    if (!read.has(key)) read.set(key, chunkOf(view, c, scope));
    return read.get(key);
  };
  let candidates: Candidate[];
  // The candidates past the first `want`, for a list that copies of one tool call left short (fill).
  let deeper: ((n: number) => Candidate[]) | undefined;
  // Names the question's relations go by (aliasTerms): words of the snippet too.
  let aliases: QueryTerm[] = [];
  const when =
    given !== undefined
      ? { spans: given.spans, rest: text }
      : asked.terms.length === 0
        ? { spans: [], rest: text }
        : fromStart(view, masks, text, readTime(text, scope.now));
  // The event's words found the span; in it they count for less (the event's own saying is not what came of it).
  const eventShare = (term: string) => (given?.event.has(term) === true ? EVENT_WORD_WEIGHT : 1);
  const spans = when.spans;
  // A question of a date and words that only frame it ("what happened on February 14th"): the span
  // is all it asks (its date words would find "the february invoice" of another day). So is one of
  // an event's time and such words ("what was I working on the day I turned 34"): the event's words
  // found the span.
  const dateOnly = spans.length > 0 && tokenize(when.rest).every((t) => framesOnly(t) || given?.event.has(t) === true);
  // The words that said when are the span's now, not words to find: "two weeks ago" found "two
  // weekends ago" said any time, "last month" every "last month's rent". (A season's or a holiday's
  // name stays in the rest: "last Christmas" may be what was said.)
  const { terms, raws, counts, surfaces } = given === undefined && spans.length > 0 && !dateOnly ? distinctTerms(when.rest) : asked;
  if (dateOnly) {
    candidates = spanCandidates(view, spans, masks, want, given?.anchor);
    deeper = (n) => spanCandidates(view, spans, masks, n, given?.anchor);
  } else if (terms.length === 0) {
    // Filters only: newest first.
    candidates = top(
      view.segments.map((s, i) => {
        const mask = masks[i];
        const docs: number[] = [];
        for (let d = 0; d < s.reader.docs; d++) if (mask === undefined || mask[d] === 1) docs.push(d);
        return { docs, key: s.reader.time() };
      }),
      want,
      view,
      true,
    );
  } else {
    // Words the answer to this kind of question tends to hold, at a low weight, matched exactly.
    // The words that only frame the question ("pick", "allowed") count for less.
    const { added, framing } = intentTerms(text, terms);
    // And the words a question may use for what its answer calls otherwise (boss: manager).
    const intentWords = new Set(added.map((a) => a.term));
    // A word the archive never holds ("unreliable" of "flaky", "bouldering" of "climbing"): its
    // related words are all the question has for it, so they count nearly as much as it would.
    // The held words silenced in place, not left out: a two-word name is only of adjacent words.
    const held = new Set(terms.filter((t) => framing.has(t) || holds(view, t)));
    const absent = new Set(held.size === terms.length ? [] : relatedTerms(terms, held).map((r) => r.term));
    const related = relatedTerms(terms, new Set(framing.keys()))
      .filter((r) => !intentWords.has(r.term))
      .map((r) => (absent.has(r.term) ? { ...r, weight: Math.max(r.weight, STAND_IN_WEIGHT) } : r));
    // And a word's noun of action or its verb (migration: migrating), those the archive holds.
    const listed = new Set([...terms, ...intentWords, ...related.map((r) => r.term)]);
    const derived = terms
      .filter((t) => !framing.has(t))
      .flatMap(derivedStems)
      .filter((t) => !listed.has(t) && holds(view, t))
      .map((term) => ({ term, weight: DERIVED_WEIGHT }));
    // A word the archive never holds that is two words it does ("hostname" where a config says
    // host, "timestamp", "filesystem"): its parts stand in for it.
    const compound = [
      ...new Set(
        terms.flatMap((t, i) => (held.has(t) ? [] : compoundParts(view, raws[i] ?? t))).filter((t) => !listed.has(t) && !derived.some((d) => d.term === t)),
      ),
    ].map((term) => ({ term, weight: COMPOUND_WEIGHT }));
    const wanted: QueryTerm[] = [
      ...terms.map((term, i) => ({ term, raw: raws[i] ?? term, weight: (framing.get(term) ?? 1) * (counts[i] ?? 1) * eventShare(term), exact: false })),
      ...[...added, ...related, ...derived, ...compound].map(({ term, weight }) => ({ term, raw: term, weight, exact: true })),
      ...surfaces.map(({ term, of, count }) => ({ term, raw: term, weight: SURFACE_WEIGHT * (framing.get(of) ?? 1) * count * eventShare(of), exact: true })),
    ];
    // The names the archive gives a relation the question names ("my partner": Leo).
    // Where the name was given may lie outside the question's filters (since:, file:): the user's
    // chunks of the project.
    const userMasks = () => view.segments.map((s) => docMask(s.reader, s.deleted, { words: [], phrases: [], type: 'user' }, scope.projectRoot));
    aliases = aliasTerms(view, text, userMasks, chunkAt, new Set(wanted.map((w) => w.term)));
    wanted.push(...aliases);
    const acc = newScores(view);
    score(view, wanted, masks, acc);
    if (spans.length > 0) favourSpans(view, spans, masks, acc);
    candidates = best(view, acc, want);
    const feedback = feedbackTerms(view, candidates, chunkAt, new Set(wanted.map((w) => w.term)));
    if (feedback.length > 0) {
      score(view, feedback, masks, acc, false);
      candidates = best(view, acc, want);
    }
    // A span's requests say what the day's work was; the reply to each says what came of it
    // ("what caused the outage a few days ago": the diagnosis after "api down this morning").
    // Not "what did I tell you about the dog then": the user's own words. Held-out set 13 (read):
    // four questions up (out of the ten to 4, 7 → 2, 7 → 6, 10 → 7), none down; set 14 (blind):
    // one up, two down; the dev set one from 10 to out. At 0.7 of the request's score instead of
    // REPLY_SHARE, set 13 lost two of the four and set 14 moved the same.
    if (aboutAssistant || (spans.length > 0 && !USER_TOLD.test(text))) {
      pullReplies(view, aboutAssistant ? candidates : candidates.filter((c) => within(spans, c.time)), masks, acc);
      candidates = best(view, acc, want);
    }
    if (userWords !== 1 && !SECOND_PERSON.test(text)) {
      pullTellers(view, candidates, masks, acc, (segment, doc) => chunkAt({ segment, doc, score: 0, time: 0 }));
      candidates = best(view, acc, want);
    }
    deeper = (n) => best(view, acc, n);
  }
  const needles = [...query.phrases.map((p) => p.toLowerCase()), ...terms, ...aliases.map((a) => a.term)];
  const pick = picker(scope.limit, (chunk, score) => toResult(chunk, score, needles));
  const asks: HeadAsks = {
    phrases: query.phrases,
    spans,
    order: terms.length > 0 ? askedOrder(text) : undefined,
    // "what did you suggest I do": about the assistant's words, though the user says "I".
    assistant: aboutAssistant,
    firstPerson: terms.length > 0 ? userWords : 1,
    advice: terms.length > 0 && asksAdvice(text),
  };
  if (asks.phrases.length > 0 || asks.spans.length > 0 || asks.order !== undefined || asks.firstPerson !== 1 || asks.assistant || asks.advice) {
    const head = rerank(
      candidates.slice(0, headSize).map((c) => ({ c, chunk: chunkAt(c) })),
      asks,
    );
    for (const { c, chunk } of head) if (pick.take(chunk, c.score)) return pick.results();
    // Chunk files gone from the head: the candidates after it fill in.
    for (const c of candidates.slice(headSize)) if (pick.take(chunkAt(c), c.score)) return pick.results();
    return fill(pick, candidates, deeper, chunkAt);
  }
  for (const c of candidates) if (pick.take(chunkAt(c), c.score)) return pick.results();
  return fill(pick, candidates, deeper, chunkAt);
}

/**
 * A time counted from the start of the work ("what did we set up in the first week of the
 * project", "back near the start"), where the question names no date: the span from the first
 * day the archive holds in the question's scope. Held-out set 13 (read): one question from out of
 * the ten to 7.
 */
function fromStart(view: IndexView, masks: ReadonlyArray<Uint8Array | undefined>, text: string, reading: TimeReading): TimeReading {
  if (reading.spans.length > 0 || reading.relative !== undefined) return reading;
  const start = startOfWork(text);
  if (start === undefined) return reading;
  let first = Number.POSITIVE_INFINITY;
  view.segments.forEach((s, i) => {
    const mask = masks[i];
    const time = s.reader.time();
    for (let d = 0; d < time.length; d++) {
      const t = time[d] as number;
      if (t > 0 && t < first && (mask === undefined || mask[d] === 1)) first = t;
    }
  });
  if (!Number.isFinite(first)) return reading;
  // From the start of that day, in local time, as a date's span is.
  const day = new Date(first);
  const from = new Date(day.getFullYear(), day.getMonth(), day.getDate()).getTime();
  const to = new Date(day.getFullYear(), day.getMonth(), day.getDate() + start.days).getTime();
  return { spans: [{ start: from, end: to }], rest: cut(text, [start.at]) };
}

/**
 * Chunks read past the first pool, at most. A tool call run in every session (`docker compose ps`,
 * `git status`) can fill the whole pool with copies that all hold the asked word: the picker sets
 * them aside, and the results the question wants come from further down. Each of these holds a
 * word of the question or of its intent or related words (feedback scores only what they found),
 * however low its score: a word every copy holds has next to no weight.
 */
const DEEP_READS = 240;

/** The list, filled from candidates past the pool where copies of one call left it short. */
function fill(
  pick: Picker,
  pool: readonly Candidate[],
  deeper: ((n: number) => Candidate[]) | undefined,
  chunkAt: (c: Candidate) => Chunk | undefined,
): RecallResult[] {
  if (deeper === undefined || !pick.setAside()) return pick.results();
  const key = (c: Candidate) => `${c.segment}:${c.doc}`;
  const seen = new Set(pool.map(key));
  // Ties are all kept (top), so the pool may hold more than asked: past it, by count.
  let reads = 0;
  for (const c of deeper(pool.length + DEEP_READS)) {
    if (seen.has(key(c))) continue;
    if (reads >= DEEP_READS) break;
    reads += 1;
    if (pick.take(chunkAt(c), c.score)) break;
  }
  return pick.results();
}

/** The user's sayings of a relation read for the names it goes by, and the names kept of them. */
const ALIAS_DOCS = 20;
const ALIAS_NAMES = 2;
/** A name's weight: it stands for the relation as a word the archive lacks does (STAND_IN_WEIGHT). */
const ALIAS_WEIGHT = 0.8;

/**
 * Query terms for the names the user gave a relation the question names: "what subject does my
 * partner teach" of "Leo teaches chemistry", said after "my partner Leo". The user's chunks that
 * best match the relation's words are read for "my partner Leo", "Leo, my partner" and the like.
 */
function aliasTerms(
  view: IndexView,
  question: string,
  userMasks: () => ReadonlyArray<Uint8Array | undefined>,
  chunkAt: (c: Candidate) => Chunk | undefined,
  have: Set<string>,
): QueryTerm[] {
  const out: QueryTerm[] = [];
  // Built only for a question that names a relation: a pass over every doc.
  let masks: ReadonlyArray<Uint8Array | undefined> | undefined;
  for (const group of askedRelations(question)) {
    const terms = [...new Set(group.flatMap((word) => tokenize(word)))].filter((t) => holds(view, t));
    if (terms.length === 0) continue;
    masks ??= userMasks();
    const acc = newScores(view);
    score(
      view,
      terms.map((term) => ({ term, raw: term, weight: 1, exact: true })),
      masks,
      acc,
    );
    // best() keeps ties past its count; a fork's copies tie, and would count a name twice.
    const texts = [
      ...new Set(
        best(view, acc, ALIAS_DOCS)
          .slice(0, ALIAS_DOCS)
          .flatMap((c) => chunkAt(c)?.text ?? []),
      ),
    ];
    for (const name of namesOf(group, texts, ALIAS_NAMES)) {
      for (const term of tokenize(name)) {
        if (have.has(term)) continue;
        have.add(term);
        out.push({ term, raw: term, weight: ALIAS_WEIGHT, exact: true });
      }
    }
  }
  return out;
}

/** Characters of a tool chunk's head that tell two calls apart. */
const HEAD_KEY_CHARS = 2_000;

/** Copies of one tool call (same tool, same head) a result list shows before the others. */
const MAX_SAME_CALL = 2;

/**
 * The result list, filled in rank order. A saying seen already is left out (distinctSayings). A tool
 * call run in many sessions (`git log`, `npm test`) ranks its copies together, each holding the
 * same words: past the second call with the same head (tool, command or input, description), a
 * copy gives its place to the next other result and comes after them. The parts of one call's long
 * output are one call.
 */
type Picker = ReturnType<typeof picker>;

function picker(limit: number, result: (chunk: Chunk, score: number) => RecallResult) {
  const firstSaying = distinctSayings();
  const out: RecallResult[] = [];
  const later: RecallResult[] = [];
  const calls = new Map<string, string[]>();
  const copyIndex = (chunk: Chunk): number => {
    if (chunk.type !== 'tool') return 0;
    const key = `${chunk.tool ?? ''}\n${toolHeadOf(chunk, HEAD_KEY_CHARS)}`;
    const ids = calls.get(key) ?? [];
    calls.set(key, ids);
    const id = chunk.toolUseId ?? chunk.id;
    const at = ids.indexOf(id);
    if (at !== -1) return at;
    ids.push(id);
    return ids.length - 1;
  };
  return {
    /** Offer the next chunk; true once the list is full. */
    take(chunk: Chunk | undefined, score: number): boolean {
      if (chunk !== undefined && firstSaying(chunk)) (copyIndex(chunk) < MAX_SAME_CALL ? out : later).push(result(chunk, score));
      return out.length >= limit;
    },
    /** The list is short, and copies wait to fill it. */
    setAside(): boolean {
      return out.length < limit && later.length > 0;
    },
    results(): RecallResult[] {
      return [...out, ...later].slice(0, limit);
    },
  };
}

/**
 * A filter that passes a chunk the first time its entries and text are seen. A forked or resumed
 * session (`--fork-session`, `/branch`) starts with a copy of the entries before it, same uuids
 * under another session id: the same saying twice in a result list is a wasted place.
 */
function distinctSayings(): (chunk: Chunk) => boolean {
  const seen = new Set<string>();
  return (chunk) => {
    if (chunk.sourceUuids.length === 0) return true;
    const key = `${chunk.type}\n${chunk.part?.join('/') ?? ''}\n${chunk.sourceUuids.join(' ')}\n${chunk.text.length}\n${chunk.text.slice(0, 200)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  };
}

// Pseudo-relevance feedback: the words that best mark the leading results of a first pass join the
// query at a low weight, and reorder what the query matched. A question asked in other words than
// its answer often still ranks a neighbour of it first (the tool call before, the summary after),
// whose words the answer shares. The first pass's top FEEDBACK_DOCS chunks vote for their terms by
// frequency, weighted by their score; of the FEEDBACK_POOL terms with most votes, the
// FEEDBACK_TERMS with the most votes times IDF join, if at least two chunks of the archive hold
// them (a term of one chunk only finds that chunk again). They add to the scores of docs the first
// pass scored and bring in no other, so every result still holds a word of the query or of its
// intent and related words (letting them add docs changed nothing on the dev set). Dev set, when
// it came: recall@1 34.2% → 38.0%, @10 67.1% → 70.9%, MRR 0.449 → 0.491, @5 unchanged at 62.0%;
// 5–6 docs, 12–16 terms, weights 0.2–0.3 gave @10 69.6–70.9% as well. Its cost is the pool's
// bucket heads and a second pass: 10K chunks +40 ms, 100K +70 ms (bench:archive).
const FEEDBACK_DOCS = 5;
const FEEDBACK_POOL = 20;
const FEEDBACK_TERMS = 12;
const FEEDBACK_WEIGHT = 0.25;
/** Characters of a feedback chunk read for its terms (a long tool output's head stands for it). */
const FEEDBACK_CHARS = 2_000;

/** The feedback terms for a first pass's leading candidates (none when nothing scored). */
function feedbackTerms(view: IndexView, leading: readonly Candidate[], chunkAt: (c: Candidate) => Chunk | undefined, asked: ReadonlySet<string>): QueryTerm[] {
  const best = leading[0]?.score ?? 0;
  if (best <= 0) return [];
  const votes = new Map<string, number>();
  for (const c of leading.slice(0, FEEDBACK_DOCS)) {
    const chunk = chunkAt(c);
    if (chunk === undefined) continue;
    const terms = tokenize(chunk.text.slice(0, FEEDBACK_CHARS));
    const tf = new Map<string, number>();
    for (let i = 0; i < terms.length; i++) {
      const t = terms[i] as string;
      tf.set(t, (tf.get(t) ?? 0) + 1);
    }
    const share = c.score / best / Math.max(1, terms.length);
    for (const [t, f] of tf) {
      // Numbers and short pieces mark one chunk, not a topic.
      if (asked.has(t) || t.length < 3 || (t.charCodeAt(0) >= 48 && t.charCodeAt(0) <= 57)) continue;
      votes.set(t, (votes.get(t) ?? 0) + f * share);
    }
  }
  const pre = [...votes].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, FEEDBACK_POOL);
  const n = docCount(view);
  const ranked: Array<[string, number]> = [];
  for (const [t, vote] of pre) {
    let df = 0;
    for (const s of view.segments) {
      const head = s.reader.bucket(bucketOf(t));
      const at = head === undefined ? -1 : findTerm(head.terms, t);
      if (head !== undefined && at >= 0) df += head.fieldDfs[at * 3] as number;
    }
    if (df >= 2) ranked.push([t, vote * idfOf(n, df)]);
  }
  ranked.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  const picked = ranked.slice(0, FEEDBACK_TERMS);
  const top1 = picked[0]?.[1] ?? 1;
  return picked.map(([term, w]) => ({ term, raw: term, weight: (FEEDBACK_WEIGHT * w) / top1, exact: true }));
}

// A question that says when ("on February 14th", "in the first week of March", "yesterday"): what
// was said then counts SPAN_BOOST times, and when the span holds few chunks (a day or two of a
// session), those that match no word of the question join at SPAN_FLOOR of the best score (above
// weak matches, below strong ones); when no word matched at all, they join at score 1. Such a
// question's words often miss its answer ("where did I eat on the 14th" of "dinner at Gogi House")
// where its date does not. A span prefers; `since:` filters. A question of a date alone lists the
// span's chunks (spanCandidates). At 1.5 a span lost to the same words said in another month ("what
// did the vet conclude three weeks ago" found every vet visit). On the dev set and two blind held-out
// sets 2.5, 3 and 4 all gained and none lost a question; 3 and 4 equally @10 (2.5 a question less).
// What the user said in the span joins at twice SPAN_FLOOR; in a span of a week or two that holds
// more chunks than SPAN_FILL_MAX but few of the user's (a day of tool traffic), it joins alone: a
// day's requests say what it was about ("let's move to Python 3.13" of "what did we upgrade last
// Monday"). Held-out set 10, read by then: one question from out of the ten to 5; set 9 and the dev
// set unchanged.
const SPAN_BOOST = 3;
/**
 * A question about a span of time ("what were we fixing last Wednesday") is answered by what was
 * said then, the request and the reply that sums it up, more than by the tool calls between them,
 * which a day holds by the dozen and which share its words. Their scores count this much. At 0.6
 * (measured after the sets had been read): the dev set @10 78.8 → 80.0%, set 9 unchanged, set 10
 * @1 30.9 → 32.7% and @5 65.5 → 67.3%, set 11 @1 30.0 → 32.5% (its temporal questions 15 → 30%);
 * 0.5 and 0.7 did the same within a question. The same share for every question (0.7–0.85) gained
 * as much on the held-out sets but cost the dev set's real sessions a fifth of their first places:
 * there a tool's output is often the answer.
 */
const SPAN_TOOL_SHARE = 0.6;
const SPAN_FLOOR = 0.3;
/**
 * Chunks in a span beyond which none joins without a word of the question (a month of work is no
 * hint), but the user's of a short span.
 */
const SPAN_FILL_MAX = 40;
/** A span this long at most (a week or two) is short: its user chunks may join alone. */
const USERS_ONLY_SPAN_MS = 14 * 86_400_000;
/** What the user said in a span joins at this many times SPAN_FLOOR. */
const USER_FILL = 2;
/** Weight of a related word standing in for a word of the question the archive does not hold. */
const STAND_IN_WEIGHT = 0.8;
/** Weight of each part of a compound word of the question the archive does not hold (two parts: about the word's). */
const COMPOUND_WEIGHT = 0.5;

/**
 * The two index terms a compound word is made of, both held by the archive ("hostname": host,
 * nam), tried from the middle out; none for a word under eight letters or with a part under four.
 * Shorter parts split typos and plain words into held pieces: udpate into udp and ate, carpet into
 * car and pet.
 */
function compoundParts(view: IndexView, raw: string): string[] {
  if (!/^[a-z]{8,30}$/.test(raw)) return [];
  const middle = Math.floor(raw.length / 2);
  for (let d = 0; d <= middle; d++) {
    for (const at of d === 0 ? [middle] : [middle - d, middle + d]) {
      if (at < 4 || raw.length - at < 4) continue;
      const left = tokenize(raw.slice(0, at));
      const right = tokenize(raw.slice(at));
      if (left.length !== 1 || right.length !== 1) continue;
      const parts = [left[0] as string, right[0] as string];
      if (parts.every((p) => holds(view, p))) return parts;
    }
  }
  return [];
}
/** Words that only frame a question about a time ("what happened", "what did we work on", "what were we building"). */
const FRAMING_WORDS = new Set(
  tokenize(
    'happen happened happening talk talked discuss discussed say said work worked working change changed ask asked go went thing things anything something stuff get got make made do did doing done new build building built busy',
  ),
);
/** A term of a question that only frames it: a framing word, or what is left of a contraction ("what's"). */
const framesOnly = (term: string) => FRAMING_WORDS.has(term) || /^(?:s|d|t|m|ve|ll|re)$/.test(term);

/** Candidates re-ranked by phrases, dates, "now" and the first person (at least; 3× the limit when more). */
const RERANK_HEAD = 30;
/** "now": the newest of the candidates that match well counts 1 + LATEST_BOOST times ("originally": the oldest). */
const LATEST_BOOST = 0.3;
/**
 * A question in the present tense ("what's our cat called", "how long do tokens stay valid") asks
 * how things stand now as well, without saying so: the newest good match counts 1 + PRESENT_BOOST
 * times (half of "now"'s, as the tense is a weaker sign). Not with a word of the past in it.
 */
const PRESENT_BOOST = 0.15;
/** Good matches all said within a day are one saying: the tense orders none of them. */
const PRESENT_MIN_SPREAD_MS = 86_400_000;
/** Share of the best score a candidate needs to count as a saying of the fact asked about. */
const LATEST_FLOOR = 0.5;
/** A question about the user ("where does my sister teach"): their own words count this much more. */
const FIRST_PERSON_BOOST = 1.2;
const FIRST_PERSON = /(?<![\w'-])(?:i|my|me|mine|myself)(?=$|[^\w'-]|'(?:m|ve|d|ll)\b)/i;
/**
 * "What did the fjord holiday cost us", "which street is our new place on": the user's words count
 * this much more, less than for "my", as coding questions say "our db pool" of the project. "We"
 * alone does not count ("what did we set the timeout to"): with it, at 1.2, held-out set 16 (read)
 * lost four code questions a place or two. At 1.1 without "we": set 16 three up, none down; set 15
 * (blind) three up, none down; set 13 unchanged (at 1.2, two code questions down a place).
 */
const PLURAL_BOOST = 1.1;
const FIRST_PERSON_PLURAL = /(?<![\w'-])(?:our|us|ours|ourselves)(?![\w'-])/i;

/**
 * The assistant's own words, for a question about them (ASKS_ASSISTANT: "what did you suggest…",
 * "you recommended…", "your advice"): its answer is in the assistant's words, which often share few
 * words with the question, while the user's question they answered shares many.
 */
const ASSISTANT_BOOST = 1.2;
/** Of the user chunk it answers, the share of the score an assistant reply gets (then ASSISTANT_BOOST). */
const REPLY_SHARE = 0.9;
/** Leading user chunks whose replies join. */
const REPLY_ASKERS = 5;
/** Docs after a user chunk looked at for its reply (tool calls may come between). */
const REPLY_REACH = 8;

/** What a question asks of the head's re-ranking. */
interface HeadAsks {
  phrases: readonly string[];
  spans: readonly TimeSpan[];
  /** Which saying of a changed fact leads (when.ts askedOrder). */
  order: 'latest' | 'earliest' | 'present' | undefined;
  /** The factor of the user's own words (1: not a question about the user). */
  firstPerson: number;
  assistant: boolean;
  /** A request for advice or a recommendation: the user's stated likes and constraints answer it. */
  advice: boolean;
}

/** The factor of a user's chunk that states a like, a dislike or a constraint, in a request for advice. */
const PREFERENCE_BOOST = 1.5;
/** Verbs of a habit or a practice: "I never fly", "we always deploy on Tuesdays", "I only drink decaf". */
const HABIT_VERBS =
  '(?:eat|drink|use|take|fly|drive|cook|buy|wear|shop|travel|stay|book|order|read|watch|listen to|play|deploy|release|ship|commit|merge|push|write|run|swim|walk|go)';
/**
 * A statement of what the user (or someone close to them) likes, avoids or keeps to: "for the
 * record, I prefer thiserror", "we'd much rather take trains", "no overhead pressing please", "I've
 * stopped having caffeine after midday", "I'm allergic to nuts", "don't use lodash", "she hates
 * seafood". Not a request ("I'd like you to…", "I'd love it if you could…"), not what happened ("I
 * always get a 500", "I don't have access", "I've stopped the dev server"). Typographic apostrophes
 * are read as typed ones before the test (chunk texts keep them).
 */
export const PREFERENCE = new RegExp(
  String.raw`(?<![\w'-])(?:${[
    String.raw`(?:i|we)(?:'d| would) (?:much |really |definitely )?(?:rather|prefer|love|enjoy|hate)(?! (?:it|if|for you|some|you|to (?:get|have|know|see if|ask)))(?![\w'-])`,
    String.raw`(?:i|we|he|she|they) (?:much |really |strongly |definitely |generally |usually |always |just )?(?:prefers?|loves?|like|likes|enjoys?|hates?|dislikes?|detests?|can't stand|cannot stand|avoids?)(?![\w'-])`,
    String.raw`(?:i|we|he|she|they)(?:'m|'re|'s| am| are| is) (?:not (?:really )?(?:a )?(?:big |huge )?fans?|(?:a )?(?:big |huge )?fans?|(?:really |so )?into(?= )(?! (?:the |my |our |a |an )?(?:first|second|third|fourth|fifth|last|next|final|\d+\w*|weeks?|months?|years?|days?|steps?|chapters?|parts?|phases?|half)(?![\w'-]))|not into|(?:lactose |gluten |dairy )?(?:allergic|intolerant)|gluten-free|dairy-free|vegetarian|vegan|pescatarian|teetotal|on a [\w-]+ diet)(?![\w'-])`,
    String.raw`(?:my|our) [\w-]+(?: [\w-]+)? (?:really )?(?:prefers|loves|hates|dislikes|detests|can't stand|is (?:allergic|vegetarian|vegan|not a fan))(?![\w'-])`,
    'for the record',
    'one thing about (?:me|us)',
    '(?:my|our) preference',
    String.raw`(?:my|our) favou?rites?(?! (?:page|list|tab|button|endpoint|table|api|view|feature|screen|component|icon)s?)(?![\w'-])`,
    String.raw`(?:i|we)(?: really)? (?:never|always|only) ${HABIT_VERBS}(?![\w'-])`,
    String.raw`(?:i|we) (?:don't|do not|won't|can't|cannot) (?:want|like|eat|drink)(?![\w'-])`,
    String.raw`(?:i|we)(?:'ve| have) (?:already |just |now )?(?:stopped (?:having|eating|drinking|using|taking|smoking|buying|going)|given up|quit (?:smoking|drinking|sugar|caffeine|coffee|alcohol|meat)|cut out)(?![\w'-])`,
    String.raw`(?:so|now|still|not) (?:strict )?(?:vegetarian|vegan|pescatarian|veggie)(?![\w'-])`,
    String.raw`(?:(?<=^|[.!?;:]\s{0,3})|(?:just|and|but|so) )no [\w-]+(?: [\w-]+){0,8},? please(?=\s*(?:[.!?,;]|$))`,
    String.raw`(?<=^|[.!?;:]\s{0,3})(?:don't|do not|never|always|avoid|please don't) (?!worry|know|think|see|have|mind|get|got|seem|forget|care|bother|understand|remember)[a-z]*(?:[a-rt-z]|ss)(?![\w'-])`,
    String.raw`please (?:don't|do not|avoid|keep to|stick to|stick with)(?![\w'-])`,
  ].join('|')})`,
  'im',
);

/**
 * Re-rank the leading candidates, sorted anew: phrases by whether a chunk's text really holds
 * them; a span of time by whether its text names a date in it ("surgery is on September 23", said
 * on the 8th, answers "in late September"; "yesterday" read against the chunk's own time); the
 * first person by the user's own words; "now" by age among the candidates that match well (the
 * sayings of the fact, not the weak matches around them): the newest counts 1 + LATEST_BOOST
 * times, the oldest once, the rest in between by their order in time; "originally" the other way.
 * In a question about a span, the tool calls count less than what was said (SPAN_TOOL_SHARE).
 */
function rerank<T extends { c: Candidate; chunk: Chunk | undefined }>(head: T[], asks: HeadAsks): T[] {
  for (const { c, chunk } of head) {
    if (chunk === undefined) continue;
    if (asks.phrases.some((p) => chunk.text.toLowerCase().includes(p.toLowerCase()))) c.score *= PHRASE_BOOST;
    if (asks.spans.length > 0 && !within(asks.spans, c.time) && namesDateIn(chunk.text, c.time, asks.spans)) c.score *= SPAN_BOOST;
    if (chunk.type === 'user') c.score *= asks.firstPerson;
    if (asks.assistant && chunk.type === 'assistant') c.score *= ASSISTANT_BOOST;
    if (asks.spans.length > 0 && chunk.type === 'tool') c.score *= SPAN_TOOL_SHARE;
    if (asks.advice && chunk.type === 'user' && PREFERENCE.test(typedApostrophes(chunk.text))) c.score *= PREFERENCE_BOOST;
  }
  const best = Math.max(0, ...head.map((h) => h.c.score));
  const good = () => head.filter((h) => h.chunk !== undefined && h.c.score >= LATEST_FLOOR * best).sort((a, b) => a.c.time - b.c.time);
  if (asks.order === 'latest' || asks.order === 'earliest') {
    const byTime = good();
    if (asks.order === 'earliest') byTime.reverse();
    byTime.forEach(({ c }, i) => {
      c.score *= 1 + (LATEST_BOOST * i) / Math.max(1, byTime.length - 1);
    });
  } else if (asks.order === 'present') {
    // By age, not by order: a restatement minutes later (the reply that echoes the user) is no update.
    const byTime = good();
    const oldest = byTime[0]?.c.time ?? 0;
    const spread = (byTime.at(-1)?.c.time ?? 0) - oldest;
    if (spread >= PRESENT_MIN_SPREAD_MS) for (const { c } of byTime) c.score *= 1 + (PRESENT_BOOST * (c.time - oldest)) / spread;
  }
  return head.sort((a, b) => b.c.score - a.c.score || b.c.time - a.c.time);
}

/**
 * For a question about the user ("what is my dog eating these days"): the user's message that each
 * leading assistant reply answers (the last user chunk before it in that session, past any tool
 * calls) scores at least TELLER_SHARE of the reply, when it tells something (a sentence that is no
 * question or request). The user says a thing once in their own words ("the vet switched her to a
 * hydrolyzed protein diet"); the reply restates it in the question's ("her food", "eating").
 * A user's request before a reply ("any ideas for a wedding favour?") is left where it was.
 */
function pullTellers(
  view: IndexView,
  leading: readonly Candidate[],
  masks: ReadonlyArray<Uint8Array | undefined>,
  acc: Scores,
  chunkAt: (segment: number, doc: number) => Chunk | undefined,
): void {
  let replies = 0;
  for (const c of leading) {
    if (replies >= TELLER_REPLIES) break;
    const reader = (view.segments[c.segment] as (typeof view.segments)[number]).reader;
    const kinds = reader.kindPhase();
    const assistant = reader.footer.kinds.indexOf('assistant');
    if (kindOrdinal(kinds[c.doc] as number) !== assistant) continue;
    replies += 1;
    const user = reader.footer.kinds.indexOf('user');
    const sessions = reader.session();
    const mask = masks[c.segment];
    const scores = acc.perSegment[c.segment] as Float64Array;
    for (let d = c.doc - 1; d >= Math.max(0, c.doc - REPLY_REACH); d--) {
      if (sessions[d] !== sessions[c.doc]) break;
      if (kindOrdinal(kinds[d] as number) !== user) continue;
      if (mask !== undefined && mask[d] !== 1) break;
      if (!tells(chunkAt(c.segment, d)?.text ?? '')) break;
      // "haha" before "Enjoy the book." tells nothing: a message of one word takes half the share
      // (set 13: one question 3 → 2; set 14, blind: two up).
      const share = TELLER_SHARE * c.score * Math.min(1, (reader.lengths()[d * 3] as number) / 2);
      if ((scores[d] as number) < share) {
        if (scores[d] === 0) (acc.touched[c.segment] as number[]).push(d);
        scores[d] = share;
      }
      break;
    }
  }
}
/** Of an assistant reply, the share of its score the user message it answers gets (then FIRST_PERSON_BOOST). */
const TELLER_SHARE = 0.9;
/** Leading assistant chunks whose user messages join. */
const TELLER_REPLIES = 5;
/** A question about what the user said: "what did I tell you", "what did I mention". */
const USER_TOLD = /(?<![\w'-])(?:i|we)\s+(?:tell|told|say|said|mention(?:ed)?|share[ds]?|talk(?:ed)?)(?![\w'-])/i;
/**
 * "You" in a question about the user asks what the assistant should do for them ("what should you
 * keep in mind when…"): their instruction, found by its own words. Not "what did I tell you".
 */
const SECOND_PERSON = /(?<![\w'-])(?<!(?:tell|told|telling|ask|asked|show|showed|give|gave|send|sent|remind|reminded|to)\s+)you(?![\w'-])/i;
/** A sentence that asks: a question word before a verb or a subject ("how do", "what's"), or a verb before its subject ("can you"). */
const QUESTION_START =
  /^(?:(?:what|which|who|whom|whose|when|where|why|how)(?:'s|'re|\s+(?:is|are|was|were|do|does|did|can|could|would|should|will|shall|have|has|had|much|many|long|often|about|if|to)\b)|(?:is|are|was|were|do|does|did|can|could|would|should|will|shall|have|has|may|might)(?:n't)?\s+(?:i|you|we|he|she|it|they|there|this|that|my|your|our|the|a|an|any|anyone|someone)\b)/i;
/** A sentence that requests: it starts with the verb ("draft an email", "fix the test", "please list…"); not one that is a noun as often ("update", "plan", "test"). */
const REQUEST_START =
  /^(?:please|pls|kindly|(?:draft|write|fix|make|create|add|remove|delete|run|show|tell|give|list|help|explain|suggest|recommend|remind|find|read|summari[sz]e|build|generate|translate|rewrite|edit|compare|describe|send|calculate|convert|refactor|implement|debug|install|deploy|try|let|think|consider|ideas?|any))\b/i;

/** Whether a user's message tells something: one of its sentences is no question and no request. */
export function tells(text: string): boolean {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((x) => x.trim())
    .some((x) => /\w/.test(x) && !x.endsWith('?') && !QUESTION_START.test(x) && !REQUEST_START.test(x));
}

/**
 * For a question about what the assistant said: the assistant's reply to each of the leading user
 * chunks (the next assistant chunk of that session, past any tool calls) scores at least
 * REPLY_SHARE of the chunk it answers. "What did you suggest for the flaky upload test" finds the
 * user's "the upload test fails one run in ten, what should I do"; the advice after it says "retry
 * with a fake clock", no word of the question.
 */
function pullReplies(view: IndexView, leading: readonly Candidate[], masks: ReadonlyArray<Uint8Array | undefined>, acc: Scores): void {
  let askers = 0;
  for (const c of leading) {
    if (askers >= REPLY_ASKERS) break;
    const reader = (view.segments[c.segment] as (typeof view.segments)[number]).reader;
    const kinds = reader.kindPhase();
    const user = reader.footer.kinds.indexOf('user');
    if (kindOrdinal(kinds[c.doc] as number) !== user) continue;
    askers += 1;
    const assistant = reader.footer.kinds.indexOf('assistant');
    const sessions = reader.session();
    const mask = masks[c.segment];
    const scores = acc.perSegment[c.segment] as Float64Array;
    for (let d = c.doc + 1; d < Math.min(reader.docs, c.doc + 1 + REPLY_REACH); d++) {
      if (sessions[d] !== sessions[c.doc]) continue;
      const kind = kindOrdinal(kinds[d] as number);
      if (kind === user) break; // the next question: no reply came
      if (kind !== assistant) continue;
      if (mask !== undefined && mask[d] !== 1) break;
      const share = REPLY_SHARE * c.score;
      if ((scores[d] as number) < share) {
        if (scores[d] === 0) (acc.touched[c.segment] as number[]).push(d);
        scores[d] = share;
      }
      break;
    }
  }
}

/**
 * A question of a date alone: the span's chunks, what the user said first (a day's requests say what
 * it was about), then newest first, or nearest the event's saying first when the span is around one.
 */
function spanCandidates(view: IndexView, spans: readonly TimeSpan[], masks: ReadonlyArray<Uint8Array | undefined>, want: number, anchor?: number): Candidate[] {
  const out: Candidate[] = [];
  view.segments.forEach((s, i) => {
    const mask = masks[i];
    const time = s.reader.time();
    const kinds = s.reader.kindPhase();
    const user = s.reader.footer.kinds.indexOf('user');
    const lengths = s.reader.lengths();
    for (let d = 0; d < s.reader.docs; d++) {
      if ((mask !== undefined && mask[d] !== 1) || !within(spans, time[d] as number)) continue;
      const said = kindOrdinal(kinds[d] as number) === user ? 2 : 1;
      out.push({ segment: i, doc: d, score: said * saysSomething(lengths[d * 3] as number), time: time[d] as number });
    }
  });
  // Nearness is in the score (under half a kind's step), so the head's re-ranking keeps it.
  if (anchor !== undefined) for (const c of out) c.score += 0.5 / (1 + Math.abs(c.time - anchor) / 3_600_000);
  return out.sort((a, b) => b.score - a.score || b.time - a.time).slice(0, want);
}

/**
 * The span a time relative to an event covers: the event's words are searched on their own (with
 * the question's other words when they start with a pronoun: "after it was finished"), and the
 * leading hit dates the event: a day it names near its own time ("starting Monday 13 April",
 * "flying out tomorrow"), or else its own day. No hit, no span.
 */
function eventSpans(
  view: IndexView,
  query: Query,
  scope: SearchScope,
  relative: RelativeTime,
  rest: string,
): { spans: TimeSpan[]; anchor: number } | undefined {
  const pronoun = /^(?:it|they|them|that|this|she|he|we)\b/.test(relative.event);
  const others = rest.toLowerCase().replace(relative.event, ' ');
  const words = (pronoun ? `${relative.event} ${others}` : relative.event).split(/\s+/).filter((w) => w !== '');
  // "my birthday" is not a friend's: the user's own things, said as they are, lead.
  const phrases = [...relative.event.matchAll(/(?<![\w'-])(?:my|our)\s+[\w'-]+(?:\s+[\w'-]+)?/g)].map((m) => m[0]);
  // "The day I turned 34" is a birthday, told as one ("it's my birthday today, 34!"): the age must be said.
  const age = /(?<![\w'-])turn(?:ed|s)?\s+(\d{1,3})(?![\w'-])/.exec(relative.event);
  if (age !== null) {
    words.push('birthday');
    phrases.push(age[1] as string);
  }
  const [top] = rank(view, { ...query, words, phrases }, { ...scope, limit: 1 }, true);
  if (top === undefined) return undefined;
  const time = Date.parse(top.timestamp);
  if (!Number.isFinite(time)) return undefined;
  const read = readChunk(scope.store, top.sessionId, top.ref);
  const day = eventDay(read?.ok === true ? read.chunk.text : '', time, relative.from < 0);
  const at = new Date(day);
  const shift = (n: number) => new Date(at.getFullYear(), at.getMonth(), at.getDate() + n).getTime();
  // The event's saying, when it was said on the event's day; else that day's noon.
  const said = new Date(time);
  const anchor = shift(0) === new Date(said.getFullYear(), said.getMonth(), said.getDate()).getTime() ? time : shift(0) + 12 * 3_600_000;
  return { spans: [{ start: shift(relative.from), end: shift(relative.to) }], anchor };
}

/** The weight of an event's words in the question once they have dated its span. */
const EVENT_WORD_WEIGHT = 0.5;

/** How far from its saying a date it names may be and still be the event's (plans are made weeks ahead). */
const EVENT_DATE_BEFORE_DAYS = 3;
const EVENT_DATE_AFTER_DAYS = 60;

/**
 * The day of the event a chunk speaks of (start of day, ms): the date it names nearest its own time
 * within a few days before and two months after it (the first day of a range for a time before the
 * event, "April 10 to 24"; the last for one after), "tomorrow" the next day, else its own day.
 */
function eventDay(text: string, time: number, before: boolean): number {
  const own = new Date(time);
  const today = new Date(own.getFullYear(), own.getMonth(), own.getDate()).getTime();
  const DAY_MS = 86_400_000;
  let best: number | undefined;
  // "On the 14th" names no month: read in the chunk's month, it may be the wrong one.
  for (const span of timeSpans(text.slice(0, MENTION_CHARS).replace(/(?<![\w-])on\s+the\s+\d{1,2}(?:st|nd|rd|th)(?![\w-])/gi, ' '), own)) {
    if (span.end - span.start > 31 * DAY_MS) continue;
    const day = before ? span.start : span.end - DAY_MS;
    if (day < today - EVENT_DATE_BEFORE_DAYS * DAY_MS || day > today + EVENT_DATE_AFTER_DAYS * DAY_MS) continue;
    if (best === undefined || Math.abs(day - today) < Math.abs(best - today)) best = day;
  }
  if (best !== undefined) return best;
  return /(?<![\w-])tomorrow(?![\w-])/i.test(text.slice(0, MENTION_CHARS)) ? today + DAY_MS : today;
}

/** Characters of a chunk read for the dates it names. */
const MENTION_CHARS = 4_000;

function namesDateIn(text: string, time: number, spans: readonly TimeSpan[]): boolean {
  if (time <= 0) return false;
  const named = timeSpans(text.slice(0, MENTION_CHARS), new Date(time));
  return named.some((n) => spans.some((s) => n.start < s.end && n.end > s.start));
}

function favourSpans(view: IndexView, spans: readonly TimeSpan[], masks: ReadonlyArray<Uint8Array | undefined>, acc: Scores): void {
  let topScore = 0;
  acc.touched.forEach((docs, i) => {
    const scores = acc.perSegment[i] as Float64Array;
    for (let j = 0; j < docs.length; j++) topScore = Math.max(topScore, scores[docs[j] as number] as number);
  });
  const inside: Array<[number, number]> = [];
  let userInside = 0;
  view.segments.forEach((s, i) => {
    const time = s.reader.time();
    const kinds = s.reader.kindPhase();
    const user = s.reader.footer.kinds.indexOf('user');
    const mask = masks[i];
    for (let d = 0; d < time.length; d++) {
      if ((mask !== undefined && mask[d] !== 1) || !within(spans, time[d] as number)) continue;
      const said = kindOrdinal(kinds[d] as number) === user;
      inside.push([i, said ? ~d : d]);
      if (said) userInside += 1;
    }
  });
  // No word of the question matched: the span is all it has. Too many chunks to join them all in a
  // span of a week or two (a day of tool traffic): what the user said in it, if few enough; a day's
  // requests say what it was about ("let's move to Python 3.13", of "what did we upgrade last Monday").
  const usersOnly = topScore > 0 && inside.length > SPAN_FILL_MAX;
  // Each span: a date without its year reads as that date of every year.
  const short = spans.every((span) => span.end - span.start <= USERS_ONLY_SPAN_MS);
  const fill = topScore === 0 ? 1 : !usersOnly || (short && userInside <= SPAN_FILL_MAX) ? SPAN_FLOOR * topScore : 0;
  for (const [i, at] of inside) {
    const d = at < 0 ? ~at : at;
    const scores = acc.perSegment[i] as Float64Array;
    const v = scores[d] as number;
    if (v > 0) scores[d] = v * SPAN_BOOST;
    else if (fill > 0 && (!usersOnly || at < 0)) {
      const lengths = (view.segments[i] as (typeof view.segments)[number]).reader.lengths();
      scores[d] = (at < 0 ? fill * USER_FILL : fill) * saysSomething(lengths[d * 3] as number);
      (acc.touched[i] as number[]).push(d);
    }
  }
}

/**
 * How much a chunk that joins a span by its time alone says, by its words (0.1 to 1): "ok bye", "ty"
 * or "good" tell nothing of what the day was about, and were listed first when newest. Held-out
 * set 13 (read): three questions up (two from out of the ten), none down; set 14 (blind): two up;
 * the dev set did not move.
 */
const saysSomething = (words: number) => Math.max(SPAN_FILL_LEAST, Math.min(1, words / SPAN_FILL_WORDS));
/** What a chunk of stop words only ("ok", "do it") still counts: above 0, which reads as not scored yet. */
const SPAN_FILL_LEAST = 0.1;
/** Words (index terms, stop words not counted) from which a chunk joining a span by its time says enough. */
const SPAN_FILL_WORDS = 5;

/** A term to score: its unstemmed form (for prefixes), its weight, and whether only it matches. */
interface QueryTerm {
  term: string;
  raw: string;
  weight: number;
  exact: boolean;
}

/** Scores summed so far, per segment: a second pass (feedback terms) adds to the first. */
interface Scores {
  perSegment: Float64Array[];
  touched: number[][];
}

const newScores = (view: IndexView): Scores => ({
  perSegment: view.segments.map((s) => new Float64Array(s.reader.docs)),
  touched: view.segments.map(() => []),
});

/**
 * Add BM25+ over query terms and their prefix / fuzzy expansions to `acc`, for the docs the filters
 * accept. Postings are scored straight from the bytes read (no arrays per term): a common term in a
 * big archive has tens of thousands of postings.
 */
function score(view: IndexView, terms: readonly QueryTerm[], masks: ReadonlyArray<Uint8Array | undefined>, acc: Scores, addDocs = true): void {
  // N counts hidden docs too, as the document frequencies and lengths do (they come from the
  // segments as written): with N live only, a term re-listed often could get a negative IDF.
  const n = docCount(view);
  const avg = view.fieldTokens.map((t) => Math.max(t / n, 1e-9));
  const scores = acc.perSegment;
  const touched = acc.touched;
  const expanded = new Map<string, Map<string, number>>();
  for (const { term, raw, weight, exact } of terms) {
    const key = `${term}\n${raw}\n${weight}\n${exact}`;
    let forms = expanded.get(key);
    if (forms === undefined) {
      // A query's own word also stands for its longer and near forms; an added answer word only for itself.
      forms = exact ? new Map([[term, 1]]) : expansions(view, term, raw);
      if (weight !== 1) forms = new Map([...forms].map(([form, w]) => [form, w * weight]));
      expanded.set(key, forms);
    }
    // Each segment: the matching terms of the bucket, their postings read in one range.
    const hits = view.segments.map((s) => {
      const key = bucketOf(term);
      const head = s.reader.bucket(key);
      if (head === undefined) return [];
      return [...(forms as Map<string, number>)].flatMap(([form, weight]) => {
        const at = findTerm(head.terms, form);
        return at < 0 ? [] : [{ at, weight, key, head }];
      });
    });
    // Corpus document frequency of each form, per field, summed over segments.
    const dfs = new Map<string, [number, number, number]>();
    for (const list of hits) {
      for (const { at, head } of list) {
        const form = head.terms[at] as string;
        const f = fieldDfsOf(head, at);
        const d = dfs.get(form) ?? [0, 0, 0];
        dfs.set(form, [d[0] + f[0], d[1] + f[1], d[2] + f[2]]);
      }
    }
    hits.forEach((list, s) => {
      if (list.length === 0) return;
      const reader = (view.segments[s] as (typeof view.segments)[number]).reader;
      const lengths = reader.lengths();
      const mask = masks[s];
      const acc = scores[s] as Float64Array;
      const seen = touched[s] as number[];
      const word = wordScores(acc.length);
      // The word's other forms first, into the word's scores; then the word itself, straight into
      // the query's (most postings are its own: no extra pass over them); then what only the
      // other forms found.
      const own = list.filter((h) => h.head.terms[h.at] === term);
      for (const [runList, ownForm] of [
        [runs(list.filter((h) => h.head.terms[h.at] !== term)), false],
        [runs(own), true],
      ] as const) {
        for (const run of runList) {
          const { bytes, base } = reader.postings(run[0]?.key ?? '', run[0]?.at ?? 0, run.at(-1)?.at ?? 0);
          for (const { at, weight, head } of run) {
            const df = dfs.get(head.terms[at] as string) ?? [0, 0, 0];
            const idf = [idfOf(n, df[0]), idfOf(n, df[1]), idfOf(n, df[2])] as const;
            const start = (head.starts[at] as number) - base;
            const end = (head.ends[at] as number) - base;
            if (start < 0 || end < start || end > bytes.length)
              throw new IndexCorruptError(`${reader.name}: postings of ${head.terms[at]} lie outside their bucket`);
            scorePostings(bytes, start, head.dfs[at] as number, weight, idf, lengths, avg, mask, acc, seen, word, ownForm, addDocs);
            // They must end where the head says: a damaged offset would otherwise score a neighbour's postings.
            if (cursor !== end) throw new IndexCorruptError(`${reader.name}: postings of ${head.terms[at]} end at ${cursor}, their head says ${end}`);
          }
        }
      }
      addWordScores(word, acc, seen);
    });
  }
  // minisearch also multiplies a score by the number of distinct query terms matched. Not here: on
  // the dev set it lifted recall@1 (32.9% → 35.4%) but cost recall@5 and @10 (57.0% → 54.4%,
  // 62.0% → 58.2%), the measures recall is judged by. A question's words are often not all in
  // the answer ("job runner" for the scheduler).
}

/** The `want` best docs of the scores so far. */
const best = (view: IndexView, acc: Scores, want: number): Candidate[] =>
  top(
    acc.touched.map((docs, i) => ({ docs, key: acc.perSegment[i] as Float64Array })),
    want,
    view,
  );

/** Docs in the index, hidden ones included (as document frequencies count them). */
const docCount = (view: IndexView) =>
  Math.max(
    1,
    view.segments.reduce((sum, s) => sum + s.reader.docs, 0),
  );

/**
 * The `want` best docs by `key` (then newest), without an object per doc: a common term touches
 * most of a big archive. The cut-off comes from the keys alone (cutOff).
 */
function top(perSegment: ReadonlyArray<{ docs: readonly number[]; key: Float64Array }>, want: number, view: IndexView, byTime = false): Candidate[] {
  const cut = cutOff(perSegment, want);
  const out: Candidate[] = [];
  perSegment.forEach(({ docs, key }, segment) => {
    const time = (view.segments[segment] as (typeof view.segments)[number]).reader.time();
    for (let i = 0; i < docs.length; i++) {
      const doc = docs[i] as number;
      const value = key[doc] as number;
      if (value >= cut) out.push({ segment, doc, score: byTime ? 0 : value, time: time[doc] as number });
    }
  });
  out.sort((a, b) => b.score - a.score || b.time - a.time);
  return out;
}

/**
 * The `want`-th largest key of the docs, or -Infinity when there are no more than `want`: one pass
 * through a min-heap of `want` keys. Copying and sorting every key instead cost a query over
 * 100,000 chunks ~13 ms a time (72,000 docs touched by three common words), twice.
 */
export function cutOff(perSegment: ReadonlyArray<{ docs: readonly number[]; key: Float64Array }>, want: number): number {
  const heap = new Float64Array(want);
  let size = 0;
  let count = 0;
  for (const { docs, key } of perSegment) {
    count += docs.length;
    for (let j = 0; j < docs.length; j++) {
      const v = key[docs[j] as number] as number;
      if (size < want) {
        let i = size++;
        while (i > 0) {
          const parent = (i - 1) >> 1;
          if ((heap[parent] as number) <= v) break;
          heap[i] = heap[parent] as number;
          i = parent;
        }
        heap[i] = v;
      } else if (v > (heap[0] as number)) {
        let i = 0;
        for (;;) {
          const left = 2 * i + 1;
          if (left >= want) break;
          const right = left + 1;
          const child = right < want && (heap[right] as number) < (heap[left] as number) ? right : left;
          if ((heap[child] as number) >= v) break;
          heap[i] = heap[child] as number;
          i = child;
        }
        heap[i] = v;
      }
    }
  }
  return count <= want ? Number.NEGATIVE_INFINITY : (heap[0] as number);
}

/** Terms of one bucket grouped into runs whose postings lie close together: one read per run. */
function runs<T extends { at: number; head: BucketHead }>(list: readonly T[]): T[][] {
  const sorted = [...list].sort((a, b) => a.at - b.at);
  const out: T[][] = [];
  for (const hit of sorted) {
    const run = out.at(-1);
    const prev = run?.at(-1);
    if (run !== undefined && prev !== undefined && (hit.head.starts[hit.at] as number) - (prev.head.ends[prev.at] as number) <= RUN_GAP_BYTES) run.push(hit);
    else out.push([hit]);
  }
  return out;
}
const RUN_GAP_BYTES = 16 * 1024;

const idfOf = (n: number, df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

// One varint reader over module state: the scoring loop runs per posting and must not allocate.
// (Loops over big arrays on the query path are indexed, not for…of: until V8 optimises them, each
// step of an array iterator allocates its result, ~1.8 MB a query at 10,000 chunks, and young
// collections grow with it.)
let cursor = 0;
function varint(bytes: Uint8Array): number {
  let byte = bytes[cursor++] as number;
  let value = byte & 0x7f;
  let scale = 128;
  while (byte >= 0x80) {
    byte = bytes[cursor++] as number;
    value += (byte & 0x7f) * scale;
    scale *= 128;
  }
  return value;
}

/**
 * One query word's scores in one segment, over all its forms (itself, longer and near forms). A doc
 * gets the best form's score and a tenth of the others': its AccessDenied is one word, which both
 * `access` and its longer form `accessdenied` hold, and counted twice it outscored a chunk saying
 * "access" in so many words (DisMax with a tie-breaker, as search engines score a word's variants).
 */
interface WordScores {
  best: Float64Array;
  sum: Float64Array;
  /** 1 for a doc in `docs`, 2 once its own form has counted them. */
  held: Uint8Array;
  docs: number[];
}
/** Of the forms a doc holds, the others count this much beside the best. */
const OTHER_FORMS = 0.1;
let wordScratch: WordScores = { best: new Float64Array(0), sum: new Float64Array(0), held: new Uint8Array(0), docs: [] };
function wordScores(docs: number): WordScores {
  if (wordScratch.best.length < docs) wordScratch = { best: new Float64Array(docs), sum: new Float64Array(docs), held: new Uint8Array(docs), docs: [] };
  // Left over when a damaged segment stopped a word half scored (the search is then run again).
  clearWord(wordScratch);
  return wordScratch;
}
function clearWord({ best, sum, held, docs }: WordScores): void {
  for (let i = 0; i < docs.length; i++) {
    const doc = docs[i] as number;
    best[doc] = 0;
    sum[doc] = 0;
    held[doc] = 0;
  }
  docs.length = 0;
}
/** Adds what only a word's other forms found to the query's scores, and clears them for the next word. */
function addWordScores(word: WordScores, acc: Float64Array, touched: number[]): void {
  const { best, sum, held, docs } = word;
  for (let i = 0; i < docs.length; i++) {
    const doc = docs[i] as number;
    if (held[doc] !== 1) continue;
    const top = best[doc] as number;
    if (acc[doc] === 0) touched.push(doc);
    acc[doc] = (acc[doc] as number) + top + OTHER_FORMS * ((sum[doc] as number) - top);
  }
  clearWord(word);
}

function scorePostings(
  bytes: Uint8Array,
  start: number,
  count: number,
  weight: number,
  idf: readonly [number, number, number],
  lengths: Uint32Array,
  avg: readonly number[],
  mask: Uint8Array | undefined,
  acc: Float64Array,
  touched: number[],
  word: WordScores,
  /** The word's own form: added to the query's scores at once, with its other forms' if the doc holds some. */
  ownForm: boolean,
  addDocs: boolean,
): void {
  cursor = start;
  let doc = 0;
  const [avgText, avgKeywords, avgFiles] = avg as [number, number, number];
  for (let i = 0; i < count; i++) {
    doc += varint(bytes);
    const code = varint(bytes);
    const tfText = Math.floor(code / 4);
    const tfKeywords = code & 1 ? varint(bytes) : 0;
    const tfFiles = code & 2 ? varint(bytes) : 0;
    if (cursor > bytes.length || doc >= acc.length) throw new IndexCorruptError(`postings run past their bucket (doc ${doc} of ${acc.length})`);
    if (mask !== undefined && mask[doc] === 0) continue;
    let sum = 0;
    if (tfText > 0) sum += BOOST[0] * idf[0] * bm25(tfText, lengths[doc * 3] as number, avgText);
    if (tfKeywords > 0) sum += BOOST[1] * idf[1] * bm25(tfKeywords, lengths[doc * 3 + 1] as number, avgKeywords);
    if (tfFiles > 0) sum += BOOST[2] * idf[2] * bm25(tfFiles, lengths[doc * 3 + 2] as number, avgFiles);
    // Feedback terms reorder the docs found, they add none.
    if (acc[doc] === 0 && !addDocs) continue;
    const v = weight * sum;
    if (ownForm) {
      let add = v;
      if (word.held[doc] === 1) {
        const best = word.best[doc] as number;
        const top = v > best ? v : best;
        add = top + OTHER_FORMS * ((word.sum[doc] as number) + v - top);
        word.held[doc] = 2; // counted: addWordScores only clears it
      }
      if (acc[doc] === 0) touched.push(doc);
      acc[doc] = (acc[doc] as number) + add;
      continue;
    }
    if (word.held[doc] === 0) {
      word.held[doc] = 1;
      word.docs.push(doc);
    }
    word.sum[doc] = (word.sum[doc] as number) + v;
    if (v > (word.best[doc] as number)) word.best[doc] = v;
  }
}

const bm25 = (tf: number, length: number, avg: number) => D + (tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / avg));

/**
 * The index terms a query term stands for, with their weights: itself, longer terms its unstemmed
 * form starts, near misses of the stem. Both share the bucket: stemming changes only the end.
 */
function expansions(view: IndexView, term: string, raw: string): Map<string, number> {
  const out = new Map<string, number>([[term, 1]]);
  if (raw.length < PREFIX_MIN && term.length < FUZZY_MIN) return out;
  const prefix = raw.length >= PREFIX_MIN && bucketOf(raw) === bucketOf(term) ? raw : undefined;
  // Near misses mostly stand in for a word the archive does not hold (a typo). For one it holds,
  // they count a third as much: at full weight, chunks holding only near misses (other tokens,
  // other names) outranked the one chunk holding the word.
  const held = holds(view, term);
  const fuzzyWeight = held ? FUZZY_WEIGHT / 3 : FUZZY_WEIGHT;
  const maxDistance = term.length >= FUZZY_MIN ? Math.min(6, Math.round(term.length * 0.15)) : 0;
  const prefixed = new Map<string, number>();
  for (const s of view.segments) {
    const head = s.reader.bucket(bucketOf(term));
    if (head === undefined) continue;
    if (prefix !== undefined) {
      for (let i = lowerBound(head.terms, prefix); i < head.terms.length; i++) {
        const t = head.terms[i] as string;
        if (!t.startsWith(prefix)) break;
        if (t !== term && t.length > prefix.length && !isSurface(t)) prefixed.set(t, (prefixed.get(t) ?? 0) + (head.dfs[i] as number));
      }
    }
    if (maxDistance === 0) continue;
    const terms = head.terms;
    for (let i = 0; i < terms.length; i++) {
      const t = terms[i] as string;
      if (Math.abs(t.length - term.length) > maxDistance || prefixed.has(t) || t === term || isSurface(t)) continue;
      const d = editDistance(term, t, maxDistance);
      if (d > 0 && d <= maxDistance) out.set(t, (fuzzyWeight * t.length) / (t.length + d));
    }
  }
  // The closest longer forms (then the most frequent): a short stem in a big archive can start
  // thousands of terms, each worth little; reading all of them would make one query cost seconds.
  const closest = [...prefixed].sort((a, b) => a[0].length - b[0].length || b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, MAX_PREFIX_FORMS);
  for (const [t] of closest) out.set(t, (PREFIX_WEIGHT * t.length) / (t.length + 0.3 * (t.length - (prefix ?? term).length)));
  return out;
}

/** Whether some segment of the archive holds `term`. */
function holds(view: IndexView, term: string): boolean {
  return view.segments.some((s) => {
    const head = s.reader.bucket(bucketOf(term));
    return head !== undefined && findTerm(head.terms, term) >= 0;
  });
}

// Two rows reused across calls: fuzzy matching compares a query term with thousands of terms.
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);

/** Levenshtein distance, or max + 1 as soon as it must exceed `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (rowA.length <= b.length) {
    rowA = new Int32Array(b.length + 1);
    rowB = new Int32Array(b.length + 1);
  }
  let prev = rowA;
  let row = rowB;
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let best = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + (ca === b.charCodeAt(j - 1) ? 0 : 1));
      row[j] = v;
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    [prev, row] = [row, prev];
  }
  return prev[b.length] as number;
}

/**
 * Which docs of a segment a query may return (1: live, in scope, passing its filters), computed once
 * per query from the columns; undefined when every doc may. Scoring then costs one byte read per posting.
 */
function docMask(reader: SegmentReader, deleted: ReadonlySet<number>, q: Query, projectRoot: string | undefined): Uint8Array | undefined {
  const f = reader.footer;
  const checks: Array<(d: number) => boolean> = [];
  if (deleted.size > 0) checks.push((d) => !deleted.has(d));
  const ordinals = (table: readonly string[], keep: (value: string) => boolean) => new Set(table.flatMap((v, i) => (keep(v) ? [i] : [])));
  if (projectRoot !== undefined) {
    const ok = ordinals(f.projects, (p) => p === projectRoot);
    // A segment of this project only (the usual case) needs no look at each doc.
    if (ok.size < f.projects.length) {
      const column = reader.project();
      checks.push((d) => ok.has(column[d] as number));
    }
  }
  if (q.session !== undefined) {
    const prefix = q.session;
    const ok = ordinals(f.sessions, (s) => s.startsWith(prefix));
    const column = reader.session();
    checks.push((d) => ok.has(column[d] as number));
  }
  if (q.type !== undefined || q.phase !== undefined) {
    const type = q.type;
    const phase = q.phase;
    const kinds = ordinals(
      f.kinds,
      (k) => type === undefined || k === type || (k.startsWith('tool:') && (type === 'tool' || k.slice(5).toLowerCase() === type)),
    );
    const phases = ordinals(f.phases, (p) => phase === undefined || p === phase);
    const column = reader.kindPhase();
    checks.push((d) => {
      const v = column[d] as number;
      return kinds.has(kindOrdinal(v)) && phases.has(phaseOrdinal(v));
    });
  }
  if (q.since !== undefined) {
    const since = Date.parse(q.since);
    const column = reader.time();
    checks.push((d) => (column[d] as number) >= since);
  }
  if (q.file !== undefined) {
    // Either slash: `file:src/app.ts` finds a Windows session's C:\work\src\app.ts.
    const needle = q.file.toLowerCase().replaceAll('\\', '/');
    checks.push((d) => reader.files(d).some((file) => file.toLowerCase().replaceAll('\\', '/').includes(needle)));
  }
  if (checks.length === 0) return undefined;
  const mask = new Uint8Array(reader.docs);
  for (let d = 0; d < mask.length; d++) if (checks.every((check) => check(d))) mask[d] = 1;
  return mask;
}

function chunkOf(view: IndexView, c: Candidate, scope: SearchScope): Chunk | undefined {
  const reader = (view.segments[c.segment] as (typeof view.segments)[number]).reader;
  const session = reader.footer.sessions[reader.session()[c.doc] as number] ?? '';
  const read = readChunk(scope.store, session, reader.id(c.doc));
  if (read?.ok === true) return read.chunk;
  scope.log.warn(`chunk ${session}/${reader.id(c.doc)}: ${read === undefined ? 'missing' : read.reason}; left out of the results`);
  return undefined;
}

function toResult(chunk: Chunk, score: number, needles: readonly string[]): RecallResult {
  const result: RecallResult = {
    ref: chunk.id,
    score: Math.round(score * 1000) / 1000,
    sessionId: chunk.session,
    phase: chunk.phase,
    type: chunk.type,
    timestamp: chunk.timestamp,
    sourceUuids: chunk.sourceUuids,
    title: chunk.title,
    snippet: snippet(chunk.text, needles, 320),
    files: chunk.files,
  };
  if (chunk.tool !== undefined) result.tool = chunk.tool;
  if (chunk.sidechain === true) result.subagent = true;
  return result;
}

/** The window of `size` characters around the first place where a query term appears. */
export function snippet(text: string, needles: readonly string[], size: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= size) return flat;
  const lower = flat.toLowerCase();
  let at = -1;
  for (const n of needles) {
    if (n.length < 2) continue;
    const i = lower.indexOf(n);
    if (i !== -1 && (at === -1 || i < at)) at = i;
  }
  const start = Math.max(0, at === -1 ? 0 : at - Math.floor(size / 3));
  const piece = flat.slice(start, start + size);
  return `${start > 0 ? '…' : ''}${piece}${start + size < flat.length ? '…' : ''}`;
}
