/** The metric registry: names, defaults and construction from user settings. */
import { VerityError, isBatchMetric, type AnyMetric, type Metric } from '../types.ts';
import type { Normalization } from '../text/normalize.ts';
import type { Cutpoints } from '../agreement/calibrate.ts';
import { createExactMatch } from './exact_match.ts';
import { createTokenF1 } from './token_f1.ts';
import { createLexicalMatch } from './lexical_match.ts';
import { createBleu } from './bleu.ts';
import { createRougeL } from './rouge_l.ts';
import { createMeteor } from './meteor.ts';
import { createPedants } from './pedants.ts';
import { createCap } from './cap.ts';
import { createHierarchy } from './hierarchy.ts';
import { createNliLex, type NliLexWeights } from './nli_lex.ts';
import { createAvert } from './avert.ts';
import { createBertScore } from './bertscore.ts';
import { createTaxonomy, createTaxonomyText } from './taxonomy.ts';

/** Metrics that need no model. */
export const LEXICAL_METRICS = ['exact_match', 'token_f1', 'lexical_match', 'bleu', 'rouge_l', 'meteor', 'pedants', 'taxonomy_text'] as const;
/** Metrics that use model capabilities (or NLI probabilities given in the input). */
export const MODEL_METRICS = ['cap', 'hierarchy', 'nli_lex', 'avert', 'bertscore', 'taxonomy'] as const;
/** Ablations and variants, selectable by name. */
export const VARIANT_METRICS = ['cap_ent_gp', 'cap_gp_lambda', 'cap_pg', 'cap_bidirectional', 'hierarchy_strict', 'taxonomy_cutpoints', 'avert_embedding'] as const;
export const METRIC_NAMES = [...LEXICAL_METRICS, ...MODEL_METRICS] as const;
export type MetricName = (typeof METRIC_NAMES)[number];

/** The embedded default: needs no download. */
export const DEFAULT_METRICS: readonly MetricName[] = ['exact_match', 'token_f1', 'lexical_match', 'pedants', 'taxonomy_text'];

export interface MetricSettings {
  /** Overrides each lexical metric's normalization (`squad` is the strict mode). */
  normalization?: Normalization;
  /** lexical_match: token-boundary (default) or EVOUNA's plain substring containment. */
  lexicalMode?: 'token' | 'substring';
  /** Decision thresholds by metric name (e.g. from a calibration file). */
  thresholds?: Partial<Record<string, number>>;
  /** taxonomy_cutpoints: calibrated cut-points. */
  cutpoints?: Pick<Cutpoints, 'classes' | 'cuts'>;
  /** nli_lex: calibrated weights. */
  nliLexWeights?: Partial<NliLexWeights>;
  /** cap: α and λ. */
  capAlpha?: number;
  capLambda?: number;
}

export function createMetric(name: string, s: MetricSettings = {}): AnyMetric {
  const threshold = s.thresholds?.[name];
  const t = threshold === undefined ? {} : { threshold };
  const n = s.normalization === undefined ? {} : { normalization: s.normalization };
  const cap = { ...(s.capAlpha !== undefined ? { alpha: s.capAlpha } : {}), ...(s.capLambda !== undefined ? { lambda: s.capLambda } : {}) };
  switch (name) {
    case 'exact_match':
      return withThreshold(createExactMatch(n), threshold);
    case 'token_f1':
      return createTokenF1({ ...n, ...t });
    case 'lexical_match':
      return withThreshold(createLexicalMatch({ ...n, ...(s.lexicalMode ? { mode: s.lexicalMode } : {}) }), threshold);
    case 'bleu':
      return createBleu(t);
    case 'rouge_l':
      return createRougeL(t);
    case 'meteor':
      return createMeteor(t);
    case 'pedants':
      return createPedants(t);
    case 'cap':
      return createCap({ ...cap, ...t });
    case 'cap_ent_gp':
    case 'cap_gp_lambda':
    case 'cap_pg':
    case 'cap_bidirectional':
      return createCap({ ...cap, ...t, variant: name.slice(4) as 'ent_gp' | 'gp_lambda' | 'pg' | 'bidirectional' });
    case 'hierarchy':
    case 'hierarchy_strict':
      return createHierarchy({ strict: name === 'hierarchy_strict', ...(threshold !== undefined ? { tau: threshold } : {}) });
    case 'nli_lex':
      return createNliLex({ ...t, ...(s.nliLexWeights ? { weights: s.nliLexWeights } : {}) });
    case 'avert':
      return createAvert(t);
    case 'avert_embedding':
      return renamed(createAvert({ ...t, backend: 'embedding' }), 'avert_embedding');
    case 'bertscore':
      return createBertScore(t);
    case 'taxonomy':
      return createTaxonomy({ ...cap, method: 'structured' });
    case 'taxonomy_text':
      return createTaxonomyText(t);
    case 'taxonomy_cutpoints':
      return createTaxonomy({ ...cap, method: 'cutpoints', ...(s.cutpoints ? { cutpoints: s.cutpoints } : {}) });
    default:
      throw new VerityError(`unknown metric "${name}"; available: ${[...METRIC_NAMES, ...VARIANT_METRICS].join(', ')}`, 'usage');
  }
}

function renamed<M extends AnyMetric>(m: M, name: string): M {
  return Object.assign(Object.create(Object.getPrototypeOf(m) as object) as M, m, { name });
}

/** The same binary metric deciding at another threshold (a calibrated one). */
export function withThreshold(m: Metric, threshold: number | undefined): Metric {
  if (threshold === undefined) return m;
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
export function parseMetricList(spec: string | undefined, settings: MetricSettings = {}): AnyMetric[] {
  const names = (spec ?? '').split(',').map((x) => x.trim()).filter(Boolean);
  const list = names.length ? names : [...DEFAULT_METRICS];
  const dup = list.find((x, i) => list.indexOf(x) !== i);
  if (dup) throw new VerityError(`metric "${dup}" is listed twice`, 'usage');
  return list.map((x) => createMetric(x, settings));
}


/** A metric that must run without a model (combinations, benchmarks); a clear usage error otherwise. */
export function createSyncMetric(name: string, s: MetricSettings = {}): Metric {
  const m = createMetric(name, s);
  if (isBatchMetric(m)) throw new VerityError(`"${name}" needs a model; here only ${LEXICAL_METRICS.join(', ')} can be used`, 'usage');
  return m;
}
