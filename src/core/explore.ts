/**
 * A scored run as the app explores it: filtered and sorted views, the report (class distributions, score bands
 * per class, agreement with the labels, confusion matrices), threshold calibration and re-deciding. Pure: the
 * scoring worker holds the rows and results and answers the page with small pieces (indices, a few rows).
 */
import { CAP_CLASSES, type CapClass, type EntailmentSet, type QaRow } from './types.ts';
import { agreementJson, agreementSummaryOfColumns, type AgreementSummary } from './report.ts';
import { ResultTable } from './result-table.ts';
import { labelIsCorrect } from './correctness.ts';
import { calibrateThreshold } from './agreement/calibrate.ts';
import type { Objective } from './agreement/binary.ts';

/** What a table view shows: filters combine with AND; sort is stable (ties keep file order). */
export interface ViewQuery {
  sort?: { key: 'row' | `metric:${string}`; dir: 'asc' | 'desc' };
  /** Rows whose human label, or (when `classBy` names a metric) predicted class, is this class. */
  cls?: CapClass;
  classBy?: 'label' | string;
  /** Rows where this metric decided correct (true), incorrect (false) or did not apply (null). */
  decision?: { metric: string; value: boolean | null };
  /** Rows where this metric's decision differs from the human label. */
  disagreeWith?: string;
  /** Case-insensitive text search over id, question, golds and candidate. */
  search?: string;
}

/**
 * A view's rows: their indices in display order, or (a number) that many rows in file order, the view a table opens
 * with and keeps while a run streams in. That one has no array: an array of a million indices made on every refresh
 * (each two seconds) grew the old generation of the thread that holds the rows, and so its full collections.
 */
export type View = ArrayLike<number> | number;

export const viewLength = (v: View): number => (typeof v === 'number' ? v : v.length);

/** The row (index into rows) at a position of a view. */
export const rowAt = (v: View, position: number): number => (typeof v === 'number' ? position : v[position]!);

/** Whether a query keeps every row in file order: no filter, no search, no sort but by row ascending. */
export function inFileOrder(q: ViewQuery): boolean {
  if (q.cls || q.decision || q.disagreeWith || q.search?.trim()) return false;
  return !q.sort || (q.sort.key === 'row' && q.sort.dir === 'asc');
}

/** The view a query gives (queryView's indices, or a count for the rows in file order). */
export const viewOf = (rows: readonly QaRow[], results: ResultTable, q: ViewQuery): View =>
  inFileOrder(q) ? results.length : queryView(rows, results, q);

/** Indices (into rows) of the rows the query keeps, in display order. */
export function queryView(rows: readonly QaRow[], results: ResultTable, q: ViewQuery): Uint32Array {
  const res = results;
  const n = res.length;
  // Into a typed array of the most it can keep (a list grown to a million numbers copies itself as it grows).
  const all = new Uint32Array(n);
  let kept = 0;
  const needle = q.search?.trim().toLowerCase() ?? '';
  for (let i = 0; i < n; i++) {
    const row = rows[i]!;
    if (q.cls) {
      const c = !q.classBy || q.classBy === 'label' ? (row.label?.kind === 'taxonomy' ? row.label.cls : undefined) : res.cls(q.classBy, i);
      if (c !== q.cls) continue;
    }
    if (q.decision && res.decision(q.decision.metric, i) !== q.decision.value) continue;
    if (q.disagreeWith) {
      const d = res.decision(q.disagreeWith, i);
      if (!row.label || d == null || d === labelIsCorrect(row.label)) continue;
    }
    if (needle && !matches(row, needle)) continue;
    all[kept++] = i;
  }
  const keep = kept === n ? all : all.slice(0, kept);
  const key = q.sort?.key;
  if (key && key !== 'row') {
    const metric = key.slice('metric:'.length);
    const sign = q.sort!.dir === 'desc' ? -1 : 1;
    const score = (i: number) => res.score(metric, i);
    // Rows without a score go last in either direction.
    keep.sort((a, b) => {
      const x = score(a);
      const y = score(b);
      if (x === null || y === null) return x === y ? a - b : x === null ? 1 : -1;
      return x === y ? a - b : sign * (x - y);
    });
  } else if (q.sort?.dir === 'desc') keep.reverse();
  return keep;
}

