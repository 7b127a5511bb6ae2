import { describe, expect, it } from 'vitest';
import ref from '../../../test/fixtures/agreement-reference.json' with { type: 'json' };
import { mulberry32 } from '../util/random.ts';
import { upperTailZ } from '../util/normal.ts';
import { AUC_BOOTSTRAP_ROWS, BINARY_METRICS, bestThreshold, binaryReport, type BinaryMetric, type Objective } from './binary.ts';
import { accuracy, balancedAccuracy, f1, kappa, mcc, precision, recall, type Confusion } from './binary.ts';
import { aucWithVariance, quantileSorted, rocAuc } from './stats.ts';

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

/**
 * The reference: the row bootstrap binaryReport used before the counts were drawn from a multinomial — n row
 * indices with replacement per resample, every statistic recomputed from the drawn rows. Kept here, not in the
 * product, to show the new intervals are the same within Monte-Carlo error.
 */
function rowBootstrap(
  scores: number[],
  decisions: boolean[],
  labels: boolean[],
  resamples: number,
  seed: number,
): { samples: Record<BinaryMetric, number[]>; ci: Record<BinaryMetric, [number, number] | null> } {
  const n = scores.length;
  const rng = mulberry32(seed);
  const samples = Object.fromEntries(BINARY_METRICS.map((m) => [m, [] as number[]])) as Record<BinaryMetric, number[]>;
  const s = new Float64Array(n);
  const l = new Array<boolean>(n);
  for (let r = 0; r < resamples; r++) {
    const c: Confusion = { tp: 0, fp: 0, tn: 0, fn: 0 };
    for (let k = 0; k < n; k++) {
      const i = Math.floor(rng() * n);
      s[k] = scores[i]!;
      l[k] = labels[i]!;
      if (decisions[i]) labels[i] ? c.tp++ : c.fp++;
      else labels[i] ? c.fn++ : c.tn++;
    }
    const vals: Record<BinaryMetric, number | null> = {
      accuracy: accuracy(c),
      precision: precision(c),
      recall: recall(c),
      f1: f1(c),
      mcc: mcc(c),
      balancedAccuracy: balancedAccuracy(c),
      kappa: kappa(c),
      auc: aucWithVariance(s, l)?.auc ?? null, // = rocAuc (tested below), with native sorts
    };
    for (const m of BINARY_METRICS) if (vals[m] !== null) samples[m].push(vals[m]!);
  }
  const ci = {} as Record<BinaryMetric, [number, number] | null>;
  for (const m of BINARY_METRICS) {
    const x = samples[m].sort((a, b) => a - b);
    ci[m] = x.length ? [quantileSorted(x, 0.025), quantileSorted(x, 0.975)] : null;
  }
  return { samples, ci };
}

/**
 * The reference for the AUC alone, as binaryReport bootstrapped it before: n row draws per resample held as
 * multiplicities over the rows in score order, one weighted sweep over the tie groups.
 */
function aucRowBootstrap(scores: number[], labels: boolean[], resamples: number, seed: number) {
  const n = scores.length;
  const order = Uint32Array.from(scores.map((_, i) => i)).sort((a, b) => scores[a]! - scores[b]! || a - b);
  const rng = mulberry32(seed);
  const w = new Int32Array(n);
  const samples: number[] = [];
  for (let r = 0; r < resamples; r++) {
    w.fill(0);
    for (let k = 0; k < n; k++) w[Math.floor(rng() * n)]!++;
    let negBelow = 0;
    let P = 0;
    let area = 0;
    let gp = 0;
    let gn = 0;
    for (let p = 0; p < n; p++) {
      const i = order[p]!;
      if (labels[i]) gp += w[p]!;
      else gn += w[p]!;
      if (p === n - 1 || scores[order[p + 1]!] !== scores[i]) {
        area += gp * negBelow + 0.5 * gp * gn;
        negBelow += gn;
        P += gp;
        gp = gn = 0;
      }
    }
    if (P > 0 && negBelow > 0) samples.push(area / (P * negBelow));
  }
  samples.sort((a, b) => a - b);
  return { samples, ci: [quantileSorted(samples, 0.025), quantileSorted(samples, 0.975)] as const };
}

const sd = (xs: number[]) => {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1));
};

/** A labelled set like a metric's: scores with a few ties, decision score ≥ 0.5, labels correlated with scores. */
function synthetic(n: number, seed: number, positiveRate = 0.55, levels = 100) {
  const rng = mulberry32(seed);
  const scores: number[] = [];
  const decisions: boolean[] = [];
  const labels: boolean[] = [];
  for (let i = 0; i < n; i++) {
    const label = rng() < positiveRate;
    const raw = Math.min(1, Math.max(0, (label ? 0.62 : 0.4) + (rng() - 0.5) * 0.8));
    const score = Number.isFinite(levels) ? Math.round(raw * levels) / levels : raw;
    scores.push(score);
    decisions.push(score >= 0.5);
    labels.push(label);
  }
  return { scores, decisions, labels };
}

