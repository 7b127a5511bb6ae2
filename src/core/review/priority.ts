/**
 * Review priority (issue 36): for each judged row, how likely the judge (one metric's decision) is wrong, from what
 * Verity knows without a label — how near the judge's score is to its threshold, whether the other metrics decide
 * otherwise, whether the text and the decision disagree (a "correct" answer sharing no word with any gold, a
 * "wrong" one containing a gold), the answer's length, and how often the judge is contested on the row's system.
 * A logistic model over these features, its weights fitted by scripts/train-review.ts on EVOUNA-TQ
 * (priority-model.json), so that the rows the person is asked about are those most likely to change the result.
 */
import type { ResultTable } from '../result-table.ts';
import type { QaRow } from '../types.ts';
import { contentStems } from '../signals/words.ts';
import model from './priority-model.json' with { type: 'json' };
import { mulberry32 } from '../util/random.ts';

export const PRIORITY_FEATURES = [
  'near_threshold',
  'metrics_disagree',
  'text_disagrees',
  'judge_correct',
  'length',
  'system_contested',
] as const;

export interface PriorityModel {
  features: string[];
  weights: number[];
  bias: number;
}

/** The judge: a metric of the run, and the threshold it decides with. */
export interface Judge {
  metric: string;
  threshold: number;
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** Whether the candidate holds a gold's content words, all of them (a gold "said"), and whether it shares any. */
function textRelation(row: QaRow): { contains: boolean; shares: boolean } {
  const cand = new Set(contentStems(row.candidate));
  let shares = false;
  for (const g of row.golds) {
    const gs = contentStems(g);
    if (gs.length && gs.every((t) => cand.has(t))) return { contains: true, shares: true };
    if (gs.some((t) => cand.has(t))) shares = true;
  }
  return { contains: false, shares };
}

/**
 * Each row's features (PRIORITY_FEATURES order), for rows 0…results.length − 1. `system` gives a row's system
 * (one system when absent).
 */
export function priorityFeatures(rows: readonly QaRow[], results: ResultTable, judge: Judge, system?: (i: number) => string): number[][] {
  const n = results.length;
  const others = results.metrics.filter((m) => m !== judge.metric);
  const span = Math.max(judge.threshold, 1 - judge.threshold) || 1;
  const perSystem = new Map<string, { contested: number; rows: number }>();
  const out: number[][] = [];
  for (let i = 0; i < n; i++) {
    const s = results.score(judge.metric, i);
    const d = results.decision(judge.metric, i);
    const near = s === null ? 1 : 1 - Math.min(1, Math.abs(s - judge.threshold) / span);
    let decided = 0;
    let against = 0;
    for (const m of others) {
      const o = results.decision(m, i);
      if (o === null || d === null) continue;
      decided++;
      if (o !== d) against++;
    }
    const disagree = decided ? against / decided : 0;
    const t = textRelation(rows[i]!);
    const textDisagrees = d === true ? !t.shares : d === false ? t.contains : false;
    const words = rows[i]!.candidate.split(/\s+/).filter(Boolean).length;
    const sys = system?.(i) ?? '';
    const c = perSystem.get(sys) ?? { contested: 0, rows: 0 };
    c.rows++;
    if (disagree > 0 || textDisagrees) c.contested++;
    perSystem.set(sys, c);
    out.push([near, disagree, textDisagrees ? 1 : 0, d === true ? 1 : 0, Math.min(1, Math.log1p(words) / Math.log1p(60)), 0]);
  }
  for (let i = 0; i < n; i++) {
    const c = perSystem.get(system?.(i) ?? '')!;
    out[i]![5] = c.contested / c.rows;
  }
  return out;
}

/** Each row's priority: the model's probability that the judge is wrong there. */
export function reviewPriorities(features: readonly number[][], m: PriorityModel = model as PriorityModel): Float64Array {
  const out = new Float64Array(features.length);
  features.forEach((x, i) => {
    let z = m.bias;
    for (let k = 0; k < m.weights.length; k++) z += m.weights[k]! * x[k]!;
    out[i] = sigmoid(z);
  });
  return out;
}

/** Why a row ranks high, in words (the features that add most to its priority). */
export function priorityReasons(x: readonly number[], m: PriorityModel = model as PriorityModel): string[] {
  const words: Record<string, string> = {
    near_threshold: 'the score is near the threshold',
    metrics_disagree: 'the other metrics decide otherwise',
    text_disagrees: 'the words and the decision disagree',
    judge_correct: 'judged correct',
    length: 'a long answer',
    system_contested: "the judge is often contested on this system's rows",
  };
  return m.features
    .map((f, k) => [f, m.weights[k]! * x[k]!] as const)
    .filter(([, v]) => v > 0.25)
    .sort((a, b) => b[1] - a[1])
    .map(([f]) => words[f] ?? f);
}

/** A row picked for review, and why: among the most uncertain, or in the random slice. */
export interface Pick {
  index: number;
  picked: 'uncertain' | 'random';
}

/**
 * Rows to review within `budget`: a random slice (`randomShare` of the budget, at least one row when the budget
 * allows two), drawn uniformly from every row so that it measures the judge's error where nobody looked, then the
 * highest priorities, taken in turn from each system so that every system is looked at. Deterministic for a seed;
 * never more than the budget.
 */
export function pickForReview(
  priorities: ArrayLike<number>,
  budget: number,
  seed: number,
  systemOf: (i: number) => string = () => '',
  randomShare = 0.2,
): Pick[] {
  const n = priorities.length;
  const take = Math.min(budget, n);
  const nRandom = take >= 2 ? Math.max(1, Math.round(take * randomShare)) : 0;
  const rnd = mulberry32(seed);
  // A seeded partial Fisher–Yates shuffle: the first nRandom of a random order.
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < nRandom; i++) {
    const j = i + Math.floor(rnd() * (n - i));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  const out: Pick[] = order.slice(0, nRandom).map((index) => ({ index, picked: 'random' as const }));
  const taken = new Set(out.map((p) => p.index));
  const queues = new Map<string, number[]>();
  for (let i = 0; i < n; i++) {
    if (taken.has(i)) continue;
    const s = systemOf(i);
    if (!queues.has(s)) queues.set(s, []);
    queues.get(s)!.push(i);
  }
  for (const q of queues.values()) q.sort((a, b) => priorities[b]! - priorities[a]! || a - b);
  const lists = [...queues.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, q]) => q);
  for (let round = 0; out.length < take; round++) {
    let any = false;
    for (const q of lists)
      if (round < q.length && out.length < take) {
        out.push({ index: q[round]!, picked: 'uncertain' });
        any = true;
      }
    if (!any) break;
  }
  return out;
}
