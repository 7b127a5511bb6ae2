/**
 * What a run's results answer: views (filter, search, sort) kept for the table, rows by position, one row's
 * detail, the report, calibration, exports and the comparison of several systems — all over the run's
 * ResultTable and the input's rows. The page gets small pieces, never the rows.
 */
import { type RowResults } from '../core/scoring.ts';
import { labelValue } from '../core/records.ts';
import { ResultTable } from '../core/result-table.ts';
import type { HtmlRun } from '../core/compare/html.ts';
import {
  fitThresholds,
  commonPrefix,
  rowAt,
  runReport,
  runReportJson,
  viewLength,
  viewOf,
  type RunReport,
  type View,
  type ViewQuery,
} from '../core/explore.ts';
import { isBatchMetric, VerityError } from '../core/types.ts';
import { rowRecord, type SystemRow } from '../core/compare/index.ts';
import { modelRecords } from '../runtime/context.ts';
import { csvParts, jsonlParts } from './export.ts';
import { Comparison } from './compare.ts';
import { notify, type ActiveRun, type Runner } from './runner.ts';
import { tick } from './engine.ts';
import type { SessionInput } from './input.ts';
import type { Calibrated, ExportKind, RowDetail, TableRow, ViewInfo } from './api.ts';

const EMPTY = new ResultTable([]);

export class SessionQueries {
  /** The run whose results these are; null before a run (or after a remap). */
  run: ActiveRun | null = null;
  /** The current view (explore.ts). */
  private shown: View = 0;
  private viewId = 0;
  private compared: Comparison | null = null;
  /** The rows as the comparison takes them: with a review's labels in, and the judge it was made for (set by the session). */
  withLabels: (rows: readonly SystemRow[]) => { rows: readonly SystemRow[]; reference?: string | undefined } = (rows) => ({ rows });

  constructor(
    private readonly input: SessionInput,
    private readonly runner: Runner,
    private readonly version: string,
  ) {}

  /** Labels or thresholds changed: the comparison is made again when next asked for. */
  invalidate(): void {
    this.compared = null;
  }

  get table(): ResultTable {
    return this.run?.results ?? EMPTY;
  }

  /** A new run (or none): views and the comparison start again. */
  reset(run: ActiveRun | null): void {
    this.run = run;
    this.compared = null;
    this.shown = 0;
  }

  /**
   * Computes a view (filter, search, sort) over the rows scored so far and keeps it: the caller gets its size and
   * how much of the previous view it kept, then asks for the rows on screen by position.
   */
  view(q: ViewQuery): ViewInfo {
    const next = viewOf(this.input.rows, this.table, q);
    const unchanged = commonPrefix(this.shown, next);
    this.shown = next;
    return { id: ++this.viewId, length: viewLength(next), unchanged, scored: this.table.length };
  }

  /** The rows at these positions of the current view, and that view's id (answers for an older view are dropped). */
  rowsAt(positions: number[]): { viewId: number; rows: { position: number; row: TableRow }[] } {
    const out: { position: number; row: TableRow }[] = [];
    const n = viewLength(this.shown);
    for (const p of positions) if (p >= 0 && p < n) out.push({ position: p, row: this.tableRow(rowAt(this.shown, p)) });
    return { viewId: this.viewId, rows: out };
  }

  detail(i: number): RowDetail | null {
    if (i < 0 || i >= this.table.length) return null;
    const r = this.input.rows[i]!;
    return { ...this.tableRow(i), ...(r.choices ? { choices: r.choices } : {}), results: this.rowResults(i), models: this.usedModels() };
  }

  report(): RunReport {
    const a = this.scored();
    return runReport(this.input.rows, a.results, a.metrics);
  }

  /**
   * Fits each metric's threshold on the labelled rows scored so far: a new version of the run's configuration,
   * from which every row is decided again and every later row scored (here, in the pool, after a resume).
   */
  calibrate(): Calibrated {
    const a = this.scored();
    const rows = this.input.rows;
    if (!rows.some((r) => r.label)) throw new VerityError('the file has no labels to calibrate on', 'usage', 'not-ready');
    const { thresholds, skipped } = fitThresholds(
      rows,
      a.results,
      a.metrics.map((m) => m.name),
    );
    const labelled = rows.slice(0, a.results.length).filter((r) => r.label).length;
    a.reconfigure({ ...a.config, calibration: { thresholds, labelled, at: Date.now() } });
    a.results.redecide(thresholds);
    return { report: runReport(rows, a.results, a.metrics), thresholds, skipped };
  }

  /** The comparison of the run's systems (compare.ts); throws when the mapping has one system or nothing is scored. */
  comparison(): Comparison {
    const systems = this.input.systems;
    if (!systems)
      throw new VerityError(
        'one system: choose a system column or the wide layout, or open one file per system, to compare',
        'usage',
        'not-ready',
      );
    const a = this.scored();
    const { rows, reference } = this.withLabels(this.input.rows as SystemRow[]);
    return (this.compared = Comparison.of(this.compared, rows, a.results, a.metrics, systems, reference));
  }

