/**
 * Calibration against human labels: a decision threshold for one metric, a logistic combination
 * of several metrics, and score → class cut-points. The result is plain JSON (`Calibration`).
 */
import { CAP_CLASSES, VerityError, type CapClass } from '../types.ts';
import { bestThreshold, type Objective, type ThresholdResult } from './binary.ts';
import { predictProba, trainLogistic } from './logistic.ts';

export interface Combination {
  /** Metric names, in feature order. */
  metrics: string[];
  weights: number[];
  bias: number;
  /** Standardization applied before the weights: (score − mean) / std. */
  means: number[];
  stds: number[];
  l2: number;
  /** MCC-best threshold on the predicted probability (decision = p >= threshold). */
  threshold: number;
}

export interface Cutpoints {
  method: 'median-midpoints';
  /** Classes that can be predicted, in severity order (those present in the calibration data). */
  classes: CapClass[];
  /** Descending; score >= cuts[i] → classes[i] for the first such i, else the last class. */
  cuts: number[];
}

export interface Calibration {
  version: 1;
  metric?: string;
  objective?: Objective;
  threshold?: number;
  combination?: Combination;
  cutpoints?: Cutpoints;
  /** nli_lex: fitted weights of P(correct) = σ(se·w_se + lm·w_lm + bias). */
  nliLex?: { se: number; lm: number; bias: number };
}

/**
 * Scores closer than this are one score to calibration. Differences below it are floating-point noise, not
 * evidence: nltk's BLEU gives ~1e-232 instead of 0 when an n-gram order has no match, and a threshold fitted
 * between 0 and 1e-232 "separates" rows that are the same. 1e-6 is far above that noise and far below any
 * difference a score in [0, 1] is read for.
 */
export const CALIBRATION_RESOLUTION = 1e-6;

/**
 * bestThreshold on scores compared at `resolution` (each score falls in the cell round(score / resolution)),
 * mapped back to the raw scores: the threshold is the midpoint between the highest score called incorrect and
 * the lowest called correct, so it reproduces the split on these rows. Refused, with the reason, when the
 * scores do not differ beyond the resolution or when the best split calls every row correct: such a threshold
 * separates nothing real.
 */
export function resolvedThreshold(
  scores: readonly (number | null)[],
  labels: readonly boolean[],
  objective: Objective = 'mcc',
  resolution = CALIBRATION_RESOLUTION,
): ThresholdResult {
  const cell = scores.map((s) => (s == null || Number.isNaN(s) ? null : Math.round(s / resolution)));
  const cells = new Set(cell.filter((c): c is number => c !== null));
  if (cells.size === 0) throw new VerityError('cannot calibrate: no row has a score', 'input');
  if (cells.size === 1)
    throw new VerityError(
      `cannot calibrate: every score is the same to within ${resolution.toExponential()} (differences below that are floating-point noise), so no threshold separates the rows`,
      'input',
    );
  const best = bestThreshold(cell, labels, objective);
  if (!best) throw new VerityError(`cannot calibrate: ${objective} is undefined for every threshold (need both classes)`, 'input');
  let below = -Infinity;
  let above = Infinity;
  cell.forEach((c, i) => {
    if (c === null) return;
    const s = scores[i]!;
    if (c >= best.threshold) above = Math.min(above, s);
    else below = Math.max(below, s);
  });
  if (below === -Infinity)
    throw new VerityError(
      `cannot calibrate: the best ${objective} threshold calls every scored row correct, so it separates nothing`,
      'input',
    );
  return { ...best, threshold: (below + above) / 2 };
}

/** (a) Decision threshold for one metric (see resolvedThreshold and bestThreshold for the rule). */
export function calibrateThreshold(
  scores: readonly (number | null)[],
  labels: readonly boolean[],
  objective: Objective = 'mcc',
  metric?: string,
): Calibration {
  const best = resolvedThreshold(scores, labels, objective);
  return { version: 1, ...(metric !== undefined && { metric }), objective, threshold: best.threshold };
}

/**
 * (b) Logistic combination of several metric scores. `features[i][k]` is metric k's score on item i;
 * rows with any null score are left out (and `predictCombination` returns null for them).
 * Features are standardized with the population std (a constant feature gets std 1, so its
 * weight is simply ~0 under L2). Default l2 = 1e-2.
 */
