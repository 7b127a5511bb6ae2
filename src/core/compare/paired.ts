/**
 * Paired significance between every pair of systems, per metric, on the questions both systems answered.
 *
 * What, for systems A and B and one metric:
 *   - accuracy difference acc(A) − acc(B) on the questions both decided, with McNemar's exact test (mcnemar.ts)
 *     and a bootstrap interval from multinomial draws of the pair's (both / only A / only B / neither correct,
 *     not both decided) question counts (resample.ts);
 *   - mean-score difference d on the questions both scored, with a paired bootstrap: the shared question draws
 *     (resample.ts) give B resampled differences d*, a percentile interval, and the two-sided p-value
 *     p = 2·Φc(|d| / sd(d*)) from the bootstrap standard error (Efron & Tibshirani 1993, ch. 16). Not the share
 *     of d* on the far side of 0: that cannot go below ~2/B, which Holm then multiplies by the number of pairs
 *     (1000 resamples, 45 pairs: nothing could be significant). With few questions the bootstrap standard error
 *     is too small to trust (five questions all won by A gave p ≈ 0), so up to SIGN_FLIP_MAX (16) questions
 *     whose scores differ, p is the exact paired sign-flip test's instead (Fisher's randomization test: each
 *     difference as likely negated; five differences all one way give p = 2/32).
 *   Both p-values are Holm-corrected over all pairs of the metric (holm.ts), separately for each test.
 *   "A > B" is claimed (`better`) only when the Holm-adjusted p is below α (default 0.05); otherwise null.
 * Human labels, where present, get the same McNemar comparison (metric "human"), so a metric's verdicts can be
 *   set beside the human one.
 * Reviewed (some rows labelled, as after a review): each metric's tests stay on its own decisions, and one more
 *   entry, "reviewed", compares the systems by the review's estimate (reviewed.ts: the paired difference of the
 *   estimated accuracies on shared questions, a normal p, Holm-corrected); no "human" comparison is made on the
 *   labelled rows, which a review picked by design.
 * Limits: pairs are formed in input order (A before B); a pair with no shared question has null tests.
 */
import type { CompareTable } from './table.ts';
import { holm } from './holm.ts';
import { mcnemarExact, type McNemar } from './mcnemar.ts';
import { normalUpperTail } from '../util/normal.ts';
import { reviewedReport } from './reviewed.ts';
import { systemPairs } from './pairs.ts';

export { systemPairs };
import {
  bootstrapSettings,
  countsInterval,
  pairCounts,
  pairedDiffOfCounts,
  percentileInterval,
  scoreDraws,
  type BootstrapSettings,
} from './resample.ts';

export interface PairedOptions extends BootstrapSettings {
  /** Family-wise error rate for "A > B" (default 0.05). */
  alpha?: number;
}

export interface AccuracyComparison {
  /** Questions both systems decided. */
  n: number;
  accA: number | null;
  accB: number | null;
  diff: number | null;
  ci: [number, number] | null;
  mcnemar: McNemar | null;
  /** The test's p before Holm when it is not McNemar's (the reviewed comparison). */
  p?: number | null;
  /** Holm-adjusted McNemar p over all pairs of this metric. */
  pHolm: number | null;
  /** The significantly more accurate system, or null when the difference is not significant. */
  better: string | null;
  /** The reviewed comparison, a pair still open: about how many more answers would order it (null: more than the file holds). */
  more?: number | null;
}

export interface ScoreComparison {
  /** Questions both systems scored. */
  n: number;
  meanA: number | null;
  meanB: number | null;
  diff: number | null;
  ci: [number, number] | null;
  /** Two-sided p: exact sign-flip up to 16 differing questions, else paired bootstrap (null without resamples). */
  p: number | null;
  pHolm: number | null;
  better: string | null;
}

export interface PairComparison {
  a: string;
  b: string;
  accuracy: AccuracyComparison;
  /** Absent for the human labels (they have no score). */
  score?: ScoreComparison;
}

