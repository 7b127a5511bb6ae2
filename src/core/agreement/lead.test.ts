import { describe, expect, it } from 'vitest';
import { twoSidedT } from '../util/normal.ts';
import { mulberry32 } from '../util/random.ts';
import { mcc } from './binary.ts';
import { mccLead, pairwiseLead, type Lead } from './lead.ts';
import { pairComponents, pairwiseAccuracy } from './ordinal.ts';

const SEVERITIES = [7, 6, 6, 5, 4, 2, 1, 0];
const gauss = (r: () => number) => Math.sqrt(-2 * Math.log(r() + 1e-300)) * Math.cos(2 * Math.PI * r());

/** Class-labelled rows skewed to the top classes; two metrics = severity + correlated noise (rounded: many ties). */
function classRows(r: () => number, n: number, noiseA: number, noiseB: number, coarse: boolean) {
  const sev: number[] = [];
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = SEVERITIES[Math.floor(r() * (r() < 0.5 ? 2 : 8))]!;
    const shared = gauss(r);
    const x = s + noiseA * (0.6 * shared + 0.8 * gauss(r));
    const y = s + noiseB * (0.6 * shared + 0.8 * gauss(r));
    sev.push(s);
    a.push(coarse ? Math.round(x / 3) : x);
    b.push(coarse ? Math.round(y / 3) : y);
  }
  return { sev, a, b };
}

/** Binary rows: each metric right with its own probability, the two errors correlated. */
function binaryRows(r: () => number, n: number, rightA: number, rightB: number, prevalence: number) {
  const labels: boolean[] = [];
  const a: boolean[] = [];
  const b: boolean[] = [];
  for (let i = 0; i < n; i++) {
    const l = r() < prevalence;
    const u = r();
    const v = r() < 0.5 ? u : r();
    labels.push(l);
    a.push(u < rightA ? l : !l);
    b.push(v < rightB ? l : !l);
  }
  return { labels, a, b };
}

function confusionOf(labels: readonly boolean[], d: readonly boolean[]) {
  const c = { tp: 0, fp: 0, tn: 0, fn: 0 };
  d.forEach((x, i) => (x ? (labels[i] ? c.tp++ : c.fp++) : labels[i] ? c.fn++ : c.tn++));
  return c;
}

/** Coverage of the true difference, and how often a lead is called real, over seeds. */
function simulate(seeds: number, truth: number, one: (seed: number) => Lead | null, narrow = 1) {
  let covered = 0;
  let real = 0;
  let total = 0;
  for (let seed = 1; seed <= seeds; seed++) {
    const l = one(seed);
    if (!l?.ci) continue;
    total++;
    const half = ((l.ci[1] - l.ci[0]) / 2) * narrow;
    const mid = (l.ci[0] + l.ci[1]) / 2;
    if (mid - half <= truth && truth <= mid + half) covered++;
    if (l.real) real++;
  }
  return { coverage: covered / total, real: real / total, total };
}

describe('pairComponents and pairwiseLead', () => {
  it('counts each row’s agreeing pairs by hand', () => {
    // severities 2, 1, 0 scored 0.9, 0.9, 0.1: (2,1) tied, (2,0) right, (1,0) right.
    const { agree, pairs } = pairComponents([0.9, 0.9, 0.1], [2, 1, 0]);
    expect([...agree]).toEqual([1.5, 1.5, 2]);
    expect([...pairs]).toEqual([2, 2, 2]);
    // two rows of one severity make no pair with each other
    expect([...pairComponents([0.3, 0.5, 0.4], [1, 1, 0]).pairs]).toEqual([1, 1, 2]);
  });

  it('its difference is that of pairwiseAccuracy, on random rows with ties', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const r = mulberry32(seed);
      const { sev, a, b } = classRows(r, 5 + Math.floor(r() * 60), 2, 2.5, seed % 2 === 0);
      const l = pairwiseLead(['a', 'b'], sev, a, b);
      const want = pairwiseAccuracy(a, sev).value! - pairwiseAccuracy(b, sev).value!;
      expect(l!.difference).toBeCloseTo(want, 12);
    }
  });

  it('its standard error is the row bootstrap’s (brute force, 2,000 resamples)', () => {
    const r = mulberry32(11);
    const { sev, a, b } = classRows(r, 120, 2, 2.6, true);
    const l = pairwiseLead(['a', 'b'], sev, a, b)!;
    const se = (l.ci![1] - l.ci![0]) / (2 * twoSidedT(0.95, sev.length - 1));
    const boot = mulberry32(5);
    const xs: number[] = [];
    for (let k = 0; k < 2000; k++) {
      const idx = Array.from({ length: sev.length }, () => Math.floor(boot() * sev.length));
      const s = idx.map((i) => sev[i]!);
      xs.push(
        pairwiseAccuracy(
          idx.map((i) => a[i]!),
          s,
        ).value! -
          pairwiseAccuracy(
            idx.map((i) => b[i]!),
            s,
          ).value!,
      );
    }
    const m = xs.reduce((p, q) => p + q, 0) / xs.length;
    const bootSe = Math.sqrt(xs.reduce((p, q) => p + (q - m) ** 2, 0) / (xs.length - 1));
    expect(se / bootSe).toBeGreaterThan(0.9);
    expect(se / bootSe).toBeLessThan(1.1);
  });

  it('leaves out rows either metric did not score; no pair of two severities gives null', () => {
    const l = pairwiseLead(['a', 'b'], [2, 1, 0, 0], [0.9, null, 0.1, 0.2], [0.8, 0.5, 0.2, null]);
    expect(l!.n).toBe(2);
    expect(pairwiseLead(['a', 'b'], [1, 1], [0.2, 0.3], [0.1, 0.4])).toBeNull();
  });
});

