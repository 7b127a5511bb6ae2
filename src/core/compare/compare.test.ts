/**
 * The comparison statistics against test/fixtures/compare-reference.json (scipy binomtest / kendalltau, Holm by
 * its definition, numpy quantiles, bootstraps replayed with an independent mulberry32 — see
 * scripts/reference/compare_reference.py), plus small cases worked by hand.
 * The reference replays question resampling. Score-mean intervals still draw questions the same way and match it
 * to rounding; the count intervals (accuracies, human accuracies, paired accuracy differences, gaps) now come from
 * multinomial draws of the counts — the same distribution, other draws — so they match it within Monte-Carlo
 * error, checked tightly below against question resampling with 2000 resamples.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../util/random.ts';
import { forEachSubsample, percentileInterval, scoreDrawsFor } from './resample.ts';
import type { MetricResult, QaRow } from '../types.ts';
import {
  agreementSplits,
  compareTable,
  disagreements,
  erfc,
  holm,
  leaderboard,
  mcnemarExact,
  metricRanking,
  pairedComparisons,
  type CompareRow,
} from './index.ts';
import { SIGN_FLIP_MAX, signFlipP } from './paired.ts';
import { roundStat } from '../report.ts';
import { compareReport } from './report.ts';
import { leaderboardRows } from './exports.ts';
import { noRankingWhy, verdict } from './format.ts';
import { ResultTable } from '../result-table.ts';
import type { RowResults } from '../scoring.ts';

/** Results as every surface keeps them (columns), from one object per row. */
const T = (rs: readonly RowResults[]) => ResultTable.of(rs, [...new Set(rs.flatMap((x) => Object.keys(x)))]);

interface RefCase {
  name: string;
  systems: string[];
  threshold: number;
  scores: (number | null)[][];
  labels: (boolean | null)[][];
  expected: {
    leaderboard: {
      system: string;
      mean: number;
      mean_ci: [number, number];
      accuracy: number;
      accuracy_ci: [number, number];
      human_correct: number;
      human_labelled: number;
      human_accuracy: number;
      human_ci: [number, number];
    }[];
    accuracy_pairs: DecPair[];
    human_pairs: DecPair[];
    score_pairs: {
      a: string;
      b: string;
      n: number;
      diff: number;
      ci: [number, number];
      p: number;
      p_holm: number;
      better: string | null;
    }[];
    ranking: {
      kendall_tau: number | null;
      discordant: [string, string][];
      metric_rank: number[];
      human_rank: number[];
      gaps: { system: string; n: number; metric_accuracy: number; human_accuracy: number; gap: number; gap_ci: [number, number] }[];
    };
  };
}
interface DecPair {
  a: string;
  b: string;
  n: number;
  b_count: number;
  c_count: number;
  diff: number;
  ci: [number, number];
  p: number;
  p_holm: number;
  better: string | null;
}

const REF = JSON.parse(readFileSync(new URL('../../../test/fixtures/compare-reference.json', import.meta.url), 'utf8')) as {
  bootstrap: { resamples: number; seed: number; level: number; alpha: number };
  mulberry32_seed42: number[];
  mcnemar: { b: number; c: number; p: number }[];
  erfc: { x: number; erfc: number }[];
  holm: { p: (number | null)[]; adjusted: (number | null)[] }[];
  cases: RefCase[];
};
const BOOT = { resamples: REF.bootstrap.resamples, seed: REF.bootstrap.seed, level: REF.bootstrap.level };

const close = (got: number | null | undefined, want: number | null, tol = 1e-9) => {
  if (want === null) expect(got).toBeNull();
  else expect(Math.abs((got ?? NaN) - want)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(want)));
};
const closeCi = (got: [number, number] | null, want: [number, number] | null) => {
  if (want === null) return expect(got).toBeNull();
  expect(got).not.toBeNull();
  close(got![0], want[0]);
  close(got![1], want[1]);
};
/**
 * Two percentile intervals from independent draws of 300 resamples each: an endpoint's Monte-Carlo standard
 * error is ~0.154·sd, the difference's ~0.22·sd ≈ 0.056 of the interval width (3.92·sd); allowed 4 of those.
 */
