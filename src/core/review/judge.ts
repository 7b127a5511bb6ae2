/**
 * What the review says about the judge it was made for: per system and over all of them, how often the judge
 * rejects an answer the humans would credit (false negatives) and credits one they would not (false positives),
 * how far its accuracy is from the reviewed accuracy (its bias on that system), and whether it errs more on long
 * answers — each with an interval of the same kind as the review's figures.
 *
 * What, over a system's rows the judge decided (d = 1 credited, 0 rejected), y the human verdict:
 *   false-negative rate = Σ (1 − d) y / Σ y,   false-positive rate = Σ d (1 − y) / Σ (1 − y),
 *   bias = Σ d / N − Σ y / N (judge accuracy − reviewed accuracy; > 0 over-credits),
 *   error rate of a length bin = Σ |d − y| / N_bin = (Σ d + Σ (1 − 2d) y) / N_bin, trend = longest bin − shortest bin.
 * Each is a target linear in the unknown y, θ = (k + Σ a_c y_c) / N, estimated by the review's own estimator: a
 *   review drawn step by step by the martingale terms of sequential.ts (a confidence sequence that holds wherever the
 *   person stops, and the fixed-size interval), other labelled rows by the inverse-probability estimate of
 *   estimate.ts with the prediction taken whole (λ = 1; a fixed-size interval).
 * The rates are ratios of two such targets, num / den. Their interval is Fieller's: R is inside when the linear
 *   target num − R·den (zero at the true R) has 0 inside its interval, so it holds whenever that interval does —
 *   at every stopping point for the confidence sequence. The value is num̂ / den̂ clipped to [0, 1]. There is no
 *   rate before the review has a verdict on a row of its kind (the false-negative rate: a row the judge rejected;
 *   the false-positive rate: one it credited), nor when den̂ ≤ 0.
 * Length bins: the decided rows' answer lengths in words cut at their terciles (bins that would be empty merge);
 *   the trend's interval above 0 is "grows", below "falls", else "unclear".
 * Limits: a rate's interval is wide where the review saw few answers of its kind (a judge that rarely rejects has
 *   few false negatives to learn from); rows the judge did not decide are left out of every figure.
 */
import { censusIn, expected, inSample, known, type ReviewFrame } from './estimate.ts';
import { sequentialEstimate, terms } from './sequential.ts';
import { twoSidedZ } from '../util/normal.ts';

export interface JudgeFigure {
  value: number | null;
  /** The interval: the confidence sequence for a review drawn step by step (`interval: 'anytime'`), else fixed-size. */
  ci: [number, number] | null;
  /** A review drawn step by step: the interval for a number of answers fixed before the first. */
  fixed?: [number, number] | null;
}

export interface JudgeErrors {
  /** The system, or null for every system together. */
  system: string | null;
  /** Rows the judge decided, and of them with a human verdict. */
  rows: number;
  reviewed: number;
  /** Of the answers the humans would credit, the share the judge rejects. */
  falseNegative: JudgeFigure;
  /** Of the answers the humans would not credit, the share the judge credits. */
  falsePositive: JudgeFigure;
  /** The judge's accuracy minus the reviewed accuracy on the rows it decided: above 0 it over-credits. */
  bias: JudgeFigure;
}

export interface LengthBin {
  /** Answer length in words, first and last. */
  words: [number, number];
  rows: number;
  /** The share of the bin's rows the judge decides otherwise than the humans would. */
  errors: JudgeFigure;
}

export interface JudgeLength {
  bins: LengthBin[];
  /** The longest bin's error rate minus the shortest's. */
  trend: JudgeFigure;
  verdict: 'grows' | 'falls' | 'unclear';
}

export interface JudgeReport {
  interval: 'anytime' | 'fixed';
  level: number;
  systems: JudgeErrors[];
  overall: JudgeErrors;
  /** Null when the answers' lengths are unknown or all fall in one bin. */
  length: JudgeLength | null;
}

export interface JudgeInput {
  /** The judge's decision per cell (1 / 0, −1 none). */
  decision: ArrayLike<number>;
  /** Per system: its name and the cells its figures are over (those without a decision are left out). */
  systems: readonly { name: string; cells: readonly number[] }[];
  /** Answer length in words per cell, or null when unknown. */
  words: ArrayLike<number> | null;
}