describe('mccLead', () => {
  it('is MCC(a) − MCC(b) on the rows both decided, its variance the row jackknife’s (brute force)', () => {
    const r = mulberry32(3);
    const { labels, a, b } = binaryRows(r, 40, 0.8, 0.7, 0.4);
    const l = mccLead(['a', 'b'], labels, a, b)!;
    const d = (L: boolean[], A: boolean[], B: boolean[]) => mcc(confusionOf(L, A))! - mcc(confusionOf(L, B))!;
    expect(l.difference).toBeCloseTo(d(labels, a, b), 12);
    const n = labels.length;
    const loo = labels.map((_, i) => {
      const keep = (x: boolean[]) => x.filter((_, j) => j !== i);
      return d(keep(labels), keep(a), keep(b));
    });
    const mean = loo.reduce((p, q) => p + q, 0) / n;
    const jack = Math.sqrt(((n - 1) / n) * loo.reduce((p, q) => p + (q - mean) ** 2, 0));
    expect((l.ci![1] - l.ci![0]) / 2).toBeCloseTo(twoSidedT(0.95, n - 1) * jack, 5);
    // A row either metric did not decide is left out of both.
    const holed = mccLead(
      ['a', 'b'],
      labels,
      a.map((x, i) => (i === 0 ? null : x)),
      b.map((x, i) => (i === 1 ? null : x)),
    )!;
    expect(holed.n).toBe(n - 2);
    expect(holed.difference).toBeCloseTo(d(labels.slice(2), a.slice(2), b.slice(2)), 12);
  });
});

