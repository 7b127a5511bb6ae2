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

const WORDS: Record<Signal, string> = {
  near_threshold: 'the score is near the threshold',
  metrics_disagree: 'the other metrics decide otherwise',
  text_disagrees: 'the words and the decision disagree',
  judge_correct: 'judged correct',
  length: 'a long answer',
  system_contested: "the judge is often contested on this system's rows",
  same_answer: 'other systems gave the same answer',
  consensus: "other systems' answers agree with it",
  consensus_rejected: 'other systems agree with it, the judge rejects it',
  type_fits: 'the answer is of the kind the question asks for',
  system_rejected_more: "the judge rejects this system's answers more often than the others'",
};

/** Why a row ranks high, in words (the signals that add most to its priority). */
export function priorityReasons(x: ArrayLike<number>, m: PriorityModel = MODEL): string[] {
  return m.features
    .map((f, k) => [f, m.weights[k]! * x[k]!] as const)
    .filter(([, v]) => v > 0.25)
    .sort((a, b) => b[1] - a[1])
    .map(([f]) => WORDS[f as Signal] ?? f);
}
