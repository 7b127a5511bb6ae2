/**
 * The review's sampling design: which answer groups a person is asked about, in which order, and with what
 * probability each was included — what makes the reviewed estimate (estimate.ts) unbiased however the groups were
 * chosen, and valid wherever the person stops.
 *
 * What: priority sampling (Duffield, Lund & Thorup, "Priority sampling for estimation of arbitrary subset sums",
 *   J. ACM 54(6), 2007), also known as sequential Poisson / order sampling. Group g has a weight w_g > 0 and a
 *   uniform draw u_g (seeded); groups are asked in ascending order of the key u_g / w_g. After the first k answers,
 *   with c the key of the (k+1)-th group (∞ when every group was asked), group g's inclusion probability is
 *   π_g = min(1, w_g · c). The Horvitz–Thompson estimate Σ_{asked} y_g / π_g of any total Σ y_g is then exactly
 *   unbiased, the terms are uncorrelated, and Σ_{asked} y_g² (1 − π_g) / π_g² estimates its variance without bias —
 *   for every k, so a review stopped at any point is itself a design with known probabilities.
 * Weights: w_g = √(Σ_{rows of g} max(floor, p_i (1 − p_i))), p_i the priority's probability that the judge is
 *   wrong on row i (priority.ts). The estimate's variance is Σ (1 − π)/π · E[(y − f)²] summed over the systems, and
 *   the rows of a group share one label, so π_g ∝ √(Σ_g E[(y − f)²]) minimises it (Neyman allocation); the
 *   prediction f learns what the priority knows (frame.ts), so what is left of a row's error is the priority's
 *   uncertainty p(1 − p) rather than p — on EVOUNA-TQ with one gold, where the judge is wrong on 40% of rows and
 *   the priority knows most of them, that gave τ 0.88 instead of 0.82 at 15% reviewed (bench/review.ts). The floor
 *   keeps every group's probability above zero, so no row is left out by design.
 * Limits: the person must answer in the given order; a group skipped breaks the prefix there (answers after it
 *   wait until it is answered). Stopping may depend on what the answers show (the "you can stop now" line): the
 *   guarantee is exact for a stop decided in advance and close to it otherwise.
 */
import { mulberry32 } from '../util/random.ts';

/** The lowest uncertainty a row counts with in the weights (bench/review.ts). */
export const DESIGN_FLOOR = 0.02;

/** Each group's weight from its rows' priorities. */
export function designWeights(groups: readonly (readonly number[])[], priority: ArrayLike<number>, floor = DESIGN_FLOOR): Float64Array {
  return Float64Array.from(groups, (rows) => {
    let s = 0;
    for (const i of rows) {
      const p = Math.min(1, Math.max(0, priority[i]!));
      s += Math.max(floor, p * (1 - p));
    }
    return Math.sqrt(s);
  });
}

export interface DrawnDesign {
  seed: number;
  weights: Float64Array;
  /** Each group's uniform draw in (0, 1). */
  draws: Float64Array;
  /** Group indices in the order they are asked (ascending draw / weight). */
  order: Int32Array;
}

/** Draws the order for `weights` (every weight > 0), deterministic for a seed. */
export function drawDesign(weights: Float64Array, seed: number): DrawnDesign {
  const rnd = mulberry32(seed);
  // mulberry32 can return 0; a draw of 0 would put a group first whatever its weight.
  const draws = Float64Array.from(weights, () => (Math.floor(rnd() * 4294967295) + 1) / 4294967297);
  const keys = Float64Array.from(weights, (w, g) => draws[g]! / w);
  const order = Int32Array.from(weights, (_, g) => g).sort((a, b) => keys[a]! - keys[b]! || a - b);
  return { seed, weights, draws, order };
}

/** One asked group as a label file records it: its place in the order (1-based), weight and draw, and whether it is answered. */
export interface AskedGroup {
  order: number;
  weight: number;
  draw: number;
  answered: boolean;
}

/**
 * Inclusion probabilities of the answered prefix: `asked` are the groups asked so far or to ask (the first ones in
 * the design's order), `cutoff` the key of the first group not asked (∞ when every group was). Returns π for each
 * asked group in the prefix (NaN for those after the first unanswered one) and the prefix's length.
 */
export function prefixInclusion(asked: readonly AskedGroup[], cutoff: number): { pi: Float64Array; answered: number } {
  const byOrder = asked.map((a, k) => ({ a, k })).sort((x, y) => x.a.order - y.a.order);
  let k = 0;
  // A gap in the order (a line taken out of the file) ends the prefix as an unanswered group does.
  while (k < byOrder.length && byOrder[k]!.a.answered && byOrder[k]!.a.order === k + 1) k++;
  const c = k < byOrder.length ? byOrder[k]!.a.draw / byOrder[k]!.a.weight : cutoff;
  const pi = new Float64Array(asked.length).fill(NaN);
  for (let j = 0; j < k; j++) {
    const { a, k: at } = byOrder[j]!;
    pi[at] = Math.min(1, a.weight * c);
  }
  return { pi, answered: k };
}

/** The key of the group after the first `asked` ones (∞ when there is none): the cutoff of a file of `asked` groups. */
export function cutoffAfter(d: DrawnDesign, asked: number): number {
  if (asked >= d.order.length) return Infinity;
  const g = d.order[asked]!;
  return d.draws[g]! / d.weights[g]!;
}
