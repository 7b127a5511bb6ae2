/**
 * Systems × splits (datasets, subjects, …): one comparison per split, and a summary of each system's accuracy per
 * split with the macro average over splits — the table harness users read. The macro average weighs every split
 * alike, whatever its size; its interval combines the splits' binomial variances (questions are independent, and
 * so are the splits): mean_k p̂_k ± z·√(Σ_k p̂_k(1−p̂_k)/n_k)/K. Like any normal interval it is too narrow when a
 * split has few questions and an accuracy near 0 or 1: the summary names splits under 30 questions.
 */
import { twoSidedZ } from '../util/normal.ts';
import type { MetricLeaderboard } from './leaderboard.ts';
import type { PairedOptions } from './paired.ts';
import { compareReport, type CompareReport } from './report.ts';
import type { CompareRow, CompareTable, MetricInfo, ResultColumns } from './table.ts';

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
  /** The accuracy's standard error where it is an estimate with its own (a review's); else the binomial one is used. */
  se?: number;
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

/**
 * Each system's accuracy on `metric` per split, and the macro average with its interval (level 0.95 by default);
 * systems in descending order of the macro average (those without one last). `reviewed`: the boards' reviewed
 * estimates, each split's variance its own standard error.
 */
export function splitSummary(boards: readonly { split: string; board: MetricLeaderboard }[], level = 0.95, reviewed = false): SplitSummary {
  const z = twoSidedZ(level);
  const splits = boards.map((b) => b.split);
  const systems = [...new Set(boards.flatMap((b) => b.board.entries.map((e) => e.system)))];
  const small = new Set<string>();
  const rows = systems.map((system): SplitSummaryRow => {
    const cells: Record<string, SplitCell> = Object.create(null) as Record<string, SplitCell>;
    const have: { p: number; n: number; se?: number }[] = [];
    const missing: string[] = [];
    for (const { split, board } of boards) {
      const e = board.entries.find((x) => x.system === system);
      const r = reviewed ? e?.reviewed : undefined;
      const cell: SplitCell = r
        ? { accuracy: r.value, n: r.rows, ...(Number.isFinite(r.se) ? { se: r.se } : {}) }
        : { accuracy: e?.decided ? e.accuracy.value : null, n: e?.decided ?? 0 };
      cells[split] = cell;
      if (cell.accuracy === null) missing.push(split);
      else {
        have.push({ p: cell.accuracy, n: cell.n, ...(cell.se !== undefined ? { se: cell.se } : {}) });
        if (cell.n < 30) small.add(split);
      }
    }
    if (!have.length) return { system, cells, macro: null, ci: null, missing };
    const k = have.length;
    const macro = have.reduce((s, c) => s + c.p, 0) / k;
    const se = Math.sqrt(have.reduce((s, c) => s + (c.se !== undefined ? c.se ** 2 : (c.p * (1 - c.p)) / c.n), 0)) / k;
    return { system, cells, macro, ci: [Math.max(0, macro - z * se), Math.min(1, macro + z * se)], missing };
  });
  rows.sort((a, b) => (a.macro === b.macro ? 0 : a.macro === null ? 1 : b.macro === null ? -1 : b.macro - a.macro));
  return { metric: boards[0]?.board.metric ?? '', splits, small: splits.filter((s) => small.has(s)), level, systems: rows };
}

/** Rows with the input's other columns (SystemRow). */
type SplitRow = CompareRow & { extra: Record<string, unknown> };

/**
 * The split named by the system names themselves: names like `diver/NQ/gpt4` (a dataset and a model in one column)
 * are split at their last "/" — the split is `diver/NQ`, the system `gpt4` — so one model is one system across
 * the datasets.
 */
export const SYSTEM_PREFIX = 'system/';

/** Where a system name splits (its last "/", with text on both sides), or −1. */
const cutAt = (name: string): number => {
  const i = name.lastIndexOf('/');
  return i > 0 && i < name.length - 1 ? i : -1;
};

