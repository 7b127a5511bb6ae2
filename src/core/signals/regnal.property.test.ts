import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REGNAL_TESTS } from './quantities.ts';

const { REGNAL, maybeRegnal } = REGNAL_TESTS;

/** The quick test as one pattern: what the function must answer for any text. */
const AS_ONE_PATTERN = /\p{Lu}[\p{Ll}'’-]+\s+(?:[IVXL]+(?![\p{L}\d'’])|the\s+[\dEFNSTefnst])/u;

/** Words around names and numbers, joined by the spaces and marks REGNAL reads. */
const word = fc.constantFrom(
  'Henry',
  'Louis',
  'Élisabeth',
  'O’Neil',
  'Anne-Marie',
  'the',
  'The',
  'I',
  'II',
  'IV',
  'XL',
  'LXXXIX',
  'IIII',
  'Vi',
  'VIth',
  'Fourteenth',
  'first',
  'eighth',
  'Ninth',
  'twentieth',
  'Second',
  '3rd',
  '8th',
  '12th',
  '1912',
  'think',
  'am',
  'In',
  'Paris',
  'Iv',
  'X',
  'L.',
  'I,',
  "I'",
  'Ivan',
  'the5th',
  'king',
  '𝐀bc',
  'ßa',
  'x',
);
const gap = fc.constantFrom(' ', '  ', '\u00a0', '\n', ', ', '. ', '-', '', ' \t ');
const text = fc.array(fc.tuple(word, gap), { maxLength: 8 }).map((parts) => parts.map(([w, g]) => w + g).join(''));

describe('the quick test before REGNAL', () => {
  it('answers as the one pattern does, for any text', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(maybeRegnal(t)).toBe(AS_ONE_PATTERN.test(t));
      }),
      { numRuns: 20000 },
    );
  });

  it('passes every text REGNAL finds a name and number in', () => {
    fc.assert(
      fc.property(text, (t) => {
        if ([...t.matchAll(REGNAL)].length > 0) expect(maybeRegnal(t)).toBe(true);
      }),
      { numRuns: 20000 },
    );
  });

  it('fails the texts that only looked like one', () => {
    for (const t of ['Paris In the United States', 'In the United Kingdom', 'Louis Vuitton', 'then I think']) {
      expect([...t.matchAll(REGNAL)]).toEqual([]);
      expect(maybeRegnal(t)).toBe(false);
    }
    expect(maybeRegnal('Henry VIII')).toBe(true);
    expect(maybeRegnal('the the  Henry  the  Eighth')).toBe(true);
  });
});
