/**
 * The scoring worker: parses the file, maps its columns, scores it chunk by chunk (saving every chunk so a reload
 * resumes), and answers the page with small pieces — a view's row indices, the rows on screen, one row's
 * details, the report, export files. All rows and results stay here; the page never holds 10^5 rows.
 * Exposed with comlink; failures come back as data ({ok: false, error}).
 */
import { expose, wrap, type Remote } from 'comlink';
import type { Format, ParsedTable, RowIssue } from '../src/core/io/parse.ts';
import { parseBlob } from '../src/core/io/parse-stream.ts';
import { mapRows, resolveColumns, type ColumnMap } from '../src/core/io/fields.ts';
import { createMetric, type MetricSettings } from '../src/core/metrics/index.ts';
import { labelValue, outputRecord, scoreRows, type RowResults } from '../src/core/run.ts';
import { calibrateThresholds, commonPrefix, queryView, redecide, runReport, type RunReport, type ViewQuery } from '../src/core/results.ts';
import { toCsv } from '../src/core/io/export.ts';
import { isBatchMetric, type AnyMetric, type QaRow } from '../src/core/types.ts';
import type { ModelContext } from '../src/core/capabilities.ts';
import { hostContext, modelRecords, type HostLike } from '../src/runtime/context.ts';
import type { LoadedModel, ModelSpec, Role } from '../src/runtime/messages.ts';
import { RunStore, type SavedRun } from '../src/runtime/run-store.ts';
import pkg from '../package.json' with { type: 'json' };

export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

export interface Inspection {
  fileName: string;
  format: Format;
  columns: string[];
  /** First records as parsed (for the preview). */
  sample: Record<string, unknown>[];
  records: number;
  detected: ColumnMap;
  issues: RowIssue[];
  issueCount: number;
}

export interface Mapping {
  map: ColumnMap;
  goldSep?: string;
}

export interface MappedSummary {
  rows: number;
  labelled: number;
  labelKind: 'binary' | 'taxonomy' | 'mixed' | null;
  withChoices: number;
  columns: ColumnMap;
  issues: RowIssue[];
  issueCount: number;
}

export interface RunConfig {
  metrics: string[];
  settings: MetricSettings;
  /** Model specs for the roles the chosen metrics need. */
  models: Partial<Record<Role, ModelSpec>>;
  mapping: Mapping;
}

export type RunEvent =
  | { type: 'progress'; done: number; total: number; rowsPerSecond: number }
  | { type: 'model-loaded'; model: LoadedModel }
  | { type: 'warning'; message: string };

export interface RunOutcome {
  status: 'done' | 'cancelled';
  done: number;
  total: number;
  ms: number;
  models: Record<string, LoadedModel>;
}

/** New results start from an empty view. */
function setResults(next: RowResults[]): void {
  results = next;
  view = new Uint32Array(0);
}

/** One table row: what the table shows, without explanations and details (those come with detail()). */
export interface TableRow {
  index: number;
  row: number;
  id: string;
  question: string;
  golds: string[];
  candidate: string;
  label: boolean | string | null;
  metrics: Record<string, { score: number | null; decision: boolean | null; class?: string; set?: string }>;
}

export interface RowDetail extends TableRow {
  choices?: string[];
  results: RowResults;
  models: Record<string, { id: string; revision: string; device: string; dtype: string }>;
}

/** A view kept in the worker: its id, size, and how many leading positions show the same rows as the view before. */
export interface ViewInfo {
  id: number;
  length: number;
  unchanged: number;
}

export interface Resumable {
  fileName: string;
  done: number;
  total: number;
  metrics: string[];
  updatedAt: number;
}

const SAMPLE = 20;
const MAX_ISSUES = 500;
const SYNC_CHUNK = 2000;
const MODEL_CHUNK = 64;

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));
const tick = () => new Promise<void>((r) => setTimeout(r, 0));

let file: { blob: Blob; name: string } | null = null;
let table: ParsedTable | null = null;
/** The records were dropped once mapped into rows (they would double the memory of a 10^6-row run). */
let released = false;
let rows: QaRow[] = [];
let results: RowResults[] = [];
/** The table's current view (row indices in display order) and its id; see `view()`. */
let view: Uint32Array = new Uint32Array(0);
let viewId = 0;
let metrics: AnyMetric[] = [];
let config: RunConfig | null = null;
let models: Record<string, LoadedModel> = {};
let cancelled = false;
let running = false;
let modelHost: Remote<HostLike> | null = null;
const store = new RunStore();

