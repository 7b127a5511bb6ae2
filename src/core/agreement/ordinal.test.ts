import { describe, expect, it } from 'vitest';
import ref from '../../../test/fixtures/agreement-reference.json' with { type: 'json' };
import { CAP_CLASSES, type CapClass } from '../types.ts';
import { HARD_PAIRS, type HardPair, taxonomyReport } from './ordinal.ts';

/** Equal within 1e-9, null matching null. */
function near(actual: number | null, expected: number | null): void {
  if (expected === null) expect(actual).toBeNull();
  else {
    expect(actual).not.toBeNull();
    expect(Math.abs(actual! - expected)).toBeLessThanOrEqual(1e-9);
  }
}

describe('taxonomyReport against scipy and loops', () => {
  for (const c of ref.taxonomy) {
    it(c.name, () => {
      const e = c.expected;
      const r = taxonomyReport(c.scores as (number | null)[], c.labels as CapClass[]);
      expect(r.n).toBe(e.n);
      expect(r.excluded).toBe(e.excluded);
      near(r.spearman, e.spearman);
      near(r.kendall, e.kendall);
      near(r.pairwiseAccuracy, e.pairwiseAccuracy);
      expect(r.pairs).toBe(e.pairs);
      for (const k of CAP_CLASSES) {
        const want = (e.classes as Record<string, { count: number; mean: number | null; std: number | null }>)[k]!;
        expect(r.classes[k].count).toBe(want.count);
        near(r.classes[k].mean, want.mean);
        near(r.classes[k].std, want.std);
      }
      expect(r.violations.count).toBe(e.violations.count);
      expect(r.violations.of).toBe(e.violations.of);
      expect(r.violations.excluding_ov_partial).toEqual(e.violations.excluding_ov_partial);
      expect(r.violations.pairs.map((p) => [p.higher, p.lower])).toEqual(e.violations.pairs.map((p) => [p.higher, p.lower]));
      r.violations.pairs.forEach((p, i) => {
        near(p.meanHigher, e.violations.pairs[i]!.meanHigher);
        near(p.meanLower, e.violations.pairs[i]!.meanLower);
      });
      for (const h of Object.keys(HARD_PAIRS) as HardPair[]) near(r.hardPairs[h], (e.hardPairs as Record<string, number | null>)[h]!);
    });
  }

  it('counts 27 ordered pairs when all classes are present', () => {
    const labels = [...CAP_CLASSES];
    const r = taxonomyReport(
      labels.map((_, i) => 1 - i / 10),
      labels,
    );
    expect(r.violations).toEqual({ count: 0, of: 27, ties: 0, weighted: 0, pairs: [], excluding_ov_partial: { count: 0, of: 26 } });
    expect(r.pairwiseAccuracy).toBe(1);
  });

  it('counts a pair of classes scored alike as a tie, half a violation (exact match: 1 for exact, 0 for the rest)', () => {
    const labels = [...CAP_CLASSES];
    const r = taxonomyReport(
      labels.map((c) => (c === 'exact' ? 1 : 0)),
      labels,
    );
    // 27 ordered pairs; the 7 with exact are ordered, the 20 among the other seven classes are tied.
    expect(r.violations).toMatchObject({ count: 0, of: 27, ties: 20, weighted: 10 });
    // By hand: 7 of the 27 answer pairs (one answer per class) ordered, 20 tied at a half: (7 + 10) / 27.
    expect(r.pairwiseAccuracy).toBeCloseTo(17 / 27, 12);
  });

  it('rejects unknown classes', () => {
    expect(() => taxonomyReport([0.5], ['great' as CapClass])).toThrow(/unknown class/);
  });
});
