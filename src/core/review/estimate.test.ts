/**
 * The reviewed estimate: values by hand (python3's statistics.NormalDist for the quantile), the paired difference
 * with a shared answer cancelling, rank intervals — for labels with inclusion probabilities and no order (a label
 * column taken as a random sample). A review drawn step by step is simulated in sequential.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { rankIntervals, reviewedOf, reviewedPair, varianceScale, type ReviewFrame } from './estimate.ts';
import { mulberry32 } from '../util/random.ts';

const frame = (
  S: number,
  Q: number,
  f: number[],
  y: number[],
  pi: Record<number, number>,
  units?: Record<number, number>,
  group?: number[],
): ReviewFrame => {
  const p = new Float64Array(S * Q).fill(NaN);
  const u = new Int32Array(S * Q).fill(-1);
  for (const [c, v] of Object.entries(pi)) {
    p[Number(c)] = v;
    u[Number(c)] = units?.[Number(c)] ?? Number(c);
  }
  return {
    S,
    Q,
    f: Float64Array.from(f),
    y: Int8Array.from(y),
    pi: p,
    unit: u,
    group: group ? Int32Array.from(group) : null,
    kind: 'designed',
    hard: true,
    seq: null,
  };
};

describe('reviewedOf', () => {
  it('weighs each reviewed row by 1/π, counts a census row as it is, and floors the variance (by hand)', () => {
    const f = Array.from({ length: 40 }, (_, i) => [1, 1, 1, 1, 1, 0, 0, 0, 0, 1][i % 10]!);
    const y = [-1, 0, 1, -1, -1, 1, -1, 0, -1, -1, ...new Array<number>(30).fill(-1)];
    const fr = frame(1, 40, f, y, { 1: 0.5, 2: 1, 5: 0.25, 7: 0.4 });
    // θ̂ = (1 (census) + 25 (Σf elsewhere... 20 of the 39 others) + (0−1)/.5 + (1−0)/.25 + 0) / 40 = 0.65; V̂ = 2 + 12 = 14;
    // κ = (14 + 17.75/3) / (17.75 + 17.75/3) = 0.841549…, V = max(14, κ·17.75) → se = 0.0966227; interval clipped to
    // what the labels allow ([2/40, 38/40]).
    const scale = varianceScale(fr);
    expect(scale).toBeCloseTo(0.8415492957746479, 12);
    const r = reviewedOf(
      fr,
      Array.from({ length: 40 }, (_, c) => c),
      0.95,
      scale,
    )!;
    expect(r.value).toBeCloseTo(0.65, 12);
    expect(r.se).toBeCloseTo(0.09662265521087691, 12);
    expect(r.ci![0]).toBeCloseTo(0.46062307569604993, 12);
    expect(r.ci![1]).toBeCloseTo(0.8393769243039502, 12);
    expect(r).toMatchObject({ labelled: 4, sampled: 4, rows: 40, design: 'designed', lambda: 1 });
  });

  it('is the labels themselves when every row is labelled, and gives no interval when nothing was drawn', () => {
    const all = frame(1, 4, [1, 1, 0, 0], [1, 0, 0, 1], {});
    expect(reviewedOf(all, [0, 1, 2, 3], 0.95, 1)).toMatchObject({ value: 0.5, ci: [0.5, 0.5] });
    const none = frame(1, 4, [1, 1, 0, NaN], [-1, -1, -1, -1], {});
    expect(reviewedOf(none, [0, 1, 2, 3], 0.95, 1)).toMatchObject({ value: 2 / 3, ci: null, rows: 3 });
    expect(reviewedOf(frame(1, 1, [NaN], [-1], {}), [0], 0.95, 1)).toBeNull();
  });

  it('keeps the value inside its interval, however the clipping falls', () => {
    const rnd = mulberry32(3);
    for (let k = 0; k < 200; k++) {
      const n = 5 + Math.floor(rnd() * 20);
      const f = Array.from({ length: n }, () => (rnd() < 0.5 ? 1 : 0));
      const y = f.map(() => (rnd() < 0.3 ? (rnd() < 0.5 ? 1 : 0) : -1));
      const pi: Record<number, number> = {};
      y.forEach((v, c) => {
        if (v >= 0) pi[c] = 0.05 + rnd() * 0.95;
      });
      const fr = frame(1, n, f, y, pi);
      const r = reviewedOf(
        fr,
        f.map((_, c) => c),
        0.95,
        varianceScale(fr),
      )!;
      if (r.ci) {
        expect(r.value).toBeGreaterThanOrEqual(r.ci[0] - 1e-12);
        expect(r.value).toBeLessThanOrEqual(r.ci[1] + 1e-12);
      }
    }
  });
});

describe('reviewedPair', () => {
  it('cancels a shared answer and sums each reviewed group once (by hand)', () => {
    // Q = 4: questions 0 and 1 answered alike by A and B (one group each; group 1 asked, π = .5, label correct);
    // question 2: B's own answer asked (π = .25, wrong, as the judge said); question 3 apart, not asked.
    const fr = frame(
      2,
      4,
      [1, 0, 1, 1, 1, 0, 0, 1],
      [-1, 1, -1, -1, -1, 1, 0, -1],
      { 1: 0.5, 5: 0.5, 6: 0.25 },
      { 1: 10, 5: 10, 6: 11 },
      [0, 1, 2, 3, 0, 1, 4, 5],
    );
    // A: 1 + (0 + 1/.5) + 1 + 1 = 5; B: 1 + 2 + 0 + 1 = 4 → Δ = 0.25. Group 10's residuals cancel; group 11's
    // floor: κ·12 with κ = (4 + 16/3)/(16 + 16/3) = 0.4375 → se = √5.25 / 4; p = 2Φc(0.25 / se).
    const p = reviewedPair(fr, 0, 1, 0.95, varianceScale(fr));
    expect(p.n).toBe(4);
    expect(p.diff).toBeCloseTo(0.25, 12);
    expect(p.se).toBeCloseTo(0.57282196186948, 12);
    expect(p.p).toBeCloseTo(0.6625205835400574, 12);
    expect(p.ci![0]).toBeCloseTo(-0.8727104148177567, 12);
  });

  it('knows two systems that gave the same answers everywhere are equal', () => {
    const fr = frame(2, 3, [1, 0, 1, 1, 0, 1], [1, -1, -1, 1, -1, -1], { 0: 0.3, 3: 0.3 }, { 0: 7, 3: 7 }, [0, 1, 2, 0, 1, 2]);
    expect(reviewedPair(fr, 0, 1, 0.95, 1)).toMatchObject({ diff: 0, se: 0, p: 1 });
  });
});

describe('rankIntervals', () => {
  it('gives each system the ranks left open by the significant pairs (by hand)', () => {
    // A > C, B > C, A vs B undecided, D below everyone: A and B share 1–2, C is 3, D is 4.
    const better = [
      { a: 0, b: 1, winner: null },
      { a: 0, b: 2, winner: 0 },
      { a: 1, b: 2, winner: 1 },
      { a: 0, b: 3, winner: 0 },
      { a: 1, b: 3, winner: 1 },
      { a: 2, b: 3, winner: 2 },
    ];
    expect(rankIntervals(4, better)).toEqual([
      [1, 2],
      [1, 2],
      [3, 3],
      [4, 4],
    ]);
    expect(rankIntervals(3, [])).toEqual([
      [1, 3],
      [1, 3],
      [1, 3],
    ]);
  });
});
