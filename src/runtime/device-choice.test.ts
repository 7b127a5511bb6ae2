/**
 * The device chosen by measuring (device-choice.ts, ModelHost.doLoad) with a stubbed runtime: each device's
 * canary batch takes a set time on a fake clock, so which device wins is known. SwiftShader's WebGPU is slower
 * than WASM (the e2e webgpu project checks the real one); a faster WebGPU is chosen; a remembered choice loads one
 * device only; the memory is dropped when the browser, the adapter or the model's revision changes.
 */
import { describe, expect, it } from 'vitest';
import { ModelHost, type RuntimeAdapter, type Session } from './host.ts';
import { memoryStore } from './idb-cache.ts';
import { bestTime, byTime, choiceKey, type StoredChoice } from './device-choice.ts';
import type { CanaryReport, ModelSpec, ProbeInfo } from './messages.ts';
import type { Device, Dtype } from './registry.ts';

const SWIFTSHADER: ProbeInfo = {
  platform: 'browser',
  webgpu: { vendor: 'google', architecture: 'swiftshader', description: 'SwiftShader', isFallbackAdapter: true, shaderF16: false },
  threads: 1,
  crossOriginIsolated: false,
  storage: null,
};

class StubHost extends ModelHost {
  created: string[] = [];
  disposed: string[] = [];
  private clock = 0;
  constructor(
    adapter: RuntimeAdapter,
    /** ms one canary batch takes per device; a device missing here fails to load. */
    private readonly cost: Partial<Record<Device, number>>,
  ) {
    super(adapter);
    this.now = () => this.clock;
  }
  protected override create(spec: ModelSpec, device: Device, dtype: Dtype): Promise<Session> {
    this.created.push(`${device}/${dtype}`);
    if (this.cost[device] === undefined) return Promise.reject(new Error(`${device} is not available`));
    const info = {
      role: spec.role,
      id: spec.id,
      revision: spec.revision,
      device,
      dtype,
      canary: { passed: false, detail: '' },
      fallbacks: [],
      warnings: [],
      loadMs: 0,
    };
    const model = { dispose: async () => void this.disposed.push(`${device}/${dtype}`) };
    return Promise.resolve({ spec, info, tokenizer: {}, model } as unknown as Session);
  }
  protected override runCanary(s: Session): Promise<CanaryReport> {
    this.clock += this.cost[s.info.device]!;
    return Promise.resolve({ passed: true, detail: 'fine' });
  }
}

const spec = (revision = 'r1'): ModelSpec => ({
  role: 'nli',
  id: 'org/nli',
  revision,
  source: { kind: 'hub' },
  dtypes: { webgpu: ['fp32'], wasm: ['q8'] },
});

function adapter(
  store = memoryStore<StoredChoice>(),
  browser = 'Chrome/156',
  probe = SWIFTSHADER,
): RuntimeAdapter & { choices: typeof store } {
  return { platform: 'browser', probe: () => Promise.resolve(probe), prepare: (s) => ({ id: s.id, options: {} }), choices: store, browser };
}

describe('the device is chosen by measuring', () => {
  it('keeps WASM where WebGPU is slower (SwiftShader), says why, and frees the WebGPU session', async () => {
    const a = adapter();
    const host = new StubHost(a, { webgpu: 40, wasm: 6 });
    const r = await host.load(spec());
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.device).toBe('wasm');
    expect(r.value.dtype).toBe('q8');
    expect(r.value.choice).toEqual({
      chosen: 'measured',
      timings: [
        { device: 'wasm', dtype: 'q8', ms: 6 },
        { device: 'webgpu', dtype: 'fp32', ms: 40 },
      ],
    });
    expect(host.disposed).toContain('webgpu/fp32');
    expect(host.disposed).not.toContain('wasm/q8');
    expect(a.choices.map.get(choiceKey(spec()))).toMatchObject({ device: 'wasm', browser: 'Chrome/156', revision: 'r1' });
  });

  it('keeps a faster WebGPU', async () => {
    const host = new StubHost(adapter(), { webgpu: 3, wasm: 30 });
    const r = await host.load(spec());
    expect(r.ok && r.value.device).toBe('webgpu');
    expect(r.ok && r.value.choice?.timings.map((t) => t.device)).toEqual(['webgpu', 'wasm']);
    expect(host.disposed).toEqual(['wasm/q8']);
  });

  it('loads only the remembered device the next time, and says the choice is remembered', async () => {
    const store = memoryStore<StoredChoice>();
    await new StubHost(adapter(store), { webgpu: 40, wasm: 6 }).load(spec());
    const again = new StubHost(adapter(store), { webgpu: 40, wasm: 6 });
    const r = await again.load(spec());
    expect(r.ok && r.value.device).toBe('wasm');
    expect(r.ok && r.value.choice?.chosen).toBe('remembered');
    expect(again.created).toEqual(['wasm/q8']);
  });

  it('measures again when the browser, the adapter or the model revision changed', async () => {
    const store = memoryStore<StoredChoice>();
    await new StubHost(adapter(store), { webgpu: 40, wasm: 6 }).load(spec());
    const other = { ...SWIFTSHADER, webgpu: { ...SWIFTSHADER.webgpu!, vendor: 'nvidia', architecture: 'ada', description: 'RTX' } };
    for (const [a, s] of [
      [adapter(store, 'Chrome/157'), spec()],
      [adapter(store, 'Chrome/156', other), spec()],
      [adapter(store), spec('r2')],
    ] as const) {
      const host = new StubHost(a, { webgpu: 2, wasm: 6 });
      const r = await host.load(s);
      expect(r.ok && r.value.choice?.chosen).toBe('measured');
      expect(r.ok && r.value.device).toBe('webgpu');
      expect(host.created.sort()).toEqual(['wasm/q8', 'webgpu/fp32']);
      // The stale memory was replaced by this measurement.
      expect(store.map.get(choiceKey(s))).toMatchObject({ device: 'webgpu' });
    }
  });

  it('measures nothing for a forced device, a browser without WebGPU, or a device that fails', async () => {
    const forced = new StubHost(adapter(), { webgpu: 40, wasm: 6 });
    const f = await forced.load({ ...spec(), device: 'webgpu' });
    expect(f.ok && f.value.device).toBe('webgpu');
    expect(f.ok && f.value.choice).toBeUndefined();
    expect(forced.created).toEqual(['webgpu/fp32']);

    const noGpu = new StubHost(adapter(memoryStore(), 'Chrome/156', { ...SWIFTSHADER, webgpu: null }), { wasm: 6 });
    const n = await noGpu.load(spec());
    expect(n.ok && n.value.device).toBe('wasm');
    expect(n.ok && n.value.choice).toBeUndefined();

    const broken = new StubHost(adapter(), { wasm: 6 });
    const b = await broken.load(spec());
    expect(b.ok && b.value.device).toBe('wasm');
    expect(b.ok && b.value.choice).toBeUndefined();
    expect(b.ok && b.value.fallbacks.join()).toMatch(/webgpu\/fp32/);
  });
});

describe('timing', () => {
  it('keeps the best of the runs, and orders fastest first with ties to the preferred device', async () => {
    let t = 0;
    const costs = [9, 4, 7];
    expect(
      await bestTime(
        () => Promise.resolve((t += costs.shift()!)),
        () => t,
      ),
    ).toBe(4);
    expect(
      byTime([
        { device: 'webgpu', dtype: 'fp32', ms: 5 },
        { device: 'wasm', dtype: 'q8', ms: 5 },
      ])[0]!.device,
    ).toBe('webgpu');
  });
});