export interface MetricPairs {
  /** A metric name, "human" for the labels, or "reviewed" for the review's estimate. */
  metric: string;
  pairs: PairComparison[];
}

export interface PairedReport {
  /** When the rows are partly labelled: the metric the "reviewed" entry's estimate was made from. */
  reference?: string;
  alpha: number;
  bootstrap: Required<BootstrapSettings>;
  metrics: MetricPairs[];
}

/**
 * Paired accuracy comparison of two systems from their [both, only A, only B, neither correct, not both decided]
 * question counts (pairCounts), on the questions both decided.
 */
function compareDecisions(k: readonly number[]): Omit<AccuracyComparison, 'pHolm' | 'better' | 'ci'> {
  const [both, onlyA, onlyB, neither] = k as [number, number, number, number];
  const n = both + onlyA + onlyB + neither;
  return {
    n,
    accA: n ? (both + onlyA) / n : null,
    accB: n ? (both + onlyB) / n : null,
    diff: n ? (onlyA - onlyB) / n : null,
    mcnemar: n ? mcnemarExact(onlyA, onlyB, n) : null,
  };
}

/** Up to this many nonzero paired differences, the score p-value is the exact sign-flip test's (see the header). */
export const SIGN_FLIP_MAX = 16;

/**
 * Exact two-sided p of the paired sign-flip (randomization) test: under "no difference" each question's
 * difference is as likely negated, so p = share of the 2^m sign patterns of the m nonzero differences whose
 * |sum| reaches the observed |sum|. Enumerated in Gray-code order (one sign changes per step). For m ≤ SIGN_FLIP_MAX.
 */
export function signFlipP(diffs: ArrayLike<number>): number {
  const d: number[] = [];
  for (let i = 0; i < diffs.length; i++) if (diffs[i] !== 0 && !Number.isNaN(diffs[i]!)) d.push(diffs[i]!);
  const m = d.length;
  if (m === 0) return 1;
  if (m > 30) throw new Error(`signFlipP: ${m} differences are too many to enumerate`);
  let sum = 0;
  let abs = 0;
  for (const x of d) [sum, abs] = [sum + x, abs + Math.abs(x)];
  // Sums equal to the observed one up to rounding count as reaching it.
  const reach = Math.abs(sum) - 1e-9 * abs;
  const sign = new Int8Array(m).fill(1);
  let s = sum;
  let hits = 0;
  const N = 2 ** m;
  for (let i = 0; i < N; i++) {
    if (i > 0) {
      const j = 31 - Math.clz32(i & -i); // the bit that changes between Gray codes i-1 and i
      s -= 2 * sign[j]! * d[j]!;
      sign[j] = -sign[j]!;
    }
    if (Math.abs(s) >= reach) hits++;
  }
  return hits / N;
}

/** Two-sided p of "no difference" from the observed difference and its bootstrap draws (see the header). */
export function bootstrapP(diff: number, draws: ArrayLike<number>): number | null {
  let n = 0;
  let mean = 0;
  for (let i = 0; i < draws.length; i++) {
    const d = draws[i]!;
    if (Number.isNaN(d)) continue;
    n++;
    mean += d;
  }
  if (n < 2) return null;
  mean /= n;
  let ss = 0;
  for (let i = 0; i < draws.length; i++) {
    const d = draws[i]!;
    if (!Number.isNaN(d)) ss += (d - mean) * (d - mean);
  }
  const se = Math.sqrt(ss / (n - 1));
  if (se === 0) return diff === 0 ? 1 : 0;
  return Math.min(1, 2 * normalUpperTail(Math.abs(diff) / se));
}

