import { describe, expect, it } from 'vitest';
import { foldAccents, normalizeTokens, pySplit } from './normalize.ts';
import { canonicalNumberTokens } from './numbers.ts';
import { mulberry32 } from '../util/random.ts';

// The straightforward regex chains the one-pass tokenizer replaces (the SQuAD script's steps, in order).
const PUNCT = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
const ARTICLES = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;
const PUNCT_KEEP_DECIMAL = /(?<!\d)\.|\.(?!\d)|[!"#$%&'()*+,\-/:;<=>?@[\\\]^_`{|}~]/g;
const HYPHEN_NUMBER = /\b(twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)-(?=[a-z])/g;

const refSquad = (s: string) => pySplit(s.toLowerCase().replace(PUNCT, '').replace(ARTICLES, ' '));
const refNumeric = (s: string) =>
  canonicalNumberTokens(
    pySplit(
      foldAccents(s.toLowerCase())
        .replace(/[‘’‚‛]/g, "'")
        .replace(/[“”„«»]/g, '"')
        .replace(/[‐‑]/g, '-')
        .replace(/(?![\x00-\x7f])\p{Sc}/gu, '')
        .replace(/(?![\x00-\x7f])\p{P}/gu, ' ')
        .replace(/%/g, ' percent ')
        .replace(/\bper\s+cent\b/g, 'percent')
        .replace(/°\s*f\b/g, ' degrees fahrenheit ')
        .replace(/°\s*c\b/g, ' degrees celsius ')
        .replace(/°/g, ' degrees ')
        .replace(HYPHEN_NUMBER, '$1 ')
        .replace(PUNCT_KEEP_DECIMAL, '')
        .replace(ARTICLES, ' '),
    ),
  );

const PIECES = [
  'a',
  'an',
  'the',
  'The',
  'A',
  'x',
  'Q',
  'é',
  'ß',
  'İ',
  'Σ',
  '北',
  '€',
  '🎉',
  '_',
  '.',
  ',',
  '%',
  '-',
  "'",
  '"',
  '“',
  '—',
  ' ',
  ' ',
  '\t',
  '\n',
  '\x1c',
  '\x00',
  '\u00a0',
  '\u2003',
  '\ufeff',
  '\u0301',
  '0',
  '1',
  '9',
  '3.5',
  '1,000',
  'per',
  'cent',
  'twenty',
  'first',
  'one',
  'hundred',
  'and',
  'apple',
  'théâtre',
];

function randomString(rnd: () => number): string {
  const n = Math.floor(rnd() * 12);
  let s = '';
  for (let i = 0; i < n; i++) {
    s += PIECES[Math.floor(rnd() * PIECES.length)];
    if (rnd() < 0.3) s += ' ';
  }
  return s;
}

describe('one-pass tokenizer = the regex chain it replaces', () => {
  it('on 20,000 random strings of tricky pieces', () => {
    const rnd = mulberry32(7);
    for (let i = 0; i < 20_000; i++) {
      const s = randomString(rnd);
      expect(normalizeTokens(s, 'squad'), JSON.stringify(s)).toEqual(refSquad(s));
      expect(normalizeTokens(s, 'numeric'), JSON.stringify(s)).toEqual(refNumeric(s));
    }
  });
});
