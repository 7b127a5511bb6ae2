/**
 * The tiny real-format fixture models (scripts/fixtures/generate.ts) load through transformers.js's
 * normal local-model path and reproduce the independent float64 reference (scripts/fixtures/reference.ts).
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AutoModelForSeq2SeqLM,
  AutoModelForSequenceClassification,
  AutoTokenizer,
  env,
  pipeline,
  type Tensor,
} from '@huggingface/transformers';
import * as ort from 'onnxruntime-node';
import { buildBertGraph, initBertWeights } from '../../scripts/fixtures/bert.ts';
import { toHalf } from '../../scripts/fixtures/onnx-proto.ts';
import {
  DEFAULT_OUT_DIR,
  type GenerateResult,
  NLI_LABELS,
  T5_MAX_NEW_TOKENS,
  TOLERANCE,
  generateFixtures,
  readJson,
  removeFixtures,
} from '../../scripts/fixtures/generate.ts';

const MODELS = DEFAULT_OUT_DIR;
const ROOT = join(DEFAULT_OUT_DIR, '../..');
const NLI_MODELS = ['tiny-nli', 'tiny-nli-reordered', 'tiny-nli-nolabels'] as const;
const ALL_MODELS = [...NLI_MODELS, 'tiny-reranker', 'tiny-embedder', 'tiny-t5'] as const;

interface NliExpected {
  id2label: Record<string, string>;
  cases: {
    premise: string;
    hypothesis: string;
    input_ids: number[];
    token_type_ids: number[];
    logits: number[];
    probs: number[];
    probs_by_label: Record<string, number>;
  }[];
}
interface RerankExpected {
  cases: { query: string; passage: string; input_ids: number[]; token_type_ids: number[]; logit: number }[];
}
interface EmbedExpected {
  cases: { text: string; input_ids: number[]; embedding: number[] }[];
}
interface T5Expected {
  max_new_tokens: number;
  cases: { input: string; input_ids: number[]; sequence: number[]; text: string }[];
}

const expected = <T>(model: string): T => readJson<T>(join(MODELS, model, 'expected.json'));
const ids = (t: Tensor): number[][] => (t.tolist() as bigint[][]).map((row) => row.map(Number));
const softmax = (xs: number[]): number[] => {
  const m = Math.max(...xs);
  const e = xs.map((x) => Math.exp(x - m));
  const z = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / z);
};
const expectClose = (actual: number[], want: number[], tol = TOLERANCE) => {
  expect(actual.length).toBe(want.length);
  actual.forEach((a, i) => expect(Math.abs(a - want[i]!), `index ${i}: ${a} vs ${want[i]}`).toBeLessThanOrEqual(tol));
};

let first: GenerateResult;
let second: GenerateResult;
let firstDir: string;
let secondDir: string;
let cliDir: string;

// test/models itself is generated once for the whole run by the global setup (test/global-setup.ts);
// regenerating it here would race with other test files that read it.
beforeAll(() => {
  firstDir = mkdtempSync(join(tmpdir(), 'verity-fixtures-'));
  first = generateFixtures(firstDir);
  secondDir = mkdtempSync(join(tmpdir(), 'verity-fixtures-'));
  second = generateFixtures(secondDir);
  // a third run in a separate process through the CLI that `npm run fixtures` uses
  cliDir = mkdtempSync(join(tmpdir(), 'verity-fixtures-cli-'));
  const cli = spawnSync(join(ROOT, 'node_modules/.bin/tsx'), [join(ROOT, 'scripts/fixtures/generate.ts'), '--out', cliDir], {
    encoding: 'utf8',
  });
  if (cli.status !== 0) throw new Error(`fixture CLI failed: ${cli.stderr}`);
  env.allowLocalModels = true;
  env.allowRemoteModels = false;
  env.localModelPath = `${MODELS}/`;
}, 600_000);

afterAll(() => {
  removeFixtures(firstDir);
  removeFixtures(secondDir);
  removeFixtures(cliDir);
});

describe('fixture generator', () => {
  it('is small and writes the expected files', () => {
    expect(first.totalBytes).toBeLessThan(2_000_000);
    for (const m of ALL_MODELS) {
      for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'expected.json']) {
        expect(existsSync(join(MODELS, m, f)), `${m}/${f}`).toBe(true);
      }
      const onnx = m === 'tiny-t5' ? ['encoder_model', 'decoder_model_merged'] : ['model'];
      for (const base of onnx) {
        const fp32 = readFileSync(join(MODELS, m, 'onnx', `${base}.onnx`));
        const q8 = readFileSync(join(MODELS, m, 'onnx', `${base}_quantized.onnx`));
        expect(q8.equals(fp32), `${m}/${base}_quantized.onnx is a byte copy`).toBe(true);
      }
    }
  });

  it('is deterministic: three runs (two in-process, one via the CLI) give byte-identical files', () => {
    const hashes = (r: GenerateResult) => Object.fromEntries(r.files.map((f) => [f.path, f.sha256]));
    expect(hashes(second)).toEqual(hashes(first));
    const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
    for (const f of first.files) {
      expect(sha(join(MODELS, f.path)), f.path).toBe(f.sha256);
      expect(sha(join(secondDir, f.path)), f.path).toBe(f.sha256);
      expect(sha(join(cliDir, f.path)), f.path).toBe(f.sha256);
    }
  });

  it('vocab sizes in config.json equal the tokenizer vocab sizes', async () => {
    for (const m of ALL_MODELS) {
      const config = readJson<{ vocab_size: number }>(join(MODELS, m, 'config.json'));
      const tok = await AutoTokenizer.from_pretrained(m);
      expect(tok.get_vocab().size, m).toBe(config.vocab_size);
    }
  });
});

describe('ONNX graphs load in onnxruntime-node', () => {
  const session = (m: string, file: string) => ort.InferenceSession.create(join(MODELS, m, 'onnx', file));

  it('BERT-style models have the HF export inputs/outputs', async () => {
    for (const m of [...NLI_MODELS, 'tiny-reranker', 'tiny-embedder']) {
      const s = await session(m, 'model.onnx');
      expect([...s.inputNames].sort()).toEqual(['attention_mask', 'input_ids', 'token_type_ids']);
      expect(s.outputNames).toEqual([m === 'tiny-embedder' ? 'last_hidden_state' : 'logits']);
      await s.release();
    }
  });

  /** A float16's value from its bits (IEEE 754 binary16). */
  const fromHalf = (h: number): number =>
    (h & 0x8000 ? -1 : 1) * ((h & 0x7c00) === 0 ? (h & 0x3ff) * 2 ** -24 : (1 + (h & 0x3ff) / 1024) * 2 ** (((h >> 10) & 0x1f) - 15));

  it("the GPU kit's fp16 BERT graph runs and agrees with its fp32 graph within half precision", async () => {
    // Half-precision bits checked against IEEE 754 binary16 values worked out by hand.
    const halves: [number, number][] = [
      [1, 0x3c00],
      [-2, 0xc000],
      [0.1, 0x2e66],
      [1 / 3, 0x3555],
      [65504, 0x7bff],
      [65520, 0x7c00],
      [2 ** -24, 0x0001],
      [2 ** -14, 0x0400],
      [0, 0],
    ];
    for (const [x, bits] of halves) expect(toHalf(x), String(x)).toBe(bits);
    const dims = {
      vocabSize: 50,
      hidden: 16,
      layers: 2,
      heads: 2,
      intermediate: 32,
      maxPositions: 16,
      typeVocabSize: 2,
      layerNormEps: 1e-12,
    };
    const w = initBertWeights(dims, 7, 3);
    const run = async (float16: boolean) => {
      const s = await ort.InferenceSession.create(buildBertGraph(w, 'sequence-classification', { float16 }).encode('test').toBytes());
      const n = 2 * 5;
      const t = (v: (i: number) => bigint) =>
        new ort.Tensor(
          'int64',
          BigInt64Array.from({ length: n }, (_, i) => v(i)),
          [2, 5],
        );
      const out = (
        await s.run({
          input_ids: t((i) => BigInt(1 + ((i * 7) % 49))),
          attention_mask: t((i) => (i === 9 ? 0n : 1n)),
          token_type_ids: t(() => 0n),
        })
      ).logits!;
      await s.release();
      // onnxruntime-node hands float16 back as raw bits (a Uint16Array) where the runtime has no Float16Array.
      const bits = out.data instanceof Uint16Array;
      return { type: out.type, data: Array.from(out.data as ArrayLike<number>, (v) => (bits ? fromHalf(v) : v)) };
    };
    const [full, half] = [await run(false), await run(true)];
    expect([full.type, half.type]).toEqual(['float32', 'float16']);
    full.data.forEach((x, i) => expect(Math.abs(half.data[i]! - x)).toBeLessThan(0.02 * Math.max(1, Math.abs(x))));
  });

  it('T5 encoder and merged decoder have the Optimum seq2seq interface', async () => {
    const enc = await session('tiny-t5', 'encoder_model.onnx');
    expect(enc.inputNames).toEqual(['input_ids', 'attention_mask']);
    expect(enc.outputNames).toEqual(['last_hidden_state']);
    const dec = await session('tiny-t5', 'decoder_model_merged.onnx');
    expect(dec.inputNames).toEqual([
      'encoder_attention_mask',
      'input_ids',
      'encoder_hidden_states',
      'past_key_values.0.decoder.key',
      'past_key_values.0.decoder.value',
      'past_key_values.0.encoder.key',
      'past_key_values.0.encoder.value',
      'use_cache_branch',
    ]);
    expect(dec.outputNames).toEqual([
      'logits',
      'present.0.decoder.key',
      'present.0.decoder.value',
      'present.0.encoder.key',
      'present.0.encoder.value',
    ]);
    // transformers.js builds the empty first-step cache from this metadata (batch_size -> B, other symbols -> 0)
    const pastMeta = dec.inputMetadata.find((m) => m.name === 'past_key_values.0.decoder.key');
    expect(pastMeta && pastMeta.isTensor ? pastMeta.shape : null).toEqual(['batch_size', 2, 'past_decoder_sequence_length', 16]);

    // cached decoding == full recomputation (the If branch on use_cache_branch and the KV concat)
    const i64 = (xs: number[], dims: number[]) => new ort.Tensor('int64', BigInt64Array.from(xs.map(BigInt)), dims);
    const src = [5, 6, 7, 1];
    const { last_hidden_state: encOut } = await enc.run({ input_ids: i64(src, [1, 4]), attention_mask: i64([1, 1, 1, 1], [1, 4]) });
    const empty = new ort.Tensor('float32', new Float32Array(0), [1, 2, 0, 16]);
    const base = { encoder_attention_mask: i64([1, 1, 1, 1], [1, 4]), encoder_hidden_states: encOut! };
    const full = await dec.run({
      ...base,
      input_ids: i64([0, 9, 10], [1, 3]),
      'past_key_values.0.decoder.key': empty,
      'past_key_values.0.decoder.value': empty,
      'past_key_values.0.encoder.key': empty,
      'past_key_values.0.encoder.value': empty,
      use_cache_branch: new ort.Tensor('bool', [false], [1]),
    });
    const step1 = await dec.run({
      ...base,
      input_ids: i64([0, 9], [1, 2]),
      'past_key_values.0.decoder.key': empty,
      'past_key_values.0.decoder.value': empty,
      'past_key_values.0.encoder.key': empty,
      'past_key_values.0.encoder.value': empty,
      use_cache_branch: new ort.Tensor('bool', [false], [1]),
    });
    const step2 = await dec.run({
      ...base,
      input_ids: i64([10], [1, 1]),
      'past_key_values.0.decoder.key': step1['present.0.decoder.key']!,
      'past_key_values.0.decoder.value': step1['present.0.decoder.value']!,
      'past_key_values.0.encoder.key': step1['present.0.encoder.key']!,
      'past_key_values.0.encoder.value': step1['present.0.encoder.value']!,
      use_cache_branch: new ort.Tensor('bool', [true], [1]),
    });
    const V = step2.logits!.dims[2]!;
    expect(step2['present.0.decoder.key']!.dims).toEqual([1, 2, 3, 16]);
    const fullLast = Array.from(full.logits!.data as Float32Array).slice(2 * V, 3 * V);
    expectClose(Array.from(step2.logits!.data as Float32Array), fullLast, 1e-5);
    await enc.release();
    await dec.release();
  });

  const python = '/usr/bin/python3';
  const hasOnnx = existsSync(python) && spawnSync(python, ['-c', 'import onnx'], { stdio: 'ignore' }).status === 0;
  it.skipIf(!hasOnnx)('pass onnx.checker.check_model(full_check=True) (Debian python3-onnx, optional)', () => {
    const files = ALL_MODELS.flatMap((m) =>
      (m === 'tiny-t5' ? ['encoder_model.onnx', 'decoder_model_merged.onnx'] : ['model.onnx']).map((f) => join(MODELS, m, 'onnx', f)),
    );
    const code =
      'import sys, onnx\nfor p in sys.argv[1:]:\n    onnx.checker.check_model(onnx.load(p), full_check=True)\nprint("ok", len(sys.argv) - 1)';
    const res = spawnSync(python, ['-c', code, ...files], { encoding: 'utf8' });
    expect(res.stderr).toBe('');
    expect(res.stdout.trim()).toBe(`ok ${files.length}`);
  });
});

