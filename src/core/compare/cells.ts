/**
 * The comparison's tables as plain text cells, one source for `verity compare`'s text report and the HTML report
 * (the app lays its own, with test ids and links): a metric's leaderboard and its paired tests.
 */
import type { MetricLeaderboard } from './leaderboard.ts';
import type { PairComparison } from './paired.ts';
import type { MetricRanking } from './ranking.ts';
import { ci, ciSigned, f3, pFmt, signed, verdict } from './format.ts';

export interface Cells {
  head: string[];
  rows: string[][];
}

/**
 * One metric's leaderboard: rank, system, n, accuracy and mean with intervals, the human accuracy when rows are
 * labelled, the reviewed accuracy (labels folded in) when only some are, and the metric's gap to the latter.
 */
export function leaderboardCells(lb: MetricLeaderboard, ranking: MetricRanking | null | undefined): Cells {
  const reviewed = lb.rankedBy === 'reviewed';
  const human = lb.entries.some((e) => e.human);
  const gap = human || reviewed;
  return {
    head: [
      'rank',
      'system',
      'n',
      'accuracy',
      '95% CI',
      'mean score',
      '95% CI',
      ...(human ? ['human acc', '95% CI'] : []),
      ...(reviewed ? ['reviewed acc', '95% CI', 'labelled'] : []),
      ...(gap ? [reviewed ? 'metric − reviewed' : 'metric − human', '95% CI'] : []),
    ],
    rows: lb.entries.map((e) => {
      const g = ranking?.gaps.find((x) => x.system === e.system);
      return [
        String(e.rank),
        e.system,
        String(e.decided),
        f3(e.accuracy.value),
        ci(e.accuracy.ci),
        f3(e.mean.value),
        ci(e.mean.ci),
        ...(human ? [f3(e.human?.accuracy), ci(e.human?.ci)] : []),
        ...(reviewed ? [f3(e.reviewed?.value), ci(e.reviewed?.ci), String(e.reviewed?.labelled ?? 0)] : []),
        ...(gap ? [signed(g?.gap), ciSigned(g?.gapCi)] : []),
      ];
    }),
  };
}

/** Paired tests, A − B: the accuracy columns, and the mean-score ones when `score` (the human labels have none). */
export function pairedCells(pairs: readonly PairComparison[], score: boolean): Cells {
  return {
    head: [
      'A',
      'B',
      'n',
      'Δ accuracy',
      '95% CI',
      'McNemar b/c',
      'p (Holm)',
      'verdict',
      ...(score ? ['Δ mean', '95% CI', 'p (Holm)', 'verdict'] : []),
    ],
    rows: pairs.map((p) => {
      const a = p.accuracy;
      const s = p.score;
      return [
        p.a,
        p.b,
        String(a.n),
        signed(a.diff),
        ciSigned(a.ci),
        a.mcnemar ? `${a.mcnemar.b}/${a.mcnemar.c}` : '—',
        pFmt(a.pHolm),
        verdict(a.better, p.a, p.b, a.n),
        ...(score ? [signed(s?.diff), ciSigned(s?.ci), pFmt(s?.pHolm), verdict(s?.better, p.a, p.b, s?.n ?? 0)] : []),
      ];
    }),
  };
}
