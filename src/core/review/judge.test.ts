/**
 * What the review says about the judge: its false-negative and false-positive rates, its bias on a system's
 * accuracy and the trend of its errors with answer length — by hand on small frames, and in simulation at every
 * point a person may stop (coverage of the intervals, bias of the values).
 */
import { describe, expect, it } from 'vitest';
import { judgeReport, type JudgeFigure } from './judge.ts';
import type { ReviewFrame } from './estimate.ts';
import { S, ROWS, STOPS, cells, inside, population, reviewOf } from '../../../test/review-sim.ts';

/** A frame of one system without a step-by-step design: labels taken as a random sample (π given), or known (π NaN). */
function plainFrame(d: number[], y: number[], pi: number[]): ReviewFrame {
  const n = d.length;
  return {
    S: 1,
    Q: n,
    f: Float64Array.from(d),
    y: Int8Array.from(y),
    pi: Float64Array.from(pi),
    unit: Int32Array.from(pi, (p, c) => (Number.isNaN(p) ? -1 : c)),
    group: null,
    kind: 'assumed-random',
    hard: true,
    seq: null,
  };
}

describe("the judge's errors by hand", () => {
  it('are counted exactly when every row has a known verdict', () => {
    // d: 1 1 1 0 0 0; y: 1 0 1 1 0 1 → correct answers 4, of them rejected 2 (FN 1/2); wrong 2, credited 1 (FP 1/2).
    const d = [1, 1, 1, 0, 0, 0];
    const y = [1, 0, 1, 1, 0, 1];
    const fr = plainFrame(
      d,
      y,
      d.map(() => NaN),
    );
    const r = judgeReport(fr, { decision: d, systems: [{ name: 'A', cells: [0, 1, 2, 3, 4, 5] }], words: null }, 0.95, 1);
    const a = r.systems[0]!;
    expect(a.falseNegative.value).toBeCloseTo(0.5, 12);
    expect(a.falsePositive.value).toBeCloseTo(0.5, 12);
    // Judge accuracy 3/6, humans 4/6: under-credits by 1/6.
    expect(a.bias.value).toBeCloseTo(-1 / 6, 12);
    expect(a.bias.ci![0]).toBeCloseTo(-1 / 6, 12);
    expect(a.bias.ci![1]).toBeCloseTo(-1 / 6, 12);
    expect(a.falseNegative.ci![0]).toBeCloseTo(0.5, 3);
    expect(a.falseNegative.ci![1]).toBeCloseTo(0.5, 3);
    expect(r.interval).toBe('fixed');
  });

  it('weigh a sampled row by 1/π (inverse-probability estimate, the judge as the prediction)', () => {
    // Ten rows, the judge credits the first five; four rows reviewed at random (π = 0.4): rows 0 (right), 2 (wrong),
    // 5 (right: a false negative), 7 (wrong). With f = d: Σ f = 5; residuals y − d at the reviewed rows 0, −1, +1, 0.
    //   correct total = 5 + (−1 + 1) / 0.4 = 5;  rejected-but-correct = Σ (1 − d) f + Σ (1 − d)(y − d) / π = 0 + 1 / 0.4 = 2.5
    //   → FN = 2.5 / 5 = 0.5;  wrong total = 10 − 5 = 5, credited-but-wrong = 5 − (5 + (−1) / 0.4) = 2.5 → FP = 0.5.
    const d = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0];
    const y = [1, -1, 0, -1, -1, 1, -1, 0, -1, -1];
    const pi = y.map((v) => (v >= 0 ? 0.4 : NaN));
    const r = judgeReport(plainFrame(d, y, pi), { decision: d, systems: [{ name: 'A', cells: d.map((_, c) => c) }], words: null }, 0.95, 1);
    const a = r.systems[0]!;
    expect(a.falseNegative.value).toBeCloseTo(0.5, 12);
    expect(a.falsePositive.value).toBeCloseTo(0.5, 12);
    expect(a.bias.value).toBeCloseTo(0, 12);
    expect(a.reviewed).toBe(4);
    // Four labels say little: the rates' intervals are wide but hold their values.
    expect(a.falseNegative.ci![0]).toBeLessThanOrEqual(0.5);
    expect(a.falseNegative.ci![1]).toBeGreaterThanOrEqual(0.5);
  });

  it('bin answers by length and say whether errors grow', () => {
    // Twelve rows known: short answers (1 word) all judged right, long ones (9 words) half wrong.
    const d = Array.from({ length: 12 }, () => 1);
    const words = Array.from({ length: 12 }, (_, c) => (c < 6 ? 1 : 9));
    const y = words.map((w, c) => (w === 1 ? 1 : c % 2));
    const fr = plainFrame(
      d,
      y,
      d.map(() => NaN),
    );
    const r = judgeReport(fr, { decision: d, systems: [{ name: 'A', cells: d.map((_, c) => c) }], words }, 0.95, 1);
    expect(r.length!.bins.map((b) => [b.words, b.rows])).toEqual([
      [[1, 1], 6],
      [[9, 9], 6],
    ]);
    expect(r.length!.bins[0]!.errors.value).toBeCloseTo(0, 12);
    expect(r.length!.bins[1]!.errors.value).toBeCloseTo(0.5, 12);
    expect(r.length!.trend.value).toBeCloseTo(0.5, 12);
    expect(r.length!.verdict).toBe('grows');
  });
});