describe('the lead’s interval holds (simulation)', () => {
  // Truths from 200,000 rows of each population; coverage bounds 0.93–0.97 at 800–1,000 seeds (Monte-Carlo SE ≈ 0.007).
  it.each([
    { noiseA: 2, noiseB: 2.6, coarse: false, n: 200 },
    { noiseA: 2, noiseB: 2.6, coarse: true, n: 100 },
    { noiseA: 2, noiseB: 2.6, coarse: false, n: 40 },
  ])('pairwise accuracy: covers the true difference 93–97% of the time ($n rows, ties: $coarse)', ({ noiseA, noiseB, coarse, n }) => {
    const big = classRows(mulberry32(99), 200_000, noiseA, noiseB, coarse);
    const truth = pairwiseAccuracy(big.a, big.sev).value! - pairwiseAccuracy(big.b, big.sev).value!;
    const one = (seed: number) => {
      const s = classRows(mulberry32(seed * 7919), n, noiseA, noiseB, coarse);
      return pairwiseLead(['a', 'b'], s.sev, s.a, s.b);
    };
    const { coverage, total } = simulate(800, truth, one);
    expect(total).toBeGreaterThan(780);
    expect(coverage).toBeGreaterThanOrEqual(0.93);
    expect(coverage).toBeLessThanOrEqual(0.97);
    // An interval 30% too narrow fails the same check: the simulation can tell an overconfident one.
    expect(simulate(800, truth, one, 0.7).coverage).toBeLessThan(0.93);
  });

  it('pairwise accuracy: two metrics equally good are called apart at most 4% of the time', () => {
    const one = (seed: number) => {
      const s = classRows(mulberry32(seed * 7919), 200, 2, 2, false);
      return pairwiseLead(['a', 'b'], s.sev, s.a, s.b);
    };
    expect(simulate(800, 0, one).real).toBeLessThanOrEqual(0.04);
  });

  it.each([
    { rightA: 0.85, rightB: 0.8, n: 200, prevalence: 0.4 },
    { rightA: 0.85, rightB: 0.78, n: 60, prevalence: 0.3 },
    { rightA: 0.9, rightB: 0.85, n: 1000, prevalence: 0.6 },
  ])('MCC: covers the true difference 93–97% of the time ($n rows)', ({ rightA, rightB, n, prevalence }) => {
    const big = binaryRows(mulberry32(5), 200_000, rightA, rightB, prevalence);
    const truth = mcc(confusionOf(big.labels, big.a))! - mcc(confusionOf(big.labels, big.b))!;
    const one = (seed: number) => {
      const s = binaryRows(mulberry32(seed * 104729), n, rightA, rightB, prevalence);
      return mccLead(['a', 'b'], s.labels, s.a, s.b);
    };
    const { coverage } = simulate(1000, truth, one);
    expect(coverage).toBeGreaterThanOrEqual(0.93);
    expect(coverage).toBeLessThanOrEqual(0.97);
    expect(simulate(1000, truth, one, 0.7).coverage).toBeLessThan(0.93);
  });

  it('MCC: two metrics equally good are called apart at most 4% of the time', () => {
    const one = (seed: number) => {
      const s = binaryRows(mulberry32(seed * 104729), 200, 0.8, 0.8, 0.4);
      return mccLead(['a', 'b'], s.labels, s.a, s.b);
    };
    expect(simulate(1000, 0, one).real).toBeLessThanOrEqual(0.04);
  });

  // Eight answers to each question, and each metric finds some questions harder than others: answers to one question
  // move together, so the interval must count questions, not rows.
  function clustered(r: () => number, questions: number) {
    const sev: number[] = [];
    const a: number[] = [];
    const b: number[] = [];
    const question: number[] = [];
    for (let k = 0; k < questions; k++) {
      const [ua, ub] = [gauss(r), gauss(r)];
      for (let j = 0; j < 8; j++) {
        const s = SEVERITIES[Math.floor(r() * 8)]!;
        sev.push(s);
        question.push(k);
        a.push(s + 2 * (0.8 * ua + 0.6 * gauss(r)));
        b.push(s + 2.3 * (0.8 * ub + 0.6 * gauss(r)));
      }
    }
    return { sev, a, b, question };
  }
  function clusteredBinary(r: () => number, questions: number) {
    const labels: boolean[] = [];
    const a: boolean[] = [];
    const b: boolean[] = [];
    const question: number[] = [];
    for (let k = 0; k < questions; k++) {
      const [ea, eb] = [r() < 0.5 ? 0.7 : 0.95, r() < 0.5 ? 0.65 : 0.95];
      for (let j = 0; j < 8; j++) {
        const l = r() < 0.4;
        labels.push(l);
        question.push(k);
        a.push(r() < ea ? l : !l);
        b.push(r() < eb ? l : !l);
      }
    }
    return { labels, a, b, question };
  }

  it('pairwise accuracy, eight answers a question: covers 93–97% by question, not by row', () => {
    const big = clustered(mulberry32(3), 25_000);
    const truth = pairwiseAccuracy(big.a, big.sev).value! - pairwiseAccuracy(big.b, big.sev).value!;
    const one = (byQuestion: boolean) => (seed: number) => {
      const s = clustered(mulberry32(seed * 31), 30);
      return pairwiseLead(['a', 'b'], s.sev, s.a, s.b, byQuestion ? { cluster: s.question } : {});
    };
    const { coverage } = simulate(800, truth, one(true));
    expect(coverage).toBeGreaterThanOrEqual(0.93);
    expect(coverage).toBeLessThanOrEqual(0.97);
    expect(simulate(800, truth, one(false)).coverage).toBeLessThan(0.9);
  });

  it('MCC, eight answers a question: covers 93–97% by question, not by row', () => {
    const big = clusteredBinary(mulberry32(4), 200_000);
    const truth = mcc(confusionOf(big.labels, big.a))! - mcc(confusionOf(big.labels, big.b))!;
    const one = (byQuestion: boolean) => (seed: number) => {
      const s = clusteredBinary(mulberry32(seed * 37), 60);
      return mccLead(['a', 'b'], s.labels, s.a, s.b, byQuestion ? { cluster: s.question } : {});
    };
    const { coverage } = simulate(1000, truth, one(true));
    expect(coverage).toBeGreaterThanOrEqual(0.93);
    expect(coverage).toBeLessThanOrEqual(0.97);
    expect(simulate(1000, truth, one(false)).coverage).toBeLessThan(0.9);
  });
});
