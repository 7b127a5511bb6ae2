/**
 * The whole comparison in one call, as the CLI prints it and the app shows it: the leaderboard, the paired
 * tests and the metric-vs-human ranking over one comparison table, with one set of bootstrap settings, so
 * `verity compare` and the app give the same numbers for the same rows, metrics and seed. After a review, what it
 * says about the reference judge beside them.
 */
import { compareTable, type CompareRow, type CompareTable, type MetricInfo, type ResultColumns } from './table.ts';
import { leaderboard, type Leaderboard } from './leaderboard.ts';
import { pairedComparisons, type PairedOptions, type PairedReport } from './paired.ts';
import { metricRanking, type RankingReport } from './ranking.ts';
import { agreementSplits } from './disagreements.ts';
import { rankIntervals } from '../review/estimate.ts';
import { reviewedJudge } from './reviewed.ts';
import type { JudgeReport } from '../review/judge.ts';

export interface CompareReport {
  systems: string[];
  questions: number;
  rows: number;
  labelled: number;
  leaderboard: Leaderboard;
  paired: PairedReport;
  /** Null without human labels. */
  ranking: RankingReport | null;
  /** Per metric (and "human"): how many questions had k of n systems judged correct. */
  splits: Record<string, Record<string, number>>;
  /** After a review (rows partly labelled): what it says about the reference judge (review/judge.ts); else null. */
  judge: (JudgeReport & { reference: string }) | null;
}

export function compareReportOf(t: CompareTable, opts: PairedOptions = {}): CompareReport {
  let rows = 0;
  let labelled = 0;
  for (let c = 0; c < t.rowOf.length; c++) {
    if (t.rowOf[c]! >= 0) rows++;
    if (t.human[c]! >= 0) labelled++;
  }
  const splits: Record<string, Record<string, number>> = {};
  for (const m of t.metrics) splits[m.name] = agreementSplits(t, m.name);
  // A review's labelled rows are picked by design: how many systems they judge correct says nothing of the questions.
  if (t.labelled && !t.sample) splits.human = agreementSplits(t, 'human');
  const board = leaderboard(t, opts);
  const paired = pairedComparisons(t, opts);
  // Without a review, each metric's ranks follow from its own paired accuracy tests (with one, from the review's).
  for (const lb of board.metrics) {
    if (lb.rankedBy === 'reviewed') continue;
    const pairs = paired.metrics.find((m) => m.metric === lb.metric)?.pairs ?? [];
    const at = new Map(t.systems.map((s, i) => [s, i] as const));
    const ranks = rankIntervals(
      t.systems.length,
      pairs.map((p) => ({ a: at.get(p.a)!, b: at.get(p.b)!, winner: p.accuracy.better === null ? null : at.get(p.accuracy.better)! })),
    );
    for (const e of lb.entries) e.ranks = ranks[at.get(e.system)!]!;
  }
  return {
    systems: [...t.systems],
    questions: t.keys.length,
    rows,
    labelled,
    leaderboard: board,
    paired,
    ranking: t.labelled ? metricRanking(t, opts) : null,
    splits,
    judge: reviewedJudge(t, board.bootstrap.level),
  };
}

export function compareReport(
  rows: readonly CompareRow[],
  results: ResultColumns,
  metrics: readonly MetricInfo[],
  /** `reference`: the metric a review was made for (review labels name it). */
  opts: PairedOptions & { reference?: string } = {},
): { table: CompareTable; report: CompareReport } {
  const table = compareTable(rows, results, metrics, opts.reference ? { reference: opts.reference } : {});
  return { table, report: compareReportOf(table, opts) };
}
