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
 *   180–360 answers, on average over seeds, within 25%.
 * Limits: a projection, not a promise — Δ̂ and s² move as answers come (a learned prediction shrinks s²); a pair whose
 *   difference is near 0 needs more answers than any file holds (null).
 */
import { censusIn, type ReviewFrame } from './estimate.ts';
import { anytimeBound, spreadOf, terms, varianceOf, type Target } from './sequential.ts';
import type { ReviewPlan } from './plan.ts';

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
 * probability q_g = w_g / W_t; the group adds (Σ_{i∈g} a_i)(y − d) to the term, whose square is (Σ a)² with the
 * priority's chance p̄_g that the judge is wrong there. So step t's term has expected variance
 *   Var_t = Σ_{g∈U_t} (Σ a)² p̄_g / q_g / N² = W_t Σ_{g∈U_t} (Σ a)² p̄_g / w_g / N²
 * (its mean, the judge's bias, left out: small beside it) — smaller as the doubtful groups, drawn first, leave U —
 * and after n answers V = Σ_{t≤n} Var_t, the half-width the confidence sequence's for it, tightest at `planned`.
 * Groups known from earlier verdicts are not in the order and add nothing.
 */
export function halfWidthBefore(
  groups: readonly (readonly number[])[],
  order: ArrayLike<number>,
  weights: ArrayLike<number>,
  priority: ArrayLike<number>,
  target: { rows: readonly number[]; signs: readonly number[]; N: number },
  planned: number,
  level: number,
): (n: number) => number {
  const sign = new Map(target.rows.map((r, k) => [r, target.signs[k]!] as const));
  // c_g / w_g of each group in the order, and the running sums over the groups not yet drawn.
  const cw = Float64Array.from(order, (g) => {
    let a = 0;
    let p = 0;
    let k = 0;
    for (const r of groups[g]!) {
      const x = sign.get(r);
      if (x === undefined) continue;
      a += x;
      p += priority[r]!;
      k++;
    }
    return k ? (a * a * (p / k)) / weights[g]! : 0;
  });
  const V = new Float64Array(order.length + 1);
  let W = 0;
  let C = 0;
  for (let t = 0; t < order.length; t++) {
    W += weights[order[t]!]!;
    C += cw[t]!;
  }
  for (let t = 0; t < order.length; t++) {
    V[t + 1] = V[t]! + (W * C) / (target.N * target.N);
    W -= weights[order[t]!]!;
    C -= cw[t]!;
  }
  return (n) => {
    const m = Math.min(Math.max(1, n), order.length);
    return anytimeBound(V[m]!, m, planned, 1 - level) / m;
  };
}

export interface ReviewForecast {
  /** Answers the review plans to ask. */
  count: number;
  /** Per system (plan order): its name and the expected half-width after all the answers and after half of them. */
  systems: { name: string; half: number; halfAtHalf: number }[];
  /** Per pair: the judge's accuracy difference, the expected half-width of the reviewed difference, and whether the first exceeds the second. */
  pairs: { a: string; b: string; judgeDiff: number; half: number; likely: boolean }[];
}

/**
 * What a fresh review of `count` answers should give, from the plan alone (halfWidthBefore on its drawn order):
 * each system's half-width, and which pairs the judge's own decisions set apart by more than the half-width their
 * reviewed difference should have (at Holm's strictest level over every pair) — the pairs likely to be ordered if
 * the judge is about right. `system(row)`: the row's system ('' for a run of one); `decision(row)`: the judge's
 * decision (null none).
 */
export function reviewForecast(
  plan: Pick<ReviewPlan, 'groups' | 'design' | 'priority' | 'systemOf' | 'systems'>,
  system: (row: number) => string,
  count: number,
  decision: (row: number) => boolean | null,
  level: number,
): ReviewForecast {
  const S = Math.max(1, plan.systems);
  const rowsOf: number[][] = Array.from({ length: S }, () => []);
  plan.systemOf.forEach((s, i) => rowsOf[Math.max(0, s)]!.push(i));
  const names = rowsOf.map((rows) => (rows.length ? system(rows[0]!) : ''));
  const { order, weights } = plan.design;
  const half = (target: { rows: number[]; signs: number[]; N: number }, lvl: number) =>
    halfWidthBefore(plan.groups, order, weights, plan.priority, target, count, lvl);
  const systems = rowsOf.map((rows, s) => {
    const h = half({ rows, signs: rows.map(() => 1), N: rows.length }, level);
    return { name: names[s] ?? '', half: h(count), halfAtHalf: h(Math.max(1, Math.floor(count / 2))) };
  });
  const accuracy = (rows: number[]) => {
    let n = 0;
    let right = 0;
    for (const i of rows) {
      const d = decision(i);
      if (d === null) continue;
      n++;
      if (d) right++;
    }
    return n ? right / n : NaN;
  };
  const P = (S * (S - 1)) / 2;
  const pairs: ReviewForecast['pairs'] = [];
  for (let a = 0; a < S; a++)
    for (let b = a + 1; b < S; b++) {
      const A = rowsOf[a]!;
      const B = rowsOf[b]!;
      const N = Math.max(A.length, B.length);
      const h = half({ rows: [...A, ...B], signs: [...A.map(() => 1), ...B.map(() => -1)], N }, 1 - (1 - level) / Math.max(1, P))(count);
      const judgeDiff = accuracy(A) - accuracy(B);
      pairs.push({ a: names[a] ?? '', b: names[b] ?? '', judgeDiff, half: h, likely: Math.abs(judgeDiff) > h });
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
    ? `; the judge's own decisions set ${likely.length} of ${f.pairs.length} pair${f.pairs.length === 1 ? '' : 's'} apart by more than their expected interval${
        likely.length
          ? ` (${likely
              .slice(0, 4)
              .map((p) => `${p.a} vs ${p.b}`)
              .join(', ')}${likely.length > 4 ? ', …' : ''})`
          : ''
      }, so those are likely to be ordered if the judge is about right`
    : '';
  return (
    "expected before any answer, from the judge's priority (a projection: the answers move it, and a priority that overstates the judge's errors makes it wide): " +
    `each accuracy known to about ${pts(widest)} or better after all ${f.count.toLocaleString('en')} answers (${pts(widestHalf)} after half of them)${pairs}`
  );
}
