/**
 * Seeded question resampling shared by every interval in the comparison.
 *
 * What: B bootstrap resamples of the Q questions, in one of two forms, both from mulberry32(seed):
 *   - statistics of counts (accuracies, human accuracies, paired accuracy differences, metric − human gaps) depend
 *     on the questions only through how many fall in a few cells (e.g. both correct / only A / only B / neither /
 *     missing), so a resample draws those counts from a multinomial (countsInterval): the same distribution as
 *     drawing Q questions, in O(cells);
 *   - score means draw question indices ⌊u·Q⌋, in order, resample after resample: all Q of them up to
 *     scoreDrawsFor(S) questions (10,000 for 2 systems, 2,000 for 10), else that many, rescaled (scoreDraws).
 * Why questions, not rows: resampling questions keeps the pairing between systems (a paired difference is
 *   resampled as one statistic of the pair's questions). A system's statistic in a resample is a ratio over the
 *   questions it has, so systems with missing questions need no special case.
 * Deterministic: the same (Q, B, seed) gives the same draws in Node and the browser, so `verity compare` and
 *   the app give the same intervals.
 */
import { mulberry32 } from '../util/random.ts';
import { quantileSorted } from '../agreement/stats.ts';
import { multinomial } from '../agreement/binomial.ts';
import { DEFAULTS } from '../defaults.ts';

export interface BootstrapSettings {
  /** Resamples (default 1000; 0 = no intervals). */
  resamples?: number;
  /** mulberry32 seed (default 42). */
  seed?: number;
  /** Central interval mass (default 0.95). */
  level?: number;
}

export function bootstrapSettings(o: BootstrapSettings = {}): Required<BootstrapSettings> {
  const resamples = o.resamples ?? DEFAULTS.bootstrap.resamples;
  const level = o.level ?? DEFAULTS.bootstrap.level;
  if (!Number.isInteger(resamples) || resamples < 0) throw new RangeError(`resamples must be a whole number ≥ 0, got ${resamples}`);
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  return { resamples, seed: o.seed ?? DEFAULTS.bootstrap.seed, level };
}

/**
 * Questions drawn per resample for score statistics: all Q up to scoreDrawsFor(S), else that many, rescaled (see
 * scoreDraws). At most SCORE_DRAWS questions, and at most SCORE_CELLS system × question cells, per resample (so
 * 2 systems draw 10,000 questions and 10 systems 2,000), but never fewer than 2,000 questions. Keeps a comparison's score intervals
 * O(B · SCORE_CELLS) per metric however many questions there are.
 */
export const SCORE_DRAWS = 10_000;
export const SCORE_CELLS = 20_000;
export const scoreDrawsFor = (S: number): number => Math.min(SCORE_DRAWS, Math.max(2_000, Math.floor(SCORE_CELLS / Math.max(1, S))));

/** Calls `each(drawn, b)` for every resample b with the m question indices drawn, in draw order (one buffer). */
export function forEachSubsample(
  Q: number,
  m: number,
  resamples: number,
  seed: number,
  each: (drawn: Int32Array, b: number) => void,
): void {
  const rng = mulberry32(seed);
  const drawn = new Int32Array(m);
  for (let b = 0; b < resamples; b++) {
    for (let k = 0; k < m; k++) drawn[k] = Math.floor(rng() * Q);
    each(drawn, b);
  }
}

/**
 * Percentile interval of a statistic that depends on the questions only through how many fall in each cell
 * (e.g. correct / incorrect / not decided): each resample draws the cell counts from Multinomial(Q; counts / Q)
 * with mulberry32(seed) — the distribution resampling the Q questions gives, in O(cells) per resample.
 * `counts` must sum to Q; `stat` returns NaN where undefined.
 */
export function countsInterval(
  counts: readonly number[],
  stat: (k: Float64Array) => number,
  resamples: number,
  seed: number,
  level: number,
): [number, number] | null {
  let Q = 0;
  for (const c of counts) Q += c;
  const rng = mulberry32(seed);
  const k = new Float64Array(counts.length);
  const values = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    multinomial(rng, Q, counts, k);
    values[b] = stat(k);
  }
  return percentileInterval(values, level);
}