function decisionPairs(
  t: CompareTable,
  dec: Int8Array,
  pairs: [number, number][],
  settings: Required<BootstrapSettings>,
  alpha: number,
): PairComparison[] {
  const { resamples, seed, level } = settings;
  const Q = t.keys.length;
  const acc = pairs.map(([a, b]) => {
    const k = pairCounts(dec, dec, Q, a, b);
    const c = compareDecisions(k);
    return {
      ...c,
      ci: resamples > 0 && c.n ? countsInterval(k, pairedDiffOfCounts, resamples, seed, level) : null,
      pHolm: null as number | null,
      better: null as string | null,
    };
  });
  const adj = holm(acc.map((x) => x.mcnemar?.p ?? null));
  return pairs.map(([a, b], k) => {
    const x = acc[k]!;
    x.pHolm = adj[k]!;
    if (x.pHolm !== null && x.pHolm < alpha && x.diff !== null && x.diff !== 0) x.better = x.diff > 0 ? t.systems[a]! : t.systems[b]!;
    return { a: t.systems[a]!, b: t.systems[b]!, accuracy: x };
  });
}

export function pairedComparisons(t: CompareTable, opts: PairedOptions = {}): PairedReport {
  const settings = bootstrapSettings(opts);
  const alpha = opts.alpha ?? 0.05;
  const { resamples, seed, level } = settings;
  const Q = t.keys.length;
  const pairs = systemPairs(t.systems.length);
  const metrics: MetricPairs[] = t.metrics.map((m) => {
    const out = decisionPairs(t, t.decision[m.name]!, pairs, settings, alpha);
    const sc = t.score[m.name]!;
    // Every pair's resampled differences (systemPairs order), from the question draws the leaderboard's means use.
    const draws = resamples > 0 ? scoreDraws(sc, t.systems.length, Q, resamples, seed).diffs : null;
    const scores: ScoreComparison[] = pairs.map(([a, b], k) => {
      let n = 0;
      let sa = 0;
      let sb = 0;
      const differ: number[] = [];
      for (let q = 0; q < Q; q++) {
        const x = sc[a * Q + q]!;
        const y = sc[b * Q + q]!;
        if (Number.isNaN(x) || Number.isNaN(y)) continue;
        n++;
        sa += x;
        sb += y;
        if (x !== y && differ.length <= SIGN_FLIP_MAX) differ.push(x - y);
      }
      const few = differ.length <= SIGN_FLIP_MAX;
      return {
        n,
        meanA: n ? sa / n : null,
        meanB: n ? sb / n : null,
        diff: n ? (sa - sb) / n : null,
        ci: draws && n ? percentileInterval(draws[k]!, level) : null,
        p: draws && n ? (few ? signFlipP(differ) : bootstrapP((sa - sb) / n, draws[k]!)) : null,
        pHolm: null,
        better: null,
      };
    });
    const adj = holm(scores.map((s) => s.p));
    scores.forEach((s, k) => {
      s.pHolm = adj[k]!;
      if (s.pHolm !== null && s.pHolm < alpha && s.diff !== null && s.diff !== 0)
        s.better = s.diff > 0 ? t.systems[pairs[k]![0]]! : t.systems[pairs[k]![1]]!;
      out[k]!.score = s;
    });
    return { metric: m.name, pairs: out };
  });
  if (t.labelled && !t.partial) metrics.push({ metric: 'human', pairs: decisionPairs(t, t.human, pairs, settings, alpha) });
  const review = reviewedReport(t, level, alpha);
  if (review)
    metrics.push({
      metric: 'reviewed',
      pairs: review.pairs.map((p) => ({
        a: p.a,
        b: p.b,
        accuracy: {
          n: p.n,
          accA: p.accA,
          accB: p.accB,
          diff: p.diff,
          ci: p.ci,
          mcnemar: null,
          p: p.p,
          pHolm: p.pHolm,
          better: p.better,
          ...(p.more !== undefined ? { more: p.more } : {}),
        },
      })),
    });
  return { ...(review ? { reference: review.reference } : {}), alpha, bootstrap: settings, metrics };
}