  /** What made the run, as the comparison's HTML report states it (as `verity compare --html` does). */
  compareRun(): HtmlRun {
    const a = this.run;
    if (!a) throw new VerityError('nothing is scored', 'usage', 'not-ready');
    const models = this.usedModels();
    return {
      verity: this.version,
      metrics: a.metrics.map((m) => ({ name: m.name, threshold: m.threshold })),
      ...(Object.keys(models).length ? { models } : {}),
    };
  }

  /**
   * Per-row results (JSONL with the run configuration on its first line, or CSV) or the report (JSON), as a Blob
   * built from parts. Refused when nothing is scored (e.g. after a remap).
   */
  async exportFile(kind: ExportKind, onProgress?: (done: number, total: number) => void): Promise<Blob> {
    const a = this.run;
    if (!a || a.results.length === 0) throw new VerityError('nothing is scored: run the metrics first', 'usage', 'not-ready');
    const rows = this.input.rows as SystemRow[];
    const info = this.runInfo(a);
    if (kind === 'report')
      return new Blob([`${JSON.stringify(runReportJson(info, runReport(rows, a.results, a.metrics)), null, 2)}\n`], {
        type: 'application/json',
      });
    try {
      const input = {
        rows,
        results: a.results,
        metricNames: a.metrics.map((m) => m.name),
        detailed: new Set(a.metrics.filter(isBatchMetric).map((m) => m.name)),
        run: info,
        onProgress: (d: number, t: number) => notify(onProgress, d, t),
        pause: tick,
        prepare: (from: number, to: number) => this.runner.computeAhead(a, from, to),
      };
      // Several systems: each record carries its system and the input's other columns (as verity compare --rows-out).
      // CSV has no details column, so its records skip computing the embedded metrics' details again.
      const systems = this.input.systems;
      const none = new Set<string>();
      const parts =
        kind === 'csv'
          ? await csvParts({
              ...input,
              goldSep: this.input.goldSep,
              ...(systems
                ? {
                    record: (i: number) => rowRecord(rows[i]!, a.results.row(i), none),
                    // A record's keys do not depend on its results, which would be computed again for every row.
                    recordKeys: (i: number) => Object.keys(rowRecord(rows[i]!, {}, none)),
                  }
                : {}),
            })
          : await jsonlParts({
              ...input,
              ...(systems ? { record: (i: number) => rowRecord(rows[i]!, this.rowResults(i), input.detailed) } : {}),
            });
      return new Blob(parts, { type: kind === 'csv' ? 'text/csv' : 'application/x-ndjson' });
    } finally {
      a.ahead = undefined;
      this.runner.retire();
    }
  }

  private scored(): ActiveRun {
    const a = this.run;
    if (!a || a.results.length === 0) throw new VerityError('nothing is scored', 'usage', 'not-ready');
    return a;
  }

  /**
   * Row i's results with every metric's details: the table keeps the model metrics' details; the embedded
   * metrics' are computed again here (a pure function of the row, so the same as when the run scored it).
   */
  private rowResults(i: number): RowResults {
    const a = this.run;
    const out = this.table.row(i);
    if (!a) return out;
    const fresh = a.again(i);
    for (const [name, r] of Object.entries(out)) {
      const d = fresh[name]?.details;
      if (d !== undefined && r.score === fresh[name]!.score) out[name] = { ...r, details: d };
    }
    return out;
  }

  tableRow(i: number): TableRow {
    const r = this.input.rows[i]!;
    const t = this.table;
    const m: TableRow['metrics'] = {};
    if (i < t.length)
      for (const name of t.metrics) {
        const cls = t.cls(name, i) as RowResults[string]['class'];
        const set = t.set(name, i) as RowResults[string]['set'];
        m[name] = { score: t.score(name, i), decision: t.decision(name, i), ...(cls ? { class: cls } : {}), ...(set ? { set } : {}) };
      }
    return {
      index: i,
      row: r.row,
      id: r.id,
      question: r.question,
      golds: r.golds,
      candidate: r.candidate,
      label: labelValue(r.label),
      metrics: m,
      ...(this.input.systems ? { system: (r as SystemRow).system } : {}),
    };
  }

  private usedModels() {
    return modelRecords(this.run?.models ?? {}) ?? {};
  }

  /** The run's configuration as exports record it. */
  private runInfo(a: ActiveRun) {
    return {
      verity: this.version,
      file: a.meta.fileName,
      metrics: a.metrics.map((m) => ({ name: m.name, threshold: m.threshold })),
      settings: a.config.settings,
      ...(a.config.calibration ? { calibration: a.config.calibration } : {}),
      mapping: a.config.mapping,
      models: this.usedModels(),
      rows: { total: this.input.rows.length, scored: a.results.length },
    };
  }
}
