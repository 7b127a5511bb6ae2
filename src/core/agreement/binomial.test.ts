/** The seeded binomial and multinomial samplers: exact in distribution (χ² against the pmf), deterministic. */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../util/random.ts';
import { binomial, multinomial } from './binomial.ts';

/** Binomial pmf for k = 0..n by the ratio recursion in log space. */
function pmf(n: number, p: number): Float64Array {
  const out = new Float64Array(n + 1);
  let lp = n * Math.log1p(-p);
  const lr = Math.log(p) - Math.log1p(-p);
  out[0] = Math.exp(lp);
  for (let k = 1; k <= n; k++) {
    lp += Math.log((n - k + 1) / k) + lr;
    out[k] = Math.exp(lp);
  }
  return out;
}

/** Pearson χ² of `draws` against Binomial(n, p), cells merged until each expects ≥ 10; returns [χ², df]. */
function chiSquare(n: number, p: number, draws: number[]): [number, number] {
  const f = pmf(n, p);
  const N = draws.length;
  const seen = new Map<number, number>();
  for (const k of draws) seen.set(k, (seen.get(k) ?? 0) + 1);
  let chi = 0;
  let cells = 0;
  let e = 0;
  let o = 0;
  for (let k = 0; k <= n; k++) {
    e += N * f[k]!;
    o += seen.get(k) ?? 0;
    if (e >= 10 && N * (1 - f.slice(0, k + 1).reduce((a, b) => a + b, 0)) >= 10) {
      chi += (o - e) ** 2 / e;
      cells++;
      e = o = 0;
    }
  }
  chi += e > 0 ? (o - e) ** 2 / e : 0; // the merged upper tail
  return [chi, cells];
}

describe('binomial', () => {
  const cases: [number, number][] = [
    [5, 0.3], // inversion
    [100, 0.05], // inversion, n·p = 5
    [30, 0.5], // BTRD, n·p = 15, near-mode recursion
    [1000, 0.02], // BTRD just past the switch
    [2000, 0.37], // BTRD, squeeze and Stirling branches
    [200, 0.97], // p > ½: n − Binomial(n, 0.03)
  ];
  it.each(cases)('Binomial(%i, %f) passes a χ² test against its pmf', (n, p) => {
    const rng = mulberry32(1234 + n);
    const draws = Array.from({ length: 20_000 }, () => binomial(rng, n, p));
    expect(draws.every((k) => Number.isInteger(k) && k >= 0 && k <= n)).toBe(true);
    const [chi, df] = chiSquare(n, p, draws);
    // Mean df, sd √(2df): 6 sd above is p < 1e-6 for a correct sampler, and far below what a wrong one gives.
    expect(chi).toBeLessThan(df + 6 * Math.sqrt(2 * df));
  });

  it('has the right mean and variance at a million trials, with rare and common cells', () => {
    for (const [n, p] of [
      [1_000_000, 0.3],
      [1_000_000, 3e-6],
      [1_000_000, 0.9999],
    ] as const) {
      const rng = mulberry32(99);
      const N = 20_000;
      let s = 0;
      let ss = 0;
      for (let i = 0; i < N; i++) {
        const k = binomial(rng, n, p);
        s += k;
        ss += k * k;
      }
      const mean = s / N;
      const v = ss / N - mean * mean;
      const sd = Math.sqrt(n * p * (1 - p));
      expect(Math.abs(mean - n * p)).toBeLessThan((5 * sd) / Math.sqrt(N));
      expect(Math.abs(v / (n * p * (1 - p)) - 1)).toBeLessThan(0.1);
    }
  });

  it('handles the edges and rejects bad arguments', () => {
    const rng = mulberry32(1);
    expect(binomial(rng, 0, 0.4)).toBe(0);
    expect(binomial(rng, 10, 0)).toBe(0);
    expect(binomial(rng, 10, 1)).toBe(10);
    expect(() => binomial(rng, 2.5, 0.5)).toThrow(RangeError);
    expect(() => binomial(rng, 10, 1.5)).toThrow(RangeError);
  });

  it('is deterministic for a seed', () => {
    const a = mulberry32(5);
    const b = mulberry32(5);
    for (let i = 0; i < 200; i++) expect(binomial(a, 500 + i, 0.3)).toBe(binomial(b, 500 + i, 0.3));
  });
});

describe('multinomial', () => {
  it('sums to n, leaves empty cells empty, and has the right cell means', () => {
    const rng = mulberry32(3);
    const counts = [500, 0, 120, 30, 350];
    const total = 1000;
    const out = new Float64Array(counts.length);
    const sum = new Float64Array(counts.length);
    const N = 5000;
    for (let i = 0; i < N; i++) {
      multinomial(rng, total, counts, out);
      expect(out.reduce((a, b) => a + b, 0)).toBe(total);
      expect(out[1]).toBe(0);
      out.forEach((k, j) => (sum[j] = sum[j]! + k));
    }
    counts.forEach((c, j) => {
      const p = c / total;
      expect(Math.abs(sum[j]! / N - c)).toBeLessThanOrEqual(5 * Math.sqrt((total * p * (1 - p)) / N) + 1e-9);
    });
    expect(() => multinomial(rng, 3, [0, 0], out)).toThrow(RangeError);
  });
});
