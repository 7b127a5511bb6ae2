/**
 * What more answers would buy, read from a review drawn step by step so far: the half-width a target's interval
 * (a system's accuracy, a pair's difference) will have after m answers, and how many answers would order a pair of
 * systems whose difference is still open.
 *
 * What: after n answers the target's terms (sequential.ts) have weighted spread s² = Σ ν² (X − X̄)² / (n − 1), and
 *   its variance V is the larger of s² n and the spread with the judge's prior pseudo-steps, (s² (n − 1) + k σ₀²)
 *   n / (n − 1 + k) (varianceOf). Taking s², σ₀² and the mean weight as they stand, after m answers
 *     V_m = max(s² m, (s² (m − 1) + k σ₀²) m / (m − 1 + k)),  half-width = anytimeBound(V_m, m, planned, α) / (m ν̄)
 *   — the same variance and bound the review's intervals use (varianceOf at m), the prior's weight fading as it will. A pair with difference Δ̂ is
 *   ordered once the half-width falls below |Δ̂|: the fewest such m is the answers it needs, if Δ̂ and s² hold.
 * Checked: in simulation (ahead.test.ts) the widths projected from the first 90 answers against those reached at
 *   180–360 answers, on average over seeds, within 25%; halfWidthBefore's against reviews planned at 3–20% of the
 *   rows, read at half and at all their answers (the figures in docs/review.md).
 * Limits: a projection, not a promise — Δ̂ and s² move as answers come (a learned prediction shrinks s²); a pair whose
 *   difference is near 0 needs more answers than any file holds (null).
 */
import { censusIn, type ReviewFrame } from './estimate.ts';
import { anytimeBound, PRIOR_STEPS, spreadOf, terms, varianceOf, type Target } from './sequential.ts';
import { epochStarts, L2, MIN_CLASS, MIN_LABELS, predictionFeatures } from './frame.ts';
import { predictProba, trainLogistic } from '../agreement/logistic.ts';
import type { ReviewPlan } from './plan.ts';
import { normalUpperTail } from '../util/normal.ts';

/** The projected half-width as a function of the answers m, from the review so far; null without a step-by-step review or a step of the target. */
export function halfWidthAhead(fr: ReviewFrame, target: Target, level: number): ((m: number) => number) | null {
  const seq = fr.seq;
  if (!seq) return null;
  const { x, nu, prior, priorSteps, touched } = terms(seq, fr.y, censusIn(fr, seq), target);
  const n = x.length;
  if (n < 2 || touched === 0) return null;
  const { W, ss } = spreadOf(x, nu);
  return (m) => anytimeBound(varianceOf(ss, n, prior, priorSteps, m), m, seq.planned, 1 - level) / ((m * W) / n);
}