const mcCi = (got: [number, number] | null, want: [number, number] | null) => {
  if (want === null) return expect(got).toBeNull();
  expect(got).not.toBeNull();
  const allowed = 0.23 * (want[1] - want[0]) + 1e-12;
  expect(Math.abs(got![0] - want[0])).toBeLessThanOrEqual(allowed);
  expect(Math.abs(got![1] - want[1])).toBeLessThanOrEqual(allowed);
};

/** Long rows (system order, then question order) from a reference matrix; missing cells have no row. */
function tableOf(c: RefCase) {
  const rows: CompareRow[] = [];
  const results: Record<string, MetricResult>[] = [];
  c.systems.forEach((system, s) => {
    c.scores[s]!.forEach((score, q) => {
      const label = c.labels[s]![q];
      // A cell with neither score nor label is a question the system did not answer.
      if (score === null && label === null) return;
      rows.push({ system, key: `q${q}`, ...(label !== null ? { label: { kind: 'binary' as const, correct: label! } } : {}) });
      results.push({ m: { score, decision: score === null ? null : score >= c.threshold, explanation: '' } });
    });
  });
  const t = compareTable(rows, T(results), [{ name: 'm', threshold: c.threshold }], {
    systems: c.systems,
    keys: c.scores[0]!.map((_, q) => `q${q}`),
  });
  // Some cells have no label: that is a review (reviewed accuracy, review/estimate.test.ts). The reference computes
  // the statistics of the labelled cells as they stand, as when every row is labelled.
  expect(t.partial).toBe(true);
  return { ...t, partial: false };
}

describe('mcnemarExact (scipy.stats.binomtest)', () => {
  it.each(REF.mcnemar)('b=$b c=$c', ({ b, c, p }) => {
    const got = mcnemarExact(b, c);
    // Relative tolerance: the tails of large n are tiny but must be right to many digits.
    if (p === 0) expect(got.p).toBeLessThan(1e-300);
    else expect(Math.abs(got.p - p) / p).toBeLessThan(1e-9);
    expect(mcnemarExact(c, b).p).toBe(got.p);
  });
  it('matches a hand count: b=0, c=3 → p = 2·(1/2)³ = 0.25', () => {
    expect(mcnemarExact(0, 3).p).toBeCloseTo(0.25, 15);
    // b=1, c=4: P(X ≤ 1) = (1 + 5)/32, two-sided 12/32.
    expect(mcnemarExact(1, 4).p).toBeCloseTo(0.375, 15);
  });
});

describe('erfc (scipy.special.erfc)', () => {
  it.each(REF.erfc)('x = $x', ({ x, erfc: want }) => {
    expect(Math.abs(erfc(x) - want) / want).toBeLessThan(1e-13);
  });
});

describe('holm', () => {
  it.each(REF.holm)('$p', ({ p, adjusted }) => {
    const got = holm(p);
    adjusted.forEach((a, i) => close(got[i], a, 1e-12));
  });
  it('by hand: 4 tests, p = .01 .04 .03 .005 → .03 .06 .06 .02', () => {
    const got = holm([0.01, 0.04, 0.03, 0.005]) as number[];
    [0.03, 0.06, 0.06, 0.02].forEach((x, i) => expect(got[i]).toBeCloseTo(x, 12));
  });
});

it('the Python replay uses the same generator (mulberry32, seed 42)', () => {
  const rng = mulberry32(42);
  for (const x of REF.mulberry32_seed42) expect(rng()).toBe(x);
});

