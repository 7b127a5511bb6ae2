/**
 * Which model serves each role, and where model files come from — chosen on the Models page, used by every
 * page that runs a model-based metric. Kept in localStorage (settings only; never data).
 */
import { defaultFor, lookup, ROLES, type RegistryEntry, type Role } from '../../runtime/registry.ts';
import { specFromEntry } from '../../runtime/specs.ts';
import type { ModelSource, ModelSpec } from '../../runtime/messages.ts';

export { ROLES };

export interface ModelChoice {
  id: string;
  /** A registry entry's pinned revision, or any revision/branch for a model outside the registry. */
  revision: string;
}

export interface ModelSettings {
  source: ModelSource;
  choices: Record<Role, ModelChoice>;
  /**
   * Use models without their canary check (the user ticked it knowingly on the Models page). Off by default;
   * every result and export then records that the check was skipped.
   */
  skipCanary: boolean;
  /**
   * 'auto': the faster of WebGPU and WASM, measured when a model loads (runtime/device-choice.ts); or the device the
   * user forces.
   */
  device: DeviceSetting;
}

export type DeviceSetting = 'auto' | 'webgpu' | 'wasm';
const DEVICE_SETTINGS: readonly DeviceSetting[] = ['auto', 'webgpu', 'wasm'];

const KEY = 'verity.model-settings';

function defaults(): ModelSettings {
  const choices = {} as Record<Role, ModelChoice>;
  for (const role of ROLES) {
    const e = defaultFor(role);
    choices[role] = { id: e.id, revision: e.revision };
  }
  return { source: { kind: 'hub' }, choices, skipCanary: false, device: 'auto' };
}

function load(): ModelSettings {
  const d = defaults();
  try {
    const raw = globalThis.localStorage?.getItem(KEY);
    if (!raw) return d;
    const v = JSON.parse(raw) as Partial<ModelSettings>;
    return {
      source: v.source ?? d.source,
      choices: { ...d.choices, ...(v.choices ?? {}) },
      skipCanary: v.skipCanary === true,
      device: DEVICE_SETTINGS.includes(v.device as DeviceSetting) ? v.device! : 'auto',
    };
  } catch {
    return d;
  }
}

export const modelSettings: ModelSettings = $state(load());

export function saveModelSettings(): void {
  try {
    globalThis.localStorage?.setItem(KEY, JSON.stringify(modelSettings));
  } catch {
    /* storage unavailable: the choice lasts for this visit */
  }
}

export function resetModelSettings(): void {
  Object.assign(modelSettings, defaults());
  saveModelSettings();
}

/** The load spec for a role: the registry entry (canary, dtypes, file sizes) when the choice is one, else a bare spec. */
export function specFor(role: Role, s: ModelSettings = modelSettings): ModelSpec {
  const c = s.choices[role];
  const source = $state.snapshot(s.source) as ModelSource;
  const entry = entryFor(role, s);
  const extra = loadOptions(s);
  if (entry) return { ...specFromEntry(entry), source, ...extra };
  return { role, id: c.id, revision: c.revision || 'main', source, ...extra };
}

/** What every load takes from the settings: the check skipped on request, a forced device. */
export function loadOptions(s: ModelSettings = modelSettings): Pick<ModelSpec, 'skipCanary' | 'device'> {
  return { ...(s.skipCanary ? { skipCanary: true } : {}), ...(s.device !== 'auto' ? { device: s.device } : {}) };
}

/** The registry entry behind a role's choice, if any (download size, memory need). */
export function entryFor(role: Role, s: ModelSettings = modelSettings): RegistryEntry | undefined {
  const c = s.choices[role];
  return lookup(c.id, { role, revision: c.revision });
}
