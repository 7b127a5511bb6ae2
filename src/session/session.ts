/**
 * A scoring session: open a file, map its columns, run metrics over it chunk by chunk (each chunk saved before
 * it is reported, so a crash resumes), cancel and continue, resume a saved run, query views, calibrate, export.
 * All rows and results stay here; callers get small pieces. The run store and the model host are injected, so
 * the same session runs in the browser's scoring worker and in Node tests.
 */
import type { ParsedTable } from '../core/io/parse.ts';
import type { BlobParseOptions } from '../core/io/parse-stream.ts';
import { nestedPaths, readBlobInput, sourceOf, withPaths } from '../core/io/formats/index.ts';
import { detectGoldSeparator, FIELDS, mapRows, resolveColumns, resolveLayout, type MappingNote } from '../core/io/fields.ts';
import { createMetric } from '../core/metrics/index.ts';
import { itemOf, labelValue, scoreRow, scoreRows, withEvidenceCache, type RowResults } from '../core/run.ts';
import { ChunkPacker, packChunk, ResultTable, type ResultChunk } from '../core/result-table.ts';
import type { HtmlRun } from '../core/compare/html.ts';
import {
  calibrateThresholds,
  commonPrefix,
  queryView,
  redecide,
  runReport,
  runReportJson,
  type RunReport,
  type ViewQuery,
} from '../core/results.ts';
import { isBatchMetric, type AnyMetric, type Metric, type QaRow } from '../core/types.ts';
import type { ModelContext } from '../core/capabilities.ts';
import { hostContext, modelRecords, type HostLike } from '../runtime/context.ts';
import type { LoadedModel } from '../runtime/messages.ts';
import { contentHash, RunStore, type SavedRun } from '../runtime/run-store.ts';
import { whenCollected } from '../runtime/collect.ts';
import type {
  ExportKind,
  Inspection,
  MappedSummary,
  Mapping,
  NamedBlob,
  Pulse,
  Result,
  Resumed,
  RowDetail,
  RunConfig,
  RunEvent,
  RunOutcome,
  SavedRunInfo,
  SessionApi,
  TableRow,
  ViewInfo,
} from './api.ts';
import { csvParts, jsonlParts } from './export.ts';
import { rowRecord, type InputInfo, type SystemFile, type SystemRow } from '../core/compare/index.ts';
import {
  Comparison,
  bundleFiles,
  bundleName,
  inputInfo,
  mapSystems,
  readFiles,
  systemsSummary,
  unbundleFiles,
  unionTable,
} from './compare.ts';
import { messageOf } from '../core/errors.ts';
import { DEFAULTS } from '../core/defaults.ts';
import { errorMessage, noteMessage } from './messages.ts';
import type { ScoreJob, ScorePool } from './pool.ts';

const SAMPLE = 20;
const MAX_ISSUES = 500;
/**
 * Progress events at most this often (ms), besides the first chunk's and the last: each one wakes the page's main
 * thread and redraws it, and on a busy machine a redraw that loses its core can wait past 50 ms (bench:app).
 */
const PROGRESS_MS = 500;
/** Rows per saved chunk. */
export const SYNC_CHUNK = 2000;
/** Rows scored between looks at the clock: small enough that a slice of long-form rows stays well under a second. */
const SLICE_ROWS = 16;

const tick = () => new Promise<void>((r) => setTimeout(r, 0));

/**
 * Calls a callback that may live across a worker boundary. Its return value is never used (a comlink proxy's
 * answer is a promise, which may reject when the value cannot be cloned): a rejection is dropped here, never
 * left unhandled.
 */
export function notify<A extends unknown[]>(fn: ((...args: A) => unknown) | undefined, ...args: A): void {
  if (!fn) return;
  try {
    const r = fn(...args);
    if (r && typeof (r as Promise<unknown>).then === 'function') (r as Promise<unknown>).then(undefined, () => {});
  } catch {
    /* the page went away: the session goes on */
  }
}

export interface SessionDeps {
  store: RunStore;
  /** The model host for model-based metrics, once connected. */
  models?: () => HostLike | null;
  /** Written into every export. */
  version: string;
  newId?: () => string;
  /** Longest stretch of scoring without yielding (ms): pings and cancel get in between. */
  sliceMs?: number;
  /** Workers that score chunks of a run of embedded metrics side by side (see pool.ts); without it, chunks are scored here. */
  pool?: ScorePool;
  /**
   * Asks the engine for a full garbage collection until `gone` settles (runtime/collect.ts): called when a large
   * file's parsed records are dropped at a run's start, so they do not wait in the old generation while the run's
   * memory grows. `gone` settles once they were collected.
   */
  collect?: (gone: Promise<void>) => void;
}

