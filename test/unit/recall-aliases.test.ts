import { describe, expect, it } from 'vitest';
import { askedRelations, namesOf } from '../../lib/recall/aliases.ts';

describe('askedRelations', () => {
  it('reads the relations a question names after my or our, with one word between and a possessive', () => {
    expect(askedRelations('What subject does my partner teach?').map((g) => g[0])).toEqual(['partner']);
    expect(askedRelations("What's my newborn niece called?").map((g) => g[0])).toEqual(['niece']);
    expect(askedRelations("Where does my dad live, and what is our puppy's name?").map((g) => g[0])).toEqual(['father', 'dog']);
    // Without my or our, a relation word is no relation of the user's: the partner API, a cat command.
    expect(askedRelations('which rate limit do partner keys get')).toEqual([]);
    expect(askedRelations('what did cat print')).toEqual([]);
    // Compounds: a package manager or a pet project names no one.
    expect(askedRelations('which version of our package manager, and my pet project')).toEqual([]);
  });
});

describe('namesOf', () => {
  const partner = askedRelations('my partner')[0] as readonly string[];
  it('finds the names said beside a relation, most said first, at most as many as asked', () => {
    const texts = [
      'Gift planning: my partner Leo turns 40 in August.',
      'My husband, Leo, is grading all week.',
      'Leo, my partner, says hi.',
      'my wife is called Sam', // another saying, once
    ];
    expect(namesOf(partner, texts, 2)).toEqual(['Leo', 'Sam']);
    expect(namesOf(partner, texts, 1)).toEqual(['Leo']);
    // Names in any script, whole.
    expect(namesOf(partner, ['my partner Zoë is here', 'José, my husband, cooks', 'my wife Łucja'], 3)).toEqual(['Zoë', 'José', 'Łucja']);
  });

  it('takes no clause word, day or month for a name, nor a relation word, nor what follows "is" but a name', () => {
    const texts = ['my partner And I went out', 'our partner Monday call', 'my partner I think', 'my partner Mom said no'];
    expect(namesOf(partner, texts, 3)).toEqual([]);
    // A word that opens a sentence before "my partner" is no name; a name before it needs its comma.
    expect(namesOf(partner, ['Since my partner left', 'Thanks, my partner', 'Actually my partner said', 'Help my friend'], 3)).toEqual([]);
    const dad = askedRelations('my dad')[0] as readonly string[];
    expect(namesOf(dad, ['my dad is Italian', 'my dad was English'], 2)).toEqual([]);
    expect(namesOf(dad, ["my dad's name is Émile", 'our dad is called Bob'], 2)).toEqual(['Émile', 'Bob']);
    const dog = askedRelations('our dog')[0] as readonly string[];
    expect(namesOf(dog, ["Our new puppy's name is Biscuit.", 'our dog Biscuit chewed a shoe'], 2)).toEqual(['Biscuit']);
  });

  it('finds a pet named in the sentence that brings it up, by its kind or its breed, without my or our', () => {
    const dog = askedRelations('is my dog ok')[0] as readonly string[];
    expect(namesOf(dog, ["we just brought home a retired racing greyhound from the rescue, she's called Biscuit, 3 years old"], 2)).toEqual(['Biscuit']);
    expect(namesOf(dog, ['we got a puppy named Rex', 'a beagle who is called Fido'], 2)).toEqual(['Rex', 'Fido']);
    // Only in that sentence, and only a name: not a dog in one sentence and a name in the next.
    expect(namesOf(dog, ['the dog barked. The file is called Main', 'my dog is called nothing special'], 2)).toEqual([]);
    // A breed is often capitalised.
    expect(namesOf(dog, ['a Labrador named Max'], 2)).toEqual(['Max']);
    // Not a word that starts with the relation's, nor a name past a clause's end.
    expect(namesOf(dog, ['we dogfood the new build, it is called Nightly', 'walked the dog to the cafe; it is called Blue Bottle'], 2)).toEqual([]);
    const cat0 = askedRelations('my cat')[0] as readonly string[];
    expect(namesOf(cat0, ['the catalog service, it is called Atlas', 'add a category for it, it is called Tools'], 2)).toEqual([]);
    const cat = askedRelations('what does my cat eat')[0] as readonly string[];
    expect(namesOf(cat, ['we adopted a kitten named Miso last week'], 2)).toEqual(['Miso']);
    // A question may name the breed.
    expect(askedRelations('how old is my greyhound').map((g) => g[0])).toEqual(['dog']);
  });
});
