/**
 * @file Lexical match (containment): 1 when a normalized gold answer occurs inside the normalized candidate.
 *
 * lexical_match({question: 'In which year did WWII end?', golds: ['1945'], candidate: 'It ended in 1945.'})
 * // → { score: 1, decision: true, explanation: 'gold "1945" occurs in the candidate (token boundaries)' }
 */
import type { Metric, MetricCard, QaItem, ResultUse } from '../types.ts';
import { normalizeTokens, type Normalization } from '../text/normalize.ts';
import { holdsAsWritten, writtenRun } from '../signals/words.ts';
import { quote } from './common.ts';
import {
  normalizationOption,
  optionValues,
  thresholdOption,
  withThreshold,
  type LexicalDescriptor,
  type OptionTable,
} from './descriptor.ts';

export const card: MetricCard = {
  what: 'Whether some gold answer appears inside the candidate, after normalization.',
  formula: 'LM = max over golds of [norm(gold) occurs in norm(candidate)], on whole tokens by default.',
  defaults:
    'Number-aware normalization (`numeric`: 977,633 = 977633, twelve = 12, 1st = first, Lomé = Lome, “curly quotes” dropped like straight ones); token-boundary matching, so gold "1" does not match "1990". `substring` mode is EVOUNA\'s plain substring test. Threshold 1.',
  limits: 'Blind to context: "not Paris" contains "Paris", and answers listing many options match. Misses paraphrases.',
  citation: 'Wang et al., 2023. Evaluating Open-QA Evaluation (EVOUNA). NeurIPS Datasets and Benchmarks.',
};

export interface LexicalMatchOptions {
  normalization?: Normalization;
  /** `token` (default): gold must align with token boundaries; `substring`: plain substring (EVOUNA). */
  mode?: 'token' | 'substring';
}

/**
 * Whether gold tokens `g` occur in candidate tokens `c`: as a contiguous run of whole tokens (`token`), or as
 * a substring of the space-joined text (`substring`). Tokens never contain spaces, so the run test equals
 * ` ${c} `.includes(` ${g} `) without building the strings.
 */
export function contains(c: readonly string[], g: readonly string[], mode: 'token' | 'substring'): boolean {
  if (g.length === 0) return false;
  if (mode === 'substring') return c.join(' ').includes(g.join(' '));
  outer: for (let i = 0; i + g.length <= c.length; i++) {
    for (let j = 0; j < g.length; j++) if (c[i + j] !== g[j]) continue outer;
    return true;
  }
  return false;
}

export function createLexicalMatch(options: LexicalMatchOptions = {}): Metric {
  const norm = options.normalization ?? 'numeric';
  const mode = options.mode ?? 'token';
  return {
    name: 'lexical_match',
    card,
    threshold: 1,
    score(item: QaItem, use: ResultUse = 'full') {
      const cand = normalizeTokens(item.candidate, norm);
      let i = -1;
      let allEmpty = true;
      for (let k = 0; k < item.golds.length && i < 0; k++) {
        const g = normalizeTokens(item.golds[k]!, norm);
        if (g.length > 0) allEmpty = false;
        if (contains(cand, g, mode)) i = k;
      }
      if (use === 'scores') return { score: i >= 0 ? 1 : 0, decision: i >= 0, explanation: '' };
      if (i >= 0) {
        const gold = item.golds[i]!;
        const where = mode === 'token' ? 'token boundaries' : 'substring';
        // Found as read but not as written ("2.1 million" for "2,100,000"): the reason says what the candidate wrote.
        const written = mode === 'token' ? holdsAsWritten(item.candidate, gold) : item.candidate.toLowerCase().includes(gold.toLowerCase());
        const as = written ? null : (writtenRun(normalizeTokens(gold, norm), item.candidate) ?? '');
        return {
          score: 1,
          decision: true,
          explanation:
            as === null
              ? `gold ${quote(gold)} occurs in the candidate (${where})`
              : as
                ? `gold ${quote(gold)} occurs in the candidate as ${quote(as)}, read alike after ${norm} normalization (${where})`
                : `gold ${quote(gold)} occurs in the candidate after ${norm} normalization (${where})`,
          details: { matched_gold: gold },
        };
      }
      const why = allEmpty ? 'every gold is empty after normalization' : 'no gold occurs in the candidate';
      return { score: 0, decision: false, explanation: why };
    },
  };
}

const OPTIONS = {
  mode: {
    kind: 'choice',
    choices: ['token', 'substring'],
    default: 'token',
    describe: "a gold's words at token boundaries, or anywhere as a plain substring (EVOUNA)",
  },
} as const satisfies OptionTable;

export const descriptor: LexicalDescriptor = {
  name: 'lexical_match',
  family: 'lexical',
  card,
  default: true,
  options: OPTIONS,
  create: (s, name = 'lexical_match') =>
    withThreshold(
      createLexicalMatch({ ...normalizationOption(s), ...optionValues(OPTIONS, s, 'lexical_match') }),
      thresholdOption(s, name).threshold,
    ),
  examples: [
    {
      item: { question: 'In which year did WWII end?', golds: ['1945'], candidate: 'It ended in 1945.' },
      expected: { score: 1, decision: true, explanation: 'gold "1945" occurs in the candidate (token boundaries)' },
    },
  ],
};