/** The rows with their system names split at the last "/" (the part before under SYSTEM_PREFIX), or null when a name has none. */
export function bySystemPrefix<R extends SplitRow>(rows: readonly R[]): R[] | null {
  const out: R[] = [];
  for (const r of rows) {
    const i = cutAt(r.system);
    if (i < 0) return null;
    out.push({ ...r, system: r.system.slice(i + 1), extra: { ...r.extra, [SYSTEM_PREFIX]: r.system.slice(0, i) } });
  }
  return out;
}

/**
 * Columns that split the questions: every question has one value there (across its systems' rows), and there are
 * at least two values, each held by at least two questions — a dataset or subject column, not an id or a text.
 */
export function splitCandidates(rows: readonly SplitRow[]): string[] {
  const named = bySystemPrefix(rows);
  const out: string[] = named && columnSplits(named, SYSTEM_PREFIX) ? [SYSTEM_PREFIX] : [];
  for (const c of new Set(rows.flatMap((r) => Object.keys(r.extra)))) if (columnSplits(rows, c)) out.push(c);
  return out;
}

/** Whether column `c` splits the questions (see splitCandidates). */
function columnSplits(rows: readonly SplitRow[], c: string): boolean {
  const of = new Map<string, string>();
  for (const r of rows) {
    const v = r.extra[c];
    if (v === undefined || v === null || v === '' || typeof v === 'object') return false;
    const text = String(v);
    const had = of.get(r.key);
    if (had !== undefined && had !== text) return false;
    of.set(r.key, text);
  }
  const count = new Map<string, number>();
  for (const v of of.values()) count.set(v, (count.get(v) ?? 0) + 1);
  return count.size >= 2 && [...count.values()].every((n) => n >= 2);
}

export interface SplitComparison {
  split: string;
  rows: number;
  report: CompareReport;
  /** The split's table and rows (for its page in the HTML report). */
  table: CompareTable;
  splitRows: SplitRow[];
}

/**
 * One comparison per value of `column` over the scored rows (`results` holds rows 0…length−1), and the systems ×
 * splits summaries: the human labels' first (when rows are labelled), then one per metric. The CLI's --split-by
 * and the app's "Split by" both call this.
 */
export function compareSplits(
  rows: readonly SplitRow[],
  results: ResultColumns,
  metrics: readonly MetricInfo[],
  column: string,
  opts: PairedOptions = {},
): { splits: SplitComparison[]; summaries: SplitSummary[] } | { missing: number } {
  const scored = rows.slice(0, results.length);
  const named = column === SYSTEM_PREFIX ? bySystemPrefix(scored) : scored;
  if (!named) return { missing: scored.findIndex((r) => cutAt(r.system) < 0) };
  const parts = splitRows(named, column);
  if ('missing' in parts) return parts;
  const splits = parts.map((p): SplitComparison => {
    const view: ResultColumns = {
      length: p.rows.length,
      score: (m, i) => results.score(m, p.rows[i]!),
      decision: (m, i) => results.decision(m, p.rows[i]!),
    };
    const splitRows = p.rows.map((i) => named[i]!);
    const { report, table } = compareReport(splitRows, view, metrics, opts);
    return { split: p.value, rows: p.rows.length, report, table, splitRows };
  });
  const summaries = metrics.map((_, k) => splitSummary(splits.map((e) => ({ split: e.split, board: e.report.leaderboard.metrics[k]! }))));
  // After a review: each split's reviewed estimate (valid on any part of the rows: review/sequential.ts).
  if (splits.some((e) => e.report.leaderboard.metrics[0]?.rankedBy === 'reviewed'))
    summaries.unshift(
      splitSummary(
        splits.map((e) => ({ split: e.split, board: { ...e.report.leaderboard.metrics[0]!, metric: 'reviewed estimate' } })),
        0.95,
        true,
      ),
    );
  // The humans' own accuracy per split, where the rows are labelled: the figure the metrics are read against.
  else if (splits.some((e) => e.report.labelled))
    summaries.unshift(
      splitSummary(
        splits.map((e) => {
          const lb = e.report.leaderboard.metrics[0]!;
          const entries = lb.entries.map((x) => ({
            ...x,
            decided: x.human?.labelled ?? 0,
            accuracy: { value: x.human?.accuracy ?? null, ci: null },
          }));
          return { split: e.split, board: { ...lb, metric: 'human labels', entries } };
        }),
      ),
    );
  return { splits, summaries };
}
