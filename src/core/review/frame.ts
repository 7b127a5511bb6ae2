/**
 * What the reviewed estimate (estimate.ts) reads, built from a comparison's cells: the sample (inclusion
 * probabilities of the reviewed rows, or every labelled row taken as drawn at random when the labels say nothing
 * of a design) and a prediction of each row's correctness.
 *
 * The prediction learns from the answers (the judge adapts to this file): with enough labels, a logistic model
 * of the human label on what is known of every row — the reference judge's decision, score and margin, the other
 * metrics' decisions, how many systems gave the same answer to the question (an answer many systems give and the
 * judge rejects is often right and missing from the golds), and the row's system (the judge under- or
 * over-credits whole systems) — fitted on the reviewed rows, each weighted by 1/π so it fits the file and not the
 * review's choice of rows. Cross-fitted: rows are split into FOLDS by answer group, and each fold is predicted by
 * a model fitted on the other folds' labels, so no row's prediction has seen its own label — which keeps the
 * estimate unbiased whatever the model learns. With few labels (fewer than MIN_LABELS, or fewer than MIN_CLASS
 * of either kind) the prediction is the judge's decision.
 *
 * A review drawn step by step (design.ts) is predicted instead by epochs: the prediction and λ used from step m on
 * are fitted on the labels of the steps before m only (m = EPOCH_FIRST, then × 1.5), so each is fixed before the
 * steps it predicts — what the martingale estimate (sequential.ts) needs, at every point the person may stop.
 * There a group's rows share one prediction (their mean), so two systems that gave one answer cancel in a
 * difference, as their one label does.
 */
import { predictProba, trainLogistic, type LogisticModel } from '../agreement/logistic.ts';
import type { ReviewDesignKind, ReviewFrame } from './estimate.ts';
import { POWER_TUNING_MIN } from './estimate.ts';
import { reviewPriorities } from './priority.ts';
import { SIGNALS } from './signals.ts';
import type { ReviewSequence } from './sequential.ts';

export const FOLDS = 5;
export const MIN_LABELS = 40;
export const MIN_CLASS = 8;
/** L2 strength of the prediction model (sklearn C = 1/(W · L2)). */
export const L2 = 0.01;
/** The first step a sequential review's prediction is refitted at; then at 1.5 times the steps each time. */
export const EPOCH_FIRST = 20;

export interface FrameInput {
  S: number;
  Q: number;
  /** The reference judge's decision per cell (1 / 0, −1 none). */
  decision: ArrayLike<number>;
  /** Each cell's review signals (signals.ts), undefined for a cell without a row. */
  signals: readonly (ArrayLike<number> | undefined)[];
  /** Human label per cell (1 / 0, −1 none). */
  y: ArrayLike<number>;
  /** The design's sample, or null when the labels say nothing of one; `steps` for a review drawn step by step. */
  sample: { pi: Float64Array; unit: Int32Array; steps?: { stepOf: Int32Array; q: Float64Array; planned: number } | null } | null;
  /** Answer group per cell (−1 none), or null. */
  group: Int32Array | null;
  /** Learn the prediction from the labels (default true). */
  learn?: boolean;
  /** Per cell: the probability the judge is wrong before any label (default: the review priority of the signals). */
  priority?: ArrayLike<number>;
  /**
   * Per cell: a verdict given before the review (1 / 0; NaN none) — the row's prediction whatever the judge or the
   * model says. Fixed before the review, it keeps every estimate unbiased and every interval valid (any fixed
   * prediction does); where it is right it leaves nothing for the review to correct. Not a label: the review was not
   * drawn beside it, so counting it as known (π = 1) would bias the estimate.
   */
  earlier?: ArrayLike<number>;
}

/** The prediction with the earlier verdicts in (a copy), or as it is without any. */
function withEarlier(f: Float64Array, inp: FrameInput): Float64Array {
  const e = inp.earlier;
  if (!e) return f;
  const out = Float64Array.from(f);
  for (let c = 0; c < out.length; c++) if (!Number.isNaN(e[c]!) && !Number.isNaN(out[c]!)) out[c] = e[c]!;
  return out;
}

