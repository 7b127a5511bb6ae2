/**
 * What to load after the model worker crashed mid-run (often out of memory): the same roles on WASM (WebGPU is
 * the likelier cause of a crash) and, when the user allowed it, the next smaller registry model of each role.
 */
import type { ModelSpec, Role } from './messages.ts';
import { REGISTRY } from './registry.ts';
import { specFromEntry } from './specs.ts';

export interface Fallback {
  specs: Partial<Record<Role, ModelSpec>>;
  /** Registry models replaced by smaller ones (labels). */
  smaller: { role: Role; from: string; to: string }[];
}

export function fallbackSpecs(specs: Partial<Record<Role, ModelSpec>>, allowSmaller: boolean): Fallback {
  const out: Partial<Record<Role, ModelSpec>> = {};
  const smaller: Fallback['smaller'] = [];
  for (const [role, spec] of Object.entries(specs) as [Role, ModelSpec][]) {
    let next: ModelSpec = spec;
    const current = REGISTRY.find((e) => e.role === role && e.id === spec.id);
    if (allowSmaller && current) {
      const below = REGISTRY.filter((e) => e.role === role && e.memoryMb < current.memoryMb).sort((a, b) => b.memoryMb - a.memoryMb)[0];
      if (below) {
        next = { ...specFromEntry(below), source: spec.source };
        smaller.push({ role, from: current.label, to: below.label });
      }
    }
    out[role] = { ...next, device: 'wasm' };
  }
  return { specs: out, smaller };
}