/** A system's (or every system's) true rates over its cells. */
function truthOf(pop: ReturnType<typeof population>, cs: readonly number[]) {
  let pos = 0;
  let fn = 0;
  let neg = 0;
  let fp = 0;
  let dSum = 0;
  for (const c of cs) {
    dSum += pop.d[c]!;
    if (pop.y[c]) {
      pos++;
      if (!pop.d[c]) fn++;
    } else {
      neg++;
      if (pop.d[c]) fp++;
    }
  }
  return { fn: fn / pos, fp: fp / neg, bias: (dSum - pos) / cs.length };
}

describe("the judge's errors early in a review", () => {
  it('give no rate before a row of its kind is reviewed, and no interval of zero width after', () => {
    const pop = population(3);
    let given = 0;
    for (let seed = 1; seed <= 20; seed++)
      for (const n of [3, 8, 15]) {
        const fr = reviewOf(pop, seed, 360, false)(n);
        const r = judgeReport(
          fr,
          { decision: pop.d, systems: Array.from({ length: S }, (_, s) => ({ name: `s${s}`, cells: cells(s) })), words: null },
          0.95,
          1,
        );
        [...r.systems, r.overall].forEach((e, i) => {
          const cs = i < S ? cells(i) : Array.from({ length: ROWS }, (_, c) => c);
          const drawn = (d: number) => cs.some((c) => pop.d[c] === d && fr.seq!.stepOf[c]! >= 0);
          if (!drawn(0)) expect(e.falseNegative.value).toBeNull();
          if (!drawn(1)) expect(e.falsePositive.value).toBeNull();
          for (const f of [e.falseNegative, e.falsePositive, e.bias])
            if (f.ci) {
              given++;
              expect(f.ci[1] - f.ci[0]).toBeGreaterThan(0);
            }
        });
      }
    expect(given).toBeGreaterThan(100);
  });
});

