/**
 * The review's sampling design: which answer groups a person is asked about, in which order, and with what
 * probability each was drawn at its step — what makes the reviewed estimate (estimate.ts) unbiased at every step
 * and its confidence sequence valid wherever the person stops.
 *
 * What: successive sampling (sequential probability-proportional-to-size sampling without replacement). At step t
 *   the group g is drawn from those not drawn yet with probability q_t(g) = w_g / W_t, W_t the weight of the groups
 *   left; q_t is fixed given the steps before it, which is what a martingale estimate needs (Des Raj 1956;
 *   estimate.ts). It is drawn as an order sampling with exponential keys: group g has a uniform draw u_g and key
 *   −ln(u_g) / w_g, and groups are asked in ascending key. The minimum of independent exponential clocks is g with
 *   probability w_g / Σ w, and by their lack of memory the clocks left are again independent exponentials, so the
 *   order is exactly that sequence (Rosén, "On sampling with probability proportional to size", 1997).
 * Draws: u_g is a hash of the seed, the input's SHA-256, the group's first row (system and id) and the epoch, so
 *   a label file can recompute every line's draw: a line edited, moved to other rows or taken from another review
 *   does not pass (readSequence).
 * Epochs: the draw adapts to the answers (adapt.ts). At an epoch's first step the groups not asked yet get new
 *   weights, fitted on the answers before it, and fresh draws (the epoch is in the hash); within the epoch they are
 *   asked in ascending key again. Fresh draws are independent of everything before, so at each step of epoch e the
 *   group drawn is g with probability w_e(g) / W_e,t, W_e,t the epoch's weights of the groups left — fixed given
 *   the steps before, as the estimate needs. Each line records its epoch, its weight there and the epoch's total.
 * Weights: w_g = √(Σ_{rows of g} c_i max(floor, p_i (1 − p_i))), p_i the priority's probability that the judge is
 *   wrong on row i (priority.ts), c_i how much a row counts in its stratum's accuracy (stratumScale: 1 when the
 *   systems, or the systems' parts in each split, are the same size): the step's variance is Σ_g E[R_g²] / q(g), smallest for q(g) ∝ √E[R_g²]; what is
 *   left of a row's error once the prediction has learned what the priority knows is p(1 − p). The floor keeps
 *   every group's probability above zero, so no row is left out by design.
 * Limits: the person answers in the given order; a line not answered ends the part that counts (answers after it
 *   wait). Lines missing from the end of a file are a review stopped earlier; a line missing before others is
 *   refused (which lines are missing is said), since the steps after it are not known to be the design's.
 */
import { fail, ok, type Result } from '../errors.ts';

/** The lowest uncertainty a row counts with in the weights (bench/review.ts). */
export const DESIGN_FLOOR = 0.02;

/**
 * Each group's weight from its rows' priorities; `scale` (per row) weighs a row's term by how much one row counts in
 * its stratum's accuracy (stratumScale).
 */
export function designWeights(
  groups: readonly (readonly number[])[],
  priority: ArrayLike<number>,
  floor = DESIGN_FLOOR,
  scale?: ArrayLike<number>,
): Float64Array {
  return Float64Array.from(groups, (rows) => {
    let s = 0;
    for (const i of rows) {
      const p = Math.min(1, Math.max(0, priority[i]!));
      s += Math.max(floor, p * (1 - p)) * (scale ? scale[i]! : 1);
    }
    return Math.sqrt(s);
  });
}

/**
 * Per row, (N̄ / N_s)², N_s the rows of its stratum and N̄ their mean. A stratum is a system, or a system's part of
 * one split when the review is split (its accuracy is then the mean over splits, every split weighing alike): a row
 * of a smaller stratum counts more in its estimate, so the sum of the strata's variances, Σ_s Σ_g E[R_gs²] / (N_s² q_g),
 * is smallest for q_g ∝ √(Σ_rows scale · E[R²]) — each estimate served as its size needs (1 for every row when the
 * strata are the same size, or there is one). Rows outside every stratum (−1) count as one stratum.
 */
