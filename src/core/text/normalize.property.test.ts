import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalize, normalizeTokens, pySplit, squadNormalize, type Normalization } from './normalize.ts';
import { canonicalNumberTokens, ordinalSuffix } from './numbers.ts';
import { ADVERSARIAL_PIECES } from './adversarial.ts';

const piece = fc.constantFrom(...ADVERSARIAL_PIECES);
/** Hostile pieces glued or spaced, any code points, and any UTF-16 units (lone surrogates included). */
const text = fc.oneof(
  fc.array(piece, { maxLength: 12 }).map((p) => p.join('')),
  fc.array(piece, { maxLength: 12 }).map((p) => p.join(' ')),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 30 }),
);
const mode = fc.constantFrom<Normalization>('squad', 'numeric');
const RUNS = { numRuns: 400 };

const ASCII_PUNCT = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/;
// Python's str.split() whitespace (normalize.ts PY_WS).
const PY_WS = /[\t\n\v\f\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/;

// The SQuAD script's regex chain, step by step (the one-pass tokenizer replaces it).
const refSquad = (s: string) =>
  pySplit(
    s
      .toLowerCase()
      .replace(/[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g, '')
      .replace(/(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu, ' '),
  );

describe('normalize: documented output form, on any string', () => {
  it('never throws; normalize is the tokens joined by single spaces', () => {
    fc.assert(
      fc.property(text, mode, (s, m) => {
        expect(normalize(s, m)).toBe(normalizeTokens(s, m).join(' '));
      }),
      RUNS,
    );
  });

  it('tokens are non-empty, hold no whitespace, no ASCII capitals and are never a/an/the', () => {
    fc.assert(
      fc.property(text, mode, (s, m) => {
        for (const t of normalizeTokens(s, m)) {
          expect(t.length).toBeGreaterThan(0);
          expect(t).not.toMatch(PY_WS);
          expect(t).not.toMatch(/[A-Z]/);
          expect(['a', 'an', 'the']).not.toContain(t);
        }
      }),
      RUNS,
    );
  });

  it('squad deletes all ASCII punctuation; numeric keeps only "." between two digits', () => {
    fc.assert(
      fc.property(text, (s) => {
        for (const t of normalizeTokens(s, 'squad')) expect(t).not.toMatch(ASCII_PUNCT);
        for (const t of normalizeTokens(s, 'numeric')) expect(t.replace(/(?<=\d)\.(?=\d)/g, '')).not.toMatch(ASCII_PUNCT);
      }),
      RUNS,
    );
  });

  it('squad equals the official regex chain it reimplements', () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(normalizeTokens(s, 'squad')).toEqual(refSquad(s));
      }),
      RUNS,
    );
  });

  it('squad is idempotent: normalizing a normalized answer changes nothing', () => {
    fc.assert(
      fc.property(text, (s) => {
        const once = squadNormalize(s);
        expect(squadNormalize(once)).toBe(once);
      }),
      RUNS,
    );
  });

  it('ASCII case does not matter (both modes lowercase first)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary-ascii', maxLength: 40 }), mode, (s, m) => {
        expect(normalize(s.toUpperCase(), m)).toBe(normalize(s, m));
      }),
      RUNS,
    );
  });

  it('squad: any run of whitespace is the same as one space', () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(squadNormalize(s.replace(new RegExp(`${PY_WS.source}+`, 'g'), ' '))).toBe(squadNormalize(s));
      }),
      RUNS,
    );
  });
});

describe('numbers.ts', () => {
  const numberWord = fc.constantFrom(
    'zero',
    'one',
    'five',
    'nine',
    'ten',
    'twelve',
    'nineteen',
    'twenty',
    'ninety',
    'hundred',
    'thousand',
    'million',
    'billion',
    'trillion',
    'and',
    'first',
    'twelfth',
    'twentieth',
    'hundredth',
    'thousandth',
    'millionth',
    'billionth',
  );
  const digits = fc.stringMatching(/^\d{1,30}(\.\d{1,8})?$/);
  const token = fc.oneof(numberWord, digits, fc.constantFrom('apple', 'per', 'cent', 'percent', '1st', 'constructor'));

  it('never throws, and number output is plain digits (never exponent form like 1e+23)', () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 10 }), (tokens) => {
        for (const t of canonicalNumberTokens(tokens)) expect(t).not.toMatch(/e\+|\+|Infinity|NaN/);
      }),
      RUNS,
    );
  });

  it('a list with no digit and no number word comes back untouched (the same array)', () => {
    // No number word starts with q, x or y.
    const plain = fc.oneof(fc.stringMatching(/^[qxy][a-z]{0,6}$/), fc.constantFrom('é', '北京', '🙂', '\u0301', '\ud800'));
    fc.assert(
      fc.property(fc.array(plain, { maxLength: 8 }), (tokens) => {
        expect(canonicalNumberTokens(tokens)).toBe(tokens);
      }),
      RUNS,
    );
  });

  it('digits × scale words is exact, at any size (BigInt oracle)', () => {
    const zeros: Record<string, number> = { thousand: 3, million: 6, billion: 9, trillion: 12 };
    fc.assert(
      fc.property(
        fc.stringMatching(/^[1-9]\d{0,30}$/),
        fc.array(fc.constantFrom('thousand', 'million', 'billion', 'trillion'), { minLength: 1, maxLength: 3 }),
        (lead, scales) => {
          const k = scales.reduce((n, w) => n + zeros[w]!, 0);
          expect(canonicalNumberTokens([lead, ...scales])).toEqual([(BigInt(lead) * 10n ** BigInt(k)).toString()]);
        },
      ),
      RUNS,
    );
  });

  it('ordinalSuffix: digits then st/nd/rd/th, th for 11–13', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.nat(),
          fc.integer({ min: 1, max: 1000 }).map((n) => n * 1e21),
        ),
        (n) => {
          const s = ordinalSuffix(n);
          expect(s).toMatch(/^\d+(st|nd|rd|th)$/);
          if (n % 100 >= 11 && n % 100 <= 13) expect(s.endsWith('th')).toBe(true);
        },
      ),
      RUNS,
    );
  });

  it('regressions: large and fractional numbers with scale words', () => {
    // These went through Number(): exponent form from 10^21 on, float error (1.005 × 1000 = 1004.999…) and lost digits.
    expect(normalize('100000000000 trillion', 'numeric')).toBe(`1${'0'.repeat(23)}`);
    expect(normalize('1.005 thousand', 'numeric')).toBe('1005');
    expect(normalize('123456789012345678 million', 'numeric')).toBe('123456789012345678000000');
    expect(normalize('nine hundred trillion billionth', 'numeric')).toBe(`9${'0'.repeat(23)}th`);
    // Unchanged: whole numbers, decimals that scale to whole numbers, and leading zeros.
    expect(normalize('3.5 million', 'numeric')).toBe('3500000');
    expect(normalize('0.5 million', 'numeric')).toBe('500000');
    expect(normalize('007 thousand', 'numeric')).toBe('7000');
    expect(normalize('3.1234567 million', 'numeric')).toBe('3.1234567 1000000');
  });
});
