/**
 * The app's two workers, created on first use and shared by every page: the model host (transformers.js,
 * one copy of each loaded model for the whole app) and the scoring worker.
 */
import { transfer, wrap, type Remote } from 'comlink';
import type { ModelHostApi } from '../../runtime/host-api.ts';
import type { CompareApi } from '../../session/compare.ts';
import type { ReviewApi } from '../../session/review-facade.ts';
import type { ScoreApi } from '../../session/session.ts';
import type { ProbeInfo } from '../../runtime/messages.ts';
import type { Device } from '../../runtime/registry.ts';
import { createHoldFlag, hold, type HoldFlag } from '../../session/hold.ts';

/** A worker that died: why, and whether it had ever answered (one that never did could not load or run its script). */
export interface WorkerCrash {
  name: 'model' | 'scoring';
  reason: string;
  neverStarted: boolean;
}

/**
 * Notes a worker's first answer and reports its death. (The worker is made by the caller: Vite bundles a worker
 * only for the literal `new Worker(new URL(…, import.meta.url))`.)
 */
function watchWorker(worker: Worker, name: WorkerCrash['name'], died: (c: WorkerCrash) => void): Worker {
  let started = false;
  worker.addEventListener('message', () => (started = true), { once: true });
  worker.addEventListener('error', (e) => died({ name, reason: e.message || `the ${name} worker stopped`, neverStarted: !started }));
  return worker;
}

/**
 * Why a worker that never answered could not start. This module's own file gone (404) means a newer version of
 * the app replaced this page's files (another tab took the update; every file name carries its content hash):
 * re-creating the worker would fail at once, over and over, so the page must be reloaded.
 */
export async function whyNotStarted(c: WorkerCrash): Promise<string> {
  let status = 0;
  try {
    status = (await fetch(import.meta.url, { method: 'HEAD', cache: 'no-store' })).status;
  } catch {
    // Offline, and the service worker has not got it either: this page's files are gone the same way.
  }
  return status >= 200 && status < 300
    ? `The ${c.name} worker could not start (${c.reason}). Reload the page to continue`
    : 'This page is out of date: a newer version of Verity was installed (in another tab?) and this page’s worker code is gone. Reload to continue';
}

/**
 * The scoring session as the page reaches it. Comlink types a member object as a promise of its value, but it
 * calls through member paths (`api.review.start()` runs `session.review.start()` in the worker), so the review
 * and the comparison are remote objects too.
 */
export type ScoreRemote = Remote<Omit<ScoreApi, 'review' | 'compare'>> & { review: Remote<ReviewApi>; compare: Remote<CompareApi> };

interface ModelSlot {
  worker: Worker;
  api: Remote<ModelHostApi>;
}
let modelHost: ModelSlot | null = null;

/** Called when the model worker dies (e.g. out of memory loading a large model). */
let onModelCrash: ((c: WorkerCrash) => void) | null = null;
export function onModelWorkerCrash(fn: ((c: WorkerCrash) => void) | null): void {
  onModelCrash = fn;
}

export function modelHostApi(): Remote<ModelHostApi> {
  if (!modelHost) {
    // Filled in below: the crash handler must know its own slot.
    const current = {} as ModelSlot;
    const worker = new Worker(new URL('../../../workers/model-host.worker.ts', import.meta.url), { type: 'module', name: 'model-host' });
    current.worker = watchWorker(worker, 'model', (c) => {
      if (modelHost !== current) return;
      // One that never started keeps its slot: a new one would fail the same way (see whyNotStarted).
      if (!c.neverStarted) resetModelHost();
      onModelCrash?.(c);
    });
    current.api = wrap<ModelHostApi>(current.worker);
    modelHost = current;
    (globalThis as { __verityModelWorker?: Worker }).__verityModelWorker = current.worker;
    // A diagnostics handle (also used by the end-to-end tests); it can do nothing the pages cannot.
    (globalThis as { __verityModels?: Remote<ModelHostApi> }).__verityModels = modelHost.api;
  }
  return modelHost.api;
}

let probed: Promise<ProbeInfo> | null = null;

/**
 * The device the models will run on (WebGPU or WASM), asked once for the whole app: every screen that sizes a
 * download sizes it for this device, so the sizes listed and the size asked for agree.
 */
export function probeDevice(): Promise<ProbeInfo> {
  probed ??= modelHostApi()
    .probe()
    .catch((e: unknown) => {
      probed = null;
      throw e;
    });
  return probed;
}

/** The device a probe found, as the registry names it. */
export const deviceOf = (p: ProbeInfo): Device => (p.webgpu ? 'webgpu' : 'wasm');

/** Ends the model worker (e.g. after it crashed); the next modelHostApi() starts a new one. */
export function resetModelHost(): void {
  modelHost?.worker.terminate();
  modelHost = null;
  probed = null;
  // The scoring worker's line to the old model worker is dead too.
  if (scoring) scoring.connected = false;
}

/** True while a model worker exists (the page pings it only then). */
export const hasModelHost = (): boolean => modelHost !== null;

interface ScoreSlot {
  worker: Worker;
  api: ScoreRemote;
  connected: boolean;
}
let scoring: ScoreSlot | null = null;

/** Called when the scoring worker dies (crash, out of memory): the page starts a new one and resumes. */
let onScoreCrash: ((c: WorkerCrash) => void) | null = null;
export function onScoreWorkerCrash(fn: ((c: WorkerCrash) => void) | null): void {
  onScoreCrash = fn;
}

export function scoreApi(): ScoreRemote {
  if (!scoring) {
    // Filled in below: the crash handler must know its own slot.
    const current = { connected: false } as ScoreSlot;
    const worker = new Worker(new URL('../../../workers/score.worker.ts', import.meta.url), { type: 'module', name: 'score' });
    current.worker = watchWorker(worker, 'scoring', (c) => {
      if (scoring !== current) return;
      // One that never started keeps its slot: a new one would fail the same way (see whyNotStarted).
      if (!c.neverStarted) {
        scoring = null;
        current.worker.terminate();
      }
      onScoreCrash?.(c);
    });
    current.api = wrap<ScoreApi>(current.worker) as unknown as ScoreRemote;
    scoring = current;
    (globalThis as { __verityScoreWorker?: Worker }).__verityScoreWorker = current.worker;
    void current.api.shareHold(holdFlag());
  }
  return scoring.api;
}

let flag: HoldFlag | null | undefined;
const holdFlag = (): HoldFlag | null => (flag === undefined ? (flag = createHoldFlag()) : flag);

/**
 * Holds the scoring pool's workers (src/session/hold.ts) until the returned function is called: for a frame drawn
 * while a run scores on every core (frames.ts `holdUntilDrawn`, `holdNextFrame`).
 */
export const holdCores = (): (() => void) => hold(holdFlag());

/** Gives the scoring worker a direct line to the model worker (once per scoring worker). */
export async function connectScoringToModels(): Promise<void> {
  const api = scoreApi();
  if (scoring!.connected) return;
  const ch = new MessageChannel();
  await modelHostApi().connect(transfer(ch.port1, [ch.port1]));
  await api.connectModels(transfer(ch.port2, [ch.port2]));
  scoring!.connected = true;
}

/** Ends the scoring worker (tests use it to simulate a crash; the page restarts it on the next call). */
export function resetScoreWorker(): void {
  scoring?.worker.terminate();
  scoring = null;
}
