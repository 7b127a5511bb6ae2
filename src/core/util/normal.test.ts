import { describe, expect, it } from 'vitest';
import { twoSidedT, twoSidedZ } from './normal.ts';

describe('twoSidedT', () => {
  // scipy.stats.t.ppf((1 + level) / 2, df), SciPy 1.10 (Debian python3-scipy).
  const SCIPY: [number, number, number, number][] = [
    // df, 95%, 99%, 90%
    [1, 12.706204736432095, 63.65674116287399, 6.313751514800932],
    [2, 4.302652729911275, 9.92484320091807, 2.919985580355516],
    [3, 3.182446305284263, 5.84090929975643, 2.3533634348018264],
    [4, 2.7764451051977987, 4.604094871415897, 2.13184678133629],
    [5, 2.5705818366147395, 4.032142983557536, 2.015048372669157],
    [10, 2.2281388519649385, 3.169272667175838, 1.8124611228107335],
    [19, 2.093024054408263, 2.860934606449914, 1.729132811521367],
    [59, 2.00099537704821, 2.6617587534986837, 1.6710930318274826],
    [1000, 1.9623390808264074, 2.580754698065942, 1.6463788172854639],
  ];

  it('is SciPy’s quantile: exact at 1 and 2 degrees of freedom, within the stated error above', () => {
    for (const [df, t95, t99, t90] of SCIPY) {
      const tol = df <= 2 ? 1e-9 : df === 3 ? 0.05 : df < 10 ? 0.012 : 1e-4;
      expect(Math.abs(twoSidedT(0.99, df) - t99)).toBeLessThan(tol);
      expect(Math.abs(twoSidedT(0.95, df) - t95)).toBeLessThan(df === 3 ? 0.004 : tol);
      expect(Math.abs(twoSidedT(0.9, df) - t90)).toBeLessThan(tol);
      expect(twoSidedT(0.95, df)).toBeGreaterThan(twoSidedZ(0.95));
    }
  });
});
