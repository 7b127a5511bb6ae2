/**
 * The metric table (as transformers.js's SUPPORTED_TASKS): one descriptor per metric file, in display order.
 * Every list of metric names — the CLI's, the app's, the tests' — is derived from it, so adding a metric is
 * one new file exporting a `descriptor` plus one line here (and its import).
 */
import { VerityError, isBatchMetric, type AnyMetric, type Metric, type MetricCard } from '../types.ts';
import { optionsProblem, type MetricDescriptor, type MetricSettings } from './descriptor.ts';
import { LIMITS } from '../limits.ts';
import type { WordNet } from '../lexicon/index.ts';
import type { Capability } from '../capabilities.ts';
import { descriptor as exactMatch } from './exact_match.ts';
import { descriptor as tokenF1 } from './token_f1.ts';
import { descriptor as lexicalMatch } from './lexical_match.ts';
import { descriptor as bleu } from './bleu.ts';
import { descriptor as rougeL } from './rouge_l.ts';
import { descriptor as meteor } from './meteor.ts';
import { descriptor as pedants } from './pedants.ts';
import { descriptor as taxonomyText } from './taxonomy_text.ts';
import { descriptor as cap } from './cap.ts';
import { descriptor as hierarchy } from './hierarchy.ts';
import { descriptor as nliLex } from './nli_lex.ts';
import { descriptor as avert } from './avert.ts';
import { descriptor as bertscore } from './bertscore.ts';
import { descriptor as taxonomy } from './taxonomy.ts';

export type {
  LexicalDescriptor,
  MetricDescriptor,
  MetricExample,
  MetricOption,
  MetricSettings,
  ModelDescriptor,
  OptionValue,
} from './descriptor.ts';
export { withThreshold } from './descriptor.ts';

export const SUPPORTED_METRICS: readonly MetricDescriptor[] = Object.freeze([
  exactMatch,
  tokenF1,
  lexicalMatch,
  bleu,
  rougeL,
  meteor,
  pedants,
  taxonomyText,
  cap,
  hierarchy,
  nliLex,
  avert,
  bertscore,
  taxonomy,
]);

// ---------- everything below is derived from the table ----------

const names = (family: MetricDescriptor['family']) => SUPPORTED_METRICS.filter((d) => d.family === family).map((d) => d.name);

/** Metrics that need no model. */
export const LEXICAL_METRICS: readonly string[] = names('lexical');
/** Metrics that use model capabilities (or NLI probabilities given in the input). */
export const MODEL_METRICS: readonly string[] = names('model');
/** Ablations and variants, selectable by name. */
export const VARIANT_METRICS: readonly string[] = SUPPORTED_METRICS.flatMap((d) => d.variants ?? []);
/** Every metric's main name, in table order. */
export const METRIC_NAMES: readonly string[] = SUPPORTED_METRICS.map((d) => d.name);
/** The embedded default: needs no download. */
export const DEFAULT_METRICS: readonly string[] = SUPPORTED_METRICS.filter((d) => d.default).map((d) => d.name);
/** Metrics that give each row a taxonomy class. */
export const CLASS_METRICS: readonly string[] = SUPPORTED_METRICS.filter((d) => d.classes).map((d) => d.name);

const BY_NAME: ReadonlyMap<string, MetricDescriptor> = new Map(
  SUPPORTED_METRICS.flatMap((d) => [d.name, ...(d.variants ?? [])].map((n) => [n, d] as const)),
);

/** The descriptor a name (main name or variant) belongs to, or a usage error listing the names. */
export function metricDescriptor(name: string): MetricDescriptor {
  const d = BY_NAME.get(name);
  if (!d) throw new VerityError(`unknown metric "${name}"; available: ${[...METRIC_NAMES, ...VARIANT_METRICS].join(', ')}`, 'usage');
  return d;
}

/**
 * What a metric is built with besides its settings: the WordNet lexicon, for the metrics that read it
 * (descriptor.needsLexicon). Not a setting: it is large, loaded once per thread by the runtime, and never serialized.
 */
export interface MetricBuild {
  /** WordNet 3.0; null builds a metric that reads it without it, on purpose (its WordNet stages stay silent). */
  lexicon?: WordNet | null;
}

