/**
 * @file Token F1 (SQuAD v1.1): harmonic mean of token precision and recall, best gold.
 *
 * token_f1({question: 'Who painted the Mona Lisa?', golds: ['Leonardo da Vinci'], candidate: 'da Vinci'})
 * // → { score: 0.8, decision: true, explanation: 'best gold "Leonardo da Vinci": P=1 R=0.667 F1=0.8' }
 */
import type { Metric, MetricCard, QaItem, ResultUse } from '../types.ts';
import { normalizeTokens, type Normalization } from '../text/normalize.ts';
import { overlapWithCounts, prfFromOverlap, quote, round, tokenCounts } from './common.ts';
import { normalizationOption, thresholdOption, type LexicalDescriptor } from './descriptor.ts';

export const card: MetricCard = {
  what: 'Bag-of-tokens overlap between the candidate and the best gold answer.',
  formula: 'P = shared/|cand|, R = shared/|gold| (shared counts repeated tokens), F1 = 2PR/(P+R); max over golds.',
  defaults: 'Official SQuAD v1.1 normalization; decision threshold 0.5.',
  limits: 'Rewards word overlap, not meaning: long answers lose precision, and a contradiction sharing words scores high.',
  citation: 'Rajpurkar et al., 2016. SQuAD: 100,000+ Questions for Machine Comprehension of Text. EMNLP.',
};

export interface TokenF1Options {
  normalization?: Normalization;
  threshold?: number;
}

export function createTokenF1(options: TokenF1Options = {}): Metric {
  const mode = options.normalization ?? 'squad';
  const threshold = options.threshold ?? 0.5;
  return {
    name: 'token_f1',
    card,
    threshold,
    score(item: QaItem, use: ResultUse = 'full') {
      const cand = normalizeTokens(item.candidate, mode);
      const counts = tokenCounts(cand);
      let best = { precision: 0, recall: 0, f1: 0 };
      let bestGold: string | undefined;
      for (const g of item.golds) {
        const gt = normalizeTokens(g, mode);
        const r = prfFromOverlap(overlapWithCounts(counts, gt), cand.length, gt.length);
        if (bestGold === undefined || r.f1 > best.f1) {
          best = r;
          bestGold = g;
        }
      }
      if (bestGold === undefined) return { score: 0, decision: 0 >= threshold, explanation: 'no gold answer' };
      if (use === 'scores') return { score: best.f1, decision: best.f1 >= threshold, explanation: '' };
      return {
        score: best.f1,
        decision: best.f1 >= threshold,
        explanation: `best gold ${quote(bestGold)}: P=${round(best.precision)} R=${round(best.recall)} F1=${round(best.f1)}`,
        details: { matched_gold: bestGold, ...best },
      };
    },
  };
}

export const descriptor: LexicalDescriptor = {
  name: 'token_f1',
  family: 'lexical',
  card,
  default: true,
  create: (s, name = 'token_f1') => createTokenF1({ ...normalizationOption(s), ...thresholdOption(s, name) }),
  examples: [
    {
      item: { question: 'Who painted the Mona Lisa?', golds: ['Leonardo da Vinci'], candidate: 'da Vinci' },
      expected: { score: 0.8, decision: true, explanation: 'best gold "Leonardo da Vinci": P=1 R=0.667 F1=0.8' },
    },
  ],
};
