import { describe, expect, it } from 'vitest';
import type { Embedder, TokenEmbeddings } from '../capabilities.ts';
import { isBatchMetric, type QaItem } from '../types.ts';
import { createMetric } from './index.ts';
import { clampPrf, createBertScore, greedyMatch, idfTable } from './bertscore.ts';

/**
 * Token vectors (unit length unless noted), so cosines are dot products:
 *   cat·kitten 0.8, cat·dog 0.6, the·dog 0.8, kitten·dog 0.48, kitten·sat 0.6, a·the 0.8, a·dog 0.64,
 *   not = −cat; "big" = 2·cat (not unit: the metric must normalize).
 */
const VEC: Record<string, number[]> = {
  cat: [1, 0, 0],
  kitten: [0.8, 0.6, 0],
  the: [0, 0, 1],
  sat: [0, 1, 0],
  dog: [0.6, 0, 0.8],
  a: [0, 0.6, 0.8],
  not: [-1, 0, 0],
  big: [2, 0, 0],
};

/** Whitespace tokens with fixed vectors; counts calls and texts. */
function fakeEmbedder(): Embedder & { tokenCalls: string[][] } {
  const tokenCalls: string[][] = [];
  return {
    tokenCalls,
    async embed() {
      throw new Error('not used');
    },
    async embedTokens(texts: string[]): Promise<TokenEmbeddings[]> {
      tokenCalls.push(texts);
      return texts.map((t) => {
        const tokens = t.split(/\s+/).filter(Boolean);
        return { tokens, vectors: tokens.map((w) => Float32Array.from(VEC[w] ?? [0, 0, 0])) };
      });
    },
  };
}

const item = (golds: string[], candidate: string): QaItem => ({ question: '', golds, candidate });
const LN3 = Math.log(3);
const LN15 = Math.log(3 / 2);

describe('bertscore without idf (hand-computed)', () => {
  it('"the kitten" vs "the cat": P = R = (1 + 0.8)/2 = 0.9, F = 0.9', async () => {
    const [r] = await createBertScore().scoreBatch([item(['the cat'], 'the kitten')], { embedder: fakeEmbedder() });
    expect(r!.score).toBeCloseTo(0.9, 6);
    expect(r!.details?.precision).toBeCloseTo(0.9, 6);
    expect(r!.details?.recall).toBeCloseTo(0.9, 6);
    expect(r!.decision).toBe(true);
  });
  it('"the kitten sat" vs "the cat": P = (1 + 0.8 + 0)/3 = 0.6, R = (1 + 0.8)/2 = 0.9, F = 0.72 < 0.8', async () => {
    const m = createBertScore();
    expect(m.threshold).toBe(0.8);
    expect(m.needs).toEqual(['embedder']);
    const [r] = await m.scoreBatch([item(['the cat'], 'the kitten sat')], { embedder: fakeEmbedder() });
    expect(r!.details?.precision).toBeCloseTo(0.6, 6);
    expect(r!.details?.recall).toBeCloseTo(0.9, 6);
    expect(r!.score).toBeCloseTo(0.72, 6);
    expect(r!.decision).toBe(false);
    expect(r!.explanation).toBe('best gold "the cat": P=0.6 R=0.9 F=0.72');
  });
  it('normalizes token vectors: "big" (= 2·cat) vs "cat" → 1', async () => {
    const [r] = await createBertScore().scoreBatch([item(['cat'], 'big')], { embedder: fakeEmbedder() });
    expect(r!.score).toBeCloseTo(1, 6);
  });
  it('several golds → the best F, with its P and R', async () => {
    // vs "the dog": P = (max(1, 0.8) + max(0, 0.48))/2 = 0.74, R = (1 + max(0.8, 0.48))/2 = 0.9, F = 1.332/1.64
    // vs "the cat": F = 0.9 → chosen
    const e = fakeEmbedder();
    const [r] = await createBertScore().scoreBatch([item(['the dog', 'the cat'], 'the kitten')], { embedder: e });
    expect(r!.details?.matched_gold).toBe('the cat');
    expect(r!.score).toBeCloseTo(0.9, 6);
    const dog = greedyMatch(
      ['the', 'kitten'].map((w) => Float32Array.from(VEC[w]!)),
      ['the', 'dog'].map((w) => Float32Array.from(VEC[w]!)),
    );
    expect(dog.precision).toBeCloseTo(0.74, 6);
    expect(dog.recall).toBeCloseTo(0.9, 6);
    expect(dog.f1).toBeCloseTo(1.332 / 1.64, 6);
  });
  it('negative cosines: raw F < 0 is kept in details, the score is clamped to 0', async () => {
    const [r] = await createBertScore().scoreBatch([item(['cat'], 'not')], { embedder: fakeEmbedder() });
    expect(r!.score).toBe(0);
    expect(r!.decision).toBe(false);
    const raw = r!.details?.raw as { precision: number; recall: number; f1: number };
    expect(raw.precision).toBeCloseTo(-1, 6);
    expect(raw.f1).toBeCloseTo(-1, 6);
    // mixed signs: raw bert-score F would be 2·(−0.2)(0.1)/(−0.1) = 0.4; clamped P = 0 → F = 0
    expect(clampPrf({ precision: -0.2, recall: 0.1, f1: 0.4 })).toEqual({ precision: 0, recall: 0.1, f1: 0 });
  });
  it('empty candidate → 0; no gold → 0', async () => {
    const res = await createBertScore().scoreBatch([item(['the cat'], ''), item([], 'the cat')], { embedder: fakeEmbedder() });
    expect(res[0]).toMatchObject({ score: 0, decision: false, explanation: 'empty candidate' });
    expect(res[1]).toEqual({ score: 0, decision: false, explanation: 'no gold answer' });
  });
  it('one embedTokens call over the unique texts of the batch', async () => {
    const e = fakeEmbedder();
    await createBertScore().scoreBatch([item(['the cat'], 'the kitten'), item(['the cat', 'the dog'], 'the cat')], { embedder: e });
    expect(e.tokenCalls).toEqual([['the kitten', 'the cat', 'the dog']]);
  });
});

