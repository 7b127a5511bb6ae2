/**
 * The comparison table: every system's results laid out as system × question matrices, one per metric.
 *
 * What: turns long rows (one per system and question, each with a question key, metric results and an
 *   optional human label) into dense typed arrays, so that leaderboards, paired tests and rankings are plain
 *   loops over numbers (one million rows = a few typed arrays, no per-row objects).
 * Layout: cell (s, q) is at s·Q + q; scores are NaN and decisions / labels −1 where a system has no row for a
 *   question or the metric did not apply. Systems and questions keep first-seen order unless given.
 * Limits: a (system, key) pair seen twice keeps the first row; the caller (io/systems.ts) makes keys unique. The
 *   arrays are read-only once built: bootstrap draws are remembered per array (resample.ts).
 */
import type { Label } from '../types.ts';
import { labelIsCorrect } from '../correctness.ts';
import { answerGroups } from '../review/groups.ts';
import { reviewSignals, wordCount } from '../review/signals.ts';

/** A metric as the comparison needs it: its name and decision threshold. */
export interface MetricInfo {
  name: string;
  threshold: number;
}

/** What the table needs of one input row. */
export interface CompareRow {
  system: string;
  /** Question key: rows of different systems with the same key are the same question. */
  key: string;
  label?: Label;
  /** The inclusion probability of the review unit the row's label came with (review/labels.ts), when it did. */
  pi?: number;
  /** That review unit: rows of one unit were asked as one. */
  unit?: number;
  /** For a review drawn step by step: the step (0-based) the row's group was drawn at, its probability then, and the steps planned. */
  step?: number;
  q?: number;
  planned?: number;
  steps?: number;
  /** The row's text, which a review's estimate reads (answer groups and signals) when the rows are partly labelled. */
  question?: string;
  golds?: readonly string[];
  candidate?: string;
  /**
   * A verdict on the row's answer from before the review (a label memory: `compare --known`). The review was not
   * drawn beside it, so it is not a label: it stands in for the judge as the row's prediction (review/frame.ts) —
   * on every row it judges, drawn or not, since a prediction that changed with the draw would bias the estimate.
   */
  earlier?: boolean;
}

export interface CompareTable {
  systems: string[];
  keys: string[];
  metrics: MetricInfo[];
  /** Index of the input row at cell s·Q + q, −1 when system s has no row for question q. */
  rowOf: Int32Array;
  /** Per metric: the score at each cell, NaN when missing. */
  score: Record<string, Float64Array>;
  /** Per metric: 1 correct, 0 incorrect, −1 no decision. */
  decision: Record<string, Int8Array>;
  /** Human label reduced to correct (1) / incorrect (0), −1 unlabelled. */
  human: Int8Array;
  /** Whether any row carries a human label. */
  labelled: boolean;
  /**
   * Some rows are labelled and some decided rows are not (a review): leaderboards, rankings and paired tests then use the
   * reviewed accuracy (review/estimate.ts). False when no row or every row is labelled.
   */
  partial: boolean;
  /** The review's sample: per cell the inclusion probability (NaN outside it) and unit (−1); null without a design. */
  sample: TableSample | null;
  /** When the rows are partly labelled: what the reviewed estimate reads besides decisions and labels. */
  review: TableReview | null;
  /** Rows dropped because their (system, key) had been seen before. */
  duplicates: number;
}

/** The review's sample; `steps` when it was drawn step by step (review/design.ts). */
export interface TableSample {
  pi: Float64Array;
  unit: Int32Array;
  steps: { stepOf: Int32Array; q: Float64Array; planned: number } | null;
}

/** Which rows a reviewed accuracy is over: the questions every system answered (one estimand for values, pairs and ranks), or each system's own. */
export type Estimand = 'shared' | 'own';

/** A review's context in the table: the metric whose estimate every metric is measured against, answer groups, signals. */
export interface TableReview {
  reference: string;
  /** Answer group per cell (review/groups.ts), −1 without a row; null when the rows carry no text. */
  group: Int32Array | null;
  /** Review signals per cell (review/signals.ts); empty when the rows carry no text. */
  signals: (Float64Array | undefined)[];
  /** The answer's length in words per cell (what the judge's errors are set against: review/judge.ts); null when the rows carry no text. */
  words: Int32Array | null;
  estimand: Estimand;
  /** Per cell: a verdict from before the review (1 / 0), NaN without one; null when no row has one. */
  earlier?: Float64Array | null;
}

