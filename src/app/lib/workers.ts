/**
 * The app's two workers, created on first use and shared by every page: the model host (transformers.js,
 * one copy of each loaded model for the whole app) and the scoring worker.
 */
import { transfer, wrap, type Remote } from 'comlink';
import type { ModelHostApi } from '../../../workers/model-host.worker.ts';
import type { ScoreApi } from '../../session/api.ts';
import type { ProbeInfo } from '../../runtime/messages.ts';
import type { Device } from '../../runtime/registry.ts';
import { createHoldFlag, hold, type HoldFlag } from '../../session/hold.ts';

let modelHost: { worker: Worker; api: Remote<ModelHostApi> } | null = null;

/** Called when the model worker dies (e.g. out of memory loading a large model). */
let onModelCrash: ((reason: string) => void) | null = null;
export function onModelWorkerCrash(fn: ((reason: string) => void) | null): void {
  onModelCrash = fn;
}

export function modelHostApi(): Remote<ModelHostApi> {
  if (!modelHost) {
    const worker = new Worker(new URL('../../../workers/model-host.worker.ts', import.meta.url), { type: 'module', name: 'model-host' });
    const current = { worker, api: wrap<ModelHostApi>(worker) };
    worker.addEventListener('error', (e) => {
      if (modelHost !== current) return;
      resetModelHost();
      onModelCrash?.(e.message || 'the model worker stopped');
    });
    modelHost = current;
    (globalThis as { __verityModelWorker?: Worker }).__verityModelWorker = worker;
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

let scoring: { worker: Worker; api: Remote<ScoreApi>; connected: boolean } | null = null;

/** Called when the scoring worker dies (crash, out of memory): the page starts a new one and resumes. */
let onScoreCrash: ((reason: string) => void) | null = null;
export function onScoreWorkerCrash(fn: ((reason: string) => void) | null): void {
  onScoreCrash = fn;
}

export function scoreApi(): Remote<ScoreApi> {
  if (!scoring) {
    const worker = new Worker(new URL('../../../workers/score.worker.ts', import.meta.url), { type: 'module', name: 'score' });
    const current = { worker, api: wrap<ScoreApi>(worker), connected: false };
    worker.addEventListener('error', (e) => {
      if (scoring !== current) return;
      scoring = null;
      worker.terminate();
      onScoreCrash?.(e.message || 'the scoring worker stopped');
    });
    scoring = current;
    (globalThis as { __verityScoreWorker?: Worker }).__verityScoreWorker = worker;
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
