/**
 * @file Shared word handling for the text signals: content-word stems of a string (SQuAD-normalized, number
 * words as digits, Porter stems, function words dropped) and matching of a gold's words inside a piece of text.
 */
import { normalizeTokens } from '../text/normalize.ts';
import { porterStem } from '../text/porter.ts';
import { splitClauses } from '../text/clauses.ts';
import { boundedMemo, lastMemo, textMemo } from '../util/memo.ts';

/** Function words that carry no answer content (negation cues are kept: polarity reads them separately). */
export const FUNCTION_WORDS = new Set(
  (
    'a an the is are was were be been being am of in on at to for by with from as and or but it its this that these those ' +
    'he she they him them his her their there which who whom whose what when where why how do does did has have had ' +
    'i you we me my your our us one ones also so very just about into than then such can could would should will may might must ' +
    'answer called known named called s'
  ).split(' '),
);

/** A written word without the sentence punctuation around it ("Paris." → "Paris"); a unit's sign stays ("°F", "19%"). */
export const bareWord = (w: string): string => w.replace(/^[("'“‘[]+|[)"'”’\].,;:!?]+$/gu, '');

/**
 * Whether `text` holds `part` as written: its words in order, case, accents, punctuation and articles aside (as SQuAD
 * normalises, for any script: "J.G." is "JG", "Lomé" is "Lome"; a dash or slash parts words; "%" is a word) — what a
 * reader takes "contains" and "word for word" to mean. Number words are not read as digits here: "about 2.1 million"
 * does not hold "2,100,000" as written, nor "four years" "4 years".
 */
export function holdsAsWritten(text: string, part: string): boolean {
  const p = writtenWords(part);
  return p.length > 0 && ` ${writtenWords(text).join(' ')} `.includes(` ${p.join(' ')} `);
}

const writtenWords = (s: string): string[] =>
  s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\p{Pd}/]/gu, ' ')
    .replace(/\p{P}/gu, (ch) => (ch === '%' ? ' % ' : ''))
    .split(/\s+/)
    .filter((w) => w !== '' && w !== 'a' && w !== 'an' && w !== 'the');

/**
 * The shortest run of `text`'s words that reads as `tokens` do (number words as digits, units spelled out): what the
 * answer wrote for them ("2.1 million" for 2100000), sentence punctuation at its ends dropped; null when none does.
 */
export function writtenRun(want: readonly string[], text: string): string | null {
  const words = [...text.matchAll(/[^\s]+/g)];
  // An ordinal is its number here: a quantity read from "20th Century" is "20 century".
  const ordinal = (t: string) => t.replace(/^(\d+)(?:st|nd|rd|th)$/, '$1');
  const target = ` ${want.map(ordinal).join(' ')} `;
  // A number or unit is written in at most a few more words than it is read in ("two thousand one hundred").
  const longest = Math.min(words.length, 2 * want.length + 4);
  // A run that reads exactly so first ("twenty" for 20, not the "20%" that holds it), then one that holds it.
  for (const exact of [true, false])
    for (let len = 1; len <= longest; len++)
      for (let at = 0; at + len <= words.length; at++) {
        // The run as the text writes it, its own spaces included.
        const last = words[at + len - 1]!;
        const run = text.slice(words[at]!.index, last.index + last[0].length);
        const read = ` ${normalizeTokens(run, 'numeric').map(ordinal).join(' ')} `;
        if (exact ? read === target : read.includes(target)) return bareWord(run);
      }
  return null;
}

/** `text` as `source` writes it, spaces aside ("19%" for "19 %"), or `text` when the source has no such run. */
export function asWritten(text: string, source: string): string {
  const chars = [...text.replace(/\s+/g, '')].map((ch) => ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  if (!chars.length) return text;
  return new RegExp(chars.join('\\s*'), 'iu').exec(source)?.[0] ?? text;
}

/** Lowercase tokens with number words as digits ("eight" → "8"). */
export const tokens = (s: string): string[] => normalizeTokens(s, 'numeric');

/** Porter stem, cached (the same few thousand words recur across a file; two generations, as boundedMemo keeps). */
export const stem: (t: string) => string = boundedMemo((t: string) => (/^\d/.test(t) ? t : porterStem(t)));

/** ASCII punctuation but '%' (the numeric form reads it as "percent"), and ASCII whitespace as Python splits on it. */
const DROPPED = new Uint8Array(128);
for (const ch of '!"#$&\'()*+,-./:;<=>?@[\\]^_`{|}~\t\n\v\f\r \x1c\x1d\x1e\x1f') DROPPED[ch.charCodeAt(0)] = 1;

/**
 * A text without its trailing ASCII punctuation (but '%') and whitespace. The tokenizer deletes those (a '.'
 * there never sits between two digits), so the tokens are the same: "Paris." and its clause "Paris" share one
 * cache entry.
 */
function stemsKey(s: string): string {
  let end = s.length;
  while (end > 0) {
    const c = s.charCodeAt(end - 1);
    if (c < 128 && DROPPED[c] === 1) end--;
    else break;
  }
  return end === s.length ? s : s.slice(0, end);
}

const INVISIBLE = /^\p{Cf}+$/u;

/**
 * Content-word stems of a string, in order. Cached by string without trailing punctuation (golds and questions
 * recur across a file's rows, and an answer's one clause is the answer). Callers must not mutate the result.
 */
export const contentStems: (s: string) => string[] = textMemo(
  // Tokens of s itself: the normalization memo most likely has them already.
  (s: string) =>
    tokens(s)
      // An invisible format character (a byte-order mark, a zero-width space) is no word.
      .filter((t) => !FUNCTION_WORDS.has(t) && !INVISIBLE.test(t))
      .map(stem),
  stemsKey,
);

/** Share of `gold`'s content stems found in `text` (0 when the gold has none). */
export function coverage(goldStems: readonly string[], textStems: ReadonlySet<string>): number {
  if (goldStems.length === 0) return 0;
  let n = 0;
  for (const g of goldStems) if (textStems.has(g)) n++;
  return n / goldStems.length;
}

/**
 * Stems of every word of a string (function words too), as a set. Cached by string (golds and questions recur
 * across a file's rows). Callers must not mutate the result.
 */
export const wordStemSet: (s: string) => ReadonlySet<string> = textMemo((s) => new Set(tokens(s).map(stem)));

/** splitClauses of the last text asked (the signals of a row each split its candidate). Callers must not mutate the result. */
export const clausesOf: (text: string) => string[] = lastMemo(splitClauses);
