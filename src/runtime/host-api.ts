/**
 * What the model worker answers (runtime/browser-host.ts implements it, exposed over comlink as it is; the page
 * and the scoring worker call it). Everything is plain data: a failure comes back as a Result with a HostError, never as an Error.
 */
import type { Capability, CapabilityMap, NliDistribution, NliPair, StatementItem, TokenEmbeddings } from '../core/capabilities.ts';
import type { CachedModel } from './idb-cache.ts';
import type { Result } from '../core/errors.ts';
import type { HostError, LoadedModel, LoadProgress, ModelSpec, ProbeInfo, Role } from './messages.ts';

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

/** The methods of a capability a host answers: its core interface's function members (`classify` of `nli`). */
export type CallName<C extends Capability> = {
  [M in keyof CapabilityMap[C]]-?: NonNullable<CapabilityMap[C][M]> extends (...args: never[]) => unknown ? M : never;
}[keyof CapabilityMap[C]] &
  string;

/** A capability's method as a plain function type. */
export type CallOf<C extends Capability, M extends CallName<C>> =
  NonNullable<CapabilityMap[C][M]> extends (...args: infer A) => infer R ? (...args: A) => R : never;

/**
 * Loading a model and running it: what the metrics' capabilities need (runtime/context.ts). The in-process
 * ModelHost (Node) implements it; the model worker answers it with the rest of ModelHostApi.
 */
export interface ModelCalls {
  /** Loads a model for its role; cache warnings (quota, files not stored) are added to the load's warnings. */
  load(spec: ModelSpec, onProgress?: (p: LoadProgress) => void): Promise<Result<LoadedModel, HostError>>;
  /**
   * Runs a method of a capability (core/capabilities.ts CapabilityMap) on the loaded model of its role, e.g.
   * `call('nli', 'classify', [pairs])`: the value the core interface's method returns, or the host's error. Untyped
   * here because it crosses comlink; runtime/context.ts gives the metrics the core interfaces.
   */
  call(capability: Capability, method: string, args: unknown[]): Promise<Result<unknown, HostError>>;
}

export interface ModelHostApi extends ModelCalls {
  /** The capabilities' calls by name, for the page's NLI check and diagnostics (each is `call` with its method). */
  nli(pairs: NliPair[]): Promise<Result<NliDistribution[], HostError>>;
  rerank(query: string, docs: string[]): Promise<Result<number[], HostError>>;
  embed(texts: string[]): Promise<Result<Float32Array[], HostError>>;
  embedTokens(texts: string[]): Promise<Result<TokenEmbeddings[], HostError>>;
  writeStatements(items: StatementItem[]): Promise<Result<string[], HostError>>;
  probe(): Promise<ProbeInfo>;
  /** Answers while the worker is alive (the page's watchdog during model runs). */
  ping(): Result<true>;
  /** Serves this API on another port too: the scoring worker talks to the same loaded models directly. */
  connect(port: MessagePort): void;
  /** WASM threads for sessions created from now on (call it before the first load); returns the value in effect. */
  setWasmThreads(n: number): number;
  /** Rows per model call from now on (the benchmark's batch-size sweep); returns the value in effect. */
  setBatchSize(n: number): number;
  /** Token positions the pair models computed since the last call, real and with padding. */
  takeTokenStats(): { real: number; padded: number; batches: number };
  loaded(): Partial<Record<Role, LoadedModel>>;
  dispose(role: Role): Promise<void>;
  listCache(): Promise<Result<CachedModel[], HostError>>;
  deleteModel(id: string): Promise<Result<number, HostError>>;
  clearCache(): Promise<Result<void, HostError>>;
  /** Warnings the cache recorded outside a load (e.g. during an import). */
  cacheWarnings(): string[];
  /** Stores a local model folder in the cache, so loading it (source `{ kind: 'local' }`) needs no network. */
  importFiles(id: string, files: ImportedFile[], revision?: string): Promise<Result<ImportReport, HostError>>;
  /** The self-hosted ONNX Runtime files (for diagnostics). */
  runtimeFiles(): { mjs: string; wasm: string };
}
