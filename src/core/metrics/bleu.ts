/** Sentence BLEU, reproducing nltk 3.8 `sentence_bleu(references, hypothesis)` (nltk/translate/bleu_score.py). */
import { gluedPunctuation } from './common.ts';
import type { Metric, MetricCard, MetricResult, QaItem } from '../types.ts';
import { thresholdOption, type LexicalDescriptor } from './descriptor.ts';
import { exp, log } from '../util/fmath.ts';

/** Python's `str.split()` separators (str.isspace): JS `\s` minus U+FEFF, plus U+001C–U+001F and U+0085. */
const PY_SPACE = /[\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/** `s.lower().split()`: the tokenization of BLEU and METEOR here. */
export function lowerSplit(s: string): string[] {
  return s
    .toLowerCase()
    .split(PY_SPACE)
    .filter((t) => t !== '');
}

/** Python's math.fsum (Shewchuk partials + its half-even correction), so the log-sum rounds as nltk's does. */
export function fsum(xs: readonly number[]): number {
  const partials: number[] = [];
  for (let x of xs) {
    let i = 0;
    for (let y of partials) {
      if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) partials[i++] = lo;
      x = hi;
    }
    partials.length = i;
    partials.push(x);
  }
  let n = partials.length;
  if (n === 0) return 0;
  let hi = partials[--n]!;
  let lo = 0;
  while (n > 0) {
    const x = hi;
    const y = partials[--n]!;
    hi = x + y;
    lo = y - (hi - x);
    if (lo !== 0) break;
  }
  if (n > 0 && ((lo < 0 && partials[n - 1]! < 0) || (lo > 0 && partials[n - 1]! > 0))) {
    const y = lo * 2;
    const x = hi + y;
    if (y === x - hi) hi = x;
  }
  return hi;
}

export type BleuSmoothing = 'none' | 'method1';
export interface BleuOptions {
  threshold?: number;
  /** 'none' = nltk's default (method0); 'method1' = SmoothingFunction().method1, epsilon 0.1. */
  smoothing?: BleuSmoothing;
}

const MIN_FLOAT = 2.2250738585072014e-308; // sys.float_info.min: nltk's stand-in for a zero precision

