import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../util/random.ts';
import { CAP_CLASSES, type CapClass } from '../types.ts';
import {
  type Calibration,
  calibrateThreshold,
  classifyScore,
  fitCombination,
  fitCutpoints,
  parseCalibration,
  predictCombination,
} from './calibrate.ts';
import { SEVERITY } from './ordinal.ts';

describe('calibrateThreshold', () => {
  it('wraps bestThreshold in a Calibration', () => {
    const cal = calibrateThreshold([0.9, 0.7, 0.4, 0.2], [true, true, false, false], 'mcc', 'token-f1');
    expect(cal).toEqual({ version: 1, metric: 'token-f1', objective: 'mcc', threshold: 0.55 });
    expect(parseCalibration(JSON.parse(JSON.stringify(cal)))).toEqual(cal);
    expect(() => calibrateThreshold([0.1, 0.2], [true, true], 'mcc')).toThrow(/undefined/);
  });

  it('ignores floating-point noise: BLEU-like 0 vs 1e-232 is one score, and a threshold between them is refused', () => {
    // nltk-style BLEU: no match at some n-gram order gives ~1e-232 rather than 0. Labels follow the noise exactly,
    // so without a resolution the MCC-best threshold was 6e-233 ("0.000" on screen), separating nothing real.
    const noise = [0, 1.2e-232, 3e-240, 0, 2e-300];
    const labels = [false, true, true, false, true];
    expect(() => calibrateThreshold(noise, labels, 'mcc', 'bleu')).toThrow(/every score is the same to within 1e-6.*floating-point noise/);
    // Real differences above the noise still calibrate, and the noise stays on one side.
    const real = [0, 1.2e-232, 0.4, 0.6, 0, 0.7];
    const cal = calibrateThreshold(real, [false, false, true, true, false, true], 'mcc', 'bleu');
    expect(cal.threshold).toBeCloseTo(0.2, 12);
    // Scores 1e-9 apart are the same score: the midpoint is taken between distinguishable scores only.
    expect(calibrateThreshold([0.3, 0.3 + 1e-9, 0.8, 0.9], [false, true, true, true], 'mcc').threshold).toBeCloseTo(0.55, 6);
  });

  it('refuses a best threshold that calls every scored row correct', () => {
    // Accuracy is best (3/4) with every row positive: that threshold decides nothing.
    expect(() => calibrateThreshold([0.2, 0.4, 0.6, 0.8], [true, false, true, true], 'accuracy')).toThrow(
      /calls every scored row correct, so it separates nothing/,
    );
  });
});

describe('fitCombination', () => {
  it('combines metrics, skips incomplete rows and round-trips through JSON', () => {
    const rng = mulberry32(3);
    const feats: (number | null)[][] = [];
    const labels: boolean[] = [];
    for (let i = 0; i < 400; i++) {
      const y = rng() < 0.5;
      const a = Math.min(1, Math.max(0, (y ? 0.7 : 0.4) + (rng() - 0.5) * 0.6));
      const b = Math.min(1, Math.max(0, (y ? 0.6 : 0.4) + (rng() - 0.5) * 0.6));
      feats.push([a, i % 50 === 0 ? null : b, 0.5]); // third metric constant
      labels.push(y);
    }
    const comb = fitCombination(feats, labels, ['em', 'f1', 'const']);
    expect(comb.stds[2]).toBe(1);
    expect(Math.abs(comb.weights[2]!)).toBeLessThan(1e-6);
    expect(comb.weights[0]).toBeGreaterThan(comb.weights[1]!);
    expect(predictCombination(comb, [0.5, null, 0.5])).toBeNull();
    let right = 0;
    feats.forEach((f, i) => {
      const p = predictCombination(comb, f);
      if (p && p.decision === labels[i]) right++;
    });
    expect(right / 392).toBeGreaterThan(0.75);
    const cal: Calibration = { version: 1, combination: comb };
    expect(parseCalibration(JSON.parse(JSON.stringify(cal)))).toEqual(cal);
    expect(fitCombination(feats, labels, ['em', 'f1', 'const'])).toEqual(comb);
  });
});

