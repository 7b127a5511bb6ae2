/**
 * What a run is, as a plain value, on every surface: the metrics by name, their settings, the thresholds a
 * calibration fitted, the calibrated combinations, and how the input maps. The app saves it with a run and sends
 * it to its scoring workers; the CLI compiles its flags and --calibration files into it and sends it to its
 * scoring thread. Every metric is made from it by `metricsOf`, here alone, with the lexicon the metrics read.
 */
import { createMetric, createSyncMetric, metricOptionsProblem, type MetricBuild, type MetricSettings } from './metrics/index.ts';
import { combinedMetric } from './metrics/combined.ts';
import type { Combination } from './agreement/calibrate.ts';
import type { InputMapping } from './io/prepare.ts';
import type { AnyMetric } from './types.ts';

/**
 * What calibration fitted (the app's on a run's labelled rows, the CLI's --calibration files): it overrides the
 * settings' thresholds, cut-points and nli_lex weights.
 */
export interface RunCalibration {
  thresholds: Record<string, number>;
  cutpoints?: MetricSettings['cutpoints'];
  nliLexWeights?: MetricSettings['nliLexWeights'];
  /** Labelled rows it was fitted on (the app's). */
  labelled?: number;
  /** When (ms since 1970; the app's). */
  at?: number;
}

/** What a run's metrics are made of (the part a scoring thread or worker needs). */
export interface MetricPlan {
  /** Metric names (main names or variants), in column order. */
  metrics: string[];
  settings: MetricSettings;
  calibration?: RunCalibration;
  /** Calibrated logistic combinations of lexical metrics: one "combined" metric each, after `metrics`. */
  combinations?: Combination[];
}

/** A run: its metrics and how its input maps (a surface may keep its own mapping shape, the page's). */
export interface RunConfig<Mapping = InputMapping> extends MetricPlan {
  mapping: Mapping;
}

/** The plan of a run (or any value holding one): its metric fields alone, what a scoring worker is sent. */
export function planOf(c: MetricPlan): MetricPlan {
  const { metrics, settings, calibration, combinations } = c;
  return { metrics, settings, ...(calibration ? { calibration } : {}), ...(combinations ? { combinations } : {}) };
}

/** The settings a plan's metrics are made with: its settings, with what its calibration fitted over them. */
export function settingsOf(p: MetricPlan): MetricSettings {
  const c = p.calibration;
  if (!c) return p.settings;
  return {
    ...p.settings,
    thresholds: { ...p.settings.thresholds, ...c.thresholds },
    ...(c.cutpoints ? { cutpoints: c.cutpoints } : {}),
    ...(c.nliLexWeights ? { nliLexWeights: c.nliLexWeights } : {}),
  };
}

/**
 * A plan's metrics, in order: its list, then one "combined" metric per combination. The one place metrics are
 * built for a run; `build.lexicon` is required when one of them reads WordNet (createMetric refuses otherwise).
 */
export function metricsOf(p: MetricPlan, build: MetricBuild): AnyMetric[] {
  const settings = settingsOf(p);
  const metrics = p.metrics.map((name) => createMetric(name, settings, build));
  for (const c of p.combinations ?? [])
    metrics.push(
      combinedMetric(
        c,
        c.metrics.map((n) => createSyncMetric(n, settings, build)),
      ),
    );
  return metrics;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumberRecord = (v: unknown): boolean => isRecord(v) && Object.values(v).every((x) => typeof x === 'number');

/**
 * What is wrong with a run read back from storage or a file, or null when it is a run: the metrics by name, the
 * settings, a calibration's thresholds and the combinations in their shapes. `mapping` checks the surface's
 * mapping (the page's differs from the CLI's).
 */
export function runConfigProblem(v: unknown, mapping: (m: unknown) => string | null = () => null): string | null {
  if (!isRecord(v)) return 'it is not a run';
  if (!Array.isArray(v.metrics) || v.metrics.length === 0 || !v.metrics.every((m) => typeof m === 'string'))
    return 'its metrics are not a list of names';
  if (!isRecord(v.settings)) return 'its settings are not an object';
  const options = metricOptionsProblem(v.metrics as string[], v.settings.options);
  if (options) return options;
  const c = v.calibration;
  if (c !== undefined && (!isRecord(c) || !isNumberRecord(c.thresholds))) return 'its calibration has no thresholds';
  const combos = v.combinations;
  if (combos !== undefined) {
    const ok =
      Array.isArray(combos) &&
      combos.every(
        (x) =>
          isRecord(x) &&
          Array.isArray(x.metrics) &&
          Array.isArray(x.weights) &&
          x.weights.length === x.metrics.length &&
          typeof x.bias === 'number' &&
          typeof x.threshold === 'number',
      );
    if (!ok) return 'its combinations are not calibrated combinations';
  }
  if (!('mapping' in v)) return 'it has no mapping';
  return mapping(v.mapping);
}
