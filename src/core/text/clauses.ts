/**
 * @file Clause splitter for the taxonomy's over-inclusion check: cuts an answer into sentences and
 * coordinated clauses so each piece can be checked against the gold on its own.
 *
 * splitClauses('Paris, and it is in Germany. It has 2.1 million people; Dr. Smith says so!')
 * // → ['Paris', 'it is in Germany', 'It has 2.1 million people', 'Dr. Smith says so']
 *
 * Rules, in order:
 * - `, and` / `, but` (whole words, any case) end a clause; the conjunction is dropped.
 * - `;` always ends a clause; `!` and `?` do when followed by whitespace or the end.
 * - `.` ends a clause when followed by whitespace or the end, unless it closes a decimal (never followed
 *   by whitespace anyway), an initial or a dotted abbreviation (`J.`, `U.S.`), or a common title or
 *   abbreviation (`Dr.`, `Mr.`, `St.`, `etc.`, `e.g.` …).
 * - Pieces are trimmed of whitespace, stray `,;:` and ellipsis dots; pieces with no letter or digit are dropped.
 */

/** Lowercase words (without their final dot) that a `.` does not end a clause after. */
const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'st',
  'jr',
  'sr',
  'vs',
  'etc',
  'mt',
  'ft',
  'inc',
  'ltd',
  'co',
  'corp',
  'gen',
  'col',
  'lt',
  'sgt',
  'capt',
  'gov',
  'sen',
  'rep',
  'rev',
  'approx',
  'ca',
  'cf',
  'fig',
  'vol',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
]);

const CONJUNCTION = /,\s*(?:and|but)(?![\p{L}\p{N}_])/giu;
const HAS_WORD = /[\p{L}\p{N}]/u;
/** Trims a piece: whitespace, stray separators, and the leading dots of an ellipsis (its last dot split it). */
export const tidy = (p: string): string => p.replace(/^[\s,;:.]+/u, '').replace(/(?:[\s,;:]|\.{2,})+$/u, '');
const EDGE = /[\s,;:.]/u;
/** tidy(p), without its two patterns when neither end has anything to trim (most pieces): the same text. */
export function tidied(p: string): string {
  const n = p.length;
  if (n === 0) return p;
  const last = p[n - 1]!;
  // The end keeps a single dot ("Dr. Smith says so." has been split before it anyway): only two or more go.
  const trail = last === '.' ? n > 1 && p[n - 2] === '.' : EDGE.test(last);
  return trail || EDGE.test(p[0]!) ? tidy(p) : p;
}
/** Whether the `.` at `i` ends a clause (it is followed by whitespace or the end, and does not close an abbreviation). */
function sentenceDot(s: string, i: number): boolean {
  const next = s[i + 1];
  if (next !== undefined && !/\s/u.test(next)) return false;
  let start = i;
  while (start > 0 && !/\s/u.test(s[start - 1]!)) start--;
  const word = s.slice(start, i).replace(/^[("'[\u201c\u2018]+/u, '');
  if (/^\p{L}$/u.test(word)) return false; // an initial: "J. K. Rowling"
  if (/^\p{L}(?:\.\p{L})+$/u.test(word)) return false; // dotted abbreviation: "U.S.", "e.g."
  return !ABBREVIATIONS.has(word.toLowerCase());
}

function splitSentences(s: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const next = s[i + 1];
    const ends = c === ';' || ((c === '!' || c === '?') && (next === undefined || /\s/u.test(next))) || (c === '.' && sentenceDot(s, i));
    if (ends) {
      out.push(s.slice(from, i));
      from = i + 1;
    }
  }
  out.push(s.slice(from));
  return out;
}

/** The clauses of an answer, in order (see the file comment for the rules); [] for an empty answer. */
export function splitClauses(text: string): string[] {
  const out: string[] = [];
  // One pass, no list between the steps: every row's candidate is split (a conjunction needs a comma).
  for (const piece of text.includes(',') ? text.split(CONJUNCTION) : [text])
    for (const sentence of splitSentences(piece)) {
      const p = tidied(sentence);
      if (HAS_WORD.test(p)) out.push(p);
    }
  return out;
}
