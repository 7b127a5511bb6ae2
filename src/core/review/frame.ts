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
 */
import { predictProba, trainLogistic } from '../agreement/logistic.ts';
import type { ReviewDesignKind, ReviewFrame } from './estimate.ts';

export const FOLDS = 5;
export const MIN_LABELS = 40;
export const MIN_CLASS = 8;
/** L2 strength of the prediction model (sklearn C = 1/(W · L2)). */
export const L2 = 0.01;

export interface FrameInput {
  S: number;
  Q: number;
  /** The reference judge's decision per cell (1 / 0, −1 none). */
  decision: ArrayLike<number>;
  /** Each cell's review signals (signals.ts), undefined for a cell without a row. */
  signals: readonly (ArrayLike<number> | undefined)[];
  /** Human label per cell (1 / 0, −1 none). */
  y: ArrayLike<number>;
  /** The design's sample, or null when the labels say nothing of one. */
  sample: { pi: Float64Array; unit: Int32Array } | null;
  /** Answer group per cell (−1 none), or null. */
  group: Int32Array | null;
  /** Learn the prediction from the labels (default true). */
  learn?: boolean;
}

const counted = (inp: FrameInput, c: number) => inp.decision[c]! >= 0 || inp.y[c]! >= 0;

/** The sample: the design's, or every labelled row of a system drawn at random from its rows. */
function sampleOf(inp: FrameInput): { pi: Float64Array; unit: Int32Array; kind: ReviewDesignKind } {
  if (inp.sample) return { ...inp.sample, kind: 'designed' };
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
      const v = new Float64Array(sig.length + S);
      v.set(Array.from(sig));
      v[sig.length + s] = 1;
      x[c] = v;
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
  const frame = { S, Q, f, y: inp.y, pi, unit, group: inp.group, kind };
  let labels = 0;
  let right = 0;
  for (let c = 0; c < S * Q; c++)
    if (counted(inp, c) && inp.y[c]! >= 0) {
      labels++;
      right += inp.y[c]!;
    }
  if (inp.learn === false || labels < MIN_LABELS || right < MIN_CLASS || labels - right < MIN_CLASS)
    return { ...frame, hard: true, learned: false };
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
  return { ...frame, hard: false, learned: true };
}