describe.each(REF.cases)('reference case $name', (c) => {
  const t = tableOf(c);
  const e = c.expected;

  it('leaderboard: means, accuracies, human counts and their bootstrap intervals', () => {
    const board = leaderboard(t, BOOT).metrics[0]!;
    for (const want of e.leaderboard) {
      const got = board.entries.find((x) => x.system === want.system)!;
      close(got.mean.value, want.mean);
      closeCi(got.mean.ci, want.mean_ci);
      close(got.accuracy.value, want.accuracy);
      mcCi(got.accuracy.ci, want.accuracy_ci);
      expect(got.human?.correct).toBe(want.human_correct);
      expect(got.human?.labelled).toBe(want.human_labelled);
      close(got.human?.accuracy, want.human_accuracy);
      mcCi(got.human?.ci ?? null, want.human_ci);
    }
    // Sorted by accuracy, best first.
    const acc = board.entries.map((x) => x.accuracy.value!);
    expect([...acc].sort((a, b) => b - a)).toEqual(acc);
  });

  it('paired tests: McNemar counts and p, Holm, paired-bootstrap intervals and p, verdicts', () => {
    const rep = pairedComparisons(t, { ...BOOT, alpha: REF.bootstrap.alpha });
    const metric = rep.metrics.find((m) => m.metric === 'm')!;
    const human = rep.metrics.find((m) => m.metric === 'human')!;
    const checkDec = (got: (typeof metric.pairs)[number]['accuracy'], want: DecPair) => {
      expect(got.n).toBe(want.n);
      expect([got.mcnemar!.b, got.mcnemar!.c]).toEqual([want.b_count, want.c_count]);
      close(got.diff, want.diff);
      mcCi(got.ci, want.ci);
      close(got.mcnemar!.p, want.p);
      close(got.pHolm, want.p_holm);
      expect(got.better).toBe(want.better);
    };
    e.accuracy_pairs.forEach((want, k) => {
      const got = metric.pairs[k]!;
      expect([got.a, got.b]).toEqual([want.a, want.b]);
      checkDec(got.accuracy, want);
    });
    e.human_pairs.forEach((want, k) => checkDec(human.pairs[k]!.accuracy, want));
    e.score_pairs.forEach((want, k) => {
      const got = metric.pairs[k]!.score!;
      expect(got.n).toBe(want.n);
      close(got.diff, want.diff);
      closeCi(got.ci, want.ci);
      close(got.p, want.p);
      close(got.pHolm, want.p_holm);
      expect(got.better).toBe(want.better);
    });
  });

  it('metric vs human: Kendall τ, discordant pairs, ranks, gaps with intervals', () => {
    const r = metricRanking(t, BOOT).metrics[0]!;
    // scipy's τ, rounded once to the report's 4 decimals.
    expect(r.kendallTau).toBe(roundStat(e.ranking.kendall_tau));
    expect(r.discordant.map((p) => [p.a, p.b])).toEqual(e.ranking.discordant);
    e.ranking.gaps.forEach((want, s) => {
      const got = r.gaps[s]!;
      expect(got.system).toBe(want.system);
      expect(got.n).toBe(want.n);
      close(got.metricAccuracy, want.metric_accuracy);
      close(got.humanAccuracy, want.human_accuracy);
      close(got.gap, want.gap);
      mcCi(got.gapCi, want.gap_ci);
      expect(got.metricRank).toBe(e.ranking.metric_rank[s]);
      expect(got.humanRank).toBe(e.ranking.human_rank[s]);
    });
  });
});

