/**
 * Review priority: for each row, how likely the judge (one metric's decision) is wrong there, from what Verity
 * knows without a label (signals.ts). A logistic model over the signals, its weights fitted by
 * scripts/train-review.ts on EVOUNA-TQ as is and with each row's golds cut to the first one (so that "correct
 * but not in the golds" is common, as on harder sets), measured on questions and on whole systems held out of the
 * fit (priority-model.json). The design (design.ts) asks about groups in proportion to the square root of their
 * rows' priorities.
 */
import model from './priority-model.json' with { type: 'json' };
import { SIGNALS, type Signal } from './signals.ts';

export interface PriorityModel {
  features: string[];
  weights: number[];
  bias: number;
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

const MODEL = model as PriorityModel;
// The model's features are the signals, in order: a model of other features is a model of another version.
if (MODEL.features.join() !== SIGNALS.join())
  throw new Error('priority-model.json does not match the review signals: run npm run train:review');

/** Each row's priority: the model's probability that the judge is wrong there. */
export function reviewPriorities(signals: readonly ArrayLike<number>[], m: PriorityModel = MODEL): Float64Array {
  const out = new Float64Array(signals.length);
  signals.forEach((x, i) => {
    let z = m.bias;
    for (let k = 0; k < m.weights.length; k++) z += m.weights[k]! * x[k]!;
    out[i] = sigmoid(z);
  });
  return out;
}

/** The words a signal's value is long enough for: 60 and more words read as 1 (signals.ts). */
const wordsOf = (x: number) => Math.round(Math.expm1(x * Math.log1p(60)));

/**
 * Each signal's reason, worded from its value, or null where the value does not bear the words out (a weight can
 * lift a row's priority while its signal is modest: "near the threshold" is said of a score within 15% of the
 * distance the threshold allows, "long" of ten words and more).
 */
const CLAIMS: Record<Signal, (x: number) => string | null> = {
  near_threshold: (x) => (x >= 0.85 ? 'the score is near the threshold' : null),
  metrics_disagree: (x) =>
    x >= 1
      ? 'every other metric decides otherwise'
      : x >= 0.5
        ? 'most other metrics decide otherwise'
        : x > 0
          ? 'another metric decides otherwise'
          : null,
  text_disagrees: (x) => (x === 1 ? 'the words and the decision disagree' : null),
  judge_correct: (x) => (x === 1 ? 'judged correct' : null),
  length: (x) => (wordsOf(x) >= 10 ? `a long answer (${x >= 1 ? '60 or more' : wordsOf(x)} words)` : null),
  system_contested: (x) => (x >= 0.5 ? "the judge is contested on most of this system's rows" : null),
  same_answer: (x) => (x > 0 ? 'other systems gave the same answer' : null),
  consensus: (x) => (x > 0 ? `${Math.round(x * 100)}% of the other systems' answers agree with it` : null),
  consensus_rejected: (x) =>
    x > 0 ? `${Math.round(x * 100)}% of the other systems' answers agree with it, and the judge rejects it` : null,
  type_fits: (x) => (x === 1 ? 'the answer is of the kind the question asks for' : null),
  system_rejected_more: (x) => (x > 0 ? "the judge rejects this system's answers more often than the others'" : null),
};

/** Why a row ranks high, in words: the signals that add most to its priority, each only where its value bears it out. */
export function priorityReasons(x: ArrayLike<number>, m: PriorityModel = MODEL): string[] {
  return m.features
    .map((f, k) => [f, k, m.weights[k]! * x[k]!] as const)
    .filter(([, , v]) => v > 0.25)
    .sort((a, b) => b[2] - a[2])
    .flatMap(([f, k]) => {
      const words = CLAIMS[f as Signal]?.(x[k]!) ?? null;
      return words === null ? [] : [words];
    });
}
