/**
 * Whether the crowned metric's lead is real: the difference between it and the runner-up on the same rows, with a
 * 95% interval that accounts for the rows being shared (paired). A lead whose interval holds 0 is one these rows do
 * not separate from a tie, and every surface says so rather than crowning it alone.
 *
 * MCC (binary labels): a normal interval with the jackknife's variance, over clusters (questions) when given, else
 * rows. Both metrics' MCC depend on the rows only through the counts of the eight cells (label × decision A ×
 * decision B), so leaving a cluster out is a subtraction of its cells: O(n). (A paired percentile bootstrap covered
 * 0.917 at 60 rows in the simulation; the jackknife 0.93–0.95.)
 * Pairwise accuracy (class labels): a normal interval with the delta-method variance of the difference of two
 * ratios of U-statistics over the same rows (DeLong's structural components, generalised to ordered classes):
 * row i's component is 2(a_i − C·p_i)/P̄, where a_i is its agreeing pairs (a tie half), p_i its pairs, P̄ the mean
 * pairs per row; the variance of the difference is that of A's components minus B's (summed per cluster when
 * clusters are given), over n. O(n log n).
 * Both intervals take Student's t with (clusters − 1) degrees of freedom: with 20 questions the normal one covered 0.928
 * in the simulation, the t one 0.945.
 */
import { DEFAULTS } from '../defaults.ts';
import { twoSidedT } from '../util/normal.ts';
import { mcc } from './binary.ts';
import { pairComponents } from './ordinal.ts';

export interface Lead {
  /** The crowned metric and the runner-up it is compared with. */
  best: string;
  over: string;
  /** best − runner-up, on the rows both scored. */
  difference: number;
  /** The 95% interval of the difference (null when it cannot be computed: too few rows of a kind). */
  ci: [number, number] | null;
  /** Rows both metrics scored, and the questions (clusters) they answer: the draws the interval counts. */
  n: number;
  clusters: number;
  /** The interval lies above 0: these rows separate the two. */
  real: boolean;
}

export interface LeadOptions {
  /** The interval's level (default DEFAULTS.bootstrap.level, the report's). */
  level?: number;
  /**
   * Each row's cluster (its question): rows of one question share it, so they count as one draw — several answers to
   * a question move together, and treating them as independent would make the interval too narrow. Default: rows.
   */
  cluster?: readonly unknown[];
}

const lead = (best: string, over: string, difference: number, ci: [number, number] | null, n: number, clusters: number): Lead => ({
  best,
  over,
  difference,
  ci,
  n,
  clusters,
  real: ci !== null && ci[0] > 0,
});

/** MCC(a) − MCC(b) on the rows where both decided, with its jackknife interval; null when either MCC is undefined. */
export function mccLead(
  names: [string, string],
  labels: readonly (boolean | null)[],
  a: readonly (boolean | null)[],
  b: readonly (boolean | null)[],
  opts: LeadOptions = {},
): Lead | null {
  const cells = new Float64Array(8);
  // Each cluster's cells (a row alone is its own cluster).
  const groups = new Map<unknown, Float64Array>();
  let n = 0;
  for (let i = 0; i < labels.length; i++) {
    const [l, x, y] = [labels[i], a[i], b[i]];
    if (l == null || x == null || y == null) continue;
    const cell = (l ? 4 : 0) + (x ? 2 : 0) + (y ? 1 : 0);
    cells[cell] = cells[cell]! + 1;
    const key = opts.cluster ? opts.cluster[i] : i;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = new Float64Array(8)));
    g[cell] = g[cell]! + 1;
    n++;
  }
  const diff = (c: ArrayLike<number>): number | null => {
    const ma = mcc(confusion(c, 2));
    const mb = mcc(confusion(c, 1));
    return ma === null || mb === null ? null : ma - mb;
  };
  const point = diff(cells);
  if (point === null) return null;
  const G = groups.size;
  if (G < 3) return lead(names[0], names[1], point, null, n, G);
  // The jackknife over clusters: each left out in turn.
  const left: number[] = [];
  const without = new Float64Array(8);
  for (const g of groups.values()) {
    for (let k = 0; k < 8; k++) without[k] = cells[k]! - g[k]!;
    const d = diff(without);
    if (d === null) return lead(names[0], names[1], point, null, n, G);
    left.push(d);
  }
  const mean = left.reduce((p, q) => p + q, 0) / G;
  const v = ((G - 1) / G) * left.reduce((p, q) => p + (q - mean) ** 2, 0);
  const half = twoSidedT(opts.level ?? DEFAULTS.bootstrap.level, G - 1) * Math.sqrt(v);
  // An MCC is in [−1, 1], so the difference of two is in [−2, 2].
  return lead(names[0], names[1], point, [Math.max(-2, point - half), Math.min(2, point + half)], n, G);
}

/** One metric's confusion from the eight cells; `bit` picks its decision (2: the first metric, 1: the second). */
function confusion(c: ArrayLike<number>, bit: 1 | 2): { tp: number; fp: number; tn: number; fn: number } {
  const out = { tp: 0, fp: 0, tn: 0, fn: 0 };
  for (let cell = 0; cell < 8; cell++) {
    const label = cell >= 4;
    const decided = (cell & bit) !== 0;
    const v = c[cell]!;
    if (label) decided ? (out.tp += v) : (out.fn += v);
    else decided ? (out.fp += v) : (out.tn += v);
  }
  return out;
}

/**
 * Pairwise accuracy of `a` minus that of `b` on the rows both scored, with the delta-method normal interval;
 * null when no pair of rows has two severities.
 */
export function pairwiseLead(
  names: [string, string],
  severity: readonly number[],
  a: readonly (number | null)[],
  b: readonly (number | null)[],
  opts: LeadOptions = {},
): Lead | null {
  const keep: number[] = [];
  for (let i = 0; i < severity.length; i++) if (a[i] != null && b[i] != null && !Number.isNaN(a[i]) && !Number.isNaN(b[i])) keep.push(i);
  const n = keep.length;
  const sev = keep.map((i) => severity[i]!);
  const ca = pairComponents(
    keep.map((i) => a[i]!),
    sev,
  );
  const cb = pairComponents(
    keep.map((i) => b[i]!),
    sev,
  );
  let pairSum = 0;
  let agreeA = 0;
  let agreeB = 0;
  for (let i = 0; i < n; i++) {
    pairSum += ca.pairs[i]!;
    agreeA += ca.agree[i]!;
    agreeB += cb.agree[i]!;
  }
  if (pairSum === 0) return null;
  const [accA, accB] = [agreeA / pairSum, agreeB / pairSum];
  const meanPairs = pairSum / n;
  // Each cluster's components summed (a row alone is its own cluster): the variance is that of the cluster sums.
  const sums = new Map<unknown, number>();
  for (let k = 0; k < n; k++) {
    const psi = (2 * (ca.agree[k]! - accA * ca.pairs[k]! - (cb.agree[k]! - accB * cb.pairs[k]!))) / meanPairs;
    const key = opts.cluster ? opts.cluster[keep[k]!] : k;
    sums.set(key, (sums.get(key) ?? 0) + psi);
  }
  const G = sums.size;
  const difference = accA - accB;
  if (G < 3) return lead(names[0], names[1], difference, null, n, G);
  let ss = 0;
  for (const v of sums.values()) ss += v * v;
  const half = twoSidedT(opts.level ?? DEFAULTS.bootstrap.level, G - 1) * Math.sqrt((G / (G - 1)) * (ss / (n * n)));
  return lead(names[0], names[1], difference, [Math.max(-1, difference - half), Math.min(1, difference + half)], n, G);
}
