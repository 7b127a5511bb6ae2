/**
 * @file The answer a candidate states as its final one, when it says so: "So the answer is Sydney.", "Final
 * answer: Sydney", "Answer: Sydney" at the start of a line, or a short first line followed by "Explanation:".
 * Step-by-step answers name other candidates on the way (the gold among them); the stated answer is the one
 * that counts. Null when the candidate states none, or when the stated answer is the whole candidate.
 */

export interface FinalAnswer {
  /** The stated answer. */
  text: string;
  /** Where it was found, in words: after "the answer is", before "Explanation:". */
  cue: string;
}

/**
 * What follows "the answer is" when no answer does: "based on the census", "not Sydney", "that simple", "the same
 * as", "unclear", "as follows".
 */
const NOT_AN_ANSWER =
  '(?![\\s:]*(?:based|derived|taken|drawn|that|this|not|no|never|the same|same|simple|straightforward|clear|unclear|uncertain|unknown|complicated|complex|debated|disputed|contested|also|still|as follows|below|above|given|provided)\\b)';
/** "final answer", with "is" or a colon; the last one counts (a model may revise itself). */
const FINAL = new RegExp(`\\bfinal answer\\s*(?:is|would be|:|-|=)${NOT_AN_ANSWER}\\s*`, 'gi');
/** "the answer is", "so the correct answer would be:"; the last one counts. */
const THE_ANSWER = new RegExp(
  `\\b(?:the|my) (?:correct |right |best |final )?answer (?:is|would be|should be|must be)${NOT_AN_ANSWER}\\s*:?\\s*`,
  'gi',
);
/**
 * "Answer:" opening a line; the first one counts (a model that goes on writing questions and answers). Spaces
 * around the "**" stay on the line: `\s*\**\s*` spanning lines backtracked quadratically over a run of newlines.
 */
const ANSWER_LINE = /^[ \t*#]*answer[ \t]*\**[ \t]*[:=-]\s*\**/im;
/** "Explanation:" (or reasoning, rationale, justification) opening a line. */
const WHY_LINE = /^[ \t*#]*(explanation|reasoning|rationale|justification)[ \t]*\**[ \t]*:/im;
/** Longest first part taken as the stated answer before an explanation. */
const HEAD_MAX = 120;

/**
 * A short first part (up to HEAD_MAX characters), then only white space, then "Explanation:" opening a later line:
 * the head and the word. Found with a line-anchored search and a slice, linear in the text (a regular expression
 * with `.{1,120}?\s*\n\s*` took 35 s on 8,000 newlines).
 */
function headThenWhy(s: string): { head: string; word: string } | null {
  const m = WHY_LINE.exec(s);
  if (!m || m.index === 0) return null;
  const head = s.slice(0, m.index).trimEnd();
  return head.length >= 1 && head.length <= HEAD_MAX ? { head, word: m[1]! } : null;
}

/** Words before a period that do not end a sentence. */
const ABBREVIATIONS = new Set([
  'st',
  'mr',
  'mrs',
  'ms',
  'dr',
  'jr',
  'sr',
  'mt',
  'ft',
  'vs',
  'no',
  'prof',
  'gen',
  'col',
  'lt',
  'sgt',
  'rev',
  'ave',
  'co',
  'inc',
  'ltd',
  'approx',
  'ca',
  'c',
]);

/** The text from `from` to the end of its sentence (a line, or a sentence-ending mark not after an abbreviation). */
function sentenceFrom(s: string, from: number): string {
  let i = from;
  while (i < s.length && /\s/.test(s[i]!)) i++;
  const start = i;
  for (; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\n') break;
    if ((c === '.' || c === '!' || c === '?') && (i + 1 === s.length || /\s/.test(s[i + 1]!))) {
      if (c !== '.') break;
      const word = /([\p{L}\p{N}.]+)$/u.exec(s.slice(start, i))?.[1] ?? '';
      // "J." and "U.S." (an initial or a dotted abbreviation) and "St." go on; a period after a word or a number
      // ends the sentence.
      const initial = word.length === 1 && /\p{Lu}/u.test(word);
      if (initial || (word.includes('.') && /\p{L}/u.test(word)) || ABBREVIATIONS.has(word.toLowerCase())) continue;
      break;
    }
  }
  return s.slice(start, i).trim();
}

function lastMatch(re: RegExp, s: string): RegExpExecArray | null {
  re.lastIndex = 0;
  let last: RegExpExecArray | null = null;
  for (let m = re.exec(s); m; m = re.exec(s)) last = m;
  return last;
}

/** The answer without emphasis, quotes and closing punctuation; LaTeX's \\boxed{…} as its content. */
const clean = (t: string) => {
  const boxed = /\\boxed\{([^{}]*)\}/.exec(t);
  return (boxed ? boxed[1]! : t).replace(/^[*_"'“‘$\s]+|[*_"'”’$\s.,;:!]+$/gu, '').trim();
};

/** The candidate's stated final answer (see the file's comment), or null. */
export function finalAnswer(candidate: string): FinalAnswer | null {
  const stated = (text: string, cue: string): FinalAnswer | null => {
    const t = clean(text);
    return t && t !== candidate.trim() ? { text: t, cue } : null;
  };
  const final = lastMatch(FINAL, candidate) ?? lastMatch(THE_ANSWER, candidate) ?? ANSWER_LINE.exec(candidate);
  if (final) return stated(sentenceFrom(candidate, final.index + final[0].length), `after "${final[0].replace(/[*#]/g, '').trim()}"`);
  const why = headThenWhy(candidate);
  return why ? stated(why.head, `before "${why.word}:"`) : null;
}