/** The fewest answers m in (n, limit] at which the projected half-width is below |diff|; null when none is. */
export function answersToOrder(half: (m: number) => number, diff: number, n: number, limit: number): number | null {
  const gap = Math.abs(diff);
  if (!(gap > 0) || !(half(limit) < gap)) return null;
  let lo = n;
  let hi = limit;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (half(mid) < gap) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * Before the first answer: the half-width a target's interval is expected to have after n answers, from the
 * judge's priority and the review's drawn order alone. Step t draws group g from those not yet drawn (U_t) with
 * probability q_g = w_g / W_t; the group adds (Σ_{i∈g} a_i)(y − f) to the term, whose square is (Σ a)² times the
 * expected square of a row's residual r̄_g. So step t's term has expected variance
 *   Var_t = Σ_{g∈U_t} (Σ a)² r̄_g / q_g / N² = W_t Σ_{g∈U_t} (Σ a)² r̄_g / w_g / N²
 * (its mean, the judge's bias, left out: small beside it) — smaller as the doubtful groups, drawn first, leave U.
 * While the judge's decisions predict (until frame.ts can fit a prediction — MIN_LABELS labels, MIN_CLASS of each
 * kind — or every step without `learn`), r = p, the priority's chance the judge errs; once a prediction is learned
 * from the answers (from the same signals the priority reads), r = r_L (1 + d/n): r_L what is left of a row's error
 * once the prediction knows what it can learn of the priority's view (`reach`, learnableFit; p (1 − p) without it),
 * raised by the learning curve of d parameters fitted on n labels, and its steps weigh ν (frame.ts stepWeight: the
 * judge's expected squares over the model's own, over the steps before). After n answers V = Σ ν_t² Var_t, raised
 * as the review raises it by the judge's prior pseudo-steps (varianceOf), and the half-width is the confidence
 * sequence's for it over Σ ν_t, tightest at `planned`.
 * Groups known from earlier verdicts are not in the order and add nothing.
 * `right` (an accuracy: every sign +1): each row's chance of being right; the review clips its interval to what the
 * labels allow ([right so far, 1 − wrong so far] over N, estimate.ts), which narrows a system near 0 or 1 most while
 * answers are few, so the half-width returned is the clipped one expected: h − ½E(θ̂ + h − hi)⁺ − ½E(lo − θ̂ + h)⁺
 * with θ̂ ~ N(Σ right / N, V / (Σ ν)²) and lo, hi from the rows drawn by then.
 */
export function halfWidthBefore(
  groups: readonly (readonly number[])[],
  order: ArrayLike<number>,
  weights: ArrayLike<number>,
  priority: ArrayLike<number>,
  target: { rows: readonly number[]; signs: readonly number[]; N: number },
  planned: number,
  level: number,
  opts: { right?: ArrayLike<number>; learn?: boolean; features?: number; reach?: LearnableFit } = {},
): (n: number) => number {
  const { right, learn = false, features = 0, reach } = opts;
  const sign = new Map(target.rows.map((r, k) => [r, target.signs[k]!] as const));
  const T = order.length;
  // Per group in the order: (Σ a)² r̄ / w for the target, and Σ r / w over every row (stepWeight's sums), for r = p
  // (the judge's residual) and a learned prediction's: p (1 − p), or what `reach` says it can learn (its residual
  // for the target, its own expected squares f (1 − f) for the weights).
  const judgeT = new Float64Array(T);
  const modelT = new Float64Array(T);
  const judgeAll = new Float64Array(T);
  const modelAll = new Float64Array(T);
  for (let t = 0; t < T; t++) {
    const g = order[t]!;
    const w = weights[g]!;
    let a = 0;
    let pj = 0;
    let pm = 0;
    let k = 0;
    for (const r of groups[g]!) {
      const p = priority[r]!;
      judgeAll[t]! += p / w;
      modelAll[t]! += (reach ? reach.own[r]! : p * (1 - p)) / w;
      const x = sign.get(r);
      if (x === undefined) continue;
      a += x;
      pj += p;
      pm += reach ? reach.residual[r]! : p * (1 - p);
      k++;
    }
    if (k) {
      judgeT[t] = (a * a * (pj / k)) / w;
      modelT[t] = (a * a * (pm / k)) / w;
    }
  }
  // Each step's expected variance: W_t times the sums over the groups not yet drawn.
  const stepVar = (per: Float64Array) => {
    const out = new Float64Array(T);
    let W = 0;
    let C = 0;
    for (let t = 0; t < T; t++) {
      W += weights[order[t]!]!;
      C += per[t]!;
    }
    for (let t = 0; t < T; t++) {
      out[t] = W * C;
      W -= weights[order[t]!]!;
      C -= per[t]!;
    }
    return out;
  };
  const vJ = stepVar(judgeT);
  const vM = stepVar(modelT);
  const sJ = stepVar(judgeAll);
  const sM = stepVar(modelAll);
  // Each step's weight, whether the judge predicts it, and (learned) how much its residual exceeds p (1 − p).
  const nu = new Float64Array(T).fill(1);
  const isJudge = new Uint8Array(T).fill(1);
  const excess = new Float64Array(T).fill(1);
  if (learn) {
    const starts = [...epochStarts(T), T];
    let sumJ = 0;
    let sumM = 0;
    let labels = 0;
    let rightLabels = 0;
    let t = 0;
    for (let e = 0; e + 1 < starts.length; e++) {
      for (; t < starts[e]!; t++) {
        sumJ += sJ[t]!;
        sumM += sM[t]!;
        for (const r of groups[order[t]!]!) {
          labels++;
          rightLabels += right ? right[r]! : 0.5;
        }
      }
      // frame.ts fits only with MIN_LABELS labels and MIN_CLASS of each kind; before that the judge predicts.
      if (labels < MIN_LABELS || rightLabels < MIN_CLASS || labels - rightLabels < MIN_CLASS) continue;
      const w = sumJ > 0 && sumM > 0 ? Math.min(10, Math.max(0.1, sumJ / sumM)) : 1;
      // A model of d parameters fitted on n labels misses by about d / n of the residual more (the learning
      // curve of least squares, E excess = σ² d / n), which a model fitted on the first answers feels most.
      const f = 1 + Math.min(1, features / labels);
      for (let s = starts[e]!; s < starts[e + 1]!; s++) {
        nu[s] = w;
        isJudge[s] = 0;
        excess[s] = f;
      }
    }
  }
  const N2 = target.N * target.N;
  const V = new Float64Array(T + 1);
  const Wsum = new Float64Array(T + 1);
  const prior = new Float64Array(T + 1);
  const judgeSteps = new Int32Array(T + 1);
  for (let t = 0; t < T; t++) {
    V[t + 1] = V[t]! + (nu[t]! * nu[t]! * (isJudge[t] ? vJ[t]! : vM[t]! * excess[t]!)) / N2;
    Wsum[t + 1] = Wsum[t]! + nu[t]!;
    prior[t + 1] = prior[t]! + (isJudge[t] ? vJ[t]! / N2 : 0);
    judgeSteps[t + 1] = judgeSteps[t]! + isJudge[t]!;
  }
  // Expected right and wrong rows of the target among the first t groups drawn, for the clipping.
  const R = new Float64Array(T + 1);
  const Wr = new Float64Array(T + 1);
  let centre = 0;
  if (right) {
    for (const r of target.rows) centre += right[r]!;
    centre /= target.N;
    for (let t = 0; t < T; t++) {
      let a = 0;
      let b = 0;
      for (const r of groups[order[t]!]!)
        if (sign.has(r)) {
          a += right[r]!;
          b += 1 - right[r]!;
        }
      R[t + 1] = R[t]! + a;
      Wr[t + 1] = Wr[t]! + b;
    }
  }
  return (n) => {
    const m = Math.min(Math.max(1, n), T);
    const j = judgeSteps[m]!;
    // The review's variance: the terms' spread (here its expectation), raised by the judge's prior pseudo-steps.
    const k = (PRIOR_STEPS * j) / m;
    const sigma0 = j ? prior[m]! / j : 0;
    const v = m > 1 ? varianceOf((V[m]! * (m - 1)) / m, m, sigma0, k) : V[m]!;
    const h = anytimeBound(v, m, planned, 1 - level) / Wsum[m]!;
    if (!right) return h;
    const se = Math.sqrt(v) / Wsum[m]!;
    const lo = R[m]! / target.N;
    const hi = 1 - Wr[m]! / target.N;
    return Math.max(0, h - (beyond(centre + h - hi, se) + beyond(lo - centre + h, se)) / 2);
  };
}

/** What a learned prediction can reach, per row: its expected squared residual, and its own expected squares f (1 − f). */
export interface LearnableFit {
  residual: Float64Array;
  own: Float64Array;
}

/** At most this many rows are fitted (evenly spaced): the forecast of a file of millions stays quick. */
const LEARNABLE_ROWS = 20_000;

/**
 * What the prediction the review learns (frame.ts: a logistic model of the signals and the system) can reach if the
 * priority is right: that model fitted to every row's chance of being right (`right`, as soft labels), and per row
 * E(y − f)² = right (1 − f)² + (1 − right) f². Where the priority holds what a linear model of the signals cannot
 * form (it reads the judge's decision together with how sure the signals make it), the prediction learns less than
 * the priority knows, and its residual is above p (1 − p). Null when the rows cannot be fitted (no signals).
 */
export function learnableFit(plan: Pick<ReviewPlan, 'signals' | 'systemOf' | 'systems'>, right: ArrayLike<number>): LearnableFit | null {
  const n = plan.signals.length;
  const S = Math.max(1, plan.systems);
  const x = (i: number) => predictionFeatures(plan.signals[i]!, plan.systemOf[i]!, S);
  const step = Math.max(1, Math.ceil(n / LEARNABLE_ROWS));
  const rows: Float64Array[] = [];
  const ys: number[] = [];
  const ws: number[] = [];
  for (let i = 0; i < n; i += step) {
    if (!plan.signals[i]) continue;
    const r = right[i]!;
    const xi = x(i);
    rows.push(xi, xi);
    ys.push(1, 0);
    ws.push(r, 1 - r);
  }
  if (!rows.length || !(ws.some((w, k) => w > 0 && ys[k] === 1) && ws.some((w, k) => w > 0 && ys[k] === 0))) return null;
  const model = trainLogistic(rows, ys, { l2: L2, sampleWeights: ws });
  const residual = new Float64Array(n);
  const own = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (!plan.signals[i]) {
      residual[i] = own[i] = 0.25;
      continue;
    }
    const f = predictProba(model, x(i));
    const r = right[i]!;
    residual[i] = r * (1 - f) ** 2 + (1 - r) * f * f;
    own[i] = f * (1 - f);
  }
  return { residual, own };
}

