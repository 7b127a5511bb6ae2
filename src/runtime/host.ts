/**
 * @file The model host: loads NLI, reranker, embedding and statement models with transformers.js and runs
 * them. The same code runs inside the browser's Web Worker (WebGPU → WASM) and in the Node CLI (CPU).
 * Every result and error is plain data; loads are lazy and shared (one in-flight promise per model,
 * revision and device); after every load a canary checks fixed inputs before the model is trusted, and a
 * failed load or canary falls back (WebGPU → WASM, quantized → fp32) and records why.
 *
 *   const host = new ModelHost(adapter);
 *   await host.load({ role: 'nli', id: 'Xenova/nli-deberta-v3-xsmall', revision: '4ce6609…', source: { kind: 'hub' } });
 *   await host.nli([{ premise: 'A man plays a guitar.', hypothesis: 'A man plays music.' }]);
 *   // → { ok: true, value: [{ entailment: 0.97…, neutral: 0.02…, contradiction: 0.00… }] }
 */
import {
  AutoModel,
  AutoModelForSeq2SeqLM,
  AutoModelForSequenceClassification,
  AutoTokenizer,
  Tensor,
  type PreTrainedModel,
  type PreTrainedTokenizer,
} from '@huggingface/transformers';
import type { Capability, NliDistribution, NliPair, StatementItem, TokenEmbeddings } from '../core/capabilities.ts';
import { sigmoid } from '../core/agreement/logistic.ts';
import {
  hostError,
  hostFailure,
  isHostErrorCode,
  type Canary,
  type CanaryReport,
  type Device,
  type Dtype,
  type HostError,
  type LoadedModel,
  type LoadProgress,
  type ModelSpec,
  type NliLabel,
  type ProbeInfo,
  type Role,
} from './messages.ts';
import { messageOf, type Result } from '../core/errors.ts';
import { VerityError } from '../core/types.ts';
import { canaryFor, invalidRef } from './specs.ts';
import type { CallName, CallOf, ModelCalls } from './host-api.ts';
import { CAPABILITY_ROLE } from './registry.ts';
import { bestTime, byTime, choiceContext, choiceKey, recall, type ChoiceStore, type DeviceChoice } from './device-choice.ts';

/** What a load records when the user chose to use the model without its canary. */
export const CANARY_SKIPPED: CanaryReport = { passed: false, skipped: true, detail: 'not checked: the canary was skipped on request' };

/** What differs between the browser worker and Node: probing, where files come from, and error hints. */
export interface RuntimeAdapter {
  readonly platform: 'browser' | 'node';
  probe(): Promise<ProbeInfo>;
  /** Points transformers.js at the spec's source; returns the id and options for from_pretrained. */
  prepare(spec: ModelSpec): { id: string; options: Record<string, unknown> };
  /** A clearer message for a failure the adapter can explain (HTML instead of a model, quota, …), if any. */
  explain?(spec: ModelSpec, error: unknown): HostError | null;
  /** After a load that parsed: a file that does not match the registry's hash makes the model unusable. */
  verify?(spec: ModelSpec): HostError | null | Promise<HostError | null>;
  /** Where device choices are remembered (device-choice.ts); without it (Node: one device) nothing is measured. */
  choices?: ChoiceStore;
  /** This browser and its version (the user agent): a remembered choice is valid for it alone. */
  browser?: string;
}

/** The WebGPU adapter a measurement was made on ('' for none). */
const adapterName = (p: ProbeInfo): string =>
  p.webgpu ? [p.webgpu.vendor, p.webgpu.architecture, p.webgpu.description].filter(Boolean).join(' ') || 'webgpu' : '';

export interface Session {
  spec: ModelSpec;
  info: LoadedModel;
  tokenizer: PreTrainedTokenizer;
  model: PreTrainedModel;
  /** NLI: output index per label. */
  labels?: Record<NliLabel, number>;
}

export const STATEMENT_PROMPT = 'Rewrite the question and its answer as one declarative sentence.\nQuestion: {question}\nAnswer: {answer}';
const fillPrompt = (template: string, q: string, a: string) => template.replace('{question}', q).replace('{answer}', a);

const softmax = (xs: ArrayLike<number>): number[] => {
  const m = Math.max(...Array.from(xs));
  const ex = Array.from(xs, (x) => Math.exp(x - m));
  const s = ex.reduce((a, b) => a + b, 0);
  return ex.map((x) => x / s);
};

/** Lets queued tasks (messages) run: scheduler.yield where there is one (Chromium), else a zero timeout. */
const yieldToEventLoop = (): Promise<void> => {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  if (typeof globalThis.setImmediate === 'function') return new Promise((r) => setImmediate(r));
  return new Promise((r) => setTimeout(r, 0));
};

