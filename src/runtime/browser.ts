/**
 * The model host in the browser (inside the model Web Worker): transformers.js on onnxruntime-web, WebGPU when
 * the worker gets an adapter, else WASM. This module is the ONE place that configures transformers.js in the
 * browser; importing it anywhere else is a mistake (it changes global settings).
 *
 * - onnxruntime-web is self-hosted: transformers.js 4.3 imports `onnxruntime-web/webgpu`, whose one build serves
 *   both the WebGPU and the WASM execution providers and loads `ort-wasm-simd-threaded.asyncify.{mjs,wasm}`
 *   (the JSEP, JSPI and plain builds are not used by it). Both files are emitted by Vite (`?url`) and served by
 *   the app, so no CDN request happens (transformers.js would otherwise point at jsdelivr).
 * - Model files come from the hub, a mirror with the hub's URL layout, or a folder the user imported ("local"),
 *   and are cached in IndexedDB by ModelCache (idb-cache.ts), the only cache owner.
 * - Failures are explained: a blocked or unreachable host, HTML instead of a model, a truncated download,
 *   invalid JSON, a file that was not imported.
 */
import { env } from '@huggingface/transformers';
import ortMjsUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.mjs?url';
import ortWasmUrl from 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm?url';
import type { RuntimeAdapter } from './host.ts';
import { idbStore, ModelCache, ORIGINAL_LENGTH_HEADER, type KeyValueStore } from './idb-cache.ts';
import type { StoredChoice } from './device-choice.ts';
import { downloadCap, fileUrl, redirectAllowed, slowPattern, TOKENIZER_PROBES, tokenizerPatterns, type DownloadLimits } from './specs.ts';
import { hostError, type HostError, type ModelSpec, type ProbeInfo } from './messages.ts';
import { messageOf } from '../core/errors.ts';
import { LIMITS } from '../core/limits.ts';

export const HUB = 'https://huggingface.co/';
/**
 * Host of files imported from a local folder. Never contacted: a lookup that misses the cache is answered
 * with 404 by the fetch wrapper. (`.invalid` is reserved and never resolves.)
 */
export const LOCAL_HOST = 'https://local-import.invalid/';
/** The ONNX Runtime files this app serves itself (absolute URLs). */
export const ORT_FILES = { mjs: ortMjsUrl, wasm: ortWasmUrl } as const;

const withSlash = (u: string) => (u.endsWith('/') ? u : `${u}/`);
const absolute = (u: string) => new URL(u, globalThis.location?.href).href;

export function hostOf(spec: ModelSpec, hub = HUB): string {
  switch (spec.source.kind) {
    case 'hub':
      return withSlash(hub);
    case 'mirror':
      return withSlash(spec.source.url);
    case 'local':
      return LOCAL_HOST;
  }
}

// ---------- WebGPU probing (minimal types: the DOM lib has none) ----------

interface GpuAdapterInfo {
  vendor?: string;
  architecture?: string;
  description?: string;
  isFallbackAdapter?: boolean;
}
interface GpuAdapter {
  info?: GpuAdapterInfo;
  isFallbackAdapter?: boolean;
  features: { has(name: string): boolean };
}
interface Gpu {
  requestAdapter(options?: { powerPreference?: string }): Promise<GpuAdapter | null>;
}

export async function probeWebGpu(): Promise<Pick<ProbeInfo, 'webgpu' | 'webgpuReason'>> {
  const gpu = (navigator as Navigator & { gpu?: Gpu }).gpu;
  if (!gpu)
    return {
      webgpu: null,
      webgpuReason:
        globalThis.isSecureContext === false
          ? 'WebGPU needs a secure context (https or localhost)'
          : 'this browser has no WebGPU (navigator.gpu is missing in the worker)',
    };
  try {
    const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
    if (!adapter)
      return {
        webgpu: null,
        webgpuReason:
          'WebGPU exists but no adapter is available (GPU blocklisted or disabled, hardware acceleration off, or a headless browser without --enable-unsafe-webgpu)',
      };
    const info = adapter.info ?? {};
    return {
      webgpu: {
        vendor: info.vendor ?? '',
        architecture: info.architecture ?? '',
        description: info.description ?? '',
        isFallbackAdapter: info.isFallbackAdapter ?? adapter.isFallbackAdapter ?? false,
        shaderF16: adapter.features.has('shader-f16'),
      },
    };
  } catch (e) {
    return { webgpu: null, webgpuReason: `requesting a WebGPU adapter failed: ${messageOf(e)}` };
  }
}

