import { describe, expect, it } from 'vitest';
import type { Embedder, Ranker } from '../capabilities.ts';
import type { QaItem } from '../types.ts';
import { aggregate, buildTargetGroups, createAvert, ENHANCEMENT_TEMPLATES, REFUSAL_TARGETS } from './avert.ts';

const item = (golds: string[], candidate: string, extra: Partial<QaItem> = {}): QaItem => ({ question: 'q?', golds, candidate, ...extra });

/** A ranker that looks scores up by target text (0 when absent) and counts its calls. */
function tableRanker(table: Record<string, number>): Ranker & { calls: { query: string; docs: string[] }[] } {
  const calls: { query: string; docs: string[] }[] = [];
  return {
    calls,
    async score(query, docs) {
      calls.push({ query, docs });
      return docs.map((d) => table[d] ?? 0);
    },
  };
}

const words = (s: string): Set<string> => new Set(s.toLowerCase().match(/[a-z0-9']+/g) ?? []);
/** Jaccard similarity of the word sets of query and doc. */
const jaccardRanker: Ranker = {
  async score(query, docs) {
    const q = words(query);
    return docs.map((d) => {
      const w = words(d);
      const inter = [...w].filter((x) => q.has(x)).length;
      return inter / new Set([...q, ...w]).size;
    });
  },
};

describe('buildTargetGroups', () => {
  it('correct = golds, wrong = choices minus golds (case/space-insensitive), deduplicated', () => {
    const g = buildTargetGroups(item(['paris', ' Paris  '], '', { choices: [' PARIS ', 'Rome', 'rome', 'Lyon', '  '] }), {
      enhance: false,
    });
    expect(g).toEqual([
      { name: 'correct', targets: ['paris'] },
      { name: 'wrong', targets: ['Rome', 'Lyon'] },
    ]);
  });
  it('wrong answers join the choices; one equal to a gold is dropped', () => {
    const g = buildTargetGroups(
      item(['New  York'], '', { choices: ['new york', 'Boston'], wrongAnswers: ['Chicago', 'boston', 'NEW YORK'] }),
      { enhance: false },
    );
    expect(g[1]).toEqual({ name: 'wrong', targets: ['Boston', 'Chicago'] });
  });
  it('wrongAnswers alone are enough', () => {
    expect(buildTargetGroups(item(['a'], '', { wrongAnswers: ['b'] }), { enhance: false })[1]!.targets).toEqual(['b']);
  });
  it('no choices and no wrong answers → empty wrong group', () => {
    expect(buildTargetGroups(item(['a'], '', { choices: ['A'] }))[1]!.targets).toEqual([]);
  });
  it('enhancement templates (reference library) apply to both groups by default', () => {
    expect(ENHANCEMENT_TEMPLATES).toHaveLength(3);
    const g = buildTargetGroups(item(['Paris'], '', { wrongAnswers: ['Rome'] }));
    expect(g[0]!.targets).toEqual(['Paris', 'The answer is : "Paris" . Let me explain why', 'Therefore, the answer is : "Paris"']);
    expect(g[1]!.targets).toEqual(['Rome', 'The answer is : "Rome" . Let me explain why', 'Therefore, the answer is : "Rome"']);
  });
  it('refusal adds a third group (default or custom targets)', () => {
    const g = buildTargetGroups(item(['a'], '', { wrongAnswers: ['b'] }), { refusal: true });
    expect(g.map((x) => x.name)).toEqual(['correct', 'wrong', 'refusal']);
    expect(g[2]!.targets).toEqual([...REFUSAL_TARGETS]);
    expect(REFUSAL_TARGETS).toContain("I don't know.");
    expect(
      buildTargetGroups(item(['a'], '', { wrongAnswers: ['b'] }), { refusal: true, refusalTargets: ['No idea.'] })[2]!.targets,
    ).toEqual(['No idea.']);
  });
});

describe('aggregate', () => {
  it('max, mean, mean of the 2 highest', () => {
    const s = [0.1, 0.5, 0.3];
    expect(aggregate(s, 'max')).toBe(0.5);
    expect(aggregate(s, 'mean')).toBeCloseTo(0.3, 12);
    expect(aggregate(s, 'topk-mean')).toBeCloseTo(0.4, 12); // (0.5 + 0.3) / 2, not the first two in order
    expect(aggregate([0.7], 'topk-mean')).toBe(0.7);
    expect(aggregate([], 'max')).toBe(0);
  });
});

// correct targets: Paris 0.6, "the city of Paris" 0.2; wrong: Rome 0.5, Lyon 0.3, Nice 0.1.
const TABLE = { Paris: 0.6, 'the city of Paris': 0.2, Rome: 0.5, Lyon: 0.3, Nice: 0.1 };
const CITY = item(['Paris', 'the city of Paris'], 'It is Paris.', { choices: ['Paris', 'Rome', 'Lyon'], wrongAnswers: ['Nice'] });

describe('avert with a ranker (hand-computed)', () => {
  it('max: correct 0.6, wrong 0.5 → 6/11, margin 1/11, correct', async () => {
    const r = tableRanker(TABLE);
    const [res] = await createAvert({ enhance: false }).scoreBatch([CITY], { ranker: r });
    expect(r.calls).toEqual([{ query: 'It is Paris.', docs: ['Paris', 'the city of Paris', 'Rome', 'Lyon', 'Nice'] }]);
    expect(res!.score).toBeCloseTo(6 / 11, 12);
    expect(res!.decision).toBe(true);
    expect(res!.details?.margin).toBeCloseTo(1 / 11, 12);
    expect(res!.details?.best_group).toBe('correct');
    const groups = res!.details?.groups as Record<string, { score: number; normalized: number; top_target: string }>;
    expect(groups.correct!.score).toBe(0.6);
    expect(groups.wrong!.normalized).toBeCloseTo(5 / 11, 12);
    expect(groups.wrong!.top_target).toBe('Rome');
    expect(res!.explanation).toBe('correct 0.545 > wrong 0.455 (margin 0.091); closest target "Paris"');
  });
  it('mean: correct 0.4, wrong 0.3 → 4/7, margin 1/7', async () => {
    const [res] = await createAvert({ enhance: false, aggregation: 'mean' }).scoreBatch([CITY], { ranker: tableRanker(TABLE) });
    expect(res!.score).toBeCloseTo(4 / 7, 12);
    expect(res!.details?.margin).toBeCloseTo(1 / 7, 12);
    expect(res!.decision).toBe(true);
  });
  it('topk-mean: correct (0.6+0.2)/2 = 0.4 ties wrong (0.5+0.3)/2 = 0.4 → 0.5, not correct', async () => {
    const [res] = await createAvert({ enhance: false, aggregation: 'topk-mean' }).scoreBatch([CITY], { ranker: tableRanker(TABLE) });
    expect(res!.score).toBeCloseTo(0.5, 12);
    expect(res!.details?.margin).toBeCloseTo(0, 12);
    expect(res!.decision).toBe(false);
    expect(res!.details?.best_group).toBe('wrong');
    expect(res!.explanation).toMatch(/^wrong 0\.5 = correct 0\.5 \(margin 0\)/);
  });
  it('float-noise ties count as ties: mean(0.1, 0.2) = 0.15000000000000002 vs mean(0.3, 0) = 0.15', async () => {
    expect((0.1 + 0.2) / 2).toBeGreaterThan(0.15);
    const [res] = await createAvert({ enhance: false, aggregation: 'mean' }).scoreBatch(
      [item(['x', 'y'], 'r', { wrongAnswers: ['z', 'w'] })],
      {
        ranker: tableRanker({ x: 0.1, y: 0.2, z: 0.3 }),
      },
    );
    expect(res!.decision).toBe(false);
    expect(res!.details?.margin).toBe(0);
    expect(res!.details?.best_group).toBe('wrong');
  });
  it('all scores 0 → uniform 1/2 each, a tie, not correct', async () => {
    const [res] = await createAvert({ enhance: false }).scoreBatch([CITY], { ranker: tableRanker({}) });
    expect(res!.score).toBe(0.5);
    expect(res!.decision).toBe(false);
  });
  it('clamps scores outside [0, 1]', async () => {
    const [res] = await createAvert({ enhance: false }).scoreBatch([item(['a'], 'x', { wrongAnswers: ['b'] })], {
      ranker: tableRanker({ a: 3, b: -1 }),
    });
    expect(res!.score).toBe(1);
  });
  it('refusal group wins: 0.6 / 0.5 / 0.9 → correct 0.3, refusal first, margin 0.15', async () => {
    const [res] = await createAvert({ enhance: false, refusal: true }).scoreBatch([CITY], {
      ranker: tableRanker({ ...TABLE, "I don't know.": 0.9 }),
    });
    expect(res!.score).toBeCloseTo(0.3, 12);
    expect(res!.decision).toBe(false);
    expect(res!.details?.best_group).toBe('refusal');
    expect(res!.details?.margin).toBeCloseTo(0.15, 12);
    expect(res!.details?.targets).toEqual({ correct: 2, wrong: 3, refusal: 4 });
  });
  it('with three groups, correct can rank first below 0.5; a given threshold replaces the rule', async () => {
    // 0.6 / 0.5 / 0.4 → 0.4, 1/3, 4/15
    const ranker = tableRanker({ ...TABLE, 'No idea.': 0.4 });
    const batch = [CITY];
    const [a] = await createAvert({ enhance: false, refusal: true, refusalTargets: ['No idea.'] }).scoreBatch(batch, { ranker });
    expect(a!.score).toBeCloseTo(0.4, 12);
    expect(a!.decision).toBe(true);
    expect(a!.details?.margin).toBeCloseTo(0.4 - 1 / 3, 12);
    const m = createAvert({ enhance: false, refusal: true, refusalTargets: ['No idea.'], threshold: 0.5 });
    expect(m.threshold).toBe(0.5);
    const [b] = await m.scoreBatch(batch, { ranker });
    expect(b!.decision).toBe(false);
    expect(b!.explanation).toMatch(/; threshold 0\.5$/);
  });
  it('end to end with the enhancement templates and a word-overlap ranker', async () => {
    // response words {the, answer, is, paris}
    // correct: "Paris" 1/4, "The answer is … Let me explain why" 4/8, "Therefore, the answer is …" 4/5 → max 0.8
    // wrong:   "Rome" 0/5, "The answer is : Rome …" 3/9, "Therefore, the answer is : Rome" 3/6 → max 0.5
    const [res] = await createAvert().scoreBatch([item(['Paris'], 'The answer is Paris.', { choices: ['Paris', 'Rome'] })], {
      ranker: jaccardRanker,
    });
    expect(res!.score).toBeCloseTo(0.8 / 1.3, 12);
    expect(res!.details?.margin).toBeCloseTo(0.3 / 1.3, 12);
    expect(res!.decision).toBe(true);
    expect(res!.explanation).toBe('correct 0.615 > wrong 0.385 (margin 0.231); closest target "Therefore, the answer is : \\"Paris\\""');
  });
});

describe('avert rows it cannot judge', () => {
  it('no wrong targets → null and not applicable, without a ranker call', async () => {
    const r = tableRanker(TABLE);
    const res = await createAvert().scoreBatch([item(['Paris'], 'Paris'), item(['Paris'], 'Paris', { choices: ['paris'] })], { ranker: r });
    for (const x of res)
      expect(x).toEqual({ score: null, decision: null, explanation: 'not applicable: no wrong targets (add choices or wrong_answers)' });
    expect(r.calls).toHaveLength(0);
  });
  it('no gold → 0; empty response → 0', async () => {
    const res = await createAvert().scoreBatch([item([], 'x', { wrongAnswers: ['b'] }), item(['a'], '  ', { wrongAnswers: ['b'] })], {});
    expect(res).toEqual([
      { score: 0, decision: false, explanation: 'no gold answer' },
      { score: 0, decision: false, explanation: 'empty response' },
    ]);
  });
  it('no ranker loaded → null with a reason', async () => {
    const [res] = await createAvert().scoreBatch([CITY], {});
    expect(res).toEqual({
      score: null,
      decision: null,
      explanation: 'not available: A-VERT with the ranker backend needs a ranker (none loaded)',
    });
  });
  it('a ranker returning the wrong number of scores is an error', async () => {
    const bad: Ranker = { score: async () => [0.5] };
    await expect(createAvert().scoreBatch([CITY], { ranker: bad })).rejects.toThrow(/returned 1 scores for 15 targets/);
  });
});

describe('avert batching', () => {
  it('one ranker call per distinct (response, targets), results in row order', async () => {
    const r = tableRanker(TABLE);
    const other = item(['Paris'], 'Rome', { wrongAnswers: ['Rome'] });
    // Another question whose targets come out identical (repeated gold dropped, choices in another order).
    const sameTargets = item(['Paris', 'the city of Paris', 'paris'], 'It is Paris.', {
      question: 'other?',
      choices: ['Rome', 'Paris', 'Lyon'],
      wrongAnswers: ['Nice'],
    });
    const otherSpelling = { ...CITY, golds: ['PARIS', 'the city of Paris'] };
    const res = await createAvert({ enhance: false }).scoreBatch([CITY, other, CITY, item(['a'], 'b'), sameTargets, otherSpelling], {
      ranker: r,
    });
    // CITY, CITY and sameTargets → one call; other → one; the row without wrong targets → none; otherSpelling → one.
    expect(r.calls).toHaveLength(3);
    expect(r.calls.map((c) => c.query)).toEqual(['It is Paris.', 'Rome', 'It is Paris.']);
    expect(res[0]!.score).toBeCloseTo(6 / 11, 12);
    expect(res[2]).toEqual(res[0]);
    expect(res[4]).toEqual(res[0]);
    expect(res[1]!.score).toBeCloseTo(0.6 / 1.1, 12); // Paris 0.6 vs Rome 0.5
    expect(res[3]!.score).toBeNull();
    expect(res[5]!.score).toBeCloseTo(2 / 7, 12); // "PARIS" is not in the table: correct 0.2 vs wrong 0.5
  });
});

/** Fixed vectors per text, not normalized (the metric must normalize); counts embed calls. */
function tableEmbedder(table: Record<string, number[]>): Embedder & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    async embed(texts) {
      calls.push(texts);
      return texts.map((t) => {
        const v = table[t];
        if (!v) throw new Error(`no vector for ${t}`);
        return Float32Array.from(v);
      });
    },
  };
}

describe('avert with embeddings', () => {
  it('(cos+1)/2 per target, one embed call over the unique texts', async () => {
    // response "Paris" = [2, 0]; Paris [1, 0] → cos 1 → 1; Rome [0, 3] → cos 0 → 0.5; Lyon [-1, 0] → cos -1 → 0
    const e = tableEmbedder({ Paris: [2, 0], Rome: [0, 3], Lyon: [-1, 0], 'paris?': [1, 0] });
    const m = createAvert({ backend: 'embedding', enhance: false });
    expect(m.needs).toEqual(['embedder']);
    const res = await m.scoreBatch(
      [item(['Paris'], 'Paris', { choices: ['Rome', 'Lyon'] }), item(['Paris'], 'paris?', { choices: ['Lyon'] })],
      { embedder: e },
    );
    expect(e.calls).toEqual([['Paris', 'Rome', 'Lyon', 'paris?']]);
    expect(res[0]!.score).toBeCloseTo(1 / 1.5, 6); // max: correct 1, wrong 0.5
    expect(res[1]!.score).toBeCloseTo(1, 6); // correct 1, wrong 0
    expect(res[1]!.details?.backend).toBe('embedding');
  });
  it('mean aggregation with embeddings', async () => {
    const e = tableEmbedder({ Paris: [2, 0], Rome: [0, 3], Lyon: [-1, 0] });
    const [res] = await createAvert({ backend: 'embedding', enhance: false, aggregation: 'mean' }).scoreBatch(
      [item(['Paris'], 'Paris', { choices: ['Rome', 'Lyon'] })],
      { embedder: e },
    );
    // correct 1, wrong (0.5 + 0) / 2 = 0.25 → 0.8
    expect(res!.score).toBeCloseTo(0.8, 6);
  });
  it('no embedder → null with a reason', async () => {
    const [res] = await createAvert({ backend: 'embedding' }).scoreBatch([CITY], { ranker: tableRanker({}) });
    expect(res!.score).toBeNull();
    expect(res!.explanation).toBe('not available: A-VERT with the embedding backend needs an embedder (none loaded)');
  });
});
