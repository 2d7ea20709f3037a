// Secret redaction applied before anything of the user's is written: `<private>` regions removed,
// then every rule of secret-rules.ts, each hit becoming `[REDACTED:<kind>]`. The rules' literals are
// found in one pass per text, and a rule whose literal (or gate) the text lacks is skipped; the
// rules that need a secret-like name run only on the lines that hold one.

import { stripAnsi } from './plain-text.ts';
import { GATE_WORDS, NAME_WORD, RULES, type Rule } from './secret-rules.ts';

export interface Redaction {
  text: string;
  count: number;
  kinds: string[];
}

/**
 * Texts this short are remembered: a hook redacts a command three times (its event line, its phase
 * signal, its digest). Longer ones are not: with 8 K, a backfill's distinct chunk texts cost 10–20% more
 * to redact (each lookup hashes the whole text).
 */
const MEMO_CHARS = 1_024;
const MEMO_ENTRIES = 16;
const memo = new Map<string, Redaction>();

/**
 * The text with private regions and secrets replaced by markers. The same short text again (a
 * hook's command, read for its event, its phase signal and its digest) is answered from memory:
 * running a regex a second time makes V8 compile it to machine code, which costs a short-lived
 * process ~1 ms over the rules it ran.
 */
export function redact(input: string): Redaction {
  if (input.length > MEMO_CHARS) return redactOnce(input);
  let result = memo.get(input);
  if (result === undefined) {
    result = redactOnce(input);
    if (memo.size >= MEMO_ENTRIES) memo.delete(memo.keys().next().value as string);
    memo.set(input, result);
  }
  return { text: result.text, count: result.count, kinds: [...result.kinds] };
}

function redactOnce(input: string): Redaction {
  // Colour codes out first: one inside a token ("ghp_\x1b[0m…") would hide it from the patterns.
  let text = stripPrivate(stripAnsi(input));
  let count = 0;
  const kinds = new Set<string>();
  // A long output archived in parts can cut a private key in two: the second part starts inside
  // the key and has its END line but no BEGIN. Everything before that END is key material.
  const end = /-----END [A-Z ]{0,40}PRIVATE KEY-----/.exec(text);
  if (end !== null && !/-----BEGIN [A-Z ]{0,40}PRIVATE KEY-----/.test(text.slice(0, end.index))) {
    text = `[REDACTED:private-key]${text.slice(end.index + end[0].length)}`;
    count += 1;
    kinds.add('private-key');
  }
  const replacer =
    (rule: Rule) =>
    (...args: unknown[]): string => {
      const match = args[0] as string;
      if (rule.group === undefined) {
        count += 1;
        kinds.add(rule.kind);
        return `[REDACTED:${rule.kind}]`;
      }
      const prefix = (args[1] as string | undefined) ?? '';
      const secret = (args[rule.group] as string | undefined) ?? '';
      if (secret === '' || secret.includes('[REDACTED')) return match;
      if (rule.accept !== undefined && !rule.accept(secret)) return match;
      if (rule.around !== undefined) {
        // After the groups come the match's offset and the text (and the named groups, if any).
        const n = typeof args[args.length - 1] === 'string' ? args.length - 1 : args.length - 2;
        const start = (args[n - 1] as number) + prefix.length;
        if (!rule.around(args[n] as string, start, start + secret.length)) return match;
      }
      count += 1;
      kinds.add(rule.kind);
      return `${prefix}[REDACTED:${rule.kind}]${match.slice(prefix.length + secret.length)}`;
    };
  // A gate shared by several rules is tested once (each test scans the text; a rule's replacement
  // never adds what a gate looks for), and only on a text that holds its words (GATE_WORDS, in lower
  // case for a case-insensitive gate): most texts lack them, and a gate costs a hook more to compile
  // than to scan.
  const gates = new Map<RegExp, boolean>();
  let lower: string | undefined;
  const holds = (gate: RegExp, groups: readonly (readonly string[])[]) => {
    if (gate.ignoreCase && lower === undefined) lower = text.toLowerCase();
    const hay = gate.ignoreCase ? (lower as string) : text;
    return groups.every((words) => words.some((w) => hay.includes(w)));
  };
  const gated = (gate: RegExp) => {
    const known = gates.get(gate);
    if (known !== undefined) return known;
    const groups = GATE_WORDS.get(gate);
    const open = (groups === undefined || holds(gate, groups)) && gate.test(text);
    gates.set(gate, open);
    return open;
  };
  // The hints this text holds, found once (a replacement never adds one a rule could then match:
  // a marker is never taken for a secret).
  const present = hintsIn(text);
  const hinted = (rule: Rule) => rule.hints === undefined || rule.hints.some((h) => present.has(h));
  for (const rule of RULES) {
    if (rule.named === true) continue;
    if (!hinted(rule)) continue;
    if (rule.gate !== undefined && !gated(rule.gate)) continue;
    const before = count;
    text = text.replace(rule.pattern, replacer(rule));
    if (count !== before) lower = undefined;
  }
  // The named rules each try up to 40 characters at every position, and none matches across a line
  // (names and values hold no newline): run them, in order, on the lines that hold a name only.
  let out = '';
  let last = 0;
  const names = NAME_WORDS;
  // A named rule with hints runs only when the text holds one of them (most texts hold no `aws` or `--set`).
  const named = NAMED_RULES.filter((rule) => hinted(rule) && (rule.gate === undefined || gated(rule.gate)));
  names.lastIndex = 0;
  for (let m = names.exec(text); m !== null; m = names.exec(text)) {
    const start = text.lastIndexOf('\n', m.index) + 1;
    const newline = text.indexOf('\n', m.index);
    const end = newline === -1 ? text.length : newline;
    let line = text.slice(start, end);
    for (const rule of named) line = line.replace(rule.pattern, replacer(rule));
    out += text.slice(last, start) + line;
    last = end;
    names.lastIndex = end;
  }
  text = last === 0 ? text : out + text.slice(last);
  return { text, count, kinds: [...kinds] };
}

