/**
 * Binary agreement: a metric's scores/decisions against correct/incorrect human labels.
 * Undefined metrics (a zero denominator) are null rather than sklearn's 0 fallback, so
 * "no information" is never reported as a value.
 */
import { mulberry32 } from '../util/random.ts';
import { upperTailZ } from '../util/normal.ts';
import { binomial, multinomial } from './binomial.ts';
import { argsort, aucOfSorted, quantileSorted, sortedByClass } from './stats.ts';
import { DEFAULTS } from '../defaults.ts';

export interface Confusion {
  tp: number;
  fp: number;
  tn: number;
  fn: number;
}

export const BINARY_METRICS = ['accuracy', 'precision', 'recall', 'f1', 'mcc', 'balancedAccuracy', 'kappa', 'auc'] as const;
export type BinaryMetric = (typeof BINARY_METRICS)[number];
export type Objective = 'mcc' | 'accuracy' | 'f1';

const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);

export const accuracy = (c: Confusion) => ratio(c.tp + c.tn, c.tp + c.fp + c.tn + c.fn);
export const precision = (c: Confusion) => ratio(c.tp, c.tp + c.fp);
export const recall = (c: Confusion) => ratio(c.tp, c.tp + c.fn);
/** 2TP/(2TP+FP+FN): defined (possibly 0) whenever anything is positive in truth or prediction. */
export const f1 = (c: Confusion) => ratio(2 * c.tp, 2 * c.tp + c.fp + c.fn);

/** Matthews correlation; null when a row or column margin is empty (sklearn would say 0). */
export function mcc(c: Confusion): number | null {
  const d = (c.tp + c.fp) * (c.tp + c.fn) * (c.tn + c.fp) * (c.tn + c.fn);
  return d === 0 ? null : (c.tp * c.tn - c.fp * c.fn) / Math.sqrt(d);
}

/** Mean of recall on positives and on negatives; null unless both classes are present. */
export function balancedAccuracy(c: Confusion): number | null {
  const tpr = ratio(c.tp, c.tp + c.fn);
  const tnr = ratio(c.tn, c.tn + c.fp);
  return tpr === null || tnr === null ? null : (tpr + tnr) / 2;
}

/** Cohen's κ in integer form (exact until ~1e7 rows); null when chance agreement is 1. */
export function kappa(c: Confusion): number | null {
  const n = c.tp + c.fp + c.tn + c.fn;
  const chance = (c.tp + c.fp) * (c.tp + c.fn) + (c.tn + c.fn) * (c.tn + c.fp);
  return ratio(n * (c.tp + c.tn) - chance, n * n - chance);
}

function confusionValues(c: Confusion): Record<Exclude<BinaryMetric, 'auc'>, number | null> {
  return {
    accuracy: accuracy(c),
    precision: precision(c),
    recall: recall(c),
    f1: f1(c),
    mcc: mcc(c),
    balancedAccuracy: balancedAccuracy(c),
    kappa: kappa(c),
  };
}

export function objectiveValue(objective: Objective, c: Confusion): number | null {
  return objective === 'mcc' ? mcc(c) : objective === 'f1' ? f1(c) : accuracy(c);
}

export interface Estimate {
  value: number | null;
  /** Percentile bootstrap interval over the resamples where the metric is defined; null if none. */
  ci: [number, number] | null;
}

export interface BinaryReport {
  /** Rows used (score, decision and label all present). */
  n: number;
  /** Rows left out because the score or the decision was null (or the score NaN). */
  excluded: number;
  positives: number;
  negatives: number;
  confusion: Confusion;
  metrics: Record<BinaryMetric, Estimate>;
  bootstrap: { resamples: number; seed: number; level: number };
}

export interface BootstrapOptions {
  /** Number of resamples (default 1000; 0 disables intervals). */
  resamples?: number;
  /** mulberry32 seed (default 42). */
  seed?: number;
  /** Central interval mass (default 0.95). */
  level?: number;
}

const missing = (s: number | null | undefined): s is null | undefined => s == null || Number.isNaN(s);

