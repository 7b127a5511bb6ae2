import { describe, expect, it } from 'vitest';
import { cellText, pairMatrix } from './matrix.ts';
import type { PairComparison } from './paired.ts';

const pair = (a: string, b: string, n: number, diff: number | null, better: string | null, pHolm: number | null): PairComparison => ({
  a,
  b,
  accuracy: { n, accA: null, accB: null, diff, ci: null, mcnemar: null, pHolm, better },
});

describe('pairMatrix', () => {
  it('puts each pair in both cells, mirrored, with wins and losses counted per system', () => {
    const m = pairMatrix(
      ['a', 'b', 'c'],
      [pair('a', 'b', 10, 0.3, 'a', 0.01), pair('a', 'c', 10, -0.05, null, 0.6), pair('b', 'c', 0, null, null, null)],
    );
    expect(m.cells[0]![0]).toBeNull();
    expect(m.cells[0]![1]).toEqual({ verdict: 'win', diff: 0.3, pHolm: 0.01, n: 10 });
    expect(m.cells[1]![0]).toEqual({ verdict: 'loss', diff: -0.3, pHolm: 0.01, n: 10 });
    expect(m.cells[0]![2]!.verdict).toBe('ns');
    expect(m.cells[2]![0]!.diff).toBeCloseTo(0.05, 12);
    expect(m.cells[1]![2]!.verdict).toBe('none');
    expect(m.wins).toEqual([1, 0, 0]);
    expect(m.losses).toEqual([0, 1, 0]);
  });

  it('words each cell: the verdict, Δ and the Holm p', () => {
    const m = pairMatrix(['a', 'b'], [pair('a', 'b', 26, 0.5, 'a', 0.00073)]);
    expect(cellText('a', 'b', m.cells[0]![1]!)).toEqual({
      symbol: '▲',
      words: 'a > b: Δ accuracy +0.500 on 26 questions, p (Holm) 7.3e-4',
    });
    expect(cellText('b', 'a', m.cells[1]![0]!)).toEqual({
      symbol: '▼',
      words: 'b < a: Δ accuracy −0.500 on 26 questions, p (Holm) 7.3e-4',
    });
  });
});
