// Facts of a coding session for the phase ledgers: the user's constraints and requirements, the
// assistant's decisions (with reason, choice and rejected alternatives), next steps and open items.
// Deterministic and pattern-based. Precision comes first: a ledger padded with "I'll read the file"
// is worse than one that misses a decision, so a sentence counts as a decision only with a choice
// verb ("went with", "chose", "switched to"…), a "Decision:" label or heading, or a design verb
// ("use", "keep", "store"…) that comes with a justification (a reason or a rejected alternative).
// "The fix: …" is a repair, not a choice, and is not a decision unless it states one.
// Pure: no I/O, no clock. Every regex is linear (bounded quantifiers only).

export type FactKind = 'decision' | 'constraint' | 'requirement' | 'next-step' | 'open-item' | 'value';

export interface Fact {
  kind: FactKind;
  /** The sentence or bullet it came from, whitespace collapsed, markdown emphasis/backticks kept, at most 300 chars (cut at a word with …). */
  text: string;
  /** decision: the reason given ("because …", "since …", "so that …", "— …" after a choice), if any. */
  reason?: string;
  /** decision: what was chosen, a short noun phrase ("zod", "a worker thread", "exponential backoff"), if it can be found. */
  chosen?: string;
  /** decision: the alternatives rejected ("over X", "instead of X", "rather than X", "not X", "switched from X"), if any. */
  rejected?: string[];
}

const MAX_LINE = 1000;
const MAX_TEXT = 300;
/** Longer "sentences" (a paragraph without punctuation) are cut before matching. */
const MAX_SENTENCE = 1000;
const MAX_PHRASE_WORDS = 6;

// ---------------------------------------------------------------------------------------------
// Text to units: sentences and bullets, with the context a classifier needs.

interface Unit {
  /** The sentence as written (markdown kept), whitespace collapsed. */
  text: string;
  /** The same for matching: emphasis and backticks dropped, curly quotes straightened. */
  plain: string;
  bullet: boolean;
  /** The plain text of the line that introduces this bullet list ("Next steps:"), or ''. */
  leadIn: string;
  /** The plain text of the nearest heading above, or ''. */
  heading: string;
  /** First sentence of its paragraph or bullet. */
  first: boolean;
  /** In the first paragraph or bullet list under a heading. */
  opensSection: boolean;
  /** In the message's last paragraph or bullet. */
  last: boolean;
}

interface Block {
  type: 'para' | 'bullet' | 'heading';
  text: string;
  heading: string;
  leadIn: string;
  opensSection?: boolean;
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const HEADING = /^\s{0,3}#{1,6}\s+(.*)$/;
const BULLET = /^\s{0,12}(?:[-*+•]|\d{1,3}[.)])\s+(\S.*)$/;
const INDENTED = /^\s{2,}\S/;

/** Drops `<system-reminder>` blocks: harness text inside a prompt, not the user's words. */
function stripReminders(text: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const open = text.indexOf('<system-reminder>', from);
    if (open < 0) break;
    const close = text.indexOf('</system-reminder>', open);
    out += text.slice(from, open);
    if (close < 0) return out;
    from = close + '</system-reminder>'.length;
  }
  return out + text.slice(from);
}

/** Paragraphs, bullets and headings, outside code fences, quotes and overlong lines. */
function blocks(text: string): Block[] {
  const out: Block[] = [];
  let fence = '';
  let heading = '';
  let para: string[] = [];
  let current: Block | undefined;
  const flushPara = () => {
    if (para.length > 0) out.push({ type: 'para', text: para.join(' '), heading, leadIn: '' });
    para = [];
  };
  for (const line of text.split('\n')) {
    const f = FENCE.exec(line);
    if (fence !== '') {
      // A fence closes with the same character, at least as long as the one that opened it.
      if (f?.[1] && f[1][0] === fence[0] && f[1].length >= fence.length) fence = '';
      continue;
    }
    if (f?.[1]) {
      flushPara();
      current = undefined;
      fence = f[1];
      continue;
    }
    const trimmed = line.trim();
    if (trimmed === '' || line.length > MAX_LINE || trimmed.startsWith('>') || trimmed.startsWith('|')) {
      flushPara();
      current = undefined;
      continue;
    }
    const h = HEADING.exec(line);
    if (h) {
      flushPara();
      heading = toPlain(h[1] ?? '').trim();
      current = { type: 'heading', text: h[1] ?? '', heading, leadIn: '' };
      out.push(current);
      current = undefined;
      continue;
    }
    const b = BULLET.exec(line);
    if (b) {
      flushPara();
      current = { type: 'bullet', text: b[1] ?? '', heading, leadIn: '' };
      out.push(current);
      continue;
    }
    if (current?.type === 'bullet' && INDENTED.test(line)) {
      current.text += ` ${trimmed}`;
      continue;
    }
    current = undefined;
    para.push(trimmed);
  }
  flushPara();
  return withLeadIns(out);
}

/** A bullet list's lead-in: the heading or the ':'-ended paragraph right before the list. */
function withLeadIns(list: Block[]): Block[] {
  let leadIn = '';
  let previous: Block['type'] | undefined;
  for (const block of list) {
    const after = previous;
    previous = block.type;
    if (block.type === 'bullet') {
      block.leadIn = leadIn;
      block.opensSection = after === 'heading' || (after === 'bullet' && block.leadIn !== '' && block.leadIn === block.heading);
      continue;
    }
    if (block.type === 'heading') {
      leadIn = toPlain(block.text).trim();
      continue;
    }
    block.opensSection = after === 'heading';
    const last = splitSentences(block.text).at(-1) ?? '';
    const plain = toPlain(last).trim();
    leadIn = plain.endsWith(':') ? plain : '';
  }
  return list;
}

const CLOSERS = new Set(['.', '!', '?', ')', '"', "'", '”', '’', '*', '_', '…']);
const ABBREVIATIONS = new Set(['e.g', 'i.e', 'etc', 'vs', 'cf', 'approx', 'incl', 'eg', 'ie', 'al', 'mr', 'mrs', 'ms', 'dr', 'fig', 'no', 'nr']);
/** Inline code longer than this is taken for a stray backtick, so splitting resumes. */
const MAX_INLINE_CODE = 200;

/** Sentence ends: . ! ? … followed by whitespace, outside inline code, not after an abbreviation. */
function splitSentences(s: string): string[] {
  const out: string[] = [];
  let start = 0;
  let codeFrom = -1;
  // Only backticks and sentence marks matter: a native scan jumps to them (hooks run cold, where a
  // loop over every character costs more than the regex that skips them).
  const marks = /[`.!?…]/g;
  for (let m = marks.exec(s); m !== null; m = marks.exec(s)) {
    const i = m.index;
    const c = s[i];
    if (c === '`') {
      // A stray backtick: code that runs on too long is taken for none, and splitting resumes.
      codeFrom = codeFrom >= 0 && i - 1 - codeFrom <= MAX_INLINE_CODE ? -1 : i;
      continue;
    }
    if (codeFrom >= 0 && i - codeFrom > MAX_INLINE_CODE) codeFrom = -1;
    if (codeFrom >= 0) continue;
    let j = i + 1;
    while (j < s.length && CLOSERS.has(s[j] ?? '')) j++;
    if (j < s.length && s[j] !== ' ' && s[j] !== '\t') continue;
    if (c === '.' && ABBREVIATIONS.has(wordBefore(s, i))) continue;
    out.push(s.slice(start, j));
    start = j;
    marks.lastIndex = j;
  }
  out.push(s.slice(start));
  return out.map((x) => x.trim()).filter((x) => x !== '');
}

