import { describe, expect, it } from 'vitest';
import type { Nli, NliDistribution, NliPair } from '../capabilities.ts';
import { VerityError, type QaItem } from '../types.ts';
import { createNliLex, nliLexFeatures, nliLexHypothesis, nliLexPremise, NLI_LEX_DEFAULT_WEIGHTS } from './nli_lex.ts';

const d = (entailment: number, neutral: number, contradiction: number): NliDistribution => ({ entailment, neutral, contradiction });
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));
const Q = 'In which year did WWII end?';

/** P_ent looked up by (premise, hypothesis); 0.05 otherwise. Records the pairs it sees. */
function fakeNli(ent: Record<string, number>, fail?: string): Nli & { pairs: NliPair[] } {
  const f = {
    pairs: [] as NliPair[],
    async classify(pairs: NliPair[]) {
      if (fail) throw new Error(fail);
      f.pairs.push(...pairs);
      return pairs.map((p) => {
        const e = ent[`${p.premise} => ${p.hypothesis}`] ?? 0.05;
        return d(e, (1 - e) / 2, (1 - e) / 2);
      });
    },
  };
  return f;
}
const key = (candidate: string, ref: string, q = Q) => `${nliLexPremise(q, candidate)} => ${nliLexHypothesis(q, ref)}`;
const item = (golds: string[], candidate: string, extra: Partial<QaItem> = {}): QaItem => ({ question: Q, golds, candidate, ...extra });

