/**
 * @file Lexical match (containment): 1 when a normalized gold answer occurs inside the normalized candidate.
 *
 * lexical_match({question: 'In which year did WWII end?', golds: ['1945'], candidate: 'It ended in 1945.'})
 * // → { score: 1, decision: true, explanation: 'gold "1945" occurs in the candidate (token boundaries)' }
 */
import type { Metric, MetricCard, QaItem } from '../types.ts';
import { normalize, type Normalization } from '../text/normalize.ts';
import { quote } from './common.ts';

export const card: MetricCard = {
  what: 'Whether some gold answer appears inside the candidate, after normalization.',
  formula: 'LM = max over golds of [norm(gold) occurs in norm(candidate)], on whole tokens by default.',
  defaults: 'Number-aware normalization (`numeric`: 977,633 = 977633, twelve = 12, 1st = first); token-boundary matching, so gold "1" does not match "1990". `substring` mode is EVOUNA\'s plain substring test. Threshold 1.',
  limits: 'Blind to context: "not Paris" contains "Paris", and answers listing many options match. Misses paraphrases.',
  citation: 'Wang et al., 2023. Evaluating Open-QA Evaluation (EVOUNA). NeurIPS Datasets and Benchmarks.',
};

export interface LexicalMatchOptions {
  normalization?: Normalization;
  /** `token` (default): gold must align with token boundaries; `substring`: plain substring (EVOUNA). */
  mode?: 'token' | 'substring';
}

/** Whether normalized gold `g` occurs in normalized candidate `c` under the given mode. */
export function contains(c: string, g: string, mode: 'token' | 'substring'): boolean {
  if (g.length === 0) return false;
  return mode === 'substring' ? c.includes(g) : ` ${c} `.includes(` ${g} `);
}

export function createLexicalMatch(options: LexicalMatchOptions = {}): Metric {
  const norm = options.normalization ?? 'numeric';
  const mode = options.mode ?? 'token';
  return {
    name: 'lexical_match',
    card,
    threshold: 1,
    score(item: QaItem) {
      const cand = normalize(item.candidate, norm);
      const normGolds = item.golds.map((g) => normalize(g, norm));
      const i = normGolds.findIndex((g) => contains(cand, g, mode));
      if (i >= 0) {
        const gold = item.golds[i]!;
        return {
          score: 1,
          decision: true,
          explanation: `gold ${quote(gold)} occurs in the candidate (${mode === 'token' ? 'token boundaries' : 'substring'})`,
          details: { matched_gold: gold },
        };
      }
      const why = normGolds.every((g) => g.length === 0) ? 'every gold is empty after normalization' : 'no gold occurs in the candidate';
      return { score: 0, decision: false, explanation: why };
    },
  };
}
