import { describe, expect, it } from 'vitest';
import { normalize, normalizeTokens, squadNormalize } from './normalize.ts';
import { canonicalNumberTokens, ordinalSuffix } from './numbers.ts';
import { createLexicalMatch } from '../metrics/lexical_match.ts';
import type { QaItem } from '../types.ts';

const num = (s: string) => normalize(s, 'numeric');
const squad = (s: string) => normalize(s, 'squad');

/** All spellings normalize to `want` under the numeric normalization. */
function same(want: string, ...spellings: string[]) {
  for (const s of spellings) expect(num(s), JSON.stringify(s)).toBe(want);
}

describe('numeric normalization', () => {
  it('typographic quotes and hyphens go like ASCII ones; other non-ASCII punctuation parts words (SQuAD keeps it, as the official script)', () => {
    same('fiddler on roof', '“Fiddler on the Roof”.', '"Fiddler on the Roof".', '‘Fiddler on the Roof’');
    same('marys boy child', 'Mary’s Boy Child', "Mary's Boy Child");
    same('lennon mccartney', 'Lennon–McCartney', 'Lennon — McCartney');
    same('cocacola', 'Coca‐Cola…', '¡Coca-Cola!', 'coca‑cola');
    same('東京 大阪', '東京、大阪。');
    same('50000000', '£50 million', '$50 million', '€50 million');
    expect(squad('“Fiddler on the Roof”')).toBe('“fiddler on roof”');
    const m = createLexicalMatch();
    expect(
      m.score({ question: 'Which show?', golds: ['Fiddler on the Roof'], candidate: 'The show “Fiddler on the Roof”.' }).decision,
    ).toBe(true);
  });
  it('thousands separators: 977,633 = 977633', () => {
    same('977633', '977,633', '977633', '977,633.');
    same('1000000 people', '1,000,000 people', '1000000 People');
  });

  it('percent: 27% = 27 percent = 27 per cent', () => {
    same('27 percent', '27%', '27 %', '27 percent', '27 per cent', '27 Per  Cent', '27 PERCENT');
    same('0.5 percent', '0.5%');
  });

  it('number words → digits: twelve = 12', () => {
    same('12', 'twelve', 'Twelve', '12');
    same('12 apostles', 'The Twelve Apostles', 'twelve apostles', '12 apostles');
    same('21', 'twenty one', 'twenty-one', 'Twenty-One', '21');
    same('42', 'forty-two', 'forty two');
  });

  it('ordinals: 1st = first, twenty-first = 21st', () => {
    same('1st', 'first', 'First', '1st');
    same('1st place', 'first place', '1st place');
    same('21st', 'twenty-first', 'twenty first', '21st');
    same('21st century', 'the twenty-first century', 'the 21st century');
    same('66th', 'sixty-sixth');
    same('100th', 'hundredth', 'one hundredth');
  });

  it('compound numbers: one hundred and five = 105', () => {
    same('105', 'one hundred and five', 'one hundred five', '105');
    same('1001', 'one thousand and one');
    // five hundred = 500, then × thousand.
    same('500000', 'five hundred thousand');
    // "a hundred": the article goes, "hundred" alone is 100.
    same('100', 'a hundred');
  });

  it('scales after digits: 3 million = 3000000', () => {
    same('3000000', '3 million', 'three million', '3,000,000', '3000000');
    // 3.5 × 10^6 is a whole number, so the scale is folded in.
    same('3500000', '3.5 million');
  });

  it('decimals: 3.5 stays 3.5 in numeric, becomes 35 in squad', () => {
    expect(num('3.5')).toBe('3.5');
    expect(squad('3.5')).toBe('35');
    // A full stop that is not between digits is still punctuation.
    expect(num('It was 3.5.')).toBe('it was 3.5');
    expect(num('in 1990.')).toBe('in 1990');
  });

  it('"one two" is two numbers (1 2), not 3', () => {
    expect(num('one two')).toBe('1 2');
    expect(normalizeTokens('one two', 'numeric')).toEqual(['1', '2']);
    // "twelve one" and "two twenty" are not compounds either.
    expect(num('twelve one')).toBe('12 1');
    expect(num('two twenty')).toBe('2 20');
    // Digits followed by a number word stay separate.
    expect(num('3 two')).toBe('3 2');
  });

  it('words that are Object.prototype keys are plain words', () => {
    expect(num('The constructor of one')).toBe('constructor of 1');
    expect(canonicalNumberTokens(['twenty', 'constructor'])).toEqual(['20', 'constructor']);
  });

  it('"and" joins a number only after a scale word', () => {
    expect(num('five and six')).toBe('5 and 6');
    expect(num('rock and roll')).toBe('rock and roll');
  });

  it('the degree sign: 212°F = 212 degrees Fahrenheit, 45° = 45 degrees', () => {
    same('212 degrees fahrenheit', '212°F', '212 °F', '212 degrees Fahrenheit');
    same('100 degrees celsius', '100°C', '100 degrees Celsius');
    same('45 degrees', '45°');
  });

  it('Latin accents folded in numeric, kept in squad; other scripts untouched', () => {
    same('lome', 'Lomé', 'LOMÉ', 'Lome');
    same('sao paulo', 'São Paulo');
    same('orsted', 'Ørsted');
    same('lodz', 'Łódź');
    same('strasse', 'Straße');
    same('angstrom', 'Ångström', 'A\u030angstro\u0308m');
    expect(num('한국어 हिन्दी')).toBe('한국어 हिन्दी');
    expect(squad('Lomé')).toBe('lomé');
  });

  it('squad normalization leaves number words alone', () => {
    expect(squad('twelve')).toBe('twelve');
    expect(squad('27%')).toBe('27');
    expect(squad('27 per cent')).toBe('27 per cent');
    expect(squad('first')).toBe('first');
    // Hyphens are deleted, not split.
    expect(squad('twenty-first')).toBe('twentyfirst');
    // Thousands separators are punctuation too.
    expect(squad('977,633')).toBe('977633');
  });

  it('default mode is squad', () => {
    expect(normalize('Twelve')).toBe('twelve');
    expect(normalizeTokens('The Twelve, Apostles!')).toEqual(['twelve', 'apostles']);
  });

  it('squadNormalize: lowercase, punctuation out, a/an/the out, whitespace collapsed', () => {
    // "The Cat's hat!" → "the cat's hat!" → "the cats hat" → " cats hat" → "cats hat".
    expect(squadNormalize("The Cat's hat!")).toBe('cats hat');
    expect(squadNormalize('  An   apple\ta day ')).toBe('apple day');
    // "theatre" and "another" keep their letters (articles are whole words only).
    expect(squadNormalize('another theatre')).toBe('another theatre');
  });
});

