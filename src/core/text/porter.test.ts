import { describe, expect, it } from 'vitest';
import fixture from '../../../test/fixtures/porter-nltk.json' with { type: 'json' };
import { porterStem } from './porter.ts';

// Stems from nltk's PorterStemmer (NLTK_EXTENSIONS); the word list includes every word of the
// 4,913-word sample where the npm `stemmer` package disagrees with nltk (why porter.ts exists).
describe(`porterStem = nltk ${fixture.nltk_version} PorterStemmer().stem`, () => {
  it(`agrees on all ${fixture.cases.length} fixture words`, () => {
    const bad = fixture.cases.filter(([w, s]) => porterStem(w!) !== s).map(([w, s]) => `${w}: ${porterStem(w!)} ≠ ${s}`);
    expect(bad).toEqual([]);
  });
  it('covers the npm stemmer disagreements', () => {
    const words = new Set(fixture.cases.map(([w]) => w));
    expect(fixture.npm_stemmer_disagreements.filter((w) => !words.has(w))).toEqual([]);
  });
  it('follows nltk on a few hand-picked rules', () => {
    expect(['running', 'runs', 'dying', 'skies', 'flies', 'dies', 'generalizations', 'enjoy', 'happy'].map(porterStem)).toEqual([
      'run',
      'run',
      'die',
      'sky',
      'fli',
      'die',
      'gener',
      'enjoy',
      'happi',
    ]);
  });
});
