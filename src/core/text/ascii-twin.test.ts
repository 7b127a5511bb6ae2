import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asciiTwin, twinned } from './ascii-twin.ts';
// The modules that give their patterns twins (each registers them on import).
import '../signals/polarity.ts';
import '../signals/quantities.ts';
import '../signals/extra.ts';
import '../signals/lists.ts';

const LONG_S = '\u017f';
const KELVIN = '\u212a';

/** Every match of `re` in `s`: where, what, and each group. */
const matches = (re: RegExp, s: string) =>
  [...s.matchAll(new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`))].map((m) => [m.index, ...m]);

/** The words a pattern looks for (so generated text meets them), with ASCII letters around. */
const wordsOf = (re: RegExp) => re.source.match(/[a-z]{2,}/gi) ?? [];

const flipCase = (w: string, bits: number) => [...w].map((c, i) => ((bits >> (i % 30)) & 1 ? c.toUpperCase() : c)).join('');

/** Text made of a pattern's own words in any case, digits, spaces and punctuation, accented letters, ’ and dashes. */
const textFor = (re: RegExp) =>
  fc
    .array(
      fc.oneof(
        fc.tuple(fc.constantFrom(...wordsOf(re), 'a', 'i', 'the'), fc.integer({ min: 0, max: 2 ** 30 })).map(([w, b]) => flipCase(w, b)),
        fc.constantFrom(' ', '  ', ', ', '. ', '; ', ' - ', ' – ', ' — ', '(', ')', "'", '’', '"', '“', '”', '\n', '\u00a0'),
        fc.constantFrom('1', '12', '1990', '3.5', '2nd', '40%', '°C', 'km', 'ft'),
        fc.constantFrom('é', 'Ö', 'ß', 'ı', 'İ', 'µ', 'Ω', 'ǅ', 'ﬀ', '😀', LONG_S, KELVIN),
      ),
      { maxLength: 14 },
    )
    .map((parts) => parts.join(''));

describe('asciiTwin', () => {
  it('has twins for the text signals’ hot patterns', () => {
    expect(twinned.size).toBeGreaterThanOrEqual(10);
  });

  it('finds the same matches, at the same places, with the same groups, as the pattern itself', () => {
    for (const re of [...twinned]) {
      const pick = asciiTwin(re);
      fc.assert(
        fc.property(textFor(re), (s) => {
          expect(matches(pick(s), s)).toEqual(matches(re, s));
          expect(s.split(pick(s))).toEqual(s.split(re));
        }),
        { numRuns: 300 },
      );
    }
  });

  it('keeps the pattern for text with a letter u folds to ASCII, or an astral character', () => {
    const re = /\bimpossible\b/iu;
    const pick = asciiTwin(re);
    expect(pick('not possible')).not.toBe(re);
    for (const s of [`impo${LONG_S}${LONG_S}ible`, `thin${KELVIN}`, 'ok 😀']) expect(pick(s)).toBe(re);
    // Why: without u, the long s is neither an s nor a word character.
    expect(re.test(`impo${LONG_S}${LONG_S}ible`)).toBe(true);
    expect(new RegExp(re.source, 'i').test(`impo${LONG_S}${LONG_S}ible`)).toBe(false);
  });

  it('leaves a pattern without the u flag as it is, and refuses one the twin would read otherwise', () => {
    const plain = /not/i;
    expect(asciiTwin(plain)('not')).toBe(plain);
    expect(() => asciiTwin(/\p{L}+/u)).toThrow(/needs the u flag/);
    expect(() => asciiTwin(/\u00e9/iu)).toThrow(/needs the u flag/);
    expect(() => asciiTwin(/café/iu)).toThrow(/cased letter é/);
    expect(() => asciiTwin(/[,—–]/iu)).not.toThrow();
  });
});