export function stratumScale(stratumOf: ArrayLike<number>, strata: number): Float64Array {
  const n = new Float64Array(Math.max(1, strata));
  for (let i = 0; i < stratumOf.length; i++) n[Math.max(0, stratumOf[i]!)]!++;
  let used = 0;
  let sum = 0;
  for (const x of n)
    if (x > 0) {
      used++;
      sum += x;
    }
  const mean = sum / Math.max(1, used);
  return Float64Array.from(stratumOf, (s) => (mean / n[Math.max(0, s)]!) ** 2);
}

/** 53 bits of a string (cyrb53, public domain): what a draw is made from. */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** A group's uniform draw in (0, 1) from the seed, the input's hash, its first row and the epoch (0: the first). */
export function groupDraw(seed: number, input: string, system: string | undefined, id: string, epoch = 0): number {
  const tail = epoch > 0 ? `\u0000e${epoch}` : '';
  return (hash53(`${seed}\u0000${input}\u0000${system ?? ''}\u0000${id}${tail}`) + 1) / (2 ** 53 + 2);
}

/** A group's key in the order: ascending keys are the successive sample. */
export const drawKey = (draw: number, weight: number): number => -Math.log(draw) / weight;

export interface DrawnDesign {
  seed: number;
  weights: Float64Array;
  /** The sum of every group's weight (W_1). */
  total: number;
  /** Each group's uniform draw in (0, 1). */
  draws: Float64Array;
  /** Group indices in the order they are asked (ascending key). */
  order: Int32Array;
}

/**
 * Draws the order for `weights` (every weight > 0) and the groups' draws. Groups `known` (a label remembered from an
 * earlier review: a census stratum, π = 1) are left out of the draw: not in the order, not in the total.
 */
export function drawDesign(weights: Float64Array, draws: Float64Array, seed: number, known?: Uint8Array): DrawnDesign {
  const keys = Float64Array.from(weights, (w, g) => drawKey(draws[g]!, w));
  const order = Int32Array.from(weights, (_, g) => g)
    .filter((g) => !known?.[g])
    .sort((a, b) => keys[a]! - keys[b]! || a - b);
  let total = 0;
  for (const g of order) total += weights[g]!;
  return { seed, weights, total, draws, order };
}

/** Each step's probability q_t = w / W_t for the first `n` groups of the order. */
export function stepProbabilities(weights: ArrayLike<number>, total: number): Float64Array {
  const q = new Float64Array(weights.length);
  let left = total;
  for (let t = 0; t < weights.length; t++) {
    const w = weights[t]!;
    // The weights left can fall below the next weight by rounding only: such a step was certain.
    q[t] = left > w ? w / left : 1;
    left -= w;
  }
  return q;
}

/** One asked question: its group, the epoch it was drawn in, its weight there, its draw, and the epoch's total. */
export interface AskedEntry {
  group: number;
  epoch: number;
  weight: number;
  draw: number;
  total: number;
}

/**
 * Each step's probability in a review of several epochs: within an epoch, q_t = w / W_t over the epoch's weight left,
 * starting from the epoch's total (stepProbabilities, epoch by epoch).
 */
export function entryProbabilities(entries: readonly Pick<AskedEntry, 'epoch' | 'weight' | 'total'>[]): Float64Array {
  const q = new Float64Array(entries.length);
  for (let start = 0, end = 0; start < entries.length; start = end) {
    while (end < entries.length && entries[end]!.epoch === entries[start]!.epoch) end++;
    q.set(
      stepProbabilities(
        entries.slice(start, end).map((e) => e.weight),
        entries[start]!.total,
      ),
      start,
    );
  }
  return q;
}

/**
 * One asked line as a label file records it: its place in the order (1-based), its epoch, its weight there, the
 * epoch's total, its draw, first row, answered or not.
 */
export interface AskedGroup {
  order: number;
  /** The epoch it was drawn in (0: the first draw) and the weight of the groups not asked before the epoch began. */
  epoch: number;
  total: number;
  weight: number;
  draw: number;
  answered: boolean;
  /** The group's first row, whose draw the line holds. */
  first: { id: string; system?: string };
}

export interface Sequence {
  /** Per line (the caller's order): its step (0-based) when in the answered prefix, else −1. */
  step: Int32Array;
  /** Per step of the answered prefix: the probability it was drawn with. */
  q: Float64Array;
  /** Per step: about the probability its group is in a sample of the prefix's length (for weighting fits only). */
  pi: Float64Array;
  /** Steps answered in order from the first. */
  answered: number;
  /** Lines the file holds. */
  lines: number;
}

