/**
 * The reviewed estimate of a review drawn step by step (design.ts): each system's accuracy, and the difference of
 * two, as a mean of martingale terms — with a confidence sequence that holds wherever the person stops, and the
 * fixed-size interval that holds when the number of answers was fixed before the first.
 *
 * What, for a target θ = Σ_c a_c y_c / N over cells c (a system's rows: a = 1; a pair's: +1 and −1), f_c^(t) a
 *   prediction of y_c and λ_t a weight, both fitted on the labels of the steps before t only (frame.ts), q_t the
 *   probability step t's group g_t was drawn with, and R_t = Σ_{c ∈ g_t} a_c (y_c − λ_t f_c^(t)):
 *     T_t = Σ_{known} a y + Σ_{drawn before t} a y + λ_t Σ_{not drawn before t} a f^(t) + R_t / q_t.
 *   Given the steps before it, E[T_t] = N θ for any prediction and λ fixed by then (Des Raj, "Some estimators in
 *   sampling with varying probabilities without replacement", JASA 51, 1956; with a prediction, the active-inference
 *   estimator of Zrnic & Candès, ICML 2024, made sequential). So X_t = T_t / N are martingale differences around θ,
 *   and θ̂_n = Σ ν_t X_t / Σ ν_t is unbiased after any number of steps n for weights ν_t fixed before step t.
 * Weights: a step predicted by a model learned from the answers has smaller residuals than one predicted by the
 *   judge; ν_t = 1 for the judge's steps, and for the steps of a learned prediction the ratio of the squared
 *   residual the priority expects of the judge to the one the model expects of itself, both over the steps before
 *   it (frame.ts), clipped to [1/10, 10]. One weight per step for every system, so a difference of two systems is
 *   the difference of their estimates.
 * Fixed size: θ̂_n ± z √V / Σ ν, V = n/(n − 1) Σ ν_t² (X_t − θ̂)² — with ν = 1, Des Raj's variance estimate, unbiased
 *   for a fixed n (the terms are uncorrelated); valid when n was chosen before any answer was seen.
 * Anytime: the Gaussian-mixture asymptotic confidence sequence of Waudby-Smith, Arbour, Sinha, Kennedy & Ramdas,
 *   "Time-uniform central limit theory and asymptotic confidence sequences", Ann. Statist. 2024 (Thm 2.2), for the
 *   weighted sum S_n = Σ ν_t (X_t − θ) with variance process V:
 *     |S_n| ≤ √( (V + 1/ρ²) (2 ln(1/α) + ln(1 + ρ² V)) ),  ρ² = (−2 ln α + ln(1 − 2 ln α)) / (V n* / n),
 *   n* the steps the review planned (where it is tightest); with ν = 1 it is θ̂_n ± σ̂ √(2 (nρ₀² + 1) / (n² ρ₀²)
 *   · ln(√(nρ₀² + 1) / α)). It covers θ at every n at once with probability → 1 − α: stopping when the figures look
 *   good, or at any point at all, keeps it valid.
 * V is the larger of the sample's and (Σ ν_t² (X_t − θ̂)² + k σ₀²) n / (n − 1 + k), the sample's with k pseudo-steps
 *   of the variance the judge's decision is expected to have before any label: k = PRIOR_STEPS × the share of steps
 *   the judge predicted, σ₀² = the mean over those steps of ν_t² m_t / q_t² / N² (m_t the expected square of R_t: the
 *   priority's probability that the judge errs). It keeps a review that has seen none of a system's errors from
 *   claiming a zero-width interval, and its weight falls as 1/n, so both intervals keep their guarantees as n grows.
 *   A learned prediction's steps add none: the model starts only once the answers hold both kinds, and its f(1 − f)
 *   is read from those same answers, so it would count the sample's spread twice (fixed-size coverage 0.971–0.975 at
 *   the first stops in simulation, against 0.94–0.96 without; sequential.test.ts).
 */
import { twoSidedZ } from '../util/normal.ts';

/** Pseudo-steps of the expected variance in σ̂² per step predicted by the judge (sequential.test.ts's simulation). */
export const PRIOR_STEPS = 30;

