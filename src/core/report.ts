/**
 * The agreement report every surface shows: `verity evaluate` (text and --json), the Score page's report and
 * its JSON export, and the Learn page. It is built once here from the scored rows, rounded once here
 * (REPORT_DECIMALS, in `roundSummary`), and the best metric is chosen here, on the rounded numbers, so that what
 * looks tied on screen is tied. Plain data: it crosses the worker boundary and is written as JSON unchanged.
 * Renderers print its numbers with `formatStat`, which adds no rounding of its own.
 */
import { labelIsCorrect } from './correctness.ts';
import type { RowResults } from './scoring.ts';
import { HARD_PAIRS, SEVERITY, type HardPair, type TaxonomyReport } from './agreement/ordinal.ts';
import { mccLead, pairwiseLead, type Lead } from './agreement/lead.ts';
import type { AnyMetric, CapClass, Label, QaRow } from './types.ts';
import { binaryReport, type BinaryMetric, type BinaryReport, type BootstrapOptions, type Estimate } from './agreement/binary.ts';
import { taxonomyReport } from './agreement/ordinal.ts';

export type LabelKind = 'binary' | 'taxonomy';

export interface BinaryMetricReport {
  threshold: number;
  report: BinaryReport;
}

export interface AgreementReport {
  /** Labelled rows used. */
  n: number;
  /** Rows not used: unlabelled or bad label (file-level skips are added by the caller). */
  skipped: number;
  label_kind: LabelKind;
  binary?: Record<string, BinaryMetricReport>;
  taxonomy?: Record<string, TaxonomyReport>;
}

/**
 * What an agreement report needs of a run, column by column: a label per row and each metric's score and
 * decision by row index (so a long run can keep them in typed arrays rather than one object per row).
 */
export interface ScoreColumns {
  labels: readonly (Label | undefined)[];
  score(metric: string, row: number): number | null;
  decision(metric: string, row: number): boolean | null;
  /** Why a metric gave what it gave on a row (for the report's "left out" reasons); optional. */
  explanation?(metric: string, row: number): string | undefined;
  /**
   * The row's question (or a number standing for it): answers to one question count as one draw in the interval of
   * the best metric's lead. Without it, or for an empty question, each row is its own.
   */
  question?(row: number): string | number;
}

/**
 * Agreement of each metric with the human labels. Taxonomy when every label is one of the eight classes;
 * otherwise binary, reducing class labels to correct (exact … overinclusive-valid) / incorrect. Unrounded:
 * what the surfaces show is `agreementSummary` (core/report.ts), built from this.
 */
export function agreement(
  rows: readonly QaRow[],
  results: readonly RowResults[],
  metrics: readonly Pick<AnyMetric, 'name' | 'threshold'>[],
  bootstrap: BootstrapOptions = {},
): AgreementReport {
  return agreementOfColumns(
    {
      labels: rows.map((r) => r.label),
      score: (m, i) => results[i]![m]?.score ?? null,
      decision: (m, i) => results[i]![m]?.decision ?? null,
    },
    metrics,
    bootstrap,
  );
}

/** agreement() over columns. */
export function agreementOfColumns(
  cols: ScoreColumns,
  metrics: readonly Pick<AnyMetric, 'name' | 'threshold'>[],
  bootstrap: BootstrapOptions = {},
): AgreementReport {
  const idx: number[] = [];
  cols.labels.forEach((l, i) => l && idx.push(i));
  const labelled = idx.map((i) => cols.labels[i]!);
  const kind: LabelKind = labelled.length > 0 && labelled.every((l) => l.kind === 'taxonomy') ? 'taxonomy' : 'binary';
  const out: AgreementReport = { n: idx.length, skipped: cols.labels.length - idx.length, label_kind: kind };
  if (kind === 'taxonomy') {
    const classes = labelled.map((l) => (l as { cls: CapClass }).cls);
    out.taxonomy = Object.fromEntries(
      metrics.map((m) => [
        m.name,
        taxonomyReport(
          idx.map((i) => cols.score(m.name, i)),
          classes,
        ),
      ]),
    );
  } else {
    const labels = labelled.map(labelIsCorrect);
    out.binary = Object.fromEntries(
      metrics.map((m) => [
        m.name,
        {
          threshold: m.threshold,
          report: binaryReport(
            idx.map((i) => cols.score(m.name, i)),
            idx.map((i) => cols.decision(m.name, i)),
            labels,
            bootstrap,
          ),
        },
      ]),
    );
  }
  return out;
}

