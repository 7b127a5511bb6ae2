import { describe, expect, it } from 'vitest';
import type { Nli, NliDistribution, NliPair, StatementWriter } from '../capabilities.ts';
import { VerityError, type EntailmentSet, type ProvidedNli, type QaItem } from '../types.ts';
import { createHierarchy, entailmentSet } from './hierarchy.ts';

const d = (entailment: number, neutral: number, contradiction: number): NliDistribution => ({ entailment, neutral, contradiction });
/** p→g and g→p entailment probabilities; the rest of each distribution is neutral. */
const pair = (pg: number, gp: number): ProvidedNli => ({ candidateToGold: d(pg, 1 - pg, 0), goldToCandidate: d(gp, 1 - gp, 0) });
const writer: StatementWriter = { name: 'fake-writer', write: async (items) => items.map((it) => `S:${it.answer}`) };
const item = (golds: string[], nli?: ProvidedNli[], candidate = 'cand'): QaItem => ({
  question: 'Q?',
  golds,
  candidate,
  ...(nli ? { nli } : {}),
});

describe('hierarchy', () => {
  const cases: [string, ProvidedNli, EntailmentSet, number, boolean, number, boolean][] = [
    // name, nli, set, default score, default decision, strict score, strict decision
    ['superior (p→g only)', pair(0.9, 0.2), 'superior', 0.9, true, 0.9, true],
    ['inferior (g→p only)', pair(0.2, 0.9), 'inferior', 0.9, true, 0.2, false],
    ['equivalent (both)', pair(0.8, 0.7), 'equivalent', 0.8, true, 0.8, true],
    ['incorrect (neither)', pair(0.3, 0.4), 'incorrect', 0.4, false, 0.3, false],
  ];
  it.each(cases)('%s', async (_name, nli, set, score, decision, strictScore, strictDecision) => {
    expect(entailmentSet(nli, 0.5)).toBe(set);
    const [r] = await createHierarchy().scoreBatch([item(['Paris'], [nli])], { writer });
    expect(r).toMatchObject({ set, score, decision });
    const [s] = await createHierarchy({ strict: true }).scoreBatch([item(['Paris'], [nli])], { writer });
    expect(s).toMatchObject({ set, score: strictScore, decision: strictDecision });
  });

  it('explains the set with both probabilities; details carry the evidence', async () => {
    const [r] = await createHierarchy().scoreBatch([item(['Paris'], [pair(0.9, 0.2)])], { writer });
    expect(r!.explanation).toBe('superior to gold "Paris": P_ent(p→g)=0.9 ≥ 0.5, P_ent(g→p)=0.2 < 0.5');
    expect(r!.details).toMatchObject({
      nli_source: 'input',
      writer: 'fake-writer',
      gold_statements: ['S:Paris'],
      candidate_statement: 'S:cand',
      chosen_gold: 'Paris',
      tau: 0.5,
    });
    const [n] = await createHierarchy().scoreBatch([item(['Paris'], [pair(0.3, 0.4)])], { writer });
    expect(n!.explanation).toBe('incorrect for gold "Paris": P_ent(p→g)=0.3 < 0.5, P_ent(g→p)=0.4 < 0.5');
  });

  it('P_ent = τ holds; τ is an option and the threshold', async () => {
    expect(entailmentSet(pair(0.5, 0.5), 0.5)).toBe('equivalent');
    const m = createHierarchy({ tau: 0.8 });
    expect(m.threshold).toBe(0.8);
    expect(m.name).toBe('hierarchy');
    expect(createHierarchy({ strict: true }).name).toBe('hierarchy_strict');
    const [r] = await m.scoreBatch([item(['Paris'], [pair(0.9, 0.7)])], { writer });
    expect(r).toMatchObject({ set: 'superior', decision: true });
  });

  it('several golds: the best set wins (equivalent > superior > inferior > incorrect), then the higher score, then the first gold', async () => {
    const [a, b, c] = await createHierarchy().scoreBatch(
      [
        item(['A', 'B'], [pair(0.1, 0.95), pair(0.6, 0.1)]), // inferior 0.95 vs superior 0.6 → superior; score = max over golds
        item(['A', 'B', 'C'], [pair(0.6, 0.1), pair(0.7, 0.2), pair(0.55, 0.6)]), // superior, superior (higher), equivalent → equivalent
        item(['A', 'B'], [pair(0.7, 0.2), pair(0.7, 0.2)]), // tie → first
      ],
      { writer },
    );
    expect(a).toMatchObject({ set: 'superior', score: 0.95, decision: true, details: { chosen_gold: 'B', chosen_gold_index: 1 } });
    expect(a!.explanation).toMatch(/^superior to gold "B" \(best of 2 golds\)/);
    expect(b).toMatchObject({ set: 'equivalent', score: 0.7, details: { chosen_gold: 'C' } });
    expect(c).toMatchObject({ set: 'superior', details: { chosen_gold_index: 0 } });
    const [s] = await createHierarchy({ strict: true }).scoreBatch([item(['A', 'B'], [pair(0.1, 0.95), pair(0.6, 0.1)])], { writer });
    expect(s).toMatchObject({ set: 'superior', score: 0.6, decision: true });
  });

  it('decision ⇔ score ≥ τ in both modes', async () => {
    let seed = 7;
    const rnd = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const items = Array.from({ length: 200 }, (_, i) =>
      item(
        Array.from({ length: 1 + (i % 3) }, (_, k) => `g${k}`),
        Array.from({ length: 1 + (i % 3) }, () => pair(rnd(), rnd())),
      ),
    );
    for (const strict of [false, true]) {
      for (const tau of [0.3, 0.5, 0.9]) {
        const m = createHierarchy({ strict, tau });
        for (const r of await m.scoreBatch(items, { writer })) expect(r.decision).toBe(r.score! >= tau);
      }
    }
  });

  it('uses the model when the row carries no probabilities; without either → null with the reason', async () => {
    const nli: Nli = {
      classify: async (pairs: NliPair[]) => pairs.map((p) => (p.premise === 'S:cand' ? d(0.9, 0.1, 0) : d(0.1, 0.9, 0))),
    };
    const [r] = await createHierarchy().scoreBatch([item(['Paris'])], { nli, writer });
    expect(r).toMatchObject({ set: 'superior', score: 0.9, details: { nli_source: 'model' } });
    const [n] = await createHierarchy().scoreBatch([item(['Paris'])], { writer });
    expect(n).toEqual({ score: null, decision: null, explanation: 'needs an NLI model, or nli probabilities in the input' });
    expect(n!.set).toBeUndefined();
  });

  it('rejects τ outside (0, 1]', () => {
    expect(() => createHierarchy({ tau: 0 })).toThrow(VerityError);
    expect(() => createHierarchy({ tau: 1.2 })).toThrow(/τ/);
  });
});
