import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tidied, tidy } from './clauses.ts';

/** Pieces as a split leaves them: every character either end can trim, or keep, or be split across (astral). */
const char = fc.constantFrom(' ', '\u00a0', '\u2028', '\t', ',', ';', ':', '.', '..', '…', 'a', 'Z', '1', 'é', '😀', '"', '-');

describe('tidied', () => {
  it('trims as the two patterns do, for any piece', () => {
    fc.assert(
      fc.property(fc.array(char, { maxLength: 10 }), (cs) => {
        const p = cs.join('');
        expect(tidied(p)).toBe(tidy(p));
      }),
      { numRuns: 5000 },
    );
  });
});