export function fitCombination(
  features: readonly (readonly (number | null)[])[],
  labels: readonly boolean[],
  metrics: readonly string[],
  opts: { l2?: number } = {},
): Combination {
  if (features.length !== labels.length) throw new RangeError('features and labels must have the same length');
  const k = metrics.length;
  const rows: number[][] = [];
  const ys: boolean[] = [];
  features.forEach((r, i) => {
    if (r.length !== k) throw new RangeError(`row ${i}: expected ${k} scores, got ${r.length}`);
    if (r.every((v) => v != null && Number.isFinite(v))) {
      rows.push(r as number[]);
      ys.push(labels[i]!);
    }
  });
  if (!ys.includes(true) || !ys.includes(false))
    throw new VerityError('cannot fit a combination: need both classes among complete rows', 'input');
  const means = Array.from({ length: k }, (_, j) => rows.reduce((a, r) => a + r[j]!, 0) / rows.length);
  const stds = means.map((m, j) => Math.sqrt(rows.reduce((a, r) => a + (r[j]! - m) ** 2, 0) / rows.length) || 1);
  const z = rows.map((r) => r.map((v, j) => (v - means[j]!) / stds[j]!));
  const l2 = opts.l2 ?? 1e-2;
  const model = trainLogistic(z, ys, { l2 });
  const probs = z.map((r) => predictProba(model, r));
  const best = bestThreshold(probs, ys, 'mcc');
  if (!best) throw new VerityError('cannot fit a combination: MCC undefined at every threshold', 'input');
  return { metrics: [...metrics], weights: model.weights, bias: model.bias, means, stds, l2, threshold: best.threshold };
}

/** Probability and decision for one item's scores (same order as `comb.metrics`); null if a score is missing. */
export function predictCombination(
  comb: Combination,
  scores: readonly (number | null)[],
): { probability: number; decision: boolean } | null {
  if (scores.length !== comb.metrics.length) throw new RangeError(`expected ${comb.metrics.length} scores, got ${scores.length}`);
  if (scores.some((v) => v == null || !Number.isFinite(v))) return null;
  const probability = predictProba(
    comb,
    scores.map((v, j) => (v! - comb.means[j]!) / comb.stds[j]!),
  );
  return { probability, decision: probability >= comb.threshold };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const h = s.length >> 1;
  return s.length % 2 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
};

/**
 * (c) Score → class cut-points: per-class medians in severity order, made non-increasing by
 * count-weighted pool-adjacent-violators, then each cut is the midpoint between neighbouring
 * (pooled) medians. Classes absent from the data are never predicted, so with all 8 present there
 * are 7 cuts. Equivalent and alternative-correct share a severity; CAP_CLASSES order decides.
 */
export function fitCutpoints(scores: readonly (number | null)[], labels: readonly CapClass[]): Cutpoints {
  if (scores.length !== labels.length) throw new RangeError('scores and labels must have the same length');
  const groups: { cls: CapClass; value: number; weight: number }[] = [];
  for (const c of CAP_CLASSES) {
    const xs = scores.filter((s, i): s is number => labels[i] === c && s != null && !Number.isNaN(s));
    if (xs.length) groups.push({ cls: c, value: median(xs), weight: xs.length });
  }
  if (!groups.length) throw new VerityError('cannot fit cut-points: no scored rows', 'input');
  // PAV for a non-increasing sequence: blocks of pooled classes.
  const blocks: { value: number; weight: number; size: number }[] = [];
  for (const g of groups) {
    blocks.push({ value: g.value, weight: g.weight, size: 1 });
    while (blocks.length > 1 && blocks.at(-2)!.value < blocks.at(-1)!.value) {
      const b = blocks.pop()!;
      const a = blocks.at(-1)!;
      a.value = (a.value * a.weight + b.value * b.weight) / (a.weight + b.weight);
      a.weight += b.weight;
      a.size += b.size;
    }
  }
  const fitted = blocks.flatMap((b) => Array<number>(b.size).fill(b.value));
  const cuts = fitted.slice(1).map((v, i) => (fitted[i]! + v) / 2);
  return { method: 'median-midpoints', classes: groups.map((g) => g.cls), cuts };
}

export function classifyScore(cp: Cutpoints, score: number): CapClass {
  const i = cp.cuts.findIndex((c) => score >= c);
  return cp.classes[i === -1 ? cp.classes.length - 1 : i]!;
}