const counted = (inp: FrameInput, c: number) => inp.decision[c]! >= 0 || inp.y[c]! >= 0;

/** The sample: the design's, or every labelled row of a system drawn at random from its rows. */
function sampleOf(inp: FrameInput): { pi: Float64Array; unit: Int32Array; kind: ReviewDesignKind } {
  if (inp.sample) return { pi: inp.sample.pi, unit: inp.sample.unit, kind: 'designed' };
  const { S, Q } = inp;
  const pi = new Float64Array(S * Q).fill(NaN);
  const unit = new Int32Array(S * Q).fill(-1);
  for (let s = 0; s < S; s++) {
    let n = 0;
    let r = 0;
    for (let q = 0; q < Q; q++) {
      const c = s * Q + q;
      if (!counted(inp, c)) continue;
      n++;
      if (inp.y[c]! >= 0) r++;
    }
    for (let q = 0; q < Q; q++) {
      const c = s * Q + q;
      if (counted(inp, c) && inp.y[c]! >= 0) {
        pi[c] = r / n;
        unit[c] = c;
      }
    }
  }
  return { pi, unit, kind: 'assumed-random' };
}

/** A row's features for the prediction: its signals, then its system one-hot among S (none set for −1). */
export function predictionFeatures(signals: ArrayLike<number>, system: number, S: number): Float64Array {
  const v = new Float64Array(signals.length + S);
  v.set(Array.from(signals));
  if (system >= 0) v[signals.length + system] = 1;
  return v;
}

/** The prediction model on these labelled rows (each weighed), or null when too few to fit (MIN_LABELS, MIN_CLASS). */
export function fitPrediction(rows: Float64Array[], ys: readonly number[], weights: readonly number[]): LogisticModel | null {
  const pos = ys.reduce((a, b) => a + b, 0);
  if (ys.length < MIN_LABELS || pos < MIN_CLASS || ys.length - pos < MIN_CLASS) return null;
  return trainLogistic(rows, ys, { l2: L2, sampleWeights: weights });
}

/** The steps (0-based) below `limit` where a sequential review's prediction is refitted: EPOCH_FIRST, then × 1.5. */
export function* epochStarts(limit: number): Generator<number> {
  for (let from = EPOCH_FIRST; from < limit; from = Math.ceil(from * 1.5)) yield from;
}

/** Each cell's features for the prediction: its signals, then its system (one-hot); and its fold. */
function features(inp: FrameInput): { x: Float64Array[]; fold: Int32Array } {
  const { S, Q } = inp;
  const x: Float64Array[] = new Array(S * Q);
  const fold = new Int32Array(S * Q);
  for (let s = 0; s < S; s++)
    for (let q = 0; q < Q; q++) {
      const c = s * Q + q;
      const sig = inp.signals[c];
      if (!counted(inp, c) || !sig) continue;
      x[c] = predictionFeatures(sig, s, S);
      // Folds by answer group (by question without groups), so one label never sits on both sides of a fit.
      const g = inp.group?.[c] ?? -1;
      fold[c] = (Math.imul((g >= 0 ? g : q) + 1, 0x9e3779b1) >>> 0) % FOLDS;
    }
  return { x, fold };
}

