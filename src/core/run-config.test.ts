import { describe, expect, it } from 'vitest';
import { metricsOf, planOf, runConfigProblem, settingsOf, type MetricPlan } from './run-config.ts';
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

describe('planOf', () => {
  it('keeps the metric fields of a run and nothing else', () => {
    const calibration = { thresholds: { token_f1: 0.4 } };
    const combinations = [{ metrics: ['exact_match'], weights: [1], bias: 0, means: [0.5], stds: [0.5], l2: 1, threshold: 0.5 }];
    const run = { metrics: ['exact_match'], settings: {}, calibration, combinations, mapping: { map: {} }, models: {}, loaded: {} };
    expect(planOf(run)).toEqual({ metrics: ['exact_match'], settings: {}, calibration, combinations });
    expect(planOf({ metrics: ['token_f1'], settings: { normalization: 'squad' } })).toEqual({
      metrics: ['token_f1'],
      settings: { normalization: 'squad' },
    });
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

describe('a run’s metric options', () => {
  const run = { metrics: ['cap_pg'], mapping: { map: {} } };
  it('are checked with the run: the metric in it, by its main name, the option declared, the value allowed', () => {
    expect(runConfigProblem({ ...run, settings: { options: { cap: { alpha: 0.5 } } } })).toBeNull();
    expect(runConfigProblem({ ...run, settings: { options: { cap: { alpha: 1.5 } } } })).toBe(
      'cap.alpha expects a number from 0 to 1, got 1.5',
    );
    expect(runConfigProblem({ ...run, settings: { options: { bertscore: { idf: 'on' } } } })).toBe(
      "bertscore is not among the run's metrics (cap_pg)",
    );
  });
  it('are what the metrics are built with', async () => {
    const [gp, pg] = [
      { entailment: 0.5, neutral: 0.5, contradiction: 0 },
      { entailment: 0, neutral: 0, contradiction: 1 },
    ];
    const item = { question: 'q', golds: ['g'], candidate: 'c', nli: [{ goldToCandidate: gp, candidateToGold: pg }] };
    // cap_pg reads p→g alone: D = 0; cap with α = 1, λ = 1 reads g→p alone: 0.5 + 1·0.5 = 1
    const both = metricsOf({ metrics: ['cap_pg', 'cap'], settings: { options: { cap: { alpha: 1, lambda: 1 } } } }, {});
    const scores = await Promise.all(both.map(async (x) => ('scoreBatch' in x ? (await x.scoreBatch([item], {}))[0]!.score : null)));
    expect(scores).toEqual([0, 1]);
  });
});
