/**
 * A simulated review for the tests of the review's estimates: a population of systems whose judge errs unevenly, a
 * priority that knows roughly where, answers shared between systems; a review drawn by the design (design.ts),
 * answered in order, and read at any point a person may stop.
 */
import { mulberry32 } from '../src/core/util/random.ts';
import { DESIGN_FLOOR, designWeights, drawDesign, entryProbabilities, stepProbabilities } from '../src/core/review/design.ts';
import { reviewFrame } from '../src/core/review/frame.ts';
import { adaptAt, firstEntries } from '../src/core/review/adapt.ts';
import type { ReviewPlan } from '../src/core/review/plan.ts';
import type { ReviewFrame } from '../src/core/review/estimate.ts';
import type { ReviewSequence } from '../src/core/review/sequential.ts';

export const S = 6;
export const Q = 300;
export const ROWS = S * Q;

/**
 * Systems of accuracy 0.55–0.85; the judge under-credits some (a correct answer judged wrong with probability
 * up to 0.3) and over-credits a little; the priority (a probability the judge is wrong) is high on 70% of its
 * errors and on 8% of its right calls. Systems 0–2 give the same answer to a quarter of the questions (one group).
 */
export function population(seed: number) {
  const rnd = mulberry32(seed);
  const acc = [0.85, 0.8, 0.75, 0.7, 0.62, 0.55];
  const under = [0.02, 0.3, 0.1, 0.05, 0.2, 0.08];
  const y = new Int8Array(ROWS);
  const d = new Int8Array(ROWS);
  const prio = new Float64Array(ROWS);
  const group = new Int32Array(ROWS);
  const signals: Float64Array[] = [];
  for (let q = 0; q < Q; q++)
    for (let s = 0; s < S; s++) {
      const c = s * Q + q;
      group[c] = c;
      if (s > 0 && s < 3 && q % 4 === 0) {
        // The same answer as system 0: one group, one label.
        y[c] = y[q]!;
        d[c] = d[q]!;
        prio[c] = prio[q]!;
        group[c] = group[q]!;
      } else {
        y[c] = rnd() < acc[s]! ? 1 : 0;
        const wrong = y[c] === 1 ? rnd() < under[s]! : rnd() < 0.04;
        d[c] = wrong ? 1 - y[c]! : y[c]!;
        prio[c] = wrong ? (rnd() < 0.7 ? 0.55 + 0.3 * rnd() : 0.02 + 0.1 * rnd()) : rnd() < 0.08 ? 0.3 + 0.3 * rnd() : 0.01 + 0.08 * rnd();
      }
      signals[c] = Float64Array.of(d[c]!, prio[c]!);
    }
  const groups = new Map<number, number[]>();
  group.forEach((g, c) => groups.set(g, [...(groups.get(g) ?? []), c]));
  const list = [...groups.values()];
  const groupOf = new Int32Array(ROWS);
  list.forEach((cs, g) => cs.forEach((c) => (groupOf[c] = g)));
  const truth = Array.from({ length: S }, (_, s) => {
    let n = 0;
    for (let q = 0; q < Q; q++) n += y[s * Q + q]!;
    return n / Q;
  });
  return { y, d, prio, group, groupOf, signals, list, truth, weights: designWeights(list, prio) };
}

export type Pop = ReturnType<typeof population>;

/** One seed's first draw (epoch 0), what a plan holds before any answer. */
export function firstDraw(pop: Pop, seed: number, scale?: Float64Array) {
  const rnd = mulberry32(seed * 7919 + 1);
  const draws = Float64Array.from(pop.list, () => (Math.floor(rnd() * 4294967295) + 1) / 4294967297);
  const weights = scale ? designWeights(pop.list, pop.prio, DESIGN_FLOOR, scale) : pop.weights;
  return { weights, design: drawDesign(weights, draws, seed) };
}

/**
 * The steps of one seed's review of `max` questions: the first draw's order, or (adapting) the order drawn again at
 * each refit from the answers before it (adapt.ts), as the app draws it.
 */
function drawnSteps(
  pop: Pop,
  seed: number,
  max: number,
  adapt: boolean,
  scale?: Float64Array,
): { order: ArrayLike<number>; q: Float64Array } {
  const { weights, design } = firstDraw(pop, seed, scale);
  if (!adapt) {
    const order = design.order.subarray(0, max);
    return {
      order,
      q: stepProbabilities(
        Array.from(order, (g) => weights[g]!),
        design.total,
      ),
    };
  }
  const plan = {
    judge: { metric: 'j', threshold: 0.5 },
    groups: pop.list,
    groupOf: pop.groupOf,
    priority: pop.prio,
    signals: pop.signals,
    design,
    heads: pop.list.map((_, g) => ({ id: String(g) })),
    input: 'sim',
    systemOf: Int32Array.from({ length: ROWS }, (_, c) => Math.floor(c / Q)),
    systems: S,
    scale: scale ?? new Float64Array(ROWS).fill(1),
    known: new Uint8Array(pop.list.length),
    knownRows: 0,
  } satisfies ReviewPlan;
  let entries = firstEntries(plan, max);
  for (let m = 1; m < max; m++) entries = adaptAt(plan, entries, m, (c) => pop.y[c]!) ?? entries;
  if (!entries.some((e) => e.epoch > 0)) throw new Error('the simulated review never adapted');
  return { order: entries.map((e) => e.group), q: entryProbabilities(entries) };
}

/**
 * The review of one seed, answered up to `max` questions, read as if the person had stopped after `n`; `earlier`:
 * verdicts from before the review per cell (NaN none), the rows' prediction (frame.ts).
 */
export function reviewOf(pop: Pop, seed: number, max: number, learn: boolean, adapt = false, scale?: Float64Array, earlier?: Float64Array) {
  const { order, q } = drawnSteps(pop, seed, max, adapt, scale);
  const stepOf = new Int32Array(ROWS).fill(-1);
  Array.from(order).forEach((g, t) => {
    for (const c of pop.list[g]!) stepOf[c] = t;
  });
  const y = Int8Array.from(pop.y, (v, c) => (stepOf[c]! >= 0 ? v : -1));
  const full = reviewFrame({
    S,
    Q,
    decision: pop.d,
    signals: pop.signals,
    y,
    sample: { pi: Float64Array.from(stepOf, (t) => (t >= 0 ? 0.5 : NaN)), unit: stepOf, steps: { stepOf, q, planned: max } },
    group: pop.group,
    learn,
    priority: pop.prio,
    ...(earlier ? { earlier } : {}),
  });
  /** The frame of a review stopped after n steps: later steps' labels unknown, epochs fitted later dropped. */
  return (n: number): ReviewFrame => {
    const seq = full.seq!;
    const cut: ReviewSequence = {
      ...seq,
      q: seq.q.subarray(0, n),
      stepOf: Int32Array.from(seq.stepOf, (t) => (t < n ? t : -1)),
      epochs: seq.epochs.filter((e) => e.from < n),
    };
    return { ...full, y: Int8Array.from(pop.y, (v, c) => (cut.stepOf[c]! >= 0 ? v : -1)), seq: cut };
  };
}

export const cells = (s: number) => Array.from({ length: Q }, (_, q) => s * Q + q);
/** Stopping points: 15 from 5% to 20% of the rows' worth of questions. */
export const STOPS = Array.from({ length: 15 }, (_, k) => Math.round(ROWS * (0.05 + (0.15 * k) / 14)));
export const inside = (ci: [number, number] | null | undefined, x: number) => !!ci && ci[0] <= x + 1e-12 && x <= ci[1] + 1e-12;
