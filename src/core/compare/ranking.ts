/**
 * Does the metric rank systems like the human judges?
 *
 * What, per metric, on the labelled rows the metric decided (so both accuracies count the same rows):
 *   - each system's metric accuracy, human accuracy and gap = metric − human accuracy (the metric's bias for or
 *     against that system: lexical metrics, for instance, under-credit verbose answers), with a bootstrap
 *     interval of the gap from multinomial draws of the system's (metric, human) question counts (resample.ts);
 *   - Kendall τ-b between the systems' metric accuracies and human accuracies (= scipy.stats.kendalltau), null
 *     with fewer than two systems, when no labelled question is shared by two of them (their accuracies are on
 *     different questions), or when either ordering is all ties;
 *   - every pair of systems the two orderings put the other way round (discordant), and the pairs only one of
 *     them ties.
 * Reviewed (some rows labelled, as after a review): the labelled rows are not a sample of the rows (a review picks
 *   them by design), so each system's metric accuracy over every decided row is set against the review's estimate
 *   of its accuracy (reviewed.ts) — one reference for every metric, made from the judge the review was made for
 *   (`reference`), so no metric is measured against its own decisions — the gap's interval being the estimate's
 *   (`against: 'reviewed'`).
 * Limits: with k systems τ takes few values (k = 5: steps of 0.2) and says nothing about significance; the
 *   gap intervals and the paired tests (paired.ts) carry the uncertainty.
 */
import type { CompareTable } from './table.ts';
import { kendallTauB } from '../agreement/stats.ts';
import { roundStat } from '../report.ts';
import { systemCells } from './leaderboard.ts';
import { reviewedReport } from './reviewed.ts';
import { DEFAULTS } from '../defaults.ts';
import { bootstrapSettings, countsInterval, pairCounts, pairedDiffOfCounts, type BootstrapSettings } from './resample.ts';

export interface SystemGap {
  system: string;
  /** Labelled rows the metric decided. */
  n: number;
  metricAccuracy: number | null;
  humanAccuracy: number | null;
  gap: number | null;
  gapCi: [number, number] | null;
  /** 1-based ranks (ties share the mean rank) by metric accuracy and by human accuracy. */
  metricRank: number | null;
  humanRank: number | null;
}

export interface RankedPair {
  a: string;
  b: string;
  /** Metric accuracy of a minus b, and human accuracy of a minus b. */
  metricDiff: number;
  humanDiff: number;
}

export interface MetricRanking {
  metric: string;
  /** The human side: accuracy on the labelled rows, or the review's estimate (rows partly labelled). */
  against: 'labels' | 'reviewed';
  /** When against the review: the metric its estimate was made from. */
  reference?: string;
  /** Systems with at least one labelled, decided row (the ones ranked). */
  systems: number;
  /** Questions with labelled, decided rows of two or more systems. */
  sharedQuestions: number;
  kendallTau: number | null;
  /** Pairs ordered one way by the metric and the other way by the humans. */
  discordant: RankedPair[];
  /** Pairs one ordering ties and the other does not. */
  tiedInOne: RankedPair[];
  gaps: SystemGap[];
}

export interface RankingReport {
  bootstrap: Required<BootstrapSettings>;
  metrics: MetricRanking[];
}

/** Mean ranks, 1 = highest value (scipy.stats.rankdata(−x) 'average'). */
function ranksDescending(values: number[]): number[] {
  const order = values.map((v, i) => ({ v, i })).sort((a, b) => b.v - a.v || a.i - b.i);
  const ranks = new Array<number>(values.length);
  for (let i = 0; i < order.length;) {
    let j = i + 1;
    while (j < order.length && order[j]!.v === order[i]!.v) j++;
    for (let k = i; k < j; k++) ranks[order[k]!.i] = (i + 1 + j) / 2;
    i = j;
  }
  return ranks;
}

