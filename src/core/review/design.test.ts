/**
 * The sampling design: the order and inclusion probabilities by hand, every group's probability above zero, and
 * a seeded simulation of the Horvitz–Thompson estimate of a total under priority sampling — unbiased, and its
 * variance estimate unbiased, for a review stopped after any number of answers.
 */
import { describe, expect, it } from 'vitest';
import { cutoffAfter, designWeights, drawDesign, prefixInclusion } from './design.ts';
import { answerGroupKey, answerGroups } from './groups.ts';

describe('designWeights and drawDesign', () => {
  it('weighs a group by √(Σ max(floor, p(1 − p))) over its rows (by hand)', () => {
    const w = designWeights([[0, 1], [2], [3]], [0.5, 0.5, 0.001, 0.9], 0.02);
    expect(Array.from(w).map((x) => Math.round(x * 1e12) / 1e12)).toEqual(
      [Math.sqrt(0.5), Math.sqrt(0.02), Math.sqrt(0.09)].map((x) => Math.round(x * 1e12) / 1e12),
    );
  });

  it('orders groups by draw / weight, the same for a seed, another for another seed', () => {
    const w = Float64Array.from({ length: 50 }, (_, g) => 0.1 + (g % 7) / 7);
    const a = drawDesign(w, 1);
    expect(Array.from(drawDesign(w, 1).order)).toEqual(Array.from(a.order));
    expect(Array.from(drawDesign(w, 2).order)).not.toEqual(Array.from(a.order));
    const keys = Array.from(a.order, (g) => a.draws[g]! / w[g]!);
    expect(keys).toEqual([...keys].sort((x, y) => x - y));
    for (const d of a.draws) expect(d > 0 && d < 1).toBe(true);
  });
});

describe('prefixInclusion', () => {
  it('gives π = min(1, w·c), c the key of the first group not answered (by hand)', () => {
    const asked = [
      { order: 1, weight: 2, draw: 0.1, answered: true },
      { order: 2, weight: 0.5, draw: 0.1, answered: true },
      { order: 3, weight: 1, draw: 0.3, answered: false },
    ];
    // c = 0.3 / 1: π = min(1, 0.6), min(1, 0.15); the third is not in the prefix.
    const { pi, answered } = prefixInclusion(asked, 0.9);
    expect(answered).toBe(2);
    expect(pi[0]).toBeCloseTo(0.6, 12);
    expect(pi[1]).toBeCloseTo(0.15, 12);
    expect(Number.isNaN(pi[2]!)).toBe(true);
    // Every one answered: c is the file's cutoff.
    const all = prefixInclusion(
      asked.map((a) => ({ ...a, answered: true })),
      0.8,
    );
    expect(Array.from(all.pi)).toEqual([1, 0.4, 0.8]);
    // An answer after an unanswered question waits for it.
    expect(prefixInclusion([asked[0]!, { ...asked[1]!, answered: false }, { ...asked[2]!, answered: true }], 0.9).answered).toBe(1);
  });
});

describe('priority sampling in simulation', () => {
  // 60 groups, values with no relation to the weights (as a judge's error may have none to the priority).
  const G = 60;
  const w = Float64Array.from({ length: G }, (_, g) => Math.sqrt(Math.max(0.02, ((g * 37) % 11) / 22)));
  const y = Float64Array.from({ length: G }, (_, g) => ((g * 13) % 5 === 0 ? 1 : 0) - ((g * 7) % 9 === 0 ? 1 : 0));
  const total = y.reduce((a, b) => a + b, 0);

  for (const k of [5, 20, 45])
    it(`estimates a total without bias, and its variance, after ${k} answers`, () => {
      const SEEDS = 6000;
      const est: number[] = [];
      let vMean = 0;
      for (let seed = 1; seed <= SEEDS; seed++) {
        const d = drawDesign(w, seed);
        const c = cutoffAfter(d, k);
        let t = 0;
        let v = 0;
        for (let j = 0; j < k; j++) {
          const g = d.order[j]!;
          const pi = Math.min(1, w[g]! * c);
          t += y[g]! / pi;
          v += (y[g]! ** 2 * (1 - pi)) / pi ** 2;
        }
        est.push(t);
        vMean += v / SEEDS;
      }
      const mean = est.reduce((a, b) => a + b, 0) / SEEDS;
      const variance = est.reduce((a, b) => a + (b - mean) ** 2, 0) / (SEEDS - 1);
      // Within four standard errors of the truth; the variance estimate within 10% of the variance seen.
      expect(Math.abs(mean - total)).toBeLessThan(4 * Math.sqrt(variance / SEEDS));
      expect(Math.abs(vMean / variance - 1)).toBeLessThan(0.1);
    });
});

describe('answerGroups', () => {
  it('groups rows with the same question, the same normalised answer and the same golds', () => {
    const rows = [
      { key: '1', question: 'Capital?', golds: ['Paris'], candidate: 'Paris' },
      { key: '1', question: 'Capital?', golds: ['paris'], candidate: 'the Paris.' },
      { key: '1', question: 'Capital?', golds: ['Paris', 'Lutetia'], candidate: 'Paris' },
      { key: '2', question: 'Capital?', golds: ['Paris'], candidate: 'Paris' },
      { key: '1', question: 'Capital?', golds: ['Paris'], candidate: '' },
      { key: '1', question: 'Capital?', golds: ['Paris'], candidate: ' ' },
    ];
    const g = answerGroups(rows);
    expect(Array.from(g.groupOf)).toEqual([0, 0, 1, 2, 3, 3]);
    expect(g.groups).toEqual([[0, 1], [2], [3], [4, 5]]);
    // Without a key, the question text pairs rows.
    expect(answerGroupKey({ question: 'Q', golds: ['a'], candidate: 'x' })).toBe(
      answerGroupKey({ key: 'Q', question: 'other', golds: ['a'], candidate: 'x' }),
    );
  });
});