/** E(X)⁺ for X ~ N(mu, se²). */
function beyond(mu: number, se: number): number {
  if (!(se > 0)) return Math.max(0, mu);
  const z = mu / se;
  return mu * (1 - normalUpperTail(z)) + (se * Math.exp((-z * z) / 2)) / Math.sqrt(2 * Math.PI);
}

export interface ReviewForecast {
  /** Answers the review plans to ask. */
  count: number;
  /** Per system (plan order): its name and the expected half-width after all the answers and after half of them. */
  systems: { name: string; half: number; halfAtHalf: number }[];
  /**
   * Per pair: the accuracy difference the priority expects (each row right with its chance: 1 − p where the judge
   * credits it, p where it does not), the expected half-width of the reviewed difference, and whether the first
   * exceeds the second.
   */
  pairs: { a: string; b: string; expectedDiff: number; half: number; likely: boolean }[];
}

/**
 * What a fresh review of `count` answers should give, from the plan alone (halfWidthBefore on its drawn order):
 * each system's half-width, and which pairs the priority expects apart by more than the half-width their reviewed
 * difference should have (at Holm's strictest level over every pair) — the pairs likely to be ordered if the priority
 * is about right. Not the judge's own accuracies: a judge that misranks the systems (exact match against long answers)
 * would name pairs that the review then orders the other way or not at all. `system(row)`: the row's system ('' for
 * a run of one); `decision(row)`: the judge's decision (null none).
 */