/**
 * The answered prefix of a review's lines, checked against its design: every line's draw is the one the seed, the
 * input, its first row and its epoch give; the orders run 1, 2, 3 … with none missing before the last line held;
 * epochs never go back, the first epoch's total is the design's, and the lines of one epoch share its total; keys
 * rise with the order within an epoch; an epoch's weights fit in its total. A refusal says what is wrong and where.
 */
export function readSequence(
  lines: readonly AskedGroup[],
  d: { seed: number; total: number; input: string | null },
  name = 'the label file',
): Result<Sequence> {
  const byOrder = lines.map((a, k) => ({ a, k })).sort((x, y) => x.a.order - y.a.order);
  const missing: number[] = [];
  let expect = 1;
  for (const { a } of byOrder) {
    for (; expect < a.order && missing.length < 1000; expect++) missing.push(expect);
    expect = a.order + 1;
  }
  if (missing.length) {
    const shown = missing.slice(0, 8).join(', ') + (missing.length > 8 ? `, … (${missing.length} in all)` : '');
    return fail(
      `${name} lacks the review's question${missing.length === 1 ? '' : 's'} ${shown} while holding later ones: put the missing lines back (a line with "label": null is fine), or cut the file after the last line you kept in order`,
    );
  }
  if (d.input !== null)
    for (const { a } of byOrder) {
      const u = groupDraw(d.seed, d.input, a.first.system, a.first.id, a.epoch);
      if (Math.abs(u - a.draw) > 1e-12 * Math.max(1, u))
        return fail(
          `${name}, question ${a.order}: its draw is not the one seed ${d.seed} gives its row (${a.first.system !== undefined ? `${a.first.system}/` : ''}${a.first.id}): the line was edited or comes from another review`,
        );
    }
  const edited = `the lines were edited or come from several reviews`;
  let sum = 0;
  for (let k = 0; k < byOrder.length; k++) {
    const { a } = byOrder[k]!;
    const prev = k > 0 ? byOrder[k - 1]!.a : null;
    if (!prev || prev.epoch !== a.epoch) {
      if (prev && a.epoch < prev.epoch)
        return fail(`${name}, question ${a.order}: its epoch (${a.epoch}) comes before the one of question ${prev.order}: ${edited}`);
      if (!prev && a.epoch !== 0) return fail(`${name}, question 1 is not of the first epoch: ${edited}`);
      if (a.epoch === 0 && Math.abs(a.total - d.total) > 1e-9 * d.total)
        return fail(`${name}, question ${a.order}: its total is not the design's: ${edited}`);
      sum = 0;
    } else {
      if (a.total !== prev.total)
        return fail(`${name}, question ${a.order}: its epoch's total differs from question ${prev.order}'s: ${edited}`);
      if (drawKey(a.draw, a.weight) < drawKey(prev.draw, prev.weight))
        return fail(`${name}, question ${a.order} comes before question ${prev.order} in the design's order: the lines were edited`);
    }
    sum += a.weight;
    if (sum > a.total * (1 + 1e-9)) return fail(`${name}: the questions of epoch ${a.epoch} weigh more than its total: ${edited}`);
  }
  let answered = 0;
  while (answered < byOrder.length && byOrder[answered]!.a.answered) answered++;
  const q = entryProbabilities(byOrder.slice(0, answered).map(({ a }) => a));
  // Each epoch's clock where the answered prefix leaves it: the key of its last answered line.
  const clock = new Map<number, number>();
  for (let t = 0; t < answered; t++) clock.set(byOrder[t]!.a.epoch, drawKey(byOrder[t]!.a.draw, byOrder[t]!.a.weight));
  const step = new Int32Array(lines.length).fill(-1);
  const pi = new Float64Array(answered);
  for (let t = 0; t < answered; t++) {
    const { a, k } = byOrder[t]!;
    step[k] = t;
    // About a group's chance to be drawn in its epoch by the time the prefix leaves it: its clock rang before.
    pi[t] = Math.max(q[t]!, -Math.expm1(-a.weight * clock.get(a.epoch)!));
  }
  return ok({ step, q, pi, answered, lines: lines.length });
}
