// The names a person or pet goes by in the archive. A question says "my partner", "my dad", "our
// dog"; the archive says so once ("my partner Leo teaches chemistry") and then only the name ("Leo
// is marking exams all week"). The relation a question names is looked up in what was said, and
// the names found beside it join the query (search.ts). Pure: the texts come from the caller.

/** Relations a question may name, each with the words the archive may use for it. */
const RELATIONS: ReadonlyArray<readonly string[]> = [
  ['partner', 'spouse', 'wife', 'husband', 'girlfriend', 'boyfriend', 'fiance', 'fiancee', 'fiancé', 'fiancée'],
  ['father', 'dad', 'daddy', 'papa'],
  ['mother', 'mom', 'mum', 'mommy', 'mummy', 'mama'],
  ['sister'],
  ['brother'],
  ['son'],
  ['daughter'],
  ['aunt', 'auntie'],
  ['uncle'],
  ['cousin'],
  ['niece'],
  ['nephew'],
  ['grandmother', 'grandma', 'granny', 'nan', 'nana'],
  ['grandfather', 'grandpa', 'granddad', 'grandad'],
  // Not manager (a package, password or window manager), nor pet (a pet project, a pet peeve).
  ['boss', 'supervisor'],
  ['colleague', 'coworker', 'co-worker', 'teammate'],
  ['friend', 'buddy'],
  ['neighbour', 'neighbor'],
  ['roommate', 'flatmate', 'housemate'],
  ['landlord', 'landlady'],
  ['therapist', 'counselor', 'counsellor'],
  ['tutor', 'teacher', 'coach', 'trainer'],
  // A pet is often introduced by its breed ("we brought home a retired greyhound, she's called
  // Biscuit"): the common breeds stand for the animal. Not boxer, pointer, setter, husky, lab,
  // retriever, pug, shepherd, siamese or ragdoll: code says them (a retriever, a siamese network).
  'dog puppy pup greyhound whippet labrador terrier poodle beagle collie spaniel dachshund corgi schnauzer chihuahua labradoodle cockapoo rottweiler doberman'.split(
    ' ',
  ),
  ['cat', 'kitten', 'tabby', 'moggy'],
];

const GROUP_OF = new Map(RELATIONS.flatMap((group) => group.map((word) => [word, group] as const)));
const ANY_RELATION = [...GROUP_OF.keys()].sort((a, b) => b.length - a.length).join('|');

/** "my partner", "our new puppy", "my little sister's": the relation words a question names. */
const ASKED = new RegExp(`\\b(?:my|our)\\s+(?:[a-z]+\\s+)?(${ANY_RELATION})(?:'s|s)?(?![\\w-])`, 'g');

/** Capitalised words that open a clause or name a day, not a person. */
const NOT_NAMES = new Set(
  (
    'I Im Ive Id Ill The A An And But So Or Nor We He She It They This That These Those There Here Today Yesterday Tomorrow ' +
    'Tonight Also Just Then When While If Is Was Has Had Have My Our Your His Her Their Mr Mrs Ms Dr Not No Yes Ok Okay Oh ' +
    'Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July August September ' +
    'October November December Christmas Easter Who What Where Why How Which Both All Every One Two Three Since Thanks ' +
    'Thank Help Actually Please Maybe Sorry Hey Hi Hello Well Now Anyway Btw Because After Before Sure Great Good Nice Cool ' +
    'Honestly Apparently Luckily Sadly Meanwhile Plus Update News Quick Like'
  ).split(' '),
);

/** A name: one capitalised word of letters in any script (Leo, Zoë, Łukasz; O'Neill is left out). */
const NAME = "(\\p{Lu}\\p{Ll}{1,20})(?![\\p{L}\\p{N}_'’-])";
/** Not inside a word. */
const START = '(?<![\\p{L}\\p{N}_])';

/** The relation groups a question names ("what subject does my partner teach" → the partner's). */
export function askedRelations(question: string): Array<readonly string[]> {
  const out = new Set<readonly string[]>();
  for (const m of question.toLowerCase().matchAll(ASKED)) {
    const group = GROUP_OF.get(m[1] as string);
    if (group !== undefined) out.add(group);
  }
  return [...out];
}

/**
 * The names `texts` give a relation, most said first: "my partner Leo", "our dog, Biscuit", "Leo, my
 * partner", "my sister's name is Priya", "our cat is called Miso", "we adopted a kitten named Miso",
 * "a greyhound from the rescue, she's called Biscuit". At most `max`. Not "my dad is Italian"
 * (after is, only a name: "'s name is", "is called", "is named"), nor "Thanks my friend".
 */
export function namesOf(group: readonly string[], texts: readonly string[], max: number): string[] {
  const words = group.join('|');
  const capitalised = group.map((w) => `[${w[0]}${w[0]?.toUpperCase()}]${w.slice(1)}`).join('|');
  const patterns = [
    new RegExp(`${START}(?:[Mm]y|[Oo]ur)\\s+(?:\\p{Ll}+\\s+)?(?:${words})s?,?\\s+${NAME}`, 'gu'),
    new RegExp(`${START}(?:[Mm]y|[Oo]ur)\\s+(?:\\p{Ll}+\\s+)?(?:${words})(?:['’]s name\\s+(?:is|was)|\\s+(?:is|was)\\s+(?:called|named))\\s+${NAME}`, 'gu'),
    new RegExp(`${START}${NAME},\\s+(?:my|our)\\s+(?:\\p{Ll}+\\s+)?(?:${words})(?![\\p{L}\\p{N}_-])`, 'gu'),
    // Named in the clause that brings the relation up, without my or our: "a puppy named Rex", "a
    // retired racing Greyhound from the rescue, she's called Biscuit" (a breed may be capitalised).
    new RegExp(
      `${START}(?:${capitalised})s?(?![\\p{L}\\p{N}_-])(?:,?\\s+(?:who|which|that)(?:['’]s|\\s+is|\\s+was)|[^.!?;:\\n]{0,40}?\\b(?:she|he|it|they)(?:['’]s|\\s+is|\\s+was|['’]re|\\s+are))?,?\\s+(?:called|named)\\s+${NAME}`,
      'gu',
    ),
  ];
  const counts = new Map<string, number>();
  for (const text of texts) {
    for (const pattern of patterns) {
      for (const m of text.matchAll(pattern)) {
        const name = m[1] as string;
        if (NOT_NAMES.has(name) || GROUP_OF.has(name.toLowerCase())) continue;
        counts.set(name, (counts.get(name) ?? 0) + 1);
      }
    }
  }
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, max)
    .map(([name]) => name);
}
