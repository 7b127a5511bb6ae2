/**
 * Reviewed accuracy: each system's accuracy as the humans would give it, estimated from a review of part of the
 * rows and a prediction for every row; the paired difference of two systems; the ranks each system can hold.
 *
 * A review drawn step by step (a `verity review` file, the app's review: frame.seq) is estimated by sequential.ts,
 * with an interval that holds wherever the review stops. What follows is the estimate for labels with inclusion
 * probabilities and no order (a label column taken as a random sample, files of the earlier "picked" form):
 *
 * What, for a system's N cells (rows with a judge's decision or a label), f_i a prediction of row i's correctness
 * in [0, 1] (the judge's decision, or a model fitted on the answers without row i's own — frame.ts),
 * y_i the human label, S the labelled rows taken as sampled with inclusion probabilities π_i:
 *   θ̂ = ( Σ_{i known} y_i + λ Σ_{i other} f_i + Σ_{i∈S} (y_i − λ f_i) / π_i ) / N,
 * the inverse-probability-weighted estimate of active statistical inference (Zrnic & Candès, "Active statistical
 * inference", ICML 2024), unbiased for any f fixed before the answers and any λ. "Known" rows have a label outside
 * the design (a label column, a census row with π = 1): their truth is counted as it is. (Beside a review drawn step
 * by step only a census row is: see censusIn.)
 * λ (power tuning, PPI++: Angelopoulos, Duchi & Zrnic 2023) minimises the estimated variance:
 *   λ = Σ_S a_i y_i f_i / Σ_S a_i f_i², clipped to [0, 1] — λ = 0 is the labels alone, so it is never worse than
 *   them; a_i = (1 − π_i) / π_i². With fewer than POWER_TUNING_MIN reviewed rows (λ would be noise) λ = 1.
 * Variance: V̂ = Σ_S a_i r_i² / N², r_i = y_i − λ f_i — unbiased under the design (terms uncorrelated: design.ts),
 *   but skewed: a handful of reviewed rows that happen to show no error give V̂ ≈ 0. So V = max(V̂, κ Σ_S a_i m_i / N²),
 *   m_i the squared residual the prediction expects (f(1 − f); 1 for a 0/1 prediction) and κ the ratio of the
 *   residuals seen to those expected over every system's sample (varianceScale). On EVOUNA-TQ (bench/review.ts),
 *   V̂ alone covered 86–92% of systems at 15% reviewed, the model's expectation without κ 99% with intervals
 *   40% wider than needed, the maximum 93–98%.
 * Interval: θ̂ ± z_{(1+level)/2} √V, the value and interval clipped together to what the labels allow (every
 *   unlabelled row wrong … right), so the value is always inside its interval.
 * Paired, A − B on the questions both answered: the same estimator on the difference of the two rows of each
 *   question. Two rows in one answer group share one label, so their difference is known to be 0: their
 *   predictions are averaged and the terms cancel; the variance sums each reviewed group's combined residual.
 *   p = 2 Φc(|Δ̂| / se), Holm-corrected over the pairs by the caller.
 * Ranks: system s can hold ranks 1 + #(systems significantly above s) … S − #(systems significantly below s),
 *   from the Holm-corrected pairs (as prediction-powered ranking, Chatzi et al. 2024, builds rank sets).
 * Without a design (labels in part of a column): every labelled row is taken as drawn at random from its system's
 *   rows, π = labelled / N ('assumed-random'); valid when they were.
 */
import { normalUpperTail, twoSidedZ } from '../util/normal.ts';
import { sequentialEstimate, spreadOf, terms, type ReviewSequence, type Target } from './sequential.ts';

export type ReviewDesignKind = 'designed' | 'assumed-random';
export type { ReviewSequence } from './sequential.ts';

/** Everything the estimator reads, over the cells of a system × question table (cell s·Q + q). */
export interface ReviewFrame {
  S: number;
  Q: number;
  /** Per cell: the prediction of correctness in [0, 1]; NaN when the cell is not counted (no decision, no label). */
  f: Float64Array;
  /** Per cell: the human label 1 / 0, −1 when none. */
  y: ArrayLike<number>;
  /** Per cell: the inclusion probability of the reviewed unit the cell's label came with; NaN when not in the sample. */
  pi: Float64Array;
  /** Per cell: the reviewed unit (cells of one unit were asked as one), −1 when not in the sample. */
  unit: Int32Array;
  /** Per cell: the answer group (rows sharing one label by construction), −1 when unknown. */
  group: Int32Array | null;
  kind: ReviewDesignKind;
  /** Whether f is the judge's 0/1 decision rather than a fitted probability. */
  hard: boolean;
  /** The review drawn step by step (design.ts), when the labels came from one; then pi and unit are unused. */
  seq: ReviewSequence | null;
}

