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

const WORD = /[\p{L}\p{N}_$]+(?:[.\-/][\p{L}\p{N}_$]+)*/gu;
const NUMBER_UNIT = /^\d+(?:\.\d+)?(?:ms|s|m|h|d|kb|mb|gb|tb|k|px|%|x)$/i;
const ERROR_CODE = /^(?:[A-Z]{1,5}\d{2,5}|E[A-Z]{3,}|HTTP\d{3})$/;

/** Split an identifier into its words: HTTPServerError2 → http, server, error, 2. */
export function splitIdentifier(word: string): string[] {
  return word
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([A-Za-z])(\d)/g, '$1 $2')
    .split(/[\s_\-.$/]+/)
    .filter((p) => p !== '');
}

export function stem(term: string): string {
  if (term.length <= 3 || !/^[a-z]+$/.test(term)) return term; // names, paths, codes stay exact
  if (term.endsWith('ies') && term.length > 4) return `${term.slice(0, -3)}y`;
  if (term.endsWith('sses')) return term.slice(0, -2);
  if (term.endsWith('s') && !/(?:ss|us|is|os|as)$/.test(term)) return term.slice(0, -1);
  if (term.endsWith('ing') && term.length > 6) return term.slice(0, -3);
  if (term.endsWith('ed') && term.length > 5 && !term.endsWith('eed')) return term.slice(0, -2);
  return term;
}

/** All index terms of a text, in order, with repeats (for term frequency). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(WORD)) {
    const raw = match[0];
    if (raw.length > 120) continue; // base64 blobs, minified lines: noise
    const whole = raw.toLowerCase();
    const parts = raw.includes('/') ? raw.split('/').filter((p) => p !== '') : [raw];
    // A path contributes its segments (and the base name whole); anything else its whole form.
    if (parts.length > 1) {
      for (const part of parts) pushWord(part, out);
      continue;
    }
    if (!STOP.has(whole)) out.push(whole.length > 2 || /\d/.test(whole) ? stem(whole) : whole);
    const pieces = splitIdentifier(raw);
    if (pieces.length > 1) for (const p of pieces) pushPiece(p, out);
  }
  return out;
}

function pushWord(word: string, out: string[]): void {
  const lower = word.toLowerCase();
  if (!STOP.has(lower)) out.push(stem(lower));
  const pieces = splitIdentifier(word);
  if (pieces.length > 1) for (const p of pieces) pushPiece(p, out);
}

function pushPiece(piece: string, out: string[]): void {
  const lower = piece.toLowerCase();
  if (lower.length < 2 || STOP.has(lower)) return;
  out.push(stem(lower));
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
  for (const match of text.matchAll(WORD)) {
    const raw = match[0];
    if (raw.length > 80 || raw.length < 3) continue;
    const lower = raw.toLowerCase();
    if (STOP.has(lower)) continue;
    const codeLike = /[a-z][A-Z]|_|\.[a-z]{1,4}$/.test(raw) || ERROR_CODE.test(raw) || NUMBER_UNIT.test(raw);
    if (codeLike && picked.size < max) picked.add(lower.includes('/') ? (lower.split('/').pop() ?? lower) : lower);
    else if (!/^\d+$/.test(lower)) counts.set(lower, (counts.get(lower) ?? 0) + 1);
  }
  const frequent = [...counts.entries()].filter(([, n]) => n > 1).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  for (const [term] of frequent) {
    if (picked.size >= max) break;
    picked.add(term);
  }
  return [...picked].slice(0, max);
}
