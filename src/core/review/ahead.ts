/**
 * What more answers would buy, read from a review drawn step by step so far: the half-width a target's interval
 * (a system's accuracy, a pair's difference) will have after m answers, and how many answers would order a pair of
 * systems whose difference is still open.
 *
 * What: after n answers the target's terms (sequential.ts) have weighted spread s² = Σ ν² (X − X̄)² / (n − 1), and
 *   its variance V is the larger of s² n and the spread with the judge's prior pseudo-steps, (s² (n − 1) + k σ₀²)
 *   n / (n − 1 + k). Taking s², σ₀² and the mean weight as they stand, after m answers
 *     V_m = max(s² m, (s² (m − 1) + k σ₀²) m / (m − 1 + k)),  half-width = anytimeBound(V_m, m, planned, α) / (m ν̄)
 *   — the same bound the review's intervals use, the prior's weight fading as it will. A pair with difference Δ̂ is
 *   ordered once the half-width falls below |Δ̂|: the fewest such m is the answers it needs, if Δ̂ and s² hold.
 * Checked: in simulation (ahead.test.ts) the widths projected from the first 90 answers against those reached at
 *   180–360 answers, on average over seeds, within 25%.
 * Limits: a projection, not a promise — Δ̂ and s² move as answers come (a learned prediction shrinks s²); a pair whose
 *   difference is near 0 needs more answers than any file holds (null).
 */
import { censusIn, type ReviewFrame } from './estimate.ts';
import { anytimeBound, terms, type Target } from './sequential.ts';

/** The projected half-width as a function of the answers m, from the review so far; null without a step-by-step review or a step of the target. */
export function halfWidthAhead(fr: ReviewFrame, target: Target, level: number): ((m: number) => number) | null {
  const seq = fr.seq;
  if (!seq) return null;
  const { x, nu, prior, priorSteps, touched } = terms(seq, fr.y, censusIn(fr, seq), target);
  const n = x.length;
  if (n < 2 || touched === 0) return null;
  let W = 0;
  let mean = 0;
  for (let t = 0; t < n; t++) {
    W += nu[t]!;
    mean += nu[t]! * x[t]!;
  }
  mean /= W;
  let ss = 0;
  for (let t = 0; t < n; t++) ss += (nu[t]! * (x[t]! - mean)) ** 2;
  const s2 = ss / (n - 1);
  const k = priorSteps;
  return (m) => {
    const V = Math.max(s2 * m, ((s2 * (m - 1) + k * prior) * m) / (m - 1 + k));
    return anytimeBound(V, m, seq.planned, 1 - level) / ((m * W) / n);
  };
}

/** The fewest answers m in (n, limit] at which the projected half-width is below |diff|; null when none is. */
export function answersToOrder(half: (m: number) => number, diff: number, n: number, limit: number): number | null {
  const gap = Math.abs(diff);
  if (!(gap > 0) || !(half(limit) < gap)) return null;
  let lo = n;
  let hi = limit;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (half(mid) < gap) hi = mid;
    else lo = mid;
  }
  return hi;
}
