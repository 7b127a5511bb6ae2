/**
 * The main thread's side of the scoring threads (score-thread.ts): up to `setScoringThreads(n)` threads for the
 * process (by default one per core, at most four), started as the work needs them, each kept alive only while it
 * has work, all ended by endScoringThreads().
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { RowResults } from '../core/scoring.ts';
import type { QaItem } from '../core/types.ts';
import type { MetricPlan } from '../core/run-config.ts';

export type ThreadRequest = { id: number; plan: MetricPlan; rows: QaItem[] };
export type ThreadReply = { id: number; results: RowResults[] } | { id: number; error: string };

/**
 * The thread's module: beside this one. Run from source (bin/verity.mjs, through tsx) it is TypeScript, so the
 * thread registers tsx first (Node 20 does not pass the main thread's loader to workers); bundled, it is the
 * bundle's score-thread.js. (The names are built so that the bundler leaves them alone.)
 */
function spawn(): Worker {
  const here = import.meta.url;
  const name = ['score-thread', here.endsWith('.ts') ? 'ts' : 'js'].join('.');
  const file = new URL(name, here);
  if (!here.endsWith('.ts')) return new Worker(file);
  const tsx = import.meta.resolve('tsx/esm/api');
  return new Worker(`import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(file.href)}); })`, {
    eval: true,
  });
}

class ScoringThread {
  private readonly worker = spawn();
  private next = 0;
  readonly pending = new Map<number, { resolve: (r: RowResults[]) => void; reject: (e: Error) => void }>();

  constructor() {
    this.worker.unref();
    this.worker.on('message', (m: ThreadReply) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (this.pending.size === 0) this.worker.unref();
      if ('error' in m) p.reject(new Error(m.error));
      else p.resolve(m.results);
    });
    const fail = (e: Error) => {
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
      const i = threads.indexOf(this);
      if (i >= 0) threads.splice(i, 1);
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the scoring thread stopped (exit code ${code})`)));
  }

  score(plan: MetricPlan, rows: QaItem[]): Promise<RowResults[]> {
    const id = ++this.next;
    // Held open only while a reply is awaited, so a finished command exits without ending the thread first.
    this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, plan, rows } satisfies ThreadRequest);
    });
  }

  end(): Promise<number> {
    return this.worker.terminate();
  }
}

/**
 * The default number of scoring threads: one per core, 1 to 4. The main thread (reading, writing) needs far less
 * than a core: on two cores, two threads scored a million rows in 145 s against 272 s for one.
 */
export const defaultScoringThreads = (cores = availableParallelism()): number => Math.max(1, Math.min(4, cores));

let limit = defaultScoringThreads();
const threads: ScoringThread[] = [];

/** How many scoring threads may run at once (a whole number ≥ 1; from --threads). */
export function setScoringThreads(n: number): void {
  limit = Math.max(1, Math.floor(n));
}

/**
 * Scores rows with a plan's synchronous metrics in a scoring thread: the least busy one, or a new one while every
 * thread has work and there may be more. Each thread builds the same metrics from the plan, so which thread scores
 * a row does not change its results.
 */
export function scoreInThread(plan: MetricPlan, rows: QaItem[]): Promise<RowResults[]> {
  let t = threads.reduce<ScoringThread | undefined>((a, b) => (a && a.pending.size <= b.pending.size ? a : b), undefined);
  if (!t || (t.pending.size > 0 && threads.length < limit)) threads.push((t = new ScoringThread()));
  return t.score(plan, rows);
}

/** Scoring threads running now. */
export const scoringThreads = (): number => threads.length;

/** Ends every scoring thread at once (an interrupt, or the end of a command), whatever they are scoring. */
export async function endScoringThreads(): Promise<void> {
  const all = threads.splice(0);
  await Promise.all(all.map((t) => t.end()));
}
