/**
 * What more answers would buy: the half-widths projected from a review's first answers against those its later
 * answers reach (simulation, the bar: within 25% on average), and the answers a pair needs by hand.
 */
import { describe, expect, it } from 'vitest';
import { answersToOrder, halfWidthAhead } from './ahead.ts';
import { reviewedOf } from './estimate.ts';
import { S, cells, population, reviewOf } from '../../../test/review-sim.ts';

describe('answers ahead', () => {
  it('a pair is ordered at the fewest answers whose half-width is below its difference (by hand)', () => {
    // A half-width of 1/√m: a difference of 0.1 is ordered past m = 100, so at 101.
    const half = (m: number) => 1 / Math.sqrt(m);
    expect(answersToOrder(half, 0.1, 20, 10_000)).toBe(101);
    expect(answersToOrder(half, -0.1, 20, 10_000)).toBe(101);
    // More than the file holds: none.
    expect(answersToOrder(half, 0.1, 20, 100)).toBeNull();
    expect(answersToOrder(half, 0, 20, 10_000)).toBeNull();
  });

  for (const learn of [false, true])
    it(
      `projects the widths later answers reach, within 25% (${learn ? 'learned prediction' : "judge's decisions"}, 100 seeds)`,
      { timeout: 300_000 },
      () => {
        const pop = population(3);
        const FROM = 90;
        const LATER = [180, 270, 360];
        const predicted = LATER.map(() => new Array<number>(S).fill(0));
        const reached = LATER.map(() => new Array<number>(S).fill(0));
        for (let seed = 1; seed <= 100; seed++) {
          const stop = reviewOf(pop, seed, 360, learn);
          const now = stop(FROM);
          for (let s = 0; s < S; s++) {
            const half = halfWidthAhead(now, { cells: cells(s), signs: cells(s).map(() => 1), N: cells(s).length }, 0.95)!;
            LATER.forEach((m, k) => {
              predicted[k]![s]! += half(m);
              const later = reviewedOf(stop(m), cells(s), 0.95, 1)!;
              reached[k]![s]! += (later.ci![1] - later.ci![0]) / 2;
            });
          }
        }
        const ratios = predicted.flatMap((row, k) => row.map((p, s) => p / reached[k]![s]!));
        if (process.env.VERITY_SIM_REPORT) console.log(learn, ratios.map((x) => x.toFixed(2)).join(' '));
        for (const x of ratios) {
          expect(x).toBeGreaterThan(0.75);
          expect(x).toBeLessThan(1.25);
        }
      },
    );
});
