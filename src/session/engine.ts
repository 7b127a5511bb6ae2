/**
 * The run engine: scores a run's rows job by job — the embedded metrics in the scoring pool's workers when there is
 * a pool (the page's web workers, the CLI's worker_threads), in this thread otherwise; the model metrics in this
 * thread, through the model host — several jobs ahead, their results taken in row order. The session's Runner
 * drives it over a saved run's chunks, the CLI over a file's batches as they are read, Learn and the Playground
 * over their few rows in the page (scoreHere).
 */
import { InOrder } from '../core/in-order.ts';
import type { MetricPlan } from '../core/run-config.ts';
import { itemOf, scoreRows, type RowResults, type ScoreOptions } from '../core/scoring.ts';
import { ChunkPacker, ResultTable, type ResultChunk } from '../core/result-table.ts';
import { isBatchMetric, type AnyMetric, type QaItem } from '../core/types.ts';
import type { ModelContext } from '../core/capabilities.ts';
import { withEvidenceCache, type RunContext } from '../core/evidence.ts';
import { DEFAULTS } from '../core/defaults.ts';
import type { ScorePool } from './pool.ts';

/** Rows scored in this thread between looks at the clock: a slice of long-form rows stays well under a second. */
const SLICE_ROWS = 16;

/** A turn of the event loop: lets a cancel and queries in. */
export const tick = () => new Promise<void>((r) => setTimeout(r, 0));

export interface EngineSetup {
  /** The run's metrics. */
  metrics: readonly AnyMetric[];
  /**
   * Where the embedded metrics score, and the plan its workers make them from (the one `metrics` were made from:
   * metricsOf); null: in this thread.
   */
  pool: { workers: ScorePool; plan: MetricPlan } | null;
  /** The models. */
  ctx: ModelContext;
  /** Rows per job: scored as one, taken as one. */
  jobRows: number;
  /** Jobs scored at once, the first taken while the others score (with model metrics, one: they run here in turn). */
  ahead: number;
  /** Rows per batch handed to a model. */
  modelBatch: number;
  /** Keep the embedded metrics' explanations (the CLI writes them; the session makes them again when shown). */
  explainEmbedded: boolean;
  signal?: AbortSignal;
  /** How long this thread scores before it yields (ms), so that its pings and a cancel are answered mid-job. */
  sliceMs?: number;
  /** A row (its index in the run) that the pool left unscored, and why. */
  onSkip?: (row: number, why: string) => void;
}

/** Rows of a run scored as one: `rows` are the run's rows from `start` on. */
export interface Job<R extends QaItem = QaItem> {
  start: number;
  rows: readonly R[];
}

/**
 * Metrics whose details and explanations a run keeps for every row: the model-based ones. The embedded metrics'
 * are a pure function of the row, computed again for the rows asked for (the detail view, exports).
 */
export const detailedOf = (metrics: readonly AnyMetric[]): Set<string> => new Set(metrics.filter(isBatchMetric).map((m) => m.name));

/** The rows of a scored chunk, each metric's result as the chunk keeps it (details for the metrics in `detailed`). */
export function rowsOf(chunk: ResultChunk, detailed: ReadonlySet<string> = new Set()): RowResults[] {
  const table = new ResultTable(chunk.metrics, detailed);
  table.append(chunk);
  return Array.from({ length: table.length }, (_, i) => table.row(i));
}

export class RunEngine<R extends QaItem = QaItem> {
  private readonly order: InOrder<{ job: Job<R>; chunk: ResultChunk }>;
  private readonly models: ReadonlySet<string>;
  /** The plan of the metrics the pool scores when model metrics score here (its combinations come after its list). */
  private readonly embeddedPlan: MetricPlan | null;
  /** The models, with one evidence cache for the run: a statement or NLI pair repeated across jobs is computed once. */
  private readonly ctx: RunContext;

