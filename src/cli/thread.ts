/**
 * The main thread's side of the scoring thread (score-thread.ts): one thread for the process, started on first
 * use, kept alive only while it has work, ended by endScoringThread().
 */
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
  private readonly pending = new Map<number, { resolve: (r: RowResults[]) => void; reject: (e: Error) => void }>();

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
      if (thread === this) thread = null;
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

let thread: ScoringThread | null = null;

/** Scores rows with a plan's synchronous metrics in the scoring thread. */
export function scoreInThread(plan: MetricPlan, rows: QaItem[]): Promise<RowResults[]> {
  return (thread ??= new ScoringThread()).score(plan, rows);
}

/** Ends the scoring thread at once (an interrupt), whatever it is scoring. */
export async function endScoringThread(): Promise<void> {
  const t = thread;
  thread = null;
  await t?.end();
}
