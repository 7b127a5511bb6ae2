/**
 * A scoring session, the facade the scoring worker exposes: open a file and map its columns (input.ts), run
 * metrics over it chunk by chunk, cancel and continue (runner.ts), resume or reopen a saved run (journal.ts),
 * and query views, calibrate and export (queries.ts). All rows and results stay here; callers get small pieces
 * and failures as data. The journal and the model host are injected, so the same session runs in the browser's
 * scoring worker and in Node tests.
 */
import type { WordNet } from '../core/lexicon/index.ts';
import { packChunk } from '../core/result-table.ts';
import type { RunReport, ViewQuery } from '../core/explore.ts';
import { isBatchMetric, VerityError } from '../core/types.ts';
import type { ModelCalls } from '../runtime/host-api.ts';
import { ok, problemOf, refuse, settle, settleNow } from '../core/errors.ts';
import { DEFAULTS } from '../core/defaults.ts';
import { VerdictStore } from './verdicts.ts';
import { JOURNAL_VERSION, type Journal, type SavedRun } from './journal.ts';
import type {
  Calibrated,
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
  TableRow,
  ViewInfo,
} from './api.ts';
import type { ScorePool } from './pool.ts';
import { CompareFacade, type CompareApi } from './compare.ts';
import { SessionInput } from './input.ts';
import { ActiveRun, notify, Runner, savedConfigProblem, SYNC_CHUNK } from './runner.ts';
import { detailedOf } from './engine.ts';
import { SessionQueries } from './queries.ts';
import { SessionReview } from './review.ts';
import { busy, ReviewFacade, type ReviewApi } from './review-facade.ts';
import type { SystemRow } from '../core/compare/index.ts';

export { notify, SYNC_CHUNK };

export interface SessionDeps {
  store: Journal;
  /** The verdicts remembered across runs (session/verdicts.ts); by default this browser's IndexedDB. */
  verdicts?: VerdictStore;
  /** The model host for model-based metrics, once connected. */
  models?: () => ModelCalls | null;
  /** Written into every export. */
  version: string;
  newId?: () => string;
  /** Longest stretch of scoring without yielding (ms): pings and cancel get in between. */
  sliceMs?: number;
  /** Workers that score chunks of a run of embedded metrics side by side (see pool.ts); without it, chunks are scored here. */
  pool?: ScorePool;
  /**
   * Asks the engine for a full garbage collection (runtime/collect.ts): once, or again and again until `gone`
   * settles. Called when a large file's parsed records are dropped at a run's start (`gone` settles once they were
   * collected), and once per READ_COLLECT_BYTES read of a file and before a large file is mapped: a thread that
   * parses or maps keeps allocating, and V8 left its spent pieces (and the stream's buffers) for a full collection
   * that came late, which made the reading's memory peak vary by ~200 MB from run to run (bench/REPORT.md).
   */
  collect?: (gone?: Promise<void>) => void;
  /**
   * This thread's WordNet lexicon (loaded once; runtime/lexicon-*.ts), which the metrics that read it are built
   * with: awaited before a run and a resume (a run keeps the metrics it was built with).
   */
  lexicon: () => Promise<WordNet | null>;
  /** An input file's content hash (core/io/hash.ts), asked for as the file is opened; in this thread when absent. */
  hash?: (blob: Blob) => Promise<string>;
}

/**
 * The scoring session. Its public members are what it answers (SessionApi), grouped by concern: the input and the
 * run here, the review and the comparison as members; each answers plain data, a failure as `{ ok: false, error }`.
 * The scoring worker exposes it as it is, so a new method is written once, here.
 */
export class ScoringSession {
  private readonly input: SessionInput;
  private readonly runner: Runner;
  private readonly queries: SessionQueries;
  private readonly reviewer: SessionReview;
  /** The person's labels on the rows the judge is least sure of. */
  readonly review: ReviewApi;
  /** Several systems, once scored: the comparison report, where the systems differ, its exports. */
  readonly compare: CompareApi;

  constructor(private readonly deps: SessionDeps) {
    this.input = new SessionInput(deps.hash, deps.collect);
    this.runner = new Runner(deps);
    this.queries = new SessionQueries(this.input, this.runner, deps.version);
    const verdicts = deps.verdicts ?? new VerdictStore();
    this.reviewer = new SessionReview({
      rows: () => this.input.rows,
      run: () => this.queries.run,
      systems: () => this.input.systems !== null,
      tableRow: (i) => this.queries.tableRow(i),
      journal: deps.store,
      verdicts,
    });
    this.queries.withLabels = (rows) => ({
      rows: this.reviewer.rowsWithLabels(rows) as readonly SystemRow[],
      reference: this.reviewer.judge(),
    });
    this.review = new ReviewFacade({
      reviewer: this.reviewer,
      running: () => this.runner.running,
      run: () => this.queries.run,
      store: deps.store,
      verdicts,
      changed: () => this.queries.invalidate(),
    });
    this.compare = new CompareFacade({ comparison: () => this.queries.comparison(), compareRun: () => this.queries.compareRun() });
  }