/**
 * Default rows per model call: 8. In WASM the work per real token hardly depends on the batch size (bench:nli's
 * sweep, 2026-11-22: fp32 pairs/s ÷ (1 − padding) 7.3 / 8.9 / 8.1 / 7.8 / 7.2 at 4 / 8 / 16 / 32 / 64, q8 flat
 * within ±8 %), so padding decides — and the app's scoring session hands the evidence code 64 rows at a time
 * (~128 pairs), where token-length batches of 16 leave ~9 % padding and batches of 8 ~4 %. bench:nli prints
 * the fastest size on the current build; revisit this if it disagrees on a quiet machine.
 */
export const DEFAULT_BATCH_SIZE = 8;

/**
 * Row indices grouped into model batches of at most `size`, shortest token sequence first (ties keep input
 * order). Sorting by token length, not characters, is what keeps padding low: a batch is padded to its longest
 * row, and character length is only a rough guess at token length.
 */
export function lengthBatches(lengths: readonly number[], size: number): number[][] {
  const order = lengths.map((_, i) => i).sort((a, b) => lengths[a]! - lengths[b]! || a - b);
  const out: number[][] = [];
  for (let i = 0; i < order.length; i += size) out.push(order.slice(i, i + size));
  return out;
}

/** Unpadded token sequences per row (input_ids, attention_mask, token_type_ids when the tokenizer gives them). */
export type Encodings = Record<string, number[][]>;

/**
 * The int64 model inputs for `rows` of `enc`, padded to the batch's longest row exactly as the tokenizer pads
 * (`padding: true`): the pad id for input_ids, 0 for the other inputs, on the tokenizer's padding side.
 */
export function padRows(
  enc: Encodings,
  rows: readonly number[],
  padId: number,
  side: 'left' | 'right' = 'right',
): { inputs: Record<string, { data: BigInt64Array; dims: [number, number] }>; real: number; padded: number } {
  const ids = enc.input_ids!;
  const width = Math.max(...rows.map((r) => ids[r]!.length));
  const inputs: Record<string, { data: BigInt64Array; dims: [number, number] }> = {};
  for (const [key, seqs] of Object.entries(enc)) {
    const data = new BigInt64Array(rows.length * width);
    if (key === 'input_ids' && padId !== 0) data.fill(BigInt(padId));
    rows.forEach((r, j) => {
      const seq = seqs[r]!;
      const at = j * width + (side === 'left' ? width - seq.length : 0);
      for (let t = 0; t < seq.length; t++) data[at + t] = BigInt(seq[t]!);
    });
    inputs[key] = { data, dims: [rows.length, width] };
  }
  const real = rows.reduce((a, r) => a + ids[r]!.length, 0);
  return { inputs, real, padded: rows.length * width };
}

/**
 * Dtypes whose graphs quantize activations at run time (DynamicQuantizeLinear: one scale per tensor, from its
 * min and max over the whole batch, padding included). A row's output then depends on the other rows of its
 * model call, so such models run one row per call: each row's scores depend on that row alone — the same in
 * the CLI and the app, in any batch, order or resumed run.
 */
export const DYNAMIC_QUANT_DTYPES: readonly Dtype[] = ['q8'];

/** Output index of each NLI label, by name, from the model's id2label. */
export function nliLabelIndex(id2label: Record<string, string> | undefined): Record<NliLabel, number> | null {
  const out: Partial<Record<NliLabel, number>> = {};
  for (const [idx, raw] of Object.entries(id2label ?? {})) {
    const name = raw.toLowerCase();
    const label: NliLabel | null = name.startsWith('entail')
      ? 'entailment'
      : name.startsWith('neutral')
        ? 'neutral'
        : name.startsWith('contradict')
          ? 'contradiction'
          : null;
    if (label) out[label] = Number(idx);
  }
  return out.entailment !== undefined && out.neutral !== undefined && out.contradiction !== undefined
    ? (out as Record<NliLabel, number>)
    : null;
}

const HALF: readonly Dtype[] = ['fp16', 'q4f16'];

/**
 * The WebGPU dtypes wanted ahead of the first one this adapter can run: f16 graphs need the adapter's shader-f16,
 * which some lack (Dawn on NVIDIA's Linux Vulkan driver, SwiftShader), so trying them only costs a download.
 */
export function unrunnableOnWebgpu(spec: ModelSpec, probe: ProbeInfo): Dtype[] {
  // No adapter (the CLI's probe has none), one with shader-f16, or another device forced: nothing to skip.
  if (probe.webgpu?.shaderF16 !== false || (spec.device ?? 'webgpu') !== 'webgpu') return [];
  const wanted = spec.dtypes?.webgpu ?? ['fp32'];
  const first = wanted.findIndex((d) => !HALF.includes(d));
  return first < 0 ? [...wanted] : wanted.slice(0, first);
}