/** A review drawn step by step, as the estimate reads it. */
export interface ReviewSequence {
  /** Per step: the probability its group was drawn with. */
  q: Float64Array;
  /** Per cell: its step, −1 when its group was not drawn. */
  stepOf: Int32Array;
  /** Steps the review planned to ask (the confidence sequence is tightest there). */
  planned: number;
  /** Predictions, each for the steps from `from` on: per cell (NaN where not counted), λ, whether learned, and the steps' weight. */
  epochs: { from: number; f: Float64Array; lambda: number; learned: boolean; nu: number }[];
  /** Per cell: the squared residual the priority expects of the judge's decision before any label. */
  prior: Float64Array;
}

/** The cells of a target and their signs (+1 a system's rows; +1 and −1 for a difference), over N questions or rows. */
export interface Target {
  cells: readonly number[];
  signs: readonly number[];
  N: number;
}

export interface SequentialEstimate {
  value: number;
  /** Holds wherever the review stops (asymptotic confidence sequence); null before the first step. */
  anytime: [number, number] | null;
  /** Holds for a number of answers fixed before the first. */
  fixed: [number, number] | null;
  /** The fixed-size standard error σ̂ / √n. */
  se: number;
  /** The anytime p-value of θ = 0 (differences). */
  p: number | null;
  steps: number;
}

/**
 * The terms X_1 … X_n of a target, their weights, σ₀² (the weighted variance a judge's term is expected to have), its
 * pseudo-steps, and how many steps drew a cell of the target (`touched`: with none, the terms are the prediction
 * alone, all equal, and their spread of 0 says nothing — the caller gives no interval).
 */
export function terms(
  seq: ReviewSequence,
  y: ArrayLike<number>,
  known: (c: number) => boolean,
  t: Target,
): { x: Float64Array; nu: Float64Array; prior: number; priorSteps: number; touched: number } {
  const E = seq.epochs.length;
  let K = 0;
  const F = new Float64Array(E);
  const byStep = new Map<number, number[]>();
  t.cells.forEach((c, k) => {
    const a = t.signs[k]!;
    if (known(c)) {
      K += a * y[c]!;
      return;
    }
    for (let e = 0; e < E; e++) F[e]! += a * seq.epochs[e]!.f[c]!;
    const s = seq.stepOf[c]!;
    if (s >= 0 && y[c]! >= 0) {
      let list = byStep.get(s);
      if (!list) byStep.set(s, (list = []));
      list.push(k);
    }
  });
  const n = seq.q.length;
  const x = new Float64Array(n);
  const nu = new Float64Array(n);
  const drawnF = new Float64Array(E);
  let drawnY = 0;
  let prior = 0;
  let judgeSteps = 0;
  let touched = 0;
  let e = 0;
  for (let s = 0; s < n; s++) {
    while (e + 1 < E && seq.epochs[e + 1]!.from <= s) e++;
    const { f, lambda, learned, nu: weight } = seq.epochs[e]!;
    nu[s] = weight;
    const q = seq.q[s]!;
    let r = 0;
    let sign = 0;
    let m = 0;
    const list = byStep.get(s) ?? [];
    if (list.length) touched++;
    for (const k of list) {
      const c = t.cells[k]!;
      const a = t.signs[k]!;
      r += a * (y[c]! - lambda * f[c]!);
      sign += a;
      if (!learned) m += seq.prior[c]!;
    }
    x[s] = (K + drawnY + lambda * (F[e]! - drawnF[e]!) + r / q) / t.N;
    if (!learned) {
      judgeSteps++;
      // One group, one label: its cells' residuals move together, so their expected square is (Σ a)² times the mean's.
      if (list.length) prior += (weight * weight * sign * sign * (m / list.length)) / (q * q);
    }
    for (const k of list) {
      const c = t.cells[k]!;
      const a = t.signs[k]!;
      drawnY += a * y[c]!;
      for (let j = 0; j < E; j++) drawnF[j]! += a * seq.epochs[j]!.f[c]!;
    }
  }
  return {
    x,
    nu,
    prior: judgeSteps ? prior / judgeSteps / (t.N * t.N) : 0,
    priorSteps: n ? (PRIOR_STEPS * judgeSteps) / n : 0,
    touched,
  };
}

