/**
 * What the CLI's metrics are made of — the --metrics list, the settings and the calibrated combinations — as
 * plain data, so the scoring thread (score-thread.ts) builds the very metrics the main thread built.
 */
import { createSyncMetric, parseMetricList, type MetricSettings } from '../core/metrics/index.ts';
import { combinedMetric } from '../core/run.ts';
import type { Combination } from '../core/agreement/calibrate.ts';
import type { AnyMetric } from '../core/types.ts';

export interface MetricRecipe {
  /** The --metrics list (undefined: the default set). */
  list: string | undefined;
  settings: MetricSettings;
  combinations: Combination[];
}

/** The recipe each metric list was built from (see metricsFrom). */
const recipes = new WeakMap<readonly AnyMetric[], MetricRecipe>();

/** Builds the metrics of a recipe, in its order: the list, then one "combined" metric per combination. */
export function metricsFrom(recipe: MetricRecipe): AnyMetric[] {
  const metrics = parseMetricList(recipe.list, recipe.settings);
  for (const c of recipe.combinations)
    metrics.push(
      combinedMetric(
        c,
        c.metrics.map((n) => createSyncMetric(n, recipe.settings)),
      ),
    );
  recipes.set(metrics, recipe);
  return metrics;
}

/** The recipe `metrics` was built from, when metricsFrom built it. */
export const recipeOf = (metrics: readonly AnyMetric[]): MetricRecipe | undefined => recipes.get(metrics);