describe('by hand', () => {
  // Three systems, four questions. Decisions by metric m (threshold 0.5) and human labels:
  //          q1        q2        q3        q4
  //   A   .9 ✓ / T  .8 ✓ / T  .6 ✓ / F  .7 ✓ / T      metric 4/4, human 3/4
  //   B   .2 ✗ / F  .9 ✓ / T  .1 ✗ / F   —            metric 1/3, human 1/3 (no row for q4)
  //   C   .4 ✗ / T  .3 ✗ / T  .8 ✓ / T  .2 ✗ / F      metric 1/4, human 3/4
  const cells: [string, string, number, boolean][] = [
    ['A', 'q1', 0.9, true],
    ['A', 'q2', 0.8, true],
    ['A', 'q3', 0.6, false],
    ['A', 'q4', 0.7, true],
    ['B', 'q1', 0.2, false],
    ['B', 'q2', 0.9, true],
    ['B', 'q3', 0.1, false],
    ['C', 'q1', 0.4, true],
    ['C', 'q2', 0.3, true],
    ['C', 'q3', 0.8, true],
    ['C', 'q4', 0.2, false],
  ];
  const rows: (CompareRow & Partial<QaRow>)[] = cells.map(([system, key, , label]) => ({
    system,
    key,
    label: { kind: 'binary', correct: label },
  }));
  const results = cells.map(([, , score]) => ({ m: { score, decision: score >= 0.5, explanation: '' } }));
  const t = compareTable(rows, T(results), [{ name: 'm', threshold: 0.5 }]);

  it('leaderboard values and human accuracy are plain counts', () => {
    const b = leaderboard(t, { resamples: 0 }).metrics[0]!;
    expect(b.entries.map((e) => [e.system, e.rank, e.accuracy.value, e.human?.correct, e.human?.labelled])).toEqual([
      ['A', 1, 1, 3, 4],
      ['B', 2, 1 / 3, 1, 3],
      ['C', 3, 1 / 4, 3, 4],
    ]);
    expect(b.entries[0]!.mean.value).toBeCloseTo(0.75, 12);
    expect(b.entries[0]!.accuracy.ci).toBeNull();
  });

  it('systems without any score share the last rank', () => {
    const rows2 = [...rows, { system: 'D', key: 'q1' }, { system: 'E', key: 'q2' }];
    const none = { m: { score: null, decision: null, explanation: 'n/a' } };
    const t2 = compareTable(rows2, T([...results, none, none]), [{ name: 'm', threshold: 0.5 }]);
    const b = leaderboard(t2, { resamples: 0 }).metrics[0]!;
    expect(b.entries.map((e) => [e.system, e.rank, e.accuracy.value])).toEqual([
      ['A', 1, 1],
      ['B', 2, 1 / 3],
      ['C', 3, 1 / 4],
      ['D', 4, null],
      ['E', 4, null],
    ]);
  });

  it('McNemar on shared questions only: A vs B has b=2 (q1, q3), c=0 → p = 0.5', () => {
    const p = pairedComparisons(t, { resamples: 0 }).metrics[0]!.pairs[0]!;
    expect([p.a, p.b, p.accuracy.n, p.accuracy.mcnemar?.b, p.accuracy.mcnemar?.c, p.accuracy.mcnemar?.p]).toEqual(['A', 'B', 3, 2, 0, 0.5]);
    expect(p.accuracy.better).toBeNull();
    expect(p.score?.p).toBeNull();
  });

  it('metric vs human: the metric puts A > C > … but the humans tie A and C, and rank B last', () => {
    const r = metricRanking(t, { resamples: 0 }).metrics[0]!;
    expect(r.gaps.map((g) => [g.system, g.gap])).toEqual([
      ['A', 0.25],
      ['B', 0],
      ['C', -0.5],
    ]);
    // metric: A 1, B 1/3, C 1/4; human: A 3/4, B 1/3, C 3/4 → B–C reversed, A–C tied by humans only.
    expect(r.discordant.map((p) => `${p.a}-${p.b}`)).toEqual(['B-C']);
    expect(r.tiedInOne.map((p) => `${p.a}-${p.b}`)).toEqual(['A-C']);
  });

  it('disagreements: questions where decided systems split, filterable', () => {
    expect(disagreements(t, { metric: 'm' }).map((d) => [d.key, d.decisions])).toEqual([
      ['q1', [1, 0, 0]],
      ['q2', [1, 1, 0]],
      ['q3', [1, 0, 1]],
      ['q4', [1, -1, 0]],
    ]);
    expect(disagreements(t, { metric: 'm', system: 'C', correct: true }).map((d) => d.key)).toEqual(['q3']);
    expect(disagreements(t, { metric: 'human' }).map((d) => d.key)).toEqual(['q1', 'q3', 'q4']);
    expect(agreementSplits(t, 'm')).toEqual({ '1/3': 1, '2/3': 2, '1/2': 1 });
    expect(() => disagreements(t, { metric: 'nope' })).toThrow(/no metric "nope"/);
  });

  it('is deterministic for a seed and changes with the seed', () => {
    const a = JSON.stringify(pairedComparisons(t, { seed: 3, resamples: 200 }));
    expect(JSON.stringify(pairedComparisons(t, { seed: 3, resamples: 200 }))).toBe(a);
    expect(JSON.stringify(pairedComparisons(t, { seed: 4, resamples: 200 }))).not.toBe(a);
  });
});

