/**
 * Reviewed accuracy (issue 36): a system's accuracy counting the human label where a row has one and the judge's
 * decision elsewhere (`value`), and an interval that stays valid for how the rows were picked: around the same
 * count corrected for the judge's error on the rows nobody reviewed (`corrected`).
 *
 * What, over a system's N rows (those with a decision or a label), with d the judge's decision (undecided = 0),
 * h the human label, C the reviewed rows taken as a census (the uncertain queue, or any row labelled outside the
 * random slice) and R the labelled rows of the random slice — a simple random sample of all N rows drawn without
 * looking at C:
 *   θ̂ = ( Σ_{i∈C} h_i + Σ_{i∉C} d_i + N · z̄ ) / N,  z_i = (h_i − d_i)·[i ∉ C] on R,
 * the prediction-powered estimate (Angelopoulos et al. 2023, "Prediction-powered inference", Science 382) with
 * the census rows known exactly: N · z̄ is an unbiased (Horvitz–Thompson) estimate of the judge's net error on the
 * rows outside C, because R is a uniform sample of all rows and C does not depend on R.
 * `value` is the plain count (labels where given, decisions elsewhere): with the queue on the judge's likely errors it
 *   misses only what the queue did not reach, and it does not carry the slice's sampling noise (a handful of random
 *   rows per system moves θ̂ by whole points each); θ̂ is `corrected`, the interval's centre.
 * Interval: θ̂ ± z_{(1+level)/2} · √((1 − r/N) · S² / r), S² the sample variance of z with a floor of p̃(1 − p̃),
 *   p̃ = (k + 2)/(r + 4) for k non-zero z among r (the "plus four" adjustment: a small slice that saw no error does
 *   not claim a zero-width interval) — over every system's slice together when there are several (pooledFloor) —
 *   clipped to what the labels allow (every unreviewed row wrong … right).
 * Without pick information (a label column filled for some rows), every labelled row is taken as the random
 *   slice (C empty): the classic PPI mean, valid when the labelled rows are a random sample — said as `design`.
 * Limits: the random slice must be labelled in its own (random) order, skipping no row for what it shows; with no
 *   labelled random row there is no interval (value only, ci null) unless every row is reviewed.
 */
import { normalUpperTail } from '../compare/normal.ts';

/** Pick bits of a row: in the random slice, in the uncertain queue (both when the two draws met). */
export const PICK_RANDOM = 1;
export const PICK_QUEUE = 2;

export type ReviewDesign = 'queue' | 'assumed-random';

export interface Reviewed {
  /** The accuracy counting the label where a row has one and the decision elsewhere (as the issue defines it). */
  value: number;
  /** The prediction-powered estimate: `value` corrected by the random slice for the rows nobody reviewed (unbiased, noisier). */
  corrected: number;
  /** The prediction-powered interval (around `corrected`); it covers whatever `value` misses on unreviewed rows. */
  ci: [number, number] | null;
  /** Rows with a human label. */
  labelled: number;
  /** Labelled rows of the random slice (the correction's sample), and the judge's errors among them (outside the queue). */
  random: number;
  errors: number;
  /** Rows counted (a decision or a label). */
  rows: number;
  design: ReviewDesign;
}

/** The z with P(−z ≤ Z ≤ z) = level, by bisection on the normal tail (level 0.95 → 1.95996…). */
export function normalQuantile(level: number): number {
  const tail = (1 - level) / 2;
  let lo = 0;
  let hi = 40;
  for (let k = 0; k < 200; k++) {
    const mid = (lo + hi) / 2;
    if (normalUpperTail(mid) > tail) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

const plusFour = (k: number, r: number) => {
  const p = (k + 2) / (r + 4);
  return p * (1 - p);
};

/**
 * The variance floor of several systems' slices: plus four over their errors and rows together. A system's own
 * slice is small (a fifth of its share of the budget); its own variance still counts when larger, so a system the
 * judge fails more often keeps its wider interval.
 */
export function pooledFloor(slices: readonly ({ errors: number; random: number } | null)[]): number {
  let k = 0;
  let r = 0;
  for (const s of slices)
    if (s) {
      k += s.errors;
      r += s.random;
    }
  return plusFour(k, r);
}

/** Each group's reviewed accuracy (a group = a system's cells), the variance floor pooled over the groups. */
export function reviewedByGroup(
  d: ArrayLike<number>,
  h: ArrayLike<number>,
  pick: ArrayLike<number> | null,
  groups: readonly (readonly number[])[],
  level = 0.95,
): (Reviewed | null)[] {
  const floor = pooledFloor(groups.map((cells) => reviewedAccuracy(d, h, pick, cells, level)));
  return groups.map((cells) => reviewedAccuracy(d, h, pick, cells, level, floor));
}

/**
 * The reviewed accuracy over `cells`: d (1 / 0 / −1 undecided), h (1 / 0 / −1 unlabelled) and pick bits per
 * cell; `pick` null when the input says nothing of how rows were picked. Null when no cell counts.
 */
export function reviewedAccuracy(
  d: ArrayLike<number>,
  h: ArrayLike<number>,
  pick: ArrayLike<number> | null,
  cells: Iterable<number>,
  level = 0.95,
  /** The variance floor (default: this slice's plus-four p̃(1 − p̃); see pooledFloor for several systems). */
  floor?: number,
): Reviewed | null {
  let N = 0;
  let labelled = 0;
  let sum = 0; // Σ_C h + Σ_{∉C} d
  let plain = 0; // Σ of labels where given, decisions elsewhere
  let known = 0; // Σ of labels on reviewed rows (the lower bound's numerator)
  let unreviewed = 0;
  const z: number[] = [];
  for (const c of cells) {
    const dc = d[c]!;
    const hc = h[c]!;
    if (dc < 0 && hc < 0) continue;
    N++;
    const dv = dc > 0 ? 1 : 0;
    const bits = pick ? pick[c]! : 0;
    plain += hc < 0 ? dv : hc;
    if (hc < 0) {
      sum += dv;
      unreviewed++;
      continue;
    }
    labelled++;
    known += hc;
    const random = pick ? (bits & PICK_RANDOM) !== 0 : true;
    const census = pick ? (bits & PICK_QUEUE) !== 0 || !random : false;
    sum += census ? hc : dv;
    if (random) z.push(census ? 0 : hc - dv);
  }
  if (N === 0) return null;
  const design: ReviewDesign = pick ? 'queue' : 'assumed-random';
  const r = z.length;
  let nonzero = 0;
  for (const x of z) if (x !== 0) nonzero++;
  const base = { labelled, random: r, errors: nonzero, rows: N, design };
  if (unreviewed === 0) return { value: known / N, corrected: known / N, ci: [known / N, known / N], ...base };
  const lo = known / N;
  const hi = (known + unreviewed) / N;
  const clip = (x: number) => Math.min(hi, Math.max(lo, x));
  if (r === 0) return { value: plain / N, corrected: clip(sum / N), ci: null, ...base };
  let zs = 0;
  for (const x of z) zs += x;
  const mean = zs / r;
  let ss = 0;
  for (const x of z) ss += (x - mean) ** 2;
  const s2 = Math.max(r > 1 ? ss / (r - 1) : 0, floor ?? plusFour(nonzero, r));
  const se = Math.sqrt(Math.max(0, 1 - r / N) * (s2 / r));
  const corrected = clip(sum / N + mean);
  const half = normalQuantile(level) * se;
  return { value: plain / N, corrected, ci: [clip(corrected - half), clip(corrected + half)], ...base };
}
