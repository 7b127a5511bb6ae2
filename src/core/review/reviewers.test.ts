/**
 * Agreement between reviewers: Cohen's κ and Krippendorff's α pinned to published or hand-computed values, units and
 * the later verdict of one reviewer, the disagreements; and in simulation, the bootstrap interval's coverage of the
 * population's κ and α over seeds.
 */
import { describe, expect, it } from 'vitest';
import { cohenKappa, krippendorffAlpha, reviewedUnits, reviewerAgreement } from './reviewers.ts';
import { mulberry32 } from '../util/random.ts';
import type { Label } from '../types.ts';

const yes: Label = { kind: 'binary', correct: true };
const no: Label = { kind: 'binary', correct: false };
const row = (i: number) => ({ question: `Q${i}?`, golds: [`g${i}`], candidate: `a${i}` });

describe('the statistics', () => {
  it("Cohen's κ by hand", () => {
    // 10 units: both yes 4, both no 3, a yes / b no 2, a no / b yes 1. p_o = 0.7; a yes 0.6, b yes 0.5:
    // p_e = 0.6·0.5 + 0.4·0.5 = 0.5 → κ = (0.7 − 0.5) / 0.5 = 0.4.
    const a = [...'yyyy', ...'nnn', ...'yy', 'n'];
    const b = [...'yyyy', ...'nnn', ...'nn', 'y'];
    expect(cohenKappa(a, b)).toBeCloseTo(0.4, 12);
    expect(cohenKappa(['y', 'y'], ['y', 'y'])).toBeNull();
  });

  it("Krippendorff's α (nominal): the published example, 4 observers, 12 units, missing values", () => {
    // Krippendorff, "Computing Krippendorff's Alpha-Reliability" (2011), section C: α_nominal = 0.743.
    const units = [
      ['1', '1', '1'],
      ['2', '2', '3', '2'],
      ['3', '3', '3', '3'],
      ['3', '3', '3', '3'],
      ['2', '2', '2', '2'],
      ['1', '2', '3', '4'],
      ['4', '4', '4', '4'],
      ['1', '1', '2', '1'],
      ['2', '2', '2', '2'],
      ['5', '5', '5'],
      ['1', '1'],
      ['3'],
    ];
    expect(krippendorffAlpha(units)).toBeCloseTo(0.743, 3);
    // κ's units as α's: 20 values (11 y, 9 n), 3 units disagree, each giving o_yn = o_ny = 1:
    // α = 1 − (n − 1) Σ_{c≠k} o_ck / Σ_{c≠k} n_c n_k = 1 − 19 · 6 / (2 · 11 · 9) = 14/33.
    const a = [...'yyyy', ...'nnn', ...'yy', 'n'];
    const b = [...'yyyy', ...'nnn', ...'nn', 'y'];
    expect(krippendorffAlpha(a.map((x, i) => [x, b[i]!]))!).toBeCloseTo(14 / 33, 12);
  });
});

describe('units and disagreements', () => {
  it("keep one reviewer's later verdict, compare as correct / incorrect, and list the disagreements", () => {
    const exact: Label = { kind: 'taxonomy', cls: 'exact' };
    const equivalent: Label = { kind: 'taxonomy', cls: 'equivalent' };
    const units = reviewedUnits([
      { verdict: { ...row(1), label: yes, time: '2026-01-01' }, reviewer: 'ana' },
      { verdict: { ...row(1), label: no, time: '2026-01-02' }, reviewer: 'ana' },
      { verdict: { ...row(1), label: no }, reviewer: 'ben' },
      { verdict: { ...row(2), label: exact }, reviewer: 'ana' },
      { verdict: { ...row(2), label: equivalent }, reviewer: 'ben' },
      { verdict: { ...row(3), label: yes }, reviewer: 'ana' },
      { verdict: { ...row(3), label: no }, reviewer: 'ben' },
      { verdict: { ...row(4), label: no, reviewer: 'cy' }, reviewer: 'file.jsonl' },
    ]);
    expect(units).toHaveLength(4);
    expect(units[0]!.verdicts.get('ana')!.label).toEqual(no);
    expect([...units[3]!.verdicts.keys()]).toEqual(['cy']);
    const r = reviewerAgreement(units.slice(0, 3), { resamples: 200 });
    expect(r).toMatchObject({ statistic: 'kappa', reviewers: ['ana', 'ben'], shared: 3, units: 3 });
    // exact and equivalent are both correct: only unit 3 is a disagreement.
    expect(r.disagreements.map((d) => d.question)).toEqual(['Q3?']);
    expect(r.disagreements[0]!.verdicts).toEqual([
      { reviewer: 'ana', label: yes },
      { reviewer: 'ben', label: no },
    ]);
    expect(reviewerAgreement(units, { resamples: 0 }).statistic).toBe('alpha');
  });
});

describe('the interval in simulation', () => {
  /**
   * Units correct with probability 0.7; each reviewer errs independently with probability `err`. Two reviewers:
   * p_o = (1−e)² + e², each says correct with probability p = 0.7(1−e) + 0.3e, p_e = p² + (1−p)², κ = (p_o − p_e)/(1 − p_e);
   * α's population value is the same (it differs from κ by O(1/n) only).
   */
  function simulate(raters: number, seeds: number, n: number, err: number) {
    const p = 0.7 * (1 - err) + 0.3 * err;
    const po = (1 - err) ** 2 + err ** 2;
    const pe = p * p + (1 - p) * (1 - p);
    const truth = (po - pe) / (1 - pe);
    let covered = 0;
    let bias = 0;
    let given = 0;
    for (let seed = 1; seed <= seeds; seed++) {
      const rnd = mulberry32(seed * 7 + raters);
      const verdicts = [];
      for (let i = 0; i < n; i++) {
        const right = rnd() < 0.7;
        for (let r = 0; r < raters; r++)
          verdicts.push({ verdict: { ...row(i), label: rnd() < err !== right ? yes : no }, reviewer: `r${r}` });
      }
      const a = reviewerAgreement(reviewedUnits(verdicts), { resamples: 400, seed });
      if (a.value === null || !a.ci) continue;
      given++;
      bias += a.value - truth;
      if (a.ci[0] <= truth && truth <= a.ci[1]) covered++;
    }
    return { coverage: covered / given, bias: bias / given, given };
  }

  for (const raters of [2, 3])
    it(`covers the population's ${raters === 2 ? 'κ' : 'α'} about 95% of the time (300 seeds, 150 units)`, { timeout: 300_000 }, () => {
      const r = simulate(raters, 300, 150, 0.12);
      if (process.env.VERITY_SIM_REPORT) console.log(raters, r);
      expect(r.given).toBe(300);
      expect(r.coverage).toBeGreaterThanOrEqual(0.92);
      expect(r.coverage).toBeLessThanOrEqual(0.985);
      expect(Math.abs(r.bias)).toBeLessThan(0.02);
    });
});
