/**
 * ROUGE-L F-measure, reproducing Google's `rouge-score` RougeScorer(['rougeL']).score_multi.
 * Source read: google-research/google-research rouge/tokenize.py (tokenize), rouge/tokenizers.py
 * (DefaultTokenizer), rouge/rouge_scorer.py (_score_lcs, _lcs_table, score_multi), rouge/scoring.py (fmeasure).
 */
import type { Metric, MetricCard, MetricResult, QaItem } from '../types.ts';
import { quote } from './common.ts';
import { porterStem } from '../text/porter.ts';
import { thresholdOption, type LexicalDescriptor } from './descriptor.ts';

/** rouge-score's default tokenizer: lowercase, non-[a-z0-9] runs → space, split, drop empties; optional Porter stem of tokens longer than 3. */
export function rougeTokenize(text: string, useStemmer = false): string[] {
  const tokens = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
    .filter((t) => t !== '');
  return useStemmer ? tokens.map((t) => (t.length > 3 ? porterStem(t) : t)) : tokens;
}

/** Length of the longest common subsequence (same DP as _lcs_table, one row at a time). */
export function lcsLength(a: readonly string[], b: readonly string[]): number {
  let prev = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) row[j] = a[i - 1] === b[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, row[j - 1]!);
    prev = row;
  }
  return prev[b.length]!;
}

export interface RougeLScore {
  precision: number;
  recall: number;
  fmeasure: number;
  lcs: number;
}

/** _score_lcs(target, prediction): zeros when either side has no token. */
export function scoreLcs(target: readonly string[], prediction: readonly string[]): RougeLScore {
  if (target.length === 0 || prediction.length === 0) return { precision: 0, recall: 0, fmeasure: 0, lcs: 0 };
  const lcs = lcsLength(target, prediction);
  const precision = lcs / prediction.length;
  const recall = lcs / target.length;
  const fmeasure = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, fmeasure, lcs };
}

export interface RougeLOptions {
  threshold?: number;
  /** rouge-score's use_stemmer (nltk Porter, NLTK_EXTENSIONS, on tokens longer than 3 chars). Default false. */
  useStemmer?: boolean;
}

export const card: MetricCard = {
  what: 'ROUGE-L F-measure: longest common subsequence of words between candidate and the best-matching gold (Google rouge-score, rougeL).',
  formula:
    'P = LCS/|candidate|, R = LCS/|gold|, F = 2PR/(P+R); best gold by F (first on ties). Tokens: lowercase, every character outside a–z0–9 becomes a space, split, drop empties.',
  defaults: 'threshold 0.5; useStemmer false (true = Porter-stem tokens longer than 3 chars, as rouge-score use_stemmer=True).',
  limits:
    'Word order matters but meaning does not: paraphrases score low, a negated answer sharing words scores high. ' +
    'Non-ASCII letters are dropped entirely (accented words split, non-Latin text gives no tokens), as in rouge-score. ' +
    'The LCS grows with |gold| × |candidate| tokens: two answers near the 100,000-character limit take seconds (~7 s here; the app leaves a row over 10 s unscored).',
  citation: 'Lin 2004, ROUGE (ACL workshop); reproduces rouge-score RougeScorer(["rougeL"]).score_multi (google-research/rouge).',
};

export function createRougeL(options: RougeLOptions = {}): Metric {
  const threshold = options.threshold ?? 0.5;
  const useStemmer = options.useStemmer ?? false;
  return {
    name: 'rouge_l',
    card,
    threshold,
    score(item: QaItem): MetricResult {
      if (item.golds.length === 0) return { score: 0, decision: 0 >= threshold, explanation: 'No gold answer to compare with.' };
      const pred = rougeTokenize(item.candidate, useStemmer);
      if (pred.length === 0) {
        return {
          score: 0,
          decision: 0 >= threshold,
          explanation: item.candidate.trim() ? 'Candidate has no a–z/0–9 token.' : 'Empty candidate.',
        };
      }
      let best = -1;
      let bestScore: RougeLScore = { precision: 0, recall: 0, fmeasure: 0, lcs: 0 };
      const perGold = item.golds.map((g, i) => {
        const s = scoreLcs(rougeTokenize(g, useStemmer), pred);
        if (s.fmeasure > bestScore.fmeasure || best < 0) [best, bestScore] = [i, s]; // np.argmax: first maximum
        return s.fmeasure;
      });
      const { precision, recall, fmeasure, lcs } = bestScore;
      const gold = item.golds[best]!;
      return {
        score: fmeasure,
        decision: fmeasure >= threshold,
        explanation: `ROUGE-L F ${fmeasure.toFixed(4)} vs gold ${quote(gold)}: LCS ${lcs} word${lcs === 1 ? '' : 's'}, P=${precision.toFixed(3)} R=${recall.toFixed(3)}.`,
        details: {
          matched_gold: gold,
          matched_gold_index: best,
          precision,
          recall,
          fmeasure,
          lcs,
          per_gold: perGold,
          use_stemmer: useStemmer,
        },
      };
    },
  };
}

export const descriptor: LexicalDescriptor = {
  name: 'rouge_l',
  family: 'lexical',
  card,
  create: (s, name = 'rouge_l') => createRougeL(thresholdOption(s, name)),
  examples: [
    {
      item: { question: 'Who painted the Mona Lisa?', golds: ['Leonardo da Vinci'], candidate: 'da Vinci' },
      expected: { score: 0.8, decision: true },
    },
  ],
};
