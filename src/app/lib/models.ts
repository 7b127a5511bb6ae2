/**
 * Running model-based metrics from a page: which models a set of metrics needs, how much each download is,
 * whether it is already cached, and loading them (with progress) into the ModelContext the core scores with.
 * Shared by the Playground and the Learn page; pure helpers are kept free of runes so Node tests can use them.
 */
import { proxy, type Remote } from 'comlink';
import type { ModelHostApi } from '../../runtime/host-api.ts';
import type { ModelContext } from '../../core/capabilities.ts';
import { createMetric, MODEL_METRICS } from '../../core/metrics/index.ts';
import { isBatchMetric, type BatchMetric } from '../../core/types.ts';
import type { WordNet } from '../../core/lexicon/index.ts';
import { hostContext } from '../../runtime/context.ts';
import type { CachedModel } from '../../runtime/idb-cache.ts';
import type { HostError, HostErrorCode, LoadProgress, ModelSource, ModelSpec } from '../../runtime/messages.ts';
import { messageOf } from '../../core/errors.ts';
import { CAPABILITY_ROLE, DTYPE_SUFFIX, ROLE_TABLE, ROLES, type Device, type RegistryEntry, type Role } from '../../runtime/registry.ts';
import type { RoleOptions } from '../../runtime/roles.ts';

/** Each role's name in sentences (from the registry's role table). */
export const ROLE_NAMES: Readonly<Record<Role, string>> = Object.fromEntries(ROLES.map((r) => [r, ROLE_TABLE[r].name])) as Record<
  Role,
  string
>;

/**
 * Every model-based metric with its default settings, built with `lexicon` (WordNet, for those that read it). A page
 * lists them (names, cards, needs) before WordNet has loaded with null, and scores with them built again once it
 * has (`withLexicon`).
 */
export function modelMetrics(names: readonly string[] = MODEL_METRICS, lexicon: WordNet | null = null): BatchMetric[] {
  return names.map((n) => createMetric(n, {}, { lexicon })).filter(isBatchMetric);
}

/** The same metrics, built with this lexicon (for scoring). */
export const withLexicon = (metrics: readonly BatchMetric[], lexicon: WordNet | null): BatchMetric[] =>
  modelMetrics(
    metrics.map((m) => m.name),
    lexicon,
  );

/** What a metric needs, in words (its checkbox and its "not scored yet" line say it). */
export function needText(metric: Pick<BatchMetric, 'needs'>, opts: RoleOptions = {}): string {
  return metric.needs
    .map((c) =>
      c === 'writer'
        ? opts.modelWriter
          ? 'statement writer model'
          : 'built-in rule statement writer'
        : `${ROLE_NAMES[CAPABILITY_ROLE[c]]} model`,
    )
    .join(' + ');
}

const SUFFIXES = /(_fp16|_quantized|_q4f16|_q4)$/;

/**
 * Bytes a load fetches on a device: the config and tokenizer files plus the ONNX weights of the device's first
 * dtype. (The registry's `files` lists every dtype's weights; summing them all would overstate it several times.)
 */
export function downloadBytes(entry: Pick<RegistryEntry, 'files' | 'dtypes'>, device: Device = 'wasm'): number {
  const dtype = entry.dtypes[device]?.[0] ?? entry.dtypes.wasm[0] ?? 'fp32';
  let total = 0;
  for (const [file, bytes] of Object.entries(entry.files)) {
    const onnx = /^onnx\/(.+)\.onnx$/.exec(file);
    if (!onnx) total += bytes;
    else if ((SUFFIXES.exec(onnx[1]!)?.[1] ?? '') === DTYPE_SUFFIX[dtype]) total += bytes;
  }
  return total;
}

export function formatBytes(n: number): string {
  return n >= 1e9 ? `${(n / 1e9).toFixed(2)} GB` : n >= 1e7 ? `${Math.round(n / 1e6)} MB` : `${(n / 1e6).toFixed(1)} MB`;
}

/** A model file of this id and revision is in the browser's cache (then loading it needs no download). */
export function isCached(spec: Pick<ModelSpec, 'id' | 'revision'>, cached: readonly CachedModel[]): boolean {
  return cached.some((m) => m.id === spec.id && m.files.some((f) => f.revision === spec.revision && f.file.endsWith('.onnx')));
}

