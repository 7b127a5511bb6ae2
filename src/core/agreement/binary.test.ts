import { describe, expect, it } from 'vitest';
import ref from '../../../test/fixtures/agreement-reference.json' with { type: 'json' };
import { BINARY_METRICS, bestThreshold, binaryReport, type Objective } from './binary.ts';

/** Equal within 1e-9, null matching null. */
function near(actual: number | null, expected: number | null): void {
  if (expected === null) expect(actual).toBeNull();
  else {
    expect(actual).not.toBeNull();
    expect(Math.abs(actual! - expected)).toBeLessThanOrEqual(1e-9);
  }
}

describe('binaryReport against sklearn', () => {
  for (const c of ref.binary) {
    const scores = c.scores as (number | null)[];
    const decisions = c.decisions as (boolean | null)[];
    it(c.name, () => {
      const r = binaryReport(scores, decisions, c.labels, { resamples: 0 });
      expect(r.n).toBe(c.expected.n);
      expect(r.excluded).toBe(c.expected.excluded);
      expect(r.confusion).toEqual(c.expected.confusion);
      for (const m of BINARY_METRICS) near(r.metrics[m].value, c.expected[m] as number | null);
    });
    it(`${c.name}: bestThreshold`, () => {
      for (const o of ['mcc', 'accuracy', 'f1'] as Objective[]) {
        const want = c.bestThreshold[o] as { threshold: number; value: number; confusion: object } | null;
        const got = bestThreshold(scores, c.labels, o);
        if (want === null) expect(got).toBeNull();
        else {
          expect(got).not.toBeNull();
          near(got!.threshold, want.threshold);
          near(got!.value, want.value);
          expect(got!.confusion).toEqual(want.confusion);
        }
      }
    });
  }
});

describe('bootstrap', () => {
  const c = ref.binary[0]!;
  const scores = c.scores as (number | null)[];
  const decisions = c.decisions as (boolean | null)[];
  it('is reproducible and brackets the point estimate', () => {
    const a = binaryReport(scores, decisions, c.labels);
    const b = binaryReport(scores, decisions, c.labels);
    expect(a).toEqual(b);
    expect(a.bootstrap).toEqual({ resamples: 1000, seed: 42, level: 0.95 });
    for (const m of BINARY_METRICS) {
      const { value, ci } = a.metrics[m];
      expect(ci).not.toBeNull();
      expect(ci![0]).toBeLessThanOrEqual(value!);
      expect(ci![1]).toBeGreaterThanOrEqual(value!);
      expect(ci![1] - ci![0]).toBeGreaterThan(0);
    }
    const other = binaryReport(scores, decisions, c.labels, { seed: 7, resamples: 200 });
    expect(other.metrics.auc.ci).not.toEqual(a.metrics.auc.ci);
  });
  it('gives null intervals for metrics undefined in every resample', () => {
    const one = ref.binary.find((x) => x.name === 'one-class')!;
    const r = binaryReport(one.scores as number[], one.decisions as boolean[], one.labels, { resamples: 50 });
    expect(r.metrics.auc).toEqual({ value: null, ci: null });
    expect(r.metrics.accuracy.ci).not.toBeNull();
  });
});

describe('bestThreshold', () => {
  it('hand-made case: midpoint cut, ties to the smallest threshold, nulls skipped', () => {
    const scores = [0.9, 0.8, 0.8, 0.6, 0.4, 0.3, 0.1, null];
    const labels = [true, true, false, true, false, false, false, true];
    // accuracy: cut at >=0.6 → 6/7 correct; the best. Reported between 0.6 and 0.4.
    const acc = bestThreshold(scores, labels, 'accuracy')!;
    expect(acc.threshold).toBeCloseTo(0.5, 12);
    expect(acc.value).toBeCloseTo(6 / 7, 12);
    expect(acc.n).toBe(7);
    const sep = bestThreshold([0.2, 0.7], [false, true], 'accuracy')!;
    expect(sep.threshold).toBeCloseTo(0.45, 12); // midpoint of the separating gap
    const flat = bestThreshold([0.5, 0.9], [true, true], 'accuracy')!;
    expect(flat.threshold).toBe(0.5); // both cuts give 1.0 → the smaller, lowest score itself
    expect(bestThreshold([0.5, 0.5], [true, false], 'mcc')).toBeNull();
  });
});