  /** Reads and parses a file; the detected column mapping comes back for the caller to show and edit. */
  async open(blob: Blob, name: string, onProgress?: (read: number, total: number) => void): Promise<Result<Inspection>> {
    if (this.runner.running) return busy();
    this.prepare();
    const r = await settle(() => this.input.open(blob, name, onProgress ? { onProgress: (a, b) => notify(onProgress, a, b) } : {}));
    if (r.ok) this.queries.reset(null);
    return r;
  }

  /** Several files, one per system (compare.ts), opened as one input; one file opens as `open` does. */
  async openFiles(files: NamedBlob[], onProgress?: (read: number, total: number) => void): Promise<Result<Inspection>> {
    if (this.runner.running) return busy();
    this.prepare();
    const r = await settle(() => this.input.openFiles(files, onProgress ? { onProgress: (a, b) => notify(onProgress, a, b) } : {}));
    if (r.ok) this.queries.reset(null);
    return r;
  }

  /**
   * While a file is read, the pool's workers load the metrics' code and this thread its lexicon: a run's first chunk
   * waits for neither (the lexicon's fetch took ~0.5 s at a million-row run's start).
   */
  private prepare(): void {
    this.deps.pool?.warm();
    this.deps.lexicon().catch(() => {}); // a run awaits it again and says why it failed
  }

  /** Maps the columns; results of an earlier mapping are gone (they described other rows). */
  async map(m: Mapping): Promise<Result<MappedSummary>> {
    if (this.runner.running) return busy();
    this.queries.reset(null);
    return settle(() => this.input.map(m));
  }