describe('transformers.js loads the fixtures the real way', () => {
  for (const name of NLI_MODELS) {
    it(`${name}: AutoTokenizer + AutoModelForSequenceClassification on text pairs`, async () => {
      const exp = expected<NliExpected>(name);
      const tokenizer = await AutoTokenizer.from_pretrained(name);
      const model = await AutoModelForSequenceClassification.from_pretrained(name, { device: 'cpu', dtype: 'fp32' });
      const config = model.config as unknown as { id2label: Record<string, string> };
      expect(config.id2label).toEqual(exp.id2label);

      // tokenization matches the independent WordPiece in scripts/fixtures/vocab.ts
      for (const c of exp.cases) {
        const enc = tokenizer(c.premise, { text_pair: c.hypothesis });
        expect(ids(enc.input_ids)[0]).toEqual(c.input_ids);
        expect(ids(enc.token_type_ids as Tensor)[0]).toEqual(c.token_type_ids);
      }

      // one padded batch: the attention mask must make padding irrelevant
      const batch = tokenizer(
        exp.cases.map((c) => c.premise),
        { text_pair: exp.cases.map((c) => c.hypothesis), padding: true, truncation: true },
      );
      const { logits } = (await model(batch)) as { logits: Tensor };
      const rows = logits.tolist() as number[][];
      rows.forEach((row, i) => {
        const c = exp.cases[i]!;
        expectClose(row, c.logits);
        const probs = softmax(row);
        expectClose(probs, c.probs);
        for (const [idx, label] of Object.entries(config.id2label)) {
          expect(Math.abs(probs[Number(idx)]! - c.probs_by_label[label]!)).toBeLessThanOrEqual(TOLERANCE);
        }
      });
      await model.dispose();
    });
  }

  it('tiny-nli-reordered gives the same probability per label name as tiny-nli, at different indices', () => {
    const a = expected<NliExpected>('tiny-nli');
    const b = expected<NliExpected>('tiny-nli-reordered');
    expect(Object.values(b.id2label)).not.toEqual(Object.values(a.id2label));
    a.cases.forEach((c, i) => {
      for (const label of NLI_LABELS) expect(b.cases[i]!.probs_by_label[label]).toBeCloseTo(c.probs_by_label[label]!, 8);
      expect(b.cases[i]!.probs).not.toEqual(c.probs);
    });
    const nolabels = expected<NliExpected>('tiny-nli-nolabels');
    expect(Object.values(nolabels.id2label)).toEqual(['LABEL_0', 'LABEL_1', 'LABEL_2']);
  });

  it('tiny-reranker: one logit per (query, passage)', async () => {
    const exp = expected<RerankExpected>('tiny-reranker');
    const tokenizer = await AutoTokenizer.from_pretrained('tiny-reranker');
    const model = await AutoModelForSequenceClassification.from_pretrained('tiny-reranker', { device: 'cpu', dtype: 'fp32' });
    expect((model.config as unknown as { id2label: object }).id2label).toEqual({ 0: 'LABEL_0' });
    for (const c of exp.cases) {
      const enc = tokenizer(c.query, { text_pair: c.passage });
      expect(ids(enc.input_ids)[0]).toEqual(c.input_ids);
      const { logits } = (await model(enc)) as { logits: Tensor };
      expect(logits.dims).toEqual([1, 1]);
      expectClose([Number(logits.data[0])], [c.logit]);
    }
    const batch = tokenizer(
      exp.cases.map((c) => c.query),
      { text_pair: exp.cases.map((c) => c.passage), padding: true, truncation: true },
    );
    const { logits } = (await model(batch)) as { logits: Tensor };
    expectClose(
      Array.from(logits.data as Float32Array),
      exp.cases.map((c) => c.logit),
    );
    await model.dispose();
  });

  it("tiny-embedder: pipeline('feature-extraction') with mean pooling + normalize", async () => {
    const exp = expected<EmbedExpected>('tiny-embedder');
    const extractor = await pipeline('feature-extraction', 'tiny-embedder', { device: 'cpu', dtype: 'fp32' });
    const out = await extractor(
      exp.cases.map((c) => c.text),
      { pooling: 'mean', normalize: true },
    );
    expect(out.dims).toEqual([exp.cases.length, 32]);
    (out.tolist() as number[][]).forEach((row, i) => expectClose(row, exp.cases[i]!.embedding));
    for (const c of exp.cases) expect(ids(extractor.tokenizer(c.text).input_ids)[0]).toEqual(c.input_ids);
    await extractor.dispose();
  });

  it("tiny-t5: pipeline('text2text-generation') reproduces the reference greedy decoding", async () => {
    const exp = expected<T5Expected>('tiny-t5');
    expect(exp.max_new_tokens).toBe(T5_MAX_NEW_TOKENS);
    const generator = await pipeline('text2text-generation', 'tiny-t5', { device: 'cpu', dtype: 'fp32' });
    for (const c of exp.cases) {
      expect(ids(generator.tokenizer(c.input).input_ids)[0]).toEqual(c.input_ids);
      const [out] = (await generator(c.input, { max_new_tokens: exp.max_new_tokens })) as { generated_text: string }[];
      expect(out!.generated_text).toBe(c.text);
      expect(generator.tokenizer.decode(c.sequence, { skip_special_tokens: true })).toBe(c.text);
    }
    await generator.dispose();
  });

  it('tiny-t5: AutoModelForSeq2SeqLM.generate returns the reference token ids (fp32 and q8 file)', async () => {
    const exp = expected<T5Expected>('tiny-t5');
    const tokenizer = await AutoTokenizer.from_pretrained('tiny-t5');
    for (const dtype of ['fp32', 'q8'] as const) {
      const model = await AutoModelForSeq2SeqLM.from_pretrained('tiny-t5', { device: 'cpu', dtype });
      for (const c of exp.cases) {
        const seq = (await model.generate({ ...tokenizer(c.input), max_new_tokens: exp.max_new_tokens })) as Tensor;
        expect(ids(seq)[0], `${dtype}: ${c.input}`).toEqual(c.sequence);
      }
      // padded batch (the shorter input is padded; its encoder mask matters). generate() keeps
      // stepping a row after its </s> until every row is done, so compare up to the reference length.
      const batch = tokenizer(
        exp.cases.map((c) => c.input),
        { padding: true },
      );
      const seqs = ids((await model.generate({ ...batch, max_new_tokens: exp.max_new_tokens })) as Tensor);
      exp.cases.forEach((c, i) => expect(seqs[i]!.slice(0, c.sequence.length), `${dtype} batch row ${i}`).toEqual(c.sequence));
      await model.dispose();
    }
  });

  it("a dtype: 'q8' load finds onnx/model_quantized.onnx", async () => {
    const exp = expected<NliExpected>('tiny-nli');
    const tokenizer = await AutoTokenizer.from_pretrained('tiny-nli');
    const model = await AutoModelForSequenceClassification.from_pretrained('tiny-nli', { device: 'cpu', dtype: 'q8' });
    const c = exp.cases[0]!;
    const { logits } = (await model(tokenizer(c.premise, { text_pair: c.hypothesis }))) as { logits: Tensor };
    expectClose(Array.from(logits.data as Float32Array), c.logits);
    await model.dispose();
  });
});

it('fixture files stay small', () => {
  const size = (m: string, f: string) => statSync(join(MODELS, m, f)).size;
  expect(size('tiny-nli', 'onnx/model.onnx')).toBeLessThan(200_000);
  expect(size('tiny-t5', 'onnx/decoder_model_merged.onnx')).toBeLessThan(200_000);
});
