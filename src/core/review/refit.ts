/**
 * Learning from a review (issue 36): the metric's threshold fitted again on the reviewed rows, and what that
 * changed on the random slice.
 *
 * What: the threshold t maximising the estimated agreement over every row, Σ_C [s_i ≥ t ⇔ h_i] + (N/r)·Σ_R [s_i ≥ t
 *   ⇔ h_i] — the queue's rows (C) count once, each random-slice row (R, r of N rows, outside C) for the N/r rows it
 *   stands for, so a queue crowded with doubtful rows does not pull the threshold where few rows are. Candidates:
 *   midpoints between neighbouring distinct scores (and the current threshold); ties go to the one nearest the
 *   current threshold. Without pick information every labelled row weighs the same.
 * Reported: agreement with the labels on the random slice before (current threshold) and after, the "after"
 *   cross-fitted (the slice in two halves, each decided by a threshold fitted without it), so the change is not
 *   the fit's own optimism. The fitted threshold is applied only when that cross-fitted agreement is higher than
 *   before (`applied`); otherwise the threshold is kept — on EVOUNA-TQ, where pedants is already fitted, a refit on
 *   a 15% review moved the threshold by ±0.15 between seeds and lowered agreement on held-out questions
 *   (bench/REPORT.md, "Review queue").
 * Limits: one threshold per metric (a class metric's cutpoints are not refitted); rows without a score are left out.
 */
import { PICK_QUEUE, PICK_RANDOM } from './estimate.ts';

export interface Refit {
  metric: string;
  before: number;
  /** The threshold the reviewed rows favour. */
  fitted: number;
  /** Whether it is used: the cross-fitted agreement on the random slice is higher with it. */
  applied: boolean;
  /** The threshold now: `fitted` when applied, else `before`. */
  after: number;
  /** Reviewed rows with a score, fitted on. */
  rows: number;
  /** The random slice's labelled, scored rows, and the share of them the decisions agree with the labels on. */
  slice: { n: number; before: number | null; after: number | null };
}

interface Point {
  s: number;
  h: number;
  w: number;
  random: boolean;
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

/** Points with their weights: census rows 1, random-slice rows N / r (N = `rows`). */
function weighted(
  cells: readonly { s: number | null; h: number; pick: number }[],
  rows: number,
  picks: boolean,
  leave?: Set<number>,
): Point[] {
  const pts: Point[] = [];
  let r = 0;
  cells.forEach((c, i) => {
    if (c.h < 0 || c.s === null || leave?.has(i)) return;
    const random = picks ? (c.pick & PICK_RANDOM) !== 0 && (c.pick & PICK_QUEUE) === 0 : true;
    const census = picks ? !random : false;
    if (!census) r++;
    pts.push({ s: c.s, h: c.h, w: census ? 1 : 0, random });
  });
  for (const p of pts) if (p.random) p.w = picks ? rows / Math.max(1, r) : 1;
  return pts;
}

/**
 * Refits one metric's threshold. `cells`: every row's score (null when none), human label (1 / 0 / −1) and pick
 * bits; `picks` says whether pick bits were recorded at all.
 */
export function refitThreshold(
  metric: string,
  cells: readonly { s: number | null; h: number; pick: number }[],
  current: number,
  picks: boolean,
): Refit {
  const rows = cells.filter((c) => c.s !== null).length;
  const all = weighted(cells, rows, picks);
  const fitted = best(all, current);
  // The slice, in two halves by position; each half decided by a threshold fitted without it.
  const slice: number[] = [];
  cells.forEach((c, i) => {
    const random = picks ? (c.pick & PICK_RANDOM) !== 0 && (c.pick & PICK_QUEUE) === 0 : true;
    if (c.h >= 0 && c.s !== null && random) slice.push(i);
  });
  const agree = (i: number, t: number) => (cells[i]!.s! >= t === (cells[i]!.h === 1) ? 1 : 0);
  let before = 0;
  let crossed = 0;
  for (const half of [0, 1]) {
    const held = new Set(slice.filter((_, k) => k % 2 === half));
    if (!held.size) continue;
    const t = best(weighted(cells, rows, picks, held), current);
    for (const i of held) crossed += agree(i, t);
  }
  for (const i of slice) before += agree(i, current);
  const n = slice.length;
  const applied = n > 0 && crossed > before && fitted !== current;
  return {
    metric,
    before: current,
    fitted,
    applied,
    after: applied ? fitted : current,
    rows: all.length,
    slice: { n, before: n ? before / n : null, after: n ? crossed / n : null },
  };
}