const NAMED_RULES = RULES.filter((r) => r.named === true);

// Every rule's hints, looked for in one pass, longest first, the next search starting one character
// after a hit's start (hints overlap: "_password" holds "pass"). One `includes` per hint, most of
// them scanning a whole text for a hint it lacks, took twice as long in a warm process (a backfill);
// in a cold one (a hook) the two came out within noise. A lookahead, `(?=(…))`, finds the same
// hints a fifth to a third slower: the engine cannot skip ahead to a hint's first characters through it.
export const HINTS = [...new Set(RULES.flatMap((r) => r.hints ?? []))].sort((a, b) => b.length - a.length);
const HINT_SCAN = new RegExp(HINTS.map((h) => h.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'), 'g');
/** The hints each hint starts with: where both start, the scan reports only the longer. */
const HINT_PREFIXES = new Map(HINTS.map((h) => [h, HINTS.filter((o) => o !== h && h.startsWith(o))]));

/** The hints a text holds (exported for its test: it must find what `includes` finds). */
export function hintsIn(text: string): Set<string> {
  const found = new Set<string>();
  HINT_SCAN.lastIndex = 0;
  for (let m = HINT_SCAN.exec(text); m !== null; m = HINT_SCAN.exec(text)) {
    const hint = m[0];
    if (!found.has(hint)) {
      found.add(hint);
      for (const p of HINT_PREFIXES.get(hint) ?? []) found.add(p);
    }
    HINT_SCAN.lastIndex = m.index + 1;
  }
  return found;
}
/** NAME_WORD, global: where the lines holding a name are. */
const NAME_WORDS = new RegExp(NAME_WORD.source, 'gi');

/**
 * `<private>…</private>` regions (any case) never leave the session. A region ends at the close tag
 * that balances its open tag, so one nested inside it does not end it; an unclosed tag hides the rest.
 * A close tag before any open tag hides what comes before it: a long output archived in parts (a
 * persisted output, read part by part) can cut a region in two, and the second part starts inside it.
 */
export function stripPrivate(text: string): string {
  if (!PRIVATE_TAG.test(text)) return text;
  const tags = /<(\/?)private>/gi;
  let out = '';
  let depth = 0;
  let kept = 0;
  let opened = false;
  for (let m = tags.exec(text); m !== null; m = tags.exec(text)) {
    if (m[1] === '') {
      if (depth === 0) out += `${text.slice(kept, m.index)}[PRIVATE]`;
      depth += 1;
      opened = true;
    } else if (depth > 0) {
      depth -= 1;
      if (depth === 0) kept = m.index + m[0].length;
    } else if (!opened) {
      out = '[PRIVATE]';
      kept = m.index + m[0].length;
    }
  }
  return depth > 0 ? out : out + text.slice(kept);
}
const PRIVATE_TAG = /<\/?private>/i;

export function redactText(input: string): string {
  return redact(input).text;
}