/** Records dropped at once that are worth a collection of their own (collect above). */
const COLLECT_RECORDS = 100_000;

/** A run being scored or scored: what `continueRun`, exports and the report use. */
interface ActiveRun {
  meta: SavedRun<RunConfig>;
  metrics: AnyMetric[];
  models: Record<string, LoadedModel>;
  /** False once its saved copy was deleted: the rows stay here (table, exports), nothing is written again. */
  saved: boolean;
  /** Its thresholds were fitted on the labels (the metrics differ from fresh ones). */
  calibrated?: boolean;
  /** Row i's embedded metrics' results again, with explanations and details (as the run scored them). */
  again: (i: number) => RowResults;
  /** Rows from `from` on, computed again in the pool's workers ahead of an export's batch. */
  ahead?: { from: number; table: ResultTable };
}

/**
 * Metrics whose details and explanations a run keeps for every row: the model-based ones. The embedded metrics'
 * are a pure function of the row, computed again for the rows asked for (the detail view, exports).
 */
const detailedOf = (metrics: readonly AnyMetric[]): Set<string> => new Set(metrics.filter(isBatchMetric).map((m) => m.name));

const newTable = (metrics: readonly AnyMetric[]): ResultTable =>
  new ResultTable(
    metrics.map((m) => m.name),
    detailedOf(metrics),
    detailedOf(metrics),
  );

export class ScoringSession implements SessionApi {
  /** The input, and its content hash (contentHash: the saved run's key) computed while it was read. */
  private file: { blob: Blob; name: string; hash: Promise<string> } | null = null;
  private table: ParsedTable | null = null;
  /** The records were dropped once mapped into rows (they would double the memory of a 10^6-row run). */
  private released = false;
  /** The mapping the rows were made with (JSON), so a run with the same one keeps them instead of mapping again. */
  private mappedAs: string | null = null;
  private rows: QaRow[] = [];
  /** The current run's results by column, in row order. */
  private results = new ResultTable([]);
  /** The current view (row indices in display order). */
  private shown: Uint32Array = new Uint32Array(0);
  private viewId = 0;
  private active: ActiveRun | null = null;
  private cancelled = false;
  /** Aborts the chunk being scored in this thread (model runs: before their next batch). */
  private stop: AbortController | null = null;
  private running = false;
  /** Several systems (compare.ts): the open files when there are several, the input's description once mapped. */
  private parts: SystemFile[] | null = null;
  private systems: InputInfo | null = null;
  private compared: Comparison | null = null;

  constructor(private readonly deps: SessionDeps) {}

  /** Reads and parses a file; the detected column mapping comes back for the caller to show and edit. */
  async open(blob: Blob, name: string, onProgress?: (read: number, total: number) => void): Promise<Result<Inspection>> {
    if (this.running) return { ok: false, error: 'a run is going: cancel it first' };
    try {
      // Hashed side by side with the parse, so the run does not read the file again. Hashed alone at the run's
      // start, a million-row file left ~250 MB of spent stream chunks in Chromium until the worker's next full
      // collection (the hash allocates almost nothing, so no young collection came to free them).
      const hash = contentHash(blob);
      hash.catch(() => {}); // the run awaits it and says why it failed
      this.file = { blob, name, hash };
      this.table = await this.parse(blob, name, onProgress ? { onProgress: (r, t) => notify(onProgress, r, t) } : {});
      this.released = false;
      this.rows = [];
      this.mappedAs = null;
      this.clearResults();
      return { ok: true, value: this.inspection(name, this.table) };
    } catch (e) {
      this.file = null;
      this.table = null;
      return { ok: false, error: errorMessage(e) };
    }
  }

  /** Several files, one per system (compare.ts), opened as one input; one file opens as `open` does. */
  async openFiles(files: NamedBlob[], onProgress?: (read: number, total: number) => void): Promise<Result<Inspection>> {
    if (files.length === 1) return this.open(files[0]!.blob, files[0]!.name, onProgress);
    return this.open(bundleFiles(files), bundleName(files), onProgress);
  }

  /** The comparison of the run's systems (compare.ts); throws when the mapping has one system or nothing is scored. */
  comparison(): Comparison {
    if (!this.systems) throw new Error('one system: choose a system column or the wide layout, or open one file per system, to compare');
    if (!this.active || this.results.length === 0) throw new Error('nothing is scored');
    return (this.compared = Comparison.of(this.compared, this.rows as SystemRow[], this.results, this.active.metrics, this.systems));
  }

