import { describe, expect, it } from 'vitest';
import { MODEL_METRICS } from '../../core/metrics/index.ts';
import { defaultFor, REGISTRY, type Device, type Dtype } from '../../runtime/registry.ts';
import { specFromEntry } from '../../runtime/specs.ts';
import type { CachedModel } from '../../runtime/idb-cache.ts';
import {
  adviceFor,
  describeNeeds,
  downloadBytes,
  explainLoadError,
  formatBytes,
  isCached,
  modelMetrics,
  needText,
  sourceText,
  totalDownload,
} from './models.ts';

describe('modelMetrics', () => {
  it('builds every model metric, in table order', () => {
    expect(modelMetrics().map((m) => m.name)).toEqual([...MODEL_METRICS]);
  });
});

describe('needText', () => {
  it('names the models a metric needs, and the rule writer unless a model writes statements', () => {
    const [cap, bertscore] = modelMetrics(['cap', 'bertscore']);
    expect(needText(cap!)).toBe('NLI model + built-in rule statement writer');
    expect(needText(cap!, { modelWriter: true })).toBe('NLI model + statement writer model');
    expect(needText(bertscore!, { modelWriter: true })).toBe('embedder model');
    expect(needText(modelMetrics(['avert'])[0]!)).toBe('reranker model');
  });
});

describe('downloadBytes', () => {
  const nli = REGISTRY.find((e) => e.key === 'nli-xsmall')!;

  it("counts the tokenizer files and only the device's first dtype", () => {
    const small = 1_038 + 8_660_000 + 384;
    expect(downloadBytes(nli, 'wasm')).toBe(small + 87_200_000); // q8
    expect(downloadBytes(nli, 'webgpu')).toBe(small + 143_000_000); // fp16
  });

  it('handles seq2seq files (encoder + merged decoder) and fp32 names', () => {
    const e = {
      dtypes: { webgpu: ['fp32'], wasm: ['q8'], cpu: ['fp32'] } as Record<Device, Dtype[]>,
      files: {
        'config.json': 10,
        'onnx/encoder_model.onnx': 1000,
        'onnx/decoder_model_merged.onnx': 2000,
        'onnx/encoder_model_quantized.onnx': 100,
        'onnx/decoder_model_merged_quantized.onnx': 200,
      },
    };
    expect(downloadBytes(e, 'wasm')).toBe(310);
    expect(downloadBytes(e, 'webgpu')).toBe(3010);
  });

  it('is far below the sum of every listed file for each default model', () => {
    for (const role of ['nli', 'reranker', 'embedder', 'statements'] as const) {
      const e = defaultFor(role);
      const all = Object.values(e.files).reduce((a, b) => a + b, 0);
      expect(downloadBytes(e)).toBeGreaterThan(0);
      expect(downloadBytes(e)).toBeLessThanOrEqual(all);
    }
  });
});

describe('needs and cache', () => {
  const entry = defaultFor('nli');
  const spec = specFromEntry(entry);
  const cachedModel = (revision: string, file: string): CachedModel => ({
    id: entry.id,
    revisions: [revision],
    bytes: 1,
    lastUsed: 0,
    files: [{ url: 'u', revision, file, size: 1, contentType: '', date: 0, lastUsed: 0, inMemory: false }],
  });

  it('knows a model is cached only when its weights at that revision are', () => {
    expect(isCached(spec, [])).toBe(false);
    expect(isCached(spec, [cachedModel(entry.revision, 'onnx/model_quantized.onnx')])).toBe(true);
    expect(isCached(spec, [cachedModel(entry.revision, 'config.json')])).toBe(false);
    expect(isCached(spec, [cachedModel('other', 'onnx/model_quantized.onnx')])).toBe(false);
  });

  it('sums only what still has to be downloaded; unknown sizes give null', () => {
    const lookup = (role: 'nli' | 'reranker' | 'embedder' | 'statements') => {
      const e = defaultFor(role);
      return { spec: specFromEntry(e), entry: e };
    };
    const needs = describeNeeds(['nli', 'embedder'], lookup, 'wasm', [cachedModel(entry.revision, 'onnx/model_quantized.onnx')]);
    expect(needs.map((n) => [n.role, n.cached])).toEqual([
      ['nli', true],
      ['embedder', false],
    ]);
    expect(totalDownload(needs)).toBe(downloadBytes(defaultFor('embedder')));
    const custom = describeNeeds(['nli'], () => ({ spec: { ...spec, id: 'me/my-nli' }, entry: undefined }));
    expect(custom[0]).toMatchObject({ label: 'me/my-nli', bytes: null, cached: false });
    expect(totalDownload(custom)).toBeNull();
  });
});

describe('texts', () => {
  it('formats sizes', () => {
    expect(formatBytes(96_572_000)).toBe('97 MB');
    expect(formatBytes(711_000)).toBe('0.7 MB');
    expect(formatBytes(1_740_000_000)).toBe('1.74 GB');
  });

  it('says where files come from and what to do after a failure', () => {
    expect(sourceText({ kind: 'hub' })).toBe('from huggingface.co');
    expect(sourceText({ kind: 'mirror', url: 'http://m/' })).toContain('http://m/');
    const msg = explainLoadError('nli', { code: 'quota', message: 'storage quota exceeded' });
    expect(msg).toBe(`The NLI model did not load: storage quota exceeded. ${adviceFor('quota')}`);
    expect(adviceFor('not-found')).toMatch(/Models page/);
  });

  it('says only what is true of a network failure: no storage advice', () => {
    const message =
      'cannot download x/y from the hub https://huggingface.co/: could not download config.json from https://huggingface.co/x/y/resolve/r/config.json (Failed to fetch). Check that this computer is online';
    const shown = explainLoadError('nli', { code: 'network', message });
    expect(shown).toBe(`The NLI model did not load: ${message}.`);
    expect(shown).not.toMatch(/private window|storage/);
  });
});