/** Builds a metric by name; one that reads WordNet is refused unless `build.lexicon` is given (null included). */
export function createMetric(name: string, s: MetricSettings = {}, build: MetricBuild = {}): AnyMetric {
  const d = metricDescriptor(name);
  if (d.needsLexicon && build.lexicon === undefined)
    throw new Error(
      `${name} reads the WordNet lexicon, and it was built without it: load it (runtime/lexicon-node.ts or lexicon-browser.ts) and pass it as { lexicon }`,
    );
  return withFieldLimit(d.create(s, name, build.lexicon ?? null));
}

/**
 * The model capabilities these metrics use (main names or variants), each once, as their descriptors declare
 * them: which models a run needs is read here, without building a metric.
 */
export function capabilitiesOf(names: readonly string[]): Capability[] {
  const out = new Set<Capability>();
  for (const n of names) {
    const d = metricDescriptor(n);
    if (d.family === 'model') for (const c of d.variantNeeds?.[n] ?? d.needs) out.add(c);
  }
  return [...out];
}

/**
 * What is wrong with a run's metric options (`settings.options`), or null: each key is the main name of one of the
 * run's metrics (given by name or variant), and each option one its descriptor declares, with a value it allows.
 */
export function metricOptionsProblem(metrics: readonly string[], options: unknown): string | null {
  if (options === undefined) return null;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) return 'the metric options are not an object';
  // A name Verity does not have is refused where the metric is built, with the list of names.
  const inRun = new Set(metrics.map((n) => BY_NAME.get(n)?.name));
  for (const [metric, given] of Object.entries(options)) {
    const d = BY_NAME.get(metric);
    if (!d || d.name !== metric) return `"${metric}" is not a metric's name${d ? `: options are given by the main name, "${d.name}"` : ''}`;
    if (!inRun.has(metric)) return `${metric} is not among the run's metrics (${metrics.join(', ')})`;
    if (typeof given !== 'object' || given === null || Array.isArray(given)) return `${metric}: its options are not an object`;
    const problem = optionsProblem(metric, d.options ?? {}, given as Record<string, unknown>);
    if (problem) return problem;
  }
  return null;
}

/**
 * A metric's options as `verity metrics` and the docs list them: the name to give (`cap.alpha`) and what it takes,
 * `(range or choices; default …): what it does`.
 */
export const optionLines = (d: MetricDescriptor): { name: string; says: string }[] =>
  Object.entries(d.options ?? {}).map(([key, o]) => ({
    name: `${d.name}.${key}`,
    says: `(${o.kind === 'number' ? `${o.min} to ${o.max}` : o.choices.join(' or ')}; default ${o.default}): ${o.describe}`,
  }));

/** Whether any of these metrics reads WordNet (the caller then loads it before building them). */
export const needsLexicon = (names: readonly string[]): boolean => names.some((n) => metricDescriptor(n).needsLexicon === true);

/** The field-length cap every metric is scored under (applied centrally in scoring.ts), as its card says it. */
export const withLimitLine = (card: MetricCard): MetricCard => ({
  ...card,
  limits: `${card.limits} A row with a question, gold or candidate over ${LIMITS.fieldChars.toLocaleString('en-US')} characters is not scored (null, with the reason).`,
});

function withFieldLimit<M extends AnyMetric>(m: M): M {
  return Object.assign(Object.create(Object.getPrototypeOf(m) as object) as M, m, { card: withLimitLine(m.card) });
}

/** A comma-separated metric list as names (empty → the default), each known and listed once. */
export function resolveMetricList(spec: string | undefined): string[] {
  const list = (spec ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
  const chosen = list.length ? list : [...DEFAULT_METRICS];
  const dup = chosen.find((x, i) => chosen.indexOf(x) !== i);
  if (dup) throw new VerityError(`metric "${dup}" is listed twice`, 'usage');
  for (const x of chosen) metricDescriptor(x);
  return chosen;
}

/** Parses a comma-separated metric list (resolveMetricList) and builds its metrics. */
export function parseMetricList(spec: string | undefined, settings: MetricSettings = {}, build: MetricBuild = {}): AnyMetric[] {
  return resolveMetricList(spec).map((x) => createMetric(x, settings, build));
}

/** A metric that must run without a model (combinations, benchmarks); a clear usage error otherwise. */
export function createSyncMetric(name: string, s: MetricSettings = {}, build: MetricBuild = {}): Metric {
  const m = createMetric(name, s, build);
  if (isBatchMetric(m)) throw new VerityError(`"${name}" needs a model; here only ${LEXICAL_METRICS.join(', ')} can be used`, 'usage');
  return m;
}