describe('fitCutpoints', () => {
  it('midpoints between medians, pooled when out of order, absent classes dropped', () => {
    const scores: number[] = [];
    const labels: CapClass[] = [];
    const med: Partial<Record<CapClass, number>> = {
      exact: 0.95,
      equivalent: 0.8,
      'overinclusive-valid': 0.5,
      partial: 0.6,
      'overinclusive-invalid': 0.3,
      invalid: 0.2,
      contradictory: 0.0,
    };
    for (const [c, m] of Object.entries(med) as [CapClass, number][]) {
      for (const d of [-0.02, 0, 0.02]) {
        scores.push(m + d);
        labels.push(c);
      }
    }
    const cp = fitCutpoints(scores, labels);
    expect(cp.classes).toEqual(CAP_CLASSES.filter((c) => c !== 'alternative-correct'));
    // OV (0.5) < partial (0.6) violates the order: both pooled to 0.55.
    const want = [0.875, 0.675, 0.55, 0.425, 0.25, 0.1];
    cp.cuts.forEach((c, i) => expect(c).toBeCloseTo(want[i]!, 12));
    expect(classifyScore(cp, 1)).toBe('exact');
    expect(classifyScore(cp, 0.7)).toBe('equivalent');
    expect(classifyScore(cp, 0.6)).toBe('overinclusive-valid');
    expect(classifyScore(cp, 0.5)).toBe('partial');
    expect(classifyScore(cp, 0.05)).toBe('contradictory');
    // Predicted severity never increases as the score falls.
    const sev = [1, 0.9, 0.7, 0.55, 0.5, 0.3, 0.2, 0].map((s) => SEVERITY[classifyScore(cp, s)]);
    sev.slice(1).forEach((v, i) => expect(v).toBeLessThanOrEqual(sev[i]!));
    expect(parseCalibration({ version: 1, cutpoints: cp }).cutpoints).toEqual(cp);
  });
});

describe('parseCalibration', () => {
  const good = {
    version: 1,
    combination: { metrics: ['a'], weights: [1], bias: 0, means: [0], stds: [1], l2: 0.01, threshold: 0.5 },
  };
  it.each([
    [null, /root must be an object/],
    [[], /root must be an object/],
    [{ version: 2 }, /version must be 1/],
    [{ version: 1, threshold: '0.5' }, /threshold must be a finite number/],
    [{ version: 1, threshold: null }, /threshold must be a finite number/],
    [{ version: 1, objective: 'auc' }, /objective/],
    [{ version: 1, metric: 3 }, /metric must be/],
    [{ ...good, combination: { ...good.combination, weights: [1, 2] } }, /combination.weights must have 1 entries/],
    [{ ...good, combination: { ...good.combination, stds: [0] } }, /combination.stds\[0\] must be > 0/],
    [{ ...good, combination: { ...good.combination, threshold: 2 } }, /combination.threshold/],
    [{ ...good, combination: { ...good.combination, metrics: [] } }, /combination.metrics/],
    [{ version: 1, cutpoints: { method: 'median-midpoints', classes: ['exact', 'great'], cuts: [0.5] } }, /not a CAP class/],
    [{ version: 1, cutpoints: { method: 'median-midpoints', classes: ['partial', 'exact'], cuts: [0.5] } }, /severity order/],
    [
      { version: 1, cutpoints: { method: 'median-midpoints', classes: ['exact', 'partial', 'invalid'], cuts: [0.2, 0.5] } },
      /non-increasing/,
    ],
    [{ version: 1, cutpoints: { method: 'median-midpoints', classes: ['exact', 'partial'], cuts: [] } }, /must have 1 entries/],
  ])('rejects %j', (input, msg) => {
    expect(() => parseCalibration(input)).toThrow(msg);
  });
  it('accepts a minimal and a full calibration', () => {
    expect(parseCalibration({ version: 1 })).toEqual({ version: 1 });
    expect(parseCalibration(good)).toEqual(good);
  });
});
