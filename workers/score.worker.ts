/**
 * The scoring worker: a comlink shell around one ScoringSession (src/session/), which holds the rows and results
 * and does the work. This file only connects the session to IndexedDB and to the model worker's port, and
 * exposes its methods; the types the page uses live in src/session/api.ts.
 */
import { expose, wrap, type Remote } from 'comlink';
import { ScoringSession } from '../src/session/session.ts';
import { compareApi } from '../src/session/compare.ts';
import type { ExportKind, Mapping, ReviewAnswer, RunConfig, RunEvent, ScoreApi } from '../src/session/api.ts';
import type { ViewQuery } from '../src/core/results.ts';
import type { HostLike } from '../src/runtime/context.ts';
import { Journal } from '../src/session/journal.ts';
import { collectUntil } from '../src/runtime/collect.ts';
import { loadLexicon } from '../src/runtime/lexicon-browser.ts';
import { createPool, poolSize, type WorkerLike } from '../src/session/pool.ts';
import pkg from '../package.json' with { type: 'json' };

let modelHost: Remote<HostLike> | null = null;
// Embedded metrics score in a pool of workers, one per core the browser reports (created on a run's first chunk).
const pool = createPool(
  () => new Worker(new URL('./pool.worker.ts', import.meta.url), { type: 'module', name: 'score-pool' }) as unknown as WorkerLike,
  poolSize(self.navigator?.hardwareConcurrency),
);
const session = new ScoringSession({
  store: new Journal(),
  models: () => modelHost,
  version: pkg.version,
  pool,
  collect: (gone) => void collectUntil(gone),
  lexicon: () => loadLexicon(),
});

const api: ScoreApi = {
  open: (blob: Blob, name: string, onProgress?: (read: number, total: number) => void) => {
    pool.warm();
    return session.open(blob, name, onProgress);
  },
  map: (m: Mapping) => session.map(m),
  /** The model worker's port, so model-based metrics reach the same loaded models as the rest of the app. */
  connectModels(port: MessagePort): void {
    modelHost = wrap<HostLike>(port);
  },
  shareHold: (flag: Int32Array | null) => pool.share(flag),
  run: (c: RunConfig, onEvent: (e: RunEvent) => void) => session.run(c, onEvent),
  continueRun: (onEvent: (e: RunEvent) => void) => session.continueRun(onEvent),
  cancel: () => session.cancel(),
  ping: () => session.ping(),
  runs: () => session.runs(),
  resume: (id: string, models?: RunConfig['models']) => {
    pool.warm();
    return session.resume(id, models);
  },
  deleteRun: (id: string) => session.deleteRun(id),
  clearRuns: () => session.clearRuns(),
  view: (q: ViewQuery) => session.view(q),
  rowsAt: (positions: number[]) => session.rowsAt(positions),
  detail: (i: number) => session.detail(i),
  report: () => session.report(),
  calibrate: () => session.calibrate(),
  exportFile: (kind: ExportKind, onProgress?: (done: number, total: number) => void) => session.exportFile(kind, onProgress),
  // The review queue: the person's labels on the rows the judge is least sure of.
  reviewState: () => session.reviewState(),
  reviewStart: (opts: { budget: number | string; judge?: string; seed?: number }) => session.reviewStart(opts),
  reviewItem: (position: number) => session.reviewItem(position),
  reviewAnswer: (position: number, answer: ReviewAnswer, row?: number) => session.reviewAnswer(position, answer, row),
  reviewUndo: () => session.reviewUndo(),
  reviewExport: () => session.reviewExport(),
  reviewImport: (blob: Blob, name: string) => session.reviewImport(blob, name),
  reviewRefit: () => session.reviewRefit(),
  reviewDiscard: () => session.reviewDiscard(),
  // Several systems: open several files, the comparison report, where the systems differ, its exports.
  ...compareApi(session),
};

expose(api);