/** Length of the common prefix of two views: positions below it show the same rows in both. */
export function commonPrefix(a: View, b: View): number {
  const n = Math.min(viewLength(a), viewLength(b));
  if (typeof a === 'number' && typeof b === 'number') return n;
  let i = 0;
  while (i < n && rowAt(a, i) === rowAt(b, i)) i++;
  return i;
}

function matches(row: QaRow, needle: string): boolean {
  if (row.id.toLowerCase().includes(needle) || row.question.toLowerCase().includes(needle) || row.candidate.toLowerCase().includes(needle))
    return true;
  return row.golds.some((g) => g.toLowerCase().includes(needle));
}

/** Scores of one metric for the rows of one class, for the per-class band chart (a stride sample when large). */
export interface BandPoints {
  metric: string;
  points: { cls: CapClass; score: number }[];
  /** Rows with a score before sampling. */
  total: number;
  sampled: boolean;
}

/**
 * The Score page's report: the run's counts and class distributions around the agreement report every surface
 * shows (`AgreementSummary`, rounded once; `labelled` = its `n`). Plain data, exported as JSON.
 */
export interface RunReport extends AgreementSummary {
  rows: number;
  labelled: number;
  /** Human label classes (taxonomy labels). */
  labelClasses: Partial<Record<CapClass, number>> | null;
  /** Predicted classes per metric that assigns one (taxonomy), and entailment sets (hierarchy). */
  predictedClasses: Record<string, Partial<Record<CapClass, number>>>;
  predictedSets: Record<string, Partial<Record<EntailmentSet, number>>>;
  /** Share of rows each metric judged correct, and how many it could not score. */
  decided: Record<string, { correct: number; incorrect: number; none: number }>;
  /** Predicted class × human class counts, for metrics that predict classes. */
  classConfusion: Record<string, number[][]>;
  bands: BandPoints[];
  thresholds: Record<string, number>;
}

export interface ReportOptions {
  /** Bootstrap resamples (default 1000, as `verity evaluate`; count statistics draw from multinomials, so a million rows is cheap). */
  resamples?: number;
  /** Points per class and metric in the band chart (default 400). */
  bandPoints?: number;
}

const count = <K extends string>(keys: Iterable<K | undefined>): Partial<Record<K, number>> => {
  const out: Partial<Record<K, number>> = {};
  for (const k of keys) if (k !== undefined) out[k] = (out[k] ?? 0) + 1;
  return out;
};