/** θ = (k + Σ a_c y_c) / N over `cells`. */
interface Linear {
  cells: readonly number[];
  a: readonly number[];
  k: number;
  N: number;
}

interface Est {
  value: number;
  ci: [number, number] | null;
  fixed: [number, number] | null;
}

/**
 * The judge's errors are rare events: a review that has not yet drawn one of a kind sees no spread at all, and the
 * accuracy's fading prior (PRIOR_STEPS pseudo-steps, sequential.ts) let the false-negative rate's confidence sequence
 * miss 16% of runs in simulation (judge.test.ts). Here the variance the priority expects of the judge's steps is a
 * floor that does not fade: so many pseudo-steps that V = max(the sample's, n σ₀²).
 */
const FLOOR_STEPS = 1e9;
/**
 * The least chance of an error the floor assumes of any row: a priority that calls a row certain (0.00) would
 * otherwise let a rate with no error of its kind reviewed yet claim an interval of zero width ("0.0% [0.0, 0.0]").
 */
const MIN_ERROR = 0.02;

/** The coarse grid of R a ratio's interval is first read on, and the bisection steps that then refine each edge. */
const GRID = 64;
const REFINE = 14;

/**
 * The estimate of num − R·den for any R (one cell list, two weightings), as a function of R. A review drawn step
 * by step computes its terms three times (they are linear in R, their prior variance quadratic) and each R is then
 * a pass over the steps.
 */
function family(fr: ReviewFrame, num: Linear, den: Linear | null, level: number, scale: number): (R: number) => Est | null {
  const a = (R: number) => num.a.map((x, k) => x - R * (den?.a[k] ?? 0));
  const kOf = (R: number) => num.k - R * (den?.k ?? 0);
  const { cells, N } = num;
  const seq = fr.seq;
  if (seq) {
    const isKnown = censusIn(fr, seq);
    const floored = { ...seq, prior: seq.prior.map((p) => Math.max(p, MIN_ERROR)) };
    const at = (R: number) => terms(floored, fr.y, isKnown, { cells, signs: a(R), N });
    const t0 = at(0);
    if (t0.x.length === 0 || t0.touched === 0) return () => null;
    const t1 = den ? at(1) : t0;
    const th = den ? at(0.5) : t0;
    // prior(R) = p0 + b R + c R², exact from three points.
    const [p0, ph, p1] = [t0.prior, th.prior, t1.prior];
    const b = -3 * p0 + 4 * ph - p1;
    const c = 2 * p0 - 4 * ph + 2 * p1;
    const x = new Float64Array(t0.x.length);
    return (R) => {
      const shift = kOf(R) / N;
      for (let s = 0; s < x.length; s++) x[s] = t0.x[s]! + R * (t1.x[s]! - t0.x[s]!) + shift;
      const e = sequentialEstimate(x, t0.nu, Math.max(0, p0 + b * R + c * R * R), t0.priorSteps && FLOOR_STEPS, seq.planned, level);
      return { value: e.value, ci: e.anytime, fixed: e.fixed };
    };
  }
  const z = twoSidedZ(level);
  const sampled = cells.some((c) => inSample(fr, c) && !known(fr, c));
  const allKnown = cells.every((c) => known(fr, c));
  if (!sampled && !allKnown) return () => null;
  return (R) => {
    const w = a(R);
    let sum = kOf(R);
    let vModel = 0;
    const units = new Map<number, { r: number; pi: number }>();
    cells.forEach((c, k) => {
      const f = fr.f[c]!;
      if (known(fr, c)) sum += w[k]! * fr.y[c]!;
      else {
        sum += w[k]! * f;
        if (!inSample(fr, c)) return;
        const p = fr.pi[c]!;
        const r = w[k]! * (fr.y[c]! - f);
        sum += r / p;
        const u = fr.unit[c]!;
        const e = units.get(u);
        if (e) e.r += r;
        else units.set(u, { r, pi: p });
        vModel += ((1 - p) / (p * p)) * scale * w[k]! * w[k]! * expected(fr, f);
      }
    });
    let v = 0;
    for (const { r, pi } of units.values()) v += ((1 - pi) / (pi * pi)) * r * r;
    const value = sum / N;
    const se = Math.sqrt(Math.max(v, vModel)) / N;
    const ci: [number, number] = [value - z * se, value + z * se];
    return { value, ci, fixed: ci };
  };
}

