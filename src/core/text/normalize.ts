/**
 * Answer normalization for the lexical metrics.
 *
 * `squad` is the official SQuAD v1.1 `normalize_answer`: lowercase, delete ASCII punctuation, replace the
 * articles a/an/the by spaces, collapse whitespace — reproduced with Python's Unicode rules for `\b` and
 * `str.split()` so results match the official script character for character.
 *
 * `numeric` is `squad` plus number-aware canonical forms (see numbers.ts): thousands separators
 * dropped, `%`/`per cent` → `percent`, number words → digits, ordinals → `1st` form, decimals kept
 * (`3.5` stays `3.5` instead of SQuAD's `35`), hyphenated number words split, Latin accents folded
 * (`Lomé` = `Lome`), typographic quotes, hyphens and currency signs deleted like ASCII ones, and other
 * non-ASCII punctuation (dashes, "…", "¿", "、") read as spaces.
 */
import { canonicalNumberTokens } from './numbers.ts';
import { textMemo } from '../util/memo.ts';

export type Normalization = 'squad' | 'numeric';

// Python's string.punctuation.
// Python's \b(a|an|the)\b with Unicode \w ≈ letters, numbers and underscore.
const ARTICLES = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;
// Characters Python's str.split() treats as whitespace.
const PY_WS = /[\t\n\v\f\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/** Python `' '.join(s.split())` as a token list. */
export function pySplit(s: string): string[] {
  return s.split(PY_WS).filter((t) => t.length > 0);
}

// Character classes for the one-pass tokenizer: 0 = [a-z0-9], 1 = ASCII punctuation (deleted),
// 2 = whitespace as Python's str.split() sees it, 3 = anything else (kept; may or may not be a word char).
const ASCII_CLASS = new Uint8Array(128).fill(3);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[a-z0-9]/.test(ch)) ASCII_CLASS[c] = 0;
  else if (/[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/.test(ch)) ASCII_CLASS[c] = 1;
  else if (/[\t\n\v\f\r \x1c-\x1f]/.test(ch)) ASCII_CLASS[c] = 2;
}
const isPyWhitespace = (c: number): boolean =>
  c === 0x85 ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000;
const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/**
 * One pass over lowercased text: delete ASCII punctuation (keeping '.' between two digits when asked),
 * split on Python whitespace and drop the articles a/an/the — the same result as SQuAD's regex chain.
 * Tokens made only of [a-z0-9] are checked for articles directly; the rare token with other characters
 * goes through the Unicode-aware regex, so boundaries stay exactly Python's.
 */
function tokenize(t: string, keepDecimal: boolean): string[] {
  // No closures in here: tsx wraps every closure in a name-keeping helper that dominates a hot loop.
  const out: string[] = [];
  let cur = '';
  let runStart = -1;
  let plain = true;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    let k = c < 128 ? ASCII_CLASS[c]! : isPyWhitespace(c) ? 2 : 3;
    if (k === 1 && keepDecimal && c === 46 && isDigit(t.charCodeAt(i - 1)) && isDigit(t.charCodeAt(i + 1))) k = 3;
    if (k === 0 || k === 3) {
      if (runStart < 0) runStart = i;
      if (k === 3 && c !== 46) plain = false;
      continue;
    }
    if (runStart >= 0) {
      cur += t.slice(runStart, i);
      runStart = -1;
    }
    if (k === 2) {
      emitToken(out, cur, plain);
      cur = '';
      plain = true;
    }
  }
  if (runStart >= 0) cur += t.slice(runStart);
  emitToken(out, cur, plain);
  return out;
}

function emitToken(out: string[], tok: string, plain: boolean): void {
  if (tok === '') return;
  if (plain) {
    if (tok !== 'a' && tok !== 'an' && tok !== 'the') out.push(tok);
  } else if (tok.includes('a') || tok.includes('the')) out.push(...pySplit(tok.replace(ARTICLES, ' ')));
  else out.push(tok);
}

function squadTokens(s: string): string[] {
  return tokenize(s.toLowerCase(), false);
}