/** Accuracy from [correct, incorrect, rest] counts; NaN with nothing decided. */
export const accuracyOfCounts = (k: Float64Array): number => (k[0]! + k[1]! ? k[0]! / (k[0]! + k[1]!) : NaN);

/** (n10 − n01) / n from [n11, n10, n01, n00, rest] counts of two 1/0 rows; NaN when no question has both. */
export const pairedDiffOfCounts = (k: Float64Array): number => {
  const n = k[0]! + k[1]! + k[2]! + k[3]!;
  return n ? (k[1]! - k[2]!) / n : NaN;
};

/** [n11, n10, n01, n00, rest] of rows a and b of two 1/0/−1 channels over Q questions (rest = either missing). */
export function pairCounts(x: Int8Array, y: Int8Array, Q: number, a: number, b: number): number[] {
  const k = [0, 0, 0, 0, 0];
  for (let q = 0; q < Q; q++) {
    const u = x[a * Q + q]!;
    const v = y[b * Q + q]!;
    if (u < 0 || v < 0) k[4]!++;
    else k[u ? (v ? 0 : 1) : v ? 2 : 3]!++;
  }
  return k;
}

/** Percentile interval of the finite values (NaN = undefined in that resample); null when none is finite. */
export function percentileInterval(values: ArrayLike<number>, level: number): [number, number] | null {
  const finite: number[] = [];
  for (let i = 0; i < values.length; i++) if (Number.isFinite(values[i]!)) finite.push(values[i]!);
  if (finite.length === 0) return null;
  finite.sort((a, b) => a - b);
  const alpha = (1 - level) / 2;
  return [quantileSorted(finite, alpha), quantileSorted(finite, 1 - alpha)];
}

/** Per-resample statistics of one score channel: each system's mean, and each pair's paired mean difference. */
export interface ScoreDraws {
  /** means[s][b]: system s's mean over its drawn questions (NaN when none was drawn). */
  means: Float64Array[];
  /** diffs[p][b]: pair p's (systemPairs order: a < b, a-major) mean of a − b over drawn questions both have. */
  diffs: Float64Array[];
}

/**
 * The resampled means and paired differences of a score channel: a system × question array (cell s·Q + q) whose
 * missing cells are NaN. Draws m = min(Q, scoreDrawsFor(S)) question indices per resample (forEachSubsample; with
 * m = Q, the plain question bootstrap). With m < Q each statistic is reported as θ + √(m/Q)·(θ*_m − θ), θ its
 * value over all questions: a mean over m draws varies √(Q/m) times as much as one over Q, and is as normal at
 * these sizes, so the rescaled draws have the spread of the full bootstrap (the m-out-of-n bootstrap; Bickel,
 * Götze & van Zwet 1997). One pass per resample serves both: a drawn question adds each system's value to its
 * sum; the few questions some system lacks also add a correction to the pairs with that system, so a pair's
 * difference counts only questions both have. O(B·m·S) plus the pairs of the incomplete draws.
 * Remembered per channel array (weakly: it goes with the table), so the leaderboard and the paired tests share it.
 */
export function scoreDraws(channel: Float64Array, S: number, Q: number, resamples: number, seed: number): ScoreDraws {
  const key = `${S}×${Q}:${resamples}:${seed}`;
  const known = memo.get(channel)?.get(key);
  if (known) return known;
  const out = computeScoreDraws(channel, S, Q, resamples, seed);
  let byKey = memo.get(channel);
  if (!byKey) memo.set(channel, (byKey = new Map()));
  byKey.set(key, out);
  return out;
}

const memo = new WeakMap<Float64Array, Map<string, ScoreDraws>>();

