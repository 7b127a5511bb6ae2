import { describe, expect, it } from 'vitest';
import ref from '../../../test/fixtures/agreement-reference.json' with { type: 'json' };
import { argsort, kendallTauB, midranks, pearson, rocAuc, spearman, stableOrder } from './stats.ts';
import { pairwiseAccuracy } from './ordinal.ts';
import { mulberry32 } from '../util/random.ts';

/** Equal within 1e-9, null matching null. */
function near(actual: number | null, expected: number | null): void {
  if (expected === null) expect(actual).toBeNull();
  else {
    expect(actual).not.toBeNull();
    expect(Math.abs(actual! - expected)).toBeLessThanOrEqual(1e-9);
  }
}

describe('stats against scipy/sklearn', () => {
  for (const c of ref.stats) {
    it(c.name, () => {
      const x = c.x as number[];
      expect(Array.from(midranks(x))).toEqual(c.midranks);
      if ('y' in c) {
        const y = c.y as number[];
        near(pearson(x, y), c.pearson as number | null);
        near(spearman(x, y), c.spearman as number | null);
        near(kendallTauB(x, y), c.kendall as number | null);
      }
      if ('labels' in c) near(rocAuc(x, c.labels as boolean[]), c.auc as number | null);
    });
  }

  it('returns null, not NaN, for degenerate input', () => {
    expect(pearson([1], [2])).toBeNull();
    expect(spearman([1, 1, 1], [1, 2, 3])).toBeNull();
    expect(kendallTauB([], [])).toBeNull();
    expect(kendallTauB([1, 2, 3], [5, 5, 5])).toBeNull();
    expect(rocAuc([0.1, 0.2], [false, false])).toBeNull();
    expect(() => pearson([1, 2], [1])).toThrow(RangeError);
  });

  it('handles 100k rows (Kendall, pairwise accuracy) quickly enough', () => {
    const rng = mulberry32(7);
    const n = 100_000;
    const x = Array.from({ length: n }, () => Math.round(rng() * 1000) / 1000);
    const sev = x.map((v) => Math.min(7, Math.floor(v * 8 + rng() * 2)));
    const t0 = performance.now();
    const tau = kendallTauB(x, sev);
    const pw = pairwiseAccuracy(x, sev);
    const ms = performance.now() - t0;
    expect(tau).toBeGreaterThan(0.5);
    expect(pw.value).toBeGreaterThan(0.7);
    expect(ms).toBeLessThan(20_000); // generous: only guards against an O(n²) regression
  });
});

describe('argsort (radix above 4096 values)', () => {
  /** The order by comparison: value, then position (−0 = +0). */
  const byComparison = (x: number[]) => Uint32Array.from(x.map((_, i) => i)).sort((a, b) => x[a]! - x[b]! || a - b);
  it.each([5_000, 70_000])('gives exactly the comparison order on %i values with ties, signs, ±0 and infinities', (n) => {
    const rng = mulberry32(n);
    const pool = [0, -0, 1, -1, 0.5, 1e-300, -1e-300, 1e300, Infinity, -Infinity, 0.1 + 0.2, 0.3];
    const x = Array.from({ length: n }, () =>
      rng() < 0.3 ? pool[Math.floor(rng() * pool.length)]! : (rng() - 0.5) * 10 ** Math.floor(rng() * 6),
    );
    expect(argsort(x)).toEqual(byComparison(x));
    expect(argsort(x.slice(0, 100))).toEqual(byComparison(x.slice(0, 100)));
  });
  it('re-sorts a given order stably (lexicographic order by two keys)', () => {
    const rng = mulberry32(11);
    const n = 9_000;
    const x = Array.from({ length: n }, () => Math.floor(rng() * 50) / 10);
    const y = Array.from({ length: n }, () => Math.floor(rng() * 7));
    const want = Uint32Array.from(x.map((_, i) => i)).sort((a, b) => x[a]! - x[b]! || y[a]! - y[b]! || a - b);
    expect(stableOrder(x, stableOrder(y, Uint32Array.from(x.map((_, i) => i))))).toEqual(want);
  });
  it('Kendall τ-b on a large sample equals the O(n²) definition', () => {
    const rng = mulberry32(12);
    const n = 5_000;
    const x = Array.from({ length: n }, () => Math.floor(rng() * 200) / 200);
    const y = x.map((v) => Math.min(7, Math.floor(v * 6 + rng() * 3)));
    let con = 0;
    let dis = 0;
    let tx = 0;
    let ty = 0;
    for (let i = 0; i < n; i++)
      for (let j = i + 1; j < n; j++) {
        const a = Math.sign(x[i]! - x[j]!);
        const b = Math.sign(y[i]! - y[j]!);
        if (a === 0 && b === 0) continue;
        if (a === 0) tx++;
        else if (b === 0) ty++;
        else if (a === b) con++;
        else dis++;
      }
    const want = (con - dis) / Math.sqrt((con + dis + tx) * (con + dis + ty));
    expect(kendallTauB(x, y)).toBeCloseTo(want, 12);
  });
});
