/**
 * The model host in Node on the project's tiny fixture models (test/models, made by the global setup), through
 * the real loading path: local folder → transformers.js → onnxruntime-node. Expected outputs come from the
 * fixtures' independent reference forward pass (expected.json).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildBertNliModel, DEFAULT_OUT_DIR } from '../../scripts/fixtures/generate.ts';
import { createNodeHost } from './node.ts';
import { parseModelArg } from './model-args.ts';
import { hostContext, modelRecords } from './context.ts';
import { VerityError } from '../core/types.ts';
import { AutoTokenizer, type Tensor } from '@huggingface/transformers';
import { lengthBatches, notFluent, padRows, plan, nliLabelIndex, unrunnableOnWebgpu, type Encodings } from './host.ts';
import type { ModelSpec, ProbeInfo } from './messages.ts';

const dir = (m: string) => join(DEFAULT_OUT_DIR, m);
const expected = <T>(m: string): T => JSON.parse(readFileSync(join(dir(m), 'expected.json'), 'utf8')) as T;
interface NliCase {
  premise: string;
  hypothesis: string;
  probs_by_label: Record<string, number>;
}
const nliCases = expected<{ cases: NliCase[] }>('tiny-nli').cases;
/** A fixture model as a local folder. Random weights: it goes through the same switch a user flips (skipCanary). */
const local = (role: ModelSpec['role'], m: string, extra: Partial<ModelSpec> = {}): ModelSpec => ({
  ...parseModelArg(role, dir(m)),
  skipCanary: true,
  ...extra,
});
const close = (a: number, b: number) => expect(Math.abs(a - b)).toBeLessThanOrEqual(1e-4);

