/** After a model worker crash: the same roles on WASM, and (when allowed) the next smaller registry model. */
import { describe, expect, it } from 'vitest';
import { fallbackSpecs } from './fallback.ts';
import { REGISTRY } from './registry.ts';
import { specFromEntry } from './specs.ts';
import type { ModelSpec } from './messages.ts';

const entry = (key: string) => REGISTRY.find((e) => e.key === key)!;
const source = { kind: 'mirror' as const, url: 'http://localhost:1/' };

describe('fallbackSpecs', () => {
  it('moves every role to WASM and keeps the models unless a smaller one is allowed', () => {
    const specs = { nli: { ...specFromEntry(entry('nli-base')), source, device: 'webgpu' as const } };
    const fb = fallbackSpecs(specs, false);
    expect(fb.specs.nli).toMatchObject({ id: entry('nli-base').id, device: 'wasm', source });
    expect(fb.smaller).toEqual([]);
  });

  it('takes the next smaller registry model of the role, from the same source', () => {
    const specs = {
      nli: { ...specFromEntry(entry('nli-base')), source },
      reranker: { ...specFromEntry(entry('rerank-minilm-l6')), source },
    };
    const fb = fallbackSpecs(specs, true);
    expect(fb.specs.nli).toMatchObject({ id: entry('nli-small').id, device: 'wasm', source });
    // The smallest reranker has nothing below it.
    expect(fb.specs.reranker).toMatchObject({ id: entry('rerank-minilm-l6').id, device: 'wasm' });
    expect(fb.smaller).toEqual([{ role: 'nli', from: entry('nli-base').label, to: entry('nli-small').label }]);
  });

  it('a model outside the registry stays, on WASM', () => {
    const spec = { id: 'someone/custom-nli', revision: 'main', source } as ModelSpec;
    expect(fallbackSpecs({ nli: spec }, true).specs.nli).toMatchObject({ id: 'someone/custom-nli', device: 'wasm' });
  });
});
