/**
 * What a metric file exports: one descriptor, the metric as data (name, family, card, variants, examples, how
 * to build it from the user's settings, and optionally how to calibrate it). The table in `index.ts` lists
 * them; every list of metric names (CLI, app, tests) is derived from that table.
 */
import type { Capability, ModelContext } from '../capabilities.ts';
import type { Objective } from '../agreement/binary.ts';
import type { Calibration, Cutpoints } from '../agreement/calibrate.ts';
import type { Normalization } from '../text/normalize.ts';
import type { WordNet } from '../lexicon/index.ts';
import type { AnyMetric, BatchMetric, CapClass, EntailmentSet, Metric, MetricCard, QaItem, QaRow } from '../types.ts';

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
  nliLexWeights?: Partial<{ se: number; lm: number; bias: number }>;
  /** cap: α and λ. */
  capAlpha?: number;
  capLambda?: number;
}

/** One worked example of a card, run by the common test (src/core/metrics/cards.test.ts). */
export interface MetricExample {
  item: QaItem;
  /** What the models answer in this example, in words (model-based metrics). */
  given?: string;
  /** Deterministic stand-ins for the models `given` describes. */
  models?: () => ModelContext;
  /** The result; score to 3 decimals. */
  expected: { score: number | null; decision: boolean | null; class?: CapClass; set?: EntailmentSet; explanation?: string };
}

interface DescriptorBase {
  /** The name users select it by (CLI --metrics, the app's checkboxes, result columns). */
  readonly name: string;
  readonly card: MetricCard;
  /** Other names it can be built as (ablations, another backend): `create(settings, variant)`. */
  readonly variants?: readonly string[];
  /** Part of the embedded default set (needs no download). */
  readonly default?: boolean;
  /** Gives each row a CAP taxonomy class (results can be filtered and counted by it). */
  readonly classes?: true;
  /** At least one worked example. */
  readonly examples: readonly [MetricExample, ...MetricExample[]];
  /**
   * Reads WordNet (METEOR's synonyms, the WordNet signals): createMetric refuses to build it without a lexicon
   * given (null, given on purpose, runs it without WordNet).
   */
  readonly needsLexicon?: true;
  /**
   * The metric's own calibration from labelled rows (e.g. nli_lex fits its weights); metrics without one get
   * the generic threshold calibration.
   */
  calibrate?(rows: readonly QaRow[], ctx: ModelContext, objective: Objective): Promise<Calibration>;
}

/** Needs no model: scores synchronously. */
export interface LexicalDescriptor extends DescriptorBase {
  readonly family: 'lexical';
  create(settings: MetricSettings, name?: string, lexicon?: WordNet | null): Metric;
}

/** Needs model capabilities (or probabilities given in the input): scores batches. */
export interface ModelDescriptor extends DescriptorBase {
  readonly family: 'model';
  /**
   * The capabilities it uses (its metric's `needs`): which models a run loads is read from here, without building
   * a metric. `variantNeeds` names a variant that uses others.
   */
  readonly needs: readonly Capability[];
  readonly variantNeeds?: Readonly<Record<string, readonly Capability[]>>;
  create(settings: MetricSettings, name?: string, lexicon?: WordNet | null): BatchMetric;
}

export type MetricDescriptor = LexicalDescriptor | ModelDescriptor;

/** `{ threshold }` from the settings for this name, or nothing (so the metric's default applies). */
export function thresholdOption(s: MetricSettings, name: string): { threshold?: number } {
  const threshold = s.thresholds?.[name];
  return threshold === undefined ? {} : { threshold };
}

/** `{ normalization }` from the settings, or nothing. */
export function normalizationOption(s: MetricSettings): { normalization?: Normalization } {
  return s.normalization === undefined ? {} : { normalization: s.normalization };
}

/** The same binary metric deciding at another threshold (a calibrated one). */
export function withThreshold(m: Metric, threshold: number | undefined): Metric {
  if (threshold === undefined) return m;
  return {
    name: m.name,
    card: m.card,
    threshold,
    score(item, use) {
      const r = m.score(item, use);
      return r.score === null ? r : { ...r, decision: r.score >= threshold };
    },
  };
}

/** The metric under another name (a variant that shares the implementation). */
export function renamed<M extends AnyMetric>(m: M, name: string): M {
  return Object.assign(Object.create(Object.getPrototypeOf(m) as object) as M, m, { name });
}
