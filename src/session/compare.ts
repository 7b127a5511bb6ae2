/**
 * Several systems in one session, the scoring worker's side: reading several files as one input (saved
 * for resume as one bundle Blob), mapping them with a system column, the wide layout or one file per system
 * (core/io/systems.ts, as `verity compare` does), and, once scored, the comparison — leaderboard, paired
 * tests, metric-vs-human ranking — with the CLI's defaults, so the app and `verity compare` give equal numbers.
 * The page gets the report (small) and pages of the questions where systems differ, never the rows.
 */
import type { ParsedTable } from '../core/io/parse.ts';
import { readBlobInput, sourceOf } from '../core/io/formats/index.ts';
import {
  compareReportOf,
  compareTable,
  disagreements,
  leaderboardCsv,
  reportJson,
  rowRecord,
  type CompareReport,
  type CompareTable,
  type FilesInput,
  type InputInfo,
  type SystemFile,
  type SystemRow,
} from '../core/compare/index.ts';
import { labelValue } from '../core/records.ts';
import type { ResultTable } from '../core/result-table.ts';
import { compareHtml, type HtmlRun } from '../core/compare/html.ts';
import { compareSplits, splitCandidates, SYSTEM_PREFIX } from '../core/compare/split.ts';
import { VerityError, type AnyMetric } from '../core/types.ts';
import type {
  CompareExportKind,
  Result,
  CompareView,
  DifferDetail,
  DifferQuery,
  DifferRow,
  NamedBlob,
  SystemAnswer,
  SplitsView,
  SystemsSummary,
} from './api.ts';

import { messageOf, settle } from '../core/errors.ts';
export { bundleFiles, bundleName, unbundleFiles } from '../core/io/bundle.ts';
import { DEFAULTS } from '../core/defaults.ts';

/** The CLI's defaults (`verity compare`): the same seed, resamples and α give the same numbers. */
export const COMPARE_DEFAULTS = { seed: DEFAULTS.bootstrap.seed, resamples: DEFAULTS.bootstrap.resamples, alpha: DEFAULTS.alpha } as const;

/** Reads each file (any format the CLI reads: JSONL, JSON, CSV, TSV, Parquet, Inspect logs). */
export async function readFiles(files: readonly NamedBlob[], onProgress?: (read: number, total: number) => void): Promise<SystemFile[]> {
  const total = files.reduce((n, f) => n + f.blob.size, 0);
  let before = 0;
  const out: SystemFile[] = [];
  for (const f of files) {
    const base = before;
    try {
      out.push({
        name: f.name,
        table: await readBlobInput(f.blob, f.name, onProgress ? { onProgress: (r) => onProgress(base + r, total) } : {}),
      });
    } catch (e) {
      throw new VerityError(`${f.name}: ${messageOf(e)}`, 'input');
    }
    before += f.blob.size;
  }
  return out;
}

/** The files seen as one table for the preview and the column selects: every column, records in file order. */
export function unionTable(files: readonly SystemFile[]): ParsedTable {
  const columns = [...new Set(files.flatMap((f) => f.table.columns))];
  const sources = new Set(files.map((f) => sourceOf(f.table)));
  return {
    // Read as one format when every file was (the header says "Parquet" for Parquet files, not "JSON").
    ...(sources.size === 1 ? { source: [...sources][0]! } : {}),
    format: files[0]!.table.format,
    columns,
    records: files.flatMap((f) => f.table.records),
    issues: files.flatMap((f) => f.table.issues.map((i) => ({ ...i, message: `${f.name}: ${i.message}` }))),
  };
}

// ---------- mapping ----------

export function systemsSummary(input: FilesInput): SystemsSummary {
  const rows = Object.create(null) as Record<string, number>;
  for (const r of input.rows) rows[r.system] = (rows[r.system] ?? 0) + 1;
  return {
    systems: input.systems,
    layout: input.layout,
    ...(input.systemColumn ? { systemColumn: input.systemColumn } : {}),
    keyBy: input.keyBy,
    pairing: input.pairing,
    sources: input.sources,
    coverage: input.coverage,
    rows,
    notes: input.notes,
  };
}

