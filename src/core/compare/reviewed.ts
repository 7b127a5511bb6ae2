/**
 * The comparison after a review (rows partly labelled): one estimate of each system's accuracy as the humans
 * would give it — the reference judge's decisions, or a prediction learned from the answers, corrected by the
 * reviewed rows with their inclusion probabilities (review/estimate.ts, review/frame.ts) — the paired differences
 * of every two systems by the same estimator, Holm-corrected, and the ranks each system can hold.
 * Every metric's leaderboard shows this one estimate and ranks by it, and every metric is measured against it
 * (ranking.ts), so no metric is measured against its own decisions. Computed once per table.
 * The judge: from the same frame, the reference judge's false-negative and false-positive rates and bias per system,
 * and its errors by answer length (review/judge.ts).
 * One estimand: by default every system's value, every pair's difference and so every rank interval are over the
 * questions all systems answered, so a difference is the difference of the two values and a system's rank interval
 * holds its leaderboard rank; `own` (each system's own rows; pairs on the questions both answered) is the option.
 */
import type { CompareTable, Estimand } from './table.ts';
import { holm } from './holm.ts';
import { systemPairs } from './pairs.ts';
import { answersToOrder, halfWidthAhead } from '../review/ahead.ts';
import {
  pairTargets,
  rankIntervals,
  reviewedOf,
  reviewedPair,
  varianceScale,
  type Reviewed,
  type ReviewedPair,
  type ReviewDesignKind,
  type ReviewFrame,
} from '../review/estimate.ts';
import { reviewFrame } from '../review/frame.ts';
import { judgeReport, type JudgeReport } from '../review/judge.ts';

export interface ReviewedPairComparison extends ReviewedPair {
  a: string;
  b: string;
  /** Holm-adjusted p over every pair. */
  pHolm: number | null;
  /** The significantly more accurate system, or null. */
  better: string | null;
  /**
   * A pair still open in a review drawn step by step: about how many more answers would order it if its difference
   * and spread hold (review/ahead.ts, at the Holm level of the first open pair); null when more than the file holds.
   */
  more?: number | null;
}

export interface ReviewedReport {
  /** The metric the estimate starts from (the judge the review was made for). */
  reference: string;
  design: ReviewDesignKind;
  /** Whether the prediction was learned from the answers (else the reference's decisions). */
  learned: boolean;
  /** What the values are over ('shared': the questions every system answered), and how many questions that is. */
  estimand: Estimand;
  questions: number;
  /** Labelled rows, and those in the design's sample. */
  labelled: number;
  sampled: number;
  /** Per system (table order); null for a system with no counted row. Each has its rank interval. */
  systems: (Reviewed | null)[];
  pairs: ReviewedPairComparison[];
}

const made = new WeakMap<CompareTable, Map<string, ReviewedReport>>();

/** The review frame of a partly labelled table (review/frame.ts): what every reviewed estimate of it reads. */
export function tableFrame(t: CompareTable, review: NonNullable<CompareTable['review']>): ReviewFrame & { learned: boolean } {
  return reviewFrame({
    S: t.systems.length,
    Q: t.keys.length,
    decision: t.decision[review.reference]!,
    signals: review.signals,
    y: t.human,
    sample: t.sample,
    group: review.group,
    ...(review.earlier ? { earlier: review.earlier } : {}),
  });
}

/** What every reviewed figure of a table reads: its frame, the variance scale, and the questions the figures are over. */
interface Basis {
  fr: ReturnType<typeof tableFrame>;
  scale: number;
  estimand: Estimand;
  questions: number[];
}
const bases = new WeakMap<CompareTable, Basis>();

function basisOf(t: CompareTable, review: NonNullable<CompareTable['review']>): Basis {
  const hit = bases.get(t);
  if (hit) return hit;
  const Q = t.keys.length;
  const fr = tableFrame(t, review);
  // The questions every system has a counted row for; 'own' (or none shared) is each system's own rows.
  const everyone = Array.from({ length: Q }, (_, q) => q).filter((q) => t.systems.every((_, s) => !Number.isNaN(fr.f[s * Q + q]!)));
  const estimand: Estimand = review.estimand === 'shared' && everyone.length > 0 ? 'shared' : 'own';
  const questions = estimand === 'shared' ? everyone : Array.from({ length: Q }, (_, q) => q);
  const basis = { fr, scale: varianceScale(fr), estimand, questions };
  bases.set(t, basis);
  return basis;
}