export interface Reviewed {
  /** The estimate of the system's accuracy on its N rows (the interval's centre, clipped with it). */
  value: number;
  /** The interval: one that holds wherever the review stopped (`interval: 'anytime'`), or for a fixed sample. */
  ci: [number, number] | null;
  interval: 'anytime' | 'fixed';
  /** A review drawn step by step: the interval that holds when the number of answers was fixed before the first. */
  fixed?: [number, number] | null;
  /** Its standard error (fixed size). */
  se: number;
  /** Rows with a human label, and those of them in the design's sample. */
  labelled: number;
  sampled: number;
  /** Rows counted (a decision or a label). */
  rows: number;
  design: ReviewDesignKind;
  /** The power-tuning weight of the prediction (1 = trust it fully, 0 = the labels alone). */
  lambda: number;
  /** Ranks the system can hold given the paired differences, best first (filled by the caller). */
  ranks?: [number, number];
}

/** Reviewed rows (outside a census) a system needs before λ is tuned. */
export const POWER_TUNING_MIN = 10;

export const inSample = (fr: ReviewFrame, c: number) => !Number.isNaN(fr.pi[c]!) && fr.y[c]! >= 0;
/** A label known outside the design: counted as it is. */
export const known = (fr: ReviewFrame, c: number) => fr.y[c]! >= 0 && (Number.isNaN(fr.pi[c]!) || fr.pi[c]! >= 1);

/** A sampled cell's squared residual as the prediction expects it, up to the scale: f(1 − f), or 1 for a 0/1 prediction. */
export const expected = (fr: ReviewFrame, f: number) => (fr.hard ? 1 : f * (1 - f));

/**
 * How much the residuals vary against what the prediction expects, over every system's sample:
 * κ = (Σ_S a r² + ā m̄) / (Σ_S a m + ā m̄), m the expected square (one pseudo-row that meets its expectation keeps a
 * small sample from claiming κ = 0). κ·m is the variance floor of a sampled cell.
 */
export function varianceScale(fr: ReviewFrame): number {
  let num = 0;
  let den = 0;
  let aSum = 0;
  let mSum = 0;
  let r = 0;
  for (let c = 0; c < fr.f.length; c++) {
    if (Number.isNaN(fr.f[c]!) || !inSample(fr, c) || fr.pi[c]! >= 1) continue;
    const p = fr.pi[c]!;
    const a = (1 - p) / (p * p);
    const m = expected(fr, fr.f[c]!);
    num += a * (fr.y[c]! - fr.f[c]!) ** 2;
    den += a * m;
    aSum += a;
    mSum += m;
    r++;
  }
  if (r === 0) return 1;
  const pseudo = (aSum / r) * (mSum / r);
  return (num + pseudo) / (den + pseudo);
}

