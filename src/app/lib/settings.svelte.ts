/**
 * Which model serves each role, and where model files come from — chosen on the Models page, used by every
 * page that runs a model-based metric. Kept in localStorage (settings only; never data).
 */
import { REGISTRY, type Role } from '../../runtime/registry.ts';
import { specFromEntry } from '../../runtime/specs.ts';
import type { ModelSource, ModelSpec } from '../../runtime/messages.ts';

export const ROLES: readonly Role[] = ['nli', 'reranker', 'embedder', 'statements'];

export interface ModelChoice {
  id: string;
  /** A registry entry's pinned revision, or any revision/branch for a model outside the registry. */
  revision: string;
}

export interface ModelSettings {
  source: ModelSource;
  choices: Record<Role, ModelChoice>;
}

const KEY = 'verity.model-settings';

function defaults(): ModelSettings {
  const choices = {} as Record<Role, ModelChoice>;
  for (const role of ROLES) {
    const e = REGISTRY.find((x) => x.role === role && x.default)!;
    choices[role] = { id: e.id, revision: e.revision };
  }
  return { source: { kind: 'hub' }, choices };
}

function load(): ModelSettings {
  const d = defaults();
  try {
    const raw = globalThis.localStorage?.getItem(KEY);
    if (!raw) return d;
    const v = JSON.parse(raw) as Partial<ModelSettings>;
    return { source: v.source ?? d.source, choices: { ...d.choices, ...(v.choices ?? {}) } };
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
  const entry = REGISTRY.find((e) => e.role === role && e.id === c.id && (c.revision === e.revision || c.revision === 'main' || c.revision === ''));
  if (entry) return { ...specFromEntry(entry), source };
  return { role, id: c.id, revision: c.revision || 'main', source };
}

/** The registry entry behind a role's choice, if any (download size, memory need). */
export function entryFor(role: Role, s: ModelSettings = modelSettings) {
  const c = s.choices[role];
  return REGISTRY.find((e) => e.role === role && e.id === c.id && (c.revision === e.revision || c.revision === 'main' || c.revision === ''));
}
