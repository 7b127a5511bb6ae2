import { describe, expect, it } from 'vitest';
import { acronymIn, goldForms } from './aliases.ts';
import { classifyText } from './classify.ts';
import { analyze } from '../metrics/pedants-features.ts';
import { lexicon } from '../../../test/lexicon.ts';

const verdict = (question: string, gold: string, candidate: string) => classifyText({ question, golds: [gold], candidate }, lexicon);

describe('goldForms: other names of a gold', () => {
  it('without a qualifier in parentheses, without a geographic head, Mt for Mount, usual country names', () => {
    expect(goldForms('Paris (France)')).toEqual(['Paris']);
    expect(goldForms('Pacific Ocean')).toEqual(['Pacific']);
    expect(goldForms('Mount Everest')).toEqual(['Mt Everest', 'Everest']);
    expect(goldForms('Lake Victoria')).toEqual(['Victoria']);
    expect(goldForms('USA')).toEqual(['United States', 'United States of America', 'U.S.A.', 'U.S.', 'US']);
  });
  it('a name\'s "Jr." or "Sr." in its other spellings', () => {
    expect(goldForms('Harry Connick Jnr')).toEqual(['Harry Connick Jr.', 'Harry Connick Jr', 'Harry Connick Junior']);
    expect(goldForms('Martin Luther King, Jr.')).toContain('Martin Luther King Junior');
    expect(goldForms('Frank Sinatra Sr')).toContain('Frank Sinatra Snr');
  });
  it('the world wars by their other names, a decade or century said another way', () => {
    expect(goldForms('the Second World War')).toEqual(['World War II', 'World War 2', 'WWII', 'WW2']);
    expect(goldForms('WWI')).toEqual(['World War I', 'World War 1', 'First World War', 'WW1', 'Great War']);
    expect(goldForms('1960s')).toEqual(['60s', 'sixties']);
    expect(goldForms("the 1990's")).toEqual(['90s', 'nineties']);
    expect(goldForms('1900s')).toEqual(['20th century']);
    expect(goldForms('14th century')).toEqual(['1300s']);
    // The 2000s are a decade, and the 1000s a number: neither is a century's other name.
    expect(goldForms('21st century')).toEqual([]);
    expect(goldForms('2000s')).toEqual([]);
    expect(goldForms('11th century')).toEqual([]);
    expect(goldForms('1960')).toEqual([]);
    expect(goldForms('1st century')).toEqual([]);
  });
  it('keeps a head whose other word names nothing alone, and leaves plain golds alone', () => {
    expect(goldForms('Red Sea')).toEqual([]);
    expect(goldForms('North Sea')).toEqual([]);
    expect(goldForms('Paris')).toEqual([]);
    expect(goldForms('Albert Einstein')).toEqual([]);
  });
});

describe('acronymIn', () => {
  it('finds a gold acronym spelled out, and a spelled-out gold as its acronym', () => {
    expect(acronymIn('FIFA', 'It is the Fédération Internationale de Football Association.')).toBe(
      'Fédération Internationale de Football Association',
    );
    expect(acronymIn('United States of America', 'The USA.')).toBe('USA');
    expect(acronymIn('United States of America', 'The U.S.A. did.')).toBe('U.S.A.');
    expect(acronymIn('John Fitzgerald Kennedy', 'It was JFK.')).toBe('JFK');
  });
  it('needs three letters and capitals as written', () => {
    expect(acronymIn('Los Angeles', 'LA')).toBeNull();
    expect(acronymIn('National Aeronautics and Space Administration', 'nasa')).toBeNull();
    expect(acronymIn('FIFA', 'The Football Association')).toBeNull();
  });
});

describe('in the taxonomy and pedants', () => {
  it('another name of the gold is the gold; a wrong one is not', () => {
    expect(verdict('Which country has the largest economy?', 'USA', 'The United States').cls).toBe('equivalent');
    expect(verdict('Which agency landed men on the moon?', 'National Aeronautics and Space Administration', 'NASA did.').cls).toBe(
      'equivalent',
    );
    expect(verdict('What is the largest ocean?', 'Pacific Ocean', 'The Pacific').cls).toBe('equivalent');
    expect(verdict('What is the tallest mountain?', 'Mount Everest', 'Mt. Everest').cls).toBe('equivalent');
    expect(verdict('Where is the Eiffel Tower?', 'Paris (France)', 'Paris, the capital.').cls).toBe('overinclusive-valid');
    expect(verdict('What is the largest ocean?', 'Pacific Ocean', 'The Atlantic Ocean').cls).toBe('invalid');
  });
  it('the world wars, decades, centuries and "the U.S." by their other names', () => {
    expect(verdict('In which war was the Battle of the Bulge?', 'World War II', 'The Second World War').cls).toBe('equivalent');
    expect(verdict('In which war was the Battle of the Bulge?', 'Second World War', 'WWII').cls).toBe('equivalent');
    expect(verdict('When was the song written?', 'the 1960s', "In the '60s.").cls).toBe('equivalent');
    expect(verdict('When did the Renaissance begin?', '14th century', 'It began in the 1300s.').cls).toBe('overinclusive-valid');
    expect(verdict('Which country?', 'United States', 'The U.S.').cls).toBe('equivalent');
    // "us" the pronoun is not the country, nor is "US" inside the question.
    expect(verdict('Which country?', 'United States', 'Let us see: France.').cls).toBe('invalid');
    expect(verdict('Which US state is largest?', 'Alaska', 'US').cls).toBe('invalid');
    expect(verdict('When was the song written?', 'the 1960s', 'the 70s').cls).toBe('invalid');
  });
  it('a name the question already says is no answer', () => {
    expect(verdict('What does PDF stand for in diving?', 'Platform Divers Float', 'PDF stands for Portable Document Format.').cls).toBe(
      'invalid',
    );
  });
  it("pedants reads the other name as one more gold: its features and its explanation's best gold", () => {
    const a = analyze({ question: 'Which country has the largest economy?', golds: ['USA'], candidate: 'The United States' }, lexicon);
    expect(a.bestGold).toBe('United States');
    expect(a.dense[0]).toBe(1); // token F1 against "United States"
  });
});