/** A figure with nothing to say yet (with the fixed-size interval's key when the review is drawn step by step). */
const noFigure = (seqd: boolean): JudgeFigure => ({ value: null, ci: null, ...(seqd ? { fixed: null } : {}) });

const holds0 = (ci: [number, number] | null) => !!ci && ci[0] <= 0 && 0 <= ci[1];
const clip01 = (x: number) => Math.min(1, Math.max(0, x));

/** num / den with Fieller's interval (see the header). */
function ratio(fr: ReviewFrame, num: Linear, den: Linear, level: number, scale: number, seqd: boolean): JudgeFigure {
  const at = family(fr, num, den, level, scale);
  const e0 = at(0);
  const e1 = at(1);
  if (!e0 || !e1) return noFigure(seqd);
  const denValue = e0.value - e1.value;
  if (!(denValue > 0)) return noFigure(seqd);
  const value = clip01(e0.value / denValue);
  // The R inside: the hull of the coarse grid's, each edge refined by bisection towards its outer neighbour.
  const grid = Array.from({ length: GRID + 1 }, (_, i) => i / GRID);
  const ests = grid.map((R) => (R === 0 ? e0 : R === 1 ? e1 : at(R)));
  const hull = (pick: (e: Est) => [number, number] | null): [number, number] => {
    const inside = (R: number) => {
      const e = at(R);
      return !!e && holds0(pick(e));
    };
    const ok = ests.map((e) => !!e && holds0(pick(e)));
    const lo = ok.indexOf(true);
    const hi = ok.lastIndexOf(true);
    // The value is where num − R·den is estimated 0, inside the set unless clipped to [0, 1]: the hull keeps it.
    const lowIn = lo >= 0 ? Math.min(grid[lo]!, value) : value;
    const highIn = hi >= 0 ? Math.max(grid[hi]!, value) : value;
    const edge = (inR: number, outR: number) => {
      for (let k = 0; k < REFINE; k++) {
        const mid = (inR + outR) / 2;
        if (inside(mid)) inR = mid;
        else outR = mid;
      }
      return inR;
    };
    const below = grid.filter((R) => R < lowIn).at(-1);
    const above = grid.find((R) => R > highIn);
    const loR = below === undefined ? lowIn : edge(lowIn, below);
    const hiR = above === undefined ? highIn : edge(highIn, above);
    return [Math.min(loR, value), Math.max(hiR, value)];
  };
  const ci = hull((e) => e.ci);
  return seqd ? { value, ci, fixed: hull((e) => e.fixed) } : { value, ci };
}

/** A linear target's figure, clipped to `bounds`. */
function linear(fr: ReviewFrame, t: Linear, level: number, scale: number, bounds: [number, number], seqd: boolean): JudgeFigure {
  const e = family(fr, t, null, level, scale)(0);
  const clip = (x: number) => Math.min(bounds[1], Math.max(bounds[0], x));
  const clipCi = (ci: [number, number] | null): [number, number] | null => (ci ? [clip(ci[0]), clip(ci[1])] : null);
  if (!e) return noFigure(seqd);
  return { value: clip(e.value), ci: clipCi(e.ci), ...(seqd ? { fixed: clipCi(e.fixed) } : {}) };
}

