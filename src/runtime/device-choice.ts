/**
 * WebGPU or WASM, decided by measuring. Public figures disagree by two orders of magnitude (up to 100x faster on
 * WebGPU for some encoders; WASM 9.6x faster for all-MiniLM-L6-v2; NLI not accelerated; int8 operators falling
 * back off the GPU), so when a model could run on either, the host loads it on both, times the canary batch on
 * each and keeps the faster. The choice is remembered per model and dropped when the browser, the adapter, the
 * model's revision or its dtypes change. A device the user forces (the spec's `device`) is never measured.
 */
import type { Device, Dtype } from './registry.ts';

/** The canary batch's time on one device: the best of MEASURE_RUNS runs after the warm-up (the check itself). */
export interface DeviceTiming {
  device: Device;
  dtype: Dtype;
  ms: number;
}

/** How the device of a load was chosen, recorded with the load (Models page, exports). */
export interface DeviceChoice {
  /** measured now, or remembered from an earlier measurement in this browser. */
  chosen: 'measured' | 'remembered';
  /** Every device timed, fastest first. */
  timings: DeviceTiming[];
}

/** What is remembered of a measurement, and what it is valid for. */
export interface StoredChoice {
  browser: string;
  adapter: string;
  revision: string;
  dtypes: string;
  device: Device;
  timings: DeviceTiming[];
  at: number;
}

/** Where choices are remembered (an idb-cache.ts KeyValueStore in the browser, a Map in the tests). */
export interface ChoiceStore {
  get(key: string): Promise<StoredChoice | undefined>;
  set(key: string, value: StoredChoice): Promise<void>;
  del(key: string): Promise<void>;
}

/** Timed runs per device; the best is kept (the first run of a session pays for shader compilation). */
export const MEASURE_RUNS = 3;

/** Where a choice is remembered: one entry per role and model id, replaced when it no longer fits. */
export const choiceKey = (spec: { role: string; id: string }): string => `${spec.role}|${spec.id}`;

/** What a remembered choice must match: this browser (its version is in the user agent), adapter, model revision, dtypes. */
export interface ChoiceContext {
  browser: string;
  adapter: string;
  revision: string;
  dtypes: string;
}

export const choiceContext = (spec: { revision: string; dtypes?: unknown }, browser: string, adapter: string): ChoiceContext => ({
  browser,
  adapter,
  revision: spec.revision,
  dtypes: JSON.stringify(spec.dtypes ?? {}),
});

export const fits = (s: StoredChoice, c: ChoiceContext): boolean =>
  s.browser === c.browser && s.adapter === c.adapter && s.revision === c.revision && s.dtypes === c.dtypes;

/** The timings, fastest first (a tie keeps the earlier, i.e. the plan's preferred, device). */
export const byTime = (timings: readonly DeviceTiming[]): DeviceTiming[] => [...timings].sort((a, b) => a.ms - b.ms);

/** The remembered choice for a model, or null; one that no longer fits is deleted (and measured again). */
export async function recall(store: ChoiceStore, key: string, c: ChoiceContext): Promise<StoredChoice | null> {
  const s = await store.get(key).catch(() => undefined);
  if (!s) return null;
  if (fits(s, c)) return s;
  await store.del(key).catch(() => undefined);
  return null;
}

/** Times `run` `runs` times with `now` (ms); the best. */
export async function bestTime(run: () => Promise<unknown>, now: () => number, runs = MEASURE_RUNS): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t = now();
    await run();
    best = Math.min(best, now() - t);
  }
  return Math.round(best * 100) / 100;
}

/** Why the device was chosen, in words, for the Models page. */
export function choiceReason(c: DeviceChoice): string {
  const times = c.timings.map((t) => `${t.device}/${t.dtype} ${t.ms.toFixed(1)} ms`).join(', ');
  return `${c.chosen === 'measured' ? 'chosen by measuring' : 'chosen by an earlier measurement in this browser'} (canary batch, best of ${MEASURE_RUNS}: ${times})`;
}