function ngramCounts(tokens: string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  // Tokens never contain a space (it is a separator), so joining on ' ' is unambiguous.
  for (let i = 0; i + n <= tokens.length; i++) {
    const key = tokens.slice(i, i + n).join(' ');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** nltk modified_precision: clipped matches over hypothesis n-grams, denominator at least 1 (not reduced). */
function modifiedPrecision(refs: string[][], hyp: string[], n: number): [number, number] {
  const counts = ngramCounts(hyp, n);
  const refCounts = refs.map((r) => ngramCounts(r, n));
  let num = 0;
  let total = 0;
  for (const [g, c] of counts) {
    // A loop, not Math.max(...): a spread of one argument per gold overflows the stack for very many golds.
    let max = 0;
    for (const rc of refCounts) max = Math.max(max, rc.get(g) ?? 0);
    num += Math.min(c, max);
    total += c;
  }
  return [num, Math.max(1, total)];
}

/** nltk closest_ref_length: nearest length, the shorter on a tie. */
function closestRefLength(refLens: number[], hypLen: number): number {
  let best = refLens[0]!;
  for (const r of refLens) {
    const d = Math.abs(r - hypLen);
    const bd = Math.abs(best - hypLen);
    if (d < bd || (d === bd && r < best)) best = r;
  }
  return best;
}

export interface BleuDetails {
  hyp_length: number;
  ref_lengths: number[];
  closest_ref_length: number;
  /** [matched, total] clipped n-gram counts for n = 1..4 (as nltk's unreduced Fractions). */
  precisions: [number, number][];
  brevity_penalty: number;
  smoothing: BleuSmoothing;
}

/** sentence_bleu over token lists with weights (0.25, 0.25, 0.25, 0.25); refs must be non-empty. */
export function sentenceBleu(refs: string[][], hyp: string[], smoothing: BleuSmoothing = 'none'): { score: number; details: BleuDetails } {
  const precisions = [1, 2, 3, 4].map((n) => modifiedPrecision(refs, hyp, n));
  const refLengths = refs.map((r) => r.length);
  const r = closestRefLength(refLengths, hyp.length);
  const c = hyp.length;
  const bp = c > r ? 1 : c === 0 ? 0 : exp(1 - r / c);
  const details: BleuDetails = {
    hyp_length: c,
    ref_lengths: refLengths,
    closest_ref_length: r,
    precisions,
    brevity_penalty: bp,
    smoothing,
  };
  // nltk returns 0 outright when no unigram matches, before any smoothing.
  if (precisions[0]![0] === 0) return { score: 0, details };
  const p = precisions.map(([num, den]) => (num !== 0 ? num / den : smoothing === 'method1' ? (num + 0.1) / den : MIN_FLOAT));
  // nltk skips p <= 0; with these smoothings every p is > 0. So a missing order gives a tiny
  // positive score (~1e-78 or below), not exactly 0, exactly as nltk 3.8 does.
  const s = fsum(p.filter((x) => x > 0).map((x) => 0.25 * log(x)));
  return { score: bp * exp(s), details };
}

export const card: MetricCard = {
  what: 'BLEU-4 of the candidate against all gold answers as references of one sentence (nltk 3.8 sentence_bleu).',
  formula:
    'BP · exp(Σ¼·log pₙ), n = 1..4; pₙ = clipped n-gram matches / candidate n-grams (counts clipped by the max over golds); ' +
    'BP = 1 if c > r else exp(1 − r/c), r = gold length closest to c (shorter on ties). Tokens: lowercase, split on whitespace (Python s.lower().split()).',
  defaults:
    "threshold 0.25; smoothing 'none' (nltk default: a missing n-gram order contributes log(2.2e-308), so the score is ~0); 'method1' adds 0.1 to zero match counts.",
  limits:
    'Surface overlap only: paraphrases and synonyms score low, negations with shared words score high. Without smoothing any candidate under 4 tokens, ' +
    'or with no matching 4-gram, scores ≈ 0. Punctuation stays glued to words ("paris." ≠ "paris"). Lowercasing follows the JS engine’s Unicode tables.',
  citation:
    'Papineni et al. 2002, BLEU (ACL); Chen & Cherry 2014 (smoothing); reproduces nltk 3.8 nltk.translate.bleu_score.sentence_bleu.',
};

const fmt = (x: number) => (x === 0 ? '0' : x < 1e-4 ? x.toExponential(2) : x.toFixed(4));

export function createBleu(options: BleuOptions = {}): Metric {
  const threshold = options.threshold ?? 0.25;
  const smoothing = options.smoothing ?? 'none';
  return {
    name: 'bleu',
    card,
    threshold,
    score(item: QaItem): MetricResult {
      const hyp = lowerSplit(item.candidate);
      if (item.golds.length === 0)
        return { score: 0, decision: 0 >= threshold, explanation: 'No gold answer to compare with.', details: { smoothing } };
      if (hyp.length === 0) return { score: 0, decision: 0 >= threshold, explanation: 'Empty candidate.', details: { smoothing } };
      const refs = item.golds.map(lowerSplit);
      const { score, details } = sentenceBleu(refs, hyp, smoothing);
      const ps = details.precisions.map(([a, b], i) => `p${i + 1}=${a}/${b}`).join(' ');
      const zero = details.precisions.findIndex(([a]) => a === 0);
      const glued = gluedPunctuation(hyp, refs);
      const why =
        (zero === 0
          ? 'no token in common with any gold; '
          : zero > 0 && smoothing === 'none'
            ? `${noGram(
                zero + 1,
                hyp.length,
                refs.reduce((m, r) => Math.max(m, r.length), 0),
              )}, so ≈0 as in nltk; `
            : '') + (glued ? `${glued}; ` : '');
      return {
        score,
        decision: score >= threshold,
        explanation: `BLEU ${fmt(score)}: ${why}${ps}; ${details.hyp_length} candidate tokens vs closest gold length ${details.closest_ref_length}, BP=${fmt(details.brevity_penalty)}.`,
        details: { ...details },
      };
    },
  };
}

/** Why no n-gram matched: none can, when the candidate or every gold is shorter than n words. */
function noGram(n: number, candidate: number, longestGold: number): string {
  if (candidate < n) return `a ${candidate}-word candidate has no ${n}-gram to match`;
  if (longestGold < n) return `no gold has a ${n}-gram to match (the longest has ${longestGold} word${longestGold === 1 ? '' : 's'})`;
  return `no matching ${n}-gram`;
}

export const descriptor: LexicalDescriptor = {
  name: 'bleu',
  family: 'lexical',
  card,
  create: (s, name = 'bleu') => createBleu(thresholdOption(s, name)),
  examples: [
    {
      item: {
        question: 'Where is the Eiffel Tower?',
        golds: ['The Eiffel Tower is in Paris, France.'],
        candidate: 'The Eiffel Tower is in Paris.',
      },
      // p1..p4 = 5/6, 4/5, 3/4, 2/3 ("paris." ≠ "paris,"); brevity penalty exp(1 − 7/6) → 0.643.
      expected: { score: 0.643, decision: true },
    },
  ],
};