describe('nli_lex', () => {
  it("uses the paper's premise / hypothesis format", () => {
    expect(nliLexPremise('Who?', 'Ann')).toBe('question: Who? answer: Ann');
    expect(nliLexHypothesis('Who?', 'Anne')).toBe('question: Who? ground truth: Anne');
  });

  it('lm on: se = 0.9, lm = 1 → σ(4·0.9 + 4·1 − 3.5) = σ(4.1)', async () => {
    const nli = fakeNli({ [key('It ended in 1945.', '1945')]: 0.9 });
    const [r] = await createNliLex().scoreBatch([item(['1945'], 'It ended in 1945.')], { nli });
    expect(r!.score).toBeCloseTo(sigmoid(4.1), 12);
    expect(r!.score).toBeCloseTo(0.9837, 5);
    expect(r!.decision).toBe(true);
    expect(r!.explanation).toBe('se=0.9 (ref "1945"), lm=1 (ref "1945") → P=0.984');
    expect(r!.details).toMatchObject({
      se: 0.9,
      lm: 1,
      premise: `question: ${Q} answer: It ended in 1945.`,
      weights: NLI_LEX_DEFAULT_WEIGHTS,
      nli_source: 'model',
    });
    expect(r!.details!.logit).toBeCloseTo(4.1, 12);
    expect(nli.pairs).toEqual([{ premise: `question: ${Q} answer: It ended in 1945.`, hypothesis: `question: ${Q} ground truth: 1945` }]);
  });

  it('lm off: se = 0.2, lm = 0 → σ(0.8 − 3.5); each feature alone', async () => {
    const nli = fakeNli({ [key('It ended in 1944.', '1945')]: 0.2, [key('Nineteen forty-five, I think', '1945')]: 0.95 });
    const [off, seOnly, lmOnly] = await createNliLex().scoreBatch(
      [item(['1945'], 'It ended in 1944.'), item(['1945'], 'Nineteen forty-five, I think'), item(['1945'], 'Not 1945, surely')],
      { nli },
    );
    expect(off!.score).toBeCloseTo(sigmoid(-2.7), 12);
    expect(off!.decision).toBe(false);
    expect(off!.details).toMatchObject({ se: 0.2, lm: 0 });
    expect(seOnly!.score).toBeCloseTo(sigmoid(4 * 0.95 - 3.5), 12);
    expect(seOnly!.decision).toBe(true);
    expect(lmOnly!.score).toBeCloseTo(sigmoid(4 * 0.05 + 4 - 3.5), 12);
    expect(lmOnly!.decision).toBe(true);
  });

  it('lm is number-aware and on token boundaries (as lexical_match)', async () => {
    const nli = fakeNli({});
    const rows = await createNliLex().scoreBatch(
      [item(['twelve'], 'There are 12 of them'), item(['1'], 'In 1990'), item(['977,633'], 'about 977633 people')],
      { nli },
    );
    expect(rows.map((r) => r.details!.lm)).toEqual([1, 0, 1]);
  });

  it('several references: each feature is maxed over references; details keep every reference', async () => {
    const nli = fakeNli({ [key('Paris, the capital', 'City of Light')]: 0.8, [key('Paris, the capital', 'Paris')]: 0.3 });
    const [r] = await createNliLex().scoreBatch([item(['City of Light', 'Paris', 'Lutetia'], 'Paris, the capital')], { nli });
    expect(r!.details).toMatchObject({ se: 0.8, lm: 1 });
    expect(r!.score).toBeCloseTo(sigmoid(4 * 0.8 + 4 - 3.5), 12);
    expect(r!.explanation).toBe('se=0.8 (ref "City of Light"), lm=1 (ref "Paris") → P=0.976');
    const refs = r!.details!.per_reference as { reference: string; se: number; lm: number; hypothesis: string }[];
    expect(refs.map((x) => [x.reference, x.se, x.lm])).toEqual([
      ['City of Light', 0.8, 0],
      ['Paris', 0.3, 1],
      ['Lutetia', 0.05, 0],
    ]);
    expect(refs[1]!.hypothesis).toBe(`question: ${Q} ground truth: Paris`);
  });

  it('weights and threshold are options (partial weights keep the other defaults)', async () => {
    const nli = fakeNli({ [key('It ended in 1944.', '1945')]: 0.7 });
    const [r] = await createNliLex({ weights: { se: 1, lm: 0, bias: 0 }, threshold: 0.7 }).scoreBatch(
      [item(['1945'], 'It ended in 1944.')],
      { nli },
    );
    expect(r!.score).toBeCloseTo(sigmoid(0.7), 12);
    expect(r!.decision).toBe(false);
    const [p] = await createNliLex({ weights: { bias: 0 } }).scoreBatch([item(['1945'], 'It ended in 1944.')], { nli });
    expect(p!.score).toBeCloseTo(sigmoid(4 * 0.7), 12);
    expect(() => createNliLex({ weights: { se: Number.NaN } })).toThrow(VerityError);
  });

  it('nliLexFeatures gives [se, lm] per item for calibration, null where it does not apply', async () => {
    const nli = fakeNli({ [key('It ended in 1945.', '1945')]: 0.9 });
    expect(await nliLexFeatures([item(['1945'], 'It ended in 1945.'), item(['1945'], 'Rome'), item([], 'x')], { nli })).toEqual([
      [0.9, 1],
      [0.05, 0],
      null,
    ]);
    expect(await nliLexFeatures([item(['1945'], 'It ended in 1945.')], {})).toEqual([null]);
  });

  it('classifies each unique pair once, across items', async () => {
    const nli = fakeNli({});
    await createNliLex().scoreBatch([item(['1945', '1945'], 'x'), item(['1945'], 'x'), item(['1945'], 'y')], { nli });
    expect(nli.pairs).toHaveLength(2);
  });

  it('no model → null with the reason, even when the row carries statement-pair probabilities', async () => {
    const provided = { goldToCandidate: d(0.9, 0.1, 0), candidateToGold: d(0.9, 0.1, 0) };
    const [plain, withNli] = await createNliLex().scoreBatch([item(['1945'], '1945'), item(['1945'], '1945', { nli: [provided] })], {});
    expect(plain).toEqual({ score: null, decision: null, explanation: 'needs an NLI model' });
    expect(withNli!.score).toBeNull();
    expect(withNli!.explanation).toMatch(/needs an NLI model: the nli probabilities in the input are for statement pairs/);
  });

  it('no gold, or a failing model → null with the reason', async () => {
    const [none] = await createNliLex().scoreBatch([item([], 'x')], { nli: fakeNli({}) });
    expect(none).toEqual({ score: null, decision: null, explanation: 'no gold answer' });
    const [f] = await createNliLex().scoreBatch([item(['a'], 'x')], { nli: fakeNli({}, 'boom') });
    expect(f).toEqual({ score: null, decision: null, explanation: 'the NLI model failed: boom' });
  });

  it('declares what it needs', () => {
    const m = createNliLex();
    expect(m.name).toBe('nli_lex');
    expect(m.needs).toEqual(['nli']);
    expect(m.threshold).toBe(0.5);
  });
});
