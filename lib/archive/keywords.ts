// Tokens and keywords for code work. One tokenizer serves the index and the query, so what is
// findable is exactly what is typed: identifiers are kept whole and split on case, `_`, `-` and `.`
// (parseConfigFile → parseconfigfile, parse, config, file); paths give their base name; error codes
// (ENOENT, TS2304, E0425), versions and numbers with units (30s, 512MB) stay whole. Terms are
// lower-cased and lightly stemmed (plural and -ing/-ed endings), so "timeouts" finds "timeout".

const STOP = new Set(
  (
    'a an and are as at be but by can did do does for from had has have he her his how i if in into is it its just me my no not of on or our ' +
    'she so than that the their them then there these they this those to too up us was we were what when where which while who why will ' +
    'with would you your yes ok okay also about after again all any because been before being both each few more most other over same ' +
    'should some such only own very let const var return import export true false null undefined new use using used'
  ).split(' '),
);

/**
 * The words of a text: runs of letters, digits, `_` and `$`, joined through `.`, `-` or `/` when a
 * word character follows (WORD). Two ways to the same list: the regex, and a scan by character
 * code. A hook tokenizes one output and exits: its scan runs in V8's interpreter, ~5 ms for a 40 KB
 * test run, where the regex engine runs compiled code from the first call (~1.5 ms). Once V8 has
 * compiled the scan, it takes half the regex's time (a backfill tokenizes megabytes). So the regex
 * serves the first WARM_CHARS characters a process tokenizes, the scan the rest (1 M: Stop runs
 * without TurboFan until its backlog passes 1 MB, see docs/design.md).
 */
export function words(text: string): string[] {
  // (Not a text of more than REGEX_MAX_CHARS: the regex engine's backtrack stack overflows on a
  // word of millions of joined pieces, `a-a-a-…`.)
  if (tokenized < WARM_CHARS && text.length <= REGEX_MAX_CHARS) {
    tokenized += text.length;
    return text.match(WORD) ?? [];
  }
  return scanWords(text);
}

const WORD = /[\p{L}\p{N}_$]+(?:[.\-/][\p{L}\p{N}_$]+)*/gu;
const WARM_CHARS = 1024 * 1024;
const REGEX_MAX_CHARS = 256 * 1024;
let tokenized = 0;

/** words(), as a scan by character code (matchAll's match objects made up most of tokenizing). */
export function scanWords(text: string): string[] {
  const out: string[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    let w = wordCharWidth(text, i);
    if (w === 0) {
      i += 1;
      continue;
    }
    const start = i;
    for (;;) {
      while (w > 0) {
        i += w;
        w = i < n ? wordCharWidth(text, i) : 0;
      }
      const c = text.charCodeAt(i);
      // A joiner (. - /) continues the word only when a word character follows it.
      if (i + 1 < n && (c === 46 || c === 45 || c === 47)) {
        w = wordCharWidth(text, i + 1);
        if (w > 0) {
          i += 1;
          continue;
        }
      }
      break;
    }
    out.push(text.slice(start, i));
  }
  return out;
}

const LETTER_OR_DIGIT = /^[\p{L}\p{N}]$/u;

/** Code units of the word character at `i` (1, or 2 for an astral letter), or 0. */
function wordCharWidth(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36) return 1;
  if (c < 128 || Number.isNaN(c)) return 0;
  const cp = text.codePointAt(i) as number;
  const width = cp > 0xffff ? 2 : 1;
  return LETTER_OR_DIGIT.test(String.fromCodePoint(cp)) ? width : 0;
}
const NUMBER_UNIT = /^\d+(?:\.\d+)?(?:ms|s|m|h|d|kb|mb|gb|tb|k|px|%|x)$/i;
const ERROR_CODE = /^(?:[A-Z]{1,5}\d{2,5}|E[A-Z]{3,}|HTTP\d{3})$/;

/**
 * Split an identifier into its words: HTTPServerError2 → HTTP, Server, Error, 2. Boundaries: lower
 * or digit → upper, an upper run → upper + lower, letter → digit, and the separators _ - . $ /.
 * A scan by character code (the regex version cost a third of indexing).
 */