/** JSONL is read as a stream in chunks (a 100 MB file never becomes one string); other formats whole. */
function read(blob: Blob, name: string, onProgress?: (read: number, total: number) => void): Promise<ParsedTable> {
  return parseBlob(blob, name, onProgress ? { onProgress } : {});
}

function inspection(name: string, t: ParsedTable): Inspection {
  return {
    fileName: name,
    format: t.format,
    columns: t.columns,
    sample: t.records.slice(0, SAMPLE).map((r) => r.data),
    records: t.records.length,
    detected: resolveColumns(t.columns),
    issues: t.issues.slice(0, MAX_ISSUES),
    issueCount: t.issues.length,
  };
}

/** The parsed file; read again when its records were released for a run. */
async function ensureTable(): Promise<ParsedTable> {
  if (!file) throw new Error('open a file first');
  if (!table || released) {
    table = await read(file.blob, file.name);
    released = false;
  }
  return table;
}

async function applyMapping(m: Mapping): Promise<MappedSummary> {
  const t = await ensureTable();
  const mapped = mapRows(t, { map: m.map, ...(m.goldSep ? { goldSep: m.goldSep } : {}) });
  rows = mapped.rows;
  setResults([]);
  const kinds = new Set(rows.filter((r) => r.label).map((r) => r.label!.kind));
  return {
    rows: rows.length,
    labelled: rows.filter((r) => r.label).length,
    labelKind: kinds.size === 0 ? null : kinds.size === 2 ? 'mixed' : ([...kinds][0] as 'binary' | 'taxonomy'),
    withChoices: rows.filter((r) => r.choices?.length).length,
    columns: mapped.columns,
    issues: mapped.issues.slice(0, MAX_ISSUES),
    issueCount: mapped.issues.length,
  };
}

function tableRow(i: number): TableRow {
  const r = rows[i]!;
  const res = results[i] ?? {};
  const m: TableRow['metrics'] = {};
  for (const [name, x] of Object.entries(res))
    m[name] = { score: x.score, decision: x.decision, ...(x.class ? { class: x.class } : {}), ...(x.set ? { set: x.set } : {}) };
  return { index: i, row: r.row, id: r.id, question: r.question, golds: r.golds, candidate: r.candidate, label: labelValue(r.label), metrics: m };
}

const usedModels = () => modelRecords(models) ?? {};

/** The run's configuration as exports record it. */
function runInfo() {
  return {
    verity: pkg.version,
    file: file?.name ?? null,
    metrics: metrics.map((m) => ({ name: m.name, threshold: m.threshold })),
    settings: config?.settings ?? {},
    mapping: config?.mapping ?? null,
    models: usedModels(),
    rows: { total: rows.length, scored: results.length },
  };
}

function buildMetrics(c: RunConfig): AnyMetric[] {
  return c.metrics.map((name) => createMetric(name, c.settings));
}

function modelContext(c: RunConfig, emit: (e: RunEvent) => void): ModelContext {
  if (!metrics.some(isBatchMetric) || Object.keys(c.models).length === 0) return {};
  const remote = modelHost;
  if (!remote) throw new Error('the model worker is not connected');
  // The page loads the models first (with progress and consent); here a load finds them ready. Callbacks
  // cannot cross the port as plain functions, so none is passed.
  const host: HostLike = {
    load: (spec) => remote.load(spec),
    nli: (pairs) => remote.nli(pairs),
    rerank: (query, docs) => remote.rerank(query, docs),
    embed: (texts) => remote.embed(texts),
    embedTokens: (texts) => remote.embedTokens(texts),
    writeStatements: (items) => remote.writeStatements(items),
  };
  return hostContext(host, c.models, {
    onLoaded: (info) => {
      models[info.role] = info;
      emit({ type: 'model-loaded', model: info });
    },
  });
}