/** The lower-cased run of letters and dots ending at `end` (exclusive), for abbreviations. */
function wordBefore(s: string, end: number): string {
  let i = end;
  while (i > 0 && end - i < 8 && /[A-Za-z.]/.test(s[i - 1] ?? '')) i--;
  return s.slice(i, end).toLowerCase();
}

const EMPHASIS_OPEN = /(^|[\s(])[*_]{1,2}(?=\S)/g;
const EMPHASIS_CLOSE = /(\S)[*_]{1,2}(?=[\s.,;:!?)]|$)/g;

/** Text for matching: no emphasis markers or backticks, straight quotes, collapsed spaces. */
function toPlain(s: string): string {
  // Each replace is skipped when it has nothing to do: most sentences have no markup.
  let t = s;
  if (CURLY.test(t)) t = t.replace(CURLY_ALL, "'");
  if (t.includes('`')) t = t.replace(/`/g, '');
  if (t.includes('*') || t.includes('_'))
    t = t
      .replace(/\*\*|__/g, '')
      .replace(EMPHASIS_OPEN, '$1')
      .replace(EMPHASIS_CLOSE, '$1');
  if (SPACES.test(t)) t = t.replace(/\s+/g, ' ');
  return t.trim();
}

const CURLY = /[’‘]/;
const CURLY_ALL = /[’‘]/g;
/** Whitespace that `\s+ → ' '` would change: a run, or one that is not a plain space. */
const SPACES = /\s\s|[^\S ]/;

/** Whitespace collapsed, at most 300 chars, cut at a word with an ellipsis. */
function clip(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  if (t.length <= MAX_TEXT) return t;
  const cut = t.slice(0, MAX_TEXT - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > MAX_TEXT / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** "Next steps:", "A few ground rules for this repo:": a list's introduction, not a fact. */
const LABEL_ONLY = /^\S+(?: \S+){0,7}:$/;

function units(text: string): Unit[] {
  const list = blocks(stripReminders(text.replace(/\r\n?/g, '\n')));
  const out: Unit[] = [];
  list.forEach((block, index) => {
    const sentences = splitSentences(block.text);
    sentences.forEach((sentence, k) => {
      const whole = toPlain(sentence);
      if (LABEL_ONLY.test(whole)) return;
      const cut = sentence.length > MAX_SENTENCE ? sentence.slice(0, MAX_SENTENCE) : sentence;
      out.push({
        text: clip(cut),
        plain: cut === sentence ? whole : toPlain(cut),
        bullet: block.type === 'bullet',
        leadIn: block.leadIn,
        heading: block.type === 'heading' ? '' : block.heading,
        first: k === 0,
        opensSection: block.opensSection === true,
        last: index === list.length - 1,
      });
    });
  });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Decisions.

/** "Decision: …", "Choice — …" at the start of a sentence or bullet. */
const DECISION_LABEL =
  /^(?:the |final |our |my ){0,2}(?:decision|decided|choice|chosen approach|resolution|verdict|conclusion)\s{0,3}(?::|—|–|-)\s{0,3}(\S.{0,999})$/i;
const DECISION_NOUN = /\b(?:my|our|the) (?:final )?(?:decision|choice|call) (?:here )?(?:is|was)\b/i;
/** Headings and lead-ins whose content is a decision ("## Decision", "Two decisions worth flagging:"). */
const DECISION_HEADING = /^(?:decisions?|chosen approach|resolution|what i chose)\b/i;
const DECISION_LEAD_IN = /\b(?:decisions?|choices?|chose|decided|trade-?offs?)\b/i;

/** Verbs that pick one thing over others: enough on their own. */
const CHOICE_VERB =
  /^(?:go(?:ing)? with|gone with|went with|cho(?:se|ose|osing|sen)\b|opt(?:ed|ing)? (?:for|to)\b|settl(?:e|ed|ing) on|pick(?:ed|ing)?\b|select(?:ed|ing)?\b|stick(?:ing)? (?:with|to)|stuck (?:with|to)|stay(?:ing)? with|switch(?:ed|ing)? (?:to|from|over)|replac(?:e|ed|ing)\b|prefer(?:red|ring)?\b|decid(?:e|ed|ing) (?:to|on|against)|adopt(?:ed|ing)?\b)/i;

/** First person (or "let's"), an optional auxiliary and up to two adverbs, then the verb. */
const SUBJECT_VERB =
  /\b(?:i|we|let's|let us)(?<aux>'ll| will| shall|'m going to| am going to|'re going to| are going to| should| must|'ve decided to| have decided to| decided to| want to| plan to|'ve| have|'m| am|'re| are|'d| would| could| might| can| may)?(?: (?:just|also|now|then|instead|first|simply|still|rather|definitely|actually|really|only|therefore|thus|honestly)){0,2} (?<verb>[a-z][a-z-]{0,30})/gi;

/** "I won't …", "we decided not to …": a choice not to do something. */
const NEGATIVE_CHOICE =
  /\b(?:i|we)(?<aux> won't| will not|'ll not|'m not going to| am not going to|'re not going to| are not going to| decided not to|'ve decided not to| have decided not to| chose not to| don't need to| do not need to) (?<verb>[a-z][a-z-]{0,30})/i;

/** Auxiliaries that make the choice hypothetical. */
const HYPOTHETICAL_AUX = new Set(["'d", ' would', ' could', ' might', ' can', ' may']);
/** "decided to", "chose not to": the auxiliary itself states the choice. */
const DECISIVE_AUX = /decided|chose/;

/** Words caught in the verb slot that are not verbs of doing (modals, cognition, states). */
const NOT_VERBS = new Set(
  (
    'could would might may can cannot need needs think thought believe guess suppose know knew wonder hope see saw found noticed notice was were is am are be been ' +
    'had has have did do does get got like want wanted mean meant agree not won also just still feel felt ran already'
  ).split(' '),
);

/** Verbs of doing, not of choosing: "I'll read the file", "let's check the logs". */
const ACTIONS = new Set(
  (
    'read reread check look run rerun grep search open inspect investigate try test verify explore start begin examine debug trace reproduce bisect install ' +
    'commit push see find print show list compare analyze analyse continue proceed dig review confirm figure get take scan clone fix update edit create add ' +
    'implement modify summarize summarise explain note mention help wait finish complete apply build go do call ask let need work clean ' +
    'double-check re-run skim walk step dive pull download fetch execute launch attempt profile measure benchmark regenerate rebuild restart stop tell gone'
  ).split(' '),
);

/** Hypothetical or suggesting words in the clause before the verb. */
const HEDGE =
  /\b(?:if|whether|could|might|may|would|maybe|perhaps|possibly|probably|one option|another option|an option|alternatively|recommend|suggest|consider|unless|wonder)\b|\bi'd\b|\bwe'd\b/i;

/** "If it fails, I'll switch to …": a contingency, whatever its verb. */
const CONDITIONAL_START = /^(?:if|unless|in case|should|once)\b/i;

/** A justification after a design verb: a reason or a rejected alternative. */
const JUSTIFICATION =
  /\b(?:because|since|so that|given that|as it's|as it is|as they're|instead of|rather than|to avoid|to drop|to keep|to reduce|to prevent|to save|to cut|to simplify|so)\b|\s[—–]\s|\s--?\s|;\s|,\s?not\s|\bover\s(?!(?:the|a|an|time|http|https|ssh|tls|it|them|there|here|\d)\b)/i;

/** Subjectless starts: summary bullets and terse replies ("Switched from axios to fetch …"). */
const FILLER = /^(?:(?:for now|so|ok|okay|instead|here|honestly|in the end|ultimately|finally|in short|then)[,:]?\s){0,2}/i;
const LEAD_CHOICE = /^(?:going with|went with|switched|switching|replaced|replacing|chose|opted|opting|settled on|sticking with|stuck with|picked|decided)\b/i;
const LEAD_DESIGN = /^(?:using|used|kept|keeping|moved|stored|made)\b/i;

interface Anchor {
  /** Where the choice starts in `plain` (the verb, or the label's body). */
  at: number;
}

/** Where a sentence states a choice, or undefined: the core of the decision classifier. */
function decisionAnchor(u: Unit): Anchor | undefined {
  const p = u.plain;
  if (p.length < 6 || p.endsWith('?')) return undefined;
  const label = DECISION_LABEL.exec(p);
  if (label?.[1]) return { at: p.length - label[1].length };
  // "## Decision" then its first paragraph (first sentence) or bullet list; later paragraphs explain.
  if (DECISION_HEADING.test(u.heading) && u.opensSection && (u.bullet || u.first)) return { at: 0 };
  if (u.bullet && DECISION_LEAD_IN.test(u.leadIn) && bulletStatesChoice(p)) return { at: BULLET_LABEL.exec(p)?.[0].length ?? 0 };
  if (DECISION_NOUN.test(p)) return { at: 0 };
  return subjectless(p) ?? firstPerson(p);
}

const BULLET_LABEL = /^[A-Z][\w /-]{0,30}:\s/;

/** A bullet under "decisions:" counts when it is labelled ("Format: …") or justified. */
function bulletStatesChoice(p: string): boolean {
  return BULLET_LABEL.test(p) || JUSTIFICATION.test(p) || CHOICE_VERB.test(p);
}

function subjectless(p: string): Anchor | undefined {
  const filler = FILLER.exec(p)?.[0].length ?? 0;
  const rest = p.slice(filler);
  if (LEAD_CHOICE.test(rest)) return { at: filler };
  if (!LEAD_DESIGN.test(rest)) return undefined;
  // "Using Postgres advisory locks." is a choice; "Using grep to find it." an action.
  const short = rest.split(' ').length <= 6 && !/\bto\s/.test(rest);
  return short || JUSTIFICATION.test(rest.slice(rest.indexOf(' ') + 1)) ? { at: filler } : undefined;
}

/** What both first-person patterns start with: a cheap scan that rules most sentences out. */
const FIRST_PERSON = /\b(?:i|we|let)\b/i;

function firstPerson(p: string): Anchor | undefined {
  if (!FIRST_PERSON.test(p)) return undefined;
  const neg = NEGATIVE_CHOICE.exec(p);
  if (neg?.groups && !hedged(p, neg.index)) {
    const verbAt = neg.index + neg[0].length - (neg.groups.verb?.length ?? 0);
    if (DECISIVE_AUX.test(neg.groups.aux ?? '') || JUSTIFICATION.test(p.slice(verbAt))) return { at: verbAt };
  }
  for (const m of p.matchAll(SUBJECT_VERB)) {
    const aux = m.groups?.aux ?? '';
    const verb = (m.groups?.verb ?? '').toLowerCase();
    // "decided to <any verb>" states a choice whatever the verb ("decided to do the math in cents").
    if (HYPOTHETICAL_AUX.has(aux.toLowerCase()) || (NOT_VERBS.has(verb) && !DECISIVE_AUX.test(aux)) || hedged(p, m.index)) continue;
    const verbAt = m.index + m[0].length - verb.length;
    const rest = p.slice(verbAt);
    if (CHOICE_VERB.test(rest) || DECISIVE_AUX.test(aux)) return { at: verbAt };
    if (ACTIONS.has(baseForm(verb))) continue;
    if (JUSTIFICATION.test(rest.slice(verb.length))) return { at: verbAt };
  }
  return undefined;
}

/** Whether the clause holding position `at` hedges ("if we wanted, we could …"). */
function hedged(p: string, at: number): boolean {
  if (CONDITIONAL_START.test(p)) return true;
  const before = p.slice(0, at);
  const cut = Math.max(before.lastIndexOf(','), before.lastIndexOf(';'), before.lastIndexOf(':'), before.lastIndexOf('—'), before.lastIndexOf(' but '));
  const clause = before.slice(cut + 1) + p.slice(at, at + 40).split(/[,;:—]/)[0];
  return HEDGE.test(clause);
}

/** "picked" → "pick", "using" → "use": enough to look a verb up in ACTIONS. */
function baseForm(verb: string): string {
  if (ACTIONS.has(verb)) return verb;
  for (const [suffix, repl] of [
    ['ing', ''],
    ['ing', 'e'],
    ['ed', ''],
    ['ed', 'e'],
    ['d', ''],
    ['s', ''],
    ['es', ''],
  ] as const) {
    if (verb.endsWith(suffix) && verb.length > suffix.length + 2) {
      let stem = verb.slice(0, -suffix.length) + repl;
      if (ACTIONS.has(stem)) return stem;
      // "running" → "runn" → "run"
      if (repl === '' && stem.length > 3 && stem.at(-1) === stem.at(-2)) stem = stem.slice(0, -1);
      if (ACTIONS.has(stem)) return stem;
    }
  }
  return verb;
}

const REASON_MARK =
  /\b(?:because|since|so that|given that|as it's|as it is|as they're|which means)\s|\s[—–]\s?|\s--?\s|;\s|:\s|\bso\s|\b(?=(?:in order to|to avoid|to drop|to reduce|to prevent|to save|to cut|to simplify|to keep)\s)/gi;
const CHOSEN_MARK =
  /\b(?:go(?:ing)? with|went with|chose|choose|choosing|opt(?:ed|ing)? for|settl(?:e|ed|ing) on|pick(?:ed|ing)?|select(?:ed|ing)?|stick(?:ing)? with|stuck with|stay(?:ing)? with|switch(?:ed|ing)? to|prefer(?:red)?|us(?:e|ed|ing)|adopt(?:ed|ing)?)\s(?!to\s|it\s|them\s|this\s|that\s)/i;
const SWITCH_FROM = /\bswitch(?:ed|ing)? (?:over )?from\s(.{1,80}?)\sto\s(.{1,120})/i;
const REPLACE_WITH = /\breplac(?:e|ed|ing)\s(.{1,80}?)\swith\s(.{1,120})/i;
const REJECTED_MARK =
  /\b(?:instead of|rather than|(?<!\bto )drop(?:s|ped|ping)?|mov(?:e|ed|ing) (?:away )?from)\s|,\s?not\s|\bover\s(?!(?:the|a|an|time|http|https|ssh|tls|it|them|there|here|\d)\b)/gi;

/** Words that end a short noun phrase. */
const PHRASE_END = new Set(
  (
    'for to because since so over instead rather as in on at with when and but which that here now there from by if unless until while after ' +
    'before then everywhere throughout across into than not keyed generated who'
  ).split(' '),
);

/** A short noun phrase at the start of `s`: up to six words, ended by punctuation or a linking word. */
function phrase(s: string): string | undefined {
  const words: string[] = [];
  for (const raw of s.trim().split(' ')) {
    if (raw === '' || /^[—–-]{1,2}$/.test(raw)) break;
    const word = raw.replace(/[,;.!?)]+$|:$/, '');
    if (words.length > 0 && PHRASE_END.has(word.toLowerCase())) break;
    if (word !== '') words.push(word);
    if (word !== raw || words.length >= MAX_PHRASE_WORDS) break;
  }
  const out = words.join(' ').replace(/^["'(]|["')]$/g, '');
  return out === '' || PHRASE_END.has(out.toLowerCase()) ? undefined : out;
}

function reasonAfter(p: string, at: number): string | undefined {
  REASON_MARK.lastIndex = at;
  const m = REASON_MARK.exec(p);
  if (!m) return undefined;
  // Up to the next "; ": a ledger wants the reason, not the rest of the paragraph.
  const reason = p
    .slice(m.index + m[0].length)
    .split('; ')[0]
    ?.replace(/[.!\s]+$/, '')
    .trim();
  if (reason === undefined) return undefined;
  return reason.length >= 3 ? reason : undefined;
}

/**
 * Options a text rules out by name: "Hystrix isn't an option", "Quartz is off the table", "we're
 * not adding Vuex to anything". A name is a capitalised or code-like word or two, not a word the
 * text also writes in lower case ("Downtime is not an option"), a pronoun or an -ing form.
 * Quantifiers are bounded: the offer is a whole message.
 */
const NAME = String.raw`(?:[A-Z][\w@+#-]{0,40}(?:\.[\w@+#-]{1,20}){0,3}|[a-z]\w{0,40}[0-9@+#.-][\w@+#-]{0,40}(?:\.[\w@+#-]{1,20}){0,3})(?:\s[A-Z][\w@+#-]{0,40}){0,2}`;
const RULED_OUT_BEFORE = new RegExp(
  String.raw`(?:^|[.;:!?—(]\s{1,3}|,\s{1,3}|\b(?:and|but|so)\s)\x60?(${NAME})\x60?\s(?:(?:isn't|is not|aren't|are not)\s(?:an?\s|really\s)?(?:option|viable|choice|on the table)\b|(?:is|are)\s(?:off the table|ruled out|a non-?starter)\b)`,
  'g',
);
const RULED_OUT_AFTER = new RegExp(
  String.raw`\b(?:[Ww]e're|[Ww]e are|[Ww]e'll|[Ww]e will|[Ww]e|I'm|I am|I'll|I will|[Ll]et's)\s(?:not|never|no longer)\s(?:be\s)?(?:adding|using|going with|introducing|pulling in|bringing in|bringing back|adopting|add|use|introduce|adopt)\s(?:the\s)?\x60?(${NAME})`,
  'g',
);
/**
 * "the legacy Input Manager goes", "Redis has to go": said of a name, at a clause's end, in a reply
 * only ("the PR can go" ships it; an offer's "X goes" is as likely to say where it goes).
 */
/** Words before a name that name no other thing: "the legacy Input Manager" is "Input Manager". */
const QUALIFIERS = 'the|legacy|old|current|existing|new';
const LEADING_QUALIFIERS = new RegExp(`^(?:(?:${QUALIFIERS})\\s)+`);
const RULED_OUT_GOES = new RegExp(
  String.raw`(?:^|[.;:!?—(]\s{1,3}|,\s{1,3}|\b(?:and|but|so)\s)(?:(?:${QUALIFIERS})\s){0,2}\x60?(${NAME})\x60?\s(?:goes|has to go)(?=\s{0,3}(?:[.;,!—]|$))`,
  'g',
);
const NOT_A_NAME =
  /^(?:this|that|it|these|those|there|here|which|what|everything|nothing|something|anything|either|neither|both|none|any|all|we|they|you|i|[a-z]+ing|monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tomorrow)$/i;

function ruledOut(text: string, reply = false): string[] {
  const out: string[] = [];
  const plain = toPlain(text);
  const add = (x: string | undefined) => {
    const name = x?.trim();
    if (!name || NOT_A_NAME.test(name) || out.includes(name) || out.length >= 4) return;
    // A word the text also writes in lower case is a common word at a sentence's start.
    if (/^[A-Z][a-z]+$/.test(name) && new RegExp(String.raw`(?<![\w-])${name.toLowerCase()}(?![\w-])`).test(plain)) return;
    out.push(name);
  };
  for (const m of plain.matchAll(RULED_OUT_BEFORE)) add(m[1]);
  if (reply) for (const m of plain.matchAll(RULED_OUT_GOES)) add(m[1]);
  // After "not adding": a name only, the case of its first letter as written.
  for (const m of plain.matchAll(RULED_OUT_AFTER)) if (/^(?:[A-Z]|\S*[0-9@+#-])/.test(m[1] ?? '')) add(m[1]);
  return out;
}

/** A reply's first three sentences: where it says what it turns down beside its pick. */
const replyStart = (list: readonly Unit[]) =>
  list
    .slice(0, 3)
    .map((u) => u.plain)
    .join(' ');

/** What the offer rules out by name, then what the reply's first sentences do. */
const ruledOutBoth = (list: readonly Unit[], answered: string) => [...ruledOut(answered), ...ruledOut(replyStart(list), true)];

/**
 * `a` and then the names of `b` it lacks (any case, and a qualifier before a name is no other
 * name: "legacy Input Manager" is "Input Manager"; "React Native" is not "React"), at most four,
 * `chosen` left out.
 */
function withRuledOut(a: readonly string[], b: readonly string[], chosen: string | undefined): string[] {
  const out = [...a];
  const bare = (x: string) => x.toLowerCase().replace(LEADING_QUALIFIERS, '');
  for (const x of b) {
    if (out.length >= 4) break;
    if (!out.some((y) => bare(y) === bare(x)) && (chosen === undefined || bare(chosen) !== bare(x))) out.push(x);
  }
  return out;
}

function chosenAndRejected(p: string, at: number): { chosen?: string; rejected: string[] } {
  const rest = p.slice(at);
  const rejected: string[] = [];
  const add = (x: string | undefined) => {
    if (x && !rejected.includes(x)) rejected.push(x);
  };
  let chosen: string | undefined;
  const sw = SWITCH_FROM.exec(rest);
  const rep = REPLACE_WITH.exec(rest);
  if (sw) {
    add(phrase(sw[1] ?? ''));
    chosen = phrase(sw[2] ?? '');
  } else if (rep) {
    add(phrase(rep[1] ?? ''));
    chosen = phrase(rep[2] ?? '');
  } else {
    const m = CHOSEN_MARK.exec(rest);
    if (m) chosen = phrase(rest.slice(m.index + m[0].length));
  }
  REJECTED_MARK.lastIndex = 0;
  for (const m of rest.matchAll(REJECTED_MARK)) add(phrase(rest.slice(m.index + m[0].length)));
  return chosen === undefined ? { rejected } : { chosen, rejected };
}

function decisionFact(u: Unit): Fact | undefined {
  const anchor = decisionAnchor(u);
  if (!anchor) return undefined;
  const fact: Fact = { kind: 'decision', text: u.text };
  const reason = reasonAfter(u.plain, anchor.at);
  const { chosen, rejected } = chosenAndRejected(u.plain, anchor.at);
  if (reason) fact.reason = reason;
  if (chosen) fact.chosen = chosen;
  if (rejected.length > 0) fact.rejected = rejected;
  return fact;
}

// ---------------------------------------------------------------------------------------------
// Next steps and open items.

const NEXT_LEAD_IN =
  /^(?:next steps?|next up|up next|next|remaining work|remaining|what's left|left to do|still to do|follow[- ]ups?|plan|the plan)\s{0,3}:?$/i;
const OPEN_LEAD_IN = /^(?:todos?|to ?dos?|open questions?|open items?|known issues?|known limitations?|unresolved|blockers?)\s{0,3}:?$/i;
const NEXT_INLINE = /^(?:next steps?|next up|up next|next|remaining work|remaining|follow[- ]ups?)\s{0,3}:\s{0,3}\S/i;
const NEXT_SELF = /^(?:next|after that|afterwards),?\s(?:i|we)(?:'ll| will| can| need to)\s/i;
const THEN_SELF = /^then,?\s(?:i|we)(?:'ll| will)\s/i;
const OPEN_CASE = /^(?:TODO|FIXME|XXX)\b|\b(?:TODO|FIXME)\s{0,3}:/;
const OPEN =
  /\bstill (?:need|needs|have|has) to\b|\bstill (?:missing|pending|open|unresolved|to do|todo)\b|\bopen questions?\s{0,3}:|\bnot (?:yet )?implemented\b|\bnot yet (?:done|handled|supported|wired|tested|covered|decided)\b|\bleft for later\b|\bfor a follow-?up\b|\bblocked (?:on|by)\b|\bunresolved\b|\bpending\s{0,3}:/i;

function progressKind(u: Unit): FactKind | undefined {
  const p = u.plain;
  if (OPEN_CASE.test(p) || OPEN.test(p)) return 'open-item';
  if (u.bullet && OPEN_LEAD_IN.test(u.leadIn)) return 'open-item';
  if (u.bullet && NEXT_LEAD_IN.test(u.leadIn)) return 'next-step';
  if (NEXT_INLINE.test(p) || NEXT_SELF.test(p)) return 'next-step';
  if (u.last && THEN_SELF.test(p)) return 'next-step';
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Constraints and requirements.

/** Clauses: a rule often hides after a comma ("fix the tests but don't push anything"). */
const CLAUSE_SPLIT = /\s{0,3}(?:[,;—–(]|:\s|\s-\s)\s{0,3}|\s(?:but|and|also|then|so|plus)\s/i;
const CLAUSE_FILLER =
  /^(?:(?:please|pls|also|and|but|so|oh|ok|okay|just|really|by the way|one more thing|whatever you do|in any case|from now on|going forward|for this (?:task|repo|project)|again|remember)[,:]?\s{1,3}){0,3}/i;

/** Imperative rules of work at the start of a clause. */
const RULE_START =
  /^(?:never\s(?!mind\b|(?:(?!(?:bring|ping|ring|sing|string|spring|sting|swing|fling|cling|wring|sling)\b)\w{1,30}ing|seen|been|had|heard|got|gotten|done|gone|known|used|tried|worked|happened|noticed|needed|wanted|liked|managed|failed|passed|finished|changed|returned|showed|shown)\b)|(?:don'?t|do not)\s(?!(?:worry|bother|know|think|understand|see|get|care|mind|remember|have|like|believe|need to worry)\b)|always\s(?!(?:(?!(?:bring|ping|ring|sing|string|spring|sting|swing|fling|cling|wring|sling)\b)\w{1,30}ing|been|had|seemed|happened|failed|worked|returned|got|used)\b)|avoid\s|only\s(?:use|touch|change|modify|edit|run|commit|write|add|import|call|rely|depend|test)\b|stop\s\w{1,30}ing\b|stick\s(?:to|with)\s|leave\s.{1,80}\b(?:alone|as is|as-is|untouched|unchanged|intact)\b|keep\s(?!(?:going|trying|it up|in mind that it)\b)|preserve\s|must (?:not|never)\s|mustn't\s|make sure\b|be careful\b|remember to\b|prefer\s|refrain from\b|no (?:new|more|extra|additional|external|third-party|other)\s\w|without (?:adding|using|changing|touching|breaking|introducing|modifying)\b|use only\b|(?:under no circumstances|in no case|at no time|not under any circumstances?)\b(?![\s,]+(?:did|was|were|has|had|have|could|would)\b)|let(?:'?s| us) not\s(?!(?:worry|bother|panic|overthink|get ahead|go there|forget)\b)|stay (?:on|at|below|under|within)\s(?:\S{1,30}\s)?v?\d|nothing (?:should|must) (?:ever )?(?:be|get)\s(?:\w{2,30}(?:ed|en)|sent|done|run|put|set|kept|left|made|built|shown|thrown|cut|read|spent)\b(?![^,.;]{0,80}\b(?:now|anymore|any more|yet)\b))/i;

/** Rules stated through a subject: "you must not break…", "we can't use Docker", "I don't want…". */
const RULE_SUBJECT =
  /\b(?:it's|it is) (?:important|crucial|critical|essential|vital) (?:that (?:we|you) |to )(?:don't|do not|never|not|always|keep|avoid|only|preserve)\b|\b(?:you|we)\s(?:must not|mustn't|must never|should not|shouldn't|should never|cannot|can't|can not|may not|are not allowed to|aren't allowed to|must always|should always|must|have to)\s|\bi (?:don't|do not) want (?:you to|any|to see|to break)\b|\bi'd (?:prefer|rather)\b|\bi prefer\b|\b(?:from now on|going forward)\b/i;

/**
 * Rules said as a state of things or a habit: "the Podfile is off-limits", "pubspec stays exactly as
 * is", "hard rule: …", "a standing rule for this codebase: …", "Nobody runs twine from a laptop,
 * ever", "migrate:fresh only ever runs against your local database", "we never deploy on Fridays",
 * "…, period". Each reads as well as a bug report ("you never close the handle", "it only ever
 * returns null", "it crashes, period"), so a sentence that talks of a fault is none of them.
 */
const HABIT_RULE =
  /\b(?:is|are) off[- ]limits\b|\bhands off\b|\bstays? (?:exactly )?(?:as is|as-is|unchanged|untouched|where it is)\b|(?<!(?:'ve|have|has|had|i|we)\s)\bonly ever (?:run|runs|deploy|deploys|push|pushes|use|uses|touch|touches|write|writes|go|goes|talk|talks|connect|connects|ship|ships|release|releases)\b|\b(?:nobody|no one)\s(?!(?:has|had|was|is|did|knows|knew|seems|seemed)\b)[a-z]{2,20}s\b[^.!?]{0,120}?,?\sever[.!]?$|\b(?:hard|standing|golden|strict|house|one|firm) (?:rule|constraint|requirement)\b[^:]{0,80}:\s\S|\bhard line\b[^:]{0,40}:\s\S|,\s(?:period|full stop)[.!]?$|\b(?:we|you)\snever\s(?!(?:seen|been|had|heard|got|gotten|done|gone|knew|know|saw|did|found|thought|ran|made|came|went|said|told|meant|figured|really|even|once)\b)(?!(?!(?:bring|ping|ring|sing|string|spring|sting|swing|fling|cling|wring|sling)\b)\w{1,30}(?:ing|ed)\b)[a-z]{2,30}\b/i;
/** Words of a fault: a sentence with one reports a bug, it sets no rule and places nothing. */
const FAULT_TALK =
  /\b(?:bugs?|leaks?|leaking|crash(?:es|ed|ing)?|fails?|failed|failing|failures?|errors?|exceptions?|broken|wrong|issues?|problems?|that's why|which is why|stack ?trace|traceback|happens?|happened|dead|unused)\b/i;

/** "use pnpm, not npm", "use X instead of Y". */
const USE_NOT = /(?:^|[,;:]\s|\b(?:please|and|but|we|you)\s)use\s[^,.;]{1,60}(?:,\s?not\s|\s(?:instead of|rather than)\s)/i;

const RULE_LEAD_IN = /\b(?:rules?|constraints?|conventions?|guidelines?|restrictions?|policy|policies|dos and don'?ts|don'?ts)\b/i;
const REQUIREMENT_LEAD_IN = /\b(?:requirements?|acceptance criteria|must[- ]haves?|features?|spec(?:ification)?|it should|it needs to|needs to)\b/i;

const REQUIREMENT =
  /\b(?:i|we) (?:need|want|would like|'d like) (?:a|an|the|to|you to (?:build|create|write|implement|add|make))\b|\b(?:it|this|the \w{1,30}|they) (?:should|must|needs? to|has to|have to) (?:support|handle|accept|return|work|be able|allow|run|read|write|output|produce|print|show|expose|validate|never|always|not|stay|keep)\b|\bthe goal is\b|^requirements?\s{0,3}:|\bmust (?:handle|support)\b|\bshould support\b|\b(?:should|must|needs? to) (?:never|always)\b/i;
const QUESTION_START = /^(?:why|how|what|where|when|which|who)\s(?:does|do|is|are|did|was|were|can|would|should)\b/i;

function isRule(p: string): boolean {
  if (USE_NOT.test(p) || RULE_SUBJECT.test(p) || (HABIT_RULE.test(p) && !FAULT_TALK.test(p))) return true;
  for (const raw of p.split(CLAUSE_SPLIT)) {
    const clause = raw.slice(CLAUSE_FILLER.exec(raw)?.[0].length ?? 0);
    if (RULE_START.test(clause)) return true;
  }
  return false;
}

function userKind(u: Unit): FactKind | undefined {
  const p = u.plain;
  if (p.length < 4 || p.endsWith('?') || QUESTION_START.test(p)) return undefined;
  if (u.bullet && RULE_LEAD_IN.test(u.leadIn)) return 'constraint';
  if (isRule(p)) return 'constraint';
  if (u.bullet && REQUIREMENT_LEAD_IN.test(u.leadIn)) return 'requirement';
  if (REQUIREMENT.test(p)) return 'requirement';
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Values: a sentence that sets or changes a concrete value (a number, a version, a name in
// backticks, a path). These are the details compaction summaries round off ("raised the timeout").

const VALUE_VERB =
  /\b(?:set(?!\s+up\b)|sets|setting|change[sd]?|changing|raise[sd]?|raising|lower(?:s|ed|ing)?|bump(?:s|ed|ing)?|increase[sd]?|increasing|decrease[sd]?|decreasing|reduce[sd]?|reducing|rename[sd]?|renaming|move[sd]?|moving|pin(?:s|ned|ning)?|upgrade[sd]?|upgrading|downgrade[sd]?|downgrading|update[sd]?|updating|configured?|default(?:s|ed)? to|is now|are now|now (?:is|uses|points|reads|returns)|from\s+\S{1,60}\s+to\s)|→|->/i;
const VALUE_TOKEN =
  /`[^`]{1,80}`|\bv?\d+\.\d+(?:\.\d+)?\b|\b\d[\d_,.]*\s?(?:ms|s|sec|seconds?|m|mins?|minutes?|h|hours?|days?|[kmgt]i?b|bytes?|%|px|x|rps|qps|retries|attempts|workers|threads)?\b|(?:^|[\s(])[\w.-]+\/[\w./-]+|(?:^|[\s(`])\/[\w.-]{1,80}\/[\w./-]{1,200}|\b[a-z][a-z0-9+.-]{1,15}:\/\/\S/;

/** A named setting with its number ("on port 48213", "a timeout of 45 s", "max 5 retries"). */
const NAMED_VALUE =
  /\b(?:port|timeout|ttl|interval|delay|backoff|deadline|limit|max(?:imum)?|min(?:imum)?|size|version|retries|attempts|threshold|budget|rate|concurrency|workers?|threads?|batch|buffer|capacity|quota|window|pool|replicas|shards|partitions)\s(?:(?:of|to|=|is|at|set to|should be|must be|needs to be|will be|:)\s?)?`?v?\d/i;
/** A change to an amount with its unit ("switch the backoff to 250 ms", "lower it to 50%"). */
const TO_AMOUNT = /\bto\s+\d[\d_,.]*\s?(?:ms|s|secs?|seconds?|m|mins?|minutes?|h|hours?|days?|%|[kmgt]i?b|bytes?|px)(?![\w])/i;
/**
 * Where something lives: "should end up in /var/lib/spool", "the model is at /models/v3"; a storage
 * URI ("s3a://lake/sessions/", "postgres://db/app") whatever the verb (a web link is a reference).
 */
const LOCATION =
  /\b(?:goes|go|going|end up|ends up|lives?|is|are|stored|stores?|written|writes?|saved|saves?|put|puts|lands?|located|sits?|mounted|points?|served|serves?|kept|keep) (?:in|at|to|under|into|on|from) (?:an? |the )?`?(?:\/[\w.-]{1,80}){2,}|\b(?!https?:)[a-z][a-z0-9+.-]{1,15}:\/\/[\w.-]{1,200}\/\S/i;
/** An assignment in code ("`maxRetries = 5`", "`requestTimeoutMs: 45000`"). */
const CODE_ASSIGNMENT = /`[\w.$-]{2,60}\s?[:=]\s?[^`]{1,60}`/;

const WORK_COUNT =
  /\b\d+\s+(?:(?:new|more|other|failing|passing|unit|call)\s+)?(?:files?|tests?|lines?|steps?|places?|items?|changes?|commits?|functions?|sites?|errors?|warnings?|modules?|times?|cases?|spots?|usages?|callers?|occurrences?|packages?|folders?|directories?)\b|\b(?:step|phase|part|item|round)\s+\d+\b/gi;

function isValueStatement(u: Unit): boolean {
  // The last test below needs a digit, a backtick or a slash: without one, none of the rest can pass.
  if (!/[\d`/]/.test(u.text)) return false;
  const p = u.plain;
  if (p.length < 8 || p.length > MAX_TEXT || p.endsWith('?') || QUESTION_START.test(p)) return false;
  if (!VALUE_VERB.test(p) && !NAMED_VALUE.test(p) && !TO_AMOUNT.test(p) && !CODE_ASSIGNMENT.test(u.text) && !(LOCATION.test(p) && !FAULT_TALK.test(p)))
    return false;
  // A digit, a version, a backticked name or a path (the markdown text keeps the backticks); a count
  // of work done ("updated 3 files", "step 2") is not a value.
  const text = u.text.replace(WORK_COUNT, ' ');
  return VALUE_TOKEN.test(text) && /\d|`|\//.test(text);
}

// ---------------------------------------------------------------------------------------------
// Exports.

function dedupe(facts: Fact[]): Fact[] {
  const seen = new Set<string>();
  return facts.filter((f) => {
    const key = `${f.kind}:${factKey(f.text)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

// ---------------------------------------------------------------------------------------------
// Replies: a prompt that answers the assistant's question. "Pinia. We're not adding Vuex …" after
// "Pinia or Vuex?" is a decision, though nothing in it says "choose"; "do it" after "I'd move to
// ONNX Runtime and drop TorchScript" makes that recommendation one. Only with the message it
// answers: without it, "Pinia." or "do it" says nothing.

/** Words that open a reply and say yes or pick ("ok", "agreed", "let's go with"), up to three. */
const ACK =
  /^(?:(?:ok(?:ay)?|yeah|yes|yep|yup|sure|fine|agreed|alright|right|great|perfect|cool|good|sounds good|makes sense|so|then|let's|let us|we'll|go with|going with|use|pick)[,.!:]?\s{1,3}){0,3}/i;
/** Of those, the words that agree: "ok resilience4j" confirms what was proposed, "Redis." may only answer. */
const AGREES = /\b(?:ok(?:ay)?|yeah|yes|yep|yup|sure|fine|agreed|alright|sounds good|makes sense|go with|going with|let's|let us|we'll)\b/i;
/** Agreement after the name: "Oban, yes.", "DataLoader, agreed", "Pinia — sounds good". */
const AGREES_AFTER = /^\s{0,3}[,;:—-]?\s{0,3}(?:yes|yeah|yep|yup|agreed|sure|ok(?:ay)?|sounds good|makes sense|let's do (?:it|that))\b/i;
/** What may close a pick: "new Input System it is", "X then", "X, agreed". */
const PICK_TAIL = /\s{1,3}(?:it is|then|please|for sure|definitely)$/i;
/** First clauses that are no name: acknowledgements, orders, ordinals. */
const NOT_PICK =
  /^(?:thanks?|thank you|thx|done|nice|great|good|yes|no|nope|sure|ok|okay|cool|perfect|agreed|correct|right|exactly|wait|hmm|both|neither|either|none|all|the (?:first|second|third|last|latter|former)(?: one)?|(?:first|second|third|last) one|option \w|go|stop|continue|proceed|do it|do that|it|that|this|same|fine|later|now|sounds good|looks good|lgtm|makes sense|why|how|what|which)$/i;
/** "use X", "go with X" anywhere in a clause of the reply. */
const USE_PICK = /(?:^|[.;,]\s|\b(?:and|so|but)\s)(?:let's\s|let us\s|we'll\s|please\s|just\s)?(?:use|go with|pick|choose)\s([^,.;:—]{1,60})/i;
/** A reply that approves what was proposed, and says nothing else in its first sentence. */
const APPROVAL =
  /^(?:(?:yes|yeah|yep|ok(?:ay)?|sure|agreed|alright|right|perfect|great|good call|fine|sounds good|makes sense)[,.!]?\s{0,3}){0,3}(?:(?:let's |please |then )?(?:do (?:it|that|this|so)|go (?:ahead|for it)|ship it|let's go|go with (?:it|that)|make the (?:switch|change)|switch|yes|ok(?:ay)?|sure|agreed|sounds good|makes sense)(?: then)?)[.!]?$/i;
/** A proposal in the assistant's words: "I'd move to …", "I recommend …", "my recommendation: …". */
const PROPOSAL =
  /\b(?:i'd|i would|i wouldn't|we'd|we should|we shouldn't)\s(?:(?:just|probably|rather|instead|also)\s)?(?:suggest|recommend|go with|use|switch|move|migrate|pick|choose|replace|keep|drop|remove|opt|prefer|adopt|stick|rewrite|split|merge|upgrade|downgrade|pin|add|change)\b|\b(?:i recommend|i suggest|i propose|my recommendation|my suggestion|the better (?:option|choice) is|the best option is)\b/i;
/**
 * Where a message offers a choice: the sentence that names the option, or the lead-in of its list,
 * asks what to do or says these are the options ("should we use A or B", "two options: A or B",
 * "the realistic options are A and B"). "Is it coming from Postgres or Redis?" asks what is, and
 * "Redis." answering it decides nothing.
 */
const CHOICE_OFFER =
  /\b(?:should (?:i|we)|shall (?:i|we)|do you want|would you (?:like|prefer|rather)|(?:do )?you prefer|prefer(?:red)?|which (?:one|option|approach|library|tool|framework|way|do you|would you|should)|options?|alternatives?|choices?|go with|pick|choose|recommend|either)\b|\bvs\.?\s|\bversus\b/i;

/** The option a reply's first sentence names ("ok resilience4j", "DataLoader, agreed"), if short enough to be a name. */
function pickOf(first: string): { name: string; agreed: boolean } | undefined {
  const ack = ACK.exec(first)?.[0] ?? '';
  const rest = first.slice(ack.length);
  const raw = rest.split(/[,;:—(]|\s-\s|[.!](?:\s|$)/)[0] ?? '';
  const clause = raw.trim().replace(PICK_TAIL, '').trim();
  if (clause.length < 2 || clause.length > 40 || clause.split(' ').length > 4 || !/\p{L}/u.test(clause) || NOT_PICK.test(clause)) return undefined;
  return { name: clause, agreed: AGREES.test(ack) || AGREES_AFTER.test(rest.slice(raw.length)) };
}

/** Whether `name` is a sentence of its own in `first`: followed, maybe by "it is", by . ; or !. */
function standsAlone(first: string, name: string): boolean {
  return new RegExp(`(?<![\\w-])${escapeRe(name)}(?:\\s{1,3}(?:it is|then|please))?\\s{0,3}[.;!](?:\\s|$)`, 'i').test(first);
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** Whether `text` names `name` as a whole word (any case). */
function names(text: string, name: string): boolean {
  return new RegExp(`(?<![\\w-])${escapeRe(name)}(?![\\w-])`, 'i').test(text);
}

/**
 * Whether `text` names `pick` the way a name is written: with a capital (past the first word when
 * there are several: "The tests" is no name, "Input System" is), a digit or a symbol (`next-intl`,
 * `resilience4j`, `async/await`).
 */
function namesAsName(text: string, pick: string): boolean {
  const found = new RegExp(`(?<![\\w-])${escapeRe(pick)}(?![\\w-])`, 'gi');
  for (const m of text.matchAll(found)) {
    const o = m[0];
    const space = o.indexOf(' ');
    if (/[0-9./@_+#-]/.test(o) || (space === -1 ? /[A-Z]/.test(o) : /[A-Z]/.test(o.slice(space)))) return true;
  }
  return false;
}

/** Words before an option's name ("should we use Pinia or Vuex"), dropped from it. */
const LEAD_WORDS = new Set(
  'the a an to use using keep keeping we i you should shall do would could go with stick pick choose prefer want either between it is are our your'.split(' '),
);

/** A first sentence that only approves ("do it", "sounds good, go ahead"). */
const approves = (first: Unit) => first.plain.length <= 60 && APPROVAL.test(first.plain);

/** Whether a prompt's first sentences could pick or approve: only then is the message it answers read. */
function couldAnswer(list: readonly Unit[]): boolean {
  const first = list[0];
  if (first === undefined || first.plain.endsWith('?')) return false;
  return approves(first) || pickOf(first.plain) !== undefined || list.slice(0, 3).some((u) => USE_PICK.test(u.plain));
}

/** The options offered beside `pick`: "A or B", "A (why) or B", "A vs B", and the other heads of a list that heads an item with it. */
function alternatives(offer: string, pick: string): string[] {
  const out: string[] = [];
  const add = (x: string | undefined) => {
    const name = x
      ?.split(' ')
      .filter((w, i, all) => !(LEAD_WORDS.has(w.toLowerCase()) && all.slice(0, i).every((v) => LEAD_WORDS.has(v.toLowerCase()))))
      .join(' ')
      .trim();
    if (name !== undefined && name !== '' && name.toLowerCase() !== pick.toLowerCase() && !out.includes(name) && out.length < 4) out.push(name);
  };
  const p = escapeRe(pick);
  const near = new RegExp(
    `(?<![\\w-])${p}\\*{0,2}\`?(?:\\s\\([^()]{0,80}\\))?\\s(?:or|vs\\.?|versus)\\s([^,.;:?!()]{1,60})|([\\w./@+-]{2,40}(?:\\s[\\w./@+-]{1,40}){0,2})\`?\\*{0,2}(?:\\s\\([^()]{0,80}\\))?\\s(?:or|vs\\.?|versus)\\s\`?\\*{0,2}${p}(?![\\w-])`,
    'gi',
  );
  for (const m of toPlain(offer).matchAll(near)) add(m[1] === undefined ? m[2] : phrase(m[1]));
  // "- **Pinia** — …", "1. `zod`: …": the heads of the list items.
  const heads = [...offer.matchAll(/^\s{0,6}(?:[-*+]|\d{1,2}[.)])\s{1,3}(?:\*\*([^*\n]{1,40})\*\*|`([^`\n]{1,40})`|([^:—\n]{1,40}?)\s?[:—])/gm)].map((m) =>
    (m[1] ?? m[2] ?? m[3] ?? '').trim(),
  );
  if (heads.some((h) => h.toLowerCase() === pick.toLowerCase() || names(h, pick))) for (const h of heads) if (!names(h, pick)) add(h);
  return out;
}

/** The decision a reply makes, given the assistant message it answers (after couldAnswer). */
function replyDecision(list: readonly Unit[], answered: string): Fact | undefined {
  const first = list[0] as Unit;
  const offer = units(answered);
  if (approves(first)) {
    // The proposal nearest the question the reply answers: the offer's last one.
    const proposal = offer.findLast((u) => !u.plain.endsWith('?') && PROPOSAL.test(u.plain));
    if (proposal === undefined) return undefined;
    const fact: Fact = { kind: 'decision', text: proposal.text };
    const at = PROPOSAL.exec(proposal.plain)?.index ?? 0;
    const found = chosenAndRejected(proposal.plain, at);
    const rejected = withRuledOut(found.rejected, ruledOutBoth(list, answered), found.chosen);
    if (found.chosen) fact.chosen = found.chosen;
    if (rejected.length > 0) fact.rejected = rejected;
    return fact;
  }
  // A bare name ("Pinia.", "ok resilience4j") counts where the offer writes it as a name in a
  // sentence that offers a choice; "use X" / "go with X" states the choice itself, so X need only
  // be named there, beside another option or in such a sentence.
  const offered = (name: string, exact: boolean) =>
    offer.some((u) => (exact ? namesAsName(u.plain, name) : names(u.plain, name)) && (CHOICE_OFFER.test(u.plain) || CHOICE_OFFER.test(u.leadIn)));
  // "ok resilience4j" after "I'd use Resilience4j …": agreeing, by name, to what the message
  // proposed or offered anywhere in it.
  const proposes = () => offer.some((u) => CHOICE_OFFER.test(u.plain) || CHOICE_OFFER.test(u.leadIn) || PROPOSAL.test(u.plain));
  const bare = pickOf(first.plain);
  let pick = bare?.name;
  let unit = first;
  if (bare !== undefined && !offered(bare.name, true) && !(bare.agreed && namesAsName(answered, bare.name) && proposes())) pick = undefined;
  if (pick === undefined) {
    for (const u of list.slice(0, 3)) {
      const m = USE_PICK.exec(u.plain);
      const name = m?.[1] === undefined ? undefined : phrase(m[1]);
      if (name !== undefined && (offered(name, false) || alternatives(answered, name).length > 0)) {
        pick = name;
        unit = u;
        break;
      }
    }
  }
  // A bare name the offer wrote, standing alone as a sentence ("Pinia.", "X it is;") and set against
  // one the reply turns down ("We're not adding Vuex", "the legacy Input Manager goes"): a choice,
  // however it was offered. "README.md: fine. We're not using Docker" reports on a file; no pick.
  if (pick === undefined && bare !== undefined && namesAsName(answered, bare.name) && standsAlone(first.plain, bare.name)) {
    const name = bare.name.toLowerCase();
    if (ruledOut(replyStart(list), true).some((x) => x.toLowerCase() !== name)) pick = bare.name;
  }
  if (pick === undefined) return undefined;
  // A bare pick ("Pinia.") and the sentence after it, which says why or what was turned down.
  const next = list[list.indexOf(unit) + 1];
  const text = unit.plain.length < 60 && next !== undefined ? clip(`${unit.text} ${next.text}`) : unit.text;
  const fact: Fact = { kind: 'decision', text, chosen: pick };
  // Beside the options offered, what the offer or the reply rules out ("Hystrix isn't an option",
  // "we're not adding Vuex").
  const rejected = withRuledOut(alternatives(answered, pick), ruledOutBoth(list, answered), pick);
  if (rejected.length > 0) fact.rejected = rejected;
  return fact;
}

/**
 * Facts in a user's prompt: constraints and requirements; decisions it states, or makes by
 * answering `answered`: the assistant message it replies to, when known, or how to find it (called
 * only for a prompt that could be a reply).
 */
export function userFacts(text: string, answered?: string | (() => string | undefined)): Fact[] {
  if (typeof text !== 'string' || text === '') return [];
  const out: Fact[] = [];
  const list = units(text);
  if (answered !== undefined && couldAnswer(list)) {
    const offer = typeof answered === 'string' ? answered : answered();
    const reply = offer === undefined || offer === '' ? undefined : replyDecision(list, offer);
    if (reply !== undefined) out.push(reply);
  }
  for (const u of list) {
    const kind = userKind(u);
    if (kind) {
      out.push({ kind, text: u.text });
      continue;
    }
    // The user choosing between named alternatives ("let's use zod instead of yup") is a decision.
    const decision = decisionFact(u);
    if (decision?.rejected !== undefined && decision.rejected.length > 0) {
      out.push(decision);
      continue;
    }
    if (isValueStatement(u)) out.push({ kind: 'value', text: u.text });
  }
  return dedupe(out);
}

/** Facts in an assistant's reply: decisions (with reasons), next steps, open items. */
export function assistantFacts(text: string): Fact[] {
  if (typeof text !== 'string' || text === '') return [];
  const out: Fact[] = [];
  for (const u of units(text)) {
    const decision = decisionFact(u);
    if (decision) {
      out.push(decision);
      continue;
    }
    const kind = progressKind(u) ?? (isValueStatement(u) ? 'value' : undefined);
    if (kind) out.push({ kind, text: u.text });
  }
  return dedupe(out);
}

// ---------------------------------------------------------------------------------------------
// Keys.

const STOP = new Set(
  (
    'a an the and or but of to in on at by for with from into onto as is are was were be been being it its this that these those there here ' +
    'i me my we us our you your he she they them their will shall would should can could may might must do does did doing done just also so then ' +
    "now please ok okay very really which what who whom whose when where how all any some such own same than too let lets let's i'll we'll " +
    "i'm we're i've we've you'll you're it's that's there's have has had"
  ).split(' '),
);
/** Negations (and "only", kept out of STOP) carry the meaning of a rule ("use lodash" vs "don't use lodash"): they stay, as one word. */
const NEGATION =
  /^(?:not|no|never|cannot|\w{1,12}n't|dont|doesnt|didnt|isnt|arent|wasnt|werent|wont|cant|couldnt|shouldnt|wouldnt|mustnt|havent|hasnt|neednt)$/;

function stem(w: string): string {
  let s = w;
  if (s.length > 4 && s.endsWith('ies')) s = `${s.slice(0, -3)}y`;
  else if (s.length > 3 && s.endsWith('sses')) s = s.slice(0, -2);
  else if (s.length > 3 && s.endsWith('s') && !s.endsWith('ss') && !s.endsWith('us') && !s.endsWith('is')) s = s.slice(0, -1);
  if (s.length > 5 && s.endsWith('ing')) s = s.slice(0, -3);
  else if (s.length > 3 && s.endsWith('ed')) s = s.slice(0, -2);
  if (s.length > 3 && s.at(-1) === s.at(-2) && !/[aeiousl]/.test(s.at(-1) ?? '')) s = s.slice(0, -1);
  if (s.length > 2 && s.endsWith('e')) s = s.slice(0, -1);
  return s;
}

/** A normalised key for deduplicating facts across a session (lower case, punctuation and stop words dropped, stemmed lightly). Equal keys = same fact. */
export function factKey(text: string): string {
  if (typeof text !== 'string') return '';
  const out: string[] = [];
  for (const raw of text
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .split(/[^\p{L}\p{N}']+/u)) {
    const word = raw.replace(/^'+|'+$/g, '');
    if (word === '') continue;
    if (NEGATION.test(word)) {
      if (out.at(-1) !== 'not') out.push('not');
      continue;
    }
    if (STOP.has(word)) continue;
    out.push(stem(word.replace(/'s$/, '').replace(/'/g, '')));
  }
  return out.join(' ');
}
