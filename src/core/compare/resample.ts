/**
 * Seeded question resampling shared by every interval in the comparison.
 *
 * What: B bootstrap resamples of the Q questions, in one of two forms, both from mulberry32(seed):
 *   - statistics of counts (accuracies, human accuracies, paired accuracy differences, metric − human gaps) depend
 *     on the questions only through how many fall in a few cells (e.g. both correct / only A / only B / neither /
 *     missing), so a resample draws those counts from a multinomial (countsInterval): the same distribution as
 *     drawing Q questions, in O(cells);
 *   - score means draw question indices ⌊u·Q⌋, in order, resample after resample: all Q of them up to
 *     SCORE_DRAWS questions, else SCORE_DRAWS of them, rescaled (resampledMeans).
 * Why questions, not rows: resampling questions keeps the pairing between systems (a paired difference is
 *   resampled as one statistic of the pair's questions). A system's statistic in a resample is a ratio over the
 *   questions it has, so systems with missing questions need no special case.
 * Deterministic: the same (Q, B, seed) gives the same draws in Node and the browser, so `verity compare` and
 *   the app give the same intervals.
 */
import { mulberry32 } from '../util/random.ts';
import { quantileSorted } from '../agreement/stats.ts';
import { multinomial } from '../agreement/binomial.ts';

export interface BootstrapSettings {
  /** Resamples (default 1000; 0 = no intervals). */
  resamples?: number;
  /** mulberry32 seed (default 42). */
  seed?: number;
  /** Central interval mass (default 0.95). */
  level?: number;
}

export const DEFAULT_BOOTSTRAP = { resamples: 1000, seed: 42, level: 0.95 } as const;

export function bootstrapSettings(o: BootstrapSettings = {}): Required<BootstrapSettings> {
  const resamples = o.resamples ?? DEFAULT_BOOTSTRAP.resamples;
  const level = o.level ?? DEFAULT_BOOTSTRAP.level;
  if (!Number.isInteger(resamples) || resamples < 0) throw new RangeError(`resamples must be a whole number ≥ 0, got ${resamples}`);
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  return { resamples, seed: o.seed ?? DEFAULT_BOOTSTRAP.seed, level };
}

/**
 * Questions drawn per resample for score means: all Q up to this many, then this many (a subsample bootstrap,
 * rescaled; see resampledMeans). Keeps a resample O(S · SCORE_DRAWS) however many questions there are.
 */
export const SCORE_DRAWS = 10_000;

/** Calls `each(w, b)` for every resample b with the multiplicities w of Q draws (one buffer, overwritten each time). */
export function forEachResample(Q: number, resamples: number, seed: number, each: (w: Int32Array, b: number) => void): void {
  const rng = mulberry32(seed);
  const w = new Int32Array(Q);
  for (let b = 0; b < resamples; b++) {
    w.fill(0);
    for (let k = 0; k < Q; k++) {
      const q = Math.floor(rng() * Q);
      w[q] = w[q]! + 1;
    }
    each(w, b);
  }
}

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

/**
 * Per-resample means of score channels: `channels[c]` is a system × question array (cell s·Q + q) whose missing
 * cells are NaN. Returns out[c][s] = the B resampled means of channel c for system s (NaN when the resample drew
 * none of its questions). The leaderboard and the paired tests resample the same channels, so results are
 * remembered per channel array (weakly: they go with the table) and each channel is swept once per (resamples, seed).
 * Up to SCORE_DRAWS questions every resample draws all Q (the plain question bootstrap). Above, it draws
 * m = SCORE_DRAWS and reports mean + √(m/Q)·(mean*_m − mean), mean the system's mean over all its questions: a
 * mean over m draws varies √(Q/m) times as much as one over Q, and is as normal at these sizes, so the rescaled
 * draws have the spread of the full bootstrap (the m-out-of-n bootstrap, Bickel, Götze & van Zwet 1997).
 */
export function resampledMeans(channels: readonly Float64Array[], S: number, Q: number, resamples: number, seed: number): Float64Array[][] {
  return channels.map((x) => channelMeans(x, S, Q, resamples, seed));
}

const memo = new WeakMap<Float64Array, Map<string, Float64Array[]>>();

function channelMeans(channel: Float64Array, S: number, Q: number, resamples: number, seed: number): Float64Array[] {
  const key = `${S}×${Q}:${resamples}:${seed}`;
  const known = memo.get(channel)?.get(key);
  if (known) return known;
  const out = Q <= SCORE_DRAWS ? sweepMeans(channel, S, Q, resamples, seed) : subsampleMeans(channel, S, Q, resamples, seed);
  let byKey = memo.get(channel);
  if (!byKey) memo.set(channel, (byKey = new Map()));
  byKey.set(key, out);
  return out;
}

function sweepMeans(channel: Float64Array, S: number, Q: number, resamples: number, seed: number): Float64Array[] {
  const out = Array.from({ length: S }, () => new Float64Array(resamples));
  const x = channel;
  forEachResample(Q, resamples, seed, (w, b) => {
    for (let s = 0; s < S; s++) {
      let num = 0;
      let den = 0;
      const base = s * Q;
      for (let q = 0; q < Q; q++) {
        const k = w[q]!;
        const v = x[base + q]!;
        if (k === 0 || !(v >= 0)) continue;
        num += k * v;
        den += k;
      }
      out[s]![b] = den ? num / den : NaN;
    }
  });
  return out;
}

/** Mean of row s of a channel over its present cells (NaN when none). */
export function rowMean(x: Float64Array, Q: number, s: number): number {
  let num = 0;
  let den = 0;
  for (let q = s * Q; q < (s + 1) * Q; q++)
    if (x[q]! >= 0) {
      num += x[q]!;
      den++;
    }
  return den ? num / den : NaN;
}

function subsampleMeans(channel: Float64Array, S: number, Q: number, resamples: number, seed: number): Float64Array[] {
  const out = Array.from({ length: S }, () => new Float64Array(resamples));
  const m = SCORE_DRAWS;
  const f = Math.sqrt(m / Q);
  const full = Array.from({ length: S }, (_, s) => rowMean(channel, Q, s));
  const num = new Float64Array(S);
  const den = new Float64Array(S);
  forEachSubsample(Q, m, resamples, seed, (drawn, b) => {
    num.fill(0);
    den.fill(0);
    for (let k = 0; k < m; k++) {
      const q = drawn[k]!;
      for (let s = 0; s < S; s++) {
        const v = channel[s * Q + q]!;
        if (!(v >= 0)) continue;
        num[s] = num[s]! + v;
        den[s] = den[s]! + 1;
      }
    }
    for (let s = 0; s < S; s++) out[s]![b] = den[s] ? full[s]! + f * (num[s]! / den[s]! - full[s]!) : NaN;
  });
  return out;
}

/** Whether systems a and b have values on exactly the same questions of a channel. */
export function sameQuestions(x: ArrayLike<number>, Q: number, a: number, b: number): boolean {
  for (let q = 0; q < Q; q++) if (x[a * Q + q]! >= 0 !== x[b * Q + q]! >= 0) return false;
  return true;
}
