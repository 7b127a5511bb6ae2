/**
 * @file Exact match (SQuAD v1.1): 1 when the normalized candidate equals a normalized gold answer.
 *
 * exact_match({question: 'Who wrote Hamlet?', golds: ['William Shakespeare'], candidate: 'william shakespeare.'})
 * // → { score: 1, decision: true, explanation: 'equals gold "William Shakespeare" after normalization' }
 */
import type { Metric, MetricCard, QaItem, ResultUse } from '../types.ts';
import { normalizeTokens, type Normalization } from '../text/normalize.ts';
import { quote } from './common.ts';
import { normalizationOption, thresholdOption, withThreshold, type LexicalDescriptor } from './descriptor.ts';

export const card: MetricCard = {
  what: 'Whether the candidate equals one of the gold answers after normalization.',
  formula: 'EM = max over golds of [norm(candidate) == norm(gold)]; norm = lowercase, drop punctuation and a/an/the, collapse spaces.',
  defaults: 'Official SQuAD v1.1 normalization (`squad`); `numeric` adds number-aware forms. Threshold 1.',
  limits: 'Any extra word makes it 0: verbose but correct answers, paraphrases and synonyms all fail.',
  citation: 'Rajpurkar et al., 2016. SQuAD: 100,000+ Questions for Machine Comprehension of Text. EMNLP.',
};

/** Token lists equal — the same as comparing the space-joined strings, without building them. */
function sameTokens(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

export interface ExactMatchOptions {
  normalization?: Normalization;
}

export function createExactMatch(options: ExactMatchOptions = {}): Metric {
  const mode = options.normalization ?? 'squad';
  return {
    name: 'exact_match',
    card,
    threshold: 1,
    score(item: QaItem, use: ResultUse = 'full') {
      const cand = normalizeTokens(item.candidate, mode);
      let hit: string | undefined;
      for (const g of item.golds) {
        if (sameTokens(normalizeTokens(g, mode), cand)) {
          hit = g;
          break;
        }
      }
      if (use === 'scores') return { score: hit === undefined ? 0 : 1, decision: hit !== undefined, explanation: '' };
      if (hit !== undefined)
        return { score: 1, decision: true, explanation: `equals gold ${quote(hit)} after normalization`, details: { matched_gold: hit } };
      return {
        score: 0,
        decision: false,
        explanation: `differs from every gold after normalization (candidate → ${quote(cand.join(' '))})`,
      };
    },
  };
}

export const descriptor: LexicalDescriptor = {
  name: 'exact_match',
  family: 'lexical',
  card,
  default: true,
  create: (s, name = 'exact_match') => withThreshold(createExactMatch(normalizationOption(s)), thresholdOption(s, name).threshold),
  examples: [
    {
      item: { question: 'Who wrote Hamlet?', golds: ['William Shakespeare'], candidate: 'william shakespeare.' },
      expected: { score: 1, decision: true, explanation: 'equals gold "William Shakespeare" after normalization' },
    },
  ],
};
