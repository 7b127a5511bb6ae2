/**
 * The scoring worker: one ScoringSession (src/session/), which holds the rows and results and does the work,
 * exposed with comlink as it is. This file only connects the session to IndexedDB, to the model worker's port
 * and to the page's hold on the cores; the page's types are src/session/api.ts and the session's (SessionApi).
 */
import { expose, wrap } from 'comlink';
import { ScoringSession, type ScoreApi } from '../src/session/session.ts';
import type { ModelCalls } from '../src/runtime/host-api.ts';
import { Journal } from '../src/session/journal.ts';
import { askForCollection, collectUntil } from '../src/runtime/collect.ts';
import { loadLexicon } from '../src/runtime/lexicon-browser.ts';
import { createPool, poolSize, type WorkerLike } from '../src/session/pool.ts';
import { hashOnThread, type HashWorker } from '../src/runtime/hash-thread.ts';
import type { HoldFlag } from '../src/session/hold.ts';
import pkg from '../package.json' with { type: 'json' };

let modelHost: ModelCalls | null = null;
// Embedded metrics score in a pool of workers, one per core the browser reports (created on a run's first chunk).
const pool = createPool(
  () => new Worker(new URL('./pool.worker.ts', import.meta.url), { type: 'module', name: 'score-pool' }) as unknown as WorkerLike,
  poolSize(self.navigator?.hardwareConcurrency),
);

class ScoringWorker extends ScoringSession implements ScoreApi {
  /** The model worker's port, so model-based metrics reach the same loaded models as the rest of the app. */
  connectModels(port: MessagePort): void {
    modelHost = wrap<ModelCalls>(port);
  }

  shareHold(flag: HoldFlag | null): void {
    pool.share(flag);
  }
}

expose(
  new ScoringWorker({
    store: new Journal(),
    models: () => modelHost,
    version: pkg.version,
    pool,
    collect: (gone) => (gone ? void collectUntil(gone) : askForCollection()),
    lexicon: () => loadLexicon(),
    hash: (blob) =>
      hashOnThread(
        blob,
        () => new Worker(new URL('./hash.worker.ts', import.meta.url), { type: 'module', name: 'hash' }) as unknown as HashWorker,
      ),
  }),
);
