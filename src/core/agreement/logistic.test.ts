import { describe, expect, it } from 'vitest';
import ref from '../../../test/fixtures/agreement-reference.json' with { type: 'json' };
import { mulberry32 } from '../util/random.ts';
import { predictProba, trainLogistic, type SparseRow } from './logistic.ts';

describe('trainLogistic', () => {
  it('matches the exact optimum (Newton; = sklearn C = 1/(n·l2))', () => {
    const { X, y, l2, weights, bias } = ref.logistic;
    const m = trainLogistic(X, y, { l2, tol: 1e-10 });
    expect(m.converged).toBe(true);
    m.weights.forEach((w, i) => expect(Math.abs(w - weights[i]!)).toBeLessThan(1e-9));
    expect(Math.abs(m.bias - bias)).toBeLessThan(1e-9);
  });

  it('separates a separable-ish set, deterministically', () => {
    const rng = mulberry32(11);
    const X: number[][] = [];
    const y: boolean[] = [];
    for (let i = 0; i < 500; i++) {
      const a = rng() * 2 - 1;
      const b = rng() * 2 - 1;
      X.push([a, b]);
      y.push(a + 0.5 * b + (rng() - 0.5) * 0.2 > 0);
    }
    const m1 = trainLogistic(X, y, { l2: 1e-3 });
    const m2 = trainLogistic(X, y, { l2: 1e-3 });
    expect(m1).toEqual(m2);
    const acc = X.filter((x, i) => predictProba(m1, x) >= 0.5 === y[i]).length / X.length;
    expect(acc).toBeGreaterThan(0.95);
    expect(m1.weights[0]! / m1.weights[1]!).toBeGreaterThan(1.2);
  });

  it('trains on sparse rows like on the equivalent dense rows', () => {
    const rng = mulberry32(5);
    const d = 300;
    const sparse: SparseRow[] = [];
    const dense: number[][] = [];
    const y: boolean[] = [];
    for (let i = 0; i < 400; i++) {
      const idx = [...new Set(Array.from({ length: 6 }, () => Math.floor(rng() * d)))].sort((a, b) => a - b);
      const val = idx.map(() => rng());
      sparse.push({ indices: idx, values: val });
      const row = new Array<number>(d).fill(0);
      idx.forEach((j, k) => (row[j] = val[k]!));
      dense.push(row);
      y.push(idx.some((j) => j < d / 2) ? rng() < 0.8 : rng() < 0.2);
    }
    const s = trainLogistic(sparse, y, { l2: 1e-2, dimension: d });
    const dn = trainLogistic(dense, y, { l2: 1e-2 });
    expect(s.weights.length).toBe(d);
    s.weights.forEach((w, i) => expect(w).toBeCloseTo(dn.weights[i]!, 12));
    expect(predictProba(s, sparse[0]!)).toBeCloseTo(predictProba(dn, dense[0]!), 12);
  });
});