/** The input's description without its rows, kept for the report's JSON. */
export function inputInfo(input: FilesInput): InputInfo {
  return {
    sources: input.sources,
    layout: input.layout,
    keyBy: input.keyBy,
    pairing: input.pairing,
    notes: input.notes,
    coverage: input.coverage,
  };
}

// ---------- the comparison ----------

/**
 * The comparison of one run's state (rows scored so far, the metrics with their current thresholds): the
 * comparison table and report are built once and kept until the run changes.
 */
export class Comparison {
  readonly table: CompareTable;
  readonly report: CompareReport;
  /** Rows scored when it was built. */
  private readonly done: number;
  private listed: { key: string; rows: { q: number; decisions: number[]; split: string }[] } | null = null;
  private candidates: string[] | undefined;

  private constructor(
    private readonly rows: readonly SystemRow[],
    private readonly results: ResultTable,
    readonly metrics: readonly AnyMetric[],
    readonly input: InputInfo,
    /** The judge a review was made for: the reviewed estimate starts from it. */
    private readonly reference: string | undefined,
  ) {
    this.done = results.length;
    // Only the scored rows: a cancelled run compares what it has (the CLI compares every row of a finished run).
    this.table = compareTable(
      rows.slice(0, results.length),
      results,
      metrics.map((m) => ({ name: m.name, threshold: m.threshold })),
      reference ? { reference } : {},
    );
    this.report = compareReportOf(this.table, COMPARE_DEFAULTS);
  }

  /** The previous comparison when the run has not changed since, else a new one. */
  static of(
    prev: Comparison | null,
    rows: readonly SystemRow[],
    results: ResultTable,
    metrics: readonly AnyMetric[],
    input: InputInfo,
    reference?: string,
  ): Comparison {
    // Calibration replaces the metrics (new thresholds) and re-decides the rows in place: a new comparison.
    const same =
      prev &&
      prev.rows === rows &&
      prev.results === results &&
      prev.metrics === metrics &&
      prev.done === results.length &&
      prev.reference === reference;
    return same ? prev : new Comparison(rows, results, metrics, input, reference);
  }

  view(): CompareView {
    this.candidates ??= splitCandidates(this.rows.slice(0, this.done));
    return { report: this.report, input: this.input, splitColumns: this.candidates };
  }

  /** The systems × splits summaries of a column, with the CLI's statistics (verity compare --split-by). */
  splits(column: string): SplitsView {
    const r = compareSplits(
      this.rows,
      this.results,
      this.metrics.map((m) => ({ name: m.name, threshold: m.threshold })),
      column,
      COMPARE_DEFAULTS,
    );
    if ('missing' in r)
      throw new VerityError(
        column === SYSTEM_PREFIX
          ? `the system "${this.rows[r.missing]?.system ?? ''}" has no "/" to split its name at`
          : `row ${r.missing + 1} has no value in ${column}: it does not split the questions`,
        'usage',
        'bad-option',
      );
    return {
      column,
      splits: r.splits.map((s) => ({ split: s.split, rows: s.rows, questions: s.report.questions })),
      summaries: r.summaries,
    };
  }

  /** A page of the questions where systems differ under this query (the list is kept for the next page). */
  differences(query: DifferQuery, offset: number, limit: number): { total: number; rows: DifferRow[] } {
    const key = JSON.stringify(query);
    if (this.listed?.key !== key) {
      const found = disagreements(this.table, {
        metric: query.metric,
        ...(query.system !== undefined && query.correct !== undefined ? { system: query.system, correct: query.correct } : {}),
        ...(query.againstHuman ? { againstHuman: true } : {}),
      });
      const rows = found.map((d) => ({ q: d.q, decisions: d.decisions, split: `${d.correct}/${d.decided}` }));
      this.listed = { key, rows: query.split ? rows.filter((r) => r.split === query.split) : rows };
    }
    const all = this.listed.rows;
    const out: DifferRow[] = [];
    for (let p = Math.max(0, offset); p < Math.min(all.length, offset + limit); p++) {
      const r = all[p]!;
      const first = this.firstRow(r.q)!;
      out.push({ position: p, q: r.q, question: first.question, golds: first.golds, decisions: r.decisions, split: r.split });
    }
    return { total: all.length, rows: out };
  }