/** The confidence sequence's bound on |Σ ν (X − θ)| for variance V over n steps, tightest at `planned` steps. */
export function anytimeBound(V: number, n: number, planned: number, alpha: number): number {
  const l = -2 * Math.log(alpha) + Math.log(1 - 2 * Math.log(alpha));
  if (!(V > 0)) return 0;
  const rho2 = l / ((V * Math.max(1, planned)) / n);
  return Math.sqrt((V + 1 / rho2) * (2 * Math.log(1 / alpha) + Math.log(1 + rho2 * V)));
}

/** The half-width for n equally weighted terms of standard deviation sigma (anytimeBound with V = n σ², over n). */
export const anytimeRadius = (sigma: number, n: number, planned: number, alpha: number): number =>
  anytimeBound(n * sigma * sigma, n, planned, alpha) / n;

/** The smallest α at which the confidence sequence leaves out 0: the anytime-valid p-value of "θ = 0". */
function anytimeP(sum: number, V: number, n: number, planned: number): number {
  if (sum === 0) return 1;
  if (!(V > 0)) return 0;
  let lo = -700;
  let hi = Math.log(0.999999);
  if (anytimeBound(V, n, planned, Math.exp(hi)) >= Math.abs(sum)) return 1;
  if (anytimeBound(V, n, planned, Math.exp(lo)) < Math.abs(sum)) return 0;
  for (let k = 0; k < 80; k++) {
    const mid = (lo + hi) / 2;
    if (anytimeBound(V, n, planned, Math.exp(mid)) < Math.abs(sum)) hi = mid;
    else lo = mid;
  }
  return Math.exp(hi);
}

/** The terms' total weight W, weighted mean X̄ (NaN without weight) and weighted spread Σ ν² (X − X̄)². */
export function spreadOf(x: Float64Array, nu: Float64Array): { W: number; mean: number; ss: number } {
  let W = 0;
  let sum = 0;
  for (let t = 0; t < x.length; t++) {
    W += nu[t]!;
    sum += nu[t]! * x[t]!;
  }
  const mean = W > 0 ? sum / W : NaN;
  let ss = 0;
  for (let t = 0; t < x.length; t++) ss += (nu[t]! * (x[t]! - mean)) ** 2;
  return { W, mean, ss };
}

/**
 * V of n terms of spread `ss` beside `priorSteps` pseudo-steps of the prior's σ₀² (see the header), or, with m, what
 * it will be after m terms if the spread per term and σ₀² stay as they are (review/ahead.ts projects with it). The
 * prior only widens: a prediction that expects fewer errors than seen does not narrow the interval.
 */
export function varianceOf(ss: number, n: number, prior: number, priorSteps: number, m = n): number {
  const spread = m === n ? ss : n > 1 ? (ss * (m - 1)) / (n - 1) : 0;
  return Math.max(n > 1 ? (ss * m) / (n - 1) : 0, ((spread + priorSteps * prior) * m) / (m - 1 + priorSteps));
}

/** θ̂ and both intervals from the terms and their weights; `bounds` clip the value and the intervals to what the labels allow. */
export function sequentialEstimate(
  x: Float64Array,
  nu: Float64Array,
  prior: number,
  priorSteps: number,
  planned: number,
  level: number,
  bounds: [number, number] = [-Infinity, Infinity],
): SequentialEstimate {
  const n = x.length;
  const clip = (v: number) => Math.min(bounds[1], Math.max(bounds[0], v));
  const { W, mean, ss } = spreadOf(x, nu);
  if (n === 0 || !(W > 0)) return { value: NaN, anytime: null, fixed: null, se: NaN, p: null, steps: n };
  const V = varianceOf(ss, n, prior, priorSteps);
  const se = Math.sqrt(V) / W;
  const z = twoSidedZ(level);
  const half = anytimeBound(V, n, planned, 1 - level) / W;
  return {
    value: clip(mean),
    anytime: [clip(mean - half), clip(mean + half)],
    fixed: [clip(mean - z * se), clip(mean + z * se)],
    se,
    p: anytimeP(mean * W, V, n, planned),
    steps: n,
  };
}
