/** Review priority and the pick (issue 36): features by hand, a deterministic pick within budget, balanced systems. */
import { describe, expect, it } from 'vitest';
import { ResultTable } from '../result-table.ts';
import type { RowResults } from '../run.ts';
import type { QaRow } from '../types.ts';
import { pickForReview, priorityFeatures, reviewPriorities } from './priority.ts';

const row = (golds: string[], candidate: string): QaRow => ({ row: 1, id: candidate, question: 'q?', golds, candidate });
const res = (judge: number, other: boolean): RowResults => ({
  judge: { score: judge, decision: judge >= 0.5, explanation: '' },
  other: { score: other ? 1 : 0, decision: other, explanation: '' },
});

describe('priorityFeatures', () => {
  it('measures nearness to the threshold, disagreement, text against decision, and the system share', () => {
    const rows = [row(['Paris'], 'Paris'), row(['Paris'], 'Lyon'), row(['Paris'], 'It is Paris, France')];
    const t = ResultTable.of([res(0.9, true), res(0.55, false), res(0.1, true)], ['judge', 'other']);
    const f = priorityFeatures(rows, t, { metric: 'judge', threshold: 0.5 }, (i) => (i < 2 ? 'a' : 'b'));
    // near = 1 − |s − 0.5| / 0.5; disagree = other decides otherwise; text: "correct" sharing no gold word, or "wrong" holding the gold.
    const r = (v: number) => Math.round(v * 1e9) / 1e9;
    expect(f.map((x) => x.slice(0, 4).map(r))).toEqual([
      [0.2, 0, 0, 1],
      [0.9, 1, 1, 1],
      [0.2, 1, 1, 0],
    ]);
    expect(f.map((x) => x[5])).toEqual([0.5, 0.5, 1]);
    const p = reviewPriorities(f);
    expect(p[1]).toBeGreaterThan(p[0]!);
  });
});

describe('pickForReview', () => {
  const n = 200;
  const pr = Float64Array.from({ length: n }, (_, i) => ((i * 37) % 101) / 101);
  const sys = (i: number) => (i % 4 === 0 ? 'rare' : 'common');

  it('never picks more than the budget, each row once, the same rows for the same seed', () => {
    for (const budget of [1, 2, 10, 57, 200, 500]) {
      const p = pickForReview(pr, budget, 7, sys);
      const both = p.filter((x) => x.picked === 'both').length;
      // A row both draws met is asked once: the budget less those.
      expect(p.length + both).toBe(Math.min(budget, n));
      expect(new Set(p.map((x) => x.index)).size).toBe(p.length);
      expect(pickForReview(pr, budget, 7, sys)).toEqual(p);
    }
    // Every row asked for: every row, a census.
    expect(pickForReview(pr, 200, 7, sys).every((x) => x.picked === 'uncertain')).toBe(true);
    expect(pickForReview(pr, 50, 8, sys)).not.toEqual(pickForReview(pr, 50, 7, sys));
  });

  it('draws the random slice per system in proportion, whatever the priorities, and the queue whatever the seed', () => {
    const p = pickForReview(pr, 50, 7, sys);
    const random = p.filter((x) => x.picked !== 'uncertain').map((x) => x.index);
    expect(random).toHaveLength(10);
    // 50 of 200 rows are "rare": a quarter of the slice, 2.5 rows; the tied remainder goes to the first system by name.
    expect(random.filter((i) => sys(i) === 'rare')).toHaveLength(2);
    const flipped = Float64Array.from(pr, (x) => 1 - x);
    const again = pickForReview(flipped, 50, 7, sys)
      .filter((x) => x.picked !== 'uncertain')
      .map((x) => x.index);
    expect(new Set(again)).toEqual(new Set(random));
    const queue = (seed: number) =>
      pickForReview(pr, 50, seed, sys)
        .filter((x) => x.picked !== 'random')
        .map((x) => x.index)
        .sort((a, b) => a - b);
    expect(queue(8)).toEqual(queue(7));
  });

  it('takes the highest priorities in turn from each system, and spreads the random slice through the order', () => {
    const p = pickForReview(pr, 50, 7, sys);
    const queue = p.filter((x) => x.picked !== 'random').map((x) => x.index);
    expect(queue.filter((i) => sys(i) === 'rare')).toHaveLength(20);
    // Rows only the queue drew come in its order (one the random slice also drew is asked at its random place).
    const rare = p.filter((x) => x.picked === 'uncertain' && sys(x.index) === 'rare').map((x) => pr[x.index]!);
    expect(rare).toEqual([...rare].sort((a, b) => b - a));
    // At each point of the order the share of random rows asked stays near a fifth.
    const at = p.slice(0, 25).filter((x) => x.picked === 'random').length;
    expect(at).toBeGreaterThanOrEqual(4);
    expect(at).toBeLessThanOrEqual(6);
  });
});
