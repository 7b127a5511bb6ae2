/**
 * The scoring pool's workers in process, for tests: each runs the real worker body (servePool), with messages
 * cloned as postMessage would, and can be made slow, hung or crashed.
 */
import { lexicon } from './lexicon.ts';
import { servePool, type PoolReply, type PoolRequest, type WorkerLike } from '../src/session/pool.ts';

export interface FakeOptions {
  /** ms before a job starts (per job number, from 1). */
  delay?: (job: number) => number;
  /** Never answer this job (a hung worker). */
  hang?: number;
  /** Fail this job as a crashed worker would. */
  crash?: number;
}

/** In-process workers running the real worker body (servePool), messages cloned as postMessage would. */
export function fakeSpawn(o: FakeOptions = {}): () => WorkerLike {
  let jobs = 0;
  return () => {
    const inner: Parameters<typeof servePool>[0] = {
      onmessage: null,
      postMessage: (r: PoolReply) => setTimeout(() => outer.onmessage?.({ data: structuredClone(r) } as MessageEvent<PoolReply>), 0),
    };
    servePool(inner, Promise.resolve(lexicon));
    const outer: WorkerLike = {
      onmessage: null,
      onerror: null,
      terminate: () => {},
      postMessage(m: PoolRequest) {
        const job = ++jobs;
        if (job === o.hang) return;
        if (job === o.crash) {
          setTimeout(() => outer.onerror?.({ message: 'out of memory' } as ErrorEvent), 1);
          return;
        }
        setTimeout(() => inner.onmessage!({ data: structuredClone(m) } as MessageEvent<PoolRequest>), o.delay?.(job) ?? 0);
      },
    };
    return outer;
  };
}
