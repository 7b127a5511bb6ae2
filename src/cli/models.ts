/** The models a command's run names, loaded through the Node model host, and what the output records of them. */
import type { ModelContext } from '../core/capabilities.ts';
import { ROLE_TABLE, type Role } from '../runtime/registry.ts';
import type { LoadedModel } from '../runtime/messages.ts';
import type { ModelRecord } from '../runtime/context.ts';
import { say } from './say.ts';
import type { BuiltRun, CommonOptions } from './options.ts';

/**
 * The model capabilities of a run, backed by the Node model host with the models its configuration names. Loaded
 * lazily: rows that carry their own NLI probabilities never load a model. The runtime is imported only when the run
 * has a model.
 */
export async function modelContext(run: BuiltRun, o: CommonOptions): Promise<ModelContext & { provenance?: Record<string, LoadedModel> }> {
  const specs = run.config.models;
  if (Object.keys(specs).length === 0) return {};
  const { createNodeHost } = await import('../runtime/node.ts');
  const { hostContext } = await import('../runtime/context.ts');
  const host = createNodeHost({ ...(o.modelCache ? { cacheDir: o.modelCache } : {}), ...(o.mirror ? { mirror: o.mirror } : {}) });
  return hostContext(host, specs, {
    onLoaded: (info) =>
      say(
        `${info.role} model ${info.id}@${info.revision} on ${info.device}/${info.dtype} (canary: ${info.canary.detail})${info.warnings.length ? `; ${info.warnings.join('; ')}` : ''}`,
      ),
    // Said once, not only inside every row; the run ends with exit 2 (a requested metric had no model).
    onFailed: (role, message) => {
      failedModels.add(role);
      say(`the ${ROLE_TABLE[role].name} model did not load: ${message}; the metrics that need it are not scored`);
    },
  });
}

/** Roles whose model failed to load in this run: the command then exits 2. */
export const failedModels = new Set<Role>();

/** The models a row was scored with (id, revision, device, dtype, canary passed or skipped), for the output. */
export async function usedModels(ctx: { provenance?: Record<string, LoadedModel> }): Promise<Record<string, ModelRecord> | undefined> {
  if (!ctx.provenance) return undefined;
  const { modelRecords } = await import('../runtime/context.ts');
  return modelRecords(ctx.provenance);
}
