/**
 * The review's intervals in simulation: a population of systems whose judge errs unevenly, a priority that knows
 * roughly where, answers shared between systems; a review drawn by the design (design.ts) and answered in order;
 * at every point a person may stop, each system's estimate and intervals (estimate.ts, sequential.ts).
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../util/random.ts';
import { drawDesign, stepProbabilities, stratumScale } from './design.ts';
import { reviewFrame } from './frame.ts';
import { reviewedMean, reviewedOf, reviewedPair } from './estimate.ts';
import { anytimeRadius, sequentialEstimate } from './sequential.ts';
import { S, Q, ROWS, STOPS, cells, inside, population, reviewOf } from '../../../test/review-sim.ts';

describe('the review in simulation, at every point a person may stop', () => {
  const pop = population(3);
  for (const [learn, adapt] of [
    [false, false],
    [true, false],
    [true, true],
  ] as const) {
    const SEEDS = learn ? 300 : 600;
    const what = adapt
      ? 'a prediction learned from the answers and a draw that adapts to them'
      : learn
        ? 'a prediction learned from the answers'
        : "the judge's decisions";
    it(`holds its promises with ${what} (${SEEDS} seeds)`, { timeout: 600_000 }, () => {
      let everAnytime = 0;
      let everFixed = 0;
      let runs = 0;
      const covered = STOPS.map(() => 0);
      const bias = STOPS.map(() => new Array<number>(S).fill(0));
      const widths = STOPS.map(() => [0, 0]);
      for (let seed = 1; seed <= SEEDS; seed++) {
        const stop = reviewOf(pop, seed, STOPS.at(-1)!, learn, adapt);
        const missA = new Array<boolean>(S).fill(false);
        const missF = new Array<boolean>(S).fill(false);
        STOPS.forEach((n, k) => {
          const fr = stop(n);
          for (let s = 0; s < S; s++) {
            const r = reviewedOf(fr, cells(s), 0.95, 1)!;
            const t = pop.truth[s]!;
            if (!inside(r.ci, t)) missA[s] = true;
            if (!inside(r.fixed, t)) missF[s] = true;
            else covered[k]!++;
            bias[k]![s]! += (r.value - t) / SEEDS;
            widths[k]![0]! += (r.ci![1] - r.ci![0]) / (SEEDS * S);
            widths[k]![1]! += (r.fixed![1] - r.fixed![0]) / (SEEDS * S);
          }
        });
        for (let s = 0; s < S; s++) {
          runs++;
          if (missA[s]) everAnytime++;
          if (missF[s]) everFixed++;
        }
      }
      const report = STOPS.map(
        (n, k) =>
          `${n}: fixed ${(covered[k]! / (SEEDS * S)).toFixed(3)} w ${widths[k]![1]!.toFixed(3)} / anytime w ${widths[k]![0]!.toFixed(3)}`,
      );
      if (process.env.VERITY_SIM_REPORT)
        console.log(
          `${adapt ? 'adapting' : learn ? 'learned' : 'judge'}: all-time miss anytime ${(everAnytime / runs).toFixed(3)}, fixed ${(everFixed / runs).toFixed(3)}\n${report.join('\n')}\nbias ${bias.map((b) => b.map((x) => x.toFixed(3)).join(',')).join(' | ')}`,
        );
      // The confidence sequence: the truth outside it at any stopping point in at most 5% of (seed, system) runs.
      expect(everAnytime / runs).toBeLessThanOrEqual(0.05);
      // The fixed-size interval misses somewhere far more often: it is valid only for a stop fixed in advance.
      expect(everFixed / runs).toBeGreaterThan(0.1);
      for (let k = 0; k < STOPS.length; k++) {
        // At each stopping point alone, the fixed-size interval covers as it says.
        const cov = covered[k]! / (SEEDS * S);
        expect(cov).toBeGreaterThanOrEqual(0.93);
        // … and not far over: a floor that also weighed the learned steps' f(1 − f) gave 0.971–0.975 at the first stops.
        expect(cov).toBeLessThanOrEqual(0.97);
        // Unbiased wherever one stops.
        for (const b of bias[k]!) expect(Math.abs(b)).toBeLessThan(0.01);
      }
    });
  }

  it(
    'stays unbiased beside labels outside its draw (plain lines, a label column, answers carried past a blank)',
    { timeout: 600_000 },
    () => {
      // A third of the answer groups labelled outside the draw: counted as known, they raised the estimates by 0.007–0.031.
      const SEEDS = 300;
      const n = 400;
      for (const learn of [false, true]) {
        const bias = new Array<number>(S).fill(0);
        let covered = 0;
        for (let seed = 1; seed <= SEEDS; seed++) {
          const fr = reviewOf(pop, seed, n, learn)(n);
          const y = Int8Array.from(fr.y);
          pop.list.forEach((cs, g) => {
            if (g % 3 === 0) for (const c of cs) if (fr.seq!.stepOf[c]! < 0) y[c] = pop.y[c]!;
          });
          for (let s = 0; s < S; s++) {
            const r = reviewedOf({ ...fr, y }, cells(s), 0.95, 1)!;
            bias[s]! += (r.value - pop.truth[s]!) / SEEDS;
            if (inside(r.ci, pop.truth[s]!)) covered++;
          }
        }
        for (const b of bias)
          expect(Math.abs(b), `${learn ? 'learned' : 'judge'}: bias ${bias.map((x) => x.toFixed(4)).join(', ')}`).toBeLessThan(0.006);
        expect(covered / (SEEDS * S)).toBeGreaterThanOrEqual(0.95);
      }
    },
  );

  it(
    'with earlier verdicts as the prediction of a review not drawn beside them: unbiased, covered, narrower (300 seeds)',
    { timeout: 600_000 },
    () => {
      // Verdicts from before the review on 40% of the answers, 3% of them wrong (a person errs too): the review was
      // drawn without them, so they are not labels, but they may stand in for the judge's prediction. (Verdicts
      // as often wrong as the judge buy nothing: with 10% wrong the intervals came out 10% wider, since their errors
      // fall where the priority expects none.)
      const SEEDS = 300;
      const stops = STOPS.filter((_, k) => k % 3 === 0);
      let ever = 0;
      const bias = stops.map(() => new Array<number>(S).fill(0));
      const width = [0, 0];
      for (let seed = 1; seed <= SEEDS; seed++) {
        const rnd = mulberry32(seed * 15485863 + 11);
        const earlier = new Float64Array(ROWS).fill(NaN);
        for (const cs of pop.list)
          if (rnd() < 0.4) {
            const right = rnd() < 0.97;
            for (const c of cs) earlier[c] = right ? pop.y[c]! : 1 - pop.y[c]!;
          }
        const withIt = reviewOf(pop, seed, stops.at(-1)!, true, false, undefined, earlier);
        const without = reviewOf(pop, seed, stops.at(-1)!, true, false);
        const miss = new Array<boolean>(S).fill(false);
        stops.forEach((n, k) => {
          const fr = withIt(n);
          const plain = without(n);
          for (let s = 0; s < S; s++) {
            const r = reviewedOf(fr, cells(s), 0.95, 1)!;
            const t = pop.truth[s]!;
            if (!inside(r.ci, t)) miss[s] = true;
            bias[k]![s]! += (r.value - t) / SEEDS;
            width[0]! += r.ci![1] - r.ci![0];
            const p = reviewedOf(plain, cells(s), 0.95, 1)!;
            width[1]! += p.ci![1] - p.ci![0];
          }
        });
        ever += miss.filter(Boolean).length;
      }
      if (process.env.VERITY_SIM_REPORT)
        console.log(
          `earlier verdicts as the prediction: ever missed ${(ever / (SEEDS * S)).toFixed(3)}, mean width ${(width[0]! / (SEEDS * S * stops.length)).toFixed(3)} vs ${(width[1]! / (SEEDS * S * stops.length)).toFixed(3)} without; bias ${bias.map((b) => b.map((x) => x.toFixed(3)).join(',')).join(' | ')}`,
        );
      expect(ever / (SEEDS * S)).toBeLessThanOrEqual(0.05);
      for (const b of bias.flat()) expect(Math.abs(b)).toBeLessThan(0.01);
      expect(width[0]!).toBeLessThan(0.95 * width[1]!);
    },
  );

  it('with earlier verdicts known: never asks them again, and stays unbiased and covered (300 seeds)', { timeout: 600_000 }, () => {
    // A first review of systems 0–2 alone (250 questions), then the whole file with its answers known: their groups
    // are left out of the second draw (a census stratum, π = 1), the rest drawn as ever.
    const SEEDS = 300;
    const n = 400;
    const half = pop.list.map((cs, g) => (cs.every((c) => Math.floor(c / Q) < 3) ? g : -1)).filter((g) => g >= 0);
    const bias = new Array<number>(S).fill(0);
    let covered = 0;
    for (let seed = 1; seed <= SEEDS; seed++) {
      const rnd = mulberry32(seed * 104729 + 7);
      const draws = (k: number) => Float64Array.from({ length: k }, () => (Math.floor(rnd() * 4294967295) + 1) / 4294967297);
      const first = drawDesign(
        Float64Array.from(half, (g) => pop.weights[g]!),
        draws(half.length),
        seed,
      );
      const known = new Uint8Array(pop.list.length);
      for (const k of first.order.subarray(0, 250)) known[half[k]!] = 1;
      const second = drawDesign(pop.weights, draws(pop.list.length), seed, known);
      const order = second.order.subarray(0, n);
      expect(Array.from(order).some((g) => known[g])).toBe(false);
      const q = stepProbabilities(
        Array.from(order, (g) => pop.weights[g]!),
        second.total,
      );
      const stepOf = new Int32Array(ROWS).fill(-1);
      order.forEach((g, t) => pop.list[g]!.forEach((c) => (stepOf[c] = t)));
      const pi = Float64Array.from(stepOf, (t) => (t >= 0 ? 0.5 : NaN));
      const y = Int8Array.from(pop.y, (v, c) => (stepOf[c]! >= 0 || known[pop.groupOf[c]!] ? v : -1));
      pop.list.forEach((cs, g) => known[g] && cs.forEach((c) => (pi[c] = 1)));
      const fr = reviewFrame({
        S,
        Q,
        decision: pop.d,
        signals: pop.signals,
        y,
        sample: { pi, unit: stepOf, steps: { stepOf, q, planned: n } },
        group: pop.group,
        learn: false,
        priority: pop.prio,
      });
      for (let s = 0; s < S; s++) {
        const r = reviewedOf(fr, cells(s), 0.95, 1)!;
        bias[s]! += (r.value - pop.truth[s]!) / SEEDS;
        if (inside(r.ci, pop.truth[s]!)) covered++;
      }
    }
    for (const b of bias) expect(Math.abs(b), `bias ${bias.map((x) => x.toFixed(4)).join(', ')}`).toBeLessThan(0.006);
    expect(covered / (SEEDS * S)).toBeGreaterThanOrEqual(0.95);
  });

  it('gives paired differences that hold wherever one stops, and are the differences of the values', { timeout: 600_000 }, () => {
    const SEEDS = 150;
    const pairs: [number, number][] = [];
    for (let a = 0; a < S; a++) for (let b = a + 1; b < S; b++) pairs.push([a, b]);
    let ever = 0;
    let runs = 0;
    const all = Array.from({ length: Q }, (_, q) => q);
    for (let seed = 1; seed <= SEEDS; seed++) {
      const stop = reviewOf(pop, seed, STOPS.at(-1)!, true);
      const miss = pairs.map(() => false);
      for (const n of STOPS) {
        const fr = stop(n);
        pairs.forEach(([a, b], k) => {
          const p = reviewedPair(fr, a, b, 0.95, 1, all);
          if (!inside(p.ci, pop.truth[a]! - pop.truth[b]!)) miss[k] = true;
          // One estimand: the difference is the difference of the two systems' estimates on the same steps.
          expect(p.diff!).toBeCloseTo(p.accA! - p.accB!, 9);
          expect(p.p!).toBeGreaterThanOrEqual(0);
          // The anytime p leaves 0 out of the interval exactly when it is under 5%.
          if (p.p! < 0.049) expect(p.ci![0] > 0 || p.ci![1] < 0).toBe(true);
          if (p.p! > 0.051) expect(p.ci![0] <= 0 && p.ci![1] >= 0).toBe(true);
        });
      }
      runs += pairs.length;
      ever += miss.filter(Boolean).length;
    }
    expect(ever / runs).toBeLessThanOrEqual(0.05);
  });
});

describe('a review split in two of unequal size, each system read as the mean of its two accuracies', () => {
  // Split A: the first 60 questions; B: the other 240. Every split weighs alike in the mean.
  const pop = population(5);
  const A = 60;
  const parts = (s: number) => [cells(s).slice(0, A), cells(s).slice(A)];
  const truth = Array.from({ length: S }, (_, s) => {
    const mean = (cs: number[]) => cs.reduce((n, c) => n + pop.y[c]!, 0) / cs.length;
    const [a, b] = parts(s);
    return (mean(a!) + mean(b!)) / 2;
  });
  const stratumOf = Int32Array.from({ length: ROWS }, (_, c) => 2 * Math.floor(c / Q) + (c % Q < A ? 0 : 1));
  const split = stratumScale(stratumOf, 2 * S);
  // 400 seeds: a bias's standard error is then about 0.002 (200 gave up to 0.012 by chance; 400 others, 0.005).
  const SEEDS = 400;

  function run(scale: Float64Array | undefined) {
    let ever = 0;
    let width = 0;
    const bias = STOPS.map(() => new Array<number>(S).fill(0));
    for (let seed = 1; seed <= SEEDS; seed++) {
      const stop = reviewOf(pop, seed, STOPS.at(-1)!, true, true, scale);
      const miss = new Array<boolean>(S).fill(false);
      STOPS.forEach((n, k) => {
        const fr = stop(n);
        for (let s = 0; s < S; s++) {
          const r = reviewedMean(fr, parts(s), 0.95, 1)!;
          if (!inside(r.ci, truth[s]!)) miss[s] = true;
          bias[k]![s]! += (r.value - truth[s]!) / SEEDS;
          if (k === 7) width += (r.ci![1] - r.ci![0]) / (SEEDS * S);
        }
      });
      ever += miss.filter(Boolean).length;
    }
    return { miss: ever / (SEEDS * S), width, bias: Math.max(...bias.flat().map(Math.abs)) };
  }

  it(`holds the mean's interval wherever one stops, and drawing for the mean narrows it (${SEEDS} seeds)`, { timeout: 600_000 }, () => {
    const stratified = run(split);
    const plain = run(undefined);
    if (process.env.VERITY_SIM_REPORT) console.log('split', stratified, 'unsplit', plain);
    for (const r of [stratified, plain]) {
      expect(r.miss).toBeLessThanOrEqual(0.05);
      expect(r.bias).toBeLessThan(0.01);
    }
    // Measured 0.199 against 0.235 at 12% of the rows: a row of the small split counts four times as much in the mean.
    expect(stratified.width).toBeLessThan(plain.width * 0.95);
  });
});

describe('the first answers of a review', () => {
  it('give no interval to a system none of whose rows was drawn, and order no pair from no answer', () => {
    const pop = population(3);
    let without = 0;
    let withCi = 0;
    for (let seed = 1; seed <= 20; seed++)
      for (const n of [1, 3, 8, 15]) {
        const fr = reviewOf(pop, seed, 360, false)(n);
        const drawn = (s: number) => cells(s).some((c) => fr.seq!.stepOf[c]! >= 0);
        for (let s = 0; s < S; s++) {
          const r = reviewedOf(fr, cells(s), 0.95, 1)!;
          if (!drawn(s)) {
            without++;
            // Its terms are the prediction alone: their spread of 0 was once given as an interval of zero width.
            expect(r.ci).toBeNull();
          } else {
            withCi++;
            expect(r.ci![1] - r.ci![0]).toBeGreaterThan(0);
          }
          for (let b = s + 1; b < S; b++) if (!drawn(s) && !drawn(b)) expect(reviewedPair(fr, s, b, 0.95, 1).p).toBeNull();
        }
      }
    expect(without).toBeGreaterThan(20);
    expect(withCi).toBeGreaterThan(20);
  });
});

describe('the confidence sequence', () => {
  it('is wider than the fixed-size interval and narrows as answers come', () => {
    // At the planned size, √(2 (l + 1) / l · ln(√(l + 1) / α)) with l = −2 ln α + ln(1 − 2 ln α): 3.04 σ/√n for α = 0.05.
    const l = -2 * Math.log(0.05) + Math.log(1 - 2 * Math.log(0.05));
    expect(anytimeRadius(1, 100, 100, 0.05) * 10).toBeCloseTo(Math.sqrt(((2 * (l + 1)) / l) * Math.log(Math.sqrt(l + 1) / 0.05)), 12);
    expect(anytimeRadius(1, 100, 100, 0.05) * 10).toBeCloseTo(3.035, 2);
    expect(anytimeRadius(1, 400, 100, 0.05)).toBeLessThan(anytimeRadius(1, 100, 100, 0.05));
    const e = sequentialEstimate(Float64Array.of(0.5, 0.7, 0.6, 0.4, 0.8), new Float64Array(5).fill(1), 0, 30, 5, 0.95);
    expect(e.value).toBeCloseTo(0.6, 12);
    // σ̂² = Σ (x − x̄)² / (n − 1) with no prior: 0.1 / 4; the fixed interval 1.96 σ̂ / √5.
    expect(e.fixed![1] - 0.6).toBeCloseTo(1.959964 * Math.sqrt(0.025 / 5), 5);
    expect(e.anytime![1] - e.anytime![0]).toBeGreaterThan(e.fixed![1] - e.fixed![0]);
  });

  it("narrows to about half or less with four times the answers, as the review panel's stop line says", () => {
    // The line: "four times as many answers narrow them to about half, or less while the review is short of its
    // planned length". Over planned lengths and points of a review, the spread held fixed.
    for (const planned of [50, 100, 300, 1000, 5000])
      for (let n = 10; n <= 4 * planned; n = Math.ceil(n * 1.5)) {
        const ratio = anytimeRadius(0.4, 4 * n, planned, 0.05) / anytimeRadius(0.4, n, planned, 0.05);
        expect(ratio, `${n} of ${planned}`).toBeLessThan(0.55);
        if (n >= planned) expect(ratio, `${n} of ${planned}`).toBeGreaterThan(0.45);
      }
  });

  it('keeps a review that saw no error from a zero-width interval', () => {
    const e = sequentialEstimate(new Float64Array(50).fill(0.9), new Float64Array(50).fill(1), 0.04, 30, 50, 0.95);
    expect(e.fixed![1] - e.fixed![0]).toBeGreaterThan(0.05);
  });
});