/** One set of rows' false-negative and false-positive rates and bias. */
function errorsOf(
  fr: ReviewFrame,
  system: string | null,
  cells: readonly number[],
  d: ArrayLike<number>,
  level: number,
  scale: number,
): JudgeErrors {
  const seqd = fr.seq !== null;
  const N = cells.length;
  const D = cells.reduce((s, c) => s + d[c]!, 0);
  const ones = cells.map(() => 1);
  const reviewed = cells.filter((c) => fr.y[c]! >= 0).length;
  // A rate says nothing until the review has a verdict on a row of its kind: before that its numerator is the
  // judge's own prediction, certain by construction (no false negative is predicted where the judge rejects).
  const census = fr.seq ? censusIn(fr, fr.seq) : (c: number) => known(fr, c);
  const counts = (c: number) => census(c) || (fr.y[c]! >= 0 && (fr.seq ? fr.seq.stepOf[c]! >= 0 : inSample(fr, c)));
  const seen = (decision: number) => cells.some((c) => d[c] === decision && counts(c));
  return {
    system,
    rows: N,
    reviewed,
    falseNegative: !seen(0)
      ? noFigure(seqd)
      : ratio(fr, { cells, a: cells.map((c) => 1 - d[c]!), k: 0, N }, { cells, a: ones, k: 0, N }, level, scale, seqd),
    falsePositive: !seen(1)
      ? noFigure(seqd)
      : ratio(fr, { cells, a: cells.map((c) => -d[c]!), k: D, N }, { cells, a: ones.map(() => -1), k: N, N }, level, scale, seqd),
    bias: linear(fr, { cells, a: ones.map(() => -1), k: D, N }, level, scale, [-1, 1], seqd),
  };
}

/** The decided rows cut at the terciles of their answers' lengths; bins that would be empty merge. */
function lengthBins(cells: readonly number[], words: ArrayLike<number>): number[][] {
  const sorted = cells.map((c) => words[c]!).sort((x, y) => x - y);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  const cuts = [...new Set([at(1 / 3), at(2 / 3)])];
  const bins: number[][] = [];
  let from = -Infinity;
  for (const cut of [...cuts, Infinity]) {
    const bin = cells.filter((c) => words[c]! > from && words[c]! <= cut);
    if (bin.length) bins.push(bin);
    from = cut;
  }
  return bins;
}

function lengthTrend(
  fr: ReviewFrame,
  cells: readonly number[],
  d: ArrayLike<number>,
  words: ArrayLike<number>,
  level: number,
  scale: number,
): JudgeLength | null {
  const bins = lengthBins(cells, words);
  if (bins.length < 2) return null;
  const seqd = fr.seq !== null;
  const errorTarget = (bin: readonly number[], weight: number): Linear => ({
    cells: bin,
    a: bin.map((c) => weight * (1 - 2 * d[c]!)),
    k: weight * bin.reduce((s, c) => s + d[c]!, 0),
    N: 1,
  });
  const out: LengthBin[] = bins.map((bin) => {
    const ws = bin.map((c) => words[c]!);
    return {
      words: [Math.min(...ws), Math.max(...ws)],
      rows: bin.length,
      errors: linear(fr, errorTarget(bin, 1 / bin.length), level, scale, [0, 1], seqd),
    };
  });
  const long = errorTarget(bins.at(-1)!, 1 / bins.at(-1)!.length);
  const short = errorTarget(bins[0]!, -1 / bins[0]!.length);
  const trend = linear(
    fr,
    { cells: [...long.cells, ...short.cells], a: [...long.a, ...short.a], k: long.k + short.k, N: 1 },
    level,
    scale,
    [-1, 1],
    seqd,
  );
  const verdict = trend.ci && trend.ci[0] > 0 ? 'grows' : trend.ci && trend.ci[1] < 0 ? 'falls' : 'unclear';
  return { bins: out, trend, verdict };
}

/** The judge's errors, per system and overall, and their trend with answer length, from a review's frame. */
export function judgeReport(fr: ReviewFrame, inp: JudgeInput, level: number, scale: number): JudgeReport {
  const decided = (cells: readonly number[]) => cells.filter((c) => inp.decision[c]! >= 0 && !Number.isNaN(fr.f[c]!));
  const per = inp.systems.map((s) => ({ name: s.name, cells: decided(s.cells) }));
  const all = per.flatMap((s) => s.cells);
  return {
    interval: fr.seq ? 'anytime' : 'fixed',
    level,
    systems: per.map((s) => errorsOf(fr, s.name, s.cells, inp.decision, level, scale)),
    overall: errorsOf(fr, null, all, inp.decision, level, scale),
    length: inp.words && all.length ? lengthTrend(fr, all, inp.decision, inp.words, level, scale) : null,
  };
}
