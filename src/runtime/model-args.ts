/**
 * A model named on the command line (--nli-model and the other role flags, --model-dir) as the spec the model host
 * loads: a registry key, a hub id (owner/name@revision) or a local folder. Light (no model runtime), so the CLI
 * compiles a run's models with its other flags.
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ModelSpec, Role } from './messages.ts';
import { defaultFor, lookup, REGISTRY, ROLE_TABLE } from './registry.ts';
import { invalidRef, specFromEntry } from './specs.ts';
import { VerityError } from '../core/types.ts';

/**
 * A CLI model argument → spec: an existing folder (local model), a registry key (e.g. nli-small), or a hub
 * id with an optional `@revision` (an id without a pinned revision uses `main`). With `modelDir`, a missing
 * argument picks the role's registry default from `modelDir/<hub id>` when that folder exists, and a relative
 * argument is also looked up inside `modelDir`.
 */
export function parseModelArg(role: Role, arg: string | undefined, modelDir?: string): ModelSpec {
  // A --model-dir that does not exist (a typo) must not turn into a silent download.
  if (modelDir !== undefined && !(existsSync(modelDir) && statSync(modelDir).isDirectory()))
    throw new VerityError(`--model-dir ${modelDir} is not a folder`, 'usage', 'bad-option');
  if (arg === undefined) {
    const entry = defaultFor(role);
    // --model-dir: offline copies of the registry models, one folder per hub id (DIR/Xenova/nli-deberta-v3-xsmall).
    const copy = modelDir ? join(resolve(modelDir), entry.id) : undefined;
    if (copy && !existsSync(copy))
      throw new VerityError(
        `--model-dir ${modelDir} has no ${entry.id} folder for the ${ROLE_TABLE[role].name} model (the registry default); copy the model there or pass ${ROLE_TABLE[role].cliFlag}`,
        'usage',
        'bad-option',
      );
    if (copy)
      return {
        ...specFromEntry(entry),
        id: copy,
        revision: 'local',
        source: { kind: 'local', path: copy },
        dtypes: { cpu: entry.dtypes.cpu },
      };
    return specFromEntry(entry);
  }
  if (modelDir && !existsSync(arg) && existsSync(join(resolve(modelDir), arg))) return parseModelArg(role, join(resolve(modelDir), arg));
  if (existsSync(arg) && statSync(arg).isDirectory()) {
    const dir = resolve(arg);
    return { role, id: dir, revision: 'local', source: { kind: 'local', path: dir }, dtypes: { cpu: ['fp32'] } };
  }
  const [id, revision] = arg.split('@') as [string, string | undefined];
  if (revision !== undefined) {
    const invalid = invalidRef({ id, revision, source: { kind: 'hub' } });
    if (invalid) throw new VerityError(invalid, 'usage', 'bad-option');
  }
  const entry = lookup(id, { role });
  if (entry && revision === undefined) return specFromEntry(entry);
  if (!entry && !/^[\w.-]+\/[\w.-]+$/.test(id))
    throw new VerityError(
      `"${arg}" is neither a folder, a registry key (${REGISTRY.filter((e) => e.role === role)
        .map((e) => e.key)
        .join(', ')}) nor a hub id like owner/name@revision`,
      'usage',
      'bad-option',
    );
  // "../evil" has the owner/name shape: refused here, as a usage error, not later as a model that failed to load.
  const invalid = entry ? null : invalidRef({ id, revision: revision ?? 'main', source: { kind: 'hub' } });
  if (invalid) throw new VerityError(invalid, 'usage', 'bad-option');
  // A registry key with a revision (nli-small@<sha>) names the entry's hub id at that revision.
  return {
    ...(entry ? specFromEntry(entry) : { role, source: { kind: 'hub' as const } }),
    id: entry?.id ?? id,
    revision: revision ?? 'main',
  };
}