/**
 * The reference for the new intervals: plain question resampling (Q question draws per resample, as every
 * interval was computed before), each statistic a weighted ratio over the drawn questions. Kept here, not in
 * the product.
 */
function questionBootstrap(Q: number, B: number, seed: number, stats: ((w: Int32Array) => number)[]): Float64Array[] {
  const out = stats.map(() => new Float64Array(B));
  const w = new Int32Array(Q);
  forEachSubsample(Q, Q, B, seed, (drawn, b) => {
    w.fill(0);
    for (const q of drawn) w[q] = w[q]! + 1;
    stats.forEach((f, i) => (out[i]![b] = f(w)));
  });
  return out;
}
/** Weighted mean of f(q) over the questions where f is defined (≥ −1 … 1; NaN = missing). */
const wmean = (Q: number, f: (q: number) => number) => (w: Int32Array) => {
  let num = 0;
  let den = 0;
  for (let q = 0; q < Q; q++) {
    const v = f(q);
    if (!w[q] || Number.isNaN(v)) continue;
    num += w[q]! * v;
    den += w[q]!;
  }
  return den ? num / den : NaN;
};
const sdOf = (xs: Float64Array) => {
  const v = Array.from(xs).filter((x) => !Number.isNaN(x));
  const m = v.reduce((a, b) => a + b, 0) / v.length;
  return Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / (v.length - 1));
};
/**
 * Two independent percentile intervals of B resamples: endpoints within 4 standard errors of their difference
 * (normal approximation: √(α(1−α)/B)/φ(z)·sd each), plus one step of a statistic that moves in steps of `step`
 * (a ratio over n questions moves in steps of about 1/n, and a percentile of such draws can jump a whole step).
 */
function withinMc(got: [number, number] | null, draws: Float64Array, B: number, what: string, step = 0) {
  const want = percentileInterval(draws, 0.95)!;
  const allowed = 4 * Math.SQRT2 * (Math.sqrt((0.025 * 0.975) / B) / 0.05844) * sdOf(draws) + step + 1e-12;
  expect(got, what).not.toBeNull();
  expect(Math.abs(got![0] - want[0]), `${what} lower`).toBeLessThanOrEqual(allowed);
  expect(Math.abs(got![1] - want[1]), `${what} upper`).toBeLessThanOrEqual(allowed);
}

