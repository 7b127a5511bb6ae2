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
 *   and θ̂_n = mean(X_1 … X_n) is unbiased after any number of steps n.
 * Fixed size: θ̂_n ± z σ̂_n / √n. Des Raj's variance estimate Σ (X_t − θ̂)² / (n (n − 1)) is unbiased for a fixed n
 *   (the terms are uncorrelated); valid when n was chosen before any answer was seen.
 * Anytime: the Gaussian-mixture asymptotic confidence sequence of Waudby-Smith, Arbour, Sinha, Kennedy & Ramdas,
 *   "Time-uniform central limit theory and asymptotic confidence sequences", Ann. Statist. 2024 (Thm 2.2):
 *     θ̂_n ± σ̂_n √( 2 (n ρ² + 1) / (n² ρ²) · ln( √(n ρ² + 1) / α ) ),  ρ² = (−2 ln α + ln(1 − 2 ln α)) / n*,
 *   n* the steps the review planned (where it is tightest). It covers θ at every n at once with probability
 *   → 1 − α: stopping when the figures look good, or at any point at all, keeps it valid.
 * σ̂_n² = the larger of the sample variance and (Σ (X_t − θ̂)² + k σ₀²) / (n − 1 + k), the sample variance with
 *   k = PRIOR_STEPS pseudo-steps of the
 *   variance the prediction expects before the step's label, σ₀² = mean_t (m_t / q_t²) / N² (m_t the expected
 *   square of R_t: Σ f(1 − f) for a learned prediction, and for the judge's decision the priority's probability
 *   that it errs). It keeps a review that has seen none of a system's
 *   errors from claiming a zero-width interval, and its weight falls as 1/n, so both intervals keep their
 *   guarantees as n grows (bench/review.ts, estimate.test.ts: coverage at every stopping point in simulation).
 */
import { normalUpperTail, twoSidedZ } from '../util/normal.ts';

/** Pseudo-steps of the priority's expected variance in σ̂² (estimate.test.ts's simulation). */
export const PRIOR_STEPS = 30;

/** A review drawn step by step, as the estimate reads it. */
export interface ReviewSequence {
  /** Per step: the probability its group was drawn with. */
  q: Float64Array;
  /** Per cell: its step, −1 when its group was not drawn. */
  stepOf: Int32Array;
  /** Steps the review planned to ask (the confidence sequence is tightest there). */
  planned: number;
  /** Predictions, each for the steps from `from` on: per cell (NaN where not counted), λ, and whether learned. */
  epochs: { from: number; f: Float64Array; lambda: number; learned: boolean }[];
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

/** The terms X_1 … X_n of a target, and σ₀² (the priority's expected variance of a term). */
export function terms(
  seq: ReviewSequence,
  y: ArrayLike<number>,
  known: (c: number) => boolean,
  t: Target,
): { x: Float64Array; prior: number } {
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
  const drawnF = new Float64Array(E);
  let drawnY = 0;
  let prior = 0;
  let e = 0;
  for (let s = 0; s < n; s++) {
    while (e + 1 < E && seq.epochs[e + 1]!.from <= s) e++;
    const { f, lambda, learned } = seq.epochs[e]!;
    const q = seq.q[s]!;
    let r = 0;
    let sign = 0;
    let m = 0;
    const list = byStep.get(s) ?? [];
    for (const k of list) {
      const c = t.cells[k]!;
      const a = t.signs[k]!;
      r += a * (y[c]! - lambda * f[c]!);
      sign += a;
      // What the prediction in use expects: a learned probability f, f(1 − f); the judge's decision, the priority's.
      m += learned ? f[c]! * (1 - f[c]!) : seq.prior[c]!;
    }
    x[s] = (K + drawnY + lambda * (F[e]! - drawnF[e]!) + r / q) / t.N;
    // One group, one label: its cells' residuals move together, so their expected square is (Σ a)² times the mean's.
    if (list.length) prior += (sign * sign * (m / list.length)) / (q * q);
    for (const k of list) {
      const c = t.cells[k]!;
      const a = t.signs[k]!;
      drawnY += a * y[c]!;
      for (let j = 0; j < E; j++) drawnF[j]! += a * seq.epochs[j]!.f[c]!;
    }
  }
  return { x, prior: n ? prior / n / (t.N * t.N) : 0 };
}

/** The confidence sequence's half-width for n terms of standard deviation sigma, tightest at `planned` terms. */
export function anytimeRadius(sigma: number, n: number, planned: number, alpha: number): number {
  const l = -2 * Math.log(alpha) + Math.log(1 - 2 * Math.log(alpha));
  const rho2 = l / Math.max(1, planned);
  return sigma * Math.sqrt(((2 * (n * rho2 + 1)) / (n * n * rho2)) * Math.log(Math.sqrt(n * rho2 + 1) / alpha));
}

/** The smallest α at which the confidence sequence leaves out 0: the anytime-valid p-value of "θ = 0". */
function anytimeP(mean: number, sigma: number, n: number, planned: number): number {
  if (mean === 0) return 1;
  if (!(sigma > 0)) return 0;
  let lo = -700;
  let hi = Math.log(0.999999);
  if (anytimeRadius(sigma, n, planned, Math.exp(hi)) >= Math.abs(mean)) return 1;
  if (anytimeRadius(sigma, n, planned, Math.exp(lo)) < Math.abs(mean)) return 0;
  for (let k = 0; k < 80; k++) {
    const mid = (lo + hi) / 2;
    if (anytimeRadius(sigma, n, planned, Math.exp(mid)) < Math.abs(mean)) hi = mid;
    else lo = mid;
  }
  return Math.exp(hi);
}

/** θ̂ and both intervals from the terms; `bounds` clip the value and the intervals to what the labels allow. */
export function sequentialEstimate(
  x: Float64Array,
  prior: number,
  planned: number,
  level: number,
  bounds: [number, number] = [-Infinity, Infinity],
): SequentialEstimate {
  const n = x.length;
  const clip = (v: number) => Math.min(bounds[1], Math.max(bounds[0], v));
  if (n === 0) return { value: NaN, anytime: null, fixed: null, se: NaN, p: null, steps: 0 };
  let mean = 0;
  for (const v of x) mean += v;
  mean /= n;
  let ss = 0;
  for (const v of x) ss += (v - mean) ** 2;
  // The prior only widens: a prediction that expects fewer errors than seen does not narrow the interval.
  const sigma = Math.sqrt(Math.max(n > 1 ? ss / (n - 1) : 0, (ss + PRIOR_STEPS * prior) / (n - 1 + PRIOR_STEPS)));
  const se = sigma / Math.sqrt(n);
  const z = twoSidedZ(level);
  const half = anytimeRadius(sigma, n, planned, 1 - level);
  return {
    value: clip(mean),
    anytime: [clip(mean - half), clip(mean + half)],
    fixed: [clip(mean - z * se), clip(mean + z * se)],
    se,
    p: anytimeP(mean, sigma, n, planned),
    steps: n,
  };
}

/** The fixed-size p-value of "θ = 0" (normal), beside the anytime one. */
export const fixedP = (mean: number, se: number): number =>
  se > 0 ? Math.min(1, 2 * normalUpperTail(Math.abs(mean) / se)) : mean === 0 ? 1 : 0;