describe('intervals agree with the row bootstrap within Monte-Carlo error', () => {
  // Percentile endpoints from B resamples have a standard error of about √(α(1−α)/B)/φ(z)·sd = 0.06·sd at
  // B = 2000; two independent runs differ by √2 of that. Allowed: 4 of those standard errors, 0.34·sd.
  const B = 2000;
  const tolerance = 4 * Math.SQRT2 * (Math.sqrt((0.025 * 0.975) / B) / (Math.exp(-(1.96 ** 2) / 2) / Math.sqrt(2 * Math.PI)));
  it.each([
    [300, 1, 0.55],
    [400, 2, 0.3],
    [250, 3, 0.8],
    [500, 4, 0.5],
  ])('n = %i, seed %i, positive rate %f', (n, seed, rate) => {
    const { scores, decisions, labels } = synthetic(n, seed, rate);
    const ref = rowBootstrap(scores, decisions, labels, B, seed + 1000);
    const got = binaryReport(scores, decisions, labels, { resamples: B, seed });
    for (const m of BINARY_METRICS) {
      const want = ref.ci[m]!;
      const ci = got.metrics[m].ci!;
      const allowed = tolerance * sd(ref.samples[m]);
      expect(Math.abs(ci[0] - want[0]), `${m} lower`).toBeLessThanOrEqual(allowed);
      expect(Math.abs(ci[1] - want[1]), `${m} upper`).toBeLessThanOrEqual(allowed);
    }
  });

  // Above AUC_BOOTSTRAP_ROWS: the cell bootstrap (few distinct scores in a class) and DeLong (many in both).
  it.each([
    ['cells: 101 score levels', 0.55, 100, 1000],
    ['cells: rare positives, continuous scores', 0.004, Infinity, 1000],
    ['cells: rare negatives, continuous scores', 0.996, Infinity, 1000],
    ['DeLong: continuous scores', 0.55, Infinity, 0],
  ] as const)(`above ${AUC_BOOTSTRAP_ROWS} rows, the AUC interval: %s`, (_, rate, levels, B) => {
    const n = AUC_BOOTSTRAP_ROWS + 1_000;
    const { scores, decisions, labels } = synthetic(n, 9, rate, levels);
    const ref = aucRowBootstrap(scores, labels, 2000, 10);
    const got = binaryReport(scores, decisions, labels, { resamples: B || 1000 }).metrics.auc;
    // Endpoint Monte-Carlo error: 0.06·sd at 1000 resamples, 0.042·sd at 2000 (the reference); the cells'
    // draws have it too, DeLong's none. Allowed: 4 standard errors of the difference.
    const se = (b: number) => Math.sqrt((0.025 * 0.975) / b) / 0.05844;
    const allowed = 4 * Math.hypot(se(2000), B ? se(B) : 0) * sd(ref.samples) + 1e-12;
    expect(Math.abs(got.ci![0] - ref.ci[0])).toBeLessThanOrEqual(allowed);
    expect(Math.abs(got.ci![1] - ref.ci[1])).toBeLessThanOrEqual(allowed);
  });

  it('keeps the point estimates of the row version', () => {
    const { scores, decisions, labels } = synthetic(300, 5);
    const a = binaryReport(scores, decisions, labels, { resamples: 0 });
    for (const m of BINARY_METRICS) expect(a.metrics[m].ci).toBeNull();
    expect(a.metrics.auc.value).toBe(rocAuc(scores, labels));
  });
});

describe('aucWithVariance', () => {
  it("gives rocAuc exactly and DeLong's variance (checked by the O(P·N) definition)", () => {
    for (const c of ref.binary) {
      const sc: number[] = [];
      const lab: boolean[] = [];
      (c.scores as (number | null)[]).forEach((x, i) => {
        if (x !== null && !Number.isNaN(x)) {
          sc.push(x);
          lab.push(c.labels[i]!);
        }
      });
      const got = aucWithVariance(sc, lab);
      const want = rocAuc(sc, lab);
      if (want === null) {
        expect(got).toBeNull();
        continue;
      }
      expect(got!.auc).toBe(want);
      const pos = sc.filter((_, i) => lab[i]);
      const neg = sc.filter((_, i) => !lab[i]);
      const psi = (x: number, y: number) => (x > y ? 1 : x === y ? 0.5 : 0);
      const v10 = pos.map((x) => neg.reduce((a, y) => a + psi(x, y), 0) / neg.length);
      const v01 = neg.map((y) => pos.reduce((a, x) => a + psi(x, y), 0) / pos.length);
      const s2 = (v: number[]) => v.reduce((a, x) => a + (x - want) ** 2, 0) / (v.length - 1);
      expect(got!.variance).toBeCloseTo(s2(v10) / pos.length + s2(v01) / neg.length, 14);
    }
  });
  it('upperTailZ inverts the upper tail', () => {
    expect(upperTailZ(0.025)).toBeCloseTo(1.959963984540054, 12);
    expect(upperTailZ(0.5)).toBeCloseTo(0, 12);
  });
});