describe('intervals agree with question resampling within Monte-Carlo error', () => {
  const B = 2000;
  describe.each(REF.cases)('$name', (c) => {
    const t = tableOf(c);
    const S = t.systems.length;
    const Q = t.keys.length;
    const dec = t.decision.m!;
    const h = t.human;
    const val = (x: Int8Array, s: number, q: number) => (x[s * Q + q]! < 0 ? NaN : x[s * Q + q]!);
    it.each([1, 2, 3])('seed %i: accuracies, human accuracies, paired accuracy differences, gaps', (seed) => {
      const opts = { resamples: B, seed, level: 0.95 };
      const board = leaderboard(t, opts).metrics[0]!;
      const paired = pairedComparisons(t, opts);
      const ranking = metricRanking(t, opts).metrics[0]!;
      const ref = (f: (q: number) => number) => questionBootstrap(Q, B, seed + 100, [wmean(Q, f)])[0]!;
      const stepOf = (f: (q: number) => number) => {
        let n = 0;
        for (let q = 0; q < Q; q++) if (!Number.isNaN(f(q))) n++;
        return 1 / n;
      };
      const check = (got: [number, number] | null, f: (q: number) => number, what: string) => withinMc(got, ref(f), B, what, stepOf(f));
      for (let s = 0; s < S; s++) {
        const e = board.entries.find((x) => x.system === t.systems[s])!;
        check(e.accuracy.ci, (q) => val(dec, s, q), `accuracy ${t.systems[s]}`);
        check(e.human!.ci, (q) => val(h, s, q), `human ${t.systems[s]}`);
        const both = (q: number) => (dec[s * Q + q]! < 0 || h[s * Q + q]! < 0 ? NaN : dec[s * Q + q]! - h[s * Q + q]!);
        check(ranking.gaps[s]!.gapCi, both, `gap ${t.systems[s]}`);
      }
      for (const metric of ['m', 'human']) {
        const x = metric === 'm' ? dec : h;
        const pairs = paired.metrics.find((p) => p.metric === metric)!.pairs;
        pairs.forEach((p) => {
          const a = t.systems.indexOf(p.a);
          const b = t.systems.indexOf(p.b);
          check(p.accuracy.ci, (q) => val(x, a, q) - val(x, b, q), `${metric} ${p.a}−${p.b}`);
        });
      }
    });
  });

  it(`score means and paired score differences above ${scoreDrawsFor(3)} questions of 3 systems (subsample, rescaled)`, () => {
    // Three systems over Q questions; c misses a tenth of them, so pairs with c take their own pass.
    const Q = scoreDrawsFor(3) + 5_000;
    const rng = mulberry32(21);
    const rows: CompareRow[] = [];
    const results: Record<string, MetricResult>[] = [];
    for (const [s, skill] of [
      ['a', 0.6],
      ['b', 0.55],
      ['c', 0.5],
    ] as const)
      for (let q = 0; q < Q; q++) {
        if (s === 'c' && rng() < 0.1) continue;
        const score = Math.round(Math.min(1, Math.max(0, skill + (rng() - 0.5) * 0.9)) * 1000) / 1000;
        rows.push({ system: s, key: `q${q}` });
        results.push({ m: { score, decision: score >= 0.5, explanation: '' } });
      }
    const t = compareTable(rows, T(results), [{ name: 'm', threshold: 0.5 }]);
    const sc = t.score.m!;
    const B2 = 500;
    const opts = { resamples: B2, seed: 5 };
    const board = leaderboard(t, opts).metrics[0]!;
    const pairs = pairedComparisons(t, opts).metrics[0]!.pairs;
    const v = (s: number, q: number) => sc[s * Q + q]!;
    const ref = (f: (q: number) => number) => questionBootstrap(Q, B2, 77, [wmean(Q, f)])[0]!;
    for (let s = 0; s < 3; s++)
      withinMc(
        board.entries.find((e) => e.system === t.systems[s])!.mean.ci,
        ref((q) => v(s, q)),
        B2,
        `mean ${t.systems[s]}`,
      );
    for (const p of pairs) {
      const a = t.systems.indexOf(p.a);
      const b = t.systems.indexOf(p.b);
      const draws = ref((q) => v(a, q) - v(b, q));
      withinMc(p.score!.ci, draws, B2, `score ${p.a}−${p.b}`);
    }
  });
});

