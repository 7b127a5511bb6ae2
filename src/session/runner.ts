/**
 * A run and its scoring: the run's state (its saved record, with the RunConfig every metric is built from, and
 * its results), and the run engine (engine.ts) driven over it chunk by chunk — in the pool's workers or here, each
 * chunk saved before it is reported, so a crash resumes exactly — with cancel, pings and progress.
 */
import { metricsOf, planOf, runConfigProblem } from '../core/run-config.ts';
import type { WordNet } from '../core/lexicon/index.ts';
import { itemOf, scoreRow, type RowResults } from '../core/scoring.ts';
import { ResultTable, type ResultChunk } from '../core/result-table.ts';
import { isBatchMetric, VerityError, type AnyMetric, type Metric, type QaRow } from '../core/types.ts';
import type { ModelContext } from '../core/capabilities.ts';
import { DEFAULTS } from '../core/defaults.ts';
import { hostContext } from '../runtime/context.ts';
import type { ModelCalls } from '../runtime/host-api.ts';
import type { LoadedModel } from '../runtime/messages.ts';
import type { Journal, SavedRun } from './journal.ts';
import type { ScoreJob, ScorePool } from './pool.ts';
import type { RunConfig, RunEvent, RunOutcome } from './api.ts';
import { RecentRate } from './rate.ts';
import { detailedOf, RunEngine, tick } from './engine.ts';

/**
 * Progress events at most this often (ms), besides the first chunk's and the last: each one wakes the page's main
 * thread and redraws it, and on a busy machine a redraw that loses its core can wait past 50 ms (bench:app).
 */
const PROGRESS_MS = 500;
/** Rows per saved chunk. */
export const SYNC_CHUNK = 2000;

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

/** What is wrong with a run config read back from storage (the page's mapping: its column map), or null. */
export const savedConfigProblem = (c: unknown): string | null =>
  runConfigProblem(c, (m) =>
    typeof m === 'object' && m !== null && typeof (m as { map?: unknown }).map === 'object' ? null : 'its mapping has no column map',
  );

/**
 * A run being scored or scored: its saved record, the metrics its configuration makes, its results, and what
 * `continueRun`, exports and the detail view use.
 */
export class ActiveRun {
  metrics: AnyMetric[];
  readonly results: ResultTable;
  /** The models as loaded (kept in the configuration too, so a reopened run names them). */
  models: Record<string, LoadedModel>;
  /** False once its saved copy was deleted: the rows stay here (table, exports), nothing is written again. */
  saved = true;
  /** Rows from `from` on, computed again in the pool's workers ahead of an export's batch. */
  ahead?: { from: number; table: ResultTable };
  private embedded: Metric[];
  private last = -1;
  private fresh: RowResults = {};

  constructor(
    readonly meta: SavedRun<RunConfig>,
    readonly rows: readonly QaRow[],
    /** WordNet, for the metrics that read it (the session loads it before a run is made). */
    private readonly lexicon: WordNet | null,
  ) {
    // Always made from the configuration (here, in the pool's workers, and on a resume alike).
    this.metrics = metricsOf(meta.config, { lexicon });
    this.embedded = this.embeddedOf(this.metrics);
    this.models = { ...meta.config.loaded };
    const detailed = detailedOf(this.metrics);
    this.results = new ResultTable(
      this.metrics.map((m) => m.name),
      detailed,
      detailed,
    );
    this.results.explainWith((m, i) => this.again(i)[m]!.explanation);
  }

  get config(): RunConfig {
    return this.meta.config;
  }

  /** A new version of the configuration (a calibration): the metrics are made again from it. */
  reconfigure(c: RunConfig): void {
    this.meta.config = c;
    this.metrics = metricsOf(c, { lexicon: this.lexicon });
    this.embedded = this.embeddedOf(this.metrics);
    this.last = -1;
  }