/** The frame: the sample and each row's prediction (learned, cross-fitted, when the labels allow). */
export function reviewFrame(inp: FrameInput): ReviewFrame & { learned: boolean } {
  const { S, Q } = inp;
  const { pi, unit, kind } = sampleOf(inp);
  const f = new Float64Array(S * Q).fill(NaN);
  for (let c = 0; c < S * Q; c++) if (counted(inp, c)) f[c] = inp.decision[c]! > 0 ? 1 : 0;
  const steps = inp.sample?.steps;
  if (steps) return sequenceFrame(inp, steps, f, pi, unit);
  const frame = { S, Q, f, y: inp.y, pi, unit, group: inp.group, kind, seq: null };
  let labels = 0;
  let right = 0;
  for (let c = 0; c < S * Q; c++)
    if (counted(inp, c) && inp.y[c]! >= 0) {
      labels++;
      right += inp.y[c]!;
    }
  if (inp.learn === false || labels < MIN_LABELS || right < MIN_CLASS || labels - right < MIN_CLASS)
    return { ...frame, f: withEarlier(f, inp), hard: true, learned: false };
  const { x, fold } = features(inp);
  const learned = new Float64Array(S * Q).fill(NaN);
  for (let k = 0; k < FOLDS; k++) {
    const rows: Float64Array[] = [];
    const ys: number[] = [];
    const ws: number[] = [];
    for (let c = 0; c < S * Q; c++) {
      if (!x[c] || fold[c] === k || inp.y[c]! < 0) continue;
      rows.push(x[c]!);
      ys.push(inp.y[c]!);
      // A reviewed row stands for 1/π rows of the file; a label outside the design for itself.
      ws.push(Number.isNaN(pi[c]!) ? 1 : 1 / pi[c]!);
    }
    const pos = ys.reduce((a, b) => a + b, 0);
    // A fold whose complement lacks a class keeps the judge's decisions.
    if (pos < 2 || ys.length - pos < 2) continue;
    const model = trainLogistic(rows, ys, { l2: L2, sampleWeights: ws });
    for (let c = 0; c < S * Q; c++) if (x[c] && fold[c] === k) learned[c] = predictProba(model, x[c]!);
  }
  for (let c = 0; c < S * Q; c++) if (!Number.isNaN(learned[c]!)) f[c] = learned[c]!;
  return { ...frame, f: withEarlier(f, inp), hard: false, learned: true };
}

/** Each cell's prediction averaged over its answer group (cells of one group share one label). */
function groupMean(f: Float64Array, group: Int32Array | null): Float64Array {
  if (!group) return f;
  const sum = new Map<number, [number, number]>();
  for (let c = 0; c < f.length; c++) {
    const g = group[c]!;
    if (g < 0 || Number.isNaN(f[c]!)) continue;
    const e = sum.get(g);
    if (e) {
      e[0] += f[c]!;
      e[1]++;
    } else sum.set(g, [f[c]!, 1]);
  }
  return Float64Array.from(f, (x, c) => {
    const e = group[c]! >= 0 ? sum.get(group[c]!) : undefined;
    return e && e[1] > 1 && !Number.isNaN(x) ? e[0] / e[1] : x;
  });
}

/**
 * λ from the steps before `from`, over every system at once (one λ keeps a pair's difference the difference of
 * the two systems' estimates): λ = Σ_{j,s} Y F / q_j² / Σ_{j,s} F² / q_j², the weight that makes the steps'
 * terms R / q smallest, clipped to [0, 1]; 1 with fewer than POWER_TUNING_MIN steps.
 */
function stepLambda(
  inp: FrameInput,
  steps: { stepOf: Int32Array; q: Float64Array },
  f: Float64Array,
  from: number,
  isKnown: (c: number) => boolean,
): number {
  if (from < POWER_TUNING_MIN) return 1;
  const { S, Q } = inp;
  const yf = new Map<number, [number, number]>();
  for (let c = 0; c < S * Q; c++) {
    const t = steps.stepOf[c]!;
    if (t < 0 || t >= from || Number.isNaN(f[c]!) || isKnown(c) || inp.y[c]! < 0) continue;
    const k = t * S + Math.floor(c / Q);
    const e = yf.get(k);
    if (e) {
      e[0] += inp.y[c]!;
      e[1] += f[c]!;
    } else yf.set(k, [inp.y[c]!, f[c]!]);
  }
  let num = 0;
  let den = 0;
  for (const [k, [y, fx]] of yf) {
    const q = steps.q[Math.floor(k / S)]!;
    num += (y * fx) / (q * q);
    den += (fx * fx) / (q * q);
  }
  return den > 0 ? Math.min(1, Math.max(0, num / den)) : 1;
}

/**
 * The weight of a learned prediction's steps (sequential.ts): the squared residual the priority expects of the
 * judge over the squared residual the model expects of itself (f(1 − f)), both summed over the steps before `from`
 * (each over its probability squared, as a step's variance is), clipped to [1/10, 10]; 1 when either is 0.
 */
