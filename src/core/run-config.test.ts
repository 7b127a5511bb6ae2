import { describe, expect, it } from 'vitest';
import { metricsOf, runConfigProblem, settingsOf, type MetricPlan } from './run-config.ts';
import { createMetric, needsLexicon } from './metrics/index.ts';
import type { Metric } from './types.ts';
import { withWordNet } from '../../test/lexicon.ts';

const item = { question: 'What did he drive?', golds: ['car'], candidate: 'auto' };

describe('metricsOf', () => {
  it('refuses to build a metric that reads WordNet without it, and says how to give it', () => {
    expect(needsLexicon(['exact_match', 'token_f1'])).toBe(false);
    expect(needsLexicon(['exact_match', 'meteor'])).toBe(true);
    for (const name of ['meteor', 'pedants', 'taxonomy_text']) {
      expect(() => createMetric(name), name).toThrow(/reads the WordNet lexicon.*\{ lexicon \}/);
      expect(() => metricsOf({ metrics: [name], settings: {} }, {}), name).toThrow(/WordNet/);
    }
    expect(metricsOf({ metrics: ['exact_match'], settings: {} }, {}).map((m) => m.name)).toEqual(['exact_match']);
  });

  it('builds each metric with the lexicon it is given: WordNet finds a synonym, null on purpose does not', () => {
    const plan: MetricPlan = { metrics: ['meteor'], settings: {} };
    const [withWn] = metricsOf(plan, withWordNet) as Metric[];
    const [without] = metricsOf(plan, { lexicon: null }) as Metric[];
    // "auto" and "car" share WordNet's synset car.n.01 (and are their own Porter stems): the synonym stage matches.
    expect(withWn!.score(item).score).toBeGreaterThan(0);
    expect(without!.score(item).score).toBe(0);
  });

  it('applies the calibration over the settings, and appends one combined metric per combination', () => {
    const plan: MetricPlan = {
      metrics: ['exact_match', 'token_f1'],
      settings: { thresholds: { exact_match: 0.5, token_f1: 0.4 } },
      calibration: { thresholds: { token_f1: 0.9 } },
      combinations: [{ metrics: ['token_f1'], weights: [2], bias: -1, means: [0], stds: [1], l2: 1, threshold: 0.5 }],
    };
    expect(settingsOf(plan).thresholds).toEqual({ exact_match: 0.5, token_f1: 0.9 });
    const ms = metricsOf(plan, {});
    expect(ms.map((m) => [m.name, m.threshold])).toEqual([
      ['exact_match', 0.5],
      ['token_f1', 0.9],
      ['combined', 0.5],
    ]);
    // The combination: sigmoid(2·F1 − 1); "blue sky" vs "blue": F1 = 2/3 → sigmoid(1/3).
    const r = (ms[2] as Metric).score({ question: 'q', golds: ['blue'], candidate: 'blue sky' });
    expect(r.score).toBeCloseTo(1 / (1 + Math.exp(-1 / 3)), 10);
  });
});

describe('runConfigProblem', () => {
  const good = { metrics: ['exact_match'], settings: {}, mapping: { map: {} } };
  it('accepts a run and names what is wrong with anything else', () => {
    expect(runConfigProblem(good)).toBeNull();
    expect(runConfigProblem({ ...good, calibration: { thresholds: { exact_match: 0.5 } } })).toBeNull();
    expect(runConfigProblem(null)).toBe('it is not a run');
    expect(runConfigProblem({ ...good, metrics: 'exact_match' })).toMatch(/metrics/);
    expect(runConfigProblem({ ...good, metrics: [] })).toMatch(/metrics/);
    expect(runConfigProblem({ ...good, settings: null })).toMatch(/settings/);
    expect(runConfigProblem({ ...good, calibration: { thresholds: { a: '0.5' } } })).toMatch(/calibration/);
    expect(runConfigProblem({ ...good, combinations: [{ metrics: ['a'], weights: [], bias: 0, threshold: 0.5 }] })).toMatch(/combinations/);
    expect(runConfigProblem({ metrics: ['a'], settings: {} })).toMatch(/mapping/);
    expect(runConfigProblem(good, () => 'its mapping has no columns')).toBe('its mapping has no columns');
  });
});