/** What the comparison reads of a run's results (a ResultTable): a metric's score and decision on row i, null when none. */
export interface ResultColumns {
  readonly length: number;
  score(metric: string, i: number): number | null;
  decision(metric: string, i: number): boolean | null;
}

export function compareTable(
  rows: readonly CompareRow[],
  results: ResultColumns,
  metrics: readonly MetricInfo[],
  /**
   * Fixed orders (e.g. to keep questions no system answered in the resampled set; rows add what these lack), and
   * the metric a review was made for (default: pedants when compared, else the first metric).
   */
  order: { systems?: readonly string[]; keys?: readonly string[]; reference?: string; estimand?: Estimand } = {},
): CompareTable {
  if (results.length !== rows.length) throw new RangeError(`rows and results differ in length: ${rows.length} vs ${results.length}`);
  const sIndex = new Map<string, number>();
  const qIndex = new Map<string, number>();
  for (const s of order.systems ?? []) if (!sIndex.has(s)) sIndex.set(s, sIndex.size);
  for (const k of order.keys ?? []) if (!qIndex.has(k)) qIndex.set(k, qIndex.size);
  for (const r of rows) {
    if (!sIndex.has(r.system)) sIndex.set(r.system, sIndex.size);
    if (!qIndex.has(r.key)) qIndex.set(r.key, qIndex.size);
  }
  const S = sIndex.size;
  const Q = qIndex.size;
  const rowOf = new Int32Array(S * Q).fill(-1);
  const human = new Int8Array(S * Q).fill(-1);
  const score: Record<string, Float64Array> = {};
  const decision: Record<string, Int8Array> = {};
  for (const m of metrics) {
    score[m.name] = new Float64Array(S * Q).fill(NaN);
    decision[m.name] = new Int8Array(S * Q).fill(-1);
  }
  let duplicates = 0;
  let labelled = false;
  let unlabelled = false;
  let sample: TableSample | null = null;
  const stepQ: number[] = [];
  let planned = 0;
  let answered = 0;
  rows.forEach((r, i) => {
    const cell = sIndex.get(r.system)! * Q + qIndex.get(r.key)!;
    if (rowOf[cell] !== -1) {
      duplicates++;
      return;
    }
    rowOf[cell] = i;
    if (r.label) {
      human[cell] = labelIsCorrect(r.label) ? 1 : 0;
      labelled = true;
    }
    if (r.label && r.pi !== undefined && r.pi > 0) {
      sample ??= { pi: new Float64Array(S * Q).fill(NaN), unit: new Int32Array(S * Q).fill(-1), steps: null };
      sample.pi[cell] = Math.min(1, r.pi);
      sample.unit[cell] = r.unit ?? -1 - i;
      if (r.step !== undefined && r.q !== undefined && r.q > 0) {
        sample.steps ??= { stepOf: new Int32Array(S * Q).fill(-1), q: new Float64Array(0), planned: 0 };
        sample.steps.stepOf[cell] = r.step;
        stepQ[r.step] = r.q;
        planned = Math.max(planned, r.planned ?? 0);
        answered = Math.max(answered, r.steps ?? 0);
      }
    }
    for (const m of metrics) {
      const x = results.score(m.name, i);
      const d = results.decision(m.name, i);
      if (x !== null && Number.isFinite(x)) score[m.name]![cell] = x;
      if (d !== null) {
        decision[m.name]![cell] = d ? 1 : 0;
        // A decided row nobody labelled (a row nothing decided has nothing to fold a label into).
        if (!r.label) unlabelled = true;
      }
    }
  });
  const partial = labelled && unlabelled;
  const steps = (sample as TableSample | null)?.steps;
  if (steps) {
    // Steps are numbered from 0 with none missing (review/design.ts readSequence). A step none of whose rows is in
    // the table (rows dropped as duplicates) adds no residual to any estimate, so its probability is not read.
    // Every answered step counts, also those after the last one with a row here (a split, or rows dropped).
    steps.q = Float64Array.from({ length: Math.max(stepQ.length, answered) }, (_, k) => stepQ[k] ?? 1);
    steps.planned = Math.max(planned, steps.q.length);
  }
  return {
    systems: [...sIndex.keys()],
    keys: [...qIndex.keys()],
    metrics: metrics.map((m) => ({ ...m })),
    rowOf,
    score,
    decision,
    human,
    labelled,
    partial,
    sample,
    review:
      partial && metrics.length
        ? { ...tableReview(rows, results, metrics, rowOf, order.reference, order.estimand ?? 'shared'), earlier: earlierOf(rows, rowOf) }
        : null,
    duplicates,
  };
}

