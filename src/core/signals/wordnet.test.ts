/** The WordNet signal: positive and negative cases, alone and in taxonomy_text's classes. */
import { describe, expect, it } from 'vitest';
import { wordnetSignal } from './wordnet.ts';
import { classifyText } from './classify.ts';
import { lexicon } from '../../../test/lexicon.ts';

const item = (question: string, gold: string, candidate: string) => ({ question, golds: [gold], candidate });
const signal = (q: string, g: string, c: string) => wordnetSignal(item(q, g, c), lexicon);

describe('wordnetSignal', () => {
  it('finds a synonym set shared by a gold and the candidate, multiword and scientific names included', () => {
    expect(signal('Which animal gives us beef?', 'cow', 'Cattle')).toMatchObject({
      relation: 'synonym',
      candidateTerm: 'cattle',
      goldTerm: 'cow',
    });
    expect(signal('Who wrote Macbeth?', 'Shakespeare', 'The Bard of Avon')?.relation).toBe('synonym');
    expect(signal('What is the largest animal?', 'blue whale', 'Balaenoptera musculus')?.relation).toBe('synonym');
    expect(signal('What predicts spring?', 'groundhog', 'Marmota monax')?.relation).toBe('synonym');
    expect(signal('Which planet?', 'Mars', 'It is the Red Planet.')?.relation).toBe('synonym');
  });

  it('finds broader and narrower terms through the hypernym chain, with the steps', () => {
    expect(signal('What is marmalade made from?', 'oranges', 'Fruit')).toMatchObject({ relation: 'broader', steps: 3 });
    expect(signal('What kind of animal is it?', 'platypus', 'a monotreme')).toMatchObject({ relation: 'broader', steps: 1 });
    expect(signal('What kind of animal is Lassie?', 'dog', 'a collie')).toMatchObject({ relation: 'narrower', steps: 3 });
  });

  it('finds the gold word replaced by its antonym in the gold frame', () => {
    expect(signal('Is the desert hot by day?', 'hot', 'Cold')).toMatchObject({
      relation: 'antonym',
      goldTerm: 'hot',
      candidateTerm: 'cold',
    });
    expect(signal('Which end of the pool?', 'the deep end', 'the shallow end')?.relation).toBe('antonym');
    // By base forms on either side ("lost" is a form of "lose", "longest" of "long"), as the lexicon gave them
    // before the per-word cache.
    expect(signal('Which?', 'win', 'lost')).toMatchObject({ relation: 'antonym', goldTerm: 'win', candidateTerm: 'lost' });
    expect(signal('Which?', 'hotter', 'cold')).toMatchObject({ relation: 'antonym', goldTerm: 'hotter', candidateTerm: 'cold' });
    expect(signal('Which?', 'the longest river', 'the shortest river')).toMatchObject({ goldTerm: 'longest', candidateTerm: 'shortest' });
    expect(signal('Which?', 'win', 'winner')).toBeNull();
  });

  it('stays silent where WordNet says nothing about the answer', () => {
    // Another thing of the same kind, a part of a longer name, a word of the gold itself, a term too generic.
    expect(signal('What is the capital of France?', 'Paris', 'Lyon')).toBeNull();
    expect(signal('Who painted the Mona Lisa?', 'Leonardo da Vinci', 'Leonardo DiCaprio')).toBeNull();
    expect(signal('Who painted the Mona Lisa?', 'Leonardo da Vinci', 'Leonardo')).toBeNull();
    expect(signal('Who wrote Hamlet?', 'Shakespeare', 'an object')).toBeNull();
    // A broader term beside a specific other one names that one.
    expect(signal('What is the largest mammal?', 'blue whale', 'The largest mammal is the elephant.')).toBeNull();
    // The question's own words are not the answer.
    expect(signal('Which cattle breed is black?', 'Angus', 'cattle')).toBeNull();
  });
});

describe('in taxonomy_text', () => {
  const cls = (q: string, g: string, c: string) => classifyText(item(q, g, c), lexicon);

  it('a synonym is equivalent, a broader term partial, an antonym contradictory, each named as WordNet', () => {
    expect(cls('Which animal gives us beef?', 'cow', 'Cattle')).toMatchObject({ cls: 'equivalent', signal: 'wordnet' });
    expect(cls('Which animal gives us beef?', 'cow', 'Cattle, mostly raised on farms')).toMatchObject({
      cls: 'overinclusive-valid',
      signal: 'wordnet',
    });
    expect(cls('What is marmalade made from?', 'oranges', 'Fruit')).toMatchObject({ cls: 'partial', signal: 'wordnet' });
    expect(cls('Which end of the pool is for divers?', 'the deep end', 'the shallow end')).toMatchObject({
      cls: 'contradictory',
      signal: 'wordnet',
    });
  });

  it('a narrower term is not credited, and a wrong answer stays invalid', () => {
    expect(cls('What type of rock is formed from lava?', 'igneous rock', 'Basalt').cls).toBe('invalid');
    expect(cls('Who painted the Mona Lisa?', 'Leonardo da Vinci', 'Leonardo DiCaprio').cls).toBe('invalid');
  });
});

describe('without a lexicon', () => {
  it('the signal is silent and the classes are the other signals', () => {
    expect(wordnetSignal(item('Which animal gives us beef?', 'cow', 'Cattle'), null)).toBeNull();
    expect(classifyText(item('Which animal gives us beef?', 'cow', 'Cattle'), null).cls).toBe('invalid');
    // With it, the same answer is another name of the gold.
    expect(classifyText(item('Which animal gives us beef?', 'cow', 'Cattle'), lexicon).cls).toBe('equivalent');
  });
});
