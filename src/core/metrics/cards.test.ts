/**
 * The common metric test (as HF evaluate's): every metric in the table has a full card, builds under its
 * names, and its card's worked examples give the stated result.
 */
import { describe, expect, it } from 'vitest';
import { isBatchMetric } from '../types.ts';
import {
  DEFAULT_METRICS,
  LEXICAL_METRICS,
  METRIC_NAMES,
  MODEL_METRICS,
  SUPPORTED_METRICS,
  VARIANT_METRICS,
  capabilitiesOf,
  createMetric,
  withLimitLine,
} from './index.ts';
import { withWordNet } from '../../../test/lexicon.ts';

describe.each(SUPPORTED_METRICS.map((d) => [d.name, d] as const))('%s', (name, d) => {
  it('has a full card and builds under its name and every variant', () => {
    for (const k of ['what', 'formula', 'defaults', 'limits', 'citation'] as const) expect(d.card[k].trim().length, k).toBeGreaterThan(10);
    for (const n of [name, ...(d.variants ?? [])]) {
      const m = createMetric(n, {}, withWordNet);
      expect(m.name).toBe(n);
      expect(m.card).toEqual(withLimitLine(d.card));
      expect(isBatchMetric(m)).toBe(d.family === 'model');
      expect(Number.isFinite(m.threshold)).toBe(true);
      // What the run loads is read from the descriptor: it must be what the metric uses.
      expect(capabilitiesOf([n])).toEqual(isBatchMetric(m) ? [...m.needs] : []);
    }
  });

  it.each(d.examples.map((e, i) => [i + 1, e] as const))('example %i gives what the card says', async (_, e) => {
    const m = d.create({});
    const [r] = isBatchMetric(m) ? await m.scoreBatch([e.item], e.models?.() ?? {}) : [m.score(e.item)];
    if (e.expected.score === null) expect(r!.score).toBeNull();
    else expect(r!.score).toBeCloseTo(e.expected.score, 3);
    expect(r!.decision).toBe(e.expected.decision);
    if (e.expected.class !== undefined) expect(r!.class).toBe(e.expected.class);
    if (e.expected.set !== undefined) expect(r!.set).toBe(e.expected.set);
    if (e.expected.explanation !== undefined) expect(r!.explanation).toBe(e.expected.explanation);
  });
});

describe('capabilitiesOf', () => {
  it('lists each capability once, in the order the metrics first name it', () => {
    expect(capabilitiesOf(['exact_match', 'meteor'])).toEqual([]);
    expect(capabilitiesOf(['nli_lex', 'avert_embedding', 'cap', 'avert', 'bertscore'])).toEqual(['nli', 'embedder', 'writer', 'ranker']);
  });
});

describe('the lists derived from the table', () => {
  it('partition the table by family, keep its order, and name no metric twice', () => {
    expect([...LEXICAL_METRICS, ...MODEL_METRICS]).toEqual([...METRIC_NAMES]);
    expect(METRIC_NAMES).toEqual(SUPPORTED_METRICS.map((d) => d.name));
    const all = [...METRIC_NAMES, ...VARIANT_METRICS];
    expect(new Set(all).size).toBe(all.length);
    expect(DEFAULT_METRICS.every((n) => LEXICAL_METRICS.includes(n))).toBe(true);
    // The lists by hand: the table's order, taxonomy_text embedded and in the default set.
    expect(LEXICAL_METRICS).toEqual(['exact_match', 'token_f1', 'lexical_match', 'bleu', 'rouge_l', 'meteor', 'pedants', 'taxonomy_text']);
    expect(MODEL_METRICS).toEqual(['cap', 'hierarchy', 'nli_lex', 'avert', 'bertscore', 'taxonomy']);
    expect(VARIANT_METRICS).toEqual([
      'cap_ent_gp',
      'cap_gp_lambda',
      'cap_pg',
      'cap_bidirectional',
      'hierarchy_strict',
      'avert_embedding',
      'taxonomy_cutpoints',
    ]);
    expect(DEFAULT_METRICS).toEqual(['exact_match', 'token_f1', 'lexical_match', 'pedants', 'taxonomy_text']);
  });
});
