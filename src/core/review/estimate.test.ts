/**
 * Reviewed accuracy (issue 36): values by hand (python3 statistics.NormalDist for the quantile), and a simulation
 * in which the queue picks the judge's errors: the estimate stays unbiased and its interval covers, where counting
 * labels and decisions alone does not.
 */
import { describe, expect, it } from 'vitest';
import { PICK_QUEUE, PICK_RANDOM, normalQuantile, reviewedAccuracy } from './estimate.ts';
import { mulberry32 } from '../util/random.ts';
import { pickForReview } from './priority.ts';

const all = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('reviewedAccuracy', () => {
  const d = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0];

  it('counts the queue as labelled and corrects the rest by the random slice (by hand)', () => {
    const h = [1, -1, 0, -1, -1, -1, 1, 0, -1, -1];
    const pick = [PICK_RANDOM, 0, PICK_QUEUE, 0, 0, 0, PICK_QUEUE, PICK_RANDOM, 0, 0];
    const r = reviewedAccuracy(d, h, pick, all(10))!;
    // (Σ_C h = 1) + (Σ_{∉C} d = 4) = 5 of 10; the slice saw no error: z̄ = 0. Labels + decisions: 2 + 3 = 5.
    expect(r.corrected).toBeCloseTo(0.5, 12);
    expect(r.value).toBeCloseTo(0.5, 12);
    // se = √(0.8 · (1/3 · 2/3) / 2) (plus-four floor, k = 0 of r = 2): 0.5 ± 0.5843 → clipped to [2/10, 8/10].
    expect(r.ci).toEqual([0.2, 0.8]);
    expect(r).toMatchObject({ labelled: 4, random: 2, rows: 10, design: 'queue' });
  });

  it('takes every labelled row as the random slice when the input says nothing of picks (by hand)', () => {
    const h = [1, -1, -1, -1, -1, 1, -1, -1, -1, 0];
    const r = reviewedAccuracy(d, h, null, all(10))!;
    // Σd = 5, z = [0, 1, 0]: θ = 0.5 + 1/3; se = √(0.7 · var(z) / 3), var(z) = 1/3 over the floor 12/49.
    expect(r.corrected).toBeCloseTo(0.8333333333333333, 12);
    // Labels where given (2 of 3 right), decisions elsewhere (4 of 7): 6 of 10.
    expect(r.value).toBeCloseTo(0.6, 12);
    expect(r.ci![0]).toBeCloseTo(0.28672549356296206, 12);
    expect(r.ci![1]).toBeCloseTo(0.9, 12);
    expect(r.design).toBe('assumed-random');
  });

  it('is the human accuracy when every row is labelled, and has no interval without a labelled random row', () => {
    expect(reviewedAccuracy(d, [1, 1, 0, 1, 1, 0, 1, 0, 0, 0], null, all(10))).toMatchObject({
      value: 0.5,
      corrected: 0.5,
      ci: [0.5, 0.5],
    });
    const queueOnly = reviewedAccuracy(d, [0, -1, -1, -1, -1, -1, -1, -1, -1, -1], [PICK_QUEUE, 0, 0, 0, 0, 0, 0, 0, 0, 0], all(10))!;
    expect(queueOnly).toMatchObject({ value: 0.4, corrected: 0.4, ci: null, random: 0 });
    expect(reviewedAccuracy([-1], [-1], null, [0])).toBeNull();
  });

  it('has the normal quantile of the level', () => {
    expect(normalQuantile(0.95)).toBeCloseTo(1.9599639845400536, 9);
    expect(normalQuantile(0.9)).toBeCloseTo(1.6448536269514722, 9);
  });

  it('the corrected estimate stays unbiased and covers when the queue goes after the judge’s errors; the plain count is biased', () => {
    const N = 1500;
    const rnd = mulberry32(11);
    // A judge that under-credits a fifth of the correct answers (as it does long LLM answers), the rows the
    // priority mostly ranks high (as a good priority does).
    const truth = Int8Array.from({ length: N }, () => (rnd() < 0.6 ? 1 : 0));
    const wrong = Uint8Array.from(truth, (t) => (t && rnd() < 0.2 ? 1 : 0));
    const d = Int8Array.from(truth, (t, i) => (wrong[i] ? 1 - t : t));
    const priority = Float64Array.from(wrong, (w) => (w ? 0.5 : 0) + rnd() * 0.7);
    const human = truth.reduce((a, b) => a + b, 0) / N;
    let covered = 0;
    let naiveSum = 0;
    let sum = 0;
    const runs = 200;
    for (let seed = 1; seed <= runs; seed++) {
      const picks = pickForReview(priority, 150, seed);
      const h = new Int8Array(N).fill(-1);
      const bits = new Int8Array(N);
      for (const p of picks) {
        h[p.index] = truth[p.index]!;
        bits[p.index] = p.picked === 'random' ? PICK_RANDOM : p.picked === 'both' ? PICK_RANDOM | PICK_QUEUE : PICK_QUEUE;
      }
      const r = reviewedAccuracy(d, h, bits, all(N))!;
      sum += r.corrected;
      if (r.ci![0] <= human && human <= r.ci![1]) covered++;
      // Labels where reviewed, decisions elsewhere: the plain count, without the slice's correction.
      let naive = 0;
      for (let i = 0; i < N; i++) naive += h[i]! >= 0 ? h[i]! : d[i]!;
      expect(r.value).toBeCloseTo(naive / N, 12);
      naiveSum += r.value;
    }
    expect(Math.abs(sum / runs - human)).toBeLessThan(0.004);
    expect(covered / runs).toBeGreaterThanOrEqual(0.92);
    // The errors the queue did not reach (about 3 points here) stay in a count without the random slice's correction.
    expect(human - naiveSum / runs).toBeGreaterThan(0.02);
  });
});
