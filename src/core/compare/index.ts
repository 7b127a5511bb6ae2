/** Comparing systems: the comparison table, leaderboard, paired tests, metric-vs-human ranking, disagreements. */
export { compareTable } from './table.ts';
export type { CompareRow, CompareTable, MetricInfo, ResultColumns } from './table.ts';
export { bootstrapSettings, forEachSubsample, percentileInterval } from './resample.ts';
export type { BootstrapSettings } from './resample.ts';
export { humanAccuracy, leaderboard } from './leaderboard.ts';
export type { Estimate, HumanAccuracy, Leaderboard, LeaderboardEntry, MetricLeaderboard } from './leaderboard.ts';
export { binomialLowerTailHalf, mcnemarDecisions, mcnemarExact } from './mcnemar.ts';
export type { McNemar } from './mcnemar.ts';
export { holm } from './holm.ts';
export { bootstrapP, pairedComparisons, systemPairs } from './paired.ts';
export { erfc, normalUpperTail } from '../util/normal.ts';
export type { AccuracyComparison, MetricPairs, PairComparison, PairedOptions, PairedReport, ScoreComparison } from './paired.ts';
export { metricRanking } from './ranking.ts';
export type { MetricRanking, RankedPair, RankingReport, SystemGap } from './ranking.ts';
export { agreementSplits, disagreements } from './disagreements.ts';
export type { Disagreement, DisagreementQuery } from './disagreements.ts';
export { compareReport, compareReportOf } from './report.ts';
export type { CompareReport } from './report.ts';
export {
  SYSTEM_ALIASES,
  coverage,
  coverageNotes,
  detectWideLayout,
  mapSystemFiles,
  mapSystemRows,
  systemFromFileName,
  systemNamesForFiles,
} from '../io/systems.ts';
export type {
  Coverage,
  FilesInput,
  KeyBy,
  SystemCoverage,
  SystemFile,
  SystemInput,
  SystemMapOptions,
  SystemRow,
  WideLayout,
  WideSystem,
} from '../io/systems.ts';
export { leaderboardCsv, leaderboardRows, reportJson, rowRecord } from './exports.ts';
export type { InputInfo } from './exports.ts';