/** Decimals of every statistic in the report, on every surface. */
export const REPORT_DECIMALS = 4;
const SCALE = 10 ** REPORT_DECIMALS;

/** The one rounding of the report (−0 becomes 0, so it prints and serializes as 0). */
export function roundStat(x: number): number;
export function roundStat(x: number | null): number | null;
export function roundStat(x: number | null): number | null {
  return x === null ? null : Math.round(x * SCALE) / SCALE || 0;
}

/** How every renderer prints a report number: its REPORT_DECIMALS digits (already rounded, so no second rounding). */
export const formatStat = (x: number | null | undefined): string => (x === null || x === undefined ? '—' : x.toFixed(REPORT_DECIMALS));

/** The binary agreement columns, in display order. */
export const BINARY_COLUMNS = [
  'accuracy',
  'precision',
  'recall',
  'f1',
  'mcc',
  'balancedAccuracy',
  'kappa',
  'auc',
] as const satisfies readonly BinaryMetric[];
export type BinaryColumn = (typeof BINARY_COLUMNS)[number];

/** The monotonicity columns, in display order; violations are better when fewer, the others when higher. */
export const TAXONOMY_COLUMNS = [
  'spearman',
  'kendall',
  'pairwiseAccuracy',
  'violations',
  ...(Object.keys(HARD_PAIRS) as HardPair[]),
] as const;
export type TaxonomyColumn = 'spearman' | 'kendall' | 'pairwiseAccuracy' | 'violations' | HardPair;

export function taxonomyValue(t: TaxonomyReport, c: TaxonomyColumn): number | null {
  switch (c) {
    case 'spearman':
      return t.spearman;
    case 'kendall':
      return t.kendall;
    case 'pairwiseAccuracy':
      return t.pairwiseAccuracy;
    case 'violations':
      // A tie between two classes counts as half a violation: a metric that scores whole classes alike is not monotone.
      return t.violations.weighted;
    default:
      return t.hardPairs[c];
  }
}

export interface AgreementSummary {
  /** Labelled rows. */
  n: number;
  /** Rows not used: unlabelled or with a bad label (file-level skips are added by the caller). */
  skipped: number;
  labelKind: 'binary' | 'taxonomy' | null;
  /** Binary agreement; for class labels (when asked for) with exact … overinclusive-valid as correct. */
  binary: Record<string, BinaryMetricReport> | null;
  /** The monotonicity protocol, when every label is one of the eight classes. */
  taxonomy: Record<string, TaxonomyReport> | null;
  /**
   * The metric with the best MCC (binary) and, for class labels, the most monotone: the best pairwise accuracy,
   * where a pair of answers scored alike counts half (so a metric that gives whole classes one score is not
   * crowned, as it was by Spearman ρ); the first on ties.
   */
  best: { binary: string | null; taxonomy: string | null };
  /** Per column, every metric with the best value shown (fewest violations; otherwise highest). */
  leaders: { binary: Partial<Record<BinaryColumn, string[]>>; taxonomy: Partial<Record<TaxonomyColumn, string[]>> };
  /**
   * Whether the crowned metric's lead is real: its MCC (binary) or pairwise accuracy (classes) minus that of the best
   * metric below the leaders, on the rows both scored, with a 95% interval (agreement/lead.ts); null when no metric is
   * below the leaders.
   */
  lead: { binary: Lead | null; taxonomy: Lead | null };
  /** Metrics left out of the tables because they scored no labelled row (e.g. their model did not load), and why. */
  omitted: Record<string, string>;
}

export interface SummaryOptions extends BootstrapOptions {
  /** With class labels, also the binary table (labels reduced to correct / incorrect). The Score page shows both. */
  binaryFromClasses?: boolean;
}

