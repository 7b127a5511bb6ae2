/**
 * The run's speed and time left, on simulated runs shaped like the app's: two pool workers, chunks of 2,000 rows
 * saved in order, each worker's first 10,000 rows three times as slow (its first pass over answers not seen yet),
 * every chunk's time scattered ±15%, progress told at most every 500 ms as the runner tells it.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../core/util/random.ts';
import { RecentRate } from './rate.ts';

interface Told {
  t: number;
  done: number;
}

/** When each chunk is saved (ms), in order: chunks go to whichever worker is free, and are saved in order. */
function simulate(seed: number, rows: number, chunk = 2000, usPerRow = 125, warmRows = 10_000): { told: Told[]; end: number } {
  const rnd = mulberry32(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
  const free = [0, 0];
  const seen = [0, 0];
  const finished: number[] = [];
  for (let start = 0; start < rows; start += chunk) {
    const w = free[0]! <= free[1]! ? 0 : 1;
    const cold = seen[w]! < warmRows ? 3 : 1;
    seen[w]! += chunk;
    free[w] = free[w]! + (chunk * usPerRow * cold * Math.exp(0.15 * gauss())) / 1000;
    finished.push(free[w]!);
  }
  // Saved in order: a chunk is saved once every chunk before it is.
  const told: Told[] = [];
  let saved = 0;
  let last = -Infinity;
  finished.forEach((f, k) => {
    saved = Math.max(saved, f);
    const done = Math.min(rows, (k + 1) * chunk);
    if (saved - last >= 500 || done === rows) {
      told.push({ t: saved, done });
      last = saved;
    }
  });
  return { told, end: told[told.length - 1]!.t };
}

/** The relative error of each time left told from the 20th second to 80% of the rows, over 40 seeds. */
function errors(rateOf: (told: Told[]) => number[]): number[] {
  const out: number[] = [];
  for (let seed = 1; seed <= 40; seed++) {
    const rows = 1_000_000;
    const { told, end } = simulate(seed, rows);
    const rates = rateOf(told);
    told.forEach(({ t, done }, i) => {
      if (t < 20_000 || done > 0.8 * rows) return;
      const left = ((rows - done) / rates[i]!) * 1000;
      out.push(left / (end - t) - 1);
    });
  }
  return out;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('RecentRate', () => {
  it('is rows a second over the last window, over the whole run while it is shorter', () => {
    const r = new RecentRate(1000, 500, 10_000);
    expect(r.at(1000, 500)).toBe(0);
    expect(r.at(3000, 2500)).toBe(1000); // 2,000 rows in 2 s, from the start
    expect(r.at(11_000, 10_500)).toBe(1000); // 10 s, still from the start
    expect(r.at(13_000, 16_500)).toBe(1400); // from 3,000 ms: the last sample at or before 13,000 − 10,000
    expect(r.at(30_000, 16_500)).toBe(0); // nothing for 17 s: from 13,000 ms
  });

  it("tells the time left without bias after a run's slow start, where an average from the start is too long", () => {
    const windowed = errors((told) => {
      const r = new RecentRate(0, 0);
      return told.map(({ t, done }) => r.at(t, done));
    });
    const fromStart = errors((told) => told.map(({ t, done }) => (done * 1000) / t));
    expect(windowed.length).toBeGreaterThan(1000);
    expect(Math.abs(mean(windowed))).toBeLessThan(0.03);
    // Nine in ten within 10% of the time left.
    expect(windowed.filter((e) => Math.abs(e) <= 0.1).length / windowed.length).toBeGreaterThan(0.9);
    // The estimate this replaced fails the same bounds.
    expect(mean(fromStart)).toBeGreaterThan(0.05);
    expect(fromStart.filter((e) => Math.abs(e) <= 0.1).length / fromStart.length).toBeLessThan(0.9);
  });
});
