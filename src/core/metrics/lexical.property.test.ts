import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSyncMetric, LEXICAL_METRICS, type MetricSettings } from './index.ts';
import { lowerSplit } from './bleu.ts';
import { overlapWithCounts } from './common.ts';
import { rougeTokenize } from './rouge_l.ts';
import { normalizeTokens, type Normalization } from '../text/normalize.ts';
import { ADVERSARIAL_PIECES } from '../text/adversarial.ts';
import type { Metric, MetricResult, QaItem } from '../types.ts';
import { withWordNet } from '../../../test/lexicon.ts';

const piece = fc.constantFrom(...ADVERSARIAL_PIECES);
/** Hostile pieces glued or spaced, any code points, and any UTF-16 units (lone surrogates included). */
const text = fc.oneof(
  { arbitrary: fc.array(piece, { maxLength: 12 }).map((p) => p.join('')), weight: 3 },
  { arbitrary: fc.array(piece, { maxLength: 12 }).map((p) => p.join(' ')), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 30 }), weight: 1 },
  { arbitrary: fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 30 }), weight: 1 },
);
/** 20k–60k characters: one field of an item at most, so quadratic steps (LCS, edit distance) stay bounded. */
const huge = fc
  .tuple(fc.array(piece, { minLength: 1, maxLength: 8 }), fc.integer({ min: 2_000, max: 6_000 }))
  .map(([p, n]) => `${p.join(' ')} `.repeat(n).slice(0, n * 10));
const golds = fc.array(text, { maxLength: 4 });
const item = fc.oneof(
  { arbitrary: fc.record({ question: text, golds, candidate: text }), weight: 30 },
  { arbitrary: fc.record({ question: text, golds, candidate: huge }), weight: 1 },
  { arbitrary: fc.record({ question: text, golds: fc.tuple(huge, golds).map(([h, g]) => [...g, h]), candidate: text }), weight: 1 },
  { arbitrary: fc.record({ question: huge, golds, candidate: text }), weight: 1 },
);
const settings: fc.Arbitrary<MetricSettings> = fc.record(
  {
    normalization: fc.constantFrom<Normalization>('squad', 'numeric'),
    options: fc.constantFrom('token', 'substring').map((mode) => ({ lexical_match: { mode } })),
  },
  { requiredKeys: [] },
);
const RUNS = { numRuns: 250 };

const metric = (name: string, s: MetricSettings = {}): Metric => createSyncMetric(name, s, withWordNet);
const score = (m: Metric, candidate: string, golds: string[]): number => m.score({ question: '', golds, candidate }).score!;

/** The contract every metric result keeps. */
function checkResult(m: Metric, r: MetricResult): void {
  expect(typeof r.explanation).toBe('string');
  expect(r.explanation.length).toBeGreaterThan(0);
  if (r.score === null) {
    expect(r.decision).toBeNull();
    return;
  }
  expect(Number.isFinite(r.score)).toBe(true);
  expect(r.score).toBeGreaterThanOrEqual(0);
  expect(r.score).toBeLessThanOrEqual(1);
  expect(r.decision).toBe(r.score >= m.threshold);
}

describe.each(LEXICAL_METRICS)('%s on any input', (name) => {
  it('never throws; score null or finite in [0, 1]; decision = score ≥ threshold; same input, same output', () => {
    const m = metric(name);
    fc.assert(
      fc.property(item, (it: QaItem) => {
        const r = m.score(it);
        checkResult(m, r);
        // Deterministic, on a copy of the item and on a fresh instance.
        expect(m.score(structuredClone(it))).toEqual(r);
        expect(metric(name).score(it)).toEqual(r);
      }),
      RUNS,
    );
  });

  it('with other settings and any threshold, the decision still follows the threshold', () => {
    fc.assert(
      fc.property(item, settings, fc.double({ min: 0, max: 1, noNaN: true }), (it: QaItem, s, t) => {
        const m = metric(name, { ...s, thresholds: { [name]: t } });
        expect(m.threshold).toBe(t);
        checkResult(m, m.score(it));
      }),
      RUNS,
    );
  });

  it('ASCII case does not matter (every lexical metric lowercases)', () => {
    const m = metric(name);
    const ascii = fc.string({ unit: 'binary-ascii', maxLength: 30 });
    fc.assert(
      fc.property(ascii, fc.array(ascii, { minLength: 1, maxLength: 3 }), ascii, (candidate, gs, question) => {
        const upper = m.score({
          question: question.toUpperCase(),
          golds: gs.map((g) => g.toUpperCase()),
          candidate: candidate.toUpperCase(),
        });
        expect(upper.score).toBe(m.score({ question, golds: gs, candidate }).score);
      }),
      RUNS,
    );
  });
});

