/**
 * Today's review queue, as it was before answer groups and the sampling design (kept here only to measure against):
 * the highest priorities of a six-feature model taken in turn from each system plus an independent random slice of a
 * fifth of the budget, and the estimate that counts the queue as a census and corrects the rest by the slice
 * (`value`: labels where given, the judge elsewhere; `ci`: the prediction-powered interval around the corrected
 * count). Copied from src/core/review/priority.ts and estimate.ts at 6d212ac.
 */
import type { ResultTable } from '../src/core/result-table.ts';
import type { QaRow } from '../src/core/types.ts';
import { contentStems } from '../src/core/signals/words.ts';
import { mulberry32 } from '../src/core/util/random.ts';
import { twoSidedZ } from '../src/core/util/normal.ts';

export const PICK_RANDOM = 1;
export const PICK_QUEUE = 2;
const MODEL = { weights: [1.35978, 2.638911, 0.784985, -3.713546, 0.574502, 0.041694], bias: -2.686045 };
interface Judge {
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
export function todayFeatures(rows: readonly QaRow[], results: ResultTable, judge: Judge, system?: (i: number) => string): number[][] {
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

export function todayPriorities(features: readonly number[][]): Float64Array {
  return Float64Array.from(features, (x) => {
    let z = MODEL.bias;
    for (let k = 0; k < MODEL.weights.length; k++) z += MODEL.weights[k]! * x[k]!;
    return sigmoid(z);
  });
}

export interface TodayReviewed {
  value: number;
  corrected: number;
  ci: [number, number] | null;
  labelled: number;
  random: number;
  errors: number;
  rows: number;
  design: 'queue' | 'assumed-random';
}
type Reviewed = TodayReviewed;
type ReviewDesign = TodayReviewed['design'];

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
export function todayPicks(
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

const plusFour = (k: number, r: number) => {
  const p = (k + 2) / (r + 4);
  return p * (1 - p);
};

/**
 * The variance floor of several systems' slices: plus four over their errors and rows together. A system's own
 * slice is small (a fifth of its share of the budget); its own variance still counts when larger, so a system the
 * judge fails more often keeps its wider interval.
 */
function pooledFloor(slices: readonly ({ errors: number; random: number } | null)[]): number {
  let k = 0;
  let r = 0;
  for (const s of slices)
    if (s) {
      k += s.errors;
      r += s.random;
    }
  return plusFour(k, r);
}

/** Each group's reviewed accuracy (a group = a system's cells), the variance floor pooled over the groups. */
export function reviewedByGroup(
  d: ArrayLike<number>,
  h: ArrayLike<number>,
  pick: ArrayLike<number> | null,
  groups: readonly (readonly number[])[],
  level = 0.95,
): (Reviewed | null)[] {
  const floor = pooledFloor(groups.map((cells) => reviewedAccuracy(d, h, pick, cells, level)));
  return groups.map((cells) => reviewedAccuracy(d, h, pick, cells, level, floor));
}

/**
 * The reviewed accuracy over `cells`: d (1 / 0 / −1 undecided), h (1 / 0 / −1 unlabelled) and pick bits per
 * cell; `pick` null when the input says nothing of how rows were picked. Null when no cell counts.
 */
function reviewedAccuracy(
  d: ArrayLike<number>,
  h: ArrayLike<number>,
  pick: ArrayLike<number> | null,
  cells: Iterable<number>,
  level = 0.95,
  /** The variance floor (default: this slice's plus-four p̃(1 − p̃); see pooledFloor for several systems). */
  floor?: number,
): Reviewed | null {
  let N = 0;
  let labelled = 0;
  let sum = 0; // Σ_C h + Σ_{∉C} d
  let plain = 0; // Σ of labels where given, decisions elsewhere
  let known = 0; // Σ of labels on reviewed rows (the lower bound's numerator)
  let unreviewed = 0;
  const z: number[] = [];
  for (const c of cells) {
    const dc = d[c]!;
    const hc = h[c]!;
    if (dc < 0 && hc < 0) continue;
    N++;
    const dv = dc > 0 ? 1 : 0;
    const bits = pick ? pick[c]! : 0;
    plain += hc < 0 ? dv : hc;
    if (hc < 0) {
      sum += dv;
      unreviewed++;
      continue;
    }
    labelled++;
    known += hc;
    const random = pick ? (bits & PICK_RANDOM) !== 0 : true;
    const census = pick ? (bits & PICK_QUEUE) !== 0 || !random : false;
    sum += census ? hc : dv;
    if (random) z.push(census ? 0 : hc - dv);
  }
  if (N === 0) return null;
  const design: ReviewDesign = pick ? 'queue' : 'assumed-random';
  const r = z.length;
  let nonzero = 0;
  for (const x of z) if (x !== 0) nonzero++;
  const base = { labelled, random: r, errors: nonzero, rows: N, design };
  if (unreviewed === 0) return { value: known / N, corrected: known / N, ci: [known / N, known / N], ...base };
  const lo = known / N;
  const hi = (known + unreviewed) / N;
  const clip = (x: number) => Math.min(hi, Math.max(lo, x));
  if (r === 0) return { value: plain / N, corrected: clip(sum / N), ci: null, ...base };
  let zs = 0;
  for (const x of z) zs += x;
  const mean = zs / r;
  let ss = 0;
  for (const x of z) ss += (x - mean) ** 2;
  const s2 = Math.max(r > 1 ? ss / (r - 1) : 0, floor ?? plusFour(nonzero, r));
  const se = Math.sqrt(Math.max(0, 1 - r / N) * (s2 / r));
  const corrected = clip(sum / N + mean);
  const half = twoSidedZ(level) * se;
  return { value: plain / N, corrected, ci: [clip(corrected - half), clip(corrected + half)], ...base };
}
