// What a question asks for, read from its wording, and the words its answer tends to hold. A user
// asks "can I release by hand?" of a session that said "never run npm publish from a laptop": the
// question's own words miss the answer, the kind of answer does not (a rule says never, always or
// must; a choice says instead or decided). These words join the query at a lower weight, so they
// order the chunks the question's words found more than they bring in others. Pure.
import { isSurface, MONEY_TERM, tokenize } from '../archive/keywords.ts';

/** Weight of an answer word beside a word of the question (1). */
export const INTENT_WEIGHT = 0.7;
/**
 * Weight of the words that only say what kind of question it is ("pick", "settle", "allowed"):
 * they describe the question, not its subject, and code is full of them (TypeScript's Pick<…>).
 */
export const FRAMING_WEIGHT = 0.35;

interface Intent {
  name:
    | 'rule'
    | 'work'
    | 'choice'
    | 'duration'
    | 'elapsed'
    | 'hedge'
    | 'weight'
    | 'height'
    | 'distance'
    | 'price'
    | 'failure'
    | 'latest'
    | 'now'
    | 'taste'
    | 'diet'
    | 'said'
    | 'name';
  asks: RegExp;
  /**
   * Answer words, space-separated, stemmed as the index stems them; a word ending in `=` (SURFACE_MARK)
   * stands for that very word, where its stem is another word's too (hate: hat).
   */
  answers: string;
  /** Weight of the question's own words the asks pattern matched (FRAMING_WEIGHT unless given). */
  framing?: number;
  /** What else the question must say, anywhere. */
  needs?: (lower: string) => boolean;
  /** Intents this one stands in for when both are read. */
  displaces?: ReadonlyArray<Intent['name']>;
}