/** Device/dtype attempts in order: the preferred one the adapter can run, then WASM (browser), then fp32. */
export function plan(spec: ModelSpec, probe: ProbeInfo): { device: Device; dtype: Dtype }[] {
  const pref = (d: Device, fallback: Dtype[]) => spec.dtypes?.[d] ?? fallback;
  const out: { device: Device; dtype: Dtype }[] = [];
  const add = (device: Device, dtype: Dtype | undefined) => {
    if (dtype && !out.some((a) => a.device === device && a.dtype === dtype)) out.push({ device, dtype });
  };
  if (probe.platform === 'node' || spec.device === 'cpu') {
    add('cpu', pref('cpu', ['fp32'])[0]);
    add('cpu', 'fp32');
    return out;
  }
  const webgpu = spec.device === 'webgpu' || (spec.device === undefined && probe.webgpu !== null);
  if (webgpu) add('webgpu', pref('webgpu', ['fp32'])[unrunnableOnWebgpu(spec, probe).length]);
  add('wasm', pref('wasm', ['fp32'])[0]);
  add('wasm', 'fp32');
  return out;
}

/**
 * How the host answers each method of each capability, on the loaded model of the capability's role. Typed from
 * the core interfaces: a method added there is a type error here until it is answered.
 */
type Answers = {
  [C in Capability]: {
    [M in CallName<C>]: (s: Session, ...args: Parameters<CallOf<C, M>>) => ReturnType<CallOf<C, M>>;
  };
};

export class ModelHost implements ModelCalls {
  private readonly sessions = new Map<Role, Session>();
  private readonly inflight = new Map<string, Promise<Result<LoadedModel, HostError>>>();
  private probed: Promise<ProbeInfo> | null = null;
  /** Loads run one at a time: they point the runtime's global settings at one model's source. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The clock device timings are read from (ms). */
  protected now: () => number = () => performance.now();

  /** Rows per model call; bounds memory for long inputs. */
  private rows: number;
  /** Token positions the pair models computed since the last reset: real tokens and real + padding. */
  private tokens = { real: 0, padded: 0, batches: 0 };

  constructor(
    private readonly adapter: RuntimeAdapter,
    options: { batchSize?: number } = {},
  ) {
    this.rows = Math.max(1, Math.floor(options.batchSize ?? DEFAULT_BATCH_SIZE));
  }

  get batchSize(): number {
    return this.rows;
  }

  /** Rows per model call from now on (the benchmark's batch-size sweep); returns the value in effect. */
  setBatchSize(n: number): number {
    this.rows = Math.max(1, Math.floor(n));
    return this.rows;
  }

  /** Rows per model call for a loaded model: one for dynamically quantized models (see DYNAMIC_QUANT_DTYPES). */
  rowsPerCall(role: Role): number {
    const s = this.sessions.get(role);
    return s ? this.rowsFor(s) : this.batchSize;
  }

  /** (Also during a load's canary, before the session is registered.) */
  private rowsFor(s: Session): number {
    return DYNAMIC_QUANT_DTYPES.includes(s.info.dtype) ? 1 : this.batchSize;
  }

  /** Padding of the pair models (NLI, reranker) since the last call: token positions computed, real and padded. */
  takeTokenStats(): { real: number; padded: number; batches: number } {
    const t = this.tokens;
    this.tokens = { real: 0, padded: 0, batches: 0 };
    return t;
  }

  probe(): Promise<ProbeInfo> {
    return (this.probed ??= this.adapter.probe());
  }

  /** Loaded models by role (what results are recorded with). */
  loaded(): Partial<Record<Role, LoadedModel>> {
    return Object.fromEntries([...this.sessions].map(([role, s]) => [role, s.info]));
  }

  /** Loads (or reuses) the model for a role. Concurrent identical loads share one promise. */
  load(spec: ModelSpec, onProgress?: (p: LoadProgress) => void): Promise<Result<LoadedModel, HostError>> {
    const invalid = invalidRef(spec);
    if (invalid)
      return Promise.resolve({
        ok: false,
        error: hostError('invalid-spec', `${spec.id}@${spec.revision}: ${invalid}; nothing was fetched or read`, { modelId: spec.id }),
      });
    const current = this.sessions.get(spec.role);
    // A model loaded unchecked is not reused for a load that wants the check.
    if (
      current &&
      current.spec.id === spec.id &&
      current.spec.revision === spec.revision &&
      (spec.device === undefined || spec.device === current.info.device) &&
      (spec.skipCanary || !current.info.canary.skipped)
    )
      return Promise.resolve({ ok: true, value: current.info });
    const key = `${spec.role}|${spec.id}@${spec.revision}|${spec.device ?? 'auto'}|${JSON.stringify(spec.dtypes ?? {})}|${spec.skipCanary ? 'unchecked' : 'checked'}`;
    let p = this.inflight.get(key);
    if (!p) {
      const run = this.queue.then(() => this.doLoad(spec, onProgress));
      this.queue = run.catch(() => undefined);
      p = run.finally(() => this.inflight.delete(key));
      this.inflight.set(key, p);
    }
    return p;
  }