describe('few questions: the exact sign-flip test', () => {
  // Reference p-values: scipy.stats.permutation_test((d,), np.mean, permutation_type='samples', n_resamples=np.inf).
  it.each([
    [[1, 1, 1, 1, 1], 0.0625], // by hand: 2 of 32 sign patterns reach |sum| 5
    [[0.5, 0.2, -0.1, 0.9, 0.4, 0.3, 0, 0.7], 0.03125],
    [[1, -1, 1, 1, 0, 1, 1, 1, -1, 1, 1, 1], 0.0654296875], // by hand: the sign test, 2·(1 + 11 + 55)/2^11
    [[0.31, 0.12, -0.05, 0.44, 0.27, -0.18, 0.09, 0.36, 0.22, 0.15, -0.02, 0.41, 0.05, 0.29, 0.33, -0.11], 0.004608154296875],
  ])('%j → p = %f', (d, want) => {
    expect(signFlipP(d)).toBeCloseTo(want, 14);
  });

  it('no difference gives p = 1', () => {
    expect(signFlipP([0, 0])).toBe(1);
    expect(signFlipP([])).toBe(1);
  });

  it('five questions all won by A are not enough to call A better (the bootstrap standard error said p ≈ 0)', () => {
    const rows: CompareRow[] = ['A', 'B'].flatMap((system) => [1, 2, 3, 4, 5].map((q) => ({ system, key: `q${q}` })));
    const score = (system: string, q: number) => (system === 'A' ? 0.9 - q / 100 : 0.2 + q / 100);
    const results = rows.map((r) => ({ m: { score: score(r.system, Number(r.key.slice(1))), decision: null, explanation: '' } }));
    const p = pairedComparisons(compareTable(rows, T(results), [{ name: 'm', threshold: 0.5 }]), { resamples: 200, seed: 1 }).metrics[0]!
      .pairs[0]!.score!;
    expect([p.n, p.p, p.better]).toEqual([5, 0.0625, null]);
  });

  it(`above ${SIGN_FLIP_MAX} differing questions the paired bootstrap decides, and a clear win is significant`, () => {
    const Q = SIGN_FLIP_MAX + 9;
    const rows: CompareRow[] = ['A', 'B'].flatMap((system) => Array.from({ length: Q }, (_, q) => ({ system, key: `q${q}` })));
    const results = rows.map((r, i) => ({
      m: { score: r.system === 'A' ? 0.8 + (i % 3) / 100 : 0.3 + (i % 5) / 100, decision: null, explanation: '' },
    }));
    const p = pairedComparisons(compareTable(rows, T(results), [{ name: 'm', threshold: 0.5 }]), { resamples: 200, seed: 1 }).metrics[0]!
      .pairs[0]!.score!;
    expect(p.n).toBe(Q);
    expect(p.p).toBeLessThan(1e-6);
    expect(p.better).toBe('A');
  });
});

describe('no statistic without data', () => {
  const label = (correct: boolean) => ({ kind: 'binary' as const, correct });
  const res = (d: boolean) => ({ m: { score: d ? 1 : 0, decision: d, explanation: '' } });

  it('two systems with no question in common: no paired verdict or p-value, no Kendall τ', () => {
    const rows: CompareRow[] = [
      ...[1, 2, 3].map((q) => ({ system: 'A', key: `a${q}`, label: label(q > 1) })),
      ...[1, 2, 3].map((q) => ({ system: 'B', key: `b${q}`, label: label(q > 2) })),
    ];
    const t = compareTable(rows, T(rows.map((r, i) => res(i % 2 === 0))), [{ name: 'm', threshold: 0.5 }]);
    const p = pairedComparisons(t, { resamples: 100, seed: 1 }).metrics[0]!.pairs[0]!;
    expect([p.accuracy.n, p.accuracy.pHolm, p.accuracy.better, p.score!.p]).toEqual([0, null, null, null]);
    expect(verdict(p.accuracy.better, p.a, p.b, p.accuracy.n)).toBe('no shared questions');
    const r = metricRanking(t, { resamples: 100, seed: 1 }).metrics[0]!;
    expect([r.systems, r.sharedQuestions, r.kendallTau, r.discordant]).toEqual([2, 0, null, []]);
    expect(noRankingWhy(r)).toBe('no labelled question is shared by two systems');
  });

  it('Kendall τ is rounded once: the leaderboard CSV says 1, not 0.9999999999999999', () => {
    // Five systems answering ten questions, system k right on k + 1 of them, by the metric and by the humans.
    const rows: CompareRow[] = [];
    const results = [];
    for (let s = 0; s < 5; s++)
      for (let q = 0; q < 10; q++) {
        rows.push({ system: `s${s}`, key: `q${q}`, label: label(q <= s) });
        results.push(res(q <= s));
      }
    const { report } = compareReport(rows, T(results), [{ name: 'm', threshold: 0.5 }], { resamples: 0 });
    expect(leaderboardRows(report).map((r) => r.kendall_tau)).toEqual([1, 1, 1, 1, 1]);
  });
});
