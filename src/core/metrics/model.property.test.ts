import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Embedder, ModelContext, Nli, NliDistribution, Ranker, StatementWriter, TokenEmbeddings } from '../capabilities.ts';
import { CAP_CLASSES, type BatchMetric, type MetricResult, type ProvidedNli, type QaItem } from '../types.ts';
import { scoreRows } from '../scoring.ts';
import { ADVERSARIAL_PIECES } from '../text/adversarial.ts';
import { createMetric, MODEL_METRICS, VARIANT_METRICS } from './index.ts';
import { CORRECT_CLASSES } from './taxonomy.ts';
import { withWordNet } from '../../../test/lexicon.ts';

const piece = fc.constantFrom(...ADVERSARIAL_PIECES);
/** Hostile pieces glued or spaced, any code points, and any UTF-16 units (lone surrogates included). */
const text = fc.oneof(
  { arbitrary: fc.array(piece, { maxLength: 10 }).map((p) => p.join('')), weight: 3 },
  { arbitrary: fc.array(piece, { maxLength: 10 }).map((p) => p.join(' ')), weight: 3 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 24 }), weight: 1 },
  { arbitrary: fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 24 }), weight: 1 },
);

/** FNV-1a with a seed: the fakes' deterministic "model". */
function hash(s: string, seed: number): number {
  let h = (2166136261 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h;
}
const unit = (s: string, seed: number): number => hash(s, seed) / 2 ** 32;

/** How the fake NLI answers: from the text's hash, or always one label (the edges of the simplex). */
type NliMode = 'hash' | 'entail' | 'neutral' | 'contradict';
function distribution(key: string, seed: number, mode: NliMode): NliDistribution {
  if (mode === 'entail') return { entailment: 1, neutral: 0, contradiction: 0 };
  if (mode === 'neutral') return { entailment: 0, neutral: 1, contradiction: 0 };
  if (mode === 'contradict') return { entailment: 0, neutral: 0, contradiction: 1 };
  const [a, b] = [unit(key, seed), unit(key, seed + 1)].sort((x, y) => x - y) as [number, number];
  return { entailment: a, neutral: b - a, contradiction: 1 - b };
}
const fakeNli = (seed: number, mode: NliMode): Nli => ({
  classify: async (pairs) => pairs.map((p) => distribution(`${p.premise}\u0000${p.hypothesis}`, seed, mode)),
});
/** Relevance slightly outside [0, 1] as well: the metric clamps. */
const fakeRanker = (seed: number): Ranker => ({ score: async (q, docs) => docs.map((d) => unit(`${q}\u0000${d}`, seed) * 1.2 - 0.1) });
/** 4-d vectors from the hash (an empty text gets the zero vector); one token per whitespace-separated word. */
const vector = (s: string, seed: number): Float32Array =>
  s === '' ? new Float32Array(4) : Float32Array.from([0, 1, 2, 3], (k) => unit(s, seed + k) * 2 - 1);
const fakeEmbedder = (seed: number): Embedder => ({
  embed: async (texts) => texts.map((t) => vector(t, seed)),
  embedTokens: async (texts): Promise<TokenEmbeddings[]> =>
    texts.map((t) => {
      const tokens = t.split(/\s+/).filter(Boolean);
      return { tokens, vectors: tokens.map((w) => vector(w, seed)) };
    }),
});
const fakeWriter: StatementWriter = { name: 'fake', write: async (items) => items.map((it) => `S: ${it.question} → ${it.answer}`) };

const ctxArb = fc.record({ seed: fc.integer(), mode: fc.constantFrom<NliMode>('hash', 'hash', 'entail', 'neutral', 'contradict') });
const makeCtx = ({ seed, mode }: { seed: number; mode: NliMode }): ModelContext => ({
  nli: fakeNli(seed, mode),
  ranker: fakeRanker(seed),
  embedder: fakeEmbedder(seed),
  writer: fakeWriter,
});

const dist = fc
  .tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }))
  .map(([a, b]): NliDistribution => ({ entailment: Math.min(a, b), neutral: Math.abs(a - b), contradiction: 1 - Math.max(a, b) }));
const itemArb: fc.Arbitrary<QaItem> = fc
  .record(
    {
      question: text,
      golds: fc.array(text, { maxLength: 3 }),
      candidate: text,
      choices: fc.array(text, { maxLength: 3 }),
      wrongAnswers: fc.array(text, { maxLength: 3 }),
      withNli: fc.boolean(),
      withStatements: fc.boolean(),
      nliSeed: fc.array(fc.tuple(dist, dist), { minLength: 3, maxLength: 3 }),
      statements: fc.record({ gold: fc.array(text, { minLength: 3, maxLength: 3 }), candidate: text }),
    },
    { requiredKeys: ['question', 'golds', 'candidate'] },
  )
  .map(({ withNli, withStatements, nliSeed, statements, ...it }) => {
    const n = it.golds.length;
    const out: QaItem = { ...it };
    // As mapRows validates them: one entry per gold.
    if (withNli && nliSeed && n > 0)
      out.nli = nliSeed.slice(0, n).map(([g, p]): ProvidedNli => ({ goldToCandidate: g, candidateToGold: p }));
    if (withStatements && statements && n > 0) out.statements = { gold: statements.gold.slice(0, n), candidate: statements.candidate };
    return out;
  });
const batchArb = fc.array(itemArb, { minLength: 1, maxLength: 6 });

const NAMES = [...MODEL_METRICS, ...VARIANT_METRICS];
const metric = (name: string) => createMetric(name, {}, withWordNet) as BatchMetric;