  /**
   * Row i's embedded metrics' results again, with explanations and details, as the run's configuration scores
   * it. The last row's are kept: exports and the detail view ask for each metric of a row in turn.
   */
  again(i: number): RowResults {
    const ahead = this.ahead;
    if (ahead && i >= ahead.from && i < ahead.from + ahead.table.length) return ahead.table.row(i - ahead.from);
    if (i !== this.last) {
      // A row left unscored (too slow to score here) is not scored again for its explanation.
      const why = this.results.note(i);
      this.fresh =
        why !== undefined
          ? Object.fromEntries(this.embedded.map((m) => [m.name, { score: null, decision: null, explanation: why }]))
          : this.embedded.length
            ? scoreRow(this.rows[i]!, this.embedded)
            : {};
      this.last = i;
    }
    return this.fresh;
  }

  /** Rows start…end for the pool's workers: what the metrics read of them, and the run's plan for these metrics. */
  poolJob(start: number, end: number, metrics: string[], detailed: string[]): ScoreJob {
    const skip = this.results.notesBetween(start, end);
    // These metrics alone: no combination of others.
    const { combinations: _combinations, ...plan } = planOf(this.config);
    return {
      rows: this.rows.slice(start, end).map(itemOf),
      plan: { ...plan, metrics },
      detailed,
      ...(skip.length ? { skip } : {}),
    };
  }

  private embeddedOf(metrics: AnyMetric[]): Metric[] {
    return metrics.filter((m): m is Metric => !isBatchMetric(m));
  }
}

export interface RunnerDeps {
  store: Journal;
  models?: () => ModelCalls | null;
  sliceMs?: number;
  pool?: ScorePool;
}

/** Scores runs: one at a time, cancellable at once. */
export class Runner {
  running = false;
  private cancelled = false;
  /** Aborts the chunk being scored in this thread (model runs: before their next batch). */
  private stop: AbortController | null = null;

  constructor(private readonly deps: RunnerDeps) {}

  /** Called before a run is set up: a cancel that arrives meanwhile stops it before its first chunk. */
  arm(): void {
    this.cancelled = false;
  }

  /**
   * Stops the run at once: the chunks being scored are dropped (the pool's workers ended, a model run stopped
   * before its next batch); the chunks saved stay, and a continue goes on after the last of them.
   */
  cancel(): void {
    this.cancelled = true;
    this.stop?.abort();
    if (this.running) this.deps.pool?.cancel();
  }

  /** Why the pool stopped answering, while a run goes on (the page then recovers the run). */
  stalled(): string | null {
    return this.running ? (this.deps.pool?.stalled() ?? null) : null;
  }