export function splitIdentifier(word: string): string[] {
  // Most words are plain (lower case, or capitalised): nothing to split.
  if (PLAIN_WORD.test(word)) return [word];
  const out: string[] = [];
  let start = 0;
  for (let i = 0; i < word.length; i++) {
    const cur = kindOf(word.charCodeAt(i));
    if (cur === SEP) {
      if (i > start) out.push(word.slice(start, i));
      start = i + 1;
      continue;
    }
    if (i === start) continue;
    const prev = kindOf(word.charCodeAt(i - 1));
    const boundary =
      ((prev === LOWER || prev === DIGIT) && cur === UPPER) ||
      (prev === UPPER && cur === UPPER && i + 1 < word.length && kindOf(word.charCodeAt(i + 1)) === LOWER) ||
      ((prev === LOWER || prev === UPPER) && cur === DIGIT);
    if (boundary) {
      out.push(word.slice(start, i));
      start = i;
    }
  }
  if (start < word.length) out.push(word.slice(start));
  return out;
}

const PLAIN_WORD = /^[A-Za-z]?[a-z]*$/;
const LOWER_WORD = /^[a-z]+$/;
/** A name of four letters or more and then `db` ("timescaledb", "dynamodb"; not "gdb" or "lldb"), or of three and `js`. */
const PRODUCT_SUFFIX = /^([a-z]{4,})db$|^([a-z]{3,})js$/;

/** The name in a lower-case product name with a kind's suffix ("mongo" of "mongodb", "node" of "nodejs"); else undefined. */
export function productName(word: string): string | undefined {
  const m = PRODUCT_SUFFIX.exec(word);
  return m?.[1] ?? m?.[2];
}
const [SEP, LOWER, UPPER, DIGIT, OTHER] = [0, 1, 2, 3, 4] as const;
function kindOf(c: number): number {
  if (c >= 97 && c <= 122) return LOWER;
  if (c >= 65 && c <= 90) return UPPER;
  if (c >= 48 && c <= 57) return DIGIT;
  // _ - . $ / and whitespace
  if (c === 95 || c === 45 || c === 46 || c === 36 || c === 47 || c === 32 || c === 9 || c === 10 || c === 13) return SEP;
  return OTHER;
}

/**
 * A light stemmer (plurals, -ing, -ed, a final e), so the forms of a word meet: parse, parses,
 * parsed, parsing → pars; stop, stopped → stop; cache, cached, caching → cach. Bump
 * TOKENIZER_VERSION when it changes: the index holds its output.
 */
export function stem(term: string): string {
  if (term.length <= 3 || !/^[a-z]+$/.test(term)) return term; // names, paths, codes stay exact
  let s = americanSpelling(term);
  if (s.endsWith('ies') && s.length > 4) s = `${s.slice(0, -3)}y`;
  else if (s.endsWith('sses')) s = s.slice(0, -2);
  else if (s.endsWith('s') && !/(?:ss|us|is|os|as)$/.test(s)) s = s.slice(0, -1);
  let suffixed = false;
  if (s.endsWith('ing') && s.length >= 6 && /[aeiouy]/.test(s.slice(0, -3))) {
    s = s.slice(0, -3);
    suffixed = true;
  } else if (s.endsWith('ed') && s.length >= 5 && !s.endsWith('eed') && /[aeiouy]/.test(s.slice(0, -2))) {
    s = s.slice(0, -2);
    suffixed = true;
  }
  // stopped → stopp → stop, but not install → instal
  if (suffixed && /([b-df-hj-km-rtv-z])\1$/.test(s)) s = s.slice(0, -1);
  // travelled, cancelling, signalled (British) → travel, cancel, signal: the verbs whose l only
  // British doubles (resell, retell and upsell are words of their own).
  else if (suffixed && s.endsWith('ll') && DOUBLED_L.has(s.slice(0, -1))) s = s.slice(0, -1);
  if (s.endsWith('e') && s.length >= 4 && !s.endsWith('ee')) s = s.slice(0, -1);
  return SPELLING_STEMS.get(s) ?? s;
}

/**
 * British and American spellings meet: a user writes "behaviour", "optimise", "analyse", "centre"
 * or "tyres", Claude answers "behavior", "optimize", "analyze", "center", "tires". Rewritten to
 * the American form before stemming, by suffix where the suffix says it (-our with three letters
 * before it, not hour or tour; -ise with four, -yse with three, and their endings), by the stem
 * for the few words that follow no rule (SPELLING_STEMS). Index and query go through the same
 * rules, so a word that only looks like one (promise → promize) is changed on both sides alike.
 */