/** One system's reviewed accuracy over `cells`; null when no cell counts. `scale` = varianceScale(fr). */
export function reviewedOf(fr: ReviewFrame, cells: readonly number[], level: number, scale: number): Reviewed | null {
  if (fr.seq) return sequentialOf(fr, fr.seq, [cells], level);
  let N = 0;
  let labelled = 0;
  let sampled = 0;
  let knownSum = 0;
  let knownRight = 0;
  let knownWrong = 0;
  let fSum = 0;
  let ayf = 0;
  let aff = 0;
  let tuned = 0;
  for (const c of cells) {
    const f = fr.f[c]!;
    if (Number.isNaN(f)) continue;
    N++;
    const y = fr.y[c]!;
    if (y >= 0) {
      labelled++;
      if (y === 1) knownRight++;
      else knownWrong++;
    }
    if (known(fr, c)) {
      knownSum += y;
      if (inSample(fr, c)) sampled++;
      continue;
    }
    fSum += f;
    if (inSample(fr, c)) {
      sampled++;
      tuned++;
      const p = fr.pi[c]!;
      const a = (1 - p) / (p * p);
      ayf += a * y * f;
      aff += a * f * f;
    }
  }
  if (N === 0) return null;
  // λ from a handful of rows would be noise: below POWER_TUNING_MIN reviewed rows the prediction is taken whole.
  const lambda = tuned >= POWER_TUNING_MIN && aff > 0 ? Math.min(1, Math.max(0, ayf / aff)) : 1;
  let ht = 0;
  let v = 0;
  let vModel = 0;
  for (const c of cells) {
    if (Number.isNaN(fr.f[c]!) || known(fr, c) || !inSample(fr, c)) continue;
    const p = fr.pi[c]!;
    const r = fr.y[c]! - lambda * fr.f[c]!;
    ht += r / p;
    const a = (1 - p) / (p * p);
    v += a * r * r;
    vModel += a * scale * expected(fr, fr.f[c]!);
  }
  const lo = knownRight / N;
  const hi = 1 - knownWrong / N;
  const clip = (x: number) => Math.min(hi, Math.max(lo, x));
  const theta = (knownSum + lambda * fSum + ht) / N;
  const se = Math.sqrt(Math.max(v, vModel)) / N;
  const z = twoSidedZ(level);
  const base = { labelled, sampled, rows: N, design: fr.kind, lambda, interval: 'fixed' as const };
  // Nothing reviewed at random: the prediction alone, with no interval to give.
  if (sampled === 0 && labelled < N) return { value: clip(theta), ci: null, se: NaN, ...base };
  return { value: clip(theta), ci: [clip(theta - z * se), clip(theta + z * se)], se, ...base };
}

/**
 * Which labels outside a review drawn step by step count as known: only a census row (π = 1), one whose group the
 * design left out of its draw (a verdict remembered from an earlier review: plan.ts). Any other label outside the
 * draw (plain lines, a label column, answers carried past a blank) is not counted: the design could still draw its
 * row, and a drawable row counted as it is adds its residual to every later step's expectation — a bias (a third of
 * the answer groups labelled so raised a system's estimate by up to 3 points in simulation: sequential.test.ts).
 * Such labels still bound the value (what the labels allow) and help fit the prediction (frame.ts).
 */
export const censusIn = (fr: ReviewFrame, seq: ReviewSequence) => (c: number) => fr.y[c]! >= 0 && seq.stepOf[c]! < 0 && fr.pi[c]! >= 1;

/**
 * One system's reviewed accuracy from a review drawn step by step (sequential.ts), over `parts` of its cells: with
 * one part, its accuracy there; with several (splits), the mean of the parts' accuracies, every part weighing alike
 * — one target (a row weighs 1 / (K n_k)), so its interval is the confidence sequence of that mean itself.
 */
function sequentialOf(fr: ReviewFrame, seq: ReviewSequence, parts: readonly (readonly number[])[], level: number): Reviewed | null {
  const isKnown = censusIn(fr, seq);
  const counted = parts.map((cells) => cells.filter((c) => !Number.isNaN(fr.f[c]!))).filter((cells) => cells.length > 0);
  const N = counted.reduce((s, cells) => s + cells.length, 0);
  if (N === 0) return null;
  const K = counted.length;
  // One part keeps its plain form (a = 1 over N), the figures every other surface pins.
  const target: Target =
    K === 1
      ? { cells: counted[0]!, signs: counted[0]!.map(() => 1), N }
      : { cells: counted.flat(), signs: counted.flatMap((cells) => cells.map(() => 1 / (K * cells.length))), N: 1 };
  let labelled = 0;
  let sampled = 0;
  let right = 0;
  let wrong = 0;
  target.cells.forEach((c, k) => {
    const y = fr.y[c]!;
    if (y < 0) return;
    labelled++;
    if (y === 1) right += target.signs[k]!;
    else wrong += target.signs[k]!;
    if (seq.stepOf[c]! >= 0) sampled++;
  });
  const { x, nu, prior, priorSteps, touched } = terms(seq, fr.y, isKnown, target);
  const lambda = seq.epochs[seq.epochs.length - 1]!.lambda;
  const bounds: [number, number] = [right / target.N, 1 - wrong / target.N];
  const base = { labelled, sampled, rows: N, design: fr.kind, lambda, interval: 'anytime' as const };
  if (x.length === 0) {
    // No step yet: the prediction and the census rows, with no interval unless every row is labelled (then the labels are the truth).
    const all = labelled === N;
    let v = 0;
    target.cells.forEach((c, k) => (v += target.signs[k]! * (all || isKnown(c) ? fr.y[c]! : seq.epochs[0]!.f[c]!)));
    const value = v / target.N;
    const exact = all ? ([value, value] as [number, number]) : null;
    return { value, ci: exact, fixed: exact, se: all ? 0 : NaN, ...base };
  }
  const e = sequentialEstimate(x, nu, prior, priorSteps, seq.planned, level, bounds);
  // No step drew one of these rows yet: the value is the prediction, and its terms' zero spread is no interval.
  if (touched === 0 && labelled < N) return { value: e.value, ci: null, fixed: null, se: NaN, ...base };
  return { value: e.value, ci: e.anytime, fixed: e.fixed, se: e.se, ...base };
}

