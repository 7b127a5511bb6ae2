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
import {
  VerityError,
  type AnyMetric,
  type BatchMetric,
  type CapClass,
  type EntailmentSet,
  type Metric,
  type MetricCard,
  type QaItem,
  type QaRow,
} from '../types.ts';

export interface MetricSettings {
  /** Overrides each lexical metric's normalization (`squad` is the strict mode). */
  normalization?: Normalization;
  /** Each metric's own options by its main name, as its descriptor's `options` declares them (`optionValues`). */
  options?: Readonly<Record<string, Readonly<Record<string, OptionValue>>>>;
  /** Decision thresholds by metric name (e.g. from a calibration file). */
  thresholds?: Partial<Record<string, number>>;
  /** taxonomy_cutpoints: calibrated cut-points. */
  cutpoints?: Pick<Cutpoints, 'classes' | 'cuts'>;
  /** nli_lex: calibrated weights. */
  nliLexWeights?: Partial<{ se: number; lm: number; bias: number }>;
}

export type OptionValue = number | string;

/**
 * A setting of one metric, declared in its descriptor: the CLI's `--metric-option metric.key=value`, `verity
 * metrics` and docs/metrics.md are made from the declaration, and `optionValues` checks a given value against it.
 */
export type MetricOption =
  | { readonly kind: 'number'; readonly default: number; readonly min: number; readonly max: number; readonly describe: string }
  | { readonly kind: 'choice'; readonly choices: readonly [string, ...string[]]; readonly default: string; readonly describe: string };

export type OptionTable = Readonly<Record<string, MetricOption>>;

/** The values of a table's options: numbers, or one of the choices. */
export type OptionValues<T extends OptionTable> = {
  -readonly [K in keyof T]: T[K] extends { readonly choices: readonly (infer C)[] } ? C : number;
};

/** What is wrong with `value` for this option, or null. */
export function optionValueProblem(o: MetricOption, value: unknown): string | null {
  if (o.kind === 'number')
    return typeof value === 'number' && Number.isFinite(value) && value >= o.min && value <= o.max
      ? null
      : `expects a number from ${o.min} to ${o.max}, got ${JSON.stringify(value)}`;
  return typeof value === 'string' && o.choices.includes(value)
    ? null
    : `expects one of ${o.choices.join(', ')}, got ${JSON.stringify(value)}`;
}

/** What is wrong with the options given to `metric` for its table, or null: a key it does not declare, a value it does not allow. */
export function optionsProblem(metric: string, table: OptionTable, given: Readonly<Record<string, unknown>>): string | null {
  for (const [key, value] of Object.entries(given)) {
    const o = table[key];
    if (!o) {
      const keys = Object.keys(table);
      return `${metric} has no option "${key}"; ${keys.length ? `its options: ${keys.join(', ')}` : 'it has none'}`;
    }
    const problem = optionValueProblem(o, value);
    if (problem) return `${metric}.${key} ${problem}`;
  }
  return null;
}

/**
 * The options `metric` is built with: each declared one's given value, else its default. A key the table does not
 * declare, or a value it does not allow, is a usage error naming the metric and the option.
 */
export function optionValues<T extends OptionTable>(table: T, s: MetricSettings, metric: string): OptionValues<T> {
  const given = s.options?.[metric] ?? {};
  const problem = optionsProblem(metric, table, given);
  if (problem) throw new VerityError(problem, 'usage', 'bad-option', { metric });
  return Object.fromEntries(Object.entries(table).map(([key, o]) => [key, given[key] ?? o.default])) as OptionValues<T>;
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
  /** Its own settings, with their defaults and bounds; `create` reads them with `optionValues`. */
  readonly options?: OptionTable;
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
