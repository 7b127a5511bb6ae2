import { describe, expect, it } from 'vitest';
import type { Nli, NliDistribution, NliPair, StatementWriter } from '../capabilities.ts';
import { classifyScore } from '../agreement/calibrate.ts';
import { CAP_CLASSES, VerityError, type CapClass, type ProvidedNli, type QaItem } from '../types.ts';
import { createCap } from './cap.ts';
import { createHierarchy } from './hierarchy.ts';
import { createTaxonomy, relation, uniformCutpoints } from './taxonomy.ts';
import { EvidenceCache, type RunContext } from '../evidence.ts';
import { lexicon } from '../../../test/lexicon.ts';

const d = (entailment: number, neutral: number, contradiction: number): NliDistribution => ({ entailment, neutral, contradiction });
const NEUTRAL = d(0.1, 0.8, 0.1);
const ENT = d(0.9, 0.1, 0);
const nliOf = (gp: NliDistribution, pg: NliDistribution): ProvidedNli => ({ goldToCandidate: gp, candidateToGold: pg });

/** Deterministic NLI: a (premise, hypothesis) table, NEUTRAL otherwise; counts calls and pairs. */
function fakeNli(table: Record<string, NliDistribution> = {}): Nli & { pairs: NliPair[]; calls: number } {
  const f = {
    pairs: [] as NliPair[],
    calls: 0,
    async classify(pairs: NliPair[]) {
      f.calls++;
      f.pairs.push(...pairs);
      return pairs.map((p) => table[`${p.premise} => ${p.hypothesis}`] ?? NEUTRAL);
    },
  };
  return f;
}
/** Statements "S:<answer>"; counts calls. */
function fakeWriter(): StatementWriter & { calls: number } {
  const w = {
    name: 'fake-writer',
    calls: 0,
    async write(items: { question: string; answer: string }[]) {
      w.calls++;
      return items.map((it) => `S:${it.answer}`);
    },
  };
  return w;
}
const item = (golds: string[], candidate: string, nli?: ProvidedNli[]): QaItem => ({
  question: 'Where is it?',
  golds,
  candidate,
  ...(nli ? { nli } : {}),
});

