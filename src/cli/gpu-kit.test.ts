/**
 * The GPU kit (scripts/gpu-kit/): built as `npm run gpu-kit` builds it, under its 60 MB limit, and run end to end
 * from outside the repository on a small graph with the kit's own Node. Its WASM half must give pairs/s for fp32;
 * each WebGPU cell gives pairs/s or says why not (on a machine without a Vulkan GPU: no adapter). Here, with the
 * process-spawning tests, because building it compresses ~150 MB (xz here; gzip where a machine has no xz).
 * Where Chromium is installed (CI installs it), its SwiftShader Vulkan driver gives Dawn a real adapter, so the
 * WebGPU half runs too.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
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
let built: ReturnType<typeof buildKit> | undefined;
const kit = () => (built ??= buildKit(join(dir, 'kit')));
const SWIFTSHADER = '/usr/lib/chromium/vk_swiftshader_icd.json';
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
/** The kit run as on a bare machine: no node on the PATH, the kit brings its own. */
const runKit = (args: string[], env: Record<string, string> = {}) =>
  JSON.parse(
    execFileSync(join(dir, 'kit', 'run.sh'), args, {
      encoding: 'utf8',
      env: { PATH: '/bin:/usr/bin', HOME: dir, ...env },
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  ) as {
    webgpu: { available: boolean; reason?: string; vendor?: string; features?: string[] };
    graph: { layers: number };
    results: KitCell[];
  };

describe('the GPU kit', () => {
  it('fits in 60 MB and runs its WASM half end to end, saying plainly whether WebGPU had an adapter', { timeout: 600_000 }, async () => {
    const { bytes } = await kit();
    expect(bytes).toBeLessThanOrEqual(KIT_LIMIT_BYTES);
    const r = runKit(small);
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

  it.skipIf(!existsSync(SWIFTSHADER))(
    "runs its WebGPU half on an adapter (Chromium's SwiftShader Vulkan)",
    { timeout: 600_000 },
    async () => {
      await kit();
      const r = runKit([...small, '--devices', 'webgpu'], { VK_ICD_FILENAMES: SWIFTSHADER, LD_LIBRARY_PATH: '/usr/lib/chromium' });
      expect(r.webgpu).toMatchObject({ available: true, vendor: 'google' });
      const fp32 = r.results.filter((c) => c.dtype === 'fp32');
      expect(fp32.map((c) => c.batch)).toEqual([1, 2]);
      for (const c of fp32) expect(c.pairsPerSecond, c.error).toBeGreaterThan(0);
      // SwiftShader, like Dawn on NVIDIA's Linux driver, has no shader-f16: the fp16 cells say so instead of failing.
      expect(r.webgpu.features).not.toContain('shader-f16');
      for (const c of r.results.filter((c) => c.dtype === 'fp16')) expect(c.error).toMatch(/no shader-f16/);
    },
  );
});
