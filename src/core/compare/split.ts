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
import { tableFrame } from './reviewed.ts';
import { compareTable } from './table.ts';
import { reviewedMean, reviewedOf, varianceScale } from '../review/estimate.ts';
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

/**
 * Each row's split under `column` (SYSTEM_PREFIX: the part of its system name before the last "/"), or the first row
 * without one, with what to say about it.
 */
export function splitValues(rows: readonly SplitRow[], column: string): string[] | { missing: number; message: string } {
  const named = column === SYSTEM_PREFIX ? bySystemPrefix(rows) : rows;
  if (!named) {
    const at = rows.findIndex((r) => cutAt(r.system) < 0);
    return { missing: at, message: splitMissing(rows, column, at) };
  }
  const parts = splitRows(named, column);
  if ('missing' in parts) return { missing: parts.missing, message: splitMissing(rows, column, parts.missing) };
  const out = new Array<string>(rows.length);
  for (const p of parts) for (const i of p.rows) out[i] = p.value;
  return out;
}

/**
 * Why a row cannot be split by `column` ("COLUMN: row 3 has no value there; …"): it has no value there, and which
 * columns there are. Each surface says how the column was chosen before it ("--split-by ", "split by ").
 */
export function splitMissing(rows: readonly SplitRow[], column: string, missing: number): string {
  if (column === SYSTEM_PREFIX) return `${SYSTEM_PREFIX}: the system "${rows[missing]?.system ?? ''}" has no "/" to split its name at`;
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r.extra)))];
  return `${column}: row ${missing + 1} has no value there; the columns not mapped to a field are ${columns.join(', ') || 'none'}`;
}

export interface SplitCell {
  accuracy: number | null;
  /** Questions the system decided in the split. */
  n: number;
  /** A reviewed estimate's standard error (fixed size); absent for an accuracy read from decisions or labels. */
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

/** Descending macro average, those without one last. */
const byMacro = (a: SplitSummaryRow, b: SplitSummaryRow): number =>
  a.macro === b.macro ? 0 : a.macro === null ? 1 : b.macro === null ? -1 : b.macro - a.macro;

/**
 * Each system's accuracy on `metric` per split, and the macro average with its interval (level 0.95 by default);
 * systems in descending order of the macro average (those without one last).
 */
export function splitSummary(boards: readonly { split: string; board: MetricLeaderboard }[], level = 0.95): SplitSummary {
  const z = twoSidedZ(level);
  const splits = boards.map((b) => b.split);
  const systems = [...new Set(boards.flatMap((b) => b.board.entries.map((e) => e.system)))];
  const small = new Set<string>();
  const rows = systems.map((system): SplitSummaryRow => {
    const cells: Record<string, SplitCell> = Object.create(null) as Record<string, SplitCell>;
    const have: { p: number; n: number }[] = [];
    const missing: string[] = [];
    for (const { split, board } of boards) {
      const e = board.entries.find((x) => x.system === system);
      const cell: SplitCell = { accuracy: e?.decided ? e.accuracy.value : null, n: e?.decided ?? 0 };
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
  rows.sort(byMacro);
  return { metric: boards[0]?.board.metric ?? '', splits, small: splits.filter((s) => small.has(s)), level, systems: rows };
}

/**
 * After a review: each system's reviewed accuracy per split and their mean, all read from one frame over every split
 * (review/estimate.ts reviewedMean). The splits share the review's steps, so their errors are not independent: the
 * mean's interval is the confidence sequence of the mean itself, which holds wherever the review stopped. Per split,
 * the questions every system of that split answered (the compare default), else each system's own.
 */
function reviewedSplitSummary(
  rows: readonly SplitRow[],
  results: ResultColumns,
  metrics: readonly MetricInfo[],
  parts: readonly Split[],
  reference: string | undefined,
  level = 0.95,
): SplitSummary | null {
  const splitOf = new Array<string>(rows.length);
  for (const p of parts) for (const i of p.rows) splitOf[i] = p.value;
  // Two splits may use the same ids: each question keyed with its split.
  const keyed = rows.map((r, i) => ({ ...r, key: JSON.stringify([splitOf[i], r.key]) }));
  const t = compareTable(keyed, results, metrics, reference ? { reference } : {});
  if (!t.partial || !t.review) return null;
  const fr = tableFrame(t, t.review);
  const scale = varianceScale(fr);
  const S = t.systems.length;
  const Q = t.keys.length;
  const counted = (s: number, q: number) => !Number.isNaN(fr.f[s * Q + q]!);
  const splitOfKey = new Map(keyed.map((r, i) => [r.key, splitOf[i]!]));
  const questions = parts.map((p) => {
    const qs = t.keys.flatMap((k, q) => (splitOfKey.get(k) === p.value ? [q] : []));
    const present = Array.from({ length: S }, (_, s) => s).filter((s) => qs.some((q) => counted(s, q)));
    const shared = qs.filter((q) => present.every((s) => counted(s, q)));
    return t.review!.estimand === 'shared' && shared.length ? shared : qs;
  });
  const small = new Set<string>();
  const systems = t.systems.map((system, s): SplitSummaryRow => {
    const cells: Record<string, SplitCell> = Object.create(null) as Record<string, SplitCell>;
    const missing: string[] = [];
    const have: number[][] = [];
    parts.forEach((p, k) => {
      const mine = questions[k]!.filter((q) => counted(s, q)).map((q) => s * Q + q);
      const r = mine.length ? reviewedOf(fr, mine, level, scale) : null;
      cells[p.value] = r ? { accuracy: r.value, n: r.rows, ...(Number.isFinite(r.se) ? { se: r.se } : {}) } : { accuracy: null, n: 0 };
      if (!r) missing.push(p.value);
      else {
        have.push(mine);
        if (r.rows < 30) small.add(p.value);
      }
    });
    const mean = have.length ? reviewedMean(fr, have, level, scale) : null;
    return { system, cells, macro: mean?.value ?? null, ci: mean?.ci ?? null, missing };
  });
  systems.sort(byMacro);
  const splits = parts.map((p) => p.value);
  return { metric: 'reviewed estimate', splits, small: splits.filter((x) => small.has(x)), level, systems };
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
  opts: PairedOptions & { reference?: string } = {},
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
  const reviewed = splits.some((e) => e.report.leaderboard.metrics[0]?.rankedBy === 'reviewed')
    ? reviewedSplitSummary(named, results, metrics, parts, opts.reference)
    : null;
  if (reviewed) summaries.unshift(reviewed);
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