  /** Every system's answer to question q, with each metric's score, decision and explanation. */
  detail(q: number): DifferDetail {
    if (!(q >= 0 && q < this.table.keys.length)) throw new RangeError(`no question ${q}`);
    const first = this.firstRow(q)!;
    const Q = this.table.keys.length;
    const answers = this.table.systems.map((system, s): SystemAnswer => {
      const i = this.table.rowOf[s * Q + q]!;
      if (i < 0) return { system, index: null, candidate: null, label: null, metrics: {} };
      const row = this.rows[i]!;
      const metrics: SystemAnswer['metrics'] = {};
      for (const [name, x] of Object.entries(this.results.row(i)))
        metrics[name] = { score: x.score, decision: x.decision, explanation: x.explanation };
      return { system, index: i, candidate: row.candidate, label: labelValue(row.label), metrics };
    });
    return { q, question: first.question, golds: first.golds, answers };
  }

  /**
   * The leaderboard as CSV (one line per metric and system), the whole report as JSON, as the CLI's --out writes
   * them, or the page to share, as its --html writes it (`run`: what made the comparison).
   */
  exportFile(kind: CompareExportKind, run: HtmlRun): Blob {
    if (kind === 'report-html') return new Blob([compareHtml(this.report, this.table, this.rows, this.input, run)], { type: 'text/html' });
    if (kind === 'leaderboard-json')
      return new Blob([`${JSON.stringify(reportJson(this.report, this.input), null, 1)}\n`], { type: 'application/json' });
    return new Blob([leaderboardCsv(this.report)], { type: 'text/csv' });
  }

  /** The per-row record of row i: its system first, then the usual record and the input's other columns. */
  record(i: number, detailed: ReadonlySet<string>): Record<string, unknown> {
    return rowRecord(this.rows[i]!, this.results.row(i), detailed);
  }

  private firstRow(q: number): SystemRow | undefined {
    const Q = this.table.keys.length;
    for (let s = 0; s < this.table.systems.length; s++) {
      const i = this.table.rowOf[s * Q + q]!;
      if (i >= 0) return this.rows[i];
    }
    return undefined;
  }
}

/**
 * What the session answers about the comparison of the run's systems: failures come back as data, as the session's
 * own do. Its public members are `CompareApi`, so a new method is written once, here.
 */
export class CompareFacade {
  constructor(private readonly s: { comparison(): Comparison; compareRun(): HtmlRun }) {}

  report(): Promise<Result<CompareView>> {
    return settle(() => this.s.comparison().view());
  }

  differences(q: DifferQuery, offset: number, limit: number): Promise<Result<{ total: number; rows: DifferRow[] }>> {
    return settle(() => this.s.comparison().differences(q, offset, limit));
  }

  detail(q: number): Promise<Result<DifferDetail>> {
    return settle(() => this.s.comparison().detail(q));
  }

  exportFile(kind: CompareExportKind): Promise<Result<Blob>> {
    return settle(() => this.s.comparison().exportFile(kind, this.s.compareRun()));
  }

  /** One comparison per value of `column`, summarised as systems × splits with macro averages. */
  splits(column: string): Promise<Result<SplitsView>> {
    return settle(() => this.s.comparison().splits(column));
  }
}

/** What the session answers about the comparison: the facade's public members. */
export type CompareApi = Pick<CompareFacade, keyof CompareFacade>;