  /** Starts a run from the first row, saved under a new id, and scores every row (or until cancelled). */
  async run(c: RunConfig, onEvent?: (e: RunEvent) => void): Promise<Result<RunOutcome>> {
    if (this.runner.running) return busy();
    // Here, not when scoring starts: a cancel that arrives while the run is set up stops it before its first chunk.
    this.runner.arm();
    try {
      await this.deps.lexicon();
      this.queries.reset(null);
      // The page maps before it runs: mapping the same again would hold a second copy of every row meanwhile.
      if (!this.input.isMapped(c.mapping)) await this.input.map(c.mapping);
      const file = this.input.file!;
      const dropped = this.input.release();
      const now = Date.now();
      const meta: SavedRun<RunConfig> = {
        version: JOURNAL_VERSION,
        id: this.deps.newId?.() ?? `${now.toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
        fileName: file.name,
        fileSize: file.blob.size,
        inputHash: await file.hash,
        config: c,
        total: this.input.rows.length,
        chunkSize: SYNC_CHUNK,
        chunks: 0,
        done: 0,
        resultBytes: 0,
        status: 'running',
        startedAt: now,
        updatedAt: now,
      };
      const a = new ActiveRun(meta, this.input.rows, await this.deps.lexicon());
      if (a.metrics.some(isBatchMetric)) meta.chunkSize = DEFAULTS.rowsPerBatch.session;
      a.results.reserve(a.rows.length);
      this.queries.reset(a);
      if (await this.deps.store.begin(meta, file.blob)) notify(onEvent, { type: 'started', id: meta.id });
      else notify(onEvent, { type: 'warning', message: this.deps.store.failure! });
      // Last before scoring: what the start itself dropped is collected too.
      if (dropped) this.deps.collect?.(dropped);
    } catch (e) {
      return { ok: false, error: problemOf(e) };
    }
    return this.scoreActive(onEvent);
  }

  /** Scores the rows not scored yet of the current run (after a cancel, or after `resume`). */
  async continueRun(onEvent?: (e: RunEvent) => void): Promise<Result<RunOutcome>> {
    if (this.runner.running) return busy();
    this.runner.arm();
    return this.scoreActive(onEvent);
  }

  private async scoreActive(onEvent?: (e: RunEvent) => void): Promise<Result<RunOutcome>> {
    const a = this.queries.run;
    if (!a) return refuse('not-ready', 'there is no run to continue');
    return settle(() => this.runner.score(a, onEvent));
  }

  /**
   * Stops the run at once: the chunks being scored are dropped (the pool's workers ended, a model run stopped
   * before its next batch); the chunks saved stay, and `continueRun` goes on after the last of them.
   */
  cancel(): void {
    this.runner.cancel();
  }

  /** Answers while alive, even mid-chunk (scoring yields between slices): a silent worker is dead, not busy. */
  ping(): Result<Pulse> {
    // A pool worker that stopped answering makes the session answer as dead, so the page recovers the run.
    const stalled = this.runner.stalled();
    if (stalled) return refuse('unavailable', stalled);
    return ok({ done: this.queries.table.length, running: this.runner.running });
  }

  /** The saved runs, newest first, with what each run's results and each input take. */
  async runs(): Promise<SavedRunInfo[]> {
    return Promise.all(
      (await this.deps.store.list<RunConfig>(savedConfigProblem)).map(async (m) => ({
        id: m.id,
        fileName: m.fileName,
        done: m.done,
        total: m.total,
        chunkSize: m.chunkSize,
        metrics: m.config.metrics,
        status: m.status,
        startedAt: m.startedAt,
        updatedAt: m.updatedAt,
        resultBytes: m.resultBytes,
        fileSize: m.fileSize,
        inputHash: m.inputHash.slice(0, 8),
        inputRuns: m.inputRuns,
        ...(m.config.calibration ? { calibrated: true } : {}),
        answers: await this.reviewer.savedAnswers(m.id),
      })),
    );
  }

  /**
   * Deletes a saved run, unless it holds more review answers than the person was shown when confirming (given in
   * another tab since); when it is the one here, its rows stay for the table and exports but are not saved again.
   */
  async deleteRun(id: string, answersSeen = 0): Promise<{ deleted: boolean; answers: number }> {
    const answers = await this.reviewer.savedAnswers(id);
    if (answers > answersSeen) return { deleted: false, answers };
    const a = this.queries.run;
    if (a?.meta.id === id) a.saved = false;
    await this.deps.store.delete(id);
    return { deleted: true, answers };
  }

  /** Deletes every saved run with its input and review. */
  async clearRuns(): Promise<void> {
    if (this.queries.run) this.queries.run.saved = false;
    await this.deps.store.clear();
  }

  /**
   * Brings a saved run back (file, mapping, configuration with its calibration, results so far, checked to belong
   * to it); `continueRun` scores the rest. `models` replaces the run's models (after the model worker crashed:
   * WASM, or a smaller model).
   */
  async resume(id: string, models?: RunConfig['models']): Promise<Result<Resumed>> {
    if (this.runner.running) return busy();
    this.deps.pool?.warm();
    try {
      this.queries.reset(null);
      await this.deps.lexicon();
      const saved = await this.deps.store.load<RunConfig>(id, savedConfigProblem);
      const meta = saved.meta;
      if (models) {
        meta.config = { ...meta.config, models };
        await this.deps.store.update(meta);
      }
      const inspected = await this.input.open(saved.file, meta.fileName, { hash: meta.inputHash });
      const summary = await this.input.map(meta.config.mapping);
      const dropped = this.input.release();
      if (summary.rows !== meta.total)
        throw new VerityError(`the saved file now maps to ${summary.rows} rows, the run had ${meta.total}`, 'input', 'saved-run');
      const a = new ActiveRun(meta, this.input.rows, await this.deps.lexicon());
      const table = a.results;
      table.reserve(a.rows.length);
      // Runs saved by earlier versions hold one object per row (and the embedded metrics' explanations, dropped).
      for (const c of saved.chunks) table.append(Array.isArray(c) ? packChunk(c, table.metrics, detailedOf(a.metrics)) : c);
      // Rows saved before the run was calibrated were decided with the thresholds of then.
      if (meta.config.calibration) table.redecide(meta.config.calibration.thresholds);
      this.queries.reset(a);
      await this.reviewer.load(meta.id);
      if (dropped) this.deps.collect?.(dropped);
      return { ok: true, value: { inspection: inspected, summary, config: meta.config, done: table.length } };
    } catch (e) {
      this.queries.reset(null);
      return { ok: false, error: problemOf(e) };
    }
  }

  /** The run's rows filtered and sorted (a view, kept until the next); rowsAt reads it. */
  view(q: ViewQuery): ViewInfo {
    return this.queries.view(q);
  }

  /** The current view's rows at these positions, with the view's id (rows of an older view are asked again). */
  rowsAt(positions: number[]): { viewId: number; rows: { position: number; row: TableRow }[] } {
    return this.queries.rowsAt(positions);
  }

  /** A row in full: every metric's result and the models that scored it; null for a row not scored. */
  detail(i: number): RowDetail | null {
    return this.queries.detail(i);
  }

  /** The agreement report of the rows scored (each metric against the labels). */
  report(): Result<RunReport> {
    return settleNow(() => this.queries.report());
  }

  /**
   * Fits each metric's threshold on the labelled rows, re-decides every row, and saves the thresholds with the
   * run: rows scored later (a continue, a resume) are decided with them too.
   */
  async calibrate(): Promise<Result<Calibrated>> {
    if (this.runner.running) return busy('calibration fits the rows scored when the run stops');
    return settle(async () => {
      const calibrated = this.queries.calibrate();
      const a = this.queries.run!;
      return a.saved && !(await this.deps.store.update(a.meta)) ? { ...calibrated, unsaved: this.deps.store.failure! } : calibrated;
    });
  }

  /** The run's results as a file: JSONL, CSV or the report. */
  async exportFile(kind: ExportKind, onProgress?: (done: number, total: number) => void): Promise<Result<Blob>> {
    return settle(() => this.queries.exportFile(kind, onProgress));
  }
}

/** What the session answers: its public members, each documented above. */
export type SessionApi = Pick<ScoringSession, keyof ScoringSession>;

/** The scoring worker's API: the session, plus the line to the model worker and the page's hold on the cores. */
export interface ScoreApi extends SessionApi {
  connectModels(port: MessagePort): void;
  /** The page's hold on the cores (hold.ts), which the scoring pool's workers read. */
  shareHold(flag: Int32Array | null): void;
}
