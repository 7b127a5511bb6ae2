/**
 * @file Exact match (SQuAD v1.1): 1 when the normalized candidate equals a normalized gold answer.
 *
 * exact_match({question: 'Who wrote Hamlet?', golds: ['William Shakespeare'], candidate: 'william shakespeare.'})
 * // → { score: 1, decision: true, explanation: 'equals gold "William Shakespeare" after normalization' }
 */
import type { Metric, MetricCard, QaItem } from '../types.ts';
import { normalize, type Normalization } from '../text/normalize.ts';
import { quote } from './common.ts';

export const card: MetricCard = {
  what: 'Whether the candidate equals one of the gold answers after normalization.',
  formula: 'EM = max over golds of [norm(candidate) == norm(gold)]; norm = lowercase, drop punctuation and a/an/the, collapse spaces.',
  defaults: 'Official SQuAD v1.1 normalization (`squad`); `numeric` adds number-aware forms. Threshold 1.',
  limits: 'Any extra word makes it 0: verbose but correct answers, paraphrases and synonyms all fail.',
  citation: 'Rajpurkar et al., 2016. SQuAD: 100,000+ Questions for Machine Comprehension of Text. EMNLP.',
};

export interface ExactMatchOptions {
  normalization?: Normalization;
}

export function createExactMatch(options: ExactMatchOptions = {}): Metric {
  const mode = options.normalization ?? 'squad';
  return {
    name: 'exact_match',
    card,
    threshold: 1,
    score(item: QaItem) {
      const cand = normalize(item.candidate, mode);
      const hit = item.golds.find((g) => normalize(g, mode) === cand);
      if (hit !== undefined)
        return { score: 1, decision: true, explanation: `equals gold ${quote(hit)} after normalization`, details: { matched_gold: hit } };
      return { score: 0, decision: false, explanation: `differs from every gold after normalization (candidate → ${quote(cand)})` };
    },
  };
}