// ---- validation ----

const fail = (path: string, msg: string): never => {
  throw new VerityError(`invalid calibration: ${path} ${msg}`, 'input');
};
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown, path: string): number => (typeof v === 'number' && Number.isFinite(v) ? v : fail(path, 'must be a finite number'));
const numArray = (v: unknown, path: string, len?: number): number[] => {
  if (!Array.isArray(v)) return fail(path, 'must be an array of numbers');
  if (len !== undefined && v.length !== len) fail(path, `must have ${len} entries, got ${v.length}`);
  return v.map((x, i) => num(x, `${path}[${i}]`));
};

/** Validates untrusted JSON (e.g. an uploaded file) and returns a typed copy; throws with the offending field. */
export function parseCalibration(json: unknown): Calibration {
  if (!isObj(json)) return fail('root', 'must be an object');
  if (json.version !== 1) fail('version', `must be 1, got ${JSON.stringify(json.version)}`);
  const out: Calibration = { version: 1 };
  if (json.metric !== undefined) {
    if (typeof json.metric !== 'string' || !json.metric) fail('metric', 'must be a non-empty string');
    out.metric = json.metric as string;
  }
  if (json.objective !== undefined) {
    if (json.objective !== 'mcc' && json.objective !== 'accuracy' && json.objective !== 'f1')
      fail('objective', "must be 'mcc', 'accuracy' or 'f1'");
    out.objective = json.objective as Objective;
  }
  if (json.threshold !== undefined) out.threshold = num(json.threshold, 'threshold');
  if (json.combination !== undefined) {
    const c = json.combination;
    if (!isObj(c)) return fail('combination', 'must be an object');
    if (!Array.isArray(c.metrics) || !c.metrics.length || !c.metrics.every((m) => typeof m === 'string'))
      fail('combination.metrics', 'must be a non-empty array of strings');
    const k = (c.metrics as string[]).length;
    const stds = numArray(c.stds, 'combination.stds', k);
    stds.forEach((s, i) => s > 0 || fail(`combination.stds[${i}]`, 'must be > 0'));
    const l2 = num(c.l2, 'combination.l2');
    if (l2 < 0) fail('combination.l2', 'must be >= 0');
    const threshold = num(c.threshold, 'combination.threshold');
    if (threshold < 0 || threshold > 1) fail('combination.threshold', 'must be a probability in [0, 1]');
    out.combination = {
      metrics: [...(c.metrics as string[])],
      weights: numArray(c.weights, 'combination.weights', k),
      bias: num(c.bias, 'combination.bias'),
      means: numArray(c.means, 'combination.means', k),
      stds,
      l2,
      threshold,
    };
  }
  if (json.nliLex !== undefined) {
    const w = json.nliLex;
    if (!isObj(w)) return fail('nliLex', 'must be an object {se, lm, bias}');
    out.nliLex = { se: num(w.se, 'nliLex.se'), lm: num(w.lm, 'nliLex.lm'), bias: num(w.bias, 'nliLex.bias') };
  }
  if (json.cutpoints !== undefined) {
    const c = json.cutpoints;
    if (!isObj(c)) return fail('cutpoints', 'must be an object');
    if (c.method !== 'median-midpoints') fail('cutpoints.method', "must be 'median-midpoints'");
    if (!Array.isArray(c.classes) || !c.classes.length) return fail('cutpoints.classes', 'must be a non-empty array');
    let prev = -1;
    c.classes.forEach((cls, i) => {
      const at = CAP_CLASSES.indexOf(cls as CapClass);
      if (at === -1) fail(`cutpoints.classes[${i}]`, `is not a CAP class: ${JSON.stringify(cls)}`);
      if (at <= prev) fail(`cutpoints.classes[${i}]`, 'classes must be distinct and in severity order');
      prev = at;
    });
    const cuts = numArray(c.cuts, 'cutpoints.cuts', c.classes.length - 1);
    cuts.forEach((v, i) => i === 0 || v <= cuts[i - 1]! || fail(`cutpoints.cuts[${i}]`, 'cuts must be non-increasing'));
    out.cutpoints = { method: 'median-midpoints', classes: [...(c.classes as CapClass[])], cuts };
  }
  return out;
}