export function runReport(
  rows: readonly QaRow[],
  results: ResultTable,
  metrics: readonly { name: string; threshold: number }[],
  opts: ReportOptions = {},
): RunReport {
  const res = results;
  const n = res.length;
  const idx = Array.from({ length: n }, (_, i) => i);
  const scored = rows.slice(0, n);
  const labelled = scored.filter((r) => r.label).length;
  const taxonomyLabels = labelled > 0 && scored.every((r) => !r.label || r.label.kind === 'taxonomy');
  const resamples = opts.resamples ?? 1000;
  const decided: RunReport['decided'] = {};
  const predictedClasses: RunReport['predictedClasses'] = {};
  const predictedSets: RunReport['predictedSets'] = {};
  const classConfusion: RunReport['classConfusion'] = {};
  for (const m of metrics) {
    const d = { correct: 0, incorrect: 0, none: 0 };
    for (let i = 0; i < n; i++) {
      const x = res.decision(m.name, i);
      if (x === true) d.correct++;
      else if (x === false) d.incorrect++;
      else d.none++;
    }
    decided[m.name] = d;
    if (idx.some((i) => res.cls(m.name, i) !== undefined)) {
      predictedClasses[m.name] = count(idx.map((i) => res.cls(m.name, i) as CapClass | undefined));
      if (taxonomyLabels) {
        const mat = CAP_CLASSES.map(() => CAP_CLASSES.map(() => 0));
        for (let i = 0; i < n; i++) {
          const p = res.cls(m.name, i) as CapClass | undefined;
          const l = scored[i]!.label;
          if (p && l?.kind === 'taxonomy') mat[CAP_CLASSES.indexOf(p)]![CAP_CLASSES.indexOf(l.cls)]!++;
        }
        classConfusion[m.name] = mat;
      }
    }
    if (idx.some((i) => res.set(m.name, i) !== undefined))
      predictedSets[m.name] = count(idx.map((i) => res.set(m.name, i) as EntailmentSet | undefined));
  }

  const summary = agreementSummaryOfColumns(
    {
      labels: scored.map((r) => r.label),
      score: (m, i) => res.score(m, i),
      decision: (m, i) => res.decision(m, i),
      explanation: (m, i) => res.explanation(m, i),
      question: (i) => scored[i]!.question,
    },
    metrics,
    { resamples, binaryFromClasses: true },
  );

  const bands: BandPoints[] = [];
  if (taxonomyLabels) {
    const per = opts.bandPoints ?? 400;
    for (const m of metrics) {
      const byClass = new Map<CapClass, number[]>();
      for (let i = 0; i < n; i++) {
        const s = res.score(m.name, i);
        const l = scored[i]!.label;
        if (s == null || l?.kind !== 'taxonomy') continue;
        let list = byClass.get(l.cls);
        if (!list) byClass.set(l.cls, (list = []));
        list.push(s);
      }
      const points: BandPoints['points'] = [];
      let total = 0;
      let sampled = false;
      for (const [cls, xs] of byClass) {
        total += xs.length;
        const step = Math.max(1, xs.length / per);
        if (step > 1) sampled = true;
        for (let k = 0; k < xs.length; k += step) points.push({ cls, score: xs[Math.floor(k)]! });
      }
      if (total) bands.push({ metric: m.name, points, total, sampled });
    }
  }

  return {
    ...summary,
    rows: n,
    labelled,
    labelClasses: taxonomyLabels ? count(scored.map((r) => (r.label?.kind === 'taxonomy' ? r.label.cls : undefined))) : null,
    predictedClasses,
    predictedSets,
    decided,
    classConfusion,
    bands,
    thresholds: Object.fromEntries(metrics.map((m) => [m.name, m.threshold])),
  };
}

/**
 * Thresholds that maximise the objective on the labelled rows (taxonomy labels reduced to correct/incorrect).
 * Metrics that cannot be calibrated (one class only, no scores) keep their threshold and say why.
 */
export function fitThresholds(
  rows: readonly QaRow[],
  results: ResultTable,
  metricNames: readonly string[],
  objective: Objective = 'mcc',
): { thresholds: Record<string, number>; skipped: Record<string, string> } {
  const res = results;
  const idx = Array.from({ length: res.length }, (_, i) => i).filter((i) => rows[i]!.label);
  const labels = idx.map((i) => labelIsCorrect(rows[i]!.label!));
  const thresholds: Record<string, number> = {};
  const skipped: Record<string, string> = {};
  for (const m of metricNames) {
    try {
      thresholds[m] = calibrateThreshold(
        idx.map((i) => res.score(m, i)),
        labels,
        objective,
        m,
      ).threshold!;
    } catch (e) {
      skipped[m] = (e as Error).message;
    }
  }
  return { thresholds, skipped };
}

/** Decisions again under new thresholds (in place): decision = score ≥ threshold; unscored rows stay null. */

/**
 * The Score page's report export: the report's JSON form (agreementJson, as `verity evaluate --json` prints it),
 * the run that made it, and the page's distributions (snake_case, as the rest of the form).
 */
export function runReportJson(run: Record<string, unknown>, r: RunReport): Record<string, unknown> {
  return {
    ...agreementJson(r),
    run,
    distributions: {
      rows: r.rows,
      labelled: r.labelled,
      label_classes: r.labelClasses,
      predicted_classes: r.predictedClasses,
      predicted_sets: r.predictedSets,
      decided: r.decided,
      class_confusion: r.classConfusion,
      thresholds: r.thresholds,
    },
  };
}
