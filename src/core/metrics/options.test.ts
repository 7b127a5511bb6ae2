/**
 * Metric options as their descriptors declare them: each default is allowed and is what the metric does without
 * it, each option reaches the metric (another allowed value changes a worked example's result), and a value or a
 * key the declaration does not allow is refused with the metric and the option named.
 */
import { describe, expect, it } from 'vitest';
import { isBatchMetric, VerityError, type MetricResult } from '../types.ts';
import { SUPPORTED_METRICS, createMetric, metricOptionsProblem, optionLines, type MetricDescriptor, type MetricSettings } from './index.ts';
import { optionValueProblem, type MetricOption, type OptionValue } from './descriptor.ts';
import { descriptor as capCard } from './cap.ts';
import { withWordNet } from '../../../test/lexicon.ts';

const WITH_OPTIONS = SUPPORTED_METRICS.filter((d) => Object.keys(d.options ?? {}).length);

/** Every example's result with these settings. */
async function results(d: MetricDescriptor, s: MetricSettings): Promise<MetricResult[]> {
  const m = createMetric(d.name, s, withWordNet);
  const out: MetricResult[] = [];
  for (const e of d.examples) out.push(...(isBatchMetric(m) ? await m.scoreBatch([e.item], e.models?.() ?? {}) : [m.score(e.item)]));
  return out;
}

/** The allowed values other than the default: each other choice; a number's bounds and midpoint. */
const others = (o: MetricOption): OptionValue[] =>
  (o.kind === 'choice' ? [...o.choices] : [o.min, (o.min + o.max) / 2, o.max]).filter((v) => v !== o.default);

const given = (d: MetricDescriptor, key: string, value: unknown): MetricSettings => ({
  options: { [d.name]: { [key]: value as OptionValue } },
});

it('some metrics declare options (the tests below are not empty)', () => {
  expect(WITH_OPTIONS.map((d) => d.name)).toEqual(expect.arrayContaining(['lexical_match', 'cap', 'bertscore', 'taxonomy']));
});

describe.each(WITH_OPTIONS.map((d) => [d.name, d] as const))('%s', (_, d) => {
  const table = Object.entries(d.options!);

  it.each(table)('%s: its default is allowed and is what the metric does without it', async (key, o) => {
    expect(o.describe.trim().length).toBeGreaterThan(10);
    if (o.kind === 'number') expect(o.min).toBeLessThan(o.max);
    expect(optionValueProblem(o, o.default)).toBeNull();
    expect(await results(d, given(d, key, o.default))).toEqual(await results(d, {}));
  });

  it.each(table)('%s: another allowed value changes a worked example', async (key, o) => {
    const plain = JSON.stringify(await results(d, {}));
    const changed: OptionValue[] = [];
    for (const v of others(o)) if (JSON.stringify(await results(d, given(d, key, v))) !== plain) changed.push(v);
    expect(changed.length, `no example of ${d.name} shows ${key}: add one that does`).toBeGreaterThan(0);
  });

  it.each(table)('%s: a value it does not allow, or a key it does not declare, is refused by name', (key, o) => {
    const bad = o.kind === 'number' ? [o.max + 1, o.min - 1, Number.NaN, '0.5'] : ['nope', 1];
    for (const v of bad) {
      const err = (() => {
        try {
          createMetric(d.name, given(d, key, v), withWordNet);
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(VerityError);
      expect((err as VerityError).code).toBe('bad-option');
      expect((err as VerityError).message).toContain(`${d.name}.${key} expects`);
      expect(metricOptionsProblem([d.name], given(d, key, v).options)).toContain(`${d.name}.${key} expects`);
    }
    expect(() => createMetric(d.name, given(d, `${key}_typo`, o.default), withWordNet)).toThrow(`${d.name} has no option "${key}_typo"`);
    expect(optionLines(d).some((l) => l.name === `${d.name}.${key}` && l.says.startsWith('('))).toBe(true);
  });
});

describe('metricOptionsProblem', () => {
  it('names what is wrong with a run’s options', () => {
    expect(metricOptionsProblem(['cap_pg'], { cap: { alpha: 0.5 } })).toBeNull();
    expect(metricOptionsProblem(['cap'], undefined)).toBeNull();
    expect(metricOptionsProblem(['cap_pg'], { cap_pg: { alpha: 0.5 } })).toBe(
      '"cap_pg" is not a metric\'s name: options are given by the main name, "cap"',
    );
    expect(metricOptionsProblem(['exact_match'], { cap: { alpha: 0.5 } })).toBe("cap is not among the run's metrics (exact_match)");
    expect(metricOptionsProblem(['exact_match'], { exact_match: { x: 1 } })).toBe('exact_match has no option "x"; it has none');
    expect(metricOptionsProblem(['cap'], { nope: {} })).toBe('"nope" is not a metric\'s name');
    expect(metricOptionsProblem(['cap'], [])).toBe('the metric options are not an object');
    expect(metricOptionsProblem(['cap'], { cap: 3 })).toBe('cap: its options are not an object');
  });
});

describe('the options reach the formulas (values by hand)', () => {
  // CAP's worked example: g→p = (ent 0.7, neu 0.2, con 0.1), p→g = (0.4, 0.5, 0.1)
  const item = capCard.examples[0].item;
  const cap = async (o: Record<string, number>) => {
    const m = createMetric('cap', { options: { cap: o } });
    return isBatchMetric(m) ? (await m.scoreBatch([item], {}))[0]!.score : null;
  };

  it('cap: α and λ as in CAP = α·D(g→p) + (1−α)·D(p→g), D = P_ent + λ·P_neu', async () => {
    // D(g→p) = 0.7 + 0.3·0.2 = 0.76, D(p→g) = 0.4 + 0.3·0.5 = 0.55
    expect(await cap({})).toBeCloseTo(0.85 * 0.76 + 0.15 * 0.55, 10);
    expect(await cap({ alpha: 0.5 })).toBeCloseTo(0.655, 10);
    // λ = 0.5: D(g→p) = 0.8, D(p→g) = 0.65; α = 1 leaves the first
    expect(await cap({ alpha: 1, lambda: 0.5 })).toBeCloseTo(0.8, 10);
    expect(await cap({ alpha: 0, lambda: 0.5 })).toBeCloseTo(0.65, 10);
  });

  it('lexical_match: mode=substring finds a gold inside a word, as EVOUNA does', () => {
    const score = (s: MetricSettings) => {
      const m = createMetric('lexical_match', s);
      return isBatchMetric(m) ? null : m.score({ question: 'Capital?', golds: ['Paris'], candidate: 'Parisian cafés' }).score;
    };
    expect(score({})).toBe(0);
    expect(score({ options: { lexical_match: { mode: 'substring' } } })).toBe(1);
  });
});