async function scoreFrom(meta: SavedRun<RunConfig>, emit: (e: RunEvent) => void): Promise<RunOutcome> {
  const c = config!;
  const ctx = modelContext(c, emit);
  const t0 = performance.now();
  const startDone = results.length;
  let lastEmit = 0;
  cancelled = false;
  running = true;
  try {
    for (let start = results.length; start < rows.length; start += meta.chunkSize) {
      if (cancelled) break;
      const part = await scoreRows(rows.slice(start, start + meta.chunkSize), metrics, ctx, { batchSize: MODEL_CHUNK });
      for (const r of part) results.push(r);
      const k = start / meta.chunkSize;
      meta.chunks = k + 1;
      meta.done = results.length;
      meta.updatedAt = Date.now();
      const hadFailure = store.failure;
      await store.append(meta, k, part);
      if (!hadFailure && store.failure) emit({ type: 'warning', message: store.failure });
      const now = performance.now();
      if (now - lastEmit > 100 || results.length === rows.length) {
        lastEmit = now;
        const secs = (now - t0) / 1000;
        emit({ type: 'progress', done: results.length, total: rows.length, rowsPerSecond: secs > 0 ? (results.length - startDone) / secs : 0 });
      }
      // Let cancel() and the page's queries in between chunks.
      await tick();
    }
  } finally {
    running = false;
  }
  meta.status = results.length === rows.length ? 'done' : 'cancelled';
  meta.updatedAt = Date.now();
  await store.update(meta);
  return { status: meta.status === 'done' ? 'done' : 'cancelled', done: results.length, total: rows.length, ms: performance.now() - t0, models };
}