// ---------- transformers.js configuration ----------

export interface BrowserRuntimeOptions {
  /** Default hub (https://huggingface.co/). */
  hub?: string;
  cache?: ModelCache;
  /** Where device choices are remembered (default: IndexedDB 'verity-device-choice'). */
  choices?: KeyValueStore<StoredChoice>;
  /** Longest a tokenizer.json pattern may take on the probe texts (default 2 s). */
  tokenizerProbeMs?: number;
}

/**
 * The bound on tokenizer pre-processing time, as in the CLI: each regex pattern of the model's tokenizer.json (read
 * back from the cache) runs on probe texts in a worker of its own, which is terminated after `ms`; a pattern that
 * needs longer would hang scoring, so the model is refused. Tokenizers without patterns start no worker.
 */
async function checkTokenizer(spec: ModelSpec, cache: ModelCache, hub: string, ms: number): Promise<HostError | null> {
  let patterns: string[];
  try {
    const res = await cache.match(fileUrl(hostOf(spec, hub), spec.id, spec.revision, 'tokenizer.json'));
    patterns = res ? tokenizerPatterns(JSON.parse(await res.text())) : [];
  } catch {
    return null; // nothing of ours to read: transformers.js already parsed what it used
  }
  if (!patterns.length) return null;
  const worker = new Worker(new URL('../../workers/regex-probe.worker.ts', import.meta.url), { type: 'module', name: 'regex-probe' });
  const next = (timeout: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), timeout);
      worker.onmessage = () => (clearTimeout(timer), resolve(true));
      worker.onerror = () => (clearTimeout(timer), resolve(true)); // a probe that cannot run is no hang
    });
  try {
    if (!(await next(10_000))) return null; // the probe worker did not start: no verdict
    for (const pattern of patterns) {
      const done = next(ms);
      worker.postMessage({ pattern, probes: TOKENIZER_PROBES });
      if (!(await done)) return slowPattern(spec, pattern, ms);
    }
    return null;
  } finally {
    worker.terminate();
  }
}

/** Threads for the WASM backend: needs SharedArrayBuffer, i.e. a cross-origin isolated page. */
export function wasmThreads(): number {
  if (!globalThis.crossOriginIsolated) return 1;
  return Math.max(1, Math.min(8, navigator.hardwareConcurrency || 1));
}

/** Bounds on every model download in the browser (the same defaults as the CLI's, with a 2 GiB cap: WASM's heap is 4 GiB). */
export const BROWSER_LIMITS: Readonly<DownloadLimits> = {
  connectTimeoutMs: LIMITS.downloadConnectMs,
  idleTimeoutMs: LIMITS.downloadIdleMs,
  maxFileBytes: LIMITS.modelFileBytes.app,
};
/** A body read here (see spool) is gathered into a Blob in pieces of this size, so it need not stay in the worker's memory. */
const SPOOL_PIECE = 16 * 1024 ** 2;

