/**
 * Seeded question resampling shared by every interval in the comparison.
 *
 * What: B bootstrap resamples of the Q questions, each as multiplicities w[q] (how often question q was drawn).
 * Formula: draw Q indices ⌊u·Q⌋ with u from mulberry32(seed), in order, resample after resample.
 * Why questions, not rows: resampling the questions jointly keeps the pairing between systems (the same
 *   question draws count for every system), so one set of draws gives per-system intervals and paired
 *   differences that are consistent with each other. A system's statistic in a resample is a weighted mean over
 *   the questions it has (a ratio estimator), so systems with missing questions need no special case.
 * Deterministic: the same (Q, B, seed) gives the same draws in Node, the browser and scripts/reference.
 */
import { mulberry32 } from '../util/random.ts';
import { quantileSorted } from '../agreement/stats.ts';

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

/** Calls `each(w, b)` for every resample b with the multiplicities w (one buffer, overwritten each time). */
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
 * Per-resample weighted means of several channels: `channels[c]` is a system × question array (cell s·Q + q)
 * whose missing cells are NaN or negative (scores lie in [0, 1]; decisions and labels are 1 / 0 / −1).
 * Returns out[c][s] = the B resampled means of channel c for system s (NaN when the resample drew none of its
 * questions). The leaderboard and the paired tests resample the same channels, so results are remembered per
 * channel array (weakly: they go with the table) and each channel is swept once per (resamples, seed).
 */
export function resampledMeans(
  channels: readonly (Float64Array | Int8Array)[],
  S: number,
  Q: number,
  resamples: number,
  seed: number,
): Float64Array[][] {
  return channels.map((x) => channelMeans(x, S, Q, resamples, seed));
}

const memo = new WeakMap<Float64Array | Int8Array, Map<string, Float64Array[]>>();

function channelMeans(channel: Float64Array | Int8Array, S: number, Q: number, resamples: number, seed: number): Float64Array[] {
  const key = `${S}×${Q}:${resamples}:${seed}`;
  const known = memo.get(channel)?.get(key);
  if (known) return known;
  const out = channel instanceof Int8Array ? patternMeans(channel, S, Q, resamples, seed) : sweepMeans(channel, S, Q, resamples, seed);
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

/**
 * The same means for a 1 / 0 / −1 channel, in O(Q + patterns × S) per resample instead of O(Q × S): questions
 * with the same column of values across systems are interchangeable, so a resample only needs how often each
 * column pattern was drawn. Same draws, and integer sums, so the results equal the plain sweep exactly.
 */
function patternMeans(channel: Int8Array, S: number, Q: number, resamples: number, seed: number): Float64Array[] {
  const patternOf = new Int32Array(Q);
  const ids = new Map<string, number>();
  const columns: number[][] = [];
  for (let q = 0; q < Q; q++) {
    const col: number[] = [];
    for (let s = 0; s < S; s++) col.push(channel[s * Q + q]!);
    const id = col.join(',');
    let p = ids.get(id);
    if (p === undefined) {
      ids.set(id, (p = columns.length));
      columns.push(col);
    }
    patternOf[q] = p;
  }
  const P = columns.length;
  const out = Array.from({ length: S }, () => new Float64Array(resamples));
  const rng = mulberry32(seed);
  const drawn = new Float64Array(P);
  for (let b = 0; b < resamples; b++) {
    drawn.fill(0);
    for (let k = 0; k < Q; k++) drawn[patternOf[Math.floor(rng() * Q)]!]! += 1;
    for (let s = 0; s < S; s++) {
      let num = 0;
      let den = 0;
      for (let p = 0; p < P; p++) {
        const v = columns[p]![s]!;
        const k = drawn[p]!;
        if (k === 0 || v < 0) continue;
        num += k * v;
        den += k;
      }
      out[s]![b] = den ? num / den : NaN;
    }
  }
  return out;
}

/** Whether systems a and b have values on exactly the same questions of a channel. */
export function sameQuestions(x: ArrayLike<number>, Q: number, a: number, b: number): boolean {
  for (let q = 0; q < Q; q++) if (x[a * Q + q]! >= 0 !== x[b * Q + q]! >= 0) return false;
  return true;
}