const api = {
  /** Reads and parses a file; the detected column mapping comes back for the page to show and edit. */
  async open(blob: Blob, name: string, onProgress?: (read: number, total: number) => void): Promise<Result<Inspection>> {
    try {
      file = { blob, name };
      table = await read(blob, name, onProgress);
      released = false;
      rows = [];
      setResults([]);
      return { ok: true, value: inspection(name, table) };
    } catch (e) {
      file = null;
      table = null;
      return { ok: false, error: messageOf(e) };
    }
  },

  async map(m: Mapping): Promise<Result<MappedSummary>> {
    try {
      return { ok: true, value: await applyMapping(m) };
    } catch (e) {
      return { ok: false, error: messageOf(e) };
    }
  },

  /** The model worker's port, so model-based metrics reach the same loaded models as the rest of the app. */
  connectModels(port: MessagePort): void {
    modelHost = wrap<HostLike>(port);
  },

  /** Scores every mapped row from the start, saving as it goes. */
  async run(c: RunConfig, onEvent: (e: RunEvent) => void): Promise<Result<RunOutcome>> {
    if (running) return { ok: false, error: 'a run is already going' };
    try {
      await applyMapping(c.mapping);
      const input = file!;
      table = { ...table!, records: [] };
      released = true;
      config = c;
      metrics = buildMetrics(c);
      models = {};
      const now = Date.now();
      const meta: SavedRun<RunConfig> = {
        version: 1,
        id: `${now}`,
        fileName: input.name,
        fileSize: input.blob.size,
        config: c,
        total: rows.length,
        chunkSize: metrics.some(isBatchMetric) ? MODEL_CHUNK : SYNC_CHUNK,
        chunks: 0,
        done: 0,
        status: 'running',
        startedAt: now,
        updatedAt: now,
      };
      if (!(await store.begin(meta, input.blob))) onEvent({ type: 'warning', message: store.failure! });
      return { ok: true, value: await scoreFrom(meta, onEvent) };
    } catch (e) {
      running = false;
      return { ok: false, error: messageOf(e) };
    }
  },

  /** Answers while the worker is alive (the page's watchdog: a killed worker never answers). */
  ping(): number {
    return results.length;
  },

  cancel(): void {
    cancelled = true;
  },

  /** A saved run that did not finish, if any. */
  async resumable(): Promise<Resumable | null> {
    const m = await store.meta<RunConfig>();
    if (!m || m.status === 'done') return null;
    return { fileName: m.fileName, done: m.done, total: m.total, metrics: m.config.metrics, updatedAt: m.updatedAt };
  },

  /**
   * Reloads the saved run (file, mapping, results so far) and scores the rest. `onReady` fires once the saved
   * part is back, with what the page needs to show it.
   */
  async resume(
    onReady: (info: { inspection: Inspection; summary: MappedSummary; config: RunConfig; done: number }) => void | Promise<void>,
    onEvent: (e: RunEvent) => void,
    /** Other models for the rest of the run (after the model worker crashed: WASM, or a smaller model). */
    models?: RunConfig['models'],
  ): Promise<Result<RunOutcome>> {
    if (running) return { ok: false, error: 'a run is already going' };
    try {
      const saved = await store.load<RunConfig>();
      const meta = saved.meta;
      if (models) {
        meta.config = { ...meta.config, models };
        await store.update(meta);
      }
      file = { blob: saved.file, name: meta.fileName };
      table = await read(saved.file, meta.fileName);
      released = false;
      const inspected = inspection(meta.fileName, table);
      const summary = await applyMapping(meta.config.mapping);
      table = { ...table, records: [] };
      released = true;
      if (summary.rows !== meta.total) throw new Error(`the saved file now maps to ${summary.rows} rows, the run had ${meta.total}`);
      config = meta.config;
      metrics = buildMetrics(meta.config);
      models = {};
      setResults(saved.results);
      meta.status = 'running';
      await onReady({ inspection: inspected, summary, config: meta.config, done: results.length });
      return { ok: true, value: await scoreFrom(meta, onEvent) };
    } catch (e) {
      running = false;
      return { ok: false, error: `cannot resume: ${messageOf(e)}` };
    }
  },

  async discard(): Promise<void> {
    await store.clear();
  },

  /**
   * Computes a view (filter, search, sort) over the rows scored so far and keeps it here: the page gets only its
   * size and how much of the previous view it kept (`unchanged` leading positions show the same rows), then asks
   * for the rows on screen by position. A million indices never cross to the page's thread.
   */
  view(q: ViewQuery): ViewInfo {
    const next = queryView(rows, results, q);
    const unchanged = commonPrefix(view, next);
    view = next;
    return { id: ++viewId, length: next.length, unchanged };
  },

  /** The rows at these positions of the current view, and that view's id (the page drops answers for an older one). */
  rowsAt(positions: number[]): { viewId: number; rows: { position: number; row: TableRow }[] } {
    const out: { position: number; row: TableRow }[] = [];
    for (const p of positions) if (p >= 0 && p < view.length) out.push({ position: p, row: tableRow(view[p]!) });
    return { viewId, rows: out };
  },

  detail(i: number): RowDetail | null {
    if (i < 0 || i >= results.length) return null;
    const r = rows[i]!;
    return { ...tableRow(i), ...(r.choices ? { choices: r.choices } : {}), results: results[i]!, models: usedModels() };
  },

  report(): RunReport {
    return runReport(rows, results, metrics);
  },

  /** Fits each metric's threshold on the labelled rows, re-decides every row, and returns the new report. */
  calibrate(): Result<{ report: RunReport; thresholds: Record<string, number>; skipped: Record<string, string> }> {
    try {
      if (!rows.some((r) => r.label)) throw new Error('the file has no labels to calibrate on');
      const { thresholds, skipped } = calibrateThresholds(rows, results, metrics.map((m) => m.name));
      metrics = metrics.map((m) => (m.name in thresholds ? Object.assign(Object.create(m) as AnyMetric, { threshold: thresholds[m.name] }) : m));
      redecide(results, thresholds);
      return { ok: true, value: { report: runReport(rows, results, metrics), thresholds, skipped } };
    } catch (e) {
      return { ok: false, error: messageOf(e) };
    }
  },

  /** Per-row results (JSONL with the run configuration on its first line, or CSV) or the report (JSON). */
  exportFile(kind: 'jsonl' | 'csv' | 'report'): Blob {
    const info = runInfo();
    const detailed = new Set(metrics.filter(isBatchMetric).map((m) => m.name));
    if (kind === 'report') return new Blob([`${JSON.stringify({ run: info, report: runReport(rows, results, metrics) }, null, 2)}\n`], { type: 'application/json' });
    const records = results.map((res, i) => outputRecord(rows[i]!, res, detailed));
    if (kind === 'csv') {
      const run = JSON.stringify(info);
      return new Blob([toCsv(records.map((r) => ({ ...r, verity_run: run })), metrics.map((m) => m.name))], { type: 'text/csv' });
    }
    const lines = [JSON.stringify({ verity_run: info }), ...records.map((r) => JSON.stringify(r))];
    return new Blob([`${lines.join('\n')}\n`], { type: 'application/x-ndjson' });
  },
};

export type ScoreApi = typeof api;
expose(api);
