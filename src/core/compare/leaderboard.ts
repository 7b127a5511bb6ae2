/**
 * Leaderboard: each system's mean score and accuracy per metric, with bootstrap intervals, and the human
 * accuracy beside them where labels exist.
 *
 * What: for metric m and system s, over the questions where s has a score (mean) or a decision (accuracy):
 *   mean = Σ score / n, accuracy = #(decision = correct) / n — the decision being score ≥ the metric's threshold.
 *   Human accuracy = #(label correct) / #(labelled rows) of that system: a plain count, no model involved.
 * Intervals: percentile bootstrap over questions (resample.ts), 95% by default, seeded: accuracies from
 *   multinomial draws of the (correct, incorrect, not decided) question counts, means from question draws.
 * Reviewed (some rows labelled, as after a review): each entry also has `reviewed`, the system's accuracy as the
 *   humans would give it, estimated from the review (reviewed.ts) — one estimate, the same in every metric's
 *   leaderboard, made from the judge the review was made for (`reference`) — and systems are ranked by it
 *   (`rankedBy`). The human accuracy of the labelled rows is not given after a designed review: it picks its
 *   rows where the judge is doubtful, so their accuracy is not the system's (labels with no design are taken as
 *   drawn at random, and keep it).
 * Ranks: each entry's `ranks` is the set of places it can hold given the paired tests (set by report.ts).
 * Order: systems by accuracy (or reviewed accuracy), then mean score, then input order (a stable tie-break).
 * Limits: systems answering different question sets are not comparable by these numbers alone; the paired tests
 *   (paired.ts) compare on shared questions only.
 */
import type { CompareTable, Estimand } from './table.ts';
import type { Reviewed } from '../review/estimate.ts';
import { reviewedReport } from './reviewed.ts';
import { DEFAULTS } from '../defaults.ts';
import { accuracyOfCounts, bootstrapSettings, countsInterval, percentileInterval, scoreDraws, type BootstrapSettings } from './resample.ts';

export interface Estimate {
  value: number | null;
  ci: [number, number] | null;
}

export interface HumanAccuracy {
  correct: number;
  labelled: number;
  accuracy: number | null;
  ci: [number, number] | null;
}

export interface LeaderboardEntry {
  system: string;
  /** 1-based position by accuracy (ties share the better rank), then mean. */
  rank: number;
  /** The places the system can hold given the paired tests (Holm), best first; null before they are made. */
  ranks: [number, number] | null;
  /** Questions the system has a row for. */
  rows: number;
  /** Rows with a score / with a decision. */
  scored: number;
  decided: number;
  mean: Estimate;
  accuracy: Estimate;
  /** Null when the system has no labelled row, or when the rows are partly labelled (a review's rows are picked). */
  human: HumanAccuracy | null;
  /** When some rows are labelled and some not: the review's estimate of the system's accuracy (reviewed.ts). */
  reviewed?: Reviewed;
}

export interface MetricLeaderboard {
  metric: string;
  threshold: number;
  /** What the ranks order by: the metric's accuracy, or the reviewed accuracy when the rows are partly labelled. */
  rankedBy: 'accuracy' | 'reviewed';
  /** When ranked by the review: the metric its estimate was made from, and whether a prediction was learned from the answers. */
  reference?: string;
  learned?: boolean;
  /** After a review: what the reviewed values are over ('shared': the questions every system answered), and how many questions. */
  estimand?: Estimand;
  questions?: number;
  entries: LeaderboardEntry[];
}

export interface Leaderboard {
  systems: string[];
  questions: number;
  metrics: MetricLeaderboard[];
  bootstrap: Required<BootstrapSettings>;
}

/** Accuracy of the human labels per system (index = system), with intervals from the shared resamples. */
export function humanAccuracy(t: CompareTable, boot: BootstrapSettings = {}): (HumanAccuracy | null)[] {
  const { resamples, seed, level } = bootstrapSettings(boot);
  const S = t.systems.length;
  const Q = t.keys.length;
  const out: (HumanAccuracy | null)[] = [];
  for (let s = 0; s < S; s++) {
    let correct = 0;
    let labelled = 0;
    for (let q = 0; q < Q; q++) {
      const h = t.human[s * Q + q]!;
      if (h < 0) continue;
      labelled++;
      correct += h;
    }
    out.push(labelled ? { correct, labelled, accuracy: correct / labelled, ci: null } : null);
  }
  if (resamples > 0 && t.labelled)
    for (const h of out)
      if (h) h.ci = countsInterval([h.correct, h.labelled - h.correct, Q - h.labelled], accuracyOfCounts, resamples, seed, level);
  return out;
}

