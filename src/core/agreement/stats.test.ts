import { describe, expect, it } from 'vitest';
import ref from '../../../test/fixtures/agreement-reference.json' with { type: 'json' };
import { kendallTauB, midranks, pearson, rocAuc, spearman } from './stats.ts';
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
