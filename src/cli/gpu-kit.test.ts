/**
 * The GPU kit (scripts/gpu-kit/): built as `npm run gpu-kit` builds it, under its 60 MB limit, and run end to end
 * from outside the repository on a small graph with the kit's own Node. Its WASM half must give pairs/s for fp32;
 * each WebGPU cell gives pairs/s or says why not (on a machine without a Vulkan GPU: no adapter). Here, with the
 * process-spawning tests, because building it compresses ~150 MB (xz here; gzip where a machine has no xz).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildKit, KIT_LIMIT_BYTES } from '../../scripts/gpu-kit/build.ts';

interface KitCell {
  device: string;
  dtype: string;
  batch: number;
  pairsPerSecond?: number;
  error?: string;
}

const dir = mkdtempSync(join(tmpdir(), 'verity-gpu-kit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the GPU kit', () => {
  it('fits in 60 MB and runs its WASM half end to end, saying plainly whether WebGPU had an adapter', { timeout: 300_000 }, async () => {
    const { bytes } = await buildKit(join(dir, 'kit'));
    expect(bytes).toBeLessThanOrEqual(KIT_LIMIT_BYTES);
    const small = [
      '--layers',
      '1',
      '--hidden',
      '32',
      '--heads',
      '2',
      '--vocab',
      '500',
      '--seq',
      '8',
      '--batches',
      '1,2',
      '--runs',
      '2',
      '--warmup-s',
      '0.1',
    ];
    // No node on the PATH: the kit brings its own.
    const out = execFileSync(join(dir, 'kit', 'run.sh'), small, {
      encoding: 'utf8',
      env: { PATH: '/bin:/usr/bin', HOME: dir },
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const r = JSON.parse(out) as { webgpu: { available: boolean; reason?: string }; graph: { layers: number }; results: KitCell[] };
    expect(r.graph.layers).toBe(1);
    expect(r.results).toHaveLength(2 * 2 * 2);
    const wasm32 = r.results.filter((c) => c.device === 'wasm' && c.dtype === 'fp32');
    expect(wasm32.map((c) => c.batch)).toEqual([1, 2]);
    for (const c of wasm32) expect(c.pairsPerSecond).toBeGreaterThan(0);
    for (const c of r.results) expect(Number.isFinite(c.pairsPerSecond) !== (typeof c.error === 'string')).toBe(true);
    const gpu = r.results.filter((c) => c.device === 'webgpu');
    if (!r.webgpu.available) {
      expect(r.webgpu.reason).toMatch(/adapter|Dawn/);
      for (const c of gpu) expect(c.error).toBe(r.webgpu.reason);
    }
  });
});