describe('documented symmetries and identities', () => {
  const pair = fc.tuple(text, text);

  // EM: norm(c) == norm(g); token F1: 2PR/(P+R) with P and R swapping; ROUGE-L F: LCS is symmetric, P and R swap.
  it.each(['exact_match', 'token_f1', 'rouge_l'])('%s is symmetric between the candidate and a single gold', (name) => {
    for (const normalization of ['squad', 'numeric'] as const) {
      const m = metric(name, { normalization });
      fc.assert(
        fc.property(pair, ([a, b]) => {
          expect(score(m, a, [b])).toBe(score(m, b, [a]));
        }),
        RUNS,
      );
    }
  });

  // Cards: "max over golds" (token_f1, exact_match, lexical_match, rouge_l "best gold", meteor "best gold wins").
  it.each(['exact_match', 'token_f1', 'lexical_match', 'rouge_l', 'meteor'])('%s is the max over golds, whatever their order', (name) => {
    const m = metric(name);
    fc.assert(
      fc.property(text, fc.array(text, { minLength: 1, maxLength: 4 }), (c, gs) => {
        const all = score(m, c, gs);
        expect(all).toBe(Math.max(...gs.map((g) => score(m, c, [g]))));
        expect(score(m, c, [...gs].reverse())).toBe(all);
      }),
      RUNS,
    );
  });

  it('an answer against itself', () => {
    const [em, f1, lm, rouge, bleu, meteor] = ['exact_match', 'token_f1', 'lexical_match', 'rouge_l', 'bleu', 'meteor'].map((n) =>
      metric(n),
    );
    fc.assert(
      fc.property(text, (x) => {
        expect(score(em!, x, [x])).toBe(1);
        // SQuAD v1.1 F1 is 0 when nothing is shared, also when both sides normalize to nothing.
        expect(score(f1!, x, [x])).toBe(normalizeTokens(x).length > 0 ? 1 : 0);
        expect(score(lm!, x, [x])).toBe(normalizeTokens(x, 'numeric').length > 0 ? 1 : 0);
        expect(score(rouge!, x, [x])).toBe(rougeTokenize(x).length > 0 ? 1 : 0);
        // BLEU-4 without smoothing needs a 4-gram; METEOR: one chunk, penalty 0.5/m³.
        const n = lowerSplit(x).length;
        if (n >= 4) expect(score(bleu!, x, [x])).toBeCloseTo(1, 12);
        if (n > 0) expect(score(meteor!, x, [x])).toBeCloseTo(1 - 0.5 / n ** 3, 12);
      }),
      RUNS,
    );
  });

  it('exact match implies token F1 = 1 and containment, under the same normalization', () => {
    for (const normalization of ['squad', 'numeric'] as const) {
      const [em, f1, lm] = ['exact_match', 'token_f1', 'lexical_match'].map((n) => metric(n, { normalization }));
      fc.assert(
        fc.property(text, fc.array(text, { minLength: 1, maxLength: 3 }), (c, gs) => {
          if (score(em!, c, gs) !== 1 || normalizeTokens(c, normalization).length === 0) return;
          expect(score(f1!, c, gs)).toBe(1);
          expect(score(lm!, c, gs)).toBe(1);
        }),
        RUNS,
      );
    }
  });

  it('lexical_match: token-boundary containment implies substring containment', () => {
    const token = metric('lexical_match');
    const sub = metric('lexical_match', { options: { lexical_match: { mode: 'substring' } } });
    fc.assert(
      fc.property(text, fc.array(text, { maxLength: 3 }), (c, gs) => {
        if (score(token, c, gs) === 1) expect(score(sub, c, gs)).toBe(1);
      }),
      RUNS,
    );
  });
});

describe('regressions', () => {
  it('token_f1 and pedants with no gold decide by the threshold like the others (threshold 0 → true)', () => {
    for (const name of ['token_f1', 'pedants']) {
      const m = metric(name, { thresholds: { [name]: 0 } });
      expect(m.score({ question: '', golds: [], candidate: 'x' })).toMatchObject({ score: 0, decision: true });
    }
  });

  it('bleu with a very large number of golds (the max over references was a spread call)', () => {
    const golds = Array.from({ length: 200_000 }, (_, i) => `gold ${i}`);
    const r = metric('bleu').score({ question: '', golds, candidate: 'gold 7 and more words' });
    expect(r.explanation).not.toMatch(/failed/);
    expect(r.score).toBeGreaterThan(0);
  });
});

describe('overlapWithCounts', () => {
  // A long gold is counted with a map (linear); it must give the multiset overlap the short path gives.
  it('counts the multiset overlap of any gold, short or long', () => {
    const naive = (cand: string[], gold: string[]) => {
      const left = [...cand];
      let same = 0;
      for (const t of gold) {
        const k = left.indexOf(t);
        if (k >= 0) {
          same++;
          left.splice(k, 1);
        }
      }
      return same;
    };
    const tokens = fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { maxLength: 200 });
    fc.assert(
      fc.property(tokens, tokens, (cand, gold) => {
        const counts = new Map<string, number>();
        for (const t of cand) counts.set(t, (counts.get(t) ?? 0) + 1);
        expect(overlapWithCounts(counts, gold)).toBe(naive(cand, gold));
      }),
    );
  });
});
