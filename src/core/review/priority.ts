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

/**
 * A row picked for review, and why: among the most uncertain (the queue), in the random slice, or both (the two
 * draws are independent, so they can meet). estimate.ts needs to know which: the random slice corrects for the
 * rows nobody reviewed, the queue's rows count as they are labelled.
 */
export interface Pick {
  index: number;
  picked: 'uncertain' | 'random' | 'both';
}

/** Splits `total` over groups in proportion to their sizes (largest remainders; ties to the earlier group). */
function apportion(total: number, sizes: readonly number[]): number[] {
  const all = sizes.reduce((a, b) => a + b, 0);
  if (all === 0) return sizes.map(() => 0);
  const exact = sizes.map((s) => (total * s) / all);
  const out = exact.map(Math.floor);
  const order = exact.map((x, i) => ({ r: x - Math.floor(x), i })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (let k = 0, left = total - out.reduce((a, b) => a + b, 0); left > 0; k++, left--) out[order[k % order.length]!.i]!++;
  return out.map((x, i) => Math.min(x, sizes[i]!));
}

/**
 * Rows to review within `budget`: a random slice (`randomShare` of the budget, at least one row when the budget
 * allows two), a uniform sample of each system's rows in proportion to its size, so that it measures the judge's
 * error where nobody looked; and the highest priorities, taken in turn from each system so that every system is
 * looked at. The two are drawn independently of each other (what keeps estimate.ts's correction unbiased); a row
 * both drew is asked once ('both'), so a few fewer rows than the budget can come back, never more. The order is
 * the order to ask in: the queue by priority with the random slice (in its random order) spread through it, so
 * that a review stopped half way has labelled a share of each. Deterministic for a seed.
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
  // Every row: a census needs no random slice.
  const nRandom = take >= 2 && take < n ? Math.max(1, Math.round(take * randomShare)) : 0;
  const bySystem = new Map<string, number[]>();
  for (let i = 0; i < n; i++) {
    const s = systemOf(i);
    if (!bySystem.has(s)) bySystem.set(s, []);
    bySystem.get(s)!.push(i);
  }
  const systems = [...bySystem.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const lists = systems.map((s) => bySystem.get(s)!);
  // The random slice: a seeded partial Fisher–Yates shuffle of each system's rows.
  const rnd = mulberry32(seed);
  const random: number[][] = apportion(
    nRandom,
    lists.map((l) => l.length),
  ).map((k, j) => {
    const order = [...lists[j]!];
    for (let i = 0; i < k; i++) {
      const o = i + Math.floor(rnd() * (order.length - i));
      [order[i], order[o]] = [order[o]!, order[i]!];
    }
    return order.slice(0, k);
  });
  // The queue: each system's rows by priority, taken in turn.
  const queues = lists.map((l) => [...l].sort((a, b) => priorities[b]! - priorities[a]! || a - b));
  const queue: number[] = [];
  for (let round = 0; queue.length < take - nRandom; round++) {
    let any = false;
    for (const q of queues)
      if (round < q.length && queue.length < take - nRandom) {
        queue.push(q[round]!);
        any = true;
      }
    if (!any) break;
  }
  const inRandom = new Set(random.flat());
  const inQueue = new Set(queue);
  // Random rows interleaved round-robin across systems, then spread evenly through the queue.
  const slice: number[] = [];
  for (let round = 0; slice.length < nRandom; round++) for (const r of random) if (round < r.length) slice.push(r[round]!);
  const out: Pick[] = [];
  const seen = new Set<number>();
  const push = (index: number) => {
    if (seen.has(index)) return;
    seen.add(index);
    out.push({ index, picked: inQueue.has(index) && inRandom.has(index) ? 'both' : inRandom.has(index) ? 'random' : 'uncertain' });
  };
  const total = queue.length + slice.length;
  let qi = 0;
  let ri = 0;
  for (let k = 0; k < total; k++) {
    // Keep the share of random rows asked so far at the slice's share of the whole.
    if (ri < slice.length && (qi >= queue.length || (ri + 1) * total <= (k + 1) * slice.length)) push(slice[ri++]!);
    else push(queue[qi++]!);
  }
  return out;
}