  /** Scores the run's rows not scored yet, saving each chunk in order. */
  async score(a: ActiveRun, onEvent?: (e: RunEvent) => void): Promise<RunOutcome> {
    const { meta } = a;
    const store = this.deps.store;
    const ctx = this.modelContext(a, onEvent);
    const t0 = performance.now();
    const total = a.rows.length;
    let lastEmit = -Infinity;
    let emitted = -1;
    const startDone = a.results.length;
    const rate = new RecentRate(t0, startDone);
    const progress = () => {
      lastEmit = performance.now();
      const done = (emitted = a.results.length);
      const recent = rate.at(lastEmit, done);
      // While it runs, the recent speed (the time left is told from it); at the end, the whole run's.
      const rowsPerSecond = done === total && lastEmit > t0 ? ((done - startDone) * 1000) / (lastEmit - t0) : recent;
      notify(onEvent, { type: 'progress', done, total, rowsPerSecond });
    };
    this.running = true;
    this.stop = new AbortController();
    if (this.cancelled) this.stop.abort();
    meta.status = 'running';
    // Chunks are scored ahead (one per pool worker, plus one queued) and taken in row order: chunk k is saved
    // only after chunks 0…k-1, so a saved run always ends at a chunk boundary and resumes exactly.
    const pool = this.poolFor(a);
    const engine = new RunEngine(
      {
        metrics: a.metrics,
        pool: pool && { workers: pool, plan: planOf(a.config) },
        ctx,
        jobRows: meta.chunkSize,
        ahead: pool ? pool.size + 1 : 1,
        modelBatch: DEFAULTS.rowsPerBatch.session,
        // The embedded metrics' explanations are not kept (again() makes a row's when it is shown).
        explainEmbedded: false,
        signal: this.stop.signal,
        ...(this.deps.sliceMs !== undefined ? { sliceMs: this.deps.sliceMs } : {}),
        onSkip: (row, why) => notify(onEvent, { type: 'warning', message: `Row ${(row + 1).toLocaleString('en')}: ${why}.` }),
      },
      async (_job, part) => {
        const k = a.results.length / meta.chunkSize;
        a.results.append(part);
        meta.chunks = k + 1;
        meta.done = a.results.length;
        meta.updatedAt = Date.now();
        const hadFailure = store.failure;
        if (a.saved) await store.append(meta, k, part);
        if (!hadFailure && store.failure) notify(onEvent, { type: 'warning', message: store.failure });
        if (performance.now() - lastEmit >= PROGRESS_MS || a.results.length === total) progress();
        // Let cancel() and the caller's queries in between chunks.
        await tick();
      },
    );
    try {
      for (let next = a.results.length; !this.cancelled && next < total; next += meta.chunkSize)
        await engine.add(next, a.rows.slice(next, Math.min(total, next + meta.chunkSize)));
      await engine.finish();
    } catch (e) {
      // A cancel drops the chunks being scored: the run ends after the last chunk saved.
      if (!this.cancelled) throw e;
    } finally {
      this.running = false;
      this.stop = null;
      if (pool) pool.retire();
    }
    // The last rows kept (a cancel lets the chunks already scored in) are said too, not throttled away.
    if (emitted !== a.results.length) progress();
    meta.status = a.results.length === total ? 'done' : 'cancelled';
    meta.updatedAt = Date.now();
    if (a.saved) await store.update(meta);
    return {
      status: meta.status === 'done' ? 'done' : 'cancelled',
      done: a.results.length,
      total,
      ms: performance.now() - t0,
      models: a.models,
    };
  }

  /**
   * Computes rows from…to's embedded results again in the pool's workers, side by side, for an export's next
   * batch (row by row here it would take as long as scoring on one core). Without a pool, or if it fails, the
   * rows are computed here as they are asked for.
   */
  async computeAhead(a: ActiveRun, from: number, to: number): Promise<void> {
    const pool = this.deps.pool;
    const names = a.metrics.filter((m) => !isBatchMetric(m)).map((m) => m.name);
    a.ahead = undefined;
    if (!pool || names.length === 0 || to <= from) return;
    const step = Math.ceil((to - from) / pool.size);
    const jobs: Promise<ResultChunk>[] = [];
    for (let s = from; s < to; s += step) jobs.push(pool.score(a.poolJob(s, Math.min(to, s + step), names, names)));
    try {
      const table = new ResultTable(names, new Set(names));
      for (const c of await Promise.all(jobs)) table.append(c);
      a.ahead = { from, table };
    } catch {
      // Computed here instead, row by row.
    }
  }

  /** Ends the pool's workers once nothing needs them (after an export). */
  retire(): void {
    if (!this.running) this.deps.pool?.retire();
  }

  private modelContext(a: ActiveRun, onEvent?: (e: RunEvent) => void): ModelContext {
    const c = a.config;
    if (!a.metrics.some(isBatchMetric) || Object.keys(c.models).length === 0) return {};
    const host = this.deps.models?.();
    if (!host) throw new VerityError('the model worker is not connected', 'output', 'unavailable');
    // The page loads the models first (with progress and consent); here a load finds them ready.
    return hostContext(host, c.models, {
      onLoaded: (info) => {
        a.models[info.role] = info;
        // Saved with the run's next chunk: a reopened run names the models that scored it.
        a.meta.config = { ...a.meta.config, loaded: { ...a.models } };
        notify(onEvent, { type: 'model-loaded', model: info });
      },
    });
  }

  /** The pool, for a run of embedded metrics (each worker makes them from the run's settings, calibrated or not). */
  private poolFor(a: ActiveRun): ScorePool | null {
    const pool = this.deps.pool;
    return pool && !a.metrics.some(isBatchMetric) ? pool : null;
  }
}