export function reviewForecast(
  plan: Pick<ReviewPlan, 'groups' | 'design' | 'priority' | 'signals' | 'systemOf' | 'systems'>,
  system: (row: number) => string,
  count: number,
  decision: (row: number) => boolean | null,
  level: number,
  learn = true,
): ReviewForecast {
  const S = Math.max(1, plan.systems);
  const rowsOf: number[][] = Array.from({ length: S }, () => []);
  plan.systemOf.forEach((s, i) => rowsOf[Math.max(0, s)]!.push(i));
  const names = rowsOf.map((rows) => (rows.length ? system(rows[0]!) : ''));
  const { order, weights } = plan.design;
  // A row's chance of being right, the judge's priority (its chance of being wrong) taken at its word.
  const right = Float64Array.from(plan.priority, (p, i) => {
    const d = decision(i);
    return d === null ? 0.5 : d ? 1 - p : p;
  });
  const reach = learn ? learnableFit(plan, right) : null;
  // The review learns a prediction from the answers (frame.ts) once they allow it.
  const half = (target: { rows: number[]; signs: number[]; N: number }, lvl: number, right?: Float64Array) =>
    halfWidthBefore(plan.groups, order, weights, plan.priority, target, count, lvl, {
      learn,
      // The prediction's parameters (frame.ts predictionFeatures): the signals, a system one-hot, the intercept.
      features: (plan.signals.find(Boolean)?.length ?? 0) + S + 1,
      ...(right ? { right } : {}),
      ...(reach ? { reach } : {}),
    });
  const systems = rowsOf.map((rows, s) => {
    const h = half({ rows, signs: rows.map(() => 1), N: rows.length }, level, right);
    return { name: names[s] ?? '', half: h(count), halfAtHalf: h(Math.max(1, Math.floor(count / 2))) };
  });
  // Each system's accuracy as the priority expects it, over the rows the judge decided.
  const accuracy = (rows: number[]) => {
    let n = 0;
    let sum = 0;
    for (const i of rows) {
      if (decision(i) === null) continue;
      n++;
      sum += right[i]!;
    }
    return n ? sum / n : NaN;
  };
  const P = (S * (S - 1)) / 2;
  const pairs: ReviewForecast['pairs'] = [];
  for (let a = 0; a < S; a++)
    for (let b = a + 1; b < S; b++) {
      const A = rowsOf[a]!;
      const B = rowsOf[b]!;
      const N = Math.max(A.length, B.length);
      const h = half({ rows: [...A, ...B], signs: [...A.map(() => 1), ...B.map(() => -1)], N }, 1 - (1 - level) / Math.max(1, P))(count);
      const expectedDiff = accuracy(A) - accuracy(B);
      pairs.push({ a: names[a] ?? '', b: names[b] ?? '', expectedDiff, half: h, likely: Math.abs(expectedDiff) > h });
    }
  return { count, systems, pairs };
}

/** The forecast in one sentence. */
export function forecastLine(f: ReviewForecast): string {
  const pts = (x: number) => `±${x.toFixed(3)}`;
  const widest = Math.max(...f.systems.map((s) => s.half));
  const widestHalf = Math.max(...f.systems.map((s) => s.halfAtHalf));
  const likely = f.pairs.filter((p) => p.likely);
  const pairs = f.pairs.length
    ? `; the priority expects ${likely.length} of ${f.pairs.length} pair${f.pairs.length === 1 ? '' : 's'} apart by more than their expected interval${
        likely.length
          ? ` (${likely
              .slice(0, 4)
              .map((p) => `${p.a} vs ${p.b}`)
              .join(', ')}${likely.length > 4 ? ', …' : ''})`
          : ''
      }${likely.length ? ', so those are likely to be ordered if it is about right' : ''}`
    : '';
  return (
    "expected before any answer, from the judge's priority (a projection: the answers move it; a priority that overstates the judge's errors makes it wide, and a prediction that learns less from your answers than the priority's view allows makes it narrow): " +
    `each accuracy known to about ${pts(widest)} at the widest after all ${f.count.toLocaleString('en')} answers (${pts(widestHalf)} after half of them)${pairs}`
  );
}