function americanSpelling(word: string): string {
  // (A substring test first: stem() runs on every word a backfill meets for the first time.)
  const our = word.includes('our') ? OUR.exec(word) : null;
  if (our !== null) return `${our[1]}or${our[2] ?? ''}`;
  const ise = word.includes('is') ? ISE.exec(word) : null;
  if (ise !== null) return `${ise[1]}iz${ise[2]}`;
  const yse = word.includes('ys') ? YSE.exec(word) : null;
  if (yse !== null) return `${yse[1]}yz${yse[2]}`;
  return word;
}
/** Verbs ending in an unstressed -el or -al, whose l British spelling doubles before -ed and -ing. */
const DOUBLED_L = new Set(
  'travel cancel model label level fuel refuel signal dial total channel tunnel funnel marvel counsel pedal shovel swivel quarrel panel parcel rival equal libel duel enamel grovel snorkel bevel chisel unravel yodel revel spiral remodel relabel initial'.split(
    ' ',
  ),
);
const OUR = /^([a-z]{3,})our(s|ed|ing|ite|ites|al|ally|ful|less|able|er|ers|ism|ist|ists)?$/;
const ISE = /^([a-z]{4,})is(e|es|ed|ing|ation|ations|er|ers|able)$/;
const YSE = /^([a-z]{3,})ys(e|es|ed|ing|er|ers)$/;
/** Stems of British spellings that follow no suffix rule, and their American stems. */
const SPELLING_STEMS = new Map([
  ['centr', 'center'],
  ['metr', 'meter'],
  ['kilometr', 'kilometer'],
  ['centimetr', 'centimeter'],
  ['millimetr', 'millimeter'],
  ['litr', 'liter'],
  ['millilitr', 'milliliter'],
  ['theatr', 'theater'],
  ['fibr', 'fiber'],
  ['calibr', 'caliber'],
  ['tyr', 'tir'],
  ['grey', 'gray'],
  ['programm', 'program'],
  ['catalogu', 'catalog'],
  ['dialogu', 'dialog'],
  ['analogu', 'analog'],
  ['licenc', 'licens'],
  ['defenc', 'defens'],
  ['offenc', 'offens'],
  ['aluminium', 'aluminum'],
  ['mould', 'mold'],
  ['plough', 'plow'],
  ['sceptic', 'skeptic'],
  ['sceptical', 'skeptical'],
  ['jewellery', 'jewelry'],
  ['pyjama', 'pajama'],
  ['manoeuvr', 'maneuver'],
  ['doughnut', 'donut'],
]);
/** The British stems of an American one whose first three letters differ (grey for gray). */
const BRITISH_STEMS = new Map<string, string[]>();
for (const [british, american] of SPELLING_STEMS)
  if (british.slice(0, 3) !== american.slice(0, 3)) BRITISH_STEMS.set(american, [...(BRITISH_STEMS.get(american) ?? []), british]);

/**
 * The British stems that stem() turns into `term` and that start with other letters ("grey" for
 * gray): a lookup by a word's first letters (the thesaurus's) must try theirs too.
 */
export function britishStems(term: string): readonly string[] {
  return BRITISH_STEMS.get(term) ?? [];
}

/** Version of what tokenize() produces (and the index adds: MONEY_TERM); the search index is rebuilt when it changes. */
export const TOKENIZER_VERSION = 7;

/**
 * Ends a surface term: a plain word's own lower-case form, indexed beside its stem when the two
 * differ ("running=" beside run). The stem lets a question's word meet every form of it; the surface
 * term tells which chunks say the very word, where the stem merges two (running shoes and `npm run`,
 * came and cam). No word character, so no other term ends with it; and at the end, so the term
 * shares its bucket with the word's other forms.
 */
export const SURFACE_MARK = '=';

/** Whether a term is a surface term (SURFACE_MARK). */
export function isSurface(term: string): boolean {
  return term.charCodeAt(term.length - 1) === 61;
}

/**
 * The index term that marks an amount of money in a text ("£48", "€1,150", "$120", "48 €", "99 EUR"), once
 * per amount: a currency sign is no word character, so to the words "£48" is only 48. A surface
 * term (no word ends so, and it does not count in a doc's length); a question asking what
 * something cost looks for it (intent.ts), and the advice around money ("list your fixed costs
 * first") has none.
 */
