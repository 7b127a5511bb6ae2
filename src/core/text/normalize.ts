/**
 * Answer normalization for the lexical metrics.
 *
 * `squad` is the official SQuAD v1.1 `normalize_answer`: lowercase, delete ASCII punctuation, replace the
 * articles a/an/the by spaces, collapse whitespace — reproduced with Python's Unicode rules for `\b` and
 * `str.split()` so results match the official script character for character.
 *
 * `numeric` is `squad` plus number-aware canonical forms (see numbers.ts): thousands separators
 * dropped, `%`/`per cent` → `percent`, number words → digits, ordinals → `1st` form, decimals kept
 * (`3.5` stays `3.5` instead of SQuAD's `35`), and hyphenated number words split.
 */
import { canonicalNumberTokens } from './numbers.ts';

export type Normalization = 'squad' | 'numeric';

// Python's string.punctuation.
const PUNCT = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
// Python's \b(a|an|the)\b with Unicode \w ≈ letters, numbers and underscore.
const ARTICLES = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;
// Characters Python's str.split() treats as whitespace.
const PY_WS = /[\t\n\v\f\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/** Python `' '.join(s.split())` as a token list. */
export function pySplit(s: string): string[] {
  return s.split(PY_WS).filter((t) => t.length > 0);
}

/** Official SQuAD v1.1 normalize_answer. */
export function squadNormalize(s: string): string {
  return pySplit(s.toLowerCase().replace(PUNCT, '').replace(ARTICLES, ' ')).join(' ');
}

const TENS_WORDS = 'twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety';
const HYPHEN_NUMBER = new RegExp(`\\b(${TENS_WORDS})-(?=[a-z])`, 'g');
// Punctuation except a '.' between two digits (a decimal point).
const PUNCT_KEEP_DECIMAL = /(?<!\d)\.|\.(?!\d)|[!"#$%&'()*+,\-/:;<=>?@[\\\]^_`{|}~]/g;

function numericTokens(s: string): string[] {
  const t = s
    .toLowerCase()
    .replace(/(\d),(?=\d{3}(?!\d))/g, '$1')
    .replace(/%/g, ' percent ')
    .replace(/\bper\s+cent\b/g, 'percent')
    .replace(HYPHEN_NUMBER, '$1 ')
    .replace(PUNCT_KEEP_DECIMAL, '')
    .replace(ARTICLES, ' ');
  return canonicalNumberTokens(pySplit(t));
}

/** Normalized tokens under the chosen normalization. */
export function normalizeTokens(s: string, mode: Normalization = 'squad'): string[] {
  return mode === 'squad' ? pySplit(squadNormalize(s)) : numericTokens(s);
}

export function normalize(s: string, mode: Normalization = 'squad'): string {
  return normalizeTokens(s, mode).join(' ');
}