describe('numbers.ts helpers', () => {
  it('ordinalSuffix', () => {
    const cases: [number, string][] = [
      [1, '1st'],
      [2, '2nd'],
      [3, '3rd'],
      [4, '4th'],
      [11, '11th'],
      [12, '12th'],
      [13, '13th'],
      [21, '21st'],
      [22, '22nd'],
      [23, '23rd'],
      [101, '101st'],
      [111, '111th'],
      [112, '112th'],
      [1000, '1000th'],
    ];
    for (const [n, s] of cases) expect(ordinalSuffix(n)).toBe(s);
  });

  it('canonicalNumberTokens on token lists', () => {
    expect(canonicalNumberTokens(['one', 'hundred', 'and', 'five', 'dalmatians'])).toEqual(['105', 'dalmatians']);
    expect(canonicalNumberTokens(['twenty', 'first'])).toEqual(['21st']);
    expect(canonicalNumberTokens(['3', 'million'])).toEqual(['3000000']);
    expect(canonicalNumberTokens(['one', 'two'])).toEqual(['1', '2']);
    expect(canonicalNumberTokens(['hundred', 'and'])).toEqual(['100', 'and']);
    expect(canonicalNumberTokens([])).toEqual([]);
  });
});

describe('lexical_match', () => {
  const lm = createLexicalMatch();
  const lmSub = createLexicalMatch({ mode: 'substring' });
  const lmSquad = createLexicalMatch({ normalization: 'squad' });
  const item = (golds: string[], candidate: string): QaItem => ({ question: '', golds, candidate });

  it('token boundaries: gold "1" is not in "1990"; substring mode does match', () => {
    expect(lm.score(item(['1'], 'It happened in 1990.'))).toMatchObject({
      score: 0,
      decision: false,
      explanation: 'no gold occurs in the candidate',
    });
    expect(lmSub.score(item(['1'], 'It happened in 1990.'))).toMatchObject({
      score: 1,
      decision: true,
      explanation: 'gold "1" occurs in the candidate (substring)',
    });
    // Multi-word golds also need whole tokens.
    expect(lm.score(item(['New York'], 'a New Yorker')).score).toBe(0);
    expect(lmSub.score(item(['New York'], 'a New Yorker')).score).toBe(1);
    expect(lm.score(item(['New York'], 'in new york, usa')).score).toBe(1);
    // Token runs must be contiguous and whole: "b c" is not in "ab c", but is a substring of it.
    expect(lm.score(item(['b c'], 'ab c')).score).toBe(0);
    expect(lmSub.score(item(['b c'], 'ab c')).score).toBe(1);
    expect(lm.score(item(['b c'], 'b x c')).score).toBe(0);
  });

  it('a gold in the middle, at the start and at the end of the candidate', () => {
    expect(lm.score(item(['1945'], 'It ended in 1945.'))).toMatchObject({
      score: 1,
      decision: true,
      explanation: 'gold "1945" occurs in the candidate (token boundaries)',
      details: { matched_gold: '1945' },
    });
    expect(lm.score(item(['paris'], 'Paris is the answer')).score).toBe(1);
    expect(lm.score(item(['Paris'], 'the answer: PARIS!')).score).toBe(1);
  });

  it('multi-gold: any gold counts, the first matching gold (in gold order) is reported', () => {
    expect(lm.score(item(['Paris', 'London'], 'It is London, UK.'))).toMatchObject({ score: 1, details: { matched_gold: 'London' } });
    expect(lm.score(item(['London', 'UK'], 'UK, i.e. London'))).toMatchObject({ score: 1, details: { matched_gold: 'London' } });
    expect(lm.score(item(['Paris', 'London'], 'Berlin'))).toMatchObject({ score: 0, decision: false });
  });

  it('number-aware by default, not under squad', () => {
    expect(lm.score(item(['twelve'], '12 apostles')).score).toBe(1);
    expect(lm.score(item(['977,633'], 'about 977633 people')).score).toBe(1);
    expect(lm.score(item(['27%'], 'roughly 27 per cent')).score).toBe(1);
    expect(lm.score(item(['1st'], 'she came first')).score).toBe(1);
    expect(lm.score(item(['105'], 'one hundred and five dalmatians')).score).toBe(1);
    expect(lmSquad.score(item(['twelve'], '12 apostles')).score).toBe(0);
    // Decimal points kept: gold 3.5 is not in "35".
    expect(lm.score(item(['3.5'], 'about 35')).score).toBe(0);
    expect(lmSquad.score(item(['3.5'], 'about 35')).score).toBe(1);
  });

  it('golds that normalize to nothing never match', () => {
    expect(lm.score(item(['the', 'a'], 'the answer'))).toMatchObject({ score: 0, explanation: 'every gold is empty after normalization' });
  });
});