export const MONEY_TERM = `¤${SURFACE_MARK}`;
// A number is tried from its first digit only, and its groups are bounded: "1,1,1,…" over 80 KB
// (a CSV of numbers) took 10 s with an unbounded group tried from every digit. A dollar sign counts
// before two digits, a decimal or k only: `$1` and `$2` are a shell's arguments and SQL's
// placeholders ("$5" alone goes unmarked).
const MONEY =
  /(?<![\w$])(?:[£€¥₹]|(?:us|au|a|ca|c|nz|hk|s)?\$(?=\d{2}|\d[.,]\d|\d\s?k\b)|(?:eur|usd|gbp|chf)\s?)\s?\d|(?<![\d.,])\d{1,15}(?:[.,]\d{1,3}){0,4}\s?k?\s?(?:[£€]|(?:eur|euros?|usd|gbp|chf|dollars?|quid|bucks)(?![\p{L}\p{N}_]))/giu;

/** How many amounts of money a text says (MONEY_TERM). */
export function moneyAmounts(text: string): number {
  let n = 0;
  MONEY.lastIndex = 0;
  while (MONEY.exec(text) !== null) n += 1;
  return n;
}

/**
 * All index terms of a text, in order, with repeats (for term frequency). With `raw`, the unstemmed
 * lower-case form of each term lands at the same position (queries match prefixes on it: "rende"
 * must still start "render" though its stem is "rend"). Surface terms only with `surfaces`: they
 * sharpen a question's own words, and would count twice in anything else.
 */
export function tokenize(text: string, raw?: string[], surfaces = false): string[] {
  const out: string[] = [];
  const list = words(text);
  for (let w = 0; w < list.length; w++) {
    const word = list[w] as string;
    if (!indexable(word)) continue; // base64 blobs, minified lines: noise
    const pairs = wordTerms(word);
    for (let i = 0; i < pairs.length; i += 2) {
      const term = pairs[i] as string;
      if (!surfaces && isSurface(term)) continue;
      out.push(term);
      raw?.push(pairs[i + 1] as string);
    }
  }
  return out;
}

// Code vocabularies repeat: most words of a chunk were seen in an earlier one. Caching each word's
// terms made indexing about twice as fast. Bounded: cleared when full.
const WORD_CACHE_LIMIT = 50_000;
const wordCache = new Map<string, readonly string[]>();

/** Longer words are not indexed (base64 blobs, minified lines). */
export const MAX_WORD = 120;
/** A run of CJK text is one "word" up to the next punctuation: a sentence, indexed by its pairs. */
const MAX_CJK_WORD = 4000;

/** Whether a word is indexed: not a blob, but a CJK sentence may be long. */
export function indexable(word: string): boolean {
  return word.length <= MAX_WORD || (word.length <= MAX_CJK_WORD && CJK.test(word));
}

