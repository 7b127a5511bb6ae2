/**
 * What the model worker answers (workers/model-host.worker.ts implements it, over comlink; the page and the
 * scoring worker call it). Everything is plain data: a failure comes back as a HostResult, never as an Error.
 */
import type { NliDistribution, NliPair, StatementItem, TokenEmbeddings } from '../core/capabilities.ts';
import type { CachedModel } from './idb-cache.ts';
import type { HostResult, LoadedModel, LoadProgress, ModelSpec, ProbeInfo, Role } from './messages.ts';

export interface ImportedFile {
  /** Path inside the model folder (`config.json`, `onnx/model.onnx`), or with the folder's name in front. */
  path: string;
  bytes: Uint8Array | ArrayBuffer;
}

export interface ImportReport {
  id: string;
  revision: string;
  files: string[];
  bytes: number;
  /** Files left out (hidden files, rejected files) and why. */
  skipped: string[];
}

export interface ModelHostApi {
  probe(): Promise<ProbeInfo>;
  /** Answers while the worker is alive (the page's watchdog during model runs). */
  ping(): true;
  /** Serves this API on another port too: the scoring worker talks to the same loaded models directly. */
  connect(port: MessagePort): void;
  /** WASM threads for sessions created from now on (call it before the first load); returns the value in effect. */
  setWasmThreads(n: number): number;
  /** Rows per model call from now on (the benchmark's batch-size sweep); returns the value in effect. */
  setBatchSize(n: number): number;
  /** Token positions the pair models computed since the last call, real and with padding. */
  takeTokenStats(): { real: number; padded: number; batches: number };
  /** Loads a model for its role; cache warnings (quota, files not stored) are added to the load's warnings. */
  load(spec: ModelSpec, onProgress?: (p: LoadProgress) => void): Promise<HostResult<LoadedModel>>;
  loaded(): Partial<Record<Role, LoadedModel>>;
  dispose(role: Role): Promise<void>;
  nli(pairs: NliPair[]): Promise<HostResult<NliDistribution[]>>;
  rerank(query: string, docs: string[]): Promise<HostResult<number[]>>;
  embed(texts: string[]): Promise<HostResult<Float32Array[]>>;
  embedTokens(texts: string[]): Promise<HostResult<TokenEmbeddings[]>>;
  writeStatements(items: StatementItem[]): Promise<HostResult<string[]>>;
  listCache(): Promise<HostResult<CachedModel[]>>;
  deleteModel(id: string): Promise<HostResult<number>>;
  clearCache(): Promise<HostResult<void>>;
  /** Warnings the cache recorded outside a load (e.g. during an import). */
  cacheWarnings(): string[];
  /** Stores a local model folder in the cache, so loading it (source `{ kind: 'local' }`) needs no network. */
  importFiles(id: string, files: ImportedFile[], revision?: string): Promise<HostResult<ImportReport>>;
  /** The self-hosted ONNX Runtime files (for diagnostics). */
  runtimeFiles(): { mjs: string; wasm: string };
}
