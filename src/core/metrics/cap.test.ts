import { describe, expect, it } from 'vitest';
import type { Nli, NliDistribution, NliPair, StatementWriter } from '../capabilities.ts';
import { VerityError, type ProvidedNli, type QaItem } from '../types.ts';
import { capForGold, createCap } from './cap.ts';
import { EvidenceCache, type RunContext } from '../evidence.ts';

const d = (entailment: number, neutral: number, contradiction: number): NliDistribution => ({ entailment, neutral, contradiction });
const NEUTRAL = d(0.1, 0.8, 0.1);

/** Deterministic NLI: a (premise, hypothesis) table, NEUTRAL otherwise; records every pair it sees. */
function fakeNli(table: Record<string, NliDistribution>, fail?: string): Nli & { pairs: NliPair[]; calls: number } {
  const f = {
    pairs: [] as NliPair[],
    calls: 0,
    async classify(pairs: NliPair[]) {
      f.calls++;
      if (fail) throw new Error(fail);
      f.pairs.push(...pairs);
      return pairs.map((p) => table[`${p.premise} => ${p.hypothesis}`] ?? NEUTRAL);
    },
  };
  return f;
}
/** Statements "S:<answer>", whatever the question. */
const writer: StatementWriter = { name: 'fake-writer', write: async (items) => items.map((it) => `S:${it.answer}`) };

const item = (golds: string[], candidate: string, nli?: ProvidedNli[]): QaItem => ({
  question: 'Q?',
  golds,
  candidate,
  ...(nli ? { nli } : {}),
});
const GP = d(0.7, 0.2, 0.1);
const PG = d(0.4, 0.5, 0.1);