describe('ModelHost (Node, CPU) on fixture models', () => {
  it('NLI: probabilities by label name match the reference, whatever the output order', async () => {
    for (const m of ['tiny-nli', 'tiny-nli-reordered']) {
      const host = createNodeHost();
      const loaded = await host.load(local('nli', m));
      expect(loaded.ok, JSON.stringify(loaded)).toBe(true);
      if (!loaded.ok) return;
      expect(loaded.value).toMatchObject({ device: 'cpu', dtype: 'fp32', revision: 'local' });
      const got = await host.nli(nliCases.map(({ premise, hypothesis }) => ({ premise, hypothesis })));
      expect(got.ok).toBe(true);
      if (!got.ok) return;
      got.value.forEach((d, i) => {
        close(d.entailment, nliCases[i]!.probs_by_label.entailment!);
        close(d.neutral, nliCases[i]!.probs_by_label.neutral!);
        close(d.contradiction, nliCases[i]!.probs_by_label.contradiction!);
      });
    }
  });

  it('refuses a classifier without entailment / neutral / contradiction labels, as data', async () => {
    const r = await createNodeHost().load(local('nli', 'tiny-nli-nolabels'));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('unsupported-model');
    expect(r.error.message).toMatch(/not an NLI classifier.*LABEL_0/);
    expect(r.error.device).toBe('cpu');
  });

  it('a failing canary falls back (q8 → fp32) and then refuses, saying why', async () => {
    const wrong = {
      kind: 'values' as const,
      inputs: [{ premise: nliCases[0]!.premise, hypothesis: nliCases[0]!.hypothesis }],
      expected: [[0.2, 0.3, 0.5]],
      tolerance: 1e-3,
    };
    const r = await createNodeHost().load(local('nli', 'tiny-nli', { dtypes: { cpu: ['q8', 'fp32'] }, canary: wrong, skipCanary: false }));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('canary-failed');
    expect(r.error.message).toMatch(/cpu\/q8: canary failed.*cpu\/fp32/s);
  });

  it('a passing canary is recorded with the load', async () => {
    const c = nliCases[1]!;
    const canary = {
      kind: 'values' as const,
      inputs: [{ premise: c.premise, hypothesis: c.hypothesis }],
      expected: [[c.probs_by_label.entailment!, c.probs_by_label.neutral!, c.probs_by_label.contradiction!]],
      tolerance: 1e-4,
    };
    const r = await createNodeHost().load(local('nli', 'tiny-nli', { canary, skipCanary: false }));
    expect(r.ok && r.value.canary.passed).toBe(true);
  });

  // a model outside the registry (here: a local folder with random weights) gets its role's
  // generic canary and is refused, never used; only the explicit switch lets it through, and the load says so.
  it.each([
    ['nli', 'tiny-nli', /expected (entailment|contradiction)/],
    ['reranker', 'tiny-reranker', /relevant passage scored/],
    ['embedder', 'tiny-embedder', /paraphrase is not closer/],
    ['statements', 'tiny-t5', /not a sentence|not letters|repeats|does not contain the answer|empty output/],
  ] as const)(
    'a random-weight %s model fails its role canary and is refused; with skipCanary it loads as unchecked',
    async (role, m, why) => {
      const host = createNodeHost();
      const refused = await host.load(local(role, m, { skipCanary: false }));
      expect(refused.ok, JSON.stringify(refused)).toBe(false);
      if (refused.ok) return;
      expect(refused.error.code).toBe('canary-failed');
      expect(refused.error.message).toMatch(why);
      expect(refused.error.message).toContain('--skip-canary');
      expect(host.loaded()[role]).toBeUndefined();
      const r = await host.nli([{ premise: 'a', hypothesis: 'b' }]);
      expect(r.ok).toBe(false);

      const unchecked = await host.load(local(role, m));
      expect(unchecked.ok, JSON.stringify(unchecked)).toBe(true);
      if (!unchecked.ok) return;
      expect(unchecked.value.canary).toMatchObject({ passed: false, skipped: true });
      expect(unchecked.value.warnings.join(' ')).toContain('without its canary check');
      // A model loaded unchecked is not reused by a load that wants the check.
      const again = await host.load(local(role, m, { skipCanary: false }));
      expect(again.ok).toBe(false);
    },
  );

  it('reranker: sigmoid of the single logit; embedder: mean-pooled, normalized vectors', async () => {
    const host = createNodeHost();
    expect((await host.load(local('reranker', 'tiny-reranker'))).ok).toBe(true);
    const rr = expected<{ cases: { query: string; passage: string; logit: number }[] }>('tiny-reranker').cases;
    for (const c of rr) {
      const s = await host.rerank(c.query, [c.passage]);
      expect(s.ok).toBe(true);
      if (s.ok) close(s.value[0]!, 1 / (1 + Math.exp(-c.logit)));
    }
    expect((await host.load(local('embedder', 'tiny-embedder'))).ok).toBe(true);
    const ec = expected<{ cases: { text: string; embedding: number[] }[] }>('tiny-embedder').cases;
    const e = await host.embed(ec.map((c) => c.text));
    expect(e.ok).toBe(true);
    if (e.ok) e.value.forEach((v, i) => ec[i]!.embedding.forEach((x, k) => close(v[k]!, x)));
    const t = await host.embedTokens([ec[0]!.text]);
    expect(t.ok && t.value[0]!.tokens.length).toBe(t.ok ? t.value[0]!.vectors.length : -1);
    expect(t.ok && t.value[0]!.tokens.includes('[CLS]')).toBe(false);
  });

  it('statements: the seq2seq model generates what the reference decoder generates', async () => {
    const host = createNodeHost();
    const t5 = expected<{ cases: { input: string; text: string }[] }>('tiny-t5').cases;
    // The prompt is the answer itself, so the model sees exactly the reference input.
    const r = await host.load(local('statements', 'tiny-t5', { prompt: '{question}{answer}' }));
    expect(r.ok, JSON.stringify(r)).toBe(true);
    const out = await host.writeStatements(t5.map((c) => ({ question: '', answer: c.input })));
    expect(out.ok).toBe(true);
    // The reference decoded 8 tokens; the writer allows more, so its text starts with the reference text.
    if (out.ok) t5.forEach((c, i) => expect(out.value[i]!.startsWith(c.text), `${out.value[i]} vs ${c.text}`).toBe(true));
  });

  it('shares one in-flight load per model and reports not-loaded roles as errors', async () => {
    const host = createNodeHost();
    const spec = local('nli', 'tiny-nli');
    const [a, b] = await Promise.all([host.load(spec), host.load(spec)]);
    expect(a).toBe(b);
    const r = await host.rerank('q', ['d']);
    expect(r.ok === false && r.error.code).toBe('not-loaded');
  });

  it('a missing local folder is a not-found error with the model id', async () => {
    const r = await createNodeHost().load({
      role: 'nli',
      id: '/nonexistent/model',
      revision: 'local',
      source: { kind: 'local', path: '/nonexistent/model' },
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(['not-found', 'load-failed']).toContain(r.error.code);
  });

  it('hostContext loads lazily and records provenance', async () => {
    const host = createNodeHost();
    const ctx = hostContext(host, { nli: local('nli', 'tiny-nli') });
    expect(ctx.provenance).toEqual({});
    const d = await ctx.nli!.classify([{ premise: nliCases[0]!.premise, hypothesis: nliCases[0]!.hypothesis }]);
    close(d[0]!.entailment, nliCases[0]!.probs_by_label.entailment!);
    expect(ctx.provenance.nli).toMatchObject({ device: 'cpu', dtype: 'fp32' });
    expect(modelRecords(ctx.provenance)).toEqual({
      nli: { id: dir('tiny-nli'), revision: 'local', device: 'cpu', dtype: 'fp32', canary: 'skipped' },
    });
  });

  it('answers every method of the core interfaces by name, and none other', async () => {
    const host = createNodeHost();
    // Nothing loaded: each known method reaches its role and finds no model; an unknown one is refused as such.
    for (const [capability, method, role] of [
      ['nli', 'classify', 'nli'],
      ['ranker', 'score', 'reranker'],
      ['embedder', 'embed', 'embedder'],
      ['embedder', 'embedTokens', 'embedder'],
      ['writer', 'write', 'statements'],
    ] as const)
      expect(await host.call(capability, method, [[]])).toEqual({
        ok: false,
        error: expect.objectContaining({ code: 'not-loaded', message: `no ${role} model is loaded` }),
      });
    expect(await host.call('nli', 'guess', [])).toEqual({
      ok: false,
      error: expect.objectContaining({ code: 'inference-failed', message: 'a model host answers no "guess" of nli' }),
    });
  });

  it("hostContext throws a failed load as a VerityError with the host's code", async () => {
    const ctx = hostContext(createNodeHost(), { nli: local('nli', 'tiny-nli-nolabels') });
    const e = await ctx.nli!.classify([{ premise: 'a', hypothesis: 'b' }]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(VerityError);
    expect(e).toMatchObject({ code: 'unsupported-model', message: expect.stringMatching(/not an NLI classifier/) });
    expect((e as VerityError).details).toMatchObject({ device: 'cpu' });
  });
});

describe('pair batches by token length', () => {
  // Character length and token length disagree: an emoji run is one [UNK] token, "a b c …" one token a letter.
  const pairs = [
    { premise: 'a b c d e f g h i', hypothesis: 'j' }, // 18 characters, 13 tokens
    { premise: '🙂🙂', hypothesis: 'x' }, // 5 characters, 5 tokens
    { premise: '🙂'.repeat(20), hypothesis: 'x' }, // 41 characters, 5 tokens
    { premise: 'a b c d e f g h', hypothesis: 'i j' }, // 18 characters, 13 tokens
  ];

  it('groups rows shortest first, ties in input order', () => {
    expect(lengthBatches([5, 2, 9, 2, 7], 2)).toEqual([[1, 3], [0, 4], [2]]);
    expect(lengthBatches([], 4)).toEqual([]);
  });

  it('pads a batch exactly as the tokenizer does', async () => {
    const tok = await AutoTokenizer.from_pretrained(dir('tiny-nli'), { local_files_only: true });
    const first = pairs.map((p) => p.premise);
    const second = pairs.map((p) => p.hypothesis);
    const enc = tok(first, { text_pair: second, truncation: true, return_tensor: false }) as unknown as Encodings;
    const rows = [3, 1, 2];
    const ref = tok(
      rows.map((r) => first[r]!),
      { text_pair: rows.map((r) => second[r]!), padding: true, truncation: true },
    ) as unknown as Record<string, Tensor>;
    for (const padId of [0, 7]) {
      const got = padRows(enc, rows, padId);
      expect(Object.keys(got.inputs).sort()).toEqual(Object.keys(ref).sort());
      for (const [k, t] of Object.entries(ref)) {
        expect(got.inputs[k]!.dims).toEqual(t.dims);
        const want = Array.from(t.data as BigInt64Array, (v) => (k === 'input_ids' && v === 0n ? BigInt(padId) : v));
        expect(Array.from(got.inputs[k]!.data)).toEqual(want);
      }
      expect(got.real).toBe(13 + 5 + 5);
      expect(got.padded).toBe(3 * 13);
    }
    const left = padRows(enc, [1, 0], 9, 'left');
    expect(Array.from(left.inputs.input_ids!.data.slice(0, 8))).toEqual([9n, 9n, 9n, 9n, 9n, 9n, 9n, 9n]);
    expect(Array.from(left.inputs.attention_mask!.data.slice(0, 13))).toEqual([...Array(8).fill(0n), ...Array(5).fill(1n)]);
  });

  it('the host runs NLI pairs in token-length order: no padding here, same probabilities in input order', async () => {
    const host = createNodeHost({ batchSize: 2 });
    expect((await host.load(local('nli', 'tiny-nli'))).ok).toBe(true);
    host.takeTokenStats();
    const got = await host.nli(pairs);
    // Character order would batch a 5-token pair with a 13-token one twice (16 of 52 positions padding).
    expect(host.takeTokenStats()).toEqual({ real: 36, padded: 36, batches: 2 });
    const one = createNodeHost({ batchSize: 1 });
    expect((await one.load(local('nli', 'tiny-nli'))).ok).toBe(true);
    const alone = await Promise.all(pairs.map(async (p) => await one.nli([p])));
    expect(got.ok).toBe(true);
    if (!got.ok) return;
    got.value.forEach((d, i) => {
      const a = alone[i]!;
      expect(a.ok).toBe(true);
      if (!a.ok) return;
      for (const l of ['entailment', 'neutral', 'contradiction'] as const) expect(Math.abs(d[l] - a.value[0]![l])).toBeLessThan(1e-6);
    });
    expect(host.setBatchSize(0)).toBe(1);
    expect(host.batchSize).toBe(1);
    expect(await host.nli([])).toEqual({ ok: true, value: [] });
  });
});

describe('dynamically quantized models (q8)', () => {
  it("a pair's probabilities do not depend on the other pairs of the call", async () => {
    // A small BERT whose model_quantized.onnx is dynamically quantized as transformers.js ships it (the tiny
    // fixtures' is a byte copy of the fp32 graph).
    const q8dir = mkdtempSync(join(tmpdir(), 'verity-q8-'));
    buildBertNliModel(q8dir, { layers: 1, hidden: 32, heads: 2, vocabSize: 322, q8: true });
    const host = createNodeHost({ batchSize: 8 });
    const loaded = await host.load({ ...parseModelArg('nli', q8dir), skipCanary: true, dtypes: { cpu: ['q8'] } });
    expect(loaded.ok && loaded.value.dtype).toBe('q8');
    expect(host.rowsPerCall('nli')).toBe(1);
    const pair = { premise: nliCases[0]!.premise, hypothesis: nliCases[0]!.hypothesis };
    const alone = await host.nli([pair]);
    // A long neighbour changes the activations' range (and the padding) a batch would be quantized with.
    const long = { premise: `${'the quick brown fox jumps over the lazy dog '.repeat(6)}!!! 9999`, hypothesis: 'zebra 12345 ???' };
    const mixed = await host.nli([long, pair, long]);
    expect(alone.ok && mixed.ok).toBe(true);
    if (!alone.ok || !mixed.ok) return;
    expect(mixed.value[1]).toEqual(alone.value[0]);
    rmSync(q8dir, { recursive: true, force: true });
  });
});

describe('the statement writer canary', () => {
  it('accepts a plain sentence with the answer and refuses empty, garbled or answerless output', () => {
    expect(notFluent('The capital of France is Paris.', 'Paris')).toBeNull();
    expect(notFluent('Hamlet was written by William Shakespeare.', 'William Shakespeare')).toBeNull();
    expect(notFluent('  ', 'Paris')).toBe('empty output');
    expect(notFluent('Paris', 'Paris')).toMatch(/fewer than three words/);
    expect(notFluent('## 12 %% 44 ## 99 Paris', 'Paris')).toMatch(/not letters/);
    expect(notFluent('Paris Paris Paris Paris is it', 'Paris')).toMatch(/repeats "paris"/);
    expect(notFluent('The capital of France is Lyon.', 'Paris')).toMatch(/does not contain the answer/);
  });
});

describe('device planning and label mapping', () => {
  const browser = (gpu: boolean): ProbeInfo => ({
    platform: 'browser',
    webgpu: gpu ? { vendor: 'nvidia', architecture: '', description: '', isFallbackAdapter: false, shaderF16: true } : null,
    threads: 2,
    crossOriginIsolated: true,
    storage: null,
  });
  const spec: ModelSpec = {
    role: 'nli',
    id: 'x/y',
    revision: 'r',
    source: { kind: 'hub' },
    dtypes: { webgpu: ['fp16', 'fp32'], wasm: ['q8', 'fp32'], cpu: ['q8', 'fp32'] },
  };
  it('WebGPU first when an adapter exists, then WASM, then fp32', () => {
    expect(plan(spec, browser(true))).toEqual([
      { device: 'webgpu', dtype: 'fp16' },
      { device: 'wasm', dtype: 'q8' },
      { device: 'wasm', dtype: 'fp32' },
    ]);
    expect(plan(spec, browser(false))).toEqual([
      { device: 'wasm', dtype: 'q8' },
      { device: 'wasm', dtype: 'fp32' },
    ]);
    expect(plan(spec, { ...browser(false), platform: 'node' })).toEqual([
      { device: 'cpu', dtype: 'q8' },
      { device: 'cpu', dtype: 'fp32' },
    ]);
  });
  it('on an adapter without shader-f16, WebGPU gets the first dtype it can run, and the load says what it skipped', () => {
    const f16 = (shaderF16: boolean): ProbeInfo => ({ ...browser(true), webgpu: { ...browser(true).webgpu!, shaderF16 } });
    expect(plan(spec, f16(false))[0]).toEqual({ device: 'webgpu', dtype: 'fp32' });
    expect(unrunnableOnWebgpu(spec, f16(false))).toEqual(['fp16']);
    expect(plan(spec, f16(true))[0]).toEqual({ device: 'webgpu', dtype: 'fp16' });
    expect(unrunnableOnWebgpu(spec, f16(true))).toEqual([]);
    // Only half-precision graphs wanted on WebGPU: no WebGPU attempt at all.
    const halfOnly: ModelSpec = { ...spec, dtypes: { ...spec.dtypes, webgpu: ['q4f16', 'fp16'] } };
    expect(plan(halfOnly, f16(false))).toEqual([
      { device: 'wasm', dtype: 'q8' },
      { device: 'wasm', dtype: 'fp32' },
    ]);
    expect(unrunnableOnWebgpu(halfOnly, f16(false))).toEqual(['q4f16', 'fp16']);
    // WASM forced: WebGPU's dtypes are not the load's business.
    expect(unrunnableOnWebgpu({ ...spec, device: 'wasm' }, f16(false))).toEqual([]);
  });
  it('reads NLI label order by name', () => {
    expect(nliLabelIndex({ 0: 'CONTRADICTION', 1: 'entailment', 2: 'neutral' })).toEqual({ contradiction: 0, entailment: 1, neutral: 2 });
    expect(nliLabelIndex({ 0: 'LABEL_0', 1: 'LABEL_1', 2: 'LABEL_2' })).toBeNull();
  });
});