export function leaderboard(t: CompareTable, boot: BootstrapSettings & { alpha?: number } = {}): Leaderboard {
  const settings = bootstrapSettings(boot);
  const { resamples, seed, level } = settings;
  const S = t.systems.length;
  const Q = t.keys.length;
  const review = reviewedReport(t, level, boot.alpha ?? DEFAULTS.alpha);
  // A review's labelled rows are picked by design: their accuracy is not the system's.
  const human = review?.design === 'designed' ? t.systems.map(() => null) : humanAccuracy(t, settings);
  const metrics = t.metrics.map((m): MetricLeaderboard => {
    const sc = t.score[m.name]!;
    const dec = t.decision[m.name]!;
    const entries: LeaderboardEntry[] = [];
    const corrects: number[] = [];
    for (let s = 0; s < S; s++) {
      let rows = 0;
      let scored = 0;
      let decided = 0;
      let sum = 0;
      let correct = 0;
      for (let q = 0; q < Q; q++) {
        const c = s * Q + q;
        if (t.rowOf[c]! >= 0) rows++;
        const x = sc[c]!;
        if (!Number.isNaN(x)) {
          scored++;
          sum += x;
        }
        const d = dec[c]!;
        if (d >= 0) {
          decided++;
          correct += d;
        }
      }
      corrects.push(correct);
      entries.push({
        system: t.systems[s]!,
        rank: 0,
        ranks: null,
        rows,
        scored,
        decided,
        mean: { value: scored ? sum / scored : null, ci: null },
        accuracy: { value: decided ? correct / decided : null, ci: null },
        human: human[s]!,
      });
    }
    if (resamples > 0) {
      const { means } = scoreDraws(sc, S, Q, resamples, seed);
      entries.forEach((e, s) => {
        if (e.mean.value !== null) e.mean.ci = percentileInterval(means![s]!, level);
        const correct = corrects[s]!;
        if (e.accuracy.value !== null)
          e.accuracy.ci = countsInterval([correct, e.decided - correct, Q - e.decided], accuracyOfCounts, resamples, seed, level);
      });
    }
    if (review)
      review.systems.forEach((r, s) => {
        if (!r) return;
        entries[s]!.reviewed = r;
        entries[s]!.ranks = r.ranks ?? null;
      });
    rankEntries(entries, review !== null);
    return {
      metric: m.name,
      threshold: m.threshold,
      rankedBy: review ? 'reviewed' : 'accuracy',
      ...(review ? { reference: review.reference, learned: review.learned, estimand: review.estimand, questions: review.questions } : {}),
      entries,
    };
  });
  return { systems: [...t.systems], questions: Q, metrics, bootstrap: settings };
}

/** Descending order of two optional values; null (no decided row) last, two nulls equal. */
const desc = (a: number | null, b: number | null): number => (a === b ? 0 : a === null ? 1 : b === null ? -1 : b - a);

/** System s's cells that have a row. */
export function* systemCells(t: CompareTable, s: number): Generator<number> {
  const Q = t.keys.length;
  for (let q = 0; q < Q; q++) if (t.rowOf[s * Q + q]! >= 0) yield s * Q + q;
}

/**
 * Sorts by accuracy (reviewed accuracy when `reviewed`) then mean (descending, input order on ties) and numbers
 * ranks; equal pairs share a rank.
 */
function rankEntries(entries: LeaderboardEntry[], reviewed: boolean): void {
  const acc = (e: LeaderboardEntry) => (reviewed ? (e.reviewed?.value ?? null) : e.accuracy.value);
  const cmp = (a: LeaderboardEntry, b: LeaderboardEntry) => desc(acc(a), acc(b)) || desc(a.mean.value, b.mean.value);
  const sorted = entries.map((e, i) => ({ e, i })).sort((a, b) => cmp(a.e, b.e) || a.i - b.i);
  sorted.forEach(({ e }, k) => (e.rank = k > 0 && cmp(sorted[k - 1]!.e, e) === 0 ? sorted[k - 1]!.e.rank : k + 1));
  entries.splice(0, entries.length, ...sorted.map((x) => x.e));
}