const FIRST_PERSON = /(?<![\w./-])(?:i|me|my|i'd|i'm|we|us|our|we'd)(?![\w/-])/;
/** Not "what did you recommend I read": that asks what Claude said (search.ts reads it so). */
const ASKS_WHAT_CLAUDE_SAID = /\b(?:did you (?:recommend|suggest)|you (?:recommended|suggested)|your (?:recommendation|suggestion))/;
/** A question of what something cost in time or computing resources, not money. */
const NOT_MONEY =
  /(?<![\w./-])(?:latency|memory|ram|cpu|cpus|disk|overhead|throughput|performance|perf|battery|bandwidth|headroom|heap|startup|speed|time|gc|allocations?|cycles)(?![\w/-])/;
/** What software breaks (the failure intent's broke and broken are of these only). */
const SOFTWARE_THINGS =
  '(?:builds?|ci|tests?|pipelines?|deploys?|deployment|prod|production|site|app|server|release|main|master|branch|jobs?|migrations?|login|api|pages?|checkout|code|compiler?|install|upgrade|update|import|importer|scripts?|query|endpoints?|service|containers?|cluster|database|db|schema|config|dependenc(?:y|ies)|packages?|lockfile|integration|feature|commit|merge|types?|lint|linter|webhooks?|cron|workers?|queue|auth|sync|export|parser|cache|bundle|docker|image|links?|layout|ui|cli|plugin|hooks?)';
/** Verbs of what did not happen ("didn't run", "won't boot", "isn't working"). */
const FAILED_VERBS =
  '(?:work|working|start|starting|boot|booting|build|building|compile|compiling|connect|connecting|run|running|load|loading|pass|passing|deploy|deploying|install|installing)';
/** A question of what went wrong; the match is only the words that frame it (see the failure intent). */
const FAILURE = new RegExp(
  `(?<![\\w./-])(?:${[
    "(?<!\\b(?:could|can|can't|cannot|might|may|will|would|won't|to) )(?:went|go|goes|going|gone) wrong",
    `(?:didn't|did not|doesn't|does not|don't|do not|wouldn't|would not|won't|couldn't|could not|can't|cannot|isn't|wasn't|aren't|weren't)(?= (?:[\\w-]+ ){0,4}${FAILED_VERBS}(?![\\w-]))(?! (?:[\\w-]+ ){0,2}(?:to|at) work)`,
    '(?:not|stopped) working(?! (?:out|at|for|as|on|with)(?![\\w-]))',
    'timed out',
    "broken?(?<=\\bwhat(?:'s| is| was| got)? broken?)",
    'broke(?<=\\b(?:which|what) [\\w-]+(?: [\\w-]+)? broke)',
    `broke(?= (?:the |our |my |a |an |their |its )?(?:[\\w-]+ )?${SOFTWARE_THINGS}(?![\\w-]))`,
    `(?:broke|broken|breaking|breaks)(?<=\\b${SOFTWARE_THINGS} (?:(?:is|was|got|has|had|been|just|suddenly|finally|keeps?|kept|always) ){0,2}\\w+)`,
  ].join('|')})(?![\\w/-]|\\.\\w)`,
);
/** What answers a rule question and a request for work done a certain way: a rule, or a stated preference. */
const RULE_ANSWERS = 'never always must rule avoid forbidden prefer rather';
/** What a question of what something cost says it with (the price intent's framing verbs). */
const MONEY_VERBS = '(?:cost|costs|costing|spend|spent|spending|pay|paid|paying|charge|charged|set (?:me|us) back|come to|came to)';
/** A meal or what to eat, to cook or to order: a question of taste's and of diet's. */
const MEAL_WORDS =
  'restaurants?|recipes?|dish(?:es)?|meals?|dinners?|lunch(?:es)?|breakfasts?|brunch(?:es)?|desserts?|snacks?|cook|cooking|bake|baking|food|cuisine|eat|garnish|order in|takeaway|takeout|curry|pasta|soup|salad|sandwich(?:es)?|pizza';
const MEAL = new RegExp(`(?<![\\w./-])(?:${MEAL_WORDS})(?![\\w/-]|\\.\\w)`);
/** What a question of taste is about: leisure, food, gifts, outings. */
const LEISURE = new RegExp(
  `(?<![\\w./-])(?:${[
    'movies?|films?|shows?|series|tv|netflix|books?|novels?|authors?|podcasts?|songs?|music|albums?|bands?|playlists?|concerts?|video ?games?|games?|board ?games?',
    `${MEAL_WORDS}|cafes?|bars?|pubs?|drinks?|wines?|beers?|cocktails?|coffee|tea`,
    'gifts?|presents?|birthday|anniversary|trips?|travel|flights?|holidays?|vacations?|destinations?|hotels?|visit|weekend|tonight|date night|outings?|activit(?:y|ies)|hobb(?:y|ies)|workouts?|exercises?|hikes?|hiking',
    'outfits?|wear|clothes|shoes|plants?|gardens?|flowers?|museums?|theatre|theater|exhibitions?|crafts?|yarn|knitting|camping|day out|things to do',
    'workshop|woodworking|chess|pottery|photography|birding|fishing',
    // Pets and things bought for oneself: "any tips to reward my dog", "what should I buy for my
    // desk". Not a bare monitor (code monitors queues), only one that is bought.
    // Not cat, treats, toys or gear alone: code says them ("cat or less", "treats tabs as spaces").
    'pets?|dogs?|puppy|puppies|kittens?|my cats?|our cats?|(?:dog|cat|pet) (?:treats?|toys?)|buy|purchase|shopping|headphones|earbuds|cameras?|gadgets?|accessor(?:y|ies)|decor|furniture|sofa|couch|rugs?|lamps?|skincare|makeup|perfume|jewel(?:le)?ry',
    '(?:second|new|external|another|gaming|ultrawide|4k) monitors?',
  ].join('|')})(?![\\w/-]|\\.\\w)`,
);

/** The verbs of a request for work, and what may lead one: a greeting, "can you", "please". */
const WORK_VERB = '(?:write|draft|add|create|implement|build|scaffold|set up|generate|refactor|put together|word)';
const REQUEST_LEAD = '(?:please|pls|now|ok(?:ay)?|so|hi|hey|and|also|then|(?:can|could|would|will) you)';
/** A query or a sentence of it that opens with a verb of work (after a greeting or "can you", "please"). */
const WORK_OPENS = `(?:^|[.!?]\\s+|\\s[—–]\\s+)(?:${REQUEST_LEAD}[,\\s]+){0,3}(?:help me\\s+)?${WORK_VERB}`;
/** The verb with its object: "add a client", "write the test". */
const WORK_OBJECT = new RegExp(`${WORK_OPENS}\\s+(?:me|us|a|an|the|some|that|this|it|them|up|our|my)(?![\\w/-])`);
/** A request by its wording alone: of me or us, after "can you" or "please", or "help me". */
const WORK_ASKED = new RegExp(
  `(?<![\\w./-])(?:${WORK_VERB}\\s+(?:me|us)\\b|(?:please|pls|(?:can|could|would|will) you)[,\\s]+(?:help me\\s+)?${WORK_VERB}\\b|help me ${WORK_VERB}\\b)`,
);

/**
 * A question about what Claude said ("what did you suggest for…", "you recommended a collar",
 * "your advice on…", "which book did you point me to", "according to your estimate"): search.ts
 * favours Claude's replies to it, and its verb only frames it.
 */
export const ASKS_ASSISTANT =
  /(?<![\w'-])(?:(?:did|would|do|could|have|had)\s+you\s+(?:\w+\s+)?(?:suggest|say|propose|recommend|mention|tell|advise|think|decide|conclude|explain|write|come up with|offer|give|list|outline|name|call|pick|choose|describe|point|put forward|estimate|calculate|work out|reckon|figure)|you\s+(?:\w+\s+)?(?:suggested|said|proposed|recommended|mentioned|told|advised|concluded|explained|wrote|came up with|offered|gave|listed|outlined|named|called|picked|chose|described|pointed|put forward|estimated|calculated|worked out|reckoned|figured)|your\s+(?:suggestions?|advice|recommendations?|ideas?|proposals?|answer|explanation|list|tips?|estimates?|calculations?|breakdown|reckoning|opinion|view|take)|according to you)(?![\w'-])/i;

const shows = (intent: Intent, lower: string) => intent.asks.test(lower) && (intent.needs === undefined || intent.needs(lower));

/** Typographic apostrophes as typed ones ("didn’t", "we’re"): the patterns here and in search.ts say `'`. */
export function typedApostrophes(text: string): string {
  return text.replace(/[\u2018\u2019]/g, "'");
}

