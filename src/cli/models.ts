/** The models a command's metrics need, loaded through the Node model host, and what the output records of them. */
import { VerityError, isBatchMetric, type AnyMetric } from '../core/types.ts';
import type { ModelContext } from '../core/capabilities.ts';
import { messageOf } from '../core/errors.ts';
import { ROLE_TABLE, type Role } from '../runtime/registry.ts';
import { rolesFor } from '../runtime/roles.ts';
import type { LoadedModel, ModelSpec } from '../runtime/messages.ts';
import type { ModelRecord } from '../runtime/context.ts';
import { say } from './say.ts';
import type { CommonOptions } from './options.ts';

/**
 * The model capabilities the chosen metrics need, backed by the Node model host. Loaded lazily: rows that carry
 * their own NLI probabilities never load a model. The runtime is imported only when a model metric is used.
 */
export async function modelContext(
  metrics: AnyMetric[],
  o: CommonOptions,
): Promise<ModelContext & { provenance?: Record<string, LoadedModel> }> {
  // Statements come from the instant rule writer unless a model is asked for (and a metric writes them).
  const roles = rolesFor(
    metrics.filter(isBatchMetric).map((m) => m.name),
    { modelWriter: !!o.statementModel },
  );
  if (roles.length === 0) return {};
  const { createNodeHost, parseModelArg } = await import('../runtime/node.ts');
  const { hostContext } = await import('../runtime/context.ts');
  const given: Record<Role, string | undefined> = {
    nli: o.nliModel,
    reranker: o.rankerModel,
    embedder: o.embedderModel,
    statements: o.statementModel,
  };
  const specs: Partial<Record<Role, ModelSpec>> = {};
  for (const role of roles) {
    try {
      specs[role] = { ...parseModelArg(role, given[role], o.modelDir), ...(o.skipCanary ? { skipCanary: true } : {}) };
    } catch (e) {
      throw new VerityError(`${ROLE_TABLE[role].cliFlag}: ${messageOf(e)}`, 'usage');
    }
  }
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