  private async doLoad(spec: ModelSpec, onProgress?: (p: LoadProgress) => void): Promise<Result<LoadedModel, HostError>> {
    await this.dispose(spec.role);
    const probe = await this.probe();
    const attempts = plan(spec, probe);
    // Measured only when the user left the device open and the model could run on more than one (device-choice.ts).
    const store = this.adapter.choices;
    const measure = store !== undefined && spec.device === undefined && new Set(attempts.map((a) => a.device)).size > 1;
    const ctx = measure ? choiceContext(spec, this.adapter.browser ?? '', adapterName(probe)) : null;
    const remembered = measure ? await recall(store!, choiceKey(spec), ctx!) : null;
    const order = remembered
      ? [...attempts.filter((a) => a.device === remembered.device), ...attempts.filter((a) => a.device !== remembered.device)]
      : attempts;
    const fallbacks = unrunnableOnWebgpu(spec, probe).map((d) => `webgpu/${d}: not tried, this WebGPU adapter has no shader-f16`);
    let lastError: HostError = hostError('load-failed', `no device can run ${spec.id}`, { modelId: spec.id });
    const loaded: { session: Session; ms: number }[] = [];
    for (const attempt of order) {
      // Measuring keeps one working attempt per device; otherwise the first that works ends the load.
      if (loaded.some((c) => c.session.info.device === attempt.device)) continue;
      const started = Date.now();
      const r = await this.tryAttempt(spec, attempt, onProgress);
      if (!r.ok) {
        lastError = r.error;
        fallbacks.push(
          `${attempt.device}/${attempt.dtype}: ${r.error.code === 'canary-failed' ? `canary failed (${r.detail})` : r.error.message}`,
        );
        if (r.stop) break;
        continue;
      }
      r.session.info = { ...r.session.info, loadMs: Date.now() - started, fallbacks: [...fallbacks] };
      if (!measure || remembered) {
        loaded.push({ session: r.session, ms: NaN });
        break;
      }
      loaded.push({ session: r.session, ms: await bestTime(() => this.runCanary(r.session, canaryFor(spec)), this.now) });
    }
    if (!loaded.length) {
      if (fallbacks.length > 1) lastError = { ...lastError, message: `${lastError.message} (tried: ${fallbacks.join('; ')})` };
      return { ok: false, error: lastError };
    }
    let kept = loaded[0]!;
    let choice: DeviceChoice | undefined;
    if (remembered && kept.session.info.device === remembered.device) choice = { chosen: 'remembered', timings: remembered.timings };
    else if (loaded.length > 1) {
      const timings = byTime(loaded.map((c) => ({ device: c.session.info.device, dtype: c.session.info.dtype, ms: c.ms })));
      kept = loaded.find((c) => c.session.info.device === timings[0]!.device)!;
      for (const c of loaded) if (c !== kept) await c.session.model.dispose().catch(() => undefined);
      choice = { chosen: 'measured', timings };
      await store!.set(choiceKey(spec), { ...ctx!, device: kept.session.info.device, timings, at: Date.now() }).catch(() => undefined);
    }
    const session = kept.session;
    const info = session.info;
    if (choice) info.choice = choice;
    if (info.fallbacks.length) info.warnings.push(`fell back to ${info.device}/${info.dtype}: ${info.fallbacks.join('; ')}`);
    if (info.canary.skipped) info.warnings.push('used without its canary check (skipped on request): its scores are unchecked');
    this.sessions.set(spec.role, session);
    return { ok: true, value: info };
  }

  /** One device/dtype: loaded and checked, or why not (and whether another attempt could do better). */
  private async tryAttempt(
    spec: ModelSpec,
    attempt: { device: Device; dtype: Dtype },
    onProgress?: (p: LoadProgress) => void,
  ): Promise<{ ok: true; session: Session } | { ok: false; error: HostError; detail?: string; stop: boolean }> {
    let session: Session | null = null;
    try {
      session = await this.create(spec, attempt.device, attempt.dtype, throttle(spec.id, onProgress));
      // Every model is checked unless the user said otherwise. The canary is also the first inference: a device
      // that cannot run the model fails here.
      const canary = spec.skipCanary ? CANARY_SKIPPED : await this.runCanary(session, canaryFor(spec));
      if (!canary.passed && !canary.skipped) {
        await session.model.dispose();
        const error = hostError(
          'canary-failed',
          `${spec.id} gives wrong outputs on ${attempt.device}/${attempt.dtype}: ${canary.detail}; the model is refused (to use it unchecked anyway: --skip-canary in the CLI, or "use models without their check" on the Models page)`,
          { modelId: spec.id, ...attempt },
        );
        return { ok: false, error, detail: canary.detail, stop: false };
      }
      session.info = { ...session.info, canary };
      return { ok: true, session };
    } catch (e) {
      if (session) await session.model.dispose().catch(() => undefined);
      const error = this.classify(spec, e, attempt.device, attempt.dtype);
      // A model the runtime cannot use or cannot find will not load on another device either; one dtype's missing
      // weights say nothing of another's.
      const stop =
        !error.missingWeights &&
        ['unsupported-model', 'not-found', 'bad-response', 'network', 'unavailable', 'invalid-spec'].includes(error.code);
      return { ok: false, error, stop };
    }
  }