export interface ModelNeed {
  role: Role;
  id: string;
  /** The registry label, or the id for a model outside the registry. */
  label: string;
  /** Download size on the device, when the registry knows it. */
  bytes: number | null;
  cached: boolean;
}

/** What loading these roles involves: one line per model. */
export function describeNeeds(
  roles: readonly Role[],
  lookup: (role: Role) => { spec: ModelSpec; entry: RegistryEntry | undefined },
  device: Device = 'wasm',
  cached: readonly CachedModel[] = [],
): ModelNeed[] {
  return roles.map((role) => {
    const { spec, entry } = lookup(role);
    return {
      role,
      id: spec.id,
      label: entry?.label ?? spec.id,
      bytes: entry ? downloadBytes(entry, device) : null,
      cached: isCached(spec, cached),
    };
  });
}

/** Total download of the models not cached yet; null when some size is unknown. */
export function totalDownload(needs: readonly ModelNeed[]): number | null {
  let total = 0;
  for (const n of needs) {
    if (n.cached) continue;
    if (n.bytes === null) return null;
    total += n.bytes;
  }
  return total;
}

/** Where files come from, for the question asked before a download. */
export function sourceText(source: ModelSource): string {
  if (source.kind === 'mirror') return `from your mirror (${source.url})`;
  if (source.kind === 'local') return 'from the model folders imported on the Models page (no network)';
  return 'from huggingface.co';
}

const ADVICE: Readonly<Record<HostErrorCode, string>> = {
  'unsupported-model': 'This model cannot run in the browser: choose a listed model on the Models page.',
  'not-found': 'Check the model id and revision on the Models page (or that your mirror has the files).',
  'bad-response':
    'The server sent something that is not a model file (a login or proxy page): try again later, or use a mirror on the Models page.',
  'load-failed': 'Check your connection and try again; on a blocked network, use a mirror or import the model folder on the Models page.',
  'inference-failed': 'The model loaded but failed to run: try again, or choose a smaller model on the Models page.',
  'canary-failed':
    'The model gave wrong answers to a known check on this device, so it is not used: choose another model on the Models page.',
  'not-loaded': 'Load the models again.',
  quota: "The browser's storage is full: delete cached models on the Models page or free disk space, then try again.",
  'invalid-spec': 'Check the model id, revision and folder on the Models page.',
  // The message of a network failure already names the host, the file and what to do.
  network: '',
  unavailable:
    'The model worker or its storage is unavailable (a private window may block storage): reload the page, or try another browser.',
};

/** What to do about a failed load. */
export const adviceFor = (code: HostErrorCode): string => ADVICE[code];

/** One sentence per failure: what happened, then what to do. */
export function explainLoadError(role: Role, error: Pick<HostError, 'code' | 'message'>): string {
  const advice = adviceFor(error.code);
  return `The ${ROLE_NAMES[role]} model did not load: ${error.message}.${advice ? ` ${advice}` : ''}`;
}

/** Progress of one role's load, in bytes of the whole model. */
export interface RoleProgress {
  loaded: number;
  total: number;
}

export interface LoadedModels {
  /** Capabilities for the roles that loaded (the others are left out, so their metrics say they are unavailable). */
  ctx: ModelContext;
  failures: { role: Role; message: string }[];
}

/**
 * Loads each role's model now (not lazily on first use, as hostContext alone would), so progress and load
 * errors are shown before scoring starts rather than as one failed result per row.
 */
export async function loadModels(
  api: Remote<ModelHostApi>,
  specs: Partial<Record<Role, ModelSpec>>,
  onProgress: (role: Role, p: RoleProgress) => void,
): Promise<LoadedModels> {
  const ok: Partial<Record<Role, ModelSpec>> = {};
  const failures: LoadedModels['failures'] = [];
  for (const role of ROLES) {
    const spec = specs[role];
    if (!spec) continue;
    let error: Pick<HostError, 'code' | 'message'> | null = null;
    try {
      const r = await api.load(
        spec,
        proxy((p: LoadProgress) => {
          if (p.total > 0) onProgress(role, { loaded: p.loaded, total: p.total });
        }),
      );
      if (r.ok) ok[role] = spec;
      else error = r.error;
    } catch (e) {
      // The worker itself failed (crashed, or could not start).
      error = { code: 'unavailable', message: messageOf(e) };
    }
    if (error) failures.push({ role, message: explainLoadError(role, error) });
  }
  return { ctx: hostContext(api, ok), failures };
}