describe('cap', () => {
  it('pins the hand-computed value: D_gp = 0.76, D_pg = 0.55, CAP = 0.85·0.76 + 0.15·0.55 = 0.646 + 0.0825 = 0.7285 (input probabilities)', async () => {
    const [r] = await createCap().scoreBatch([item(['Paris'], 'In Paris', [{ goldToCandidate: GP, candidateToGold: PG }])], { writer });
    expect(r!.score).toBeCloseTo(0.7285, 12);
    expect(r!.decision).toBe(true);
    expect(r!.explanation).toBe('gold "Paris": D(g→p)=0.76, D(p→g)=0.55 → CAP=0.729');
    const det = r!.details!;
    expect(det.nli_source).toBe('input');
    expect(det.writer).toBe('fake-writer');
    expect(det.gold_statements).toEqual(['S:Paris']);
    expect(det.candidate_statement).toBe('S:In Paris');
    expect(det.chosen_gold).toBe('Paris');
    const row = (det.per_gold as Record<string, unknown>[])[0]!;
    expect(row.g_to_p).toEqual(GP);
    expect(row.p_to_g).toEqual(PG);
    expect(row.d_gp).toBeCloseTo(0.76, 12);
    expect(row.d_pg).toBeCloseTo(0.55, 12);
  });

  it('computes the same from the model, in both directions', async () => {
    const nli = fakeNli({ 'S:Paris => S:In Paris': GP, 'S:In Paris => S:Paris': PG });
    const [r] = await createCap().scoreBatch([item(['Paris'], 'In Paris')], { nli, writer });
    expect(r!.score).toBeCloseTo(0.7285, 12);
    expect(r!.details!.nli_source).toBe('model');
    expect(nli.pairs).toHaveLength(2);
  });

  it('several golds: the best gold is chosen and named; ties go to the first gold', async () => {
    const low = { goldToCandidate: d(0.2, 0.3, 0.5), candidateToGold: d(0.1, 0.2, 0.7) };
    const high = { goldToCandidate: GP, candidateToGold: PG };
    const [best, tie] = await createCap().scoreBatch(
      [item(['Lyon', 'Paris'], 'In Paris', [low, high]), item(['Paris', 'Paris, France'], 'In Paris', [high, high])],
      { writer },
    );
    expect(best!.score).toBeCloseTo(0.7285, 12);
    expect(best!.details!.chosen_gold).toBe('Paris');
    expect(best!.details!.chosen_gold_index).toBe(1);
    expect(best!.explanation).toMatch(/^gold "Paris" \(best of 2 golds\)/);
    expect((best!.details!.per_gold as { score: number }[])[0]!.score).toBeCloseTo(0.85 * (0.2 + 0.09) + 0.15 * (0.1 + 0.06), 12);
    expect(tie!.details!.chosen_gold_index).toBe(0);
  });

  it.each([
    ['cap', 'cap', 0.7285],
    ['ent_gp', 'cap_ent_gp', 0.7],
    ['gp_lambda', 'cap_gp_lambda', 0.76],
    ['pg', 'cap_pg', 0.55],
    ['bidirectional', 'cap_bidirectional', (0.76 + 0.55) / 2],
  ] as const)('variant %s (%s) = %d', async (variant, name, expected) => {
    const m = createCap({ variant });
    expect(m.name).toBe(name);
    expect(m.needs).toEqual(['nli', 'writer']);
    const [r] = await m.scoreBatch([item(['Paris'], 'In Paris', [{ goldToCandidate: GP, candidateToGold: PG }])], { writer });
    expect(r!.score).toBeCloseTo(expected, 12);
    expect(r!.details!.variant).toBe(variant);
  });

  it('takes α, λ and the threshold as options', async () => {
    const nli = [{ goldToCandidate: GP, candidateToGold: PG }];
    const [r] = await createCap({ alpha: 0.5, lambda: 0, threshold: 0.6 }).scoreBatch([item(['Paris'], 'In Paris', nli)], { writer });
    expect(r!.score).toBeCloseTo(0.5 * 0.7 + 0.5 * 0.4, 12);
    expect(r!.decision).toBe(false);
    expect(createCap({ threshold: 0.7 }).threshold).toBe(0.7);
    expect(createCap().threshold).toBe(0.5);
  });

  it('clamps float noise to [0, 1]', () => {
    expect(
      capForGold({ goldToCandidate: d(1 + 1e-12, 0, 0), candidateToGold: d(1 + 1e-12, 0, 0) }, { alpha: 0.85, lambda: 0.3, variant: 'cap' })
        .score,
    ).toBe(1);
    expect(
      capForGold({ goldToCandidate: d(-1e-12, 0, 1), candidateToGold: d(-1e-12, 0, 1) }, { alpha: 0.85, lambda: 0.3, variant: 'cap' })
        .score,
    ).toBe(0);
  });

  it('no model and no input probabilities → null with the reason', async () => {
    const [r] = await createCap().scoreBatch([item(['Paris'], 'In Paris')], { writer });
    expect(r).toEqual({ score: null, decision: null, explanation: 'needs an NLI model, or nli probabilities in the input' });
  });

  it('no gold, or a failing model → null with the reason', async () => {
    const [r] = await createCap().scoreBatch([item([], 'In Paris')], { nli: fakeNli({}), writer });
    expect(r!.score).toBeNull();
    expect(r!.decision).toBeNull();
    expect(r!.explanation).toBe('no gold answer');
    const [f] = await createCap().scoreBatch([item(['Paris'], 'In Paris')], { nli: fakeNli({}, 'out of memory'), writer });
    expect(f).toEqual({ score: null, decision: null, explanation: 'the NLI model failed: out of memory' });
  });

  it('rejects bad options', () => {
    expect(() => createCap({ alpha: 1.5 })).toThrow(VerityError);
    expect(() => createCap({ lambda: -0.1 })).toThrow(/λ/);
    expect(() => createCap({ variant: 'nope' as never })).toThrow(/unknown CAP variant/);
    expect(() => createCap({ threshold: Number.NaN })).toThrow(/threshold/);
  });

  it('shares evidence across calls on the same context', async () => {
    const nli = fakeNli({});
    const ctx: RunContext = { nli, writer, evidence: new EvidenceCache() };
    const items = [item(['Paris', 'Lyon'], 'In Paris'), item(['Rome'], 'Rome')];
    await createCap().scoreBatch(items, ctx);
    await createCap({ variant: 'pg' }).scoreBatch(items, ctx);
    // 2 golds × 2 directions for the first item; "S:Rome => S:Rome" is one unique pair for the second.
    expect(nli.pairs).toHaveLength(5);
  });
});
