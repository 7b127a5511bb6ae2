/** The metric registry: names, defaults and construction from user settings. */
import { VerityError, type Metric } from '../types.ts';
import type { Normalization } from '../text/normalize.ts';
import { createExactMatch } from './exact_match.ts';
import { createTokenF1 } from './token_f1.ts';
import { createLexicalMatch } from './lexical_match.ts';
import { createBleu } from './bleu.ts';
import { createRougeL } from './rouge_l.ts';
import { createMeteor } from './meteor.ts';
import { createPedants } from './pedants.ts';

export const METRIC_NAMES = ['exact_match', 'token_f1', 'lexical_match', 'bleu', 'rouge_l', 'meteor', 'pedants'] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

/** The embedded default: needs no download. */
export const DEFAULT_METRICS: readonly MetricName[] = ['exact_match', 'token_f1', 'lexical_match', 'pedants'];

export interface MetricSettings {
  /** Overrides each lexical metric's normalization (`squad` is the strict mode). */
  normalization?: Normalization;
  /** lexical_match: token-boundary (default) or EVOUNA's plain substring containment. */
  lexicalMode?: 'token' | 'substring';
  /** Decision thresholds by metric name (e.g. from a calibration file). */
  thresholds?: Partial<Record<string, number>>;
}

export function createMetric(name: string, s: MetricSettings = {}): Metric {
  const threshold = s.thresholds?.[name];
  const t = threshold === undefined ? {} : { threshold };
  const n = s.normalization === undefined ? {} : { normalization: s.normalization };
  let m: Metric;
  switch (name) {
    case 'exact_match':
      m = createExactMatch(n);
      break;
    case 'token_f1':
      return createTokenF1({ ...n, ...t });
    case 'lexical_match':
      m = createLexicalMatch({ ...n, ...(s.lexicalMode ? { mode: s.lexicalMode } : {}) });
      break;
    case 'bleu':
      return createBleu(t);
    case 'rouge_l':
      return createRougeL(t);
    case 'meteor':
      return createMeteor(t);
    case 'pedants':
      return createPedants(t);
    default:
      throw new VerityError(`unknown metric "${name}"; available: ${METRIC_NAMES.join(', ')}`, 'usage');
  }
  // Binary metrics: a calibrated threshold still applies to their 0/1 score.
  return threshold === undefined ? m : withThreshold(m, threshold);
}

/** The same metric deciding at another threshold. */
export function withThreshold(m: Metric, threshold: number): Metric {
  return {
    name: m.name,
    card: m.card,
    threshold,
    score(item) {
      const r = m.score(item);
      return r.score === null ? r : { ...r, decision: r.score >= threshold };
    },
  };
}

/** Parses a comma-separated metric list; empty → the default. */
export function parseMetricList(spec: string | undefined, settings: MetricSettings = {}): Metric[] {
  const names = (spec ?? '').split(',').map((x) => x.trim()).filter(Boolean);
  const list = names.length ? names : [...DEFAULT_METRICS];
  const dup = list.find((x, i) => list.indexOf(x) !== i);
  if (dup) throw new VerityError(`metric "${dup}" is listed twice`, 'usage');
  return list.map((x) => createMetric(x, settings));
}
