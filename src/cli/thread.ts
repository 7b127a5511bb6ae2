/**
 * The CLI's scoring threads: the session's scoring pool (session/pool.ts) over worker_threads, so the CLI and the
 * page score the embedded metrics through one protocol and one metric cache. Up to `setScoringThreads(n)` threads
 * for the process (by default one per core, at most four), started as the work needs them, each holding the
 * process open only while it has a job, all ended by endScoringThreads(). Unlike the page's workers, a row here has
 * no time limit: the pool's watchdog is off.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { createPool, type PoolReply, type ScorePool, type WorkerLike } from '../session/pool.ts';

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

const live = new Set<WorkerLike>();
const ending: Promise<number>[] = [];

/** A thread as the pool sees a browser worker; a thread that stops by itself is a failed worker. */
function threadWorker(): WorkerLike {
  const w = spawn();
  // Held open only while a reply is awaited, so a finished command exits without ending the thread first.
  w.unref();
  let ended = false;
  const worker: WorkerLike = {
    onmessage: null,
    onerror: null,
    postMessage(m) {
      w.ref();
      w.postMessage(m);
    },
    terminate() {
      ended = true;
      live.delete(worker);
      ending.push(w.terminate());
    },
  };
  const fail = (message: string) => {
    if (ended) return;
    ended = true;
    live.delete(worker);
    worker.onerror?.({ message } as ErrorEvent);
  };
  w.on('message', (data: PoolReply) => {
    if (data.type !== 'beat') w.unref();
    worker.onmessage?.({ data } as MessageEvent<PoolReply>);
  });
  w.on('error', (e) => fail(e.message));
  w.on('exit', (code) => fail(`the scoring thread stopped (exit code ${code})`));
  live.add(worker);
  return worker;
}

/**
 * The default number of scoring threads: one per core, 1 to 4. The main thread (reading, writing) needs far less
 * than a core: on two cores, two threads scored a million rows in 145 s against 272 s for one.
 */
export const defaultScoringThreads = (cores = availableParallelism()): number => Math.max(1, Math.min(4, cores));

let limit = defaultScoringThreads();
let pool: ScorePool | null = null;

/** How many scoring threads may run at once (a whole number ≥ 1; from --threads). */
export function setScoringThreads(n: number): void {
  limit = Math.max(1, Math.floor(n));
  if (pool && pool.size !== limit) void endScoringThreads();
}

/**
 * The process's scoring pool: its jobs go to a free thread, or a new one while every thread has work and there may
 * be more. Each thread makes the same metrics from a job's plan, so which thread scores a row does not change its
 * results.
 */
export function scoringPool(): ScorePool {
  return (pool ??= createPool(threadWorker, limit, Infinity, undefined, Infinity));
}

/** Scoring threads running now. */
export const scoringThreads = (): number => live.size;

/** Ends every scoring thread at once (an interrupt, or the end of a command), whatever they are scoring. */
export async function endScoringThreads(): Promise<void> {
  const p = pool;
  pool = null;
  p?.cancel();
  p?.retire();
  await Promise.all(ending.splice(0));
}
