/**
 * The typed messages between the app and the model host (a Web Worker in the browser, in-process in Node):
 * requests, results and errors as plain data that survives structured cloning (web-llm's message.ts idea).
 */
import { VerityError, type VerityErrorCode } from '../core/types.ts';
import type { DeviceChoice } from './device-choice.ts';
import type { Device, Dtype, Role } from './registry.ts';

export type { Device, Dtype, Role };

/** Where a model's files come from. */
export type ModelSource =
  | { kind: 'hub' }
  /** A mirror with the hub's URL layout: `${url}/${id}/resolve/${revision}/${file}`. */
  | { kind: 'mirror'; url: string }
  /** A local folder (Node: a path; browser: files imported into the cache under this id). */
  | { kind: 'local'; path?: string };

export interface ModelSpec {
  role: Role;
  id: string;
  revision: string;
  source: ModelSource;
  /** Preference order per device; the first dtype of the chosen device is tried first. */
  dtypes?: Partial<Record<Device, Dtype[]>>;
  /** Force a device (otherwise: the faster of WebGPU and WASM, measured (device-choice.ts), else WASM; CPU in Node). */
  device?: Device;
  /** Label name → output index (overrides the model's id2label). */
  labels?: Record<string, number>;
  pooling?: 'mean' | 'cls';
  /** statements: the seq2seq prompt, with {question} and {answer} placeholders. */
  prompt?: string;
  normalize?: boolean;
  /**
   * Fixed inputs with expected outputs, checked after every load instead of the role's generic canary
   * (ROLE_CANARIES in specs.ts; the project's test models use exact reference values).
   */
  canary?: Canary;
  /**
   * The user knowingly uses this model without any canary (`--skip-canary`, or the Models page's setting).
   * The load is then recorded as unchecked in every result row and export.
   */
  skipCanary?: boolean;
  /** Registry file sizes, to detect truncated downloads. */
  files?: Record<string, number>;
  /** Registry SHA-256 (hex) per file where known, to refuse a wrong or damaged file (downloaded or cached). */
  sha256?: Record<string, string>;
}

export type NliLabel = 'entailment' | 'neutral' | 'contradiction';

export type Canary =
  /** NLI: each pair's most likely label must be `expected`, with probability ≥ minProb. */
  | { kind: 'nli-labels'; pairs: { premise: string; hypothesis: string; expected: NliLabel }[]; minProb: number }
  /** Reranker: for each query, the relevant passage must score above the irrelevant one. */
  | { kind: 'ranking'; cases: { query: string; relevant: string; irrelevant: string }[] }
  /** Embedder: for each triple, sim(anchor, near) must exceed sim(anchor, far). */
  | { kind: 'similarity'; triples: { anchor: string; near: string; far: string }[] }
  /** Statement writer: each output must be a fluent sentence that contains the answer. */
  | { kind: 'fluent'; items: { question: string; answer: string }[] }
  /** Exact outputs (test fixtures): NLI probabilities / reranker scores / embeddings / generated text. */
  | {
      kind: 'values';
      inputs: { premise?: string; hypothesis?: string; text?: string; question?: string; answer?: string }[];
      expected: (number[] | string)[];
      tolerance: number;
    };

/** The codes the model host answers with: part of the one list (core/types.ts VerityErrorCode), each described there. */
export const HOST_ERROR_CODES = [
  'unsupported-model',
  'not-found',
  'bad-response',
  'load-failed',
  'inference-failed',
  'canary-failed',
  'not-loaded',
  'quota',
  'invalid-spec',
  'network',
  'unavailable',
] as const satisfies readonly VerityErrorCode[];
export type HostErrorCode = (typeof HOST_ERROR_CODES)[number];
export const isHostErrorCode = (code: string): code is HostErrorCode => (HOST_ERROR_CODES as readonly string[]).includes(code);

/** An error as data: crosses the worker boundary intact. */
export interface HostError {
  code: HostErrorCode;
  message: string;
  modelId?: string;
  device?: Device;
  dtype?: Dtype;
  /**
   * Only weight files (onnx/) were missing: the files of another dtype may be there, so the load goes on to the
   * next device/dtype instead of stopping as for a missing model.
   */
  missingWeights?: boolean;
}

export interface ProbeInfo {
  platform: 'browser' | 'node';
  webgpu: { vendor: string; architecture: string; description: string; isFallbackAdapter: boolean; shaderF16: boolean } | null;
  /** Why there is no WebGPU adapter, when there is none. */
  webgpuReason?: string;
  threads: number;
  crossOriginIsolated: boolean;
  storage: { usage: number; quota: number; persisted: boolean } | null;
}

export interface CanaryReport {
  passed: boolean;
  /** Not run: the user chose to use the model unchecked (spec.skipCanary). `passed` is then false. */
  skipped?: boolean;
  detail: string;
}

/** What a successful load used, recorded with every result and export. */
export interface LoadedModel {
  role: Role;
  id: string;
  revision: string;
  device: Device;
  dtype: Dtype;
  labels?: Record<NliLabel, number>;
  /** The check run after the load (passed), or why none ran (skipped on request). A failed check is never loaded. */
  canary: CanaryReport;
  /** Earlier attempts that were abandoned, and why (e.g. "webgpu/fp16: canary failed …"). */
  fallbacks: string[];
  /** How the device was chosen when the model could run on more than one and the user left it open. */
  choice?: DeviceChoice;
  warnings: string[];
  loadMs: number;
}

export interface LoadProgress {
  modelId: string;
  file: string;
  loaded: number;
  total: number;
}

export const hostError = (code: HostErrorCode, message: string, extra: Partial<HostError> = {}): HostError => ({ code, message, ...extra });

/** A HostError to throw inside the runtime: a VerityError with its code, the rest as details. */
export function hostFailure(e: HostError): VerityError {
  const { code, message, ...details } = e;
  return new VerityError(message, 'input', code, details);
}