/** Up to this many rows the AUC interval is a row bootstrap; above it, see binaryReport. */
export const AUC_BOOTSTRAP_ROWS = 20_000;
/** Above AUC_BOOTSTRAP_ROWS, the AUC is bootstrapped from score cells when a class has at most this many distinct scores. */
export const AUC_CELLS = 1_000;

/**
 * Point estimates and percentile-bootstrap intervals, in O(n log n) whatever the resamples.
 *
 * Counts: accuracy, precision, recall, F1, MCC, balanced accuracy and κ depend on the rows only through the
 *   confusion counts, so each resample draws the four counts from Multinomial(n; TN, FN, FP, TP / n)
 *   (binomial.ts, generator mulberry32(seed)): the same distribution as resampling n rows, in O(1) per resample.
 * AUC, up to AUC_BOOTSTRAP_ROWS rows: each resample draws n row indices with replacement from mulberry32(seed)
 *   (indices into the rows sorted by score, ties by input order), held as per-row multiplicities and swept once.
 * AUC, above, when one class has at most AUC_CELLS distinct scores (binary and few-level metrics, or a rare
 *   class): the AUC depends on the rows only through the counts of that class at each of its G scores and of the
 *   other class in the 2G + 1 cells those scores cut (below, at, between, above), so each resample draws the class
 *   sizes from Binomial(n, ·) and those counts from multinomials — the row bootstrap's distribution, O(G) per
 *   resample (aucCellBootstrap).
 * AUC, otherwise (both classes have over AUC_CELLS distinct scores, so over AUC_CELLS rows each): the normal
 *   interval AUC ± z·SE with DeLong's variance (stats.ts, O(n log n)), clipped to [0, 1]; at those sizes the
 *   bootstrap distribution of the AUC is normal with that variance to well within the Monte-Carlo error.
 * The same input and options give the same intervals.
 */
export function binaryReport(
  scores: readonly (number | null)[],
  decisions: readonly (boolean | null)[],
  labels: readonly boolean[],
  opts: BootstrapOptions = {},
): BinaryReport {
  if (scores.length !== labels.length || decisions.length !== labels.length)
    throw new RangeError('scores, decisions and labels must have the same length');
  const resamples = opts.resamples ?? DEFAULTS.bootstrap.resamples;
  const seed = opts.seed ?? DEFAULTS.bootstrap.seed;
  const level = opts.level ?? DEFAULTS.bootstrap.level;
  let n = 0;
  for (let i = 0; i < labels.length; i++) if (!missing(scores[i]) && decisions[i] != null) n++;
  const sc = new Float64Array(n);
  const lab = new Uint8Array(n);
  const confusion = { tp: 0, fp: 0, tn: 0, fn: 0 };
  for (let i = 0, k = 0; i < labels.length; i++) {
    const s = scores[i];
    const d = decisions[i];
    if (missing(s) || d == null) continue;
    sc[k] = s;
    lab[k++] = labels[i] ? 1 : 0;
    if (d) labels[i] ? confusion.tp++ : confusion.fp++;
    else labels[i] ? confusion.fn++ : confusion.tn++;
  }
  const byClass = sortedByClass(sc, lab);
  const auc = aucOfSorted(byClass.pos, byClass.neg);
  const point = { ...confusionValues(confusion), auc: auc?.auc ?? null };

  const alpha = (1 - level) / 2;
  const interval = (xs: number[]): [number, number] | null => {
    if (!xs.length) return null;
    xs.sort((a, b) => a - b);
    return [quantileSorted(xs, alpha), quantileSorted(xs, 1 - alpha)];
  };
  const metrics = {} as Record<BinaryMetric, Estimate>;
  const counted = countBootstrap(confusion, n, resamples, seed);
  for (const m of BINARY_METRICS) if (m !== 'auc') metrics[m] = { value: point[m], ci: interval(counted[m]) };
  let aucCi: [number, number] | null = null;
  if (auc && n > 0 && resamples > 0) {
    const cells = n > AUC_BOOTSTRAP_ROWS ? aucCellBootstrap(byClass.pos, byClass.neg, resamples, seed) : null;
    if (n <= AUC_BOOTSTRAP_ROWS) aucCi = interval(aucRowBootstrap(sc, lab, resamples, seed));
    else if (cells) aucCi = interval(cells);
    else if (auc.variance !== null) {
      const half = upperTailZ(alpha) * Math.sqrt(auc.variance);
      aucCi = [Math.max(0, auc.auc - half), Math.min(1, auc.auc + half)];
    }
  }
  metrics.auc = { value: point.auc, ci: aucCi };
  return {
    n,
    excluded: labels.length - n,
    positives: confusion.tp + confusion.fn,
    negatives: confusion.tn + confusion.fp,
    confusion,
    metrics,
    bootstrap: { resamples, seed, level },
  };
}

