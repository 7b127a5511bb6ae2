/** The "combined" metric: a calibrated logistic combination of lexical metrics, fitted by `verity calibrate`. */
import { VerityError, type Metric } from '../types.ts';
import { predictCombination, type Combination } from '../agreement/calibrate.ts';

/**
 * A calibrated logistic combination of other metrics' scores, as a metric of its own ("combined").
 * Its components are scored again inside; they are cheap lexical metrics.
 */
export function combinedMetric(comb: Combination, components: readonly Metric[]): Metric {
  const byName = new Map(components.map((m) => [m.name, m] as const));
  const parts = comb.metrics.map((n) => {
    const m = byName.get(n);
    if (!m) throw new VerityError(`the calibration combines "${n}", which is not an available metric`, 'usage');
    return m;
  });
  return {
    name: 'combined',
    card: {
      what: `Calibrated logistic combination of ${comb.metrics.join(', ')}.`,
      formula: 'P(correct) = σ(Σ w_k·(score_k − mean_k)/std_k + b)',
      defaults: `Fitted with verity calibrate (L2 ${comb.l2}); threshold ${comb.threshold}.`,
      limits: 'Only as good as the labelled rows it was fitted on.',
      citation: 'Verity calibration.',
    },
    threshold: comb.threshold,
    score(item) {
      const scores = parts.map((m) => m.score(item).score);
      const p = predictCombination(comb, scores);
      if (!p) return { score: null, decision: null, explanation: 'a component metric gave no score' };
      return {
        score: p.probability,
        decision: p.decision,
        explanation: `P(correct)=${p.probability.toFixed(3)} from ${comb.metrics.map((n, k) => `${n}=${scores[k]!.toFixed(3)}`).join(', ')}`,
      };
    },
  };
}