/** reader.read(), or a rejection after `ms` without data. */
async function readWithin<T>(reader: ReadableStreamDefaultReader<T>, ms: number): Promise<ReadableStreamReadResult<T>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const idle = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no data for ${ms / 1000} s`)), ms)));
  try {
    return await Promise.race([reader.read(), idle]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * fetch for transformers.js: answers local-import lookups that missed the cache with 404, asks for the pinned
 * revision where transformers.js asks for `main`, records failed downloads, and watches the body of every model
 * file: a connection closed early is a truncated download; a host that sends no headers within the connect
 * timeout or no bytes within the idle timeout is abandoned; a body over the cap (the registry size, else
 * maxFileBytes, or maxJsonBytes for JSON) is stopped; a redirect the page followed to a host other than the
 * chosen one (the hub may only send files to its own *.huggingface.co / *.hf.co hosts) is refused before its
 * bytes are used.
 *
 * transformers.js grows its buffer by every chunk of a body whose length it does not know, copying all it holds
 * each time (quadratic: an endless body crawled for many minutes and gigabytes before reaching the cap). So a
 * body without a Content-Length is read here first, into a Blob with a running count, and handed on with its
 * length; and bytes beyond an announced length (a compressed body, or a host that lies) are passed on in
 * pieces that double, so each byte is copied a bounded number of times.
 */
export function modelFetch(
  cache: ModelCache,
  base: typeof fetch,
  limits: DownloadLimits = BROWSER_LIMITS,
): (input: string | URL, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    const url = cache.resolve(typeof input === 'string' ? input : input.href);
    const model = cache.describe(url);
    if (url.startsWith(LOCAL_HOST)) {
      if (model) cache.reject(url, 'missing', `${model.file} was not imported`);
      return new Response(`${model?.file ?? url} was not imported`, { status: 404, statusText: 'Not imported' });
    }
    const ctl = new AbortController();
    init?.signal?.addEventListener('abort', () => ctl.abort(init.signal!.reason));
    const connect = setTimeout(() => ctl.abort(new Error(`no answer within ${limits.connectTimeoutMs / 1000} s`)), limits.connectTimeoutMs);
    let res: Response;
    try {
      res = await base(url, { ...init, signal: ctl.signal });
    } catch (e) {
      const why = ctl.signal.aborted && ctl.signal.reason instanceof Error ? ctl.signal.reason.message : messageOf(e);
      if (model) cache.reject(url, 'fetch-failed', `could not download ${model.file} from ${url} (${why})`);
      throw e;
    } finally {
      clearTimeout(connect);
    }
    const host = cache.host();
    if (model && res.redirected && host && res.url && !redirectAllowed(host, new URL(res.url))) {
      const message = `${model.file}: ${url} was redirected to ${new URL(res.url).origin}, which is not ${host}; model files come only from the chosen host (and, for the hub, its own file hosts *.huggingface.co and *.hf.co)`;
      cache.reject(url, 'redirect', message);
      await res.body?.cancel().catch(() => undefined);
      throw new Error(message);
    }
    if (model && res.status === 404) cache.reject(url, 'missing', `${model.file} was not found at ${url} (404)`);
    const declared = Number(res.headers.get('content-length') ?? NaN);
    // Size probes (Range: bytes=0-0) are read for their headers only.
    const ranged = new Headers(init?.headers).has('range');
    if (!model || ranged || res.status !== 200 || !res.body) return res;
    const cap = downloadCap(model.file, cache.listedSize(url), limits);
    const tooLarge = (n: number) =>
      `${model.file} from ${url} is larger than the ${cap.bytes} bytes allowed${cap.source} (${n} bytes${n === declared ? ' announced' : ' received'})`;
    if (declared > cap.bytes) {
      cache.reject(url, 'too-large', tooLarge(declared));
      await res.body.cancel().catch(() => undefined);
      throw new Error(tooLarge(declared));
    }
    const reader = res.body.getReader();
    let received = 0;
    /** Records why the body failed (unless the cap already did) and stops reading it. */
    const failed = (e: unknown) => {
      void reader.cancel().catch(() => undefined);
      if (cache.rejectionFor(url)?.reason === 'too-large') return;
      if (declared > 0)
        cache.reject(
          url,
          'truncated',
          `${model.file} from ${url} is truncated: received ${received} of ${declared} bytes (${messageOf(e)})`,
        );
      else cache.reject(url, 'fetch-failed', `could not download ${model.file} from ${url} (${messageOf(e)} after ${received} bytes)`);
    };
    const count = (n: number) => {
      received += n;
      if (received > cap.bytes) {
        cache.reject(url, 'too-large', tooLarge(received));
        throw new Error(tooLarge(received));
      }
    };
    const headers = new Headers(res.headers);
    if (!(declared > 0)) {
      // No length: read the whole body here (see above), then hand it on with its length.
      let blob = new Blob([]);
      let pieces: Uint8Array<ArrayBuffer>[] = [];
      let pending = 0;
      try {
        for (;;) {
          const { done, value } = await readWithin(reader, limits.idleTimeoutMs);
          if (done) break;
          count(value.byteLength);
          pieces.push(value as Uint8Array<ArrayBuffer>);
          pending += value.byteLength;
          if (pending >= SPOOL_PIECE) {
            blob = new Blob([blob, ...pieces]);
            pieces = [];
            pending = 0;
          }
        }
      } catch (e) {
        failed(e);
        throw e;
      }
      blob = new Blob([blob, ...pieces]);
      headers.set('content-length', String(blob.size));
      return new Response(blob, { status: res.status, statusText: res.statusText, headers });
    }
    let cancelled = false;
    /** Bytes beyond the announced length, held until they are as many as were passed on (see above). */
    let over: Uint8Array[] = [];
    let overBytes = 0;
    const flush = (ctl: ReadableStreamDefaultController<Uint8Array>) => {
      if (!overBytes) return;
      const joined = new Uint8Array(overBytes);
      let at = 0;
      for (const p of over) {
        joined.set(p, at);
        at += p.byteLength;
      }
      over = [];
      overBytes = 0;
      ctl.enqueue(joined);
    };
    const body = new ReadableStream<Uint8Array>({
      async pull(ctl) {
        try {
          for (;;) {
            const { done, value } = await readWithin(reader, limits.idleTimeoutMs);
            if (cancelled) return;
            if (done) {
              if (received < declared)
                cache.reject(
                  url,
                  'truncated',
                  `${model.file} from ${url} is truncated: received ${received} of ${declared} bytes (the connection closed early)`,
                );
              flush(ctl);
              ctl.close();
              return;
            }
            count(value.byteLength);
            if (received <= declared) return ctl.enqueue(value);
            over.push(value);
            overBytes += value.byteLength;
            if (overBytes >= received - overBytes) return flush(ctl);
          }
        } catch (e) {
          if (cancelled) return;
          failed(e);
          ctl.error(e);
        }
      },
      cancel(reason) {
        cancelled = true;
        return reader.cancel(reason);
      },
    });
    headers.set(ORIGINAL_LENGTH_HEADER, String(declared));
    return new Response(body, { status: res.status, statusText: res.statusText, headers });
  };
}

let configured: ModelCache | null = null;

/** Sets transformers.js' global options for the browser, once. Returns the model cache in use. */
export function configureTransformers(cache: ModelCache = new ModelCache()): ModelCache {
  if (configured) return configured;
  env.allowLocalModels = false;
  env.allowRemoteModels = true;
  env.useBrowserCache = false;
  env.useFSCache = false;
  env.useCustomCache = true;
  env.customCache = cache;
  // ONNX Runtime's files come from this app (HTTP cache), not from the model cache.
  env.useWasmCache = false;
  const wasm = env.backends.onnx.wasm;
  if (!wasm) throw new Error('onnxruntime-web has no wasm backend settings');
  wasm.wasmPaths = { mjs: absolute(ORT_FILES.mjs), wasm: absolute(ORT_FILES.wasm) };
  wasm.numThreads = wasmThreads();
  wasm.proxy = false;
  env.fetch = modelFetch(cache, globalThis.fetch.bind(globalThis));
  configured = cache;
  return cache;
}

// ---------- the adapter ----------

let persistAsked = false;

async function storageInfo(): Promise<ProbeInfo['storage']> {
  const storage = navigator.storage;
  if (!storage?.estimate) return null;
  try {
    // persist() is window-only in most browsers; the app's page asks too.
    if (!persistAsked && typeof (storage as { persist?: () => Promise<boolean> }).persist === 'function') {
      persistAsked = true;
      await storage.persist().catch(() => false);
    }
    const [{ usage = 0, quota = 0 }, persisted] = await Promise.all([
      storage.estimate(),
      storage.persisted?.().catch(() => false) ?? false,
    ]);
    return { usage, quota, persisted };
  } catch {
    return null;
  }
}

export function browserAdapter(opts: BrowserRuntimeOptions = {}): RuntimeAdapter & { cache: ModelCache } {
  const cache = configureTransformers(opts.cache);
  const hub = withSlash(opts.hub ?? HUB);
  return {
    platform: 'browser',
    cache,
    choices: opts.choices ?? idbStore<StoredChoice>('verity-device-choice', 'choices'),
    browser: globalThis.navigator?.userAgent ?? '',
    async probe() {
      const [gpu, storage] = await Promise.all([probeWebGpu(), storageInfo()]);
      return { platform: 'browser', ...gpu, threads: wasmThreads(), crossOriginIsolated: !!globalThis.crossOriginIsolated, storage };
    },
    prepare(spec) {
      const host = hostOf(spec, hub);
      env.remoteHost = host;
      env.allowRemoteModels = true;
      cache.use(host, spec.id, spec.revision, spec.files, spec.sha256);
      return { id: spec.id, options: {} };
    },
    explain(spec, error) {
      return explainFailure(spec, error, cache, hub);
    },
    async verify(spec) {
      // transformers.js uses a download even when the cache refused to store it: a file whose hash the registry
      // pins and which does not match is refused with the model. (A size off the registry's rounded value only
      // keeps the file out of the cache: some registry sizes are approximate.)
      const wrong = cache.rejectionsFor(spec.id).find((r) => r.reason === 'hash-mismatch');
      if (wrong) return hostError('bad-response', `${wrong.message}; the model was not used`);
      return checkTokenizer(spec, cache, hub, opts.tokenizerProbeMs ?? 2000);
    },
  };
}

/** A failure during a load → a HostError that says what happened, or null to let the host classify it. */
export function explainFailure(spec: ModelSpec, error: unknown, cache: ModelCache, hub = HUB): HostError | null {
  const msg = messageOf(error);
  const rejections = cache.rejectionsFor(spec.id);
  const unusable = rejections.filter((r) => r.reason !== 'fetch-failed' && r.reason !== 'missing');
  const bad = unusable.find((r) => msg.includes(r.file)) ?? unusable.at(-1);
  if (bad) return hostError('bad-response', bad.message);
  if (/quota/i.test(msg) || (error as { name?: string } | null)?.name === 'QuotaExceededError')
    return hostError('quota', `${spec.id}: the browser's storage is full (${msg}); delete cached models or free disk space`);
  const host = hostOf(spec, hub);
  const missing = rejections.filter((r) => r.reason === 'missing').map((r) => r.file);
  if (spec.source.kind === 'local' && (missing.length || /Could not locate file|not imported|404/i.test(msg))) {
    const required = missing.filter((f) => /^(config|tokenizer|tokenizer_config)\.json$|\.onnx$/.test(f));
    const names = required.length ? required : missing.length ? missing : ['a file'];
    return hostError(
      'not-found',
      `${spec.id}@${spec.revision}: ${names.join(', ')} ${names.length > 1 ? 'were' : 'was'} not imported; import the whole model folder (config.json, tokenizer files and onnx/) first`,
    );
  }
  // A model file the host does not have (a mirror without the model): which one, where.
  const absent = rejections.filter((r) => r.reason === 'missing' && /^(config|tokenizer|tokenizer_config)\.json$|\.onnx$/.test(r.file));
  if (spec.source.kind !== 'local' && absent.length)
    return {
      ...hostError(
        'not-found',
        `${spec.id}@${spec.revision}: ${absent.map((r) => r.message).join('; ')}: is the model on ${host}? Check its name and revision, or import the model folder`,
      ),
      ...(absent.every((r) => r.file.endsWith('.onnx')) ? { missingWeights: true } : {}),
    };
  if (/Unauthorized access to file|Forbidden access to file/.test(msg))
    return hostError(
      'not-found',
      `${spec.id} is gated or private on ${host} (${msg}); the app does not sign in: use a mirror or import the model folder`,
    );
  const failed = rejections.find((r) => r.reason === 'fetch-failed');
  if (failed || /Failed to fetch|NetworkError|network error|Load failed|ERR_/i.test(msg)) {
    const where = spec.source.kind === 'mirror' ? `the mirror ${host}` : spec.source.kind === 'hub' ? `the hub ${host}` : host;
    // Only what is true of a network failure: the host, the file, what to do (nothing about storage).
    return hostError(
      'network',
      `cannot download ${spec.id} from ${where}: ${failed?.message ?? `a model file could not be fetched (${msg})`}. Check that this computer is online and can reach ${host}${spec.source.kind === 'mirror' ? ' (the mirror must allow CORS)' : ''}, choose a mirror, or import the model folder on the Models page`,
    );
  }
  return null;
}

/** The cache key of one file imported from a local folder for `id` at `revision`. */
export const localFileUrl = (id: string, revision: string, file: string): string => fileUrl(LOCAL_HOST, id, revision, file);