describe("the judge's errors in simulation, at every point a person may stop", () => {
  const pop = population(3);
  // Answer lengths: the judge's errors are on longer answers (5–12 words) more often than its right calls (1–8).
  const words = Int32Array.from({ length: ROWS }, (_, c) => {
    const h = (Math.imul(c + 1, 0x9e3779b1) >>> 0) / 4294967296;
    return pop.d[c] !== pop.y[c] ? 5 + Math.floor(h * 8) : 1 + Math.floor(h * 8);
  });
  const all = Array.from({ length: ROWS }, (_, c) => c);
  const targets = [...Array.from({ length: S }, (_, s) => truthOf(pop, cells(s))), truthOf(pop, all)];
  const SEEDS = 150;
  for (const learn of [false, true]) {
    it(
      `holds its intervals with ${learn ? 'a prediction learned from the answers' : "the judge's decisions"} (${SEEDS} seeds)`,
      { timeout: 600_000 },
      () => {
        const kinds = ['fn', 'fp', 'bias', 'trend'] as const;
        const ever = Object.fromEntries(kinds.map((k) => [k, 0])) as Record<(typeof kinds)[number], number>;
        const bias = Object.fromEntries(kinds.map((k) => [k, targets.map(() => 0)])) as Record<(typeof kinds)[number], number[]>;
        const fixedMiss = Object.fromEntries(kinds.map((k) => [k, 0])) as Record<(typeof kinds)[number], number>;
        let trendTruth = NaN;
        let grows = 0;
        const last = STOPS.length - 1;
        for (let seed = 1; seed <= SEEDS; seed++) {
          const stop = reviewOf(pop, seed, STOPS.at(-1)!, learn);
          const miss = Object.fromEntries(kinds.map((k) => [k, targets.map(() => false)])) as Record<(typeof kinds)[number], boolean[]>;
          STOPS.forEach((n, k) => {
            const r = judgeReport(
              stop(n),
              { decision: pop.d, systems: Array.from({ length: S }, (_, s) => ({ name: `s${s}`, cells: cells(s) })), words },
              0.95,
              1,
            );
            if (Number.isNaN(trendTruth)) {
              // The bins are fixed by the lengths alone: the truth is their error rates' difference.
              const rate = (w: [number, number]) => {
                const cs = all.filter((c) => words[c]! >= w[0] && words[c]! <= w[1]);
                return cs.filter((c) => pop.d[c] !== pop.y[c]).length / cs.length;
              };
              trendTruth = rate(r.length!.bins.at(-1)!.words) - rate(r.length!.bins[0]!.words);
            }
            const check = (kind: (typeof kinds)[number], i: number, fig: JudgeFigure, truth: number) => {
              if (!inside(fig.ci, truth)) miss[kind][i] = true;
              if ((k === last || k === 0) && !inside(fig.fixed, truth)) fixedMiss[kind]++;
              if (k === last) bias[kind][i]! += (fig.value! - truth) / SEEDS;
            };
            [...r.systems, r.overall].forEach((e, i) => {
              check('fn', i, e.falseNegative, targets[i]!.fn);
              check('fp', i, e.falsePositive, targets[i]!.fp);
              check('bias', i, e.bias, targets[i]!.bias);
            });
            check('trend', 0, r.length!.trend, trendTruth);
            if (k === last && r.length!.verdict === 'grows') grows++;
          });
          for (const kind of kinds) ever[kind] += miss[kind].filter(Boolean).length;
        }
        const runs = { fn: SEEDS * targets.length, fp: SEEDS * targets.length, bias: SEEDS * targets.length, trend: SEEDS };
        if (process.env.VERITY_SIM_REPORT)
          console.log(
            learn ? 'learned' : 'judge',
            kinds.map(
              (k) =>
                `${k}: ever missed ${(ever[k] / runs[k]).toFixed(3)}, fixed missed ${(fixedMiss[k] / (2 * runs[k])).toFixed(3)}, bias ${bias[k].map((b) => b.toFixed(3)).join(',')}`,
            ),
            `trend ${trendTruth.toFixed(3)} grows ${grows}/${SEEDS}`,
          );
        // The confidence sequence: the truth outside it at any stopping point in at most 5% of runs.
        for (const kind of kinds) expect(ever[kind] / runs[kind], kind).toBeLessThanOrEqual(0.05);
        // The fixed-size interval, at the first and the last stop (each a size one could have fixed in advance).
        for (const kind of kinds) expect(fixedMiss[kind] / (2 * runs[kind]), kind).toBeLessThanOrEqual(0.07);
        // The values: unbiased (a ratio's bias falls as 1/n; measured at the last stop).
        for (const kind of kinds) for (const b of bias[kind]) expect(Math.abs(b), kind).toBeLessThan(0.02);
        // The longer answers' errors are found.
        expect(grows / SEEDS).toBeGreaterThan(0.8);
      },
    );
  }
});
