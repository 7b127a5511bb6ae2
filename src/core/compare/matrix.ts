/**
 * Paired verdicts as a systems × systems matrix: who beats whom on accuracy, significant or not. With 12 systems a
 * metric has 66 pairs, a table too long to read; the matrix shows them in one screen (row vs column), each cell
 * with its difference and Holm-adjusted p for a title, and the full table stays below it.
 */
import type { PairComparison } from './paired.ts';

/** One cell: the row system against the column system. */
export interface MatrixCell {
  /** 'win' / 'loss': the row system is significantly more / less accurate; 'ns': not significant; 'none': no shared question. */
  verdict: 'win' | 'loss' | 'ns' | 'none';
  /** Row − column accuracy on their shared questions. */
  diff: number | null;
  pHolm: number | null;
  n: number;
}

export interface PairMatrix {
  systems: string[];
  /** cells[i][j]: systems[i] against systems[j]; null on the diagonal. */
  cells: (MatrixCell | null)[][];
  /** Per system: significant wins and losses. */
  wins: number[];
  losses: number[];
}

/** The matrix of a metric's pairs, in the order of `systems` (the leaderboard's). */
export function pairMatrix(systems: readonly string[], pairs: readonly PairComparison[]): PairMatrix {
  const at = new Map(systems.map((s, i) => [s, i] as const));
  const cells: (MatrixCell | null)[][] = systems.map((_, i) =>
    systems.map((__, j) => (i === j ? null : { verdict: 'none', diff: null, pHolm: null, n: 0 })),
  );
  for (const p of pairs) {
    const i = at.get(p.a);
    const j = at.get(p.b);
    if (i === undefined || j === undefined) continue;
    const acc = p.accuracy;
    const none = acc.n === 0 || acc.diff === null;
    const of = (me: string, diff: number | null): MatrixCell => ({
      verdict: none ? 'none' : acc.better === null ? 'ns' : acc.better === me ? 'win' : 'loss',
      diff,
      pHolm: acc.pHolm,
      n: acc.n,
    });
    cells[i]![j] = of(p.a, acc.diff);
    cells[j]![i] = of(p.b, acc.diff === null ? null : -acc.diff);
  }
  const count = (v: MatrixCell['verdict']) => cells.map((row) => row.filter((c) => c?.verdict === v).length);
  return { systems: [...systems], cells, wins: count('win'), losses: count('loss') };
}

const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(3)}`;

/** A cell's symbol and its words (a title, and text for screen readers). */
export function cellText(row: string, col: string, c: MatrixCell): { symbol: string; words: string } {
  if (c.verdict === 'none') return { symbol: '–', words: `${row} vs ${col}: no shared question` };
  const d = `Δ accuracy ${signed(c.diff!)} on ${c.n} questions, p (Holm) ${c.pHolm === null ? '—' : c.pHolm < 0.001 ? c.pHolm.toExponential(1) : c.pHolm.toFixed(3)}`;
  if (c.verdict === 'win') return { symbol: '▲', words: `${row} > ${col}: ${d}` };
  if (c.verdict === 'loss') return { symbol: '▼', words: `${row} < ${col}: ${d}` };
  return { symbol: '·', words: `${row} vs ${col}: not significant, ${d}` };
}
