/**
 * Systems × splits (datasets, subjects, …): one comparison per split, and a summary of each system's accuracy per
 * split with the macro average over splits — the table harness users read. The macro average weighs every split
 * alike, whatever its size; its interval combines the splits' binomial variances (questions are independent, and
 * so are the splits): mean_k p̂_k ± z·√(Σ_k p̂_k(1−p̂_k)/n_k)/K. Like any normal interval it is too narrow when a
 * split has few questions and an accuracy near 0 or 1: the summary names splits under 30 questions.
 */
import { twoSidedZ } from '../util/normal.ts';
import type { MetricLeaderboard } from './leaderboard.ts';

/** One split's value and the row indices in it (the input's order). */
export interface Split {
  value: string;
  rows: number[];
}

/** The splits of `rows` by a column's value, in order of first appearance; a row without the column is an error. */
export function splitRows<R extends { extra: Record<string, unknown> }>(rows: readonly R[], column: string): Split[] | { missing: number } {
  const by = new Map<string, number[]>();
  for (let i = 0; i < rows.length; i++) {
    const v = rows[i]!.extra[column];
    if (v === undefined || v === null || v === '') return { missing: i };
    const key = typeof v === 'string' ? v : JSON.stringify(v);
    let list = by.get(key);
    if (!list) by.set(key, (list = []));
    list.push(i);
  }
  return [...by].map(([value, r]) => ({ value, rows: r }));
}

export interface SplitCell {
  accuracy: number | null;
  /** Questions the system decided in the split. */
  n: number;
}

export interface SplitSummaryRow {
  system: string;
  cells: Record<string, SplitCell>;
  /** Mean over the splits the system has a decided question in; null when it has none. */
  macro: number | null;
  ci: [number, number] | null;
  /** Splits left out of its macro average (no decided question there). */
  missing: string[];
}

export interface SplitSummary {
  metric: string;
  splits: string[];
  /** Splits with fewer than 30 decided questions for some system: their share of the interval is less sure. */
  small: string[];
  level: number;
  systems: SplitSummaryRow[];
}

/** Each system's accuracy on `metric` per split, and the macro average with its interval (level 0.95 by default). */
export function splitSummary(boards: readonly { split: string; board: MetricLeaderboard }[], level = 0.95): SplitSummary {
  const z = twoSidedZ(level);
  const splits = boards.map((b) => b.split);
  const systems = [...new Set(boards.flatMap((b) => b.board.entries.map((e) => e.system)))];
  const small = new Set<string>();
  const rows = systems.map((system): SplitSummaryRow => {
    const cells: Record<string, SplitCell> = {};
    const have: { p: number; n: number }[] = [];
    const missing: string[] = [];
    for (const { split, board } of boards) {
      const e = board.entries.find((x) => x.system === system);
      const cell = { accuracy: e?.decided ? e.accuracy.value : null, n: e?.decided ?? 0 };
      cells[split] = cell;
      if (cell.accuracy === null) missing.push(split);
      else {
        have.push({ p: cell.accuracy, n: cell.n });
        if (cell.n < 30) small.add(split);
      }
    }
    if (!have.length) return { system, cells, macro: null, ci: null, missing };
    const k = have.length;
    const macro = have.reduce((s, c) => s + c.p, 0) / k;
    const se = Math.sqrt(have.reduce((s, c) => s + (c.p * (1 - c.p)) / c.n, 0)) / k;
    return { system, cells, macro, ci: [Math.max(0, macro - z * se), Math.min(1, macro + z * se)], missing };
  });
  return { metric: boards[0]?.board.metric ?? '', splits, small: splits.filter((s) => small.has(s)), level, systems: rows };
}
