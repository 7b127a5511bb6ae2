/**
 * Binary agreement: a metric's scores/decisions against correct/incorrect human labels.
 * Undefined metrics (a zero denominator) are null rather than sklearn's 0 fallback, so
 * "no information" is never reported as a value.
 */
import { mulberry32 } from '../util/random.ts';
import { argsort, quantileSorted, rocAuc } from './stats.ts';

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

/**
 * Point estimates and percentile-bootstrap intervals. Each resample draws n row indices with
 * replacement from mulberry32(seed) (indices into the rows sorted by score, ties by input order),
 * so the same input gives the same intervals. Resamples are held as per-row multiplicities, so
 * confusion counts and AUC come from one weighted O(n) sweep per resample instead of a re-sort.
 */
export function binaryReport(
  scores: readonly (number | null)[],
  decisions: readonly (boolean | null)[],
  labels: readonly boolean[],
  opts: BootstrapOptions = {},
): BinaryReport {
  if (scores.length !== labels.length || decisions.length !== labels.length)
    throw new RangeError('scores, decisions and labels must have the same length');
  const resamples = opts.resamples ?? 1000;
  const seed = opts.seed ?? 42;
  const level = opts.level ?? 0.95;
  const sc: number[] = [];
  const dec: boolean[] = [];
  const lab: boolean[] = [];
  for (let i = 0; i < labels.length; i++) {
    const s = scores[i];
    const d = decisions[i];
    if (missing(s) || d == null) continue;
    sc.push(s);
    dec.push(d);
    lab.push(labels[i]!);
  }
  const n = sc.length;
  const confusion = { tp: 0, fp: 0, tn: 0, fn: 0 };
  for (let i = 0; i < n; i++) {
    if (dec[i]) lab[i] ? confusion.tp++ : confusion.fp++;
    else lab[i] ? confusion.fn++ : confusion.tn++;
  }
  const point = { ...confusionValues(confusion), auc: rocAuc(sc, lab) };

  const samples: Record<BinaryMetric, number[]> = Object.fromEntries(BINARY_METRICS.map((m) => [m, [] as number[]])) as Record<
    BinaryMetric,
    number[]
  >;
  if (n > 0 && resamples > 0) {
    // Rows are laid out in score order once: code = 2·decision + label, and groupEnd[p] marks the
    // last position of each tie group, so a resample is one linear pass (confusion + AUC).
    const order = argsort(sc);
    const code = new Uint8Array(n);
    const groupEnd = new Uint8Array(n);
    for (let p = 0; p < n; p++) {
      const i = order[p]!;
      code[p] = (dec[i] ? 2 : 0) + (lab[i] ? 1 : 0);
      groupEnd[p] = p === n - 1 || sc[order[p + 1]!] !== sc[i] ? 1 : 0;
    }
    const rng = mulberry32(seed);
    const w = new Int32Array(n);
    const cc = new Float64Array(4); // counts by code: tn, fn, fp, tp
    for (let r = 0; r < resamples; r++) {
      w.fill(0);
      for (let k = 0; k < n; k++) {
        const p = Math.floor(rng() * n);
        w[p] = w[p]! + 1;
      }
      cc.fill(0);
      // AUC = Σ over tie groups (pos·negBelow + ½·pos·negInGroup) / (P·N).
      let negBelow = 0;
      let area = 0;
      let gp = 0;
      let gn = 0;
      for (let p = 0; p < n; p++) {
        const k = w[p]!;
        const c = code[p]!;
        cc[c] = cc[c]! + k;
        if (c & 1) gp += k;
        else gn += k;
        if (groupEnd[p]) {
          area += gp * negBelow + 0.5 * gp * gn;
          negBelow += gn;
          gp = gn = 0;
        }
      }
      const conf = { tn: cc[0]!, fn: cc[1]!, fp: cc[2]!, tp: cc[3]! };
      const P = conf.tp + conf.fn;
      const vals = { ...confusionValues(conf), auc: P > 0 && negBelow > 0 ? area / (P * negBelow) : null };
      for (const m of BINARY_METRICS) {
        const v = vals[m];
        if (v !== null) samples[m].push(v);
      }
    }
  }
  const alpha = (1 - level) / 2;
  const metrics = {} as Record<BinaryMetric, Estimate>;
  for (const m of BINARY_METRICS) {
    const s = samples[m].sort((a, b) => a - b);
    metrics[m] = {
      value: point[m],
      ci: s.length ? [quantileSorted(s, alpha), quantileSorted(s, 1 - alpha)] : null,
    };
  }
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