/** Official SQuAD v1.1 normalize_answer. */
export function squadNormalize(s: string): string {
  return squadTokens(s).join(' ');
}

const TENS_WORDS = 'twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety';
const HYPHEN_NUMBER = new RegExp(`\\b(${TENS_WORDS})-(?=[a-z])`, 'g');

/** Latin letters no decomposition reaches ("Ørsted", "Łódź", "Straße"). */
const LATIN_FOLD: Record<string, string> = { ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', æ: 'ae', œ: 'oe', ß: 'ss', ı: 'i' };

/**
 * Latin accents dropped (Lomé = Lome, São Paulo = Sao Paulo): answers and golds often differ in nothing else.
 * Only the combining diacritics block goes, and NFC puts the rest back together (Hangul, Devanagari…).
 */
export function foldAccents(t: string): string {
  if (!/[^\x00-\x7f]/.test(t)) return t;
  return t
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[øłđðþæœßı]/g, (c) => LATIN_FOLD[c]!)
    .normalize('NFC');
}

const NON_ASCII_PUNCT = /(?![\x00-\x7f])[\p{P}\p{Sc}]/u;
const NON_ASCII_PUNCT_ALL = /(?![\x00-\x7f])\p{P}/gu;

function numericTokens(s: string): string[] {
  // Each rewrite runs only when its trigger is present (same result, much faster).
  let t = foldAccents(s.toLowerCase());
  // Typographic quotes and hyphens as their ASCII forms (deleted as punctuation: "‘selfie’" is "selfie", "Mary’s"
  // "marys"), and any other non-ASCII punctuation as a space: dashes ("Lennon–McCartney"; the ASCII hyphen joins
  // words, as SQuAD's rule has it), "…", "¿", "、", full-width marks.
  if (NON_ASCII_PUNCT.test(t))
    t = t
      .replace(/[‘’‚‛]/g, "'")
      .replace(/[“”„«»]/g, '"')
      .replace(/[‐‑]/g, '-')
      // Currency signs go as "$" does ("£50" is "50").
      .replace(/(?![\x00-\x7f])\p{Sc}/gu, '')
      .replace(NON_ASCII_PUNCT_ALL, ' ');
  if (t.includes('%')) t = t.replace(/%/g, ' percent ');
  if (t.includes('cent')) t = t.replace(/\bper\s+cent\b/g, 'percent');
  // "212°F" = "212 degrees Fahrenheit" (the degree sign would otherwise glue the number to its unit).
  if (t.includes('°'))
    t = t
      .replace(/°\s*f\b/g, ' degrees fahrenheit ')
      .replace(/°\s*c\b/g, ' degrees celsius ')
      .replace(/°/g, ' degrees ');
  if (t.includes('-')) t = t.replace(HYPHEN_NUMBER, '$1 ');
  return canonicalNumberTokens(tokenize(t, true));
}

const MEMO_LONGEST = 400;
/**
 * Two generations (textMemo): a file laid out system by system brings a question's golds back once per system,
 * after every other question's; a map emptied when full dropped them all before they came back.
 */
const memo = { squad: textMemo(squadTokens), numeric: textMemo(numericTokens) };
const lastLong = { squad: { text: '', tokens: [] as string[] }, numeric: { text: '', tokens: [] as string[] } };

/**
 * Normalized tokens under the chosen normalization. Memoized by string for short texts: every metric of a row
 * normalizes the same candidate and golds, and the rows of one question share its golds. Callers must not
 * mutate the result.
 */
export function normalizeTokens(s: string, mode: Normalization = 'squad'): string[] {
  if (s.length > MEMO_LONGEST) {
    // A long text is kept only until the next one: the metrics of a row each normalize its (long) candidate.
    const last = lastLong[mode];
    if (last.text !== s) {
      last.text = s;
      last.tokens = mode === 'squad' ? squadTokens(s) : numericTokens(s);
    }
    return last.tokens;
  }
  return mode === 'squad' ? memo.squad(s) : memo.numeric(s);
}

export function normalize(s: string, mode: Normalization = 'squad'): string {
  return normalizeTokens(s, mode).join(' ');
}
