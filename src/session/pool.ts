/**
 * A pool of scoring workers for the embedded (model-free) metrics: the session hands each worker a chunk of rows
 * and merges the chunks back in row order, so every core the browser offers scores while the session's own
 * thread stays free for the page's queries. The session's runs with model-based metrics do not use it (their models
 * live in the one model worker, which the session reaches directly); the CLI's score their embedded metrics in it
 * beside the models (session/engine.ts).
 *
 * Each worker says which row it is on at least every slice of ~50 ms (a heartbeat). A worker that never answers
 * a job is dead: the session's ping then fails, so the page recovers the run from its saved chunks exactly as
 * after any other crash. A worker that answered but then stays silent past the row budget is busy with one slow
 * row: it is ended, the job is scored again with a beat before every row, and the row it stalls on next is left
 * unscored with the reason, named to the session, while the run goes on.
 */
import { metricsOf, type MetricPlan } from '../core/run-config.ts';
import type { WordNet } from '../core/lexicon/index.ts';
import { scoreRow } from '../core/scoring.ts';
import { isBatchMetric, VerityError, type Metric, type QaItem } from '../core/types.ts';
import { ChunkPacker, chunkBuffers, type ResultChunk } from '../core/result-table.ts';
import { Yielder, type HoldFlag } from './hold.ts';
import { LIMITS } from '../core/limits.ts';

export interface ScoreJob {
  rows: QaItem[];
  /** The run's plan for the metrics scored here (the embedded ones), as the session has it. */
  plan: MetricPlan;
  /** Metrics whose details and explanations are kept. */
  detailed: string[];
  /** Keep every metric's explanations (the CLI writes them all; the session computes the embedded ones again). */
  explainAll?: boolean;
  /** Rows (index in `rows`) left unscored, with the reason: they took longer than the row budget. */
  skip?: [number, string][];
  /** Beat before every row, so a row that stalls is known exactly. */
  precise?: boolean;
}

export interface ScorePool {
  /** Workers: chunks scored at once. */
  readonly size: number;
  /** Scores a job; `onSkip` hears of each row (index in the job) left unscored for exceeding the row budget. */
  score(job: ScoreJob, onSkip?: (index: number, reason: string) => void): Promise<ResultChunk>;
  /** Starts the workers now (they load the metrics' code), so a run's first chunk does not wait for it. */
  warm(): void;
  /** Why the pool cannot go on (a worker silent past the limit, or failed), or null while it is well. */
  stalled(): string | null;
  /**
   * Drops every job at once (a cancelled run): the queued ones, and those being scored, whose workers are ended
   * (new ones start for the next job). Each dropped job's promise rejects.
   */
  cancel(): void;
  /**
   * Ends the workers that have nothing to do (a run is over), so their heaps (the metrics' lexicons, and what they
   * left for a collection that an idle worker may not run soon) go back to the system; the next job starts new ones.
   */
  retire(): void;
  /** The page's hold on the cores (hold.ts): the workers wait while it is up, within their budget. */
  share(flag: HoldFlag | null): void;
}

/** Worker count for a browser: one per logical core it reports, at least 1, at most 8. */
export const poolSize = (hardwareConcurrency: number | undefined): number =>
  Math.max(1, Math.min(8, Math.floor(hardwareConcurrency ?? 1) || 1));

let built: { key: string; lexicon: WordNet | null; metrics: Metric[] } | null = null;

/** The synchronous metrics of a job, built once per plan (and lexicon). */
function builtFor(job: ScoreJob, lexicon: WordNet | null): Metric[] {
  const key = JSON.stringify(job.plan);
  if (built?.key !== key || built.lexicon !== lexicon) {
    const metrics = metricsOf(job.plan, { lexicon }).map((m) => {
      if (isBatchMetric(m))
        throw new VerityError(`${m.name} needs a model: the scoring pool runs the embedded metrics only`, 'usage', 'bad-option');
      return m;
    });
    built = { key, lexicon, metrics };
  }
  return built.metrics;
}

/**
 * Scores a job in this thread: what each pool worker runs (a worker has nothing else to answer, so it never
 * yields). It calls `beat(i)` — the heartbeat the watchdog reads: row i is next — when the job arrives, then
 * before a row once a slice of about `sliceMs` has passed (before every row when the job is `precise`). Between
 * rows it lets the page draw (`yielder`) while the page holds the cores.
 */
