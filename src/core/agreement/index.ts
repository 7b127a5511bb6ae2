/** Agreement with human labels: statistics, binary and taxonomy reports, calibration. */
export { argsort, aucWithVariance, kendallTauB, midranks, pearson, quantileSorted, rocAuc, spearman } from './stats.ts';
export { binomial, multinomial } from './binomial.ts';
export {
  BINARY_METRICS,
  accuracy,
  balancedAccuracy,
  bestThreshold,
  AUC_BOOTSTRAP_ROWS,
  binaryReport,
  f1,
  kappa,
  mcc,
  objectiveValue,
  precision,
  recall,
} from './binary.ts';
export type { BinaryMetric, BinaryReport, BootstrapOptions, Confusion, Estimate, Objective, ThresholdResult } from './binary.ts';
export { HARD_PAIRS, SEVERITY, pairwiseAccuracy, taxonomyReport } from './ordinal.ts';
export type { ClassStats, HardPair, TaxonomyReport, Violation } from './ordinal.ts';
export { logisticMargin, predictProba, trainLogistic } from './logistic.ts';
export type { FeatureRow, LogisticModel, LogisticOptions, SparseRow } from './logistic.ts';
export { calibrateThreshold, classifyScore, fitCombination, fitCutpoints, parseCalibration, predictCombination } from './calibrate.ts';
export type { Calibration, Combination, Cutpoints } from './calibrate.ts';
