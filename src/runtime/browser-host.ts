/**
 * The model host of the model worker: the ModelHost on the browser's runtime, with its model cache, imported
 * folders and the worker's own calls — all of ModelHostApi in one class, which the worker exposes with comlink as
 * it is. Everything returns data (a Result with a HostError): no Error subclass crosses the boundary. Progress
 * callbacks arrive as comlink proxies and are called by the host at most every 100 ms.
 *
 *   const api = wrap<ModelHostApi>(new Worker(new URL('../../workers/model-host.worker.ts', import.meta.url), { type: 'module' }));
 *   await api.load(spec, proxy((p) => …));
 */
import { expose, releaseProxy, type Remote } from 'comlink';
import { env } from '@huggingface/transformers';
import { browserAdapter, LOCAL_HOST, localFileUrl, ORT_FILES } from './browser.ts';
import { ModelHost } from './host.ts';
import { idbStore, type CachedModel, type KeyValueStore, type ModelCache } from './idb-cache.ts';
import type { StoredChoice } from './device-choice.ts';
import type { ImportedFile, ImportReport, ModelHostApi } from './host-api.ts';
import { type HostError, hostError, type LoadedModel, type LoadProgress, type ModelSpec } from './messages.ts';
import { messageOf, ok, type Result } from '../core/errors.ts';

/** Runs a cache operation; a failure (IndexedDB unavailable, …) comes back as data. */
async function attempt<T>(what: string, run: () => Promise<T>): Promise<Result<T, HostError>> {
  try {
    return { ok: true, value: await run() };
  } catch (e) {
    const quota = /quota/i.test(messageOf(e)) || (e as { name?: string } | null)?.name === 'QuotaExceededError';
    return { ok: false, error: hostError(quota ? 'quota' : 'unavailable', `${what}: ${messageOf(e)}`) };
  }
}

/** Strips the folder's own name when every path starts with it (a webkitdirectory pick gives `folder/…`). */
export function relativePaths(paths: string[]): string[] {
  const clean = paths.map((p) => p.replace(/\\/g, '/').replace(/^\.?\//, ''));
  const first = clean[0]?.split('/')[0];
  const nested = first !== undefined && clean.every((p) => p.includes('/') && p.split('/')[0] === first);
  return nested ? clean.map((p) => p.slice(first.length + 1)) : clean;
}

export class BrowserModelHost extends ModelHost implements ModelHostApi {
  private readonly cache: ModelCache;

  /** `choices`: where the device each model was measured fastest on is kept (runtime/device-choice.ts), cleared with the models. */
  constructor(private readonly choices: KeyValueStore<StoredChoice> = idbStore<StoredChoice>('verity-device-choice', 'choices')) {
    const adapter = browserAdapter({ choices });
    super(adapter);
    this.cache = adapter.cache;
  }

  /** Removes what interrupted downloads left in the cache. */
  async sweep(): Promise<void> {
    await this.cache.sweep();
  }

  /** Answers while the worker is alive (the page's watchdog during model runs). */
  ping(): Result<true> {
    return ok(true);
  }

  /** Serves this host on another port too: the scoring worker talks to the same loaded models directly. */
  connect(port: MessagePort): void {
    expose(this, port);
  }

  /**
   * WASM threads for sessions created from now on (onnxruntime-web reads it when it first initializes, so
   * call it before the first load). Returns the value in effect. Used by the benchmark to compare 1 vs N.
   */
  setWasmThreads(n: number): number {
    const wasm = env.backends.onnx.wasm!;
    wasm.numThreads = Math.max(1, Math.floor(n));
    return wasm.numThreads;
  }

  /** Loads a model for its role; cache warnings (quota, files not stored) are added to the load's warnings. */
  override async load(spec: ModelSpec, onProgress?: (p: LoadProgress) => void): Promise<Result<LoadedModel, HostError>> {
    let r: Result<LoadedModel, HostError>;
    try {
      r = await super.load(spec, onProgress ? (p) => void Promise.resolve(onProgress(p)).catch(() => undefined) : undefined);
    } catch (e) {
      r = { ok: false, error: hostError('load-failed', `${spec.id}: ${messageOf(e)}`, { modelId: spec.id }) };
    } finally {
      // The callback is a comlink proxy: free its message port.
      (onProgress as Partial<Remote<unknown>> | undefined)?.[releaseProxy]?.();
    }
    const warnings = this.cache.takeWarnings();
    if (r.ok) for (const w of warnings) if (!r.value.warnings.includes(w)) r.value.warnings.push(w);
    return r;
  }

  listCache(): Promise<Result<CachedModel[], HostError>> {
    return attempt('listing cached models failed', () => this.cache.list());
  }

  deleteModel(id: string): Promise<Result<number, HostError>> {
    return attempt(`deleting ${id} failed`, () => this.cache.deleteModel(id));
  }

  clearCache(): Promise<Result<void, HostError>> {
    return attempt('clearing the model cache failed', async () => void (await Promise.all([this.cache.clear(), this.choices.clear()])));
  }

  /** Warnings the cache recorded outside a load (e.g. during an import). */
  cacheWarnings(): string[] {
    return this.cache.takeWarnings();
  }

  /**
   * Stores a local model folder in the cache under the keys transformers.js looks up for `id` at `revision`
   * with source `{ kind: 'local' }`, so loading it needs no network.
   */
  async importFiles(id: string, files: ImportedFile[], revision = 'local'): Promise<Result<ImportReport, HostError>> {
    if (!id.trim()) return { ok: false, error: hostError('unsupported-model', 'give the imported model an id') };
    const paths = relativePaths(files.map((f) => f.path));
    if (!paths.includes('config.json'))
      return {
        ok: false,
        error: hostError(
          'unsupported-model',
          `${id}: the folder has no config.json at its top level (found: ${paths.slice(0, 8).join(', ')}${paths.length > 8 ? ', …' : ''})`,
          { modelId: id },
        ),
      };
    const report: ImportReport = { id, revision, files: [], bytes: 0, skipped: [] };
    this.cache.register(LOCAL_HOST, id);
    const stored = await attempt(`importing ${id} failed`, async () => {
      for (let i = 0; i < files.length; i++) {
        const path = paths[i]!;
        if (path.split('/').some((s) => s.startsWith('.'))) {
          report.skipped.push(`${path}: hidden file`);
          continue;
        }
        const raw = files[i]!.bytes;
        const bytes = raw instanceof Uint8Array ? raw : new Uint8Array(raw);
        const rejected = await this.cache.storeFile(
          localFileUrl(id, revision, path),
          bytes,
          path.endsWith('.json') ? 'application/json' : 'application/octet-stream',
        );
        if (rejected) report.skipped.push(`${path}: ${rejected.message.replace(` from ${localFileUrl(id, revision, path)}`, '')}`);
        else {
          report.files.push(path);
          report.bytes += bytes.length;
        }
      }
      return report;
    });
    const warnings = this.cache.takeWarnings();
    if (stored.ok && warnings.length) report.skipped.push(...warnings);
    return stored;
  }

  /** The self-hosted ONNX Runtime files (for diagnostics). */
  runtimeFiles(): { mjs: string; wasm: string } {
    return { ...ORT_FILES };
  }
}