/** The resampled values of every count statistic (undefined ones left out), from multinomial draws of the counts. */
function countBootstrap(c: Confusion, n: number, resamples: number, seed: number): Record<Exclude<BinaryMetric, 'auc'>, number[]> {
  const out = { accuracy: [], precision: [], recall: [], f1: [], mcc: [], balancedAccuracy: [], kappa: [] } as Record<
    Exclude<BinaryMetric, 'auc'>,
    number[]
  >;
  if (n === 0) return out;
  const rng = mulberry32(seed);
  const counts = [c.tn, c.fn, c.fp, c.tp];
  const k = new Float64Array(4);
  for (let r = 0; r < resamples; r++) {
    multinomial(rng, n, counts, k);
    const vals = confusionValues({ tn: k[0]!, fn: k[1]!, fp: k[2]!, tp: k[3]! });
    for (const m of Object.keys(out) as (keyof typeof out)[]) {
      const v = vals[m];
      if (v !== null) out[m].push(v);
    }
  }
  return out;
}

/**
 * The AUC of each row resample (null ones left out). Rows are laid out in score order once (label, and the end
 * of each tie group), so a resample is one weighted linear pass.
 */
function aucRowBootstrap(sc: Float64Array, lab: Uint8Array, resamples: number, seed: number): number[] {
  const n = sc.length;
  const order = argsort(sc);
  const pos = new Uint8Array(n);
  const groupEnd = new Uint8Array(n);
  for (let p = 0; p < n; p++) {
    const i = order[p]!;
    pos[p] = lab[i]!;
    groupEnd[p] = p === n - 1 || sc[order[p + 1]!] !== sc[i] ? 1 : 0;
  }
  const rng = mulberry32(seed);
  const w = new Int32Array(n);
  const out: number[] = [];
  for (let r = 0; r < resamples; r++) {
    w.fill(0);
    for (let k = 0; k < n; k++) {
      const p = Math.floor(rng() * n);
      w[p] = w[p]! + 1;
    }
    // AUC = Σ over tie groups (pos·negBelow + ½·pos·negInGroup) / (P·N).
    let negBelow = 0;
    let P = 0;
    let area = 0;
    let gp = 0;
    let gn = 0;
    for (let p = 0; p < n; p++) {
      const k = w[p]!;
      if (pos[p]) gp += k;
      else gn += k;
      if (groupEnd[p]) {
        area += gp * negBelow + 0.5 * gp * gn;
        negBelow += gn;
        P += gp;
        gp = gn = 0;
      }
    }
    if (P > 0 && negBelow > 0) out.push(area / (P * negBelow));
  }
  return out;
}

/** How many distinct values an ascending array holds. */
function distinct(sorted: Float64Array): number {
  let k = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) k++;
  return k;
}

/** Distinct values of an ascending array and how often each occurs. */
function runs(sorted: Float64Array): { values: Float64Array; counts: Float64Array } {
  const values: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i + 1;
    while (j < sorted.length && sorted[j] === sorted[i]) j++;
    values.push(sorted[i]!);
    counts.push(j - i);
    i = j;
  }
  return { values: Float64Array.from(values), counts: Float64Array.from(counts) };
}

/**
 * The AUC of each row resample, drawn from cell counts (see binaryReport), from the classes' sorted scores;
 * null when both classes have more than AUC_CELLS distinct scores. Class A is the one with fewer distinct
 * scores v_1 < … < v_G; class B is counted in the cells [< v_1], [= v_1], (v_1, v_2), [= v_2], …, [> v_G].
 */