// Han, kana and Hangul: written without spaces between words (Korean attaches its particles), so a
// run of them is indexed by its overlapping pairs of characters, the usual unit of CJK search: 数据库
// gives 数据 and 据库, which a question holding 数据库 anywhere in a sentence finds.
const CJK = /[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/;
const CJK_RUN = /[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]+/g;

/** The terms of one word, as [term, raw lower-case form, term, raw, …], surface terms included. */
export function wordTerms(word: string): readonly string[] {
  let pairs = wordCache.get(word);
  if (pairs !== undefined) return pairs;
  pairs = computeWordTerms(word);
  if (wordCache.size >= WORD_CACHE_LIMIT) wordCache.clear();
  wordCache.set(word, pairs);
  return pairs;
}

function computeWordTerms(word: string): string[] {
  const out: string[] = [];
  // A word said on its own (not a piece of an identifier) keeps its surface term when stemming
  // changed it: code repeats its identifiers' pieces, and their exact forms sharpen nothing.
  const push = (lower: string, exact = false, surface = true) => {
    const term = exact ? lower : stem(lower);
    out.push(term, lower);
    if (surface && term !== lower) out.push(lower + SURFACE_MARK, lower);
  };
  if (LOWER_WORD.test(word)) {
    // Most words: lower case letters only, nothing to split.
    if (!STOP.has(word)) push(word);
    // A product named with a kind's suffix, as a command or a log writes it ("timescaledb",
    // "mongodb", "nodejs"), also stands for its name alone: a question says Timescale or Mongo.
    const name = productName(word);
    if (name !== undefined && !STOP.has(name)) push(name, false, false);
    return out;
  }
  if (CJK.test(word)) {
    // Pairs of each CJK run (a lone character alone); the rest of the word as any word.
    let at = 0;
    CJK_RUN.lastIndex = 0;
    for (let m = CJK_RUN.exec(word); m !== null; m = CJK_RUN.exec(word)) {
      if (m.index > at) out.push(...otherTerms(word.slice(at, m.index)));
      const run = m[0];
      if (run.length === 1) push(run, true);
      for (let i = 0; i + 1 < run.length; i++) push(run.slice(i, i + 2), true);
      at = m.index + run.length;
    }
    if (at < word.length) out.push(...otherTerms(word.slice(at)));
    return out;
  }
  const parts = word.includes('/') ? word.split('/').filter((p) => p !== '') : [word];
  // A path contributes its segments (and the base name whole); anything else its whole form.
  for (const part of parts) {
    const lower = part.toLowerCase();
    // An acronym's plural, APIs, URLs, IDs: the acronym (split on case, it gave "ap", "ur", "ds").
    if (ACRONYM_PLURAL.test(part)) {
      const acronym = lower.slice(0, -1);
      if (!STOP.has(acronym)) out.push(acronym, lower);
      // And as typed in lower case where its stem is not the acronym: "apis", "prs" stem to themselves.
      const typed = stem(lower);
      if (typed !== acronym) out.push(typed, lower);
      continue;
    }
    const pieces = splitIdentifier(part);
    // A compound name stays whole (its pieces are stemmed): parseConfigFile, not parseconfigfil.
    if (!STOP.has(lower)) push(lower, pieces.length > 1);
    if (pieces.length > 1) {
      for (const p of pieces) {
        const piece = p.toLowerCase();
        if (piece.length >= 2 && !STOP.has(piece)) push(piece, false, false);
      }
    }
  }
  return out;
}

const ACRONYM_PLURAL = /^[A-Z]{2,}s$/;

/** The terms of a word's part between CJK runs, without the joiners that tied it to them. */
function otherTerms(part: string): string[] {
  const bare = part.replace(/^[.\-/]+|[.\-/]+$/g, '');
  // A blob beside a CJK word is still a blob.
  return bare === '' || bare.length > MAX_WORD ? [] : computeWordTerms(bare);
}

/** Terms for a query: the same tokenizer, without repeats. */
export function queryTerms(text: string): string[] {
  return [...new Set(tokenize(text))];
}

const KEYWORD_SCAN_CHARS = 64 * 1024;

export interface KeywordInput {
  text: string;
  files?: readonly string[];
  max?: number;
}

/**
 * Salient keywords for a chunk's frontmatter: code-like words first (identifiers with case or `_`,
 * paths, error codes, numbers with units), then the most frequent other terms.
 */
export function keywords(input: KeywordInput): string[] {
  const max = input.max ?? 16;
  const picked = new Set<string>();
  for (const file of input.files ?? []) {
    const base = file.split(/[/\\]/).pop();
    if (base !== undefined && base !== '') picked.add(base.toLowerCase());
  }
  const counts = new Map<string, number>();
  // The start of a long text says what it is; scanning all of a 500 KB log part costs ~50 ms.
  const text = input.text.length > KEYWORD_SCAN_CHARS ? input.text.slice(0, KEYWORD_SCAN_CHARS) : input.text;
  for (const raw of words(text)) {
    if (raw.length > 80 || raw.length < 3) continue;
    const lower = raw.toLowerCase();
    if (STOP.has(lower)) continue;
    // A plain word (lower case or capitalised) is never code-like: skip the three tests.
    const codeLike = !PLAIN_WORD.test(raw) && (/[a-z][A-Z]|_|\.[a-z]{1,4}$/.test(raw) || ERROR_CODE.test(raw) || NUMBER_UNIT.test(raw));
    if (codeLike && picked.size < max) {
      picked.add(lower.includes('/') ? (lower.split('/').pop() ?? lower) : lower);
      // Full of code-like words: the frequent ones would not get in, so the rest needs no scan (half
      // the chunks of the bench's synthesized backfill end here; keywords took a fifth of its main thread).
      if (picked.size >= max) return [...picked];
    } else if (!/^\d+$/.test(lower)) counts.set(lower, (counts.get(lower) ?? 0) + 1);
  }
  const frequent = [...counts.entries()].filter(([, n]) => n > 1).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  for (const [term] of frequent) {
    if (picked.size >= max) break;
    picked.add(term);
  }
  return [...picked].slice(0, max);
}