export async function scoreJob(
  job: ScoreJob,
  lexicon: WordNet | null,
  beat?: (next: number) => void,
  sliceMs = 50,
  yielder?: Yielder,
): Promise<ResultChunk> {
  beat?.(0);
  const metrics = builtFor(job, lexicon);
  const skip = new Map(job.skip);
  // Explanations stay out as details do, unless asked for (the session computes them again for the rows asked for).
  const detailed = new Set(job.detailed);
  const out = new ChunkPacker(
    job.rows.length,
    metrics.map((m) => m.name),
    detailed,
    job.explainAll ? undefined : detailed,
  );
  let since = performance.now();
  for (let i = 0; i < job.rows.length; i++) {
    if (beat && (job.precise || performance.now() - since > sliceMs)) {
      beat(i);
      since = performance.now();
    }
    const why = skip.get(i);
    if (why === undefined) out.add(scoreRow(job.rows[i]!, metrics, out.scoresOnly));
    else out.addUnscored(why);
    yielder?.check();
  }
  return out.done();
}

/**
 * Characters of rows (questions, golds, answers) a pool worker takes in between two full collections it asks for.
 * Each job's rows arrive as a structured clone whose bytes the message event holds until the worker's next full
 * collection; a worker that scores without a pause ran one every ~5 s at best, and the clones of a million-row run
 * (~500 MB) piled up in Chromium's buffer partition to ~400 MB, the run's memory peak. Asked every 16 M
 * characters (about 5 s of a worker's scoring), each collection takes tens of ms.
 */
export const COLLECT_EVERY_CHARS = 16_000_000;

const textLength = (rows: readonly QaItem[]): number => {
  let n = 0;
  for (const r of rows) {
    n += r.question.length + r.candidate.length;
    for (const g of r.golds) n += g.length;
  }
  return n;
};

/** Messages between a pool and its workers. */
export type PoolRequest = { id: number; job: ScoreJob; hold?: HoldFlag };
export type PoolReply =
  | { id: number; type: 'beat'; next: number }
  | { id: number; type: 'done'; chunk: ResultChunk }
  | { id: number; type: 'error'; message: string };

/** The body of a pool worker: answers each job with its chunk (typed arrays transferred), beating meanwhile. */
export function servePool(
  scope: {
    onmessage: ((e: MessageEvent<PoolRequest>) => void) | null;
    postMessage(m: PoolReply, t?: Transferable[]): void;
  },
  /** This thread's lexicon (loaded once); a job waits for it, and fails with its error. */
  lexicon: Promise<WordNet | null>,
  /** Asks the engine for a full collection (runtime/collect.ts), every `collectEvery` characters of rows taken in. */
  collect?: () => void,
  collectEvery = COLLECT_EVERY_CHARS,
): void {
  // One for the worker's life, so its waiting budget carries over from job to job (each job brings a new view of
  // the same shared memory).
  let yielder: Yielder | undefined;
  let received = 0;
  scope.onmessage = (e) => {
    const { id, job, hold } = e.data;
    received += textLength(job.rows);
    if (collect && received >= collectEvery) {
      received = 0;
      collect();
    }
    if (hold) (yielder ??= new Yielder(hold)).flag = hold;
    lexicon
      .then((wn) => scoreJob(job, wn, (next) => scope.postMessage({ id, type: 'beat', next }), undefined, hold ? yielder : undefined))
      .then(
        (chunk) => scope.postMessage({ id, type: 'done', chunk }, chunkBuffers(chunk)),
        (err: unknown) => scope.postMessage({ id, type: 'error', message: err instanceof Error ? err.message : String(err) }),
      );
  };
}

/** What the pool needs of a worker (a DOM Worker; a fake in tests). */
export interface WorkerLike {
  postMessage(m: PoolRequest): void;
  onmessage: ((e: MessageEvent<PoolReply>) => void) | null;
  onerror: ((e: ErrorEvent | Event) => void) | null;
  terminate(): void;
}

interface Queued {
  job: ScoreJob;
  resolve: (c: ResultChunk) => void;
  reject: (e: Error) => void;
  onSkip?: ((index: number, reason: string) => void) | undefined;
}

interface Slot {
  worker: WorkerLike | null;
  busy: (Queued & { id: number; lastBeat: number; beats: number; next: number }) | null;
}

/** Longest a row may take in a pool worker before it is left unscored (ms). */
const ROW_BUDGET_MS = LIMITS.rowMs;

/**
 * A pool over `size` workers made by `spawn` (created on first use). A job waits for a free worker. A worker
 * that sends nothing for `timeoutMs` after it was given a job makes `stalled()` say so (it is dead); one that
 * beat, then is silent for `rowBudgetMs`, is on a slow row (see the top of this file); one that fails is
 * terminated, its job rejected, and a new worker takes its place.
 */