function aucCellBootstrap(pos: Float64Array, neg: Float64Array, resamples: number, seed: number): number[] | null {
  const P = pos.length;
  const n = P + neg.length;
  const dp = distinct(pos);
  const dn = distinct(neg);
  if (Math.min(dp, dn) > AUC_CELLS) return null;
  const aIsPos = dp <= dn;
  const A = runs(aIsPos ? pos : neg);
  const other = aIsPos ? neg : pos;
  const G = A.values.length;
  const cells = new Float64Array(2 * G + 1); // cell 2g+1 = at v_(g+1); even cells = the gaps
  for (let i = 0, g = 0; i < other.length; i++) {
    const x = other[i]!;
    while (g < G && A.values[g]! < x) g++;
    cells[g < G && A.values[g] === x ? 2 * g + 1 : 2 * g]!++;
  }
  const sizeA = aIsPos ? P : n - P;
  const rng = mulberry32(seed);
  const a = new Float64Array(G);
  const b = new Float64Array(2 * G + 1);
  const out: number[] = [];
  for (let r = 0; r < resamples; r++) {
    const nA = binomial(rng, n, sizeA / n);
    const nB = n - nA;
    if (nA === 0 || nB === 0) continue;
    multinomial(rng, nA, A.counts, a);
    multinomial(rng, nB, cells, b);
    // Σ_g a_g · (B on the winning side of v_g + ½ · B at v_g): below for positives in A, above for negatives.
    let area = 0;
    if (aIsPos) {
      let below = 0;
      for (let g = 0; g < G; g++) {
        below += b[2 * g]!;
        area += a[g]! * (below + 0.5 * b[2 * g + 1]!);
        below += b[2 * g + 1]!;
      }
    } else {
      let above = 0;
      for (let g = G - 1; g >= 0; g--) {
        above += b[2 * g + 2]!;
        area += a[g]! * (above + 0.5 * b[2 * g + 1]!);
        above += b[2 * g + 1]!;
      }
    }
    out.push(area / (nA * nB));
  }
  return out;
}

export interface ThresholdResult {
  /** Decision rule: score >= threshold. */
  threshold: number;
  objective: Objective;
  value: number;
  confusion: Confusion;
  /** Rows used (null/NaN scores excluded). */
  n: number;
}

/**
 * Best cut-point for `objective`, O(n log n): one sort, then a sweep over distinct scores.
 * Candidates are "positive iff score >= v" for every distinct score v (so "all positive" is a
 * candidate but "all negative" is not). The reported threshold is the midpoint between v and the
 * next lower distinct score (the lowest v itself), which reproduces the same split on this data
 * and leaves a margin for unseen scores. Ties in the objective (within 1e-12) go to the smallest
 * threshold. Candidates where the objective is undefined are skipped; null if none is defined.
 */
export function bestThreshold(
  scores: readonly (number | null)[],
  labels: readonly boolean[],
  objective: Objective,
): ThresholdResult | null {
  if (scores.length !== labels.length) throw new RangeError('scores and labels must have the same length');
  const sc: number[] = [];
  const lab: boolean[] = [];
  scores.forEach((s, i) => {
    if (!missing(s)) {
      sc.push(s);
      lab.push(labels[i]!);
    }
  });
  const n = sc.length;
  let P = 0;
  for (const l of lab) if (l) P++;
  const order = argsort(sc);
  let best: ThresholdResult | null = null;
  let tp = 0;
  let fp = 0;
  // Sweep from the highest score down; each step lowers the threshold, so a later candidate
  // replaces the best when it is at least as good (ties → smallest threshold).
  for (let b = n - 1; b >= 0;) {
    let a = b;
    const v = sc[order[b]!]!;
    while (a >= 0 && sc[order[a]!] === v) {
      lab[order[a]!] ? tp++ : fp++;
      a--;
    }
    const c = { tp, fp, tn: n - P - fp, fn: P - tp };
    const val = objectiveValue(objective, c);
    if (val !== null && (best === null || val >= best.value - 1e-12)) {
      let threshold = v;
      if (a >= 0) {
        const mid = (v + sc[order[a]!]!) / 2;
        if (mid > sc[order[a]!]! && mid <= v) threshold = mid; // guard adjacent doubles
      }
      best = { threshold, objective, value: val, confusion: c, n };
    }
    b = a;
  }
  return best;
}