/**
 * A system's reviewed accuracy as the mean over `parts` of its cells (splits), every part weighing alike. A review
 * drawn step by step: one target, its confidence sequence (the parts share steps, so their errors are not
 * independent). Otherwise each part's estimate, their mean, and the parts' variances summed (their sampled rows
 * are drawn independently): a fixed-size interval.
 */
export function reviewedMean(fr: ReviewFrame, parts: readonly (readonly number[])[], level: number, scale: number): Reviewed | null {
  if (fr.seq) return sequentialOf(fr, fr.seq, parts, level);
  const each = parts.map((cells) => reviewedOf(fr, cells, level, scale)).filter((r): r is Reviewed => r !== null);
  if (!each.length) return null;
  const K = each.length;
  const value = each.reduce((s, r) => s + r.value, 0) / K;
  const se = Math.sqrt(each.reduce((s, r) => s + r.se ** 2, 0)) / K;
  const z = twoSidedZ(level);
  const sum = (f: (r: Reviewed) => number) => each.reduce((s, r) => s + f(r), 0);
  const base = {
    labelled: sum((r) => r.labelled),
    sampled: sum((r) => r.sampled),
    rows: sum((r) => r.rows),
    design: fr.kind,
    lambda: each[0]!.lambda,
    interval: 'fixed' as const,
  };
  if (!Number.isFinite(se)) return { value, ci: null, se: NaN, ...base };
  return { value, ci: [Math.max(0, value - z * se), Math.min(1, value + z * se)], se, ...base };
}

export interface ReviewedPair {
  /** Questions both systems have a counted row for. */
  n: number;
  accA: number | null;
  accB: number | null;
  diff: number | null;
  /** The interval of the difference (anytime for a review drawn step by step); `fixed` the fixed-size one there. */
  ci: [number, number] | null;
  fixed?: [number, number] | null;
  se: number | null;
  /** Two-sided p of "no difference" (normal). */
  p: number | null;
}

/** The paired difference A − B (system indices) on the questions both answered. */
export function reviewedPair(
  fr: ReviewFrame,
  a: number,
  b: number,
  level: number,
  scale: number,
  questions?: readonly number[],
): ReviewedPair {
  const { Q } = fr;
  if (fr.seq) return sequentialPair(fr, fr.seq, a, b, level, questions ?? Array.from({ length: Q }, (_, q) => q));
  // Each reviewed unit's combined residual, its expected square under the prediction, and its probability.
  const units = new Map<number, { r: number; m: number; pi: number }>();
  let n = 0;
  let sumA = 0;
  let sumB = 0;
  /** Row c's term of its system's sum; its residual goes to its unit with `sign`, with `m` its expected square. */
  const term = (c: number, sign: number, base: number, m: number) => {
    if (known(fr, c)) return fr.y[c]!;
    if (!inSample(fr, c)) return base;
    const u = fr.unit[c]!;
    let e = units.get(u);
    if (!e) units.set(u, (e = { r: 0, m: 0, pi: fr.pi[c]! }));
    e.r += sign * (fr.y[c]! - base);
    e.m += m;
    return base + (fr.y[c]! - base) / fr.pi[c]!;
  };
  for (const q of questions ?? Array.from({ length: Q }, (_, k) => k)) {
    const ca = a * Q + q;
    const cb = b * Q + q;
    if (Number.isNaN(fr.f[ca]!) || Number.isNaN(fr.f[cb]!)) continue;
    n++;
    let fa = fr.f[ca]!;
    let fb = fr.f[cb]!;
    // One answer group, one label: the two predictions are made one, so the two terms cancel.
    const one = fr.group !== null && fr.group[ca]! >= 0 && fr.group[ca] === fr.group[cb];
    if (one) fa = fb = (fa + fb) / 2;
    sumA += term(ca, 1, fa, one ? 0 : scale * expected(fr, fa));
    sumB += term(cb, -1, fb, one ? 0 : scale * expected(fr, fb));
  }
  if (n === 0) return { n, accA: null, accB: null, diff: null, ci: null, se: null, p: null };
  let v = 0;
  let vModel = 0;
  for (const { r, m, pi } of units.values()) {
    const w = (1 - pi) / (pi * pi);
    v += w * r * r;
    vModel += w * m;
  }
  const diff = (sumA - sumB) / n;
  const se = Math.sqrt(Math.max(v, vModel)) / n;
  const z = twoSidedZ(level);
  const p = se > 0 ? Math.min(1, 2 * normalUpperTail(Math.abs(diff) / se)) : diff === 0 ? 1 : 0;
  return { n, accA: sumA / n, accB: sumB / n, diff, ci: [diff - z * se, diff + z * se], se, p };
}