  private classify(spec: ModelSpec, e: unknown, device: Device, dtype: Dtype): HostError {
    const extra = { modelId: spec.id, device, dtype };
    const explained = this.adapter.explain?.(spec, e);
    if (explained) return { ...extra, ...explained };
    // An error thrown on purpose (by create(), the adapter's prepare or its fetch) keeps its code and message.
    if (e instanceof VerityError && isHostErrorCode(e.code)) return hostError(e.code, e.message, extra);
    const msg = messageOf(e);
    if (/not found|404|ENOENT|file was not found|Could not locate/i.test(msg))
      return hostError('not-found', `${spec.id}: a model file was not found (${msg})`, extra);
    if (/Unsupported model type|not supported/i.test(msg)) return hostError('unsupported-model', `${spec.id}: ${msg}`, extra);
    if (/quota/i.test(msg)) return hostError('quota', `${spec.id}: storage quota exceeded (${msg})`, extra);
    return hostError('load-failed', `${spec.id} did not load on ${device}/${dtype}: ${msg}`, extra);
  }

  protected async create(spec: ModelSpec, device: Device, dtype: Dtype, progress: (info: unknown) => void): Promise<Session> {
    const { id, options } = this.adapter.prepare(spec);
    const common = { ...options, revision: spec.revision, progress_callback: progress };
    const tokenizer = await AutoTokenizer.from_pretrained(id, common);
    const modelOptions = { ...common, device, dtype };
    let model: PreTrainedModel;
    let labels: Record<NliLabel, number> | undefined;
    switch (spec.role) {
      case 'nli':
      case 'reranker':
        model = await AutoModelForSequenceClassification.from_pretrained(id, modelOptions);
        if (spec.role === 'nli') {
          const found = spec.labels
            ? nliLabelIndex(Object.fromEntries(Object.entries(spec.labels).map(([k, v]) => [String(v), k])))
            : nliLabelIndex((model.config as { id2label?: Record<string, string> }).id2label);
          if (!found) {
            await model.dispose();
            throw new VerityError(
              `${spec.id} is not an NLI classifier: its config has no entailment / neutral / contradiction labels (id2label: ${JSON.stringify((model.config as { id2label?: unknown }).id2label ?? null)})`,
              'input',
              'unsupported-model',
            );
          }
          labels = found;
        }
        break;
      case 'embedder':
        model = await AutoModel.from_pretrained(id, modelOptions);
        break;
      case 'statements':
        model = await AutoModelForSeq2SeqLM.from_pretrained(id, modelOptions);
        break;
    }
    const refused = await this.adapter.verify?.(spec);
    if (refused) {
      await model.dispose();
      throw hostFailure(refused);
    }
    const info: LoadedModel = {
      role: spec.role,
      id: spec.id,
      revision: spec.revision,
      device,
      dtype,
      canary: CANARY_SKIPPED,
      fallbacks: [],
      warnings: [],
      loadMs: 0,
      ...(labels ? { labels } : {}),
    };
    return { spec, info, tokenizer, model, ...(labels ? { labels } : {}) };
  }

  async dispose(role: Role): Promise<void> {
    const s = this.sessions.get(role);
    this.sessions.delete(role);
    if (s) await s.model.dispose().catch(() => undefined);
  }

  // ---------- inference ----------

  private session(role: Role): Session | HostError {
    return this.sessions.get(role) ?? hostError('not-loaded', `no ${role} model is loaded`);
  }

  private async guarded<T>(role: Role, run: (s: Session) => Promise<T>): Promise<Result<T, HostError>> {
    const s = this.session(role);
    if ('code' in s) return { ok: false, error: s };
    try {
      return { ok: true, value: await run(s) };
    } catch (e) {
      return {
        ok: false,
        error: hostError('inference-failed', `${s.spec.id} failed on ${s.info.device}/${s.info.dtype}: ${messageOf(e)}`, {
          modelId: s.spec.id,
          device: s.info.device,
          dtype: s.info.dtype,
        }),
      };
    }
  }