export function metricRanking(t: CompareTable, boot: BootstrapSettings & { alpha?: number } = {}): RankingReport {
  const settings = bootstrapSettings(boot);
  const { resamples, seed, level } = settings;
  const S = t.systems.length;
  const Q = t.keys.length;
  const review = reviewedReport(t, level, boot.alpha ?? DEFAULTS.alpha);
  const metrics = t.metrics.map((m): MetricRanking => {
    const dec = t.decision[m.name]!;
    const gaps: SystemGap[] = [];
    const reviewed = review?.systems ?? [];
    for (let s = 0; s < S && review; s++) {
      let n = 0;
      let mc = 0;
      for (const c of systemCells(t, s))
        if (dec[c]! >= 0) {
          n++;
          mc += dec[c]!;
        }
      const r = reviewed[s]!;
      const ok = n > 0 && r !== null;
      gaps.push({
        system: t.systems[s]!,
        n,
        metricAccuracy: ok ? mc / n : null,
        humanAccuracy: ok ? r.value : null,
        gap: ok ? mc / n - r.value : null,
        gapCi: ok && r.ci ? [mc / n - r.ci[1], mc / n - r.ci[0]] : null,
        metricRank: null,
        humanRank: null,
      });
    }
    for (let s = 0; s < S && !review; s++) {
      let n = 0;
      let mc = 0;
      let hc = 0;
      for (let q = 0; q < Q; q++) {
        const c = s * Q + q;
        const h = t.human[c]!;
        const d = dec[c]!;
        if (h < 0 || d < 0) continue;
        n++;
        mc += d;
        hc += h;
      }
      gaps.push({
        system: t.systems[s]!,
        n,
        metricAccuracy: n ? mc / n : null,
        humanAccuracy: n ? hc / n : null,
        gap: n ? (mc - hc) / n : null,
        gapCi: null,
        metricRank: null,
        humanRank: null,
      });
    }
    // gap = (#metric-only-correct − #human-only-correct) / n: a statistic of the system's (metric, human) counts.
    if (resamples > 0 && t.labelled && !review)
      gaps.forEach((g, s) => {
        if (g.n) g.gapCi = countsInterval(pairCounts(dec, t.human, Q, s, s), pairedDiffOfCounts, resamples, seed, level);
      });
    let sharedQuestions = 0;
    for (let q = 0; q < Q; q++) {
      let k = 0;
      for (let s = 0; s < S && k < 2; s++) if ((review || t.human[s * Q + q]! >= 0) && dec[s * Q + q]! >= 0) k++;
      if (k >= 2) sharedQuestions++;
    }
    const ranked = gaps.filter((g) => g.n > 0);
    const comparable = ranked.length >= 2 && sharedQuestions > 0;
    const mAcc = ranked.map((g) => g.metricAccuracy!);
    const hAcc = ranked.map((g) => g.humanAccuracy!);
    const mRank = ranksDescending(mAcc);
    const hRank = ranksDescending(hAcc);
    ranked.forEach((g, i) => {
      g.metricRank = mRank[i]!;
      g.humanRank = hRank[i]!;
    });
    const discordant: RankedPair[] = [];
    const tiedInOne: RankedPair[] = [];
    for (let i = 0; comparable && i < ranked.length; i++)
      for (let j = i + 1; j < ranked.length; j++) {
        const metricDiff = mAcc[i]! - mAcc[j]!;
        const humanDiff = hAcc[i]! - hAcc[j]!;
        const pair = { a: ranked[i]!.system, b: ranked[j]!.system, metricDiff, humanDiff };
        if (metricDiff * humanDiff < 0) discordant.push(pair);
        else if ((metricDiff === 0) !== (humanDiff === 0)) tiedInOne.push(pair);
      }
    return {
      metric: m.name,
      against: review ? 'reviewed' : 'labels',
      ...(review ? { reference: review.reference } : {}),
      systems: ranked.length,
      sharedQuestions,
      // Rounded once, as the agreement report's statistics are (no 0.19999999999999998 in an export).
      kendallTau: comparable ? roundStat(kendallTauB(mAcc, hAcc)) : null,
      discordant,
      tiedInOne,
      gaps,
    };
  });
  return { bootstrap: settings, metrics };
}