describe('taxonomy (structured)', () => {
  const cases: [CapClass, QaItem, boolean, number, RegExp][] = [
    ['exact', item(['Paris'], 'paris.', [nliOf(NEUTRAL, NEUTRAL)]), true, 0, /^exact: equals gold "Paris" after normalization$/],
    [
      'equivalent',
      item(['Paris'], 'It is Paris', [nliOf(d(0.9, 0.1, 0), d(0.8, 0.2, 0))]),
      true,
      0,
      /^equivalent to gold "Paris": P_ent\(p→g\)=0.8 ≥ 0.5, P_ent\(g→p\)=0.9 ≥ 0.5$/,
    ],
    [
      'alternative-correct',
      item(['Paris', 'City of Light'], 'The City of Lights', [nliOf(NEUTRAL, NEUTRAL), nliOf(ENT, ENT)]),
      true,
      1,
      /^alternative-correct: equivalent to gold #2 "City of Light" .*no content word shared with the first gold "Paris"$/,
    ],
    [
      'overinclusive-valid',
      item(['Paris'], 'Paris, and it is lovely', [nliOf(d(0.2, 0.7, 0.1), ENT)]),
      true,
      0,
      /^overinclusive-valid for gold "Paris": .*; clause check skipped \(no NLI model; probabilities from the input only\): contradiction mass 0.1 < 0.5$/,
    ],
    [
      'partial',
      item(['Paris, France'], 'France', [nliOf(ENT, d(0.2, 0.7, 0.1))]),
      false,
      0,
      /^partial for gold "Paris, France": the gold entails the candidate, not the reverse/,
    ],
    [
      'overinclusive-invalid',
      item(['Paris'], 'Paris in Germany', [nliOf(d(0.1, 0.3, 0.6), ENT)]),
      false,
      0,
      /^overinclusive-invalid for gold "Paris": .*; no NLI model and a single clause: contradiction mass 0.6 ≥ 0.5$/,
    ],
    ['invalid', item(['Paris'], 'Somewhere', [nliOf(NEUTRAL, NEUTRAL)]), false, 0, /^invalid: neither direction entails \(gold "Paris": /],
    [
      'contradictory',
      item(['Paris'], 'Lyon', [nliOf(d(0.1, 0.2, 0.7), d(0.1, 0.3, 0.6))]),
      false,
      0,
      /^contradictory to gold "Paris": P_con\(g→p\)=0.7 dominates$/,
    ],
  ];

  it.each(cases)('%s', async (cls, it_, decision, chosen, explanation) => {
    const [r] = await createTaxonomy({ lexicon }).scoreBatch([it_], { writer: fakeWriter() });
    expect(r!.class).toBe(cls);
    expect(r!.decision).toBe(decision);
    expect(r!.explanation).toMatch(explanation);
    expect(r!.details).toMatchObject({
      chosen_gold_index: chosen,
      class: cls,
      method: 'structured',
      nli_source: 'input',
      writer: 'fake-writer',
    });
    expect(r!.score).toBeGreaterThanOrEqual(0);
    expect(r!.score).toBeLessThanOrEqual(1);
  });

  it('covers all eight classes', () => {
    expect(new Set(cases.map((c) => c[0]))).toEqual(new Set(CAP_CLASSES));
  });

  it('scores with CAP', async () => {
    const [r] = await createTaxonomy({ lexicon }).scoreBatch([item(['Paris'], 'It is Paris', [nliOf(d(0.9, 0.1, 0), d(0.8, 0.2, 0))])], {
      writer: fakeWriter(),
    });
    // 0.85·(0.9 + 0.3·0.1) + 0.15·(0.8 + 0.3·0.2)
    expect(r!.score).toBeCloseTo(0.9195, 12);
    expect(r!.details!.cap).toBeCloseTo(0.9195, 12);
  });

  it('relation() reads the directions as documented', () => {
    expect(relation(nliOf(ENT, ENT), 0.5)).toBe('equivalent');
    expect(relation(nliOf(NEUTRAL, ENT), 0.5)).toBe('overinclusive'); // candidate entails gold: says more
    expect(relation(nliOf(ENT, NEUTRAL), 0.5)).toBe('partial'); // gold entails candidate: says less
    expect(relation(nliOf(d(0.1, 0.2, 0.7), ENT), 0.5)).toBe('overinclusive'); // extra part contradicts the gold statement
    expect(relation(nliOf(ENT, d(0.1, 0.2, 0.7)), 0.5)).toBe('contradictory');
    expect(relation(nliOf(d(0.3, 0.3, 0.4), NEUTRAL), 0.5)).toBe('contradictory');
    expect(relation(nliOf(d(0.3, 0.4, 0.3), NEUTRAL), 0.5)).toBe('invalid');
    expect(relation(nliOf(d(0.5, 0.5, 0), d(0.5, 0.5, 0)), 0.5)).toBe('equivalent');
  });

  it('equivalent to a non-first gold that shares a content word with the first → equivalent, naming that gold', async () => {
    const [r] = await createTaxonomy({ lexicon }).scoreBatch(
      [item(['Paris, France', 'the French capital'], 'the capital of France', [nliOf(NEUTRAL, NEUTRAL), nliOf(ENT, ENT)])],
      { writer: fakeWriter() },
    );
    expect(r!.class).toBe('equivalent');
    expect(r!.details!.chosen_gold).toBe('the French capital');
    expect(r!.explanation).toMatch(/shares "france" with the first gold, so not alternative-correct/);
  });

  it('several golds: the most favourable class wins (partial over contradictory / overinclusive-invalid), then CAP, then the first', async () => {
    const contra = nliOf(d(0.1, 0.2, 0.7), d(0.1, 0.3, 0.6));
    const partial = nliOf(ENT, d(0.2, 0.7, 0.1));
    const oi = nliOf(d(0.1, 0.3, 0.6), ENT);
    const [a, b, c] = await createTaxonomy({ lexicon }).scoreBatch(
      [
        item(['Lyon', 'Paris, France'], 'France', [contra, partial]),
        item(['Paris', 'Paris, France'], 'Paris in Germany', [oi, partial]),
        item(['Paris', 'Paris, France'], 'France', [partial, partial]),
      ],
      { writer: fakeWriter() },
    );
    expect(a).toMatchObject({ class: 'partial', details: { chosen_gold_index: 1 } });
    expect(a!.explanation).toMatch(/^partial for gold "Paris, France" \(best of 2 golds\)/);
    expect(b).toMatchObject({ class: 'partial', details: { chosen_gold_index: 1 } });
    expect(c).toMatchObject({ class: 'partial', details: { chosen_gold_index: 0 } });
    const perGold = a!.details!.per_gold as { relation: string; class: string; g_to_p: NliDistribution }[];
    expect(perGold.map((g) => g.class)).toEqual(['contradictory', 'partial']);
    expect(perGold[1]!.g_to_p).toEqual(ENT);
  });

  describe('clause check with a model', () => {
    const table = {
      // statements (fake writer): the candidate entails the gold, not the reverse → overinclusive
      'S:Paris, and it is in Germany => S:Paris': ENT,
      'S:Paris, and it is lovely => S:Paris': ENT,
      'S:Paris in France => S:Paris': ENT,
      // clauses against the gold statement
      'S:Paris => Paris': d(0.95, 0.05, 0),
      'S:Paris => it is in Germany': d(0.05, 0.15, 0.8),
      'S:Paris => it is lovely': d(0.1, 0.85, 0.05),
    };

    it("a contradicted extra clause → overinclusive-invalid, although the statements' contradiction mass is low", async () => {
      const nli = fakeNli(table);
      const [r] = await createTaxonomy({ lexicon }).scoreBatch([item(['Paris'], 'Paris, and it is in Germany')], {
        nli,
        writer: fakeWriter(),
      });
      expect(r!.class).toBe('overinclusive-invalid');
      expect(r!.decision).toBe(false);
      expect(r!.explanation).toMatch(/clause "it is in Germany" contradicted \(P_con=0.8 ≥ 0.5\)$/);
      const g = (r!.details!.per_gold as { overinclusion: { method: string; clauses: { clause: string; verdict: string }[] } }[])[0]!;
      expect(g.overinclusion.method).toBe('clauses');
      expect(g.overinclusion.clauses.map((c) => [c.clause, c.verdict])).toEqual([
        ['Paris', 'entailed'],
        ['it is in Germany', 'contradicted'],
      ]);
      expect(r!.details!.clauses).toEqual(['Paris', 'it is in Germany']);
      expect(nli.pairs.filter((p) => p.premise === 'S:Paris' && !p.hypothesis.startsWith('S:'))).toHaveLength(2);
    });

    it('neutral extra clauses → overinclusive-valid', async () => {
      const [r] = await createTaxonomy({ lexicon }).scoreBatch([item(['Paris'], 'Paris, and it is lovely')], {
        nli: fakeNli(table),
        writer: fakeWriter(),
      });
      expect(r!.class).toBe('overinclusive-valid');
      expect(r!.explanation).toMatch(/no clause contradicted \(2 clauses checked\)$/);
    });

    it('a single clause: the contradiction mass decides, and the explanation says so', async () => {
      const nli = fakeNli(table);
      const [r] = await createTaxonomy({ lexicon }).scoreBatch([item(['Paris'], 'Paris in France')], { nli, writer: fakeWriter() });
      expect(r!.class).toBe('overinclusive-valid');
      expect(r!.explanation).toMatch(/single clause, no clause check: contradiction mass 0.1 < 0.5$/);
      expect(nli.pairs).toHaveLength(2);
    });

    it('input probabilities for the statements, the model for the clauses', async () => {
      const nli = fakeNli(table);
      const [r] = await createTaxonomy({ lexicon }).scoreBatch([item(['Paris'], 'Paris, and it is in Germany', [nliOf(NEUTRAL, ENT)])], {
        nli,
        writer: fakeWriter(),
      });
      expect(r!.class).toBe('overinclusive-invalid');
      expect(r!.details!.nli_source).toBe('input');
      expect(nli.pairs).toHaveLength(2); // only the two clauses
    });

    it('a failing clause check falls back to the contradiction mass', async () => {
      let n = 0;
      const nli: Nli = {
        classify: async (pairs) => {
          if (n++ > 0) throw new Error('boom');
          return pairs.map((p) => (table as Record<string, NliDistribution>)[`${p.premise} => ${p.hypothesis}`] ?? NEUTRAL);
        },
      };
      const [r] = await createTaxonomy({ lexicon }).scoreBatch([item(['Paris'], 'Paris, and it is in Germany')], {
        nli,
        writer: fakeWriter(),
      });
      expect(r!.class).toBe('overinclusive-valid');
      expect(r!.explanation).toMatch(/clause check failed \(boom\): contradiction mass 0.1 < 0.5$/);
    });
  });

  it('thresholds τ and κ are options', async () => {
    const it_ = item(['Paris'], 'Paris in Germany', [nliOf(d(0.1, 0.5, 0.4), d(0.7, 0.3, 0))]);
    const [a] = await createTaxonomy({ lexicon }).scoreBatch([it_], { writer: fakeWriter() });
    expect(a!.class).toBe('overinclusive-valid');
    const [b] = await createTaxonomy({ lexicon, contradiction: 0.3 }).scoreBatch([it_], { writer: fakeWriter() });
    expect(b!.class).toBe('overinclusive-invalid');
    const [c] = await createTaxonomy({ lexicon, tau: 0.8 }).scoreBatch([it_], { writer: fakeWriter() });
    expect(c!.class).toBe('invalid');
    expect(() => createTaxonomy({ lexicon, tau: 0 })).toThrow(VerityError);
    expect(() => createTaxonomy({ lexicon, method: 'x' as never })).toThrow(/unknown taxonomy method/);
  });
});

describe('taxonomy (cut-points)', () => {
  /** Both directions (e, 0, 1 − e): CAP = e. */
  const withCap = (e: number) => item(['Paris'], 'Paris', [nliOf(d(e, 0, 1 - e), d(e, 0, 1 - e))]);

  it('default: uniform bins of 1/8 in severity order; decision = correct class = CAP ≥ 0.5', async () => {
    const m = createTaxonomy({ lexicon, method: 'cutpoints' });
    expect(m.name).toBe('taxonomy_cutpoints');
    expect(m.threshold).toBe(0.5);
    const caps = [0.95, 0.8, 0.7, 0.6, 0.45, 0.3, 0.2, 0.05];
    const rows = await m.scoreBatch(caps.map(withCap), { writer: fakeWriter() });
    expect(rows.map((r) => r.class)).toEqual([...CAP_CLASSES]);
    expect(rows.map((r) => r.decision)).toEqual([true, true, true, true, false, false, false, false]);
    rows.forEach((r, i) => expect(r.score).toBeCloseTo(caps[i]!, 12));
    expect(rows[0]!.explanation).toBe('CAP=0.95 ≥ 0.875 → exact (cut-points)');
    expect(rows[7]!.explanation).toBe('CAP=0.05 < 0.125 → contradictory (cut-points)');
    // The exact class comes from the score only, not from string equality.
    expect(rows[7]!.class).toBe('contradictory');
    const cp = uniformCutpoints();
    expect(cp.cuts).toEqual([0.875, 0.75, 0.625, 0.5, 0.375, 0.25, 0.125]);
    expect(classifyScore(cp, 0.5)).toBe('overinclusive-valid');
    expect(classifyScore(cp, 0.4999)).toBe('partial');
    expect(classifyScore(cp, 1)).toBe('exact');
    expect(classifyScore(cp, 0)).toBe('contradictory');
  });

  it("custom cut-points (a calibration's shape); the threshold is where the class turns correct", async () => {
    const m = createTaxonomy({
      lexicon,
      method: 'cutpoints',
      cutpoints: { classes: ['equivalent', 'partial', 'invalid'], cuts: [0.7, 0.3] },
    });
    expect(m.threshold).toBe(0.7);
    const rows = await m.scoreBatch([0.8, 0.5, 0.1].map(withCap), { writer: fakeWriter() });
    expect(rows.map((r) => [r.class, r.decision])).toEqual([
      ['equivalent', true],
      ['partial', false],
      ['invalid', false],
    ]);
    expect(rows[0]!.details!.cutpoints).toEqual({ classes: ['equivalent', 'partial', 'invalid'], cuts: [0.7, 0.3] });
    expect(createTaxonomy({ lexicon, method: 'cutpoints', cutpoints: { classes: ['partial', 'equivalent'], cuts: [0.5] } }).threshold).toBe(
      0.5,
    );
    expect(createTaxonomy({ lexicon, method: 'cutpoints', cutpoints: { classes: ['exact'], cuts: [] } }).threshold).toBe(0);
  });

  it('rejects malformed cut-points', () => {
    const bad = (classes: string[], cuts: number[]) => () =>
      createTaxonomy({ lexicon, method: 'cutpoints', cutpoints: { classes: classes as CapClass[], cuts } });
    expect(bad(['exact', 'great'], [0.5])).toThrow(/not a CAP class/);
    expect(bad(['exact', 'partial'], [])).toThrow(/need 1 cuts/);
    expect(bad(['exact', 'partial', 'invalid'], [0.3, 0.6])).toThrow(/descending/);
    expect(bad([], [])).toThrow(VerityError);
  });
});

describe('taxonomy: not applicable', () => {
  it('no model and no input probabilities → null with the reason, no class', async () => {
    for (const method of ['structured', 'cutpoints'] as const) {
      const [r] = await createTaxonomy({ lexicon, method }).scoreBatch([item(['Paris'], 'paris')], { writer: fakeWriter() });
      expect(r).toEqual({ score: null, decision: null, explanation: 'needs an NLI model, or nli probabilities in the input' });
    }
  });
});

describe('shared evidence', () => {
  it('cap + hierarchy + taxonomy on the same context write statements and run statement NLI once', async () => {
    const nli = fakeNli({
      'S:Paris => S:Paris city': ENT,
      'S:Paris city => S:Paris': ENT,
      'S:Paris, and it is in Germany => S:Paris': ENT,
    });
    const writer = fakeWriter();
    const ctx: RunContext = { nli, writer, evidence: new EvidenceCache() };
    const items = [item(['Paris', 'Lutetia'], 'Paris city'), item(['Rome'], 'Milan'), item(['Oslo'], 'oslo')];
    const metrics = [
      createCap(),
      createHierarchy(),
      createHierarchy({ strict: true }),
      createTaxonomy({ lexicon }),
      createTaxonomy({ lexicon, method: 'cutpoints' }),
    ];
    const [first, ...rest] = metrics;
    const firstRows = await first!.scoreBatch(items, ctx);
    const restRows = await Promise.all(rest.map((m) => m.scoreBatch(items, ctx)));
    // 2 golds × 2 directions + 2 + 2 pairs, all unique; single-clause candidates, so no clause pairs.
    expect(nli.calls).toBe(1);
    expect(nli.pairs).toHaveLength(8);
    expect(writer.calls).toBe(1);
    expect(firstRows[0]!.details!.chosen_gold).toBe('Paris');
    expect(restRows[0]![0]!.set).toBe('equivalent');
    expect(restRows[2]![0]!.class).toBe('equivalent');
    expect(restRows[2]![2]!.class).toBe('exact');

    // A multi-clause over-inclusive candidate: the taxonomy adds only its clause pairs to the shared evidence.
    const more = [item(['Paris'], 'Paris, and it is in Germany')];
    await createCap().scoreBatch(more, ctx);
    expect(nli.pairs).toHaveLength(10);
    const [r] = await createTaxonomy({ lexicon }).scoreBatch(more, ctx);
    expect(nli.pairs.slice(10)).toEqual([
      { premise: 'S:Paris', hypothesis: 'Paris' },
      { premise: 'S:Paris', hypothesis: 'it is in Germany' },
    ]);
    expect(r!.class).toBe('overinclusive-valid'); // both clauses neutral in this table
    expect(writer.calls).toBe(2);
  });
});