  /**
   * Logits per (first, second) pair, in input order. The pairs are tokenized once, without padding, then run in
   * model batches of rows with similar token counts (lengthBatches), each padded to its longest row (padRows) —
   * the same tensors the tokenizer would make for that batch, with far less padding than input order or
   * character order gives.
   */
  private async pairLogits(s: Session, first: string[], second: string[]): Promise<number[][]> {
    if (first.length === 0) return [];
    const enc = s.tokenizer(first, { text_pair: second, truncation: true, return_tensor: false }) as unknown as Encodings;
    const ids = enc.input_ids!;
    const tok = s.tokenizer as unknown as { pad_token_id?: number | null; padding_side?: 'left' | 'right' };
    const rows: number[][] = new Array<number[]>(first.length);
    let lastYield = performance.now();
    for (const batch of lengthBatches(
      ids.map((x) => x.length),
      this.rowsFor(s),
    )) {
      const { inputs, real, padded } = padRows(enc, batch, tok.pad_token_id ?? 0, tok.padding_side === 'left' ? 'left' : 'right');
      const feed = Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, new Tensor('int64', v.data, v.dims)]));
      const { logits } = (await s.model(feed)) as { logits: Tensor };
      const [n, k] = logits.dims as [number, number];
      const data = logits.data as Float32Array;
      for (let r = 0; r < n; r++) rows[batch[r]!] = Array.from(data.subarray(r * k, (r + 1) * k));
      this.tokens.real += real;
      this.tokens.padded += padded;
      this.tokens.batches++;
      // A model run resolves in microtasks: without this, a long call would leave the worker's message queue
      // (the page's watchdog ping, other requests) unanswered until every batch is done. Twice a second is
      // plenty for that, and leaves back-to-back runs of small batches alone.
      if (performance.now() - lastYield >= 500) {
        await yieldToEventLoop();
        lastYield = performance.now();
      }
    }
    return rows;
  }

  private readonly answers: Answers = {
    nli: { classify: (s, pairs) => this.runNli(s, pairs) },
    ranker: { score: (s, query, docs) => this.runRerank(s, query, docs) },
    embedder: {
      embed: async (s, texts) => (await this.runEmbed(s, texts)).map((t) => t.pooled),
      embedTokens: async (s, texts) => (await this.runEmbed(s, texts)).map((t) => ({ tokens: t.tokens, vectors: t.vectors })),
    },
    writer: { write: (s, items) => this.runStatements(s, items) },
  };

  call(capability: Capability, method: string, args: unknown[]): Promise<Result<unknown, HostError>> {
    const answer = (
      this.answers[capability] as Record<string, ((s: Session, ...a: unknown[]) => Promise<unknown>) | undefined> | undefined
    )?.[method];
    if (!answer)
      return Promise.resolve({ ok: false, error: hostError('inference-failed', `a model host answers no "${method}" of ${capability}`) });
    return this.guarded(CAPABILITY_ROLE[capability], (s) => answer(s, ...args));
  }

  nli(pairs: NliPair[]): Promise<Result<NliDistribution[], HostError>> {
    return this.call('nli', 'classify', [pairs]) as Promise<Result<NliDistribution[], HostError>>;
  }

  private async runNli(s: Session, pairs: NliPair[]): Promise<NliDistribution[]> {
    const logits = await this.pairLogits(
      s,
      pairs.map((p) => p.premise),
      pairs.map((p) => p.hypothesis),
    );
    const idx = s.labels!;
    return logits.map((row) => {
      const p = softmax(row);
      // Renormalize over the three labels in case the model has extra outputs.
      const e = p[idx.entailment]!;
      const n = p[idx.neutral]!;
      const c = p[idx.contradiction]!;
      const z = e + n + c;
      return { entailment: e / z, neutral: n / z, contradiction: c / z };
    });
  }

  rerank(query: string, docs: string[]): Promise<Result<number[], HostError>> {
    return this.call('ranker', 'score', [query, docs]) as Promise<Result<number[], HostError>>;
  }

  private async runRerank(s: Session, query: string, docs: string[]): Promise<number[]> {
    const logits = await this.pairLogits(
      s,
      docs.map(() => query),
      docs,
    );
    // One logit → sigmoid; two labels → probability of the second ("relevant").
    return logits.map((row) => (row.length === 1 ? sigmoid(row[0]!) : softmax(row)[row.length - 1]!));
  }

  embed(texts: string[]): Promise<Result<Float32Array[], HostError>> {
    return this.call('embedder', 'embed', [texts]) as Promise<Result<Float32Array[], HostError>>;
  }

  embedTokens(texts: string[]): Promise<Result<TokenEmbeddings[], HostError>> {
    return this.call('embedder', 'embedTokens', [texts]) as Promise<Result<TokenEmbeddings[], HostError>>;
  }

  private async runEmbed(s: Session, texts: string[]): Promise<{ pooled: Float32Array; tokens: string[]; vectors: Float32Array[] }[]> {
    const out: { pooled: Float32Array; tokens: string[]; vectors: Float32Array[] }[] = [];
    const special = new Set<number>((s.tokenizer as unknown as { all_special_ids: number[] }).all_special_ids ?? []);
    const b = this.rowsFor(s);
    for (let i = 0; i < texts.length; i += b) {
      const enc = s.tokenizer(texts.slice(i, i + b), { padding: true, truncation: true });
      const { last_hidden_state: h } = (await s.model(enc)) as { last_hidden_state: Tensor };
      const [n, len, dim] = h.dims as [number, number, number];
      const data = h.data as Float32Array;
      const mask = Array.from((enc.attention_mask as Tensor).data as ArrayLike<bigint | number>, Number);
      const ids = Array.from((enc.input_ids as Tensor).data as ArrayLike<bigint | number>, Number);
      for (let r = 0; r < n; r++) {
        const pooled = new Float32Array(dim);
        const vectors: Float32Array[] = [];
        const tokens: string[] = [];
        let count = 0;
        for (let t = 0; t < len; t++) {
          if (!mask[r * len + t]) continue;
          const v = data.subarray((r * len + t) * dim, (r * len + t + 1) * dim);
          if (s.spec.pooling === 'cls' ? t === 0 : true) {
            for (let d = 0; d < dim; d++) pooled[d]! += v[d]!;
            count++;
          }
          const id = ids[r * len + t]!;
          if (!special.has(id)) {
            vectors.push(Float32Array.from(v));
            tokens.push(s.tokenizer.decode([id], { skip_special_tokens: false }));
          }
        }
        for (let d = 0; d < dim; d++) pooled[d]! /= Math.max(1, count);
        if (s.spec.normalize !== false) {
          const norm = Math.hypot(...pooled) || 1;
          for (let d = 0; d < dim; d++) pooled[d]! /= norm;
        }
        out.push({ pooled, tokens, vectors });
      }
    }
    return out;
  }

  writeStatements(items: StatementItem[]): Promise<Result<string[], HostError>> {
    return this.call('writer', 'write', [items]) as Promise<Result<string[], HostError>>;
  }

  private async runStatements(s: Session, items: StatementItem[], maxNewTokens = 64): Promise<string[]> {
    const out: string[] = [];
    const b = this.rowsFor(s);
    for (let i = 0; i < items.length; i += b) {
      const prompts = items.slice(i, i + b).map((it) => fillPrompt(s.spec.prompt ?? STATEMENT_PROMPT, it.question, it.answer));
      const enc = s.tokenizer(prompts, { padding: true, truncation: true });
      const ids = (await s.model.generate({ ...enc, max_new_tokens: maxNewTokens, do_sample: false })) as Tensor;
      out.push(...s.tokenizer.batch_decode(ids, { skip_special_tokens: true }).map((t) => t.trim()));
    }
    return out;
  }

  // ---------- canary ----------

  protected async runCanary(s: Session, c: Canary): Promise<CanaryReport> {
    const bad = (detail: string): CanaryReport => ({ passed: false, detail });
    switch (c.kind) {
      case 'nli-labels': {
        const got = await this.runNli(s, c.pairs);
        for (let i = 0; i < got.length; i++) {
          const d = got[i]!;
          if (![d.entailment, d.neutral, d.contradiction].every(Number.isFinite)) return bad(`pair ${i + 1}: non-finite probabilities`);
          const top = (Object.entries(d) as [NliLabel, number][]).sort((a, b) => b[1] - a[1])[0]!;
          if (top[0] !== c.pairs[i]!.expected || top[1] < c.minProb)
            return bad(`pair ${i + 1}: expected ${c.pairs[i]!.expected}, got ${top[0]} ${top[1].toFixed(3)}`);
        }
        return { passed: true, detail: `${got.length} NLI pairs labelled as expected` };
      }
      case 'ranking': {
        for (let i = 0; i < c.cases.length; i++) {
          const { query, relevant, irrelevant } = c.cases[i]!;
          const [r, x] = (await this.runRerank(s, query, [relevant, irrelevant])) as [number, number];
          if (!Number.isFinite(r) || !Number.isFinite(x)) return bad(`query ${i + 1}: non-finite scores`);
          if (!(r > x))
            return bad(
              `query ${i + 1} ("${query}"): the relevant passage scored ${r.toFixed(3)}, not above the irrelevant one (${x.toFixed(3)})`,
            );
        }
        return { passed: true, detail: `${c.cases.length} queries ranked as expected` };
      }
      case 'similarity': {
        const cos = (x: Float32Array, y: Float32Array) =>
          x.reduce((acc, v, i) => acc + v * y[i]!, 0) / (Math.hypot(...x) * Math.hypot(...y) || 1);
        for (let i = 0; i < c.triples.length; i++) {
          const t = c.triples[i]!;
          const [a, n, f] = (await this.runEmbed(s, [t.anchor, t.near, t.far])).map((x) => x.pooled) as [
            Float32Array,
            Float32Array,
            Float32Array,
          ];
          const near = cos(a, n);
          const far = cos(a, f);
          if (!Number.isFinite(near) || !Number.isFinite(far)) return bad(`triple ${i + 1}: non-finite embeddings`);
          if (!(near > far))
            return bad(
              `triple ${i + 1}: the paraphrase is not closer than the unrelated sentence (similarity ${near.toFixed(3)} ≤ ${far.toFixed(3)})`,
            );
        }
        return { passed: true, detail: `${c.triples.length} paraphrases closer than unrelated sentences` };
      }
      case 'fluent': {
        const got = await this.runStatements(s, c.items);
        for (let i = 0; i < c.items.length; i++) {
          const why = notFluent(got[i] ?? '', c.items[i]!.answer);
          if (why) return bad(`item ${i + 1}: ${why}`);
        }
        return { passed: true, detail: `${c.items.length} fluent statements that contain their answer` };
      }
      case 'values': {
        let got: (number[] | string)[];
        if (s.spec.role === 'nli')
          got = (
            await this.runNli(
              s,
              c.inputs.map((x) => ({ premise: x.premise ?? '', hypothesis: x.hypothesis ?? '' })),
            )
          ).map((d) => [d.entailment, d.neutral, d.contradiction]);
        else if (s.spec.role === 'reranker')
          got = await Promise.all(c.inputs.map(async (x) => await this.runRerank(s, x.premise ?? '', [x.hypothesis ?? ''])));
        else if (s.spec.role === 'embedder')
          got = (
            await this.runEmbed(
              s,
              c.inputs.map((x) => x.text ?? ''),
            )
          ).map((x) => Array.from(x.pooled));
        else
          got = await this.runStatements(
            s,
            c.inputs.map((x) => ({ question: x.question ?? '', answer: x.answer ?? '' })),
            8,
          );
        let worst = 0;
        for (let i = 0; i < c.expected.length; i++) {
          const e = c.expected[i]!;
          const g = got[i]!;
          if (typeof e === 'string') {
            if (g !== e) return bad(`input ${i + 1}: expected "${e}", got "${String(g)}"`);
            continue;
          }
          const gv = g as number[];
          if (gv.length !== e.length) return bad(`input ${i + 1}: expected ${e.length} values, got ${gv.length}`);
          for (let k = 0; k < e.length; k++) worst = Math.max(worst, Number.isFinite(gv[k]!) ? Math.abs(gv[k]! - e[k]!) : Infinity);
        }
        return worst <= c.tolerance
          ? { passed: true, detail: `max deviation ${worst.toExponential(2)} ≤ ${c.tolerance}` }
          : bad(`max deviation ${worst.toExponential(2)} > ${c.tolerance}`);
      }
    }
  }
}