/** Each cell's verdict from before the review (1 / 0, NaN none), or null when no row has one. */
function earlierOf(rows: readonly CompareRow[], rowOf: Int32Array): Float64Array | null {
  if (!rows.some((r) => r.earlier !== undefined)) return null;
  return Float64Array.from(rowOf, (i) => {
    const r = i >= 0 ? rows[i] : undefined;
    return r?.earlier !== undefined ? (r.earlier ? 1 : 0) : NaN;
  });
}

/** The reference metric: the one named when compared, else pedants when compared, else the first. */
export function referenceMetric(metrics: readonly MetricInfo[], named?: string): MetricInfo {
  return metrics.find((m) => m.name === named) ?? metrics.find((m) => m.name === 'pedants') ?? metrics[0]!;
}

/**
 * The signals and groups of a run's rows, kept per results object: a review re-builds the table at each answer,
 * and what the signals read (texts, decisions, thresholds) does not change with the labels.
 */
const reviewCache = new WeakMap<ResultColumns, { key: string; review: TableReview }>();

function tableReview(
  rows: readonly CompareRow[],
  results: ResultColumns,
  metrics: readonly MetricInfo[],
  rowOf: Int32Array,
  named: string | undefined,
  estimand: Estimand,
): TableReview {
  const ref = referenceMetric(metrics, named);
  const key = JSON.stringify([
    rows.length,
    rowOf.length,
    ref.name,
    metrics.map((m) => [m.name, m.threshold]),
    rows[0]?.key,
    rows.at(-1)?.key,
  ]);
  const hit = reviewCache.get(results);
  if (hit?.key === key) return { ...hit.review, estimand };
  const review = makeTableReview(rows, results, metrics, rowOf, ref, estimand);
  reviewCache.set(results, { key, review });
  return review;
}

function makeTableReview(
  rows: readonly CompareRow[],
  results: ResultColumns,
  metrics: readonly MetricInfo[],
  rowOf: Int32Array,
  ref: MetricInfo,
  estimand: Estimand,
): TableReview {
  const texts = rows.every((r) => r.candidate !== undefined && r.question !== undefined && r.golds !== undefined);
  if (!texts) return { reference: ref.name, group: null, signals: [], words: null, estimand };
  const textRows = rows as readonly (CompareRow & { question: string; golds: readonly string[]; candidate: string })[];
  const items = textRows.map((r) => ({ question: r.question, golds: [...r.golds], candidate: r.candidate, key: r.key, system: r.system }));
  const { groupOf } = answerGroups(items);
  const others = metrics.filter((m) => m !== ref).map((m) => m.name);
  const signals = reviewSignals(items, {
    judge: { metric: ref.name, threshold: ref.threshold },
    score: (i) => results.score(ref.name, i),
    decision: (i) => results.decision(ref.name, i),
    others: (i) => others.map((o) => results.decision(o, i)),
  });
  const group = new Int32Array(rowOf.length).fill(-1);
  const byCell: (Float64Array | undefined)[] = new Array(rowOf.length);
  const words = new Int32Array(rowOf.length);
  for (let c = 0; c < rowOf.length; c++) {
    const i = rowOf[c]!;
    if (i < 0) continue;
    group[c] = groupOf[i]!;
    byCell[c] = signals[i];
    words[c] = wordCount(textRows[i]!.candidate);
  }
  return { reference: ref.name, group, signals: byCell, words, estimand };
}