function computeScoreDraws(x: Float64Array, S: number, Q: number, resamples: number, seed: number): ScoreDraws {
  const P = (S * (S - 1)) / 2;
  const pairOf = new Int32Array(S * S); // pair index of (a, b), either order
  for (let a = 0, p = 0; a < S; a++)
    for (let b = a + 1; b < S; b++, p++) {
      pairOf[a * S + b] = p;
      pairOf[b * S + a] = p;
    }
  // Question-major values (a drawn question's are contiguous; 0 when missing), and per question the systems lacking it.
  const xt = new Float64Array(Q * S);
  const missOff = new Int32Array(Q + 1);
  const missList: number[] = [];
  for (let q = 0; q < Q; q++) {
    for (let s = 0; s < S; s++) {
      const v = x[s * Q + q]!;
      if (v >= 0) xt[q * S + s] = v;
      else missList.push(s);
    }
    missOff[q + 1] = missList.length;
  }
  const miss = Int32Array.from(missList);
  const missing = new Uint8Array(S);
  const sum = new Float64Array(S);
  const gone = new Float64Array(S); // draws of questions the system lacks
  const corr = new Float64Array(P);
  const lost = new Float64Array(P);
  const take = (q: number) => {
    const base = q * S;
    for (let s = 0; s < S; s++) sum[s] = sum[s]! + xt[base + s]!;
    const lo = missOff[q]!;
    const hi = missOff[q + 1]!;
    if (lo === hi) return;
    for (let i = lo; i < hi; i++) {
      missing[miss[i]!] = 1;
      gone[miss[i]!] = gone[miss[i]!]! + 1;
    }
    // Pairs with a missing system lose this question: undo its a − b and its count (pairs of two missing: once).
    for (let i = lo; i < hi; i++) {
      const s = miss[i]!;
      for (let t = 0; t < S; t++) {
        if (t === s || (missing[t] && t < s)) continue;
        const p = pairOf[s * S + t]!;
        const a = s < t ? s : t;
        const b = s < t ? t : s;
        corr[p] = corr[p]! + xt[base + a]! - xt[base + b]!;
        lost[p] = lost[p]! + 1;
      }
    }
    for (let i = lo; i < hi; i++) missing[miss[i]!] = 0;
  };
  const reset = () => {
    sum.fill(0);
    gone.fill(0);
    corr.fill(0);
    lost.fill(0);
  };
  const means = Array.from({ length: S }, () => new Float64Array(resamples));
  const diffs = Array.from({ length: P }, () => new Float64Array(resamples));
  const m = Math.min(Q, scoreDrawsFor(S));
  let drawn = m;
  const mean = (s: number) => (drawn - gone[s]! > 0 ? sum[s]! / (drawn - gone[s]!) : NaN);
  const diff = (a: number, b: number, p: number) => {
    const n = drawn - lost[p]!;
    return n > 0 ? (sum[a]! - sum[b]! - corr[p]!) / n : NaN;
  };
  // Full-data values, the centres of the rescaling (m < Q only).
  const fullMean = new Float64Array(S);
  const fullDiff = new Float64Array(P);
  const f = Math.sqrt(m / Q);
  if (m < Q) {
    reset();
    drawn = Q;
    for (let q = 0; q < Q; q++) take(q);
    for (let s = 0; s < S; s++) fullMean[s] = mean(s);
    for (let a = 0, p = 0; a < S; a++) for (let b = a + 1; b < S; b++, p++) fullDiff[p] = diff(a, b, p);
  }
  drawn = m;
  forEachSubsample(Q, m, resamples, seed, (draws, r) => {
    reset();
    for (let i = 0; i < m; i++) take(draws[i]!);
    for (let s = 0; s < S; s++) means[s]![r] = m < Q ? fullMean[s]! + f * (mean(s) - fullMean[s]!) : mean(s);
    for (let a = 0, p = 0; a < S; a++)
      for (let b = a + 1; b < S; b++, p++) diffs[p]![r] = m < Q ? fullDiff[p]! + f * (diff(a, b, p) - fullDiff[p]!) : diff(a, b, p);
  });
  return { means, diffs };
}