const roundEstimate = (e: Estimate): Estimate => ({
  value: roundStat(e.value),
  ci: e.ci ? [roundStat(e.ci[0]), roundStat(e.ci[1])] : null,
});

/** The one place the report is rounded. */
function roundSummary(
  binary: Record<string, BinaryMetricReport> | null,
  taxonomy: Record<string, TaxonomyReport> | null,
): { binary: Record<string, BinaryMetricReport> | null; taxonomy: Record<string, TaxonomyReport> | null } {
  const b =
    binary &&
    Object.fromEntries(
      Object.entries(binary).map(([m, { threshold, report }]) => [
        m,
        {
          threshold: roundStat(threshold),
          report: {
            ...report,
            metrics: Object.fromEntries(Object.entries(report.metrics).map(([k, e]) => [k, roundEstimate(e)])) as BinaryReport['metrics'],
          },
        },
      ]),
    );
  const t =
    taxonomy &&
    Object.fromEntries(
      Object.entries(taxonomy).map(([m, r]): [string, TaxonomyReport] => [
        m,
        {
          ...r,
          spearman: roundStat(r.spearman),
          kendall: roundStat(r.kendall),
          pairwiseAccuracy: roundStat(r.pairwiseAccuracy),
          classes: Object.fromEntries(
            Object.entries(r.classes).map(([c, s]) => [c, { count: s.count, mean: roundStat(s.mean), std: roundStat(s.std) }]),
          ) as TaxonomyReport['classes'],
          violations: {
            ...r.violations,
            pairs: r.violations.pairs.map((v) => ({ ...v, meanHigher: roundStat(v.meanHigher), meanLower: roundStat(v.meanLower) })),
          },
          hardPairs: Object.fromEntries(Object.entries(r.hardPairs).map(([k, v]) => [k, roundStat(v)])) as TaxonomyReport['hardPairs'],
        },
      ]),
    );
  return { binary: b, taxonomy: t };
}

/** Metrics whose value in a column is the best (highest, or lowest when `fewest`); none when no value exists. */
function leadersOf<R>(entries: [string, R][], value: (r: R) => number | null, fewest = false): string[] {
  let best: number | null = null;
  for (const [, r] of entries) {
    const v = value(r);
    if (v !== null && (best === null || (fewest ? v < best : v > best))) best = v;
  }
  return best === null ? [] : entries.filter(([, r]) => value(r) === best).map(([m]) => m);
}

/**
 * The agreement of each metric with the human labels, as every surface shows it. Taxonomy when every label
 * is one of the eight classes (plus the binary reduction with `binaryFromClasses`), else binary. A metric
 * that scored no labelled row (its model failed to load, or it does not apply to this file) is left out of
 * the tables and listed in `omitted` with the reason its rows give.
 */
export function agreementSummary(
  rows: readonly QaRow[],
  results: readonly RowResults[],
  metrics: readonly { name: string; threshold: number }[],
  opts: SummaryOptions = {},
): AgreementSummary {
  const n = Math.min(rows.length, results.length);
  return agreementSummaryOfColumns(
    {
      labels: rows.slice(0, n).map((r) => r.label),
      score: (m, i) => results[i]![m]?.score ?? null,
      decision: (m, i) => results[i]![m]?.decision ?? null,
      explanation: (m, i) => results[i]![m]?.explanation,
      question: (i) => rows[i]!.question,
    },
    metrics,
    opts,
  );
}