  /** What made the run, as the comparison's HTML report states it (as `verity compare --html` does). */
  compareRun(): HtmlRun {
    const a = this.active;
    if (!a) throw new Error('nothing is scored');
    const models = this.usedModels();
    return {
      verity: this.deps.version,
      metrics: a.metrics.map((m) => ({ name: m.name, threshold: m.threshold })),
      ...(Object.keys(models).length ? { models } : {}),
    };
  }

  /** Maps the columns; results of an earlier mapping are gone (they described other rows). */
  async map(m: Mapping): Promise<Result<MappedSummary>> {
    if (this.running) return { ok: false, error: 'a run is going: cancel it first' };
    try {
      return { ok: true, value: await this.applyMapping(m) };
    } catch (e) {
      return { ok: false, error: errorMessage(e) };
    }
  }

  /** Starts a run from the first row, saved under a new id, and scores every row (or until cancelled). */
  async run(c: RunConfig, onEvent?: (e: RunEvent) => void): Promise<Result<RunOutcome>> {
    if (this.running) return { ok: false, error: 'a run is already going' };
    // Here, not when scoring starts: a cancel that arrives while the run is set up stops it before its first chunk.
    this.cancelled = false;
    try {
      // The page maps before it runs: mapping the same again would hold a second copy of every row meanwhile.
      if (this.mappedAs !== JSON.stringify(c.mapping)) await this.applyMapping(c.mapping);
      else this.clearResults();
      const input = this.file!;
      const dropped = this.release();
      const metrics = c.metrics.map((name) => createMetric(name, c.settings));
      const now = Date.now();
      const meta: SavedRun<RunConfig> = {
        version: 2,
        id: this.deps.newId?.() ?? `${now.toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
        fileName: input.name,
        fileSize: input.blob.size,
        inputHash: await input.hash,
        config: c,
        total: this.rows.length,
        chunkSize: metrics.some(isBatchMetric) ? DEFAULTS.rowsPerBatch.session : SYNC_CHUNK,
        chunks: 0,
        done: 0,
        resultBytes: 0,
        status: 'running',
        startedAt: now,
        updatedAt: now,
      };
      this.active = this.activeRun(meta, metrics);
      this.results.reserve(this.rows.length);
      if (await this.deps.store.begin(meta, input.blob)) notify(onEvent, { type: 'started', id: meta.id });
      else notify(onEvent, { type: 'warning', message: this.deps.store.failure! });
      // Last before scoring: what the start itself dropped is collected too.
      this.collectAfter(dropped);
    } catch (e) {
      return { ok: false, error: errorMessage(e) };
    }
    return this.scoreActive(onEvent);
  }

  /** Scores the rows not scored yet of the current run (after a cancel, or after `resume`). */
  async continueRun(onEvent?: (e: RunEvent) => void): Promise<Result<RunOutcome>> {
    if (this.running) return { ok: false, error: 'a run is already going' };
    this.cancelled = false;
    return this.scoreActive(onEvent);
  }

  private async scoreActive(onEvent?: (e: RunEvent) => void): Promise<Result<RunOutcome>> {
    if (!this.active) return { ok: false, error: 'there is no run to continue' };
    try {
      return { ok: true, value: await this.scoreFrom(this.active, onEvent) };
    } catch (e) {
      return { ok: false, error: messageOf(e) };
    }
  }

  /**
   * Stops the run at once: the chunks being scored are dropped (the pool's workers ended, a model run stopped
   * before its next batch); the chunks saved stay, and `continueRun` goes on after the last of them.
   */
  cancel(): void {
    this.cancelled = true;
    this.stop?.abort();
    if (this.running) this.deps.pool?.cancel();
  }

  /** Answers while alive, even mid-chunk (scoring yields between slices): a silent worker is dead, not busy. */
  ping(): Pulse {
    // A pool worker that stopped answering makes the session look dead, so the page recovers the run.
    const stalled = this.running ? this.deps.pool?.stalled() : null;
    if (stalled) throw new Error(stalled);
    return { done: this.results.length, running: this.running };
  }

  /** The saved runs, newest first. */
  async runs(): Promise<SavedRunInfo[]> {
    return (await this.deps.store.list<RunConfig>()).map((m) => ({
      id: m.id,
      fileName: m.fileName,
      done: m.done,
      total: m.total,
      chunkSize: m.chunkSize,
      metrics: m.config.metrics,
      status: m.status,
      startedAt: m.startedAt,
      updatedAt: m.updatedAt,
      bytes: m.fileSize + m.resultBytes,
      fileSize: m.fileSize,
      inputHash: m.inputHash.slice(0, 8),
    }));
  }

  /** Deletes a saved run; when it is the one here, its rows stay for the table and exports but are not saved again. */
  async deleteRun(id: string): Promise<void> {
    if (this.active?.meta.id === id) this.active.saved = false;
    await this.deps.store.delete(id);
  }

  async clearRuns(): Promise<void> {
    if (this.active) this.active.saved = false;
    await this.deps.store.clear();
  }

  /**
   * Brings a saved run back (file, mapping, results so far, checked to belong to it); `continueRun` scores the
   * rest. `models` replaces the run's models (after the model worker crashed: WASM, or a smaller model).
   */
  async resume(id: string, models?: RunConfig['models']): Promise<Result<Resumed>> {
    if (this.running) return { ok: false, error: 'a run is already going' };
    try {
      const saved = await this.deps.store.load<RunConfig>(id);
      const meta = saved.meta;
      if (models) {
        meta.config = { ...meta.config, models };
        await this.deps.store.update(meta);
      }
      this.file = { blob: saved.file, name: meta.fileName, hash: Promise.resolve(meta.inputHash) };
      this.table = await this.parse(saved.file, meta.fileName);
      this.released = false;
      const inspected = this.inspection(meta.fileName, this.table);
      const summary = await this.applyMapping(meta.config.mapping);
      const dropped = this.release();
      if (summary.rows !== meta.total) throw new Error(`the saved file now maps to ${summary.rows} rows, the run had ${meta.total}`);
      const metrics = meta.config.metrics.map((n) => createMetric(n, meta.config.settings));
      this.active = this.activeRun(meta, metrics);
      const table = this.results;
      table.reserve(this.rows.length);
      // Runs saved by earlier versions hold one object per row (and the embedded metrics' explanations, dropped).
      for (const c of saved.chunks) table.append(Array.isArray(c) ? packChunk(c, table.metrics, detailedOf(metrics)) : c);
      this.collectAfter(dropped);
      return { ok: true, value: { inspection: inspected, summary, config: meta.config, done: this.results.length } };
    } catch (e) {
      this.active = null;
      return { ok: false, error: `cannot resume: ${messageOf(e)}` };
    }
  }

  /**
   * Computes a view (filter, search, sort) over the rows scored so far and keeps it: the caller gets its size and
   * how much of the previous view it kept, then asks for the rows on screen by position.
   */
  view(q: ViewQuery): ViewInfo {
    const next = queryView(this.rows, this.results, q);
    const unchanged = commonPrefix(this.shown, next);
    this.shown = next;
    return { id: ++this.viewId, length: next.length, unchanged, scored: this.results.length };
  }

  /** The rows at these positions of the current view, and that view's id (answers for an older view are dropped). */
  rowsAt(positions: number[]): { viewId: number; rows: { position: number; row: TableRow }[] } {
    const out: { position: number; row: TableRow }[] = [];
    for (const p of positions) if (p >= 0 && p < this.shown.length) out.push({ position: p, row: this.tableRow(this.shown[p]!) });
    return { viewId: this.viewId, rows: out };
  }

  detail(i: number): RowDetail | null {
    if (i < 0 || i >= this.results.length) return null;
    const r = this.rows[i]!;
    return { ...this.tableRow(i), ...(r.choices ? { choices: r.choices } : {}), results: this.rowResults(i), models: this.usedModels() };
  }

  report(): Result<RunReport> {
    if (!this.active || this.results.length === 0) return { ok: false, error: 'nothing is scored' };
    return { ok: true, value: runReport(this.rows, this.results, this.active.metrics) };
  }

  /** Fits each metric's threshold on the labelled rows, re-decides every row, and returns the new report. */
  calibrate(): Result<{ report: RunReport; thresholds: Record<string, number>; skipped: Record<string, string> }> {
    try {
      const a = this.active;
      if (!a || this.results.length === 0) throw new Error('nothing is scored');
      if (!this.rows.some((r) => r.label)) throw new Error('the file has no labels to calibrate on');
      const { thresholds, skipped } = calibrateThresholds(
        this.rows,
        this.results,
        a.metrics.map((m) => m.name),
      );
      a.metrics = a.metrics.map((m) =>
        m.name in thresholds ? Object.assign(Object.create(m) as AnyMetric, { threshold: thresholds[m.name] }) : m,
      );
      a.calibrated = true;
      redecide(this.results, thresholds);
      return { ok: true, value: { report: runReport(this.rows, this.results, a.metrics), thresholds, skipped } };
    } catch (e) {
      return { ok: false, error: messageOf(e) };
    }
  }

  /**
   * Per-row results (JSONL with the run configuration on its first line, or CSV) or the report (JSON), as a Blob
   * built from parts. Refused when nothing is scored (e.g. after a remap).
   */
  async exportFile(kind: ExportKind, onProgress?: (done: number, total: number) => void): Promise<Result<Blob>> {
    try {
      const a = this.active;
      if (!a || this.results.length === 0) throw new Error('nothing is scored: run the metrics first');
      const info = this.runInfo(a);
      if (kind === 'report')
        return {
          ok: true,
          value: new Blob([`${JSON.stringify(runReportJson(info, runReport(this.rows, this.results, a.metrics)), null, 2)}\n`], {
            type: 'application/json',
          }),
        };
      const input = {
        rows: this.rows,
        results: this.results,
        metricNames: a.metrics.map((m) => m.name),
        detailed: new Set(a.metrics.filter(isBatchMetric).map((m) => m.name)),
        run: info,
        onProgress: (d: number, t: number) => notify(onProgress, d, t),
        pause: tick,
        prepare: (from: number, to: number) => this.computeAhead(a, from, to),
      };
      // Several systems: each record carries its system and the input's other columns (as verity compare --rows-out).
      // CSV has no details column, so its records skip computing the embedded metrics' details again.
      const rows = this.rows as SystemRow[];
      const none = new Set<string>();
      const parts =
        kind === 'csv'
          ? await csvParts({
              ...input,
              ...(this.systems
                ? {
                    record: (i: number) => rowRecord(rows[i]!, this.results.row(i), none),
                    // A record's keys do not depend on its results, which would be computed again for every row.
                    recordKeys: (i: number) => Object.keys(rowRecord(rows[i]!, {}, none)),
                  }
                : {}),
            })
          : await jsonlParts({
              ...input,
              ...(this.systems ? { record: (i: number) => rowRecord(rows[i]!, this.rowResults(i), input.detailed) } : {}),
            });
      return { ok: true, value: new Blob(parts, { type: kind === 'csv' ? 'text/csv' : 'application/x-ndjson' }) };
    } catch (e) {
      return { ok: false, error: `the export failed: ${messageOf(e)}` };
    } finally {
      if (this.active) this.active.ahead = undefined;
      if (!this.running) this.deps.pool?.retire();
    }
  }

  /**
   * Row i's results with every metric's details: the table keeps the model metrics' details; the embedded
   * metrics' are computed again here (a pure function of the row, so the same as when the run scored it).
   */
  private rowResults(i: number): RowResults {
    const out = this.results.row(i);
    if (!this.active) return out;
    const fresh = this.active.again(i);
    for (const [name, r] of Object.entries(out)) {
      const d = fresh[name]?.details;
      if (d !== undefined && r.score === fresh[name]!.score) out[name] = { ...r, details: d };
    }
    return out;
  }

  /**
   * A new run's state and its empty table, whose embedded metrics' explanations are computed again on request with
   * the metrics as the run scored (calibration changes thresholds, not what a row's explanation said). The last
   * row's results are kept: exports and the detail view ask for each metric of a row in turn.
   */
  private activeRun(meta: SavedRun<RunConfig>, metrics: AnyMetric[]): ActiveRun {
    const embedded = metrics.filter((m): m is Metric => !isBatchMetric(m));
    let last = -1;
    let fresh: RowResults = {};
    const again = (i: number): RowResults => {
      const ahead = run.ahead;
      if (ahead && i >= ahead.from && i < ahead.from + ahead.table.length) return ahead.table.row(i - ahead.from);
      if (i !== last) {
        // A row left unscored (too slow to score here) is not scored again for its explanation.
        const why = this.results.note(i);
        fresh =
          why !== undefined
            ? Object.fromEntries(embedded.map((m) => [m.name, { score: null, decision: null, explanation: why }]))
            : embedded.length
              ? scoreRow(this.rows[i]!, embedded)
              : {};
        last = i;
      }
      return fresh;
    };
    const run: ActiveRun = { meta, metrics, models: {}, saved: true, again };
    this.results = newTable(metrics);
    this.results.explainWith((m, i) => again(i)[m]!.explanation);
    return run;
  }

  /**
   * Computes rows from…to's embedded results again in the pool's workers, side by side, for an export's next
   * batch (row by row here it would take as long as scoring on one core). The pool's metrics are made from the
   * run's settings, as the run scored (calibrated thresholds change decisions, not explanations). Without a pool,
   * or if it fails, the rows are computed here as they are asked for.
   */
  private async computeAhead(a: ActiveRun, from: number, to: number): Promise<void> {
    const pool = this.deps.pool;
    const names = a.metrics.filter((m) => !isBatchMetric(m)).map((m) => m.name);
    a.ahead = undefined;
    if (!pool || names.length === 0 || to <= from) return;
    const step = Math.ceil((to - from) / pool.size);
    const jobs: Promise<ResultChunk>[] = [];
    for (let s = from; s < to; s += step) jobs.push(pool.score(this.poolJob(a, s, Math.min(to, s + step), names, names)));
    try {
      const table = new ResultTable(names, new Set(names));
      for (const c of await Promise.all(jobs)) table.append(c);
      a.ahead = { from, table };
    } catch {
      // Computed here instead, row by row.
    }
  }

  private clearResults(): void {
    this.results = new ResultTable([]);
    this.compared = null;
    this.shown = new Uint32Array(0);
    this.active = null;
  }

  /** Drops the parsed records (the rows are mapped); when they were many, says when they are collected. */
  private release(): Promise<void> | null {
    const records = this.table!.records;
    const gone = records.length >= COLLECT_RECORDS && this.deps.collect ? whenCollected(records) : null;
    this.table = { ...this.table!, records: [] };
    this.parts = null;
    this.released = true;
    return gone;
  }

  /** Asks for a collection of the records just dropped, when they were many (SessionDeps.collect). */
  private collectAfter(gone: Promise<void> | null): void {
    if (gone) this.deps.collect?.(gone);
  }

  /** Reads the input: one file in any format core/io/formats reads, or the bundle of several files (compare.ts). */
  private async parse(blob: Blob, name: string, opts: BlobParseOptions = {}): Promise<ParsedTable> {
    const files = await unbundleFiles(blob);
    this.parts = files && (await readFiles(files, opts.onProgress));
    return this.parts ? unionTable(this.parts) : readBlobInput(blob, name, opts);
  }

  /** The gold separator the detected mapping's gold cells use, for the page to start from. */
  private detectedSeparator(t: ParsedTable): { goldSep?: string } {
    const found = detectGoldSeparator(this.parts?.map((p) => p.table) ?? [t], resolveColumns(t.columns));
    return found ? { goldSep: found.separator } : {};
  }

  private inspection(name: string, t: ParsedTable): Inspection {
    return {
      fileName: name,
      format: sourceOf(t),
      columns: t.columns,
      sample: t.records.slice(0, SAMPLE).map((r) => r.data),
      records: t.records.length,
      detected: resolveColumns(t.columns),
      ...this.detectedSeparator(t),
      paths: nestedPaths(t),
      issues: t.issues.slice(0, MAX_ISSUES),
      issueCount: t.issues.length,
    };
  }

  /** The parsed file; read again when its records were released for a run. */
  private async ensureTable(): Promise<ParsedTable> {
    if (!this.file) throw new Error('open a file first');
    if (!this.table || this.released) {
      this.table = await this.parse(this.file.blob, this.file.name);
      this.released = false;
    }
    return this.table;
  }

  private async applyMapping(m: Mapping): Promise<MappedSummary> {
    // Nested fields the mapping names (lm-eval's doc.question) become columns, as with verity compare --map.
    this.mappedAs = null;
    const paths = Object.values(m.map);
    const t = withPaths(await this.ensureTable(), paths);
    const parts = this.parts?.map((p) => ({ ...p, table: withPaths(p.table, paths) })) ?? null;
    // Several systems (several files, a system column, the wide layout) are mapped as verity compare maps them.
    // No separator given (a caller other than the page): chosen as the CLI chooses it. The page always gives one
    // ('' for none), starting from Inspection.goldSep, and is told about the detected one either way.
    const tables = parts?.map((p) => p.table) ?? [t];
    const found = detectGoldSeparator(tables, m.map);
    const goldSep = m.goldSep ?? found?.separator;
    const sepNotes = found && (goldSep === found.separator || !goldSep) ? [found.note(goldSep === found.separator)] : [];
    const mm: Mapping = { ...m, ...(goldSep !== undefined ? { goldSep } : {}) };
    const many = parts || m.systems ? mapSystems(parts ?? [{ name: this.file!.name, table: t }], mm) : null;
    const one = many ? null : mapRows(t, { map: m.map, ...(goldSep !== undefined ? { goldSep } : {}) });
    const mapped = many ?? one!;
    // One system found (a one-valued column, or files of one system) is no comparison: no system badge or column.
    this.systems = many && many.systems.length > 1 ? inputInfo(many) : null;
    this.rows = mapped.rows;
    this.mappedAs = JSON.stringify(m);
    this.clearResults();
    const rows = this.rows;
    const kinds = new Set(rows.filter((r) => r.label).map((r) => r.label!.kind));
    const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();
    const hasWrong = (r: QaRow) => !!r.wrongAnswers?.length || !!r.choices?.some((c) => !r.golds.some((g) => norm(g) === norm(c)));
    return {
      rows: rows.length,
      labelled: rows.filter((r) => r.label).length,
      labelKind: kinds.size === 0 ? null : kinds.size === 2 ? 'mixed' : ([...kinds][0] as 'binary' | 'taxonomy'),
      withChoices: rows.filter((r) => r.choices?.length).length,
      withWrongTargets: rows.filter(hasWrong).length,
      columns: mapped.columns,
      issues: mapped.issues.slice(0, MAX_ISSUES),
      issueCount: mapped.issues.length,
      notes: [...sepNotes, ...(one ? this.notesOf(t, m, one.notes) : [])].map((n) => ({
        code: n.code,
        text: noteMessage(n),
        ...(n.code === 'gold-separator' ? { separator: n.separator, applied: n.applied } : {}),
      })),
      ...(many ? { systems: systemsSummary(many) } : {}),
    };
  }

  /**
   * The mapping's notes, plus why the columns were detected as they were while the page keeps the detected
   * mapping (the page always passes its mapping explicitly, so mapRows alone would not say it).
   */
  private notesOf(t: ParsedTable, m: Mapping, notes: MappingNote[]): MappingNote[] {
    if (notes.some((n) => n.code === 'layout')) return notes;
    const detected = resolveLayout(t.columns);
    const kept = FIELDS.every((f) => m.map[f] === detected.columns[f]);
    return kept ? [...detected.notes, ...notes] : notes;
  }

  private tableRow(i: number): TableRow {
    const r = this.rows[i]!;
    const t = this.results;
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
      ...(this.systems ? { system: (r as SystemRow).system } : {}),
    };
  }

  private usedModels() {
    return modelRecords(this.active?.models ?? {}) ?? {};
  }

  /** The run's configuration as exports record it. */
  private runInfo(a: ActiveRun) {
    return {
      verity: this.deps.version,
      file: a.meta.fileName,
      metrics: a.metrics.map((m) => ({ name: m.name, threshold: m.threshold })),
      settings: a.meta.config.settings,
      mapping: a.meta.config.mapping,
      models: this.usedModels(),
      rows: { total: this.rows.length, scored: this.results.length },
    };
  }

  private modelContext(a: ActiveRun, onEvent?: (e: RunEvent) => void): ModelContext {
    const c = a.meta.config;
    if (!a.metrics.some(isBatchMetric) || Object.keys(c.models).length === 0) return {};
    const host = this.deps.models?.();
    if (!host) throw new Error('the model worker is not connected');
    // The page loads the models first (with progress and consent); here a load finds them ready. One evidence
    // cache for the whole run, so a statement or NLI pair repeated across chunks is computed once.
    return withEvidenceCache(
      hostContext(host, c.models, {
        onLoaded: (info) => {
          a.models[info.role] = info;
          notify(onEvent, { type: 'model-loaded', model: info });
        },
      }),
    );
  }

  /** Rows start…end for the pool's workers: what the metrics read of them, with the run's settings. */
  private poolJob(a: ActiveRun, start: number, end: number, metrics: string[], detailed: string[]): ScoreJob {
    const skip = this.results.notesBetween(start, end);
    return {
      rows: this.rows.slice(start, end).map(itemOf),
      metrics,
      settings: a.meta.config.settings,
      detailed,
      ...(skip.length ? { skip } : {}),
    };
  }

  /** Scores a chunk in slices, yielding whenever a slice took long, so pings and cancel are answered mid-chunk. */
  private async scoreChunk(
    a: ActiveRun,
    start: number,
    end: number,
    ctx: ModelContext,
    onEvent?: (e: RunEvent) => void,
  ): Promise<ResultChunk> {
    const names = a.metrics.map((m) => m.name);
    const pool = this.poolFor(a);
    if (pool)
      return pool.score(this.poolJob(a, start, end, names, []), (i, why) =>
        notify(onEvent, { type: 'warning', message: `Row ${(start + i + 1).toLocaleString('en')}: ${why}.` }),
      );
    const slice = a.metrics.some(isBatchMetric) ? a.meta.chunkSize : SLICE_ROWS;
    const sliceMs = this.deps.sliceMs ?? 50;
    const out = new ChunkPacker(end - start, names, detailedOf(a.metrics), detailedOf(a.metrics));
    let since = performance.now();
    for (let s = start; s < end; s += slice) {
      this.stop?.signal.throwIfAborted();
      const part = await scoreRows(this.rows.slice(s, Math.min(end, s + slice)), a.metrics, ctx, {
        batchSize: DEFAULTS.rowsPerBatch.session,
        ...(this.stop ? { signal: this.stop.signal } : {}),
      });
      for (const r of part) out.add(r);
      if (performance.now() - since > sliceMs) {
        await tick();
        since = performance.now();
      }
    }
    return out.done();
  }

  /**
   * The pool, for a run of embedded metrics at their default thresholds (a calibrated run's metrics carry
   * thresholds the workers' fresh metrics would not have).
   */
  private poolFor(a: ActiveRun): ScorePool | null {
    const pool = this.deps.pool;
    if (!pool || a.metrics.some(isBatchMetric) || a.calibrated) return null;
    return pool;
  }

  private async scoreFrom(a: ActiveRun, onEvent?: (e: RunEvent) => void): Promise<RunOutcome> {
    const { meta } = a;
    const store = this.deps.store;
    const ctx = this.modelContext(a, onEvent);
    const t0 = performance.now();
    const startDone = this.results.length;
    let lastEmit = -Infinity;
    let emitted = -1;
    const progress = () => {
      lastEmit = performance.now();
      emitted = this.results.length;
      const secs = (lastEmit - t0) / 1000;
      notify(onEvent, {
        type: 'progress',
        done: this.results.length,
        total: this.rows.length,
        rowsPerSecond: secs > 0 ? (this.results.length - startDone) / secs : 0,
      });
    };
    this.running = true;
    this.stop = new AbortController();
    if (this.cancelled) this.stop.abort();
    meta.status = 'running';
    // Chunks are scored ahead (one per pool worker, plus one queued) and kept in row order: chunk k is saved
    // only after chunks 0…k-1, so a saved run always ends at a chunk boundary and resumes exactly.
    const ahead = this.poolFor(a) ? this.deps.pool!.size + 1 : 1;
    const pending = new Map<number, Promise<ResultChunk>>();
    let next = this.results.length;
    try {
      for (;;) {
        while (!this.cancelled && next < this.rows.length && pending.size < ahead) {
          const end = Math.min(this.rows.length, next + meta.chunkSize);
          const p = this.scoreChunk(a, next, end, ctx, onEvent);
          p.catch(() => {}); // awaited below in order; one left behind when another fails is not unhandled
          pending.set(next, p);
          next = end;
        }
        const start = this.results.length;
        const p = pending.get(start);
        if (!p) break;
        let part: ResultChunk;
        try {
          part = await p;
        } catch (e) {
          // A cancel drops the chunks being scored: the run ends after the last chunk saved.
          if (this.cancelled) break;
          throw e;
        }
        pending.delete(start);
        this.results.append(part);
        const k = start / meta.chunkSize;
        meta.chunks = k + 1;
        meta.done = this.results.length;
        meta.updatedAt = Date.now();
        const hadFailure = store.failure;
        if (a.saved) await store.append(meta, k, part);
        if (!hadFailure && store.failure) notify(onEvent, { type: 'warning', message: store.failure });
        if (performance.now() - lastEmit >= PROGRESS_MS || this.results.length === this.rows.length) progress();
        // Let cancel() and the caller's queries in between chunks.
        await tick();
      }
    } finally {
      this.running = false;
      this.stop = null;
      if (ahead > 1) this.deps.pool!.retire();
    }
    // The last rows kept (a cancel lets the chunks already scored in) are said too, not throttled away.
    if (emitted !== this.results.length) progress();
    meta.status = this.results.length === this.rows.length ? 'done' : 'cancelled';
    meta.updatedAt = Date.now();
    if (a.saved) await store.update(meta);
    return {
      status: meta.status === 'done' ? 'done' : 'cancelled',
      done: this.results.length,
      total: this.rows.length,
      ms: performance.now() - t0,
      models: a.models,
    };
  }
}
