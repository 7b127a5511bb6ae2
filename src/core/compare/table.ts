/**
 * The comparison table: every system's results laid out as system × question matrices, one per metric.
 *
 * What: turns long rows (one per system and question, each with a question key, metric results and an
 *   optional human label) into dense typed arrays, so that leaderboards, paired tests and rankings are plain
 *   loops over numbers (one million rows = a few typed arrays, no per-row objects).
 * Layout: cell (s, q) is at s·Q + q; scores are NaN and decisions / labels −1 where a system has no row for a
 *   question or the metric did not apply. Systems and questions keep first-seen order unless given.
 * Limits: a (system, key) pair seen twice keeps the first row; the caller (inputs.ts) makes keys unique. The
 *   arrays are read-only once built: bootstrap draws are remembered per array (resample.ts).
 */
import type { Label } from '../types.ts';
import { labelIsCorrect } from '../io/fields.ts';

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
  /** How a review picked the row (review/estimate.ts bits), when its label came from a review that says so. */
  pick?: number;
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
  /** Review pick bits per cell, null when no row says how it was picked. */
  pick: Int8Array | null;
  /** Rows dropped because their (system, key) had been seen before. */
  duplicates: number;
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
  /** Fixed orders (e.g. to keep questions no system answered in the resampled set); rows add what these lack. */
  order: { systems?: readonly string[]; keys?: readonly string[] } = {},
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
  let pick: Int8Array | null = null;
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
    if (r.pick) (pick ??= new Int8Array(S * Q))[cell] = r.pick;
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
  return {
    systems: [...sIndex.keys()],
    keys: [...qIndex.keys()],
    metrics: metrics.map((m) => ({ ...m })),
    rowOf,
    score,
    decision,
    human,
    labelled,
    partial: labelled && unlabelled,
    pick,
    duplicates,
  };
}