const judged = new WeakMap<CompareTable, Map<number, JudgeReport & { reference: string }>>();

/**
 * What the review says about its reference judge (review/judge.ts), over the questions the reviewed values are over;
 * null when the table is not partly labelled. Apart from the reviewed report: it costs more, and a review's running
 * estimates do not need it.
 */
export function reviewedJudge(t: CompareTable, level: number): (JudgeReport & { reference: string }) | null {
  if (!t.partial || !t.review) return null;
  let byLevel = judged.get(t);
  if (!byLevel) judged.set(t, (byLevel = new Map()));
  const hit = byLevel.get(level);
  if (hit) return hit;
  const { fr, scale, questions } = basisOf(t, t.review);
  const Q = t.keys.length;
  const reference = t.review.reference;
  const out = {
    reference,
    ...judgeReport(
      fr,
      {
        decision: t.decision[reference]!,
        systems: t.systems.map((name, s) => ({ name, cells: questions.map((q) => s * Q + q) })),
        words: t.review.words,
      },
      level,
      scale,
    ),
  };
  byLevel.set(level, out);
  return out;
}

/** The reviewed report of a partly labelled table (null otherwise), once per table and settings. */
export function reviewedReport(t: CompareTable, level: number, alpha: number): ReviewedReport | null {
  if (!t.partial || !t.review) return null;
  const key = `${level} ${alpha}`;
  let byKey = made.get(t);
  if (!byKey) made.set(t, (byKey = new Map()));
  const cached = byKey.get(key);
  if (cached) return cached;
  const S = t.systems.length;
  const Q = t.keys.length;
  const reference = t.review.reference;
  const { fr, scale, estimand, questions } = basisOf(t, t.review);
  const systems = t.systems.map((_, s) =>
    reviewedOf(
      fr,
      questions.map((q) => s * Q + q),
      level,
      scale,
    ),
  );
  const pairIdx = systemPairs(S);
  const raw = pairIdx.map(([a, b]) => reviewedPair(fr, a, b, level, scale, questions));
  const adj = holm(raw.map((p) => p.p));
  const pairs = pairIdx.map(([a, b], k): ReviewedPairComparison => {
    const p = raw[k]!;
    const pHolm = adj[k]!;
    const better = pHolm !== null && pHolm < alpha && p.diff !== null && p.diff !== 0 ? (p.diff > 0 ? t.systems[a]! : t.systems[b]!) : null;
    return { a: t.systems[a]!, b: t.systems[b]!, ...p, pHolm, better };
  });
  if (fr.seq) {
    // What more answers would buy: each open pair at α / (open pairs), Holm's strictest step, so a projection never promises too soon.
    const open = pairs.filter((p) => p.better === null && p.diff !== null);
    const steps = fr.seq.q.length;
    const limit = fr.group ? new Set(Array.from(fr.group).filter((g) => g >= 0)).size : S * Q;
    const level = 1 - alpha / Math.max(1, open.length);
    pairs.forEach((p, k) => {
      if (p.better !== null || p.diff === null) return;
      const [a, b] = pairIdx[k]!;
      const { A, B, n } = pairTargets(fr, a, b, questions);
      const half = n ? halfWidthAhead(fr, { cells: [...A.cells, ...B.cells], signs: [...A.signs, ...B.signs], N: n }, level) : null;
      const m = half && steps < limit ? answersToOrder(half, p.diff, steps, limit) : null;
      p.more = m === null ? null : m - steps;
    });
  }
  const ranks = rankIntervals(
    S,
    pairIdx.map(([a, b], k) => ({ a, b, winner: pairs[k]!.better === null ? null : pairs[k]!.better === t.systems[a] ? a : b })),
  );
  systems.forEach((r, s) => {
    if (r) r.ranks = ranks[s]!;
  });
  let labelled = 0;
  let sampled = 0;
  for (const r of systems)
    if (r) {
      labelled += r.labelled;
      sampled += r.sampled;
    }
  const out: ReviewedReport = {
    reference,
    design: fr.kind,
    learned: !fr.hard,
    estimand,
    questions: questions.length,
    labelled,
    sampled,
    systems,
    pairs,
  };
  byKey.set(key, out);
  return out;
}
