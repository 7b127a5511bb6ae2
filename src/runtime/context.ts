/**
 * Model capabilities for the core metrics (Nli, Ranker, Embedder, StatementWriter) on top of a model host —
 * the in-process host in Node or the worker proxy in the browser. A model loads on first use, so a run whose
 * rows carry their own NLI probabilities never downloads one. Host errors become thrown Errors, which the
 * runner turns into per-batch "not scored: why" results. The host is called the same way in both: a callback
 * goes as a comlink proxy (which an in-process call runs as the plain function it is).
 */
import { proxy } from 'comlink';
import type { Capability, ModelContext } from '../core/capabilities.ts';
import { ROLE_TABLE, ROLES } from './registry.ts';
import type { Result } from '../core/errors.ts';
import { hostFailure, type HostError, type LoadedModel, type LoadProgress, type ModelSpec, type Role } from './messages.ts';
import type { ModelCalls } from './host-api.ts';
import type { DeviceChoice, DeviceTiming } from './device-choice.ts';

export interface HostContextOptions {
  onProgress?: (role: Role, p: LoadProgress) => void;
  /** Called once per role when its model is loaded (device, dtype, fallbacks…). */
  onLoaded?: (info: LoadedModel) => void;
  /** Called once per role when its model fails to load (every later use reports the same reason). */
  onFailed?: (role: Role, message: string) => void;
}

/** How a result row and an export record the model behind it: what ran where, and whether its canary passed. */
export interface ModelRecord {
  id: string;
  revision: string;
  device: LoadedModel['device'];
  dtype: LoadedModel['dtype'];
  /** 'passed', or 'skipped' when the user chose to use the model without its check (its scores are unchecked). */
  canary: 'passed' | 'skipped';
  /** How the device was chosen when it was measured (device-choice.ts), with the canary batch's time on each device. */
  chosen?: DeviceChoice['chosen'];
  timings?: DeviceTiming[];
}

export const modelRecord = (m: LoadedModel): ModelRecord => ({
  id: m.id,
  revision: m.revision,
  device: m.device,
  dtype: m.dtype,
  canary: m.canary.skipped ? 'skipped' : 'passed',
  ...(m.choice ? { chosen: m.choice.chosen, timings: m.choice.timings } : {}),
});

/** The records of every loaded model by role, or undefined when none was loaded. */
export function modelRecords(loaded: Partial<Record<string, LoadedModel>>): Record<string, ModelRecord> | undefined {
  const entries = Object.entries(loaded).filter((e): e is [string, LoadedModel] => e[1] !== undefined);
  return entries.length ? Object.fromEntries(entries.map(([role, m]) => [role, modelRecord(m)])) : undefined;
}

/** A host answer's value, or its error thrown with the host's code (a metric's batch reports the message). */
const unwrap = <T>(r: Result<T, HostError>): T => {
  if (r.ok) return r.value;
  throw hostFailure(r.error);
};

/** A ModelContext whose capabilities exist for the given specs and load lazily, once. */
export function hostContext(
  host: ModelCalls,
  specs: Partial<Record<Role, ModelSpec>>,
  opts: HostContextOptions = {},
): ModelContext & { provenance: Record<string, LoadedModel> } {
  const provenance: Record<string, LoadedModel> = {};
  const loads = new Map<Role, Promise<void>>();
  const ensure = (role: Role): Promise<void> => {
    let p = loads.get(role);
    if (!p) {
      p = host.load(specs[role]!, opts.onProgress ? proxy((x: LoadProgress) => opts.onProgress!(role, x)) : undefined).then((r) => {
        if (!r.ok) opts.onFailed?.(role, r.error.message);
        const info = unwrap(r);
        provenance[role] = info;
        opts.onLoaded?.(info);
      });
      // A failed load is remembered: every later batch reports the same reason instead of downloading again.
      loads.set(role, p);
    }
    return p;
  };
  /**
   * A capability whose every method is the host's `call` of it, once its model is loaded: nothing here names a
   * method, so one added to a core interface and answered by the host reaches the metrics as it is. `then` is
   * not a method (the object is no promise); the writer's `name` is its model's id.
   */
  const forward = (capability: Capability, role: Role, spec: ModelSpec): object =>
    new Proxy(capability === 'writer' ? { name: spec.id } : {}, {
      get: (fixed: Record<string, unknown>, method) =>
        method in fixed
          ? fixed[method as string]
          : typeof method === 'string' && method !== 'then'
            ? async (...args: unknown[]) => (await ensure(role), unwrap(await host.call(capability, method, args)))
            : undefined,
    });
  const ctx: ModelContext & { provenance: Record<string, LoadedModel> } = { provenance };
  const capabilities = ctx as Record<Capability, object>;
  for (const role of ROLES) {
    const spec = specs[role];
    if (spec) capabilities[ROLE_TABLE[role].capability] = forward(ROLE_TABLE[role].capability, role, spec);
  }
  return ctx;
}
