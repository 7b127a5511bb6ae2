/**
 * The app's two workers, created on first use and shared by every page: the model host (transformers.js,
 * one copy of each loaded model for the whole app) and the scoring worker.
 */
import { wrap, type Remote } from 'comlink';
import type { ModelHostApi } from '../../../workers/model-host.worker.ts';

let modelHost: { worker: Worker; api: Remote<ModelHostApi> } | null = null;

export function modelHostApi(): Remote<ModelHostApi> {
  if (!modelHost) {
    const worker = new Worker(new URL('../../../workers/model-host.worker.ts', import.meta.url), { type: 'module', name: 'model-host' });
    modelHost = { worker, api: wrap<ModelHostApi>(worker) };
    // A diagnostics handle (also used by the end-to-end tests); it can do nothing the pages cannot.
    (globalThis as { __verityModels?: Remote<ModelHostApi> }).__verityModels = modelHost.api;
  }
  return modelHost.api;
}

/** Ends the model worker (e.g. after it crashed); the next modelHostApi() starts a new one. */
export function resetModelHost(): void {
  modelHost?.worker.terminate();
  modelHost = null;
}