describe('bertscore with idf (hand-computed)', () => {
  // Batch golds "the cat", "the dog": M = 2; df(the) = 2 → idf 0; cat, dog → ln(3/2); kitten, sat, a → ln 3.
  const batch = [item(['the cat'], 'the kitten sat'), item(['the dog'], 'a dog')];
  it('idf table', () => {
    const idf = idfTable([
      ['the', 'cat'],
      ['the', 'dog'],
    ]);
    expect(idf('the')).toBe(0);
    expect(idf('cat')).toBeCloseTo(LN15, 12);
    expect(idf('kitten')).toBeCloseTo(LN3, 12);
  });
  it('"the kitten sat" vs "the cat": P = 0.8·ln3 / (2·ln3) = 0.4, R = 0.8, F = 0.64/1.2', async () => {
    const res = await createBertScore({ idf: true }).scoreBatch(batch, { embedder: fakeEmbedder() });
    expect(res[0]!.details?.precision).toBeCloseTo(0.4, 6);
    expect(res[0]!.details?.recall).toBeCloseTo(0.8, 6);
    expect(res[0]!.score).toBeCloseTo(0.64 / 1.2, 6);
    expect(res[0]!.explanation).toMatch(/ \(idf\)$/);
  });
  it('the option bertscore.idf=on is this weighting: the same P, R and F', async () => {
    const m = createMetric('bertscore', { options: { bertscore: { idf: 'on' } } });
    const res = isBatchMetric(m) ? await m.scoreBatch(batch, { embedder: fakeEmbedder() }) : [];
    expect(res[0]!.details?.precision).toBeCloseTo(0.4, 6);
    expect(res[0]!.score).toBeCloseTo(0.64 / 1.2, 6);
  });
  it('"a dog" vs "the dog": P = (0.8·ln3 + 1·ln1.5)/(ln3 + ln1.5), R = 1 (the weighs 0)', async () => {
    const res = await createBertScore({ idf: true }).scoreBatch(batch, { embedder: fakeEmbedder() });
    const p = (0.8 * LN3 + LN15) / (LN3 + LN15);
    expect(res[1]!.details?.precision).toBeCloseTo(p, 6);
    expect(res[1]!.details?.recall).toBeCloseTo(1, 6);
    expect(res[1]!.score).toBeCloseTo((2 * p) / (p + 1), 6);
    // without idf: P = (0.8 + 1)/2 = 0.9, R = (0.8 + 1)/2 = 0.9
    const [plain] = await createBertScore().scoreBatch([batch[1]!], { embedder: fakeEmbedder() });
    expect(plain!.score).toBeCloseTo(0.9, 6);
  });
  it('every idf 0 (a single gold in the batch) → uniform weights instead of NaN, reported', async () => {
    const [r] = await createBertScore({ idf: true }).scoreBatch([item(['the cat'], 'the cat')], { embedder: fakeEmbedder() });
    expect(r!.score).toBeCloseTo(1, 6);
    expect(r!.details?.idf_fallback).toEqual(['candidate', 'reference']);
  });
});

describe('bertscore without token embeddings', () => {
  it('embedder without embedTokens → null with a reason', async () => {
    const e: Embedder = { embed: async (t) => t.map(() => new Float32Array(3)) };
    const res = await createBertScore().scoreBatch([item(['a'], 'a'), item([], 'a')], { embedder: e });
    expect(res[0]).toEqual({
      score: null,
      decision: null,
      explanation: 'not available: the loaded embedder gives no token embeddings (embedTokens), which BERTScore needs',
    });
    expect(res[1]!.score).toBe(0);
  });
  it('no embedder → null with a reason', async () => {
    const [r] = await createBertScore().scoreBatch([item(['a'], 'a')], {});
    expect(r).toEqual({
      score: null,
      decision: null,
      explanation: 'not available: BERTScore needs an embedder with token embeddings (none loaded)',
    });
  });
  it('a mismatched embedder answer is an error', async () => {
    const e: Embedder = { embed: async () => [], embedTokens: async () => [] };
    await expect(createBertScore().scoreBatch([item(['a'], 'b')], { embedder: e })).rejects.toThrow(/for 0 of 2 texts/);
  });
});