/** The two systems' rows on the questions both have a counted row for: A's with +1, B's with −1, over n questions. */
export function pairTargets(fr: ReviewFrame, a: number, b: number, questions: readonly number[]): { A: Target; B: Target; n: number } {
  const { Q } = fr;
  const qs = questions.filter((q) => !Number.isNaN(fr.f[a * Q + q]!) && !Number.isNaN(fr.f[b * Q + q]!));
  const n = qs.length;
  const one = (s: number, sign: number): Target => ({ cells: qs.map((q) => s * Q + q), signs: qs.map(() => sign), N: n });
  return { A: one(a, 1), B: one(b, -1), n };
}

/** The paired difference A − B from a review drawn step by step, on `questions` where both have a counted row. */
function sequentialPair(
  fr: ReviewFrame,
  seq: ReviewSequence,
  a: number,
  b: number,
  level: number,
  questions: readonly number[],
): ReviewedPair {
  const { A, B, n } = pairTargets(fr, a, b, questions);
  if (n === 0) return { n, accA: null, accB: null, diff: null, ci: null, se: null, p: null };
  const isKnown = censusIn(fr, seq);
  const d = terms(seq, fr.y, isKnown, { cells: [...A.cells, ...B.cells], signs: [...A.signs, ...B.signs], N: n });
  if (d.x.length === 0) {
    // No step yet: the prediction's difference, with no interval.
    let v = 0;
    for (let k = 0; k < n; k++) {
      const ca = A.cells[k]!;
      const cb = B.cells[k]!;
      v += (isKnown(ca) ? fr.y[ca]! : seq.epochs[0]!.f[ca]!) - (isKnown(cb) ? fr.y[cb]! : seq.epochs[0]!.f[cb]!);
    }
    return { n, accA: null, accB: null, diff: v / n, ci: null, se: null, p: null };
  }
  const e = sequentialEstimate(d.x, d.nu, d.prior, d.priorSteps, seq.planned, level, [-1, 1]);
  // Neither system's rows drawn yet: the prediction's difference, with no interval and no test (p = 0 from no spread).
  if (d.touched === 0) return { n, accA: null, accB: null, diff: e.value, ci: null, fixed: null, se: null, p: null };
  const a1 = terms(seq, fr.y, isKnown, A);
  const b1 = terms(seq, fr.y, isKnown, B);
  const accA = spreadOf(a1.x, a1.nu).mean;
  const accB = -spreadOf(b1.x, b1.nu).mean;
  return { n, accA, accB, diff: e.value, ci: e.anytime, fixed: e.fixed, se: e.se, p: e.p };
}

/**
 * The ranks each of S systems can hold: `above[s]` systems are significantly better than s and `below[s]`
 * significantly worse → [1 + above, S − below].
 */
export function rankIntervals(S: number, better: readonly { a: number; b: number; winner: number | null }[]): [number, number][] {
  const above = new Array<number>(S).fill(0);
  const below = new Array<number>(S).fill(0);
  for (const { a, b, winner } of better) {
    if (winner === null) continue;
    const loser = winner === a ? b : a;
    above[loser]!++;
    below[winner]!++;
  }
  return above.map((x, s) => [1 + x, S - below[s]!]);
}