function stepWeight(
  steps: { stepOf: Int32Array; q: Float64Array },
  prior: Float64Array,
  f: Float64Array,
  from: number,
  isKnown: (c: number) => boolean,
): number {
  let judge = 0;
  let model = 0;
  for (let c = 0; c < f.length; c++) {
    const t = steps.stepOf[c]!;
    if (t < 0 || t >= from || Number.isNaN(f[c]!) || isKnown(c)) continue;
    const q2 = steps.q[t]! * steps.q[t]!;
    judge += prior[c]! / q2;
    model += (f[c]! * (1 - f[c]!)) / q2;
  }
  return judge > 0 && model > 0 ? Math.min(10, Math.max(0.1, judge / model)) : 1;
}

/** A review drawn step by step: predictions and λ by epochs, each fitted on the steps before it. */
function sequenceFrame(
  inp: FrameInput,
  steps: { stepOf: Int32Array; q: Float64Array; planned: number },
  judge: Float64Array,
  pi: Float64Array,
  unit: Int32Array,
): ReviewFrame & { learned: boolean } {
  const { S, Q } = inp;
  const n = steps.q.length;
  const isKnown = (c: number) => inp.y[c]! >= 0 && steps.stepOf[c]! < 0;
  const hasSignals = inp.signals.some((x) => x !== undefined);
  const { x } = hasSignals ? features(inp) : { x: [] as Float64Array[] };
  // The prior: the priority's probability that the judge errs (the square a 0/1 prediction's residual then has);
  // a cell without signals counts as a coin's toss.
  const prio =
    inp.priority ?? reviewPriorities(Array.from({ length: S * Q }, (_, c) => inp.signals[c] ?? new Float64Array(SIGNALS.length)));
  const prior = Float64Array.from({ length: S * Q }, (_, c) => (inp.priority || inp.signals[c] ? prio[c]! : 0.25));
  const base = withEarlier(groupMean(judge, inp.group), inp);
  const epochs: ReviewSequence['epochs'] = [{ from: 0, f: base, lambda: 1, learned: false, nu: 1 }];
  let learned = false;
  for (const from of epochStarts(n)) {
    let f = base;
    let fitted = false;
    if (inp.learn !== false && hasSignals) {
      const model = fitBefore(inp, x, steps.stepOf, pi, from, isKnown);
      if (model) {
        const p = new Float64Array(S * Q).fill(NaN);
        for (let c = 0; c < S * Q; c++) if (x[c]) p[c] = predictProba(model, x[c]!);
        // A cell without features keeps the judge's decision.
        for (let c = 0; c < S * Q; c++) if (Number.isNaN(p[c]!) && !Number.isNaN(judge[c]!)) p[c] = judge[c]!;
        f = withEarlier(groupMean(p, inp.group), inp);
        learned = fitted = true;
      }
    }
    epochs.push({
      from,
      f,
      lambda: stepLambda(inp, steps, f, from, isKnown),
      learned: fitted,
      nu: fitted ? stepWeight(steps, prior, f, from, isKnown) : 1,
    });
  }
  const seq: ReviewSequence = { q: steps.q, stepOf: steps.stepOf, planned: steps.planned, epochs, prior };
  const last = epochs[epochs.length - 1]!;
  return { S, Q, f: last.f, y: inp.y, pi, unit, group: inp.group, kind: 'designed', hard: !learned, seq, learned };
}

/** The prediction model on the labels known before step `from` (and those outside the design), or null when too few. */
function fitBefore(
  inp: FrameInput,
  x: Float64Array[],
  stepOf: Int32Array,
  pi: Float64Array,
  from: number,
  isKnown: (c: number) => boolean,
): LogisticModel | null {
  const rows: Float64Array[] = [];
  const ys: number[] = [];
  const ws: number[] = [];
  for (let c = 0; c < x.length; c++) {
    if (!x[c] || inp.y[c]! < 0) continue;
    const t = stepOf[c]!;
    if (!isKnown(c) && (t < 0 || t >= from)) continue;
    rows.push(x[c]!);
    ys.push(inp.y[c]!);
    // A reviewed row stands for about 1/π rows of the file; a label outside the design for itself.
    ws.push(isKnown(c) || Number.isNaN(pi[c]!) ? 1 : 1 / pi[c]!);
  }
  return fitPrediction(rows, ys, ws);
}
