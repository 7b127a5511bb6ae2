/**
 * Learning a threshold from a review: the metric's threshold fitted again on the reviewed rows, and what that
 * changed on them.
 *
 * What: the threshold t maximising the estimated agreement over every row of the file, Σ_i w_i [s_i ≥ t ⇔ h_i]
 *   over the labelled rows, w_i = 1/π_i for a row of the review's sample (it stands for 1/π_i rows of the file:
 *   design.ts) and 1 for a label outside a design; without any design every labelled row weighs 1. Candidates:
 *   midpoints between neighbouring distinct scores (and the current threshold); ties go to the one nearest the
 *   current threshold.
 * Reported: the design-weighted agreement with the labels on the sampled rows before (current threshold) and
 *   after, the "after" cross-fitted (the sample in two halves, each decided by a threshold fitted without it), so
 *   the change is not the fit's own optimism. The fitted threshold is applied only when that cross-fitted agreement
 *   is higher than before (`applied`); otherwise the threshold is kept.
 * Limits: one threshold per metric (a class metric's cutpoints are not refitted); rows without a score are left out.
 *   The reviewed estimate (estimate.ts) stays unbiased whatever the refit does: it corrects any prediction.
 */

export interface Refit {
  metric: string;
  before: number;
  /** The threshold the reviewed rows favour. */
  fitted: number;
  /** Whether it is used: the cross-fitted agreement on the sample is higher with it. */
  applied: boolean;
  /** The threshold now: `fitted` when applied, else `before`. */
  after: number;
  /** Reviewed rows with a score, fitted on. */
  rows: number;
  /** The sample's labelled, scored rows, and the design-weighted share the decisions agree with the labels on. */
  slice: { n: number; before: number | null; after: number | null };
}

/** A labelled row: its score, its label (1 / 0; −1 unlabelled), and its inclusion probability (NaN outside a design). */
export interface RefitCell {
  s: number | null;
  h: number;
  pi: number;
}

interface Point {
  s: number;
  h: number;
  w: number;
}

function best(points: readonly Point[], current: number): number {
  const scores = [...new Set(points.map((p) => p.s))].sort((a, b) => a - b);
  const cands = new Set<number>([current]);
  for (let k = 0; k + 1 < scores.length; k++) cands.add((scores[k]! + scores[k + 1]!) / 2);
  if (scores.length) {
    cands.add(scores[0]!);
    cands.add(scores[scores.length - 1]! + 1e-9);
  }
  let bestT = current;
  let bestA = -Infinity;
  for (const t of cands) {
    let a = 0;
    for (const p of points) if (p.s >= t === (p.h === 1)) a += p.w;
    if (a > bestA + 1e-12 || (Math.abs(a - bestA) <= 1e-12 && Math.abs(t - current) < Math.abs(bestT - current))) {
      bestA = a;
      bestT = t;
    }
  }
  return bestT;
}

/** Refits one metric's threshold on `cells` (every row of the file, labelled or not). */
export function refitThreshold(metric: string, cells: readonly RefitCell[], current: number): Refit {
  const designed = cells.some((c) => c.h >= 0 && !Number.isNaN(c.pi));
  const sampled = (c: RefitCell) => !designed || !Number.isNaN(c.pi);
  const weight = (c: RefitCell) => (designed && !Number.isNaN(c.pi) ? 1 / c.pi : 1);
  const usable = cells.map((c, i) => ({ c, i })).filter(({ c }) => c.h >= 0 && c.s !== null);
  const point = (c: RefitCell): Point => ({ s: c.s!, h: c.h, w: weight(c) });
  const fitted = best(
    usable.map(({ c }) => point(c)),
    current,
  );
  const slice = usable.filter(({ c }) => sampled(c));
  const agree = (c: RefitCell, t: number) => (c.s! >= t === (c.h === 1) ? weight(c) : 0);
  let total = 0;
  let before = 0;
  let crossed = 0;
  for (const { c } of slice) {
    total += weight(c);
    before += agree(c, current);
  }
  for (const half of [0, 1]) {
    const held = new Set(slice.filter((_, k) => k % 2 === half).map(({ i }) => i));
    if (!held.size) continue;
    const t = best(
      usable.filter(({ i }) => !held.has(i)).map(({ c }) => point(c)),
      current,
    );
    for (const i of held) crossed += agree(cells[i]!, t);
  }
  const n = slice.length;
  const applied = n > 0 && crossed > before + 1e-9 && fitted !== current;
  return {
    metric,
    before: current,
    fitted,
    applied,
    after: applied ? fitted : current,
    rows: usable.length,
    slice: { n, before: n ? before / total : null, after: n ? crossed / total : null },
  };
}