export function createPool(
  spawn: () => WorkerLike,
  size: number,
  timeoutMs = 8000,
  now: () => number = () => performance.now(),
  rowBudgetMs: number = ROW_BUDGET_MS,
): ScorePool {
  const slots: Slot[] = Array.from({ length: Math.max(1, size) }, () => ({ worker: null, busy: null }));
  const queue: Queued[] = [];
  let nextId = 0;
  let failure: string | null = null;
  let hold: HoldFlag | null = null;
  let timer: ReturnType<typeof setInterval> | null = null;
  const watched = Number.isFinite(timeoutMs) || Number.isFinite(rowBudgetMs);
  const slow = `this row took longer than ${rowBudgetMs / 1000} s to score here, so it was left unscored (the CLI scores it without a time limit)`;

  /** The watchdog: a dead worker fails the pool; a worker stuck on one row is ended and its job scored again. */
  const check = (): void => {
    const t = now();
    slots.forEach((slot, k) => {
      const b = slot.busy;
      if (!b || failure) return;
      if (b.beats === 0) {
        if (t - b.lastBeat > timeoutMs) failure = `scoring worker ${k + 1} of ${slots.length} stopped answering`;
        return;
      }
      if (t - b.lastBeat <= rowBudgetMs) return;
      slot.worker?.terminate();
      slot.worker = null;
      slot.busy = null;
      // Not precise yet: the stalled row is one of the few since the last beat; the precise run finds it.
      const job: ScoreJob = b.job.precise ? { ...b.job, skip: [...(b.job.skip ?? []), [b.next, slow]] } : { ...b.job, precise: true };
      if (b.job.precise) b.onSkip?.(b.next, slow);
      queue.unshift({ job, resolve: b.resolve, reject: b.reject, onSkip: b.onSkip });
    });
    pump();
  };

  const start = (slot: Slot): WorkerLike => {
    const w = spawn();
    w.onmessage = (e) => {
      const b = slot.busy;
      if (!b || e.data.id !== b.id) return;
      b.lastBeat = now();
      if (e.data.type === 'beat') {
        b.beats++;
        b.next = e.data.next;
        return;
      }
      slot.busy = null;
      if (e.data.type === 'done') b.resolve(e.data.chunk);
      else b.reject(new Error(e.data.message));
      pump();
    };
    w.onerror = (e) => {
      const message = (e as ErrorEvent).message || 'a scoring worker failed';
      w.terminate();
      slot.worker = null;
      const b = slot.busy;
      slot.busy = null;
      b?.reject(new Error(message));
      pump();
    };
    return w;
  };

  const pump = (): void => {
    for (const slot of slots) {
      if (slot.busy || queue.length === 0) continue;
      const q = queue.shift()!;
      const id = ++nextId;
      slot.busy = { ...q, id, lastBeat: now(), beats: 0, next: 0 };
      try {
        (slot.worker ??= start(slot)).postMessage(hold ? { id, job: q.job, hold } : { id, job: q.job });
      } catch (e) {
        slot.busy = null;
        q.reject(e instanceof Error ? e : new Error(String(e)));
      }
    }
    // The watchdog runs while any worker has a job (the session's ping also runs it, through stalled()); a pool
    // with neither limit (the CLI's) has nothing for it to watch.
    const busy = watched && slots.some((s) => s.busy);
    if (busy && !timer) timer = setInterval(check, Math.min(1000, rowBudgetMs / 4));
    else if (!busy && timer) {
      clearInterval(timer);
      timer = null;
    }
  };

  return {
    size: slots.length,
    score(job, onSkip) {
      return new Promise<ResultChunk>((resolve, reject) => {
        queue.push({ job, resolve, reject, onSkip });
        pump();
      });
    },
    warm() {
      for (const slot of slots) slot.worker ??= start(slot);
    },
    retire() {
      if (queue.length) return;
      for (const slot of slots)
        if (slot.worker && !slot.busy) {
          slot.worker.terminate();
          slot.worker = null;
        }
    },
    share(flag) {
      hold = flag;
    },
    cancel() {
      const dropped = new Error('cancelled');
      for (const q of queue.splice(0)) q.reject(dropped);
      for (const slot of slots) {
        const b = slot.busy;
        if (!b) continue;
        slot.busy = null;
        slot.worker?.terminate();
        slot.worker = null;
        b.reject(dropped);
      }
      pump();
    },
    stalled() {
      check();
      return failure;
    },
  };
}
