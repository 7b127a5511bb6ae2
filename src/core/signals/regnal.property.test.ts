import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { REGNAL_PATTERNS } from './quantities.ts';

const { REGNAL, MAYBE_REGNAL, MAYBE_NUMERAL } = REGNAL_PATTERNS;

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
);
const gap = fc.constantFrom(' ', '  ', '\u00a0', '\n', ', ', '. ', '-', '');

describe('the quick tests before REGNAL', () => {
  it('pass every text REGNAL finds a name and number in', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(word, gap), { maxLength: 8 }), (parts) => {
        const text = parts.map(([w, g]) => w + g).join('');
        if ([...text.matchAll(REGNAL)].length > 0) {
          expect(MAYBE_NUMERAL.test(text)).toBe(true);
          expect(MAYBE_REGNAL.test(text)).toBe(true);
        }
      }),
      { numRuns: 20000 },
    );
  });

  it('fail the texts that only looked like one', () => {
    for (const text of ['Paris In the United States', 'In the United Kingdom', 'Louis Vuitton']) {
      expect([...text.matchAll(REGNAL)]).toEqual([]);
      expect(MAYBE_NUMERAL.test(text) && MAYBE_REGNAL.test(text)).toBe(false);
    }
    expect(MAYBE_NUMERAL.test('Henry VIII') && MAYBE_REGNAL.test('Henry VIII')).toBe(true);
  });
});