/** agreementSummary over columns: what a streamed run keeps (a label per row, each metric's score and decision). */
export function agreementSummaryOfColumns(
  cols: ScoreColumns,
  metrics: readonly { name: string; threshold: number }[],
  opts: SummaryOptions = {},
): AgreementSummary {
  const labels = cols.labels;
  const labelled: number[] = [];
  labels.forEach((l, i) => l && labelled.push(i));
  const taxonomyLabels = labelled.length > 0 && labelled.every((i) => labels[i]!.kind === 'taxonomy');
  const omitted: Record<string, string> = {};
  const kept = metrics.filter((m) => {
    if (labelled.length === 0) return true;
    if (labelled.some((i) => cols.score(m.name, i) !== null)) return true;
    // The first labelled row that says why (explanations may be computed again: ask row by row).
    let why: string | undefined;
    for (let k = 0; cols.explanation && !why && k < labelled.length; k++) why = cols.explanation(m.name, labelled[k]!);
    omitted[m.name] = why ? `no labelled row was scored: ${why}` : 'no labelled row was scored';
    return false;
  });
  const { resamples, seed, level } = opts;
  const bootstrap: BootstrapOptions = {
    ...(resamples !== undefined ? { resamples } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(level !== undefined ? { level } : {}),
  };
  let binary: AgreementSummary['binary'] = null;
  let taxonomy: AgreementSummary['taxonomy'] = null;
  if (labelled.length > 0) {
    if (taxonomyLabels) taxonomy = agreementOfColumns(cols, kept).taxonomy ?? null;
    if (!taxonomyLabels || opts.binaryFromClasses) {
      const asBinary: ScoreColumns = taxonomyLabels
        ? { ...cols, labels: labels.map((l) => (l ? { kind: 'binary' as const, correct: labelIsCorrect(l) } : l)) }
        : cols;
      binary = agreementOfColumns(asBinary, kept, bootstrap).binary ?? null;
    }
  }
  const rounded = roundSummary(binary, taxonomy);
  const b = Object.entries(rounded.binary ?? {});
  const t = Object.entries(rounded.taxonomy ?? {});
  const leaders: AgreementSummary['leaders'] = { binary: {}, taxonomy: {} };
  if (b.length) for (const c of BINARY_COLUMNS) leaders.binary[c] = leadersOf(b, (x) => x.report.metrics[c].value);
  if (t.length) for (const c of TAXONOMY_COLUMNS) leaders.taxonomy[c] = leadersOf(t, (x) => taxonomyValue(x, c), c === 'violations');
  const scoreOf = (m: string) => labelled.map((i) => cols.score(m, i));
  // Answers to one question move together: they are one draw in the lead's interval (a row without one is its own).
  const cluster = labelled.map((i) => {
    const q = cols.question?.(i);
    return q === undefined || q === '' ? -1 - i : q;
  });
  const binaryLead = b.length
    ? leadOver(
        b,
        leaders.binary.mcc,
        (x) => x.report.metrics.mcc.value,
        (best, over) => {
          const decided = (m: string) => labelled.map((i) => (cols.score(m, i) == null ? null : cols.decision(m, i)));
          const truth = labelled.map((i) => labelIsCorrect(labels[i]!));
          return mccLead([best, over], truth, decided(best), decided(over), { cluster, ...(level !== undefined ? { level } : {}) });
        },
      )
    : null;
  const taxonomyLead = t.length
    ? leadOver(
        t,
        leaders.taxonomy.pairwiseAccuracy,
        (x) => x.pairwiseAccuracy,
        (best, over) => {
          const severity = labelled.map((i) => SEVERITY[(labels[i] as { cls: CapClass }).cls]);
          return pairwiseLead([best, over], severity, scoreOf(best), scoreOf(over), { cluster, ...(level !== undefined ? { level } : {}) });
        },
      )
    : null;
  return {
    n: labelled.length,
    skipped: labels.length - labelled.length,
    labelKind: labelled.length ? (taxonomyLabels ? 'taxonomy' : 'binary') : null,
    binary: rounded.binary,
    taxonomy: rounded.taxonomy,
    best: {
      binary: rounded.binary ? (leaders.binary.mcc?.[0] ?? null) : null,
      taxonomy: rounded.taxonomy ? (leaders.taxonomy.pairwiseAccuracy?.[0] ?? null) : null,
    },
    leaders,
    lead: { binary: binaryLead, taxonomy: taxonomyLead },
    omitted,
  };
}

/** The first leader's lead over the best metric below the leaders (the highest value among the others), rounded. */
function leadOver<R>(
  entries: [string, R][],
  leaders: readonly string[] | undefined,
  value: (r: R) => number | null,
  compute: (best: string, over: string) => Lead | null,
): Lead | null {
  const best = leaders?.[0];
  if (!best) return null;
  let over: [string, number] | null = null;
  for (const [m, r] of entries) {
    const v = value(r);
    if (v !== null && !leaders.includes(m) && (!over || v > over[1])) over = [m, v];
  }
  const l = over && compute(best, over[0]);
  if (!l) return null;
  // Rounded as the report is, and called real on the rounded interval: what is shown is what is said.
  const ci: [number, number] | null = l.ci && [roundStat(l.ci[0]), roundStat(l.ci[1])];
  return { ...l, difference: roundStat(l.difference), ci, real: ci !== null && ci[0] > 0 };
}

const SNAKE: Partial<Record<BinaryMetric, string>> = { balancedAccuracy: 'balanced_accuracy', auc: 'roc_auc' };

/**
 * The versioned name of the report's JSON form, checked by `docs/report.schema.json` (as is the comparison's,
 * `verity-compare/1`). A change of shape is a new version.
 */
export const REPORT_SCHEMA = 'verity-report/1';

/** The binary table in the JSON form: per metric, its statistics, threshold, counts and intervals. */
function binaryJson(binary: Record<string, BinaryMetricReport>): Record<string, unknown> {
  const metrics: Record<string, unknown> = {};
  for (const [name, { threshold, report }] of Object.entries(binary)) {
    const m = report.metrics;
    metrics[name] = {
      ...Object.fromEntries(BINARY_COLUMNS.map((k) => [SNAKE[k] ?? k, m[k].value])),
      threshold,
      n: report.n,
      excluded: report.excluded,
      confusion: report.confusion,
      ci: Object.fromEntries(BINARY_COLUMNS.map((k) => [SNAKE[k] ?? k, m[k].ci])),
    };
  }
  return metrics;
}

/** The lead in the JSON form: over which metric, by how much (MCC or pairwise accuracy), its interval, and whether it is real. */
const leadJson = (l: Lead): Record<string, unknown> => ({
  best: l.best,
  over: l.over,
  difference: l.difference,
  ci: l.ci,
  n: l.n,
  questions: l.clusters,
  real: l.real,
});

/**
 * The report's JSON form, the same on every surface (`verity evaluate --json`, the Score page's report export):
 * snake_case names, the statistics of the label kind under `metrics`, and for class labels the binary reduction
 * under `binary_from_classes` when it was computed. Renames, adds no rounding. `skippedInFile` adds the rows the
 * reader skipped.
 */
export function agreementJson(s: AgreementSummary, skippedInFile = 0): Record<string, unknown> {
  let metrics: Record<string, unknown> = {};
  if (s.labelKind === 'binary' && s.binary) metrics = binaryJson(s.binary);
  if (s.labelKind === 'taxonomy' && s.taxonomy)
    for (const [name, t] of Object.entries(s.taxonomy))
      metrics[name] = {
        spearman: t.spearman,
        kendall: t.kendall,
        pairwise_accuracy: t.pairwiseAccuracy,
        violations: {
          count: t.violations.count,
          of: t.violations.of,
          ties: t.violations.ties,
          weighted: t.violations.weighted,
          pairs: t.violations.pairs.map((v) => ({ higher: v.higher, lower: v.lower, mean_higher: v.meanHigher, mean_lower: v.meanLower })),
          excluding_ov_partial: t.violations.excluding_ov_partial,
        },
        hard_pairs: t.hardPairs,
        class_means: Object.fromEntries(Object.entries(t.classes).map(([k, v]) => [k, { n: v.count, mean: v.mean, std: v.std }])),
        n: t.n,
        excluded: t.excluded,
      };
  const best = s.labelKind === 'taxonomy' ? s.best.taxonomy : s.best.binary;
  const lead = s.labelKind === 'taxonomy' ? s.lead.taxonomy : s.lead.binary;
  return {
    schema: REPORT_SCHEMA,
    n: s.n,
    skipped: s.skipped + skippedInFile,
    label_kind: s.labelKind,
    metrics,
    best,
    lead: lead && leadJson(lead),
    ...(s.labelKind === 'taxonomy' && s.binary
      ? { binary_from_classes: binaryJson(s.binary), best_binary: s.best.binary, lead_binary: s.lead.binary && leadJson(s.lead.binary) }
      : {}),
    ...(Object.keys(s.omitted).length ? { omitted: s.omitted } : {}),
  };
}