/**
 * Why a generated statement is not a fluent sentence containing its answer, or null. Deliberately lenient (any
 * working writer passes): non-empty, the answer's words present, at least three words, mostly letters, and no
 * word repeated four times in a row (the usual failure of a broken decoder).
 */
export function notFluent(text: string, answer: string): string | null {
  const t = text.trim();
  if (!t) return 'empty output';
  const words: string[] = t.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];
  const show = `"${t.length > 80 ? `${t.slice(0, 80)}…` : t}"`;
  if (words.length < 3) return `${show} is not a sentence (fewer than three words)`;
  const letters = (t.match(/[\p{L}\s]/gu) ?? []).length;
  if (letters < 0.7 * t.length) return `${show} is mostly not letters`;
  for (let i = 3; i < words.length; i++)
    if (words[i] === words[i - 1] && words[i] === words[i - 2] && words[i] === words[i - 3]) return `${show} repeats "${words[i]}"`;
  const missing = (answer.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? []).filter((w) => !words.includes(w));
  if (missing.length) return `${show} does not contain the answer ("${answer}")`;
  return null;
}

/** Forwards transformers.js progress as bytes done / total for the whole model, at most every 100 ms. */
function throttle(modelId: string, onProgress?: (p: LoadProgress) => void): (info: unknown) => void {
  if (!onProgress) return () => undefined;
  let last = 0;
  return (raw) => {
    const info = raw as { status?: string; file?: string; loaded?: number; total?: number };
    // Only the aggregate events: they carry bytes done / total over all of the model's files.
    if (info.status !== 'progress_total') return;
    const now = Date.now();
    if (now - last < 100 && (info.loaded ?? 0) < (info.total ?? 1)) return;
    last = now;
    onProgress({ modelId, file: info.file ?? '', loaded: info.loaded ?? 0, total: info.total ?? 0 });
  };
}
