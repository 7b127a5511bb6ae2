import { describe, expect, it } from 'vitest';
import { bySystemPrefix, compareSplits, splitCandidates, splitRows, splitSummary, SYSTEM_PREFIX } from './split.ts';
import type { LeaderboardEntry, MetricLeaderboard } from './leaderboard.ts';
import { mulberry32 } from '../util/random.ts';

const entry = (system: string, correct: number, decided: number): LeaderboardEntry =>
  ({
    system,
    rank: 1,
    ranks: null,
    rows: decided,
    scored: decided,
    decided,
    mean: { value: null, ci: null },
    accuracy: { value: decided ? correct / decided : null, ci: null },
    human: null,
  }) as LeaderboardEntry;
const board = (entries: LeaderboardEntry[]): MetricLeaderboard => ({ metric: 'm', threshold: 0.5, rankedBy: 'accuracy', entries });

describe('splitRows', () => {
  it('groups rows by the column, in order of first appearance, and names the first row without it', () => {
    const rows = [{ extra: { d: 'nq' } }, { extra: { d: 'tq' } }, { extra: { d: 'nq' } }, { extra: { d: 3 } }];
    expect(splitRows(rows, 'd')).toEqual([
      { value: 'nq', rows: [0, 2] },
      { value: 'tq', rows: [1] },
      { value: '3', rows: [3] },
    ]);
    expect(splitRows([{ extra: { d: 'x' } }, { extra: {} }], 'd')).toEqual({ missing: 1 });
  });
});

describe('splitCandidates', () => {
  it('offers a column whose values split the questions, never an id, a text or a column that differs within a question', () => {
    const rows = ['a', 'b'].flatMap((system) =>
      ['q1', 'q2', 'q3', 'q4'].map((key, k) => ({
        system,
        key,
        extra: {
          dataset: k < 2 ? 'nq' : 'tq',
          uid: `${key}-${system}`,
          note: k === 0 ? 'x' : 'y',
          score: system === 'a' ? 1 : 0,
          meta: { k },
        },
      })),
    );
    // uid: differs within a question; note: one value held by one question; score: differs by system; meta: not a value.
    expect(splitCandidates(rows)).toEqual(['dataset']);
  });
});

describe('system names that hold a dataset (diver/NQ/gpt4)', () => {
  // Two datasets, two models each; the datasets share no question.
  const rows = ['diver/nq', 'diver/tq'].flatMap((d) =>
    ['gpt4', 'llama'].flatMap((m) =>
      [1, 2, 3].map((k) => ({
        system: `${d}/${m}`,
        key: `${d}-q${k}`,
        extra: {} as Record<string, unknown>,
        label: { kind: 'binary' as const, correct: m === 'gpt4' || k === 1 },
      })),
    ),
  );
  it('are offered as a split at their last "/", and split there: the models become the systems', () => {
    expect(splitCandidates(rows)).toEqual([SYSTEM_PREFIX]);
    const named = bySystemPrefix(rows)!;
    expect(new Set(named.map((r) => r.system))).toEqual(new Set(['gpt4', 'llama']));
    expect(new Set(named.map((r) => r.extra[SYSTEM_PREFIX]))).toEqual(new Set(['diver/nq', 'diver/tq']));
    expect(bySystemPrefix([{ system: 'plain', key: 'q', extra: {} }])).toBeNull();
  });

  it('compare per dataset, each with both models, and the macro average over the datasets', () => {
    const results = { length: rows.length, score: () => 1, decision: () => true };
    const r = compareSplits(rows, results, [{ name: 'm', threshold: 0.5 }], SYSTEM_PREFIX, { resamples: 0 });
    if ('missing' in r) throw new Error('missing');
    expect(r.splits.map((s) => [s.split, s.report.systems])).toEqual([
      ['diver/nq', ['gpt4', 'llama']],
      ['diver/tq', ['gpt4', 'llama']],
    ]);
    const human = r.summaries.find((s) => s.metric === 'human labels')!;
    expect(human.systems.find((s) => s.system === 'llama')!.macro).toBeCloseTo(1 / 3, 12);
    expect(human.systems.find((s) => s.system === 'gpt4')!.macro).toBe(1);
  });
});

describe('splitSummary', () => {
  it('gives the macro average, weighing every split alike, with the interval by hand', () => {
    const s = splitSummary([
      { split: 'nq', board: board([entry('a', 30, 40), entry('b', 20, 40)]) },
      { split: 'tq', board: board([entry('a', 90, 100), entry('b', 50, 100)]) },
    ]);
    const a = s.systems.find((r) => r.system === 'a')!;
    // (0.75 + 0.90) / 2 = 0.825; se = √(0.75·0.25/40 + 0.9·0.1/100) / 2 = √(0.0046875 + 0.0009) / 2.
    expect(a.macro).toBeCloseTo(0.825, 12);
    const se = Math.sqrt(0.0046875 + 0.0009) / 2;
    expect(a.ci![0]).toBeCloseTo(0.825 - 1.959964 * se, 5);
    expect(a.ci![1]).toBeCloseTo(0.825 + 1.959964 * se, 5);
    expect(a.cells).toEqual({ nq: { accuracy: 0.75, n: 40 }, tq: { accuracy: 0.9, n: 100 } });
    expect(s.systems.find((r) => r.system === 'b')!.macro).toBeCloseTo(0.5, 12);
    expect(s.small).toEqual([]);
  });

  it('leaves a split a system has no answer in out of its average, and names small splits', () => {
    const s = splitSummary([
      { split: 'x', board: board([entry('a', 5, 10), entry('b', 8, 10)]) },
      { split: 'y', board: board([entry('a', 30, 40)]) },
    ]);
    const b = s.systems.find((r) => r.system === 'b')!;
    expect(b.missing).toEqual(['y']);
    expect(b.macro).toBeCloseTo(0.8, 12);
    expect(s.small).toEqual(['x']);
  });

  it('is unbiased and its 95% interval covers the true macro average about 95% of the time (simulation over seeds)', () => {
    // Splits of unequal size and accuracy, 30–400 questions each: the macro average is not the pooled one.
    const truth = [
      { p: 0.55, n: 30 },
      { p: 0.8, n: 120 },
      { p: 0.35, n: 400 },
      { p: 0.7, n: 60 },
    ];
    const macro = truth.reduce((s, t) => s + t.p, 0) / truth.length;
    const runs = 4000;
    let covered = 0;
    let bias = 0;
    let width = 0;
    const rnd = mulberry32(11);
    for (let r = 0; r < runs; r++) {
      const boards = truth.map((t, k) => {
        let c = 0;
        for (let i = 0; i < t.n; i++) if (rnd() < t.p) c++;
        return { split: `s${k}`, board: board([entry('a', c, t.n)]) };
      });
      const a = splitSummary(boards).systems[0]!;
      bias += a.macro! - macro;
      width += a.ci![1] - a.ci![0];
      if (a.ci![0] <= macro && macro <= a.ci![1]) covered++;
    }
    expect(Math.abs(bias / runs)).toBeLessThan(0.002);
    // An overconfident interval (say, the pooled binomial's) covers far less; a too-wide one, far more.
    expect(covered / runs).toBeGreaterThan(0.93);
    expect(covered / runs).toBeLessThan(0.97);
    expect(width / runs).toBeGreaterThan(0.08);
  });
});
