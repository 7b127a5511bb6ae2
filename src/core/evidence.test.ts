/** Shared evidence across a run: repeated statements and NLI pairs are computed once, also across batches. */
import { describe, expect, it } from 'vitest';
import { classifyUnique, EvidenceCache, getEvidence, type RunContext } from './evidence.ts';
import { createCap } from './metrics/cap.ts';
import { scoreRows } from './scoring.ts';
import type { ModelContext, NliDistribution, NliPair, StatementItem } from './capabilities.ts';
import { Generations } from './util/memo.ts';
import type { QaItem } from './types.ts';

function counting() {
  const written: string[] = [];
  const classified: string[] = [];
  const batches: number[] = [];
  const ctx: RunContext = {
    evidence: new EvidenceCache(),
    writer: {
      name: 'fake-writer',
      write: async (items: StatementItem[]) =>
        items.map((it) => (written.push(`${it.question}|${it.answer}`), `${it.answer} is the answer to ${it.question}`)),
    },
    nli: {
      classify: async (pairs: NliPair[]) => {
        batches.push(pairs.length);
        return pairs.map((p) => (classified.push(`${p.premise}|${p.hypothesis}`), { entailment: 0.7, neutral: 0.2, contradiction: 0.1 }));
      },
    },
  };
  return { ctx, written, classified, batches };
}

const item = (candidate: string, golds = ['Paris', 'Paris, France']): QaItem => ({
  question: 'Where is the Eiffel Tower?',
  golds,
  candidate,
});

describe('getEvidence', () => {
  it('writes each (question, answer) once and classifies each pair once across batches', async () => {
    const { ctx, written, classified } = counting();
    await getEvidence(ctx, [item('Paris'), item('Lyon')]);
    await getEvidence(ctx, [item('Paris'), item('Lyon'), item('Rome')]);
    expect(written.sort()).toEqual([
      'Where is the Eiffel Tower?|Lyon',
      'Where is the Eiffel Tower?|Paris',
      'Where is the Eiffel Tower?|Paris, France',
      'Where is the Eiffel Tower?|Rome',
    ]);
    // Distinct pairs: candidates Paris, Lyon, Rome × golds Paris, "Paris, France" × 2 directions, where a
    // candidate statement equal to a gold statement still makes its own (identical-text) pair once.
    expect(new Set(classified).size).toBe(classified.length);
  });

  it('gives the same evidence whether rows come in one batch or several', async () => {
    const a = counting();
    const b = counting();
    const rows = [item('Paris'), item('Lyon'), item('Paris'), item('Rome', ['Rome'])];
    const one = await getEvidence(a.ctx, rows);
    const parts = [...(await getEvidence(b.ctx, rows.slice(0, 2))), ...(await getEvidence(b.ctx, rows.slice(2)))];
    expect(parts).toEqual(one);
    expect(b.written.length).toBe(a.written.length);
    expect(b.classified.length).toBe(a.classified.length);
  });
});

describe('classifyUnique', () => {
  it('hands the model up to 512 distinct pairs per call, shortest first, and maps results back', async () => {
    const { ctx, batches, classified } = counting();
    const pairs = Array.from({ length: 1100 }, (_, i) => ({ premise: `p${'x'.repeat((i % 550) % 37)}`, hypothesis: `h${i % 550}` }));
    const out = await classifyUnique(ctx.nli!, pairs);
    // 550 distinct pairs (i and i + 550 repeat): the model host gets them in few calls, to sort them by tokens.
    expect(batches).toEqual([512, 38]);
    expect(out).toHaveLength(1100);
    const lengths = classified.map((k) => k.length);
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
  });
});

describe('the run memo of NLI pairs', () => {
  const pair = (k: string): NliPair => ({ premise: `premise ${k}`, hypothesis: `hypothesis ${k}` });
  const model = () => {
    const seen: string[] = [];
    const nli = {
      classify: async (pairs: NliPair[]) =>
        pairs.map(
          (p) => (seen.push(p.premise), { entailment: p.premise.length / 100, neutral: 0, contradiction: 1 - p.premise.length / 100 }),
        ),
    };
    return { nli, seen };
  };
  const expected = (keys: string[]) =>
    keys.map((k) => ({ entailment: `premise ${k}`.length / 100, neutral: 0, contradiction: 1 - `premise ${k}`.length / 100 }));

  it('gives a pair it held when the batch began, even when new pairs fill it meanwhile', async () => {
    const { nli, seen } = model();
    const memo = new Generations<string, NliDistribution>(2);
    await classifyUnique(nli, [pair('a'), pair('bb')], memo);
    // "a" is held; "ccc", "dddd" and "eeeee" fill two generations and drop it on the way.
    const keys = ['a', 'ccc', 'dddd', 'eeeee', 'a'];
    expect(await classifyUnique(nli, keys.map(pair), memo)).toEqual(expected(keys));
    expect(seen.filter((p) => p === 'premise a')).toHaveLength(1);
  });

  it('keeps the last generation: a pair from it is not classified again, one dropped with the one before is', async () => {
    const { nli, seen } = model();
    const memo = new Generations<string, NliDistribution>(2);
    await classifyUnique(nli, ['a', 'bb', 'ccc'].map(pair), memo);
    const before = seen.length;
    expect(await classifyUnique(nli, ['bb', 'a'].map(pair), memo)).toEqual(expected(['bb', 'a']));
    expect(seen.slice(before)).toEqual([]);
    await classifyUnique(nli, ['dddd', 'eeeee', 'ffffff', 'ggggggg'].map(pair), memo);
    const later = seen.length;
    await classifyUnique(nli, ['a', 'ffffff'].map(pair), memo);
    expect(seen.slice(later)).toEqual(['premise a']);
  });
});

describe('the evidence cache belongs to one run', () => {
  it('two runs on the same models compute their own evidence; batches of one run share it', async () => {
    const { ctx, written } = counting();
    const models: ModelContext = { nli: ctx.nli!, writer: ctx.writer! };
    const rows = [item('Paris'), item('Lyon')];
    await scoreRows(rows, [createCap()], models);
    const once = written.length;
    expect(once).toBe(3); // Paris (a gold and a candidate: one statement), "Paris, France", Lyon
    // A second run with the same model context is a new run: nothing is remembered at module level.
    await scoreRows(rows, [createCap()], models);
    expect(written.length).toBe(2 * once);
    // Within one run, batches share the run's cache (batchSize 1 → two batches, no second write of Paris).
    const { ctx: c2, written: w2 } = counting();
    await scoreRows([item('Paris'), item('Paris')], [createCap()], { nli: c2.nli!, writer: c2.writer! }, { batchSize: 1 });
    expect(w2).toHaveLength(2);
  });
});
