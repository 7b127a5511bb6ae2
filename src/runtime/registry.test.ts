import { describe, expect, it } from 'vitest';
import { DTYPE_SUFFIX, REGISTRY, type Dtype, type Role } from './registry.ts';

// The registry is hand-copied from Hub pages; these checks catch the copying mistakes that would
// otherwise only show up as a failed download or a refused model on a user's machine.

function weightFiles(role: Role, dtype: Dtype): string[] {
  const bases = role === 'statements' ? ['encoder_model', 'decoder_model_merged'] : ['model'];
  return bases.map((b) => `onnx/${b}${DTYPE_SUFFIX[dtype]}.onnx`);
}

describe('model registry', () => {
  it('has unique keys and exactly one default per role', () => {
    expect(new Set(REGISTRY.map((e) => e.key)).size).toBe(REGISTRY.length);
    for (const role of ['nli', 'reranker', 'embedder', 'statements'] as const) {
      expect(
        REGISTRY.filter((e) => e.role === role && e.default === true).map((e) => e.key),
        role,
      ).toHaveLength(1);
    }
  });

  it.each(REGISTRY.map((e) => [e.key, e] as const))('%s: pinned revision, files for every listed dtype, hub sources', (_key, e) => {
    expect(e.revision).toMatch(/^[0-9a-f]{40}$/);
    expect(e.id).toMatch(/^[\w.-]+\/[\w.-]+$/);
    for (const name of ['config.json', 'tokenizer.json', 'tokenizer_config.json']) expect(e.files, name).toHaveProperty([name]);
    for (const dtype of new Set(Object.values(e.dtypes).flat())) {
      for (const file of weightFiles(e.role, dtype)) expect(Object.keys(e.files), `${dtype} needs ${file}`).toContain(file);
    }
    for (const bytes of Object.values(e.files)) expect(bytes).toBeGreaterThan(0);
    expect(e.source.length).toBeGreaterThan(0);
    for (const url of e.source) expect(url.startsWith(`https://huggingface.co/`), url).toBe(true);
  });

  it('lists SHA-256 only for files the entry fetches, as 64 lowercase hex digits, never twice', () => {
    const seen = new Map<string, string>();
    for (const e of REGISTRY) {
      for (const [file, hash] of Object.entries(e.sha256 ?? {})) {
        expect(Object.keys(e.files), `${e.key}: ${file}`).toContain(file);
        expect(hash, `${e.key}: ${file}`).toMatch(/^[0-9a-f]{64}$/);
        // Two different files with one hash would mean a hash pasted into the wrong place.
        expect(seen.get(hash), `${e.key}: ${file}`).toBeUndefined();
        seen.set(hash, `${e.key}: ${file}`);
      }
    }
    expect(seen.size).toBeGreaterThan(0);
  });

  it('names entailment, neutral and contradiction for every NLI entry, at distinct indices', () => {
    for (const e of REGISTRY.filter((x) => x.role === 'nli')) {
      const labels = e.labels ?? {};
      expect(Object.keys(labels).sort(), e.key).toEqual(['contradiction', 'entailment', 'neutral']);
      expect(new Set(Object.values(labels)).size, e.key).toBe(3);
    }
  });
});