/** A question lowercased, with typed apostrophes. */
function lowered(text: string): string {
  return typedApostrophes(text.toLowerCase());
}

/** The intents a lowercased question shows, less those another stands in for. */
function shown(lower: string): Intent[] {
  const found = INTENTS.filter((i) => shows(i, lower));
  const displaced = new Set(found.flatMap((i) => i.displaces ?? []));
  return found.filter((i) => !displaced.has(i.name));
}

const INTENTS: readonly Intent[] = [
  {
    // Also a preference: "for the record, I prefer thiserror in the libraries", "we'd much rather
    // take trains" answer "how should I handle errors here?" and "can you recommend a weekend away?".
    name: 'rule',
    asks: /(?<![\w./-])(?:allowed|allow|permitted|permission|forbidden|prohibited|rules?|policy|can (?:i|we|you)|could (?:i|we)|should (?:i|we|it|this|that|they|the|be)|may (?:i|we)|ok(?:ay)? to|fine to|(?:am i|are we|are you) (?:ok|okay|fine|happy) with(?= (?:\w+ ){0,3}\w+ing\b)|(?:am i|are we) willing to)(?![\w/-]|\.\w)/,
    answers: RULE_ANSWERS,
  },
  {
    // "Write me a handler that…", "could you draft a module that…", "help me word the commit": a
    // request for work, put to the archive as it would be put to Claude. What the archive holds for
    // it is how the user wants such work done (the rules they set: "no unwrap() outside tests",
    // "never add an ORM"), in words the request does not share. The verb opens the query or a
    // sentence of it, after a greeting or "can you", "please" at most.
    name: 'work',
    asks: new RegExp(`${WORK_OPENS}(?![\\w/-]|\\.\\w)`),
    // Worded as a request, not as keywords that open with a verb ("build the docker image", "add
    // the retry logic" ask when that happened): asked of me or us, after "can you" or "please", or
    // "help me"; else the verb with its object, in a sentence that ends or of seven words or more.
    needs: (lower) => WORK_ASKED.test(lower) || (WORK_OBJECT.test(lower) && (/[.!?]["')]*\s*$/.test(lower) || lower.trim().split(/\s+/).length >= 7)),
    answers: RULE_ANSWERS,
    // It asks what a rule question asks (RULE_ANSWERS), and its "can you" is no rule,
    // nor its "could you write" a question about what Claude wrote.
    displaces: ['rule', 'said'],
  },
  {
    name: 'choice',
    asks: /(?<![\w./-])(?:choose|chose|chosen|choice|pick(?:ed)?|select(?:ed)?|settled?|decided?|decision|go(?:ing)? with|went with|opt(?:ed)? for|prefer(?:red)?|turn(?:ed)? down|instead|consider(?:ed|ing)?|alternatives?)(?![\w/-]|\.\w)/,
    answers: 'instead decided chose switch rather rejected',
  },
  {
    // "How long are product pages cached?", "how often does the sync run?": the answer gives a
    // number and its unit (not seconds: "the second render"; `300s` and `5m` are terms of their
    // own). Not "how many" or "how far": their answers share no word (a count, a size, a
    // distance), and words such as max or limit moved as many questions down as up.
    name: 'duration',
    // The verb that ends "how long did the rebuild take" frames it too (take found take_screenshot);
    // the verb first, the lookbehind only where one ends the question (at every word, it cost a
    // pasted 1 MB log 750 ms).
    asks: /(?<![\w./-])(?:how long|how often|how soon|how much time|how frequently|(?:take|took|takes|last|lasted|run|ran)(?=\s*[?.!]?\s*$)(?<=\bhow (?:long|much time)\b[^?.!]{1,80}))(?![\w/-]|\.\w)/,
    answers: 'minutes hours days weeks months years',
  },
  {
    // "When did I get the new bike, roughly how many weeks back?", "how long ago did we move?", "how
    // many days ago was the outage?": the answer is a date, which its time says; the units and
    // ago or back only frame the question ("weeks" found every "in about 10 weeks", "back" every
    // "came back"). Not a duration: "how long ago" asks when. Not "how much time before the token
    // expires" or "how many days since the last backup do we keep": durations.
    name: 'elapsed',
    asks: /(?<![\w./-])(?:how long ago|how long back|how (?:many|much) (?:days|weeks|months|years|time) (?:ago|back|has it been|have passed|had passed|passed))(?![\w/-]|\.\w)/,
    answers: '',
    framing: 0.1,
    displaces: ['duration'],
  },
  {
    // Words that hedge a question's when or how much ("around the clock change", "roughly how
    // many"): rare enough in an archive to lead a ranking ("I always bonk around km 70"), about
    // nothing asked. (Before "N days ago", when.ts takes them with the time.)
    name: 'hedge',
    asks: /(?<![\w./-])(?:around|roughly|approximately|approx)(?![\w/-]|\.\w)/,
    answers: '',
    framing: 0.2,
  },
  // "How heavy is the dog?", "how tall is the bookcase?", "how far is the cabin?": the same, for a
  // weight, a height or a distance: its units, and no word of limits or sizes (see above).
  {
    name: 'weight',
    asks: /(?<![\w./-])(?:how heavy|how much (?:does|did|do|will) (?:\w+ ){1,4}weigh|what (?:does|did) (?:\w+ ){1,4}weigh)(?![\w/-]|\.\w)/,
    answers: 'kilos kilograms kg pounds lbs grams weighs weight',
  },
  {
    name: 'height',
    // Not "how high": in code it asks a rate or a load ("how high did latency get").
    asks: /(?<![\w./-])how tall(?![\w/-]|\.\w)/,
    answers: 'cm centimeters metres meters feet inches tall height',
  },
  {
    name: 'distance',
    // Not "how far apart" (two dates as often as two places) or "how far along" / "how far did we
    // get" (progress).
    asks: /(?<![\w./-])(?:how far(?! apart| along| (?:did|have|has|had|are|is) (?:\w+ ){1,3}(?:get|got|gotten|come|gone)\b)|what distance|how many (?:miles|kilometers|kilometres|km))(?![\w/-]|\.\w)/,
    answers: 'km kilometers kilometres miles meters metres away',
  },
  {
    // "How much did my physio cost altogether?", "what did the EV set me back?", "how much am I paid
    // now?": the answer says an amount of money ("£48 a session"), which the index marks
    // (MONEY_TERM); advice about money ("list your fixed costs first") says none. The money verb
    // frames the question (its synonyms, price, fee and charge, let money tips outscore the
    // physio); the verb first, then the lookbehind (within one clause), as for a duration. After
    // "what", only a verb that ends the question or its object ("what did the repair cost?", "what
    // did I pay for…"): "what does the cost function return" asks no price.
    name: 'price',
    asks: new RegExp(
      `(?<![\\w./-])(?:${MONEY_VERBS}(?<=\\bhow much\\b[^?.!,;]{0,80})|${MONEY_VERBS}(?=(?:\\s+(?:me|us|him|her|them))?\\s*(?:[?.!]|$|for\\b|on\\b|altogether|combined|in total|so far))(?<=\\bwhat (?:did|does|do|will|would|was|were|has|have)\\b[^?.!,;]{0,80})|how much money)(?![\\w/-]|\\.\\w)`,
    ),
    // Not a cost in time or resources: "how much did the p99 latency cost us", "how much memory".
    needs: (lower) => !NOT_MONEY.test(lower),
    answers: MONEY_TERM,
  },
  {
    // "What went wrong when we first tried the TLS connection?", "why didn't the migration run?",
    // "which lint broke the build?": the answer is an error ("Error: TLS handshake failed", a tool
    // result marked [error]), often in words the question does not share; a later run that worked
    // shares them all. Only the phrase's own words frame the question (went found go and gone at
    // 0.9); what did not run, or broke, stays a word of the question. Not a hypothetical ("what
    // could go wrong"), and broke only of software: not "when I broke my tooth", "we're broke".
    name: 'failure',
    asks: FAILURE,
    answers: 'error fail failure',
  },
  {
    // "Can you recommend a podcast for me?", "what movie should I watch?", "any gift ideas for my
    // mom?", "plan me a day out", "do you think I'd like Dune?": the answer is what the user said
    // they like, in their words ("I've been loving Korean food", "my favourite is…"), which rarely
    // share the question's.
    // Only in the first person, only about leisure (food, books, films, music, games, gifts, trips,
    // outings…): "suggest a name for my function" or "what should I read from the config" asks for
    // code. A question of this kind has few words of its own, so a chunk that also says how the user
    // feels about something is most likely it; what they dislike counts as much as what they like
    // ("I hate crowded tourist traps", "I'd much rather find tiny local places" for a restaurant).
    // Hate as said: its stem is hat's.
    name: 'taste',
    // Also asked as "got a series we could start tonight?", "what could I give Leo for the holidays?"
    // or "where should Leo and I go?".
    asks: /(?<![\w./-])(?:recommend(?:ations?)?|suggest(?:ions?)?|ideas?|tips|advice|should (?:i|we|\w+ and (?:i|me))|plan (?:me|us)|(?:would|might|will) (?:i|we) (?:like|enjoy|love)|(?:i'd|i would|we'd|we would) (?:like|enjoy|love)|(?:a|any) good|got (?:a|an|any)|(?:could|can) (?:i|we) (?:give|get|buy|cook|make|bake|watch|read|try|start|play|wear|listen to))(?![\w/-]|\.\w)/,
    needs: (lower) => FIRST_PERSON.test(lower) && LEISURE.test(lower) && !ASKS_WHAT_CLAUDE_SAID.test(lower),
    answers: 'love enjoy favorite favourite prefer fan hate= hated= hates= dislike rather',
    // "What should I cook tonight" asks no rule.
    displaces: ['rule'],
  },
  {
    // "Who did you suggest could look after the dog?": suggest frames it ("Happy to suggest more
    // recipes anytime" led); the reply may still say it ("I'd suggest a sitter"), so it keeps some weight.
    name: 'said',
    asks: ASKS_ASSISTANT,
    answers: '',
  },
  {
    // "Team lunch on friday, what should we order in?", "suggest a garnish for tonight's curry": a
    // meal to choose is answered by what the user eats and does not (a diet, an allergy), said in
    // words the question does not share ("pescatarian now", "I'm allergic to nuts").
    name: 'diet',
    asks: /(?<![\w./-])(?:recommend(?:ations?)?|suggest(?:ions?)?|ideas?|should (?:i|we)|what (?:can|could|should|to) (?:i |we )?(?:cook|make|eat|order|bake|have)|(?:a|any) good)(?![\w/-]|\.\w)/,
    needs: (lower) => MEAL.test(lower) && !ASKS_WHAT_CLAUDE_SAID.test(lower),
    answers: 'vegetarian vegan pescatarian veggie allergic allergy intolerant intolerance gluten dairy lactose kosher halal',
  },
  {
    // "What's our cat called?", "what did I call the starter?", "what was the name of the vet?": the
    // answer says named or name ("we named him Gerald", "she's Miso now" beside "renamed her"); called
    // only frames it, and code is full of calls ("on-call", "called twice").
    name: 'name',
    // "Called" where the clause ends ("what's the cat called?", "… called now"): not "what is the
    // function called when the queue drains", a question about a call.
    asks: /(?<![\w./-])(?:(?:what|how)(?:'s| is| was| are| were)(?: \S+){1,5}? called(?=\s*(?:[?.!,;]|$|(?:again|now|these days|today|back then)\b))|what (?:did|do) (?:i|we|you|they) (?:call|name)|(?:what|which)(?:'s| is| was) (?:the |their |his |her |my |our )?name)(?![\w/-]|\.\w)/,
    answers: 'named name renamed nicknamed',
    framing: 0.2,
  },
  {
    // "What am I paying these days?", "which offer did I take in the end?": the words of these
    // phrases say when, not what ("days" matched every "14-day pass"). Not now, right now or
    // still: the latest saying of a changed fact may hold them ("rent is £1,325 now"; see below).
    // (when.ts reads the same phrases, and now and still, to favour the newer of two sayings.)
    name: 'latest',
    asks: /(?<![\w./-])(?:these days|at the moment|at present|in the end|nowadays|currently|lately|any ?more)(?![\w/-]|\.\w)/,
    answers: '',
    framing: 0.1,
  },
  {
    // "Am I still vegetarian?", "how wide are the tyres now": now and still are the question's
    // words at half weight. A changed fact's latest saying may hold them ("pescatarian now"), but
    // at full weight every "now" and "still" of the archive matched ("reports still hurt the
    // primary" led "am I still vegetarian?"). Held-out set 13 (read): two questions up (8 → 4,
    // 4 → 2), none down; the dev set did not move.
    name: 'now',
    asks: /(?<![\w./-])(?:now|still)(?![\w/-]|\.\w)/,
    answers: '',
    framing: 0.5,
  },
];

/** An intent's answer words as index terms (see Intent.answers). */
function answerTerms(answers: string): string[] {
  return answers.split(' ').flatMap((word) => (word === '' ? [] : isSurface(word) ? [word] : tokenize(word)));
}

export interface IntentTerm {
  term: string;
  weight: number;
}

/** The intents a query's wording shows. */
export function intentsOf(text: string): Array<Intent['name']> {
  const lower = lowered(text);
  return shown(lower).map((i) => i.name);
}

/** Intents of a request for a recommendation or for work done a certain way. */
const ADVICE_INTENTS: ReadonlySet<Intent['name']> = new Set(['taste', 'diet', 'work']);
/**
 * A rule question that asks for advice ("how should I handle errors", "can you recommend…", "what
 * could I drink"), not one that looks a thing up ("can you remind me which port", "can I see the
 * error", "what's the retention policy").
 */
const ASKS_ADVICE =
  /(?<![\w'-])(?:should (?:i|we)|how should|shall (?:i|we)|what (?:could|should) (?:i|we)|where (?:could|should) (?:i|we)|ok(?:ay)? to|fine to|allowed to|recommend|suggest|advice|ideas?|tips|best way|would you (?:pick|choose|use|go with))(?![\w'-])/;

/** A request for advice or a recommendation: what the user said they like, avoid or keep to answers it (search.ts). */
export function asksAdvice(text: string): boolean {
  const lower = lowered(text);
  return shown(lower).some((i) => ADVICE_INTENTS.has(i.name) || (i.name === 'rule' && ASKS_ADVICE.test(lower)));
}

/**
 * Answer words for the intents of `text`, as index terms, minus those the query already has; and
 * the query's own terms that only frame the question, with the weight they keep.
 */
export function intentTerms(text: string, queryTerms: readonly string[]): { added: IntentTerm[]; framing: Map<string, number> } {
  const lower = lowered(text);
  const have = new Set(queryTerms);
  const added: IntentTerm[] = [];
  const framing = new Map<string, number>();
  for (const intent of shown(lower)) {
    // A word only frames the question where the question has it only in the phrase: "how many
    // days do we keep logs these days" asks about days.
    const outside = new Set(tokenize(lower.replace(new RegExp(intent.asks.source, 'g'), ' ')));
    for (const m of lower.matchAll(new RegExp(intent.asks.source, 'g'))) {
      for (const term of tokenize(m[0])) if (have.has(term) && !outside.has(term)) framing.set(term, intent.framing ?? FRAMING_WEIGHT);
    }
    for (const term of answerTerms(intent.answers)) {
      if (have.has(term)) continue;
      have.add(term);
      added.push({ term, weight: INTENT_WEIGHT });
    }
  }
  return { added, framing };
}
