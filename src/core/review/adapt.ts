/**
 * The review's draw adapting to the answers: at an epoch's first step, the answers so far refit what the design
 * weighs the questions left by, and the rest of the review is drawn again from them (design.ts, "Epochs").
 *
 * What: the prediction of the human label that the estimate learns (frame.ts: a logistic model of the label on each
 *   row's review signals and its system, each labelled row weighed by 1/π) is fitted on the answers before the
 *   epoch; a group's weight is then √Σ_rows c · max(floor, f(1 − f)) (c: design.ts stratumScale) — the residual the estimate is left with where the
 *   model is unsure, in the form the first draw gives the priority's p(1 − p). So the questions left are asked
 *   where this file's answers say the judge is hard to predict, not where the data the priority was fitted on said.
 * Why it stays unbiased: the weights are fixed before the epoch's first step and the epoch's draws are fresh, so
 *   each step's probability is known given the steps before (design.ts); the floor keeps every group drawable.
 * When: at the estimate's own refits (EPOCH_FIRST, then × 1.5), once the answers allow a fit (MIN_LABELS rows,
 *   MIN_CLASS of each kind); before that the first draw goes on. `verity review --continue` draws again at whatever
 *   step the file was answered to.
 * Why the learned model alone, not blended with the priority: on EVOUNA-TQ (bench/review.ts) a blend kept most of
 *   what a priority that knows nothing of the file gets wrong, while the model alone took back most of it; where the
 *   priority was fitted on the same kind of data, either costs a few percent of width.
 * Limits: one model for every system (its system term shifts each system's level); the weights follow the labels
 *   given, so a label corrected after an epoch began does not change that epoch's draw (which stays valid: the
 *   weights were fixed when it was drawn).
 */
import { predictProba } from '../agreement/logistic.ts';
import { DESIGN_FLOOR, drawKey, groupDraw, readSequence, type AskedEntry, type Sequence } from './design.ts';
import { epochStarts, fitPrediction, predictionFeatures } from './frame.ts';
import type { ReviewPlan } from './plan.ts';

/** The first `count` questions of the plan's first draw. */
export function firstEntries(plan: ReviewPlan, count: number): AskedEntry[] {
  const { order, weights, draws, total } = plan.design;
  return Array.from(order.subarray(0, Math.min(count, order.length)), (g) => ({
    group: g,
    epoch: 0,
    weight: weights[g]!,
    draw: draws[g]!,
    total,
  }));
}

/** Whether the estimate refits its prediction at step m (0-based): where the draw may adapt too. */
export function isEpochStart(m: number): boolean {
  for (const from of epochStarts(m + 1)) if (from === m) return true;
  return false;
}

/** The asked entries' first `answered` steps as the design reads them (probabilities, and π for weighting fits). */
export function entrySequence(plan: ReviewPlan, entries: readonly AskedEntry[], answered: number): Sequence {
  const seq = readSequence(
    entries.map((e, k) => ({
      order: k + 1,
      epoch: e.epoch,
      total: e.total,
      weight: e.weight,
      draw: e.draw,
      answered: k < answered,
      first: plan.heads[e.group]!,
    })),
    { seed: plan.design.seed, total: plan.design.total, input: null },
  );
  if (!seq.ok) throw new Error(`a review's own draw does not read back: ${seq.error}`);
  return seq.value;
}

/**
 * The groups' weights refitted on the answers to the first `answered` entries (`label(row)`: 1 right, 0 wrong, −1
 * none), or null when they are too few to fit.
 */
export function adaptedWeights(
  plan: ReviewPlan,
  entries: readonly AskedEntry[],
  answered: number,
  label: (row: number) => number,
  floor = DESIGN_FLOOR,
): Float64Array | null {
  const seq = entrySequence(plan, entries, answered);
  const x = (i: number) => predictionFeatures(plan.signals[i]!, plan.systemOf[i]!, plan.systems);
  const rows: Float64Array[] = [];
  const ys: number[] = [];
  const ws: number[] = [];
  for (let t = 0; t < seq.answered; t++)
    for (const i of plan.groups[entries[t]!.group]!) {
      const y = label(i);
      if (y < 0) continue;
      rows.push(x(i));
      ys.push(y);
      ws.push(1 / seq.pi[t]!);
    }
  const model = fitPrediction(rows, ys, ws);
  if (!model) return null;
  return Float64Array.from(plan.groups, (members) => {
    let s = 0;
    for (const i of members) {
      const f = predictProba(model, x(i));
      s += Math.max(floor, f * (1 - f)) * plan.scale[i]!;
    }
    return Math.sqrt(s);
  });
}

/**
 * The review drawn again from step `kept` on: the first `kept` entries stay, the groups not among them are ordered
 * by fresh draws of epoch `epoch` under `weights`, up to `count` entries in all.
 */
export function redraw(
  plan: ReviewPlan,
  entries: readonly AskedEntry[],
  kept: number,
  weights: Float64Array,
  epoch: number,
  count: number,
): AskedEntry[] {
  const head = entries.slice(0, kept);
  const drawn = new Uint8Array(plan.groups.length);
  for (const e of head) drawn[e.group] = 1;
  const left: number[] = [];
  let total = 0;
  for (let g = 0; g < plan.groups.length; g++)
    if (!drawn[g] && !plan.known[g]) {
      left.push(g);
      total += weights[g]!;
    }
  const draws = new Float64Array(plan.groups.length);
  const keys = new Float64Array(plan.groups.length);
  for (const g of left) {
    draws[g] = groupDraw(plan.design.seed, plan.input, plan.heads[g]!.system, plan.heads[g]!.id, epoch);
    keys[g] = drawKey(draws[g]!, weights[g]!);
  }
  left.sort((a, b) => keys[a]! - keys[b]! || a - b);
  const tail = left.slice(0, Math.max(0, count - kept)).map((g) => ({ group: g, epoch, weight: weights[g]!, draw: draws[g]!, total }));
  return [...head, ...tail];
}

/**
 * At step `answered` of `entries` (every step before it answered): the review drawn again when the estimate refits
 * there, no epoch begins there yet (one draw per step, though the step be reached again after an undo) and the
 * answers allow a fit; else null.
 */
export function adaptAt(
  plan: ReviewPlan,
  entries: readonly AskedEntry[],
  answered: number,
  label: (row: number) => number,
): AskedEntry[] | null {
  if (!isEpochStart(answered) || answered >= entries.length) return null;
  if (entries[answered]!.epoch !== entries[answered - 1]!.epoch) return null;
  const weights = adaptedWeights(plan, entries, answered, label);
  if (!weights) return null;
  const epoch = Math.max(...entries.map((e) => e.epoch)) + 1;
  return redraw(plan, entries, answered, weights, epoch, entries.length);
}