/** Each metric's documented decision rule. */
function checkDecision(name: string, threshold: number, r: MetricResult): void {
  if (r.score === null) return;
  if (name.startsWith('taxonomy')) {
    expect(CAP_CLASSES).toContain(r.class);
    expect(r.decision).toBe(CORRECT_CLASSES.has(r.class!));
  } else if (name.startsWith('avert')) {
    // Correct only when the correct group is strictly first; with two groups, score > 0.5.
    if (r.decision) expect(r.score).toBeGreaterThan(0.5);
    if (r.score > 0.5 + 1e-9) expect(r.decision).toBe(true);
  } else expect(r.decision).toBe(r.score >= threshold);
  if (name.startsWith('hierarchy')) expect(['superior', 'inferior', 'equivalent', 'incorrect']).toContain(r.set);
}

function checkResults(m: BatchMetric, items: readonly QaItem[], results: MetricResult[]): void {
  expect(results).toHaveLength(items.length);
  for (const r of results) {
    expect(typeof r.explanation).toBe('string');
    expect(r.explanation.length).toBeGreaterThan(0);
    if (r.score === null) expect(r.decision).toBeNull();
    else {
      expect(Number.isFinite(r.score)).toBe(true);
      expect(r.score).toBeGreaterThanOrEqual(0);
      expect(r.score).toBeLessThanOrEqual(1);
      expect(typeof r.decision).toBe('boolean');
    }
    checkDecision(m.name, m.threshold, r);
  }
}

describe.each(NAMES)('%s with fake capabilities', (name) => {
  it('never rejects; scores null or finite in [0, 1]; the documented decision rule; deterministic; batch-independent', async () => {
    await fc.assert(
      fc.asyncProperty(batchArb, ctxArb, async (items, c) => {
        const m = metric(name);
        const results = await m.scoreBatch(items, makeCtx(c));
        checkResults(m, items, results);
        // Same input, fresh metric and context (no shared evidence cache): same output.
        expect(await metric(name).scoreBatch(items, makeCtx(c))).toEqual(results);
        // A row's result does not depend on the other rows of its batch.
        for (let i = 0; i < items.length; i++) expect(await metric(name).scoreBatch([items[i]!], makeCtx(c))).toEqual([results[i]]);
      }),
      { numRuns: 60 },
    );
  });

  it('without any model: never rejects, and says why a row is not scored', async () => {
    await fc.assert(
      fc.asyncProperty(batchArb, async (items) => {
        const m = metric(name);
        checkResults(m, items, await m.scoreBatch(items, {}));
      }),
      { numRuns: 60 },
    );
  });
});

describe('model failures stay inside the run', () => {
  const broken: ModelContext = {
    nli: { classify: async () => Promise.reject(new Error('nli down')) },
    ranker: { score: async () => [Number.NaN] },
    embedder: { embed: async () => [], embedTokens: async () => [] },
    writer: {
      name: 'broken',
      write: async () => {
        throw new Error('writer down');
      },
    },
  };
  it('scoreRows gives nulls with a reason, never an exception', async () => {
    await fc.assert(
      fc.asyncProperty(batchArb, async (items) => {
        const metrics = NAMES.map(metric);
        const rows = await scoreRows(items, metrics, broken);
        for (const row of rows)
          for (const m of metrics) {
            const r = row[m.name]!;
            expect(r.explanation.length).toBeGreaterThan(0);
            if (r.score !== null) checkDecision(m.name, m.threshold, r);
          }
      }),
      { numRuns: 30 },
    );
  });
});

describe('the rule statement writer (the default when no writer model is loaded)', () => {
  it('writes a statement for any answer, so evidence never fails on text', async () => {
    const nli = fakeNli(1, 'hash');
    await fc.assert(
      fc.asyncProperty(batchArb, async (items) => {
        const bare = items.map(({ question, golds, candidate }) => ({ question, golds, candidate }));
        const results = await metric('cap').scoreBatch(bare, { nli });
        for (const r of results) expect(r.explanation).not.toMatch(/statement writing failed/);
      }),
      { numRuns: 40 },
    );
  });
});

describe('regressions: very many golds (a Math.max spread overflowed the stack)', () => {
  it('hierarchy', async () => {
    const n = 200_000;
    const golds = Array.from({ length: n }, (_, i) => `g${i}`);
    const nli = golds.map((): ProvidedNli => ({
      goldToCandidate: { entailment: 0.6, neutral: 0.3, contradiction: 0.1 },
      candidateToGold: { entailment: 0.2, neutral: 0.7, contradiction: 0.1 },
    }));
    const [r] = await metric('hierarchy').scoreBatch(
      [{ question: 'q', golds, candidate: 'c', nli, statements: { gold: golds, candidate: 'c' } }],
      {},
    );
    expect(r).toMatchObject({ score: 0.6, decision: true, set: 'inferior' });
  });

  it('nli_lex', async () => {
    // One repeated gold: the NLI pairs de-duplicate to one, so only the per-reference max sees 200,000 values.
    const golds = new Array<string>(200_000).fill('Paris');
    const [r] = await metric('nli_lex').scoreBatch([{ question: 'q', golds, candidate: 'Paris' }], { nli: fakeNli(5, 'entail') });
    expect(r).toMatchObject({ decision: true, details: { se: 1, lm: 1 } });
  });

  it('avert', async () => {
    const golds = Array.from({ length: 100_000 }, (_, i) => `g${i}`);
    const [r] = await metric('avert').scoreBatch([{ question: 'q', golds, candidate: 'c', wrongAnswers: ['w'] }], {
      ranker: fakeRanker(3),
    });
    expect(r!.score).toBeGreaterThan(0.5);
  });
});