  constructor(
    private readonly s: EngineSetup,
    take: (job: Job<R>, chunk: ResultChunk) => Promise<void> | void,
  ) {
    this.order = new InOrder(({ job, chunk }) => take(job, chunk));
    this.models = detailedOf(s.metrics);
    this.ctx = withEvidenceCache(s.ctx);
    const plan = s.pool?.plan;
    this.embeddedPlan = plan ? { ...plan, metrics: plan.metrics.filter((_, i) => !isBatchMetric(s.metrics[i]!)) } : null;
  }

  /**
   * Starts scoring `rows`, the run's rows from `start` on, in jobs of at most `jobRows`; resolves once no more than
   * `ahead` jobs are untaken. Throws the failure of a job taken meanwhile.
   */
  async add(start: number, rows: readonly R[]): Promise<void> {
    for (let at = 0; at < rows.length; at += this.s.jobRows) {
      const job: Job<R> = { start: start + at, rows: rows.slice(at, at + this.s.jobRows) };
      this.order.add(this.score(job).then((chunk) => ({ job, chunk })));
      await this.order.until(this.models.size ? 0 : this.s.ahead - 1);
    }
  }

  /** Waits until every job started is taken; throws the first failure. */
  finish(): Promise<void> {
    return this.order.until(0);
  }

  private async score(job: Job<R>): Promise<ResultChunk> {
    const { metrics, pool, signal, explainEmbedded } = this.s;
    if (pool && this.models.size === 0) {
      const onSkip = this.s.onSkip;
      return pool.workers.score(
        { rows: job.rows.map(itemOf), plan: pool.plan, detailed: [], ...(explainEmbedded ? { explainAll: true } : {}) },
        onSkip && ((i, why) => onSkip(job.start + i, why)),
      );
    }
    const out = new ChunkPacker(
      job.rows.length,
      metrics.map((m) => m.name),
      this.models,
      explainEmbedded ? undefined : this.models,
    );
    const opts: ScoreOptions = {
      batchSize: this.s.modelBatch,
      scoresOnly: out.scoresOnly,
      ...(signal ? { signal } : {}),
      ...(pool ? { scoreSync: (rows: QaItem[]) => this.inPool(pool.workers, rows) } : {}),
    };
    // With models, a job is one call (scoreRows batches it for them, and awaits each batch); without, a few rows
    // at a time, yielding whenever a slice took long.
    const slice = this.models.size ? job.rows.length : SLICE_ROWS;
    const sliceMs = this.s.sliceMs ?? 50;
    let since = performance.now();
    for (let at = 0; at < job.rows.length; at += slice) {
      signal?.throwIfAborted();
      for (const r of await scoreRows(job.rows.slice(at, at + slice), metrics, this.ctx, opts)) out.add(r);
      if (performance.now() - since > sliceMs) {
        await tick();
        since = performance.now();
      }
    }
    return out.done();
  }

  /** The embedded metrics' results of rows scored in the pool, beside model metrics scored here. */
  private async inPool(pool: ScorePool, rows: QaItem[]): Promise<RowResults[]> {
    const chunk = await pool.score({ rows: rows.map(itemOf), plan: this.embeddedPlan!, detailed: [], explainAll: true });
    return rowsOf(chunk);
  }
}

/**
 * Rows scored by the engine in this thread, with no pool (the page's Learn and Playground, whose rows are few):
 * their results in row order, every explanation kept, details of the model metrics.
 */
export async function scoreHere(
  rows: readonly QaItem[],
  metrics: readonly AnyMetric[],
  ctx: ModelContext = {},
  o: { jobRows?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<RowResults[]> {
  const out: RowResults[] = [];
  const detailed = detailedOf(metrics);
  const jobRows = o.jobRows ?? DEFAULTS.rowsPerBatch.session;
  const engine = new RunEngine(
    { metrics, pool: null, ctx, jobRows, ahead: 1, modelBatch: jobRows, explainEmbedded: true },
    (_job, chunk) => {
      out.push(...rowsOf(chunk, detailed));
      o.onProgress?.(out.length, rows.length);
    },
  );
  await engine.add(0, rows);
  await engine.finish();
  return out;
}
