/**
 * The browser half of `npm run bench:nli`: the same real-size BERT NLI model and pairs, run by the app's model
 * worker in Debian Chromium (headless, Playwright): WASM with threads (cross-origin isolated, N threads), WASM
 * with one thread, and WebGPU on SwiftShader (--enable-unsafe-webgpu; reported only, on a subset — it is a
 * CPU emulation of a GPU), each in fp32 or q8 (onnx/model_quantized.onnx). The pairs are sent deduplicated and
 * length-sorted, one batch per call, as the runtime does; a subset also runs naively (one pair per call) for
 * the batching ratio in the browser. Servers: `vite preview` of dist/ and e2e/model-mirror.mjs over bench/out/,
 * both on loopback.
 *
 * Batch sizes: the worker's ModelHost splits every call into model batches of its `batchSize` (16 by default,
 * src/runtime/host.ts). For a batch size above 16 the bench serves a copy of dist/ (bench/out/app-batch-N/)
 * whose built model worker has that one default replaced (`batchSize??16` → `batchSize??N`, checked to occur
 * exactly once, and checked in the served file) — nothing else in the app changes.
 *
 * Every timed run records how much CPU other processes (not this bench's process tree) used meanwhile
 * (/proc/stat minus our tree), so a run disturbed by a concurrent build can be spotted and repeated.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { repoRoot } from '../scripts/evouna.ts';
import type { NliPair } from '../src/core/capabilities.ts';

const APP = 'http://127.0.0.1:4310/';
const MIRROR = 'http://127.0.0.1:4311/';
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** The worker host's default rows per model call (src/runtime/host.ts). */
export const WORKER_BATCH = 16;
const PATCH_FROM = `batchSize??${WORKER_BATCH}`;

async function waitFor(url: string, ms = 60_000): Promise<void> {
  const until = Date.now() + ms;
  let last = '';
  while (Date.now() < until) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
      last = `HTTP ${r.status}`;
    } catch (e) {
      last = String((e as Error & { cause?: unknown }).cause ?? e);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not come up (${last})`);
}

// ---------- CPU used by other processes ----------

const HZ = 100; // USER_HZ on Linux
interface CpuSnap {
  t: number;
  busy: number;
  steal: number;
  ours: number;
}

/** utime+stime+cutime+cstime of this process and all its descendants (Chromium, vite preview, the mirror). */
function treeTicks(): number {
  const procs = new Map<number, { ppid: number; ticks: number }>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const s = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
      // after the comm: state(3) ppid(4) … utime(14) stime(15) cutime(16) cstime(17) → indexes 0,1,…,11..14
      procs.set(Number(d), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) });
    } catch {
      // gone meanwhile
    }
  }
  const children = new Map<number, number[]>();
  for (const [pid, p] of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), pid]);
  let sum = 0;
  const stack = [process.pid];
  while (stack.length) {
    const pid = stack.pop()!;
    sum += procs.get(pid)?.ticks ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return sum;
}

export function cpuSnap(): CpuSnap {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal
  return { t: performance.now(), busy: f[0]! + f[1]! + f[2]! + f[5]! + f[6]!, steal: f[7] ?? 0, ours: treeTicks() };
}

export interface Disturbance {
  seconds: number;
  /** Average cores used by processes outside this bench's process tree during the run. */
  otherCores: number;
  /** Average cores stolen by the hypervisor during the run. */
  stealCores: number;
}

export function disturbance(a: CpuSnap, b: CpuSnap): Disturbance {
  const seconds = (b.t - a.t) / 1000;
  const other = Math.max(0, b.busy - a.busy - (b.ours - a.ours)) / HZ / seconds;
  return { seconds, otherCores: other, stealCores: (b.steal - a.steal) / HZ / seconds };
}

// ---------- runs ----------

export interface BrowserFigures {
  label: string;
  pairs: number;
  pairsPerSecond: number | null;
  device?: string;
  dtype?: string;
  threads?: number;
  /** Pairs per call (naive: 1) and rows per model call. */
  batchSize?: number;
  error?: string;
  disturbance?: Disturbance;
}

export interface BrowserRunSpec {
  label: string;
  pairs: NliPair[];
  device: 'wasm' | 'webgpu';
  dtype: 'fp32' | 'q8';
  /** null: the app's default (all cores when cross-origin isolated). */
  threads: number | null;
  /** One pair per call, in input order, duplicates included. */
  naive?: boolean;
  /** Rows per call and per model call (default 16, the worker's default). */
  batchSize?: number;
}

/** Deduplicated, length-sorted batches — the order the runtime feeds a model in. */
export function batches(pairs: NliPair[], size: number): NliPair[][] {
  const seen = new Set<string>();
  const unique = pairs.filter((p) => {
    const k = `${p.premise}\u0000${p.hypothesis}`;
    return !seen.has(k) && (seen.add(k), true);
  });
  unique.sort((a, b) => a.premise.length + a.hypothesis.length - (b.premise.length + b.hypothesis.length));
  const out: NliPair[][] = [];
  for (let i = 0; i < unique.length; i += size) out.push(unique.slice(i, i + size));
  return out;
}

type Api = {
  setWasmThreads(n: number): Promise<number>;
  load(
    spec: unknown,
  ): Promise<{ ok: boolean; value?: { device: string; dtype: string; fallbacks: string[] }; error?: { message: string } }>;
  nli(pairs: unknown[]): Promise<{ ok: boolean; error?: { message: string } }>;
  probe(): Promise<{ threads: number }>;
};

async function runOnPage(page: Page, spec: BrowserRunSpec, modelName: string): Promise<BrowserFigures> {
  const size = spec.naive ? 1 : (spec.batchSize ?? WORKER_BATCH);
  const base = { label: spec.label, pairs: spec.pairs.length, batchSize: size };
  await page.goto(`${APP}#/models`);
  await page.waitForFunction(() => '__verityModels' in globalThis, undefined, { timeout: 30_000 });
  const groups = spec.naive ? spec.pairs.map((p) => [p]) : batches(spec.pairs, size);
  const loaded = await page.evaluate(
    async ({ device, dtype, threads, modelName, mirror, warm }) => {
      const api = (globalThis as unknown as { __verityModels: Api }).__verityModels;
      const used = threads === null ? (await api.probe()).threads : await api.setWasmThreads(threads);
      const r = await api.load({
        role: 'nli',
        id: modelName,
        revision: 'main',
        source: { kind: 'mirror', url: mirror },
        device,
        dtypes: { [device]: [dtype] },
        skipCanary: true,
      });
      if (!r.ok) return { error: r.error!.message };
      const w = await api.nli(warm); // warm-up (WebGPU compiles its shaders here)
      if (!w.ok) return { error: w.error!.message };
      return { device: r.value!.device, dtype: r.value!.dtype, threads: used, fallbacks: r.value!.fallbacks };
    },
    { device: spec.device, dtype: spec.dtype, threads: spec.threads, modelName, mirror: MIRROR, warm: groups[0]!.slice(0, 2) },
  );
  if ('error' in loaded) return { ...base, pairsPerSecond: null, error: loaded.error };
  if (loaded.dtype !== spec.dtype || loaded.device !== spec.device)
    return {
      ...base,
      pairsPerSecond: null,
      error: `asked for ${spec.device}/${spec.dtype}, got ${loaded.device}/${loaded.dtype} (${loaded.fallbacks.join('; ')})`,
    };
  const before = cpuSnap();
  const timed = await page.evaluate(async (groups) => {
    const api = (globalThis as unknown as { __verityModels: Api }).__verityModels;
    const t = performance.now();
    for (const g of groups) {
      const r = await api.nli(g);
      if (!r.ok) return { error: r.error!.message };
    }
    return { ms: performance.now() - t };
  }, groups);
  const d = disturbance(before, cpuSnap());
  if ('error' in timed) return { ...base, pairsPerSecond: null, error: timed.error };
  return {
    ...base,
    pairsPerSecond: spec.pairs.length / (timed.ms / 1000),
    device: loaded.device,
    dtype: loaded.dtype,
    threads: loaded.threads,
    disturbance: d,
  };
}

/** Vite preview + model mirror, started once; each run gets a fresh Chromium (empty caches, new worker). */
export class BrowserBench {
  private preview: ChildProcess | null = null;
  private served = '';

  private constructor(
    private readonly mirror: ChildProcess,
    private readonly modelName: string,
    private readonly workerAsset: string,
    private readonly patchable: boolean,
    readonly chromiumVersion: string,
  ) {}

  static async start(modelDir: string): Promise<BrowserBench | { error: string }> {
    if (!existsSync('/usr/bin/chromium')) return { error: 'no /usr/bin/chromium (apt-get install -y chromium)' };
    if (!existsSync(join(repoRoot, 'dist/index.html'))) spawnSync('npx', ['vite', 'build'], { cwd: repoRoot, stdio: 'ignore' });
    const worker = readdirSync(join(repoRoot, 'dist/assets')).find((f) => /^model-host\.worker-.*\.js$/.test(f));
    if (!worker) return { error: 'dist/assets has no model-host.worker-*.js' };
    const version = spawnSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8' }).stdout.trim();
    // Own process group, so stopping it also stops what it started.
    const mirror = spawn(process.execPath, ['e2e/model-mirror.mjs', '--port', '4311', '--root', join(modelDir, '..'), '--max-mb', '1024'], {
      cwd: repoRoot,
      stdio: process.env.BENCH_DEBUG ? 'inherit' : 'ignore',
      detached: true,
    });
    const patchable = readFileSync(join(repoRoot, 'dist/assets', worker), 'utf8').split(PATCH_FROM).length === 2;
    const bench = new BrowserBench(mirror, modelDir.split('/').pop()!, worker, patchable, version);
    try {
      await bench.serve(join(repoRoot, 'dist'));
      await waitFor(`${MIRROR}__health`);
    } catch (e) {
      bench.stop();
      return { error: (e as Error).message };
    }
    return bench;
  }

  /** Serves `dir` with vite preview on the bench's port (restarting it when the directory changes). */
  private async serve(dir: string): Promise<void> {
    if (this.preview && this.served === dir) return;
    if (this.preview?.pid) {
      process.kill(-this.preview.pid, 'SIGTERM');
      const until = Date.now() + 20_000;
      while (
        Date.now() < until &&
        (await fetch(APP).then(
          () => true,
          () => false,
        ))
      )
        await new Promise((r) => setTimeout(r, 200));
    }
    this.preview = spawn('npx', ['vite', 'preview', '--host', '127.0.0.1', '--port', '4310', '--strictPort', '--outDir', dir], {
      cwd: repoRoot,
      stdio: process.env.BENCH_DEBUG ? 'inherit' : 'ignore',
      detached: true,
    });
    this.served = dir;
    await waitFor(APP);
  }

  /** dist/, or a copy of it whose model worker's host runs model batches of `size` rows. */
  private appFor(size: number): string {
    if (size <= WORKER_BATCH) return join(repoRoot, 'dist');
    const dir = join(repoRoot, 'bench/out', `app-batch-${size}`);
    if (this.served === dir) return dir;
    rmSync(dir, { recursive: true, force: true });
    cpSync(join(repoRoot, 'dist'), dir, { recursive: true });
    const file = join(dir, 'assets', this.workerAsset);
    writeFileSync(file, readFileSync(file, 'utf8').replace(PATCH_FROM, `batchSize??${size}`));
    return dir;
  }

  async run(spec: BrowserRunSpec): Promise<BrowserFigures> {
    const flags = spec.device === 'webgpu' ? ['--enable-unsafe-webgpu'] : [];
    const size = spec.naive ? 1 : (spec.batchSize ?? WORKER_BATCH);
    const failed = (error: string): BrowserFigures => ({
      label: spec.label,
      pairs: spec.pairs.length,
      batchSize: size,
      pairsPerSecond: null,
      error,
    });
    let browser: Browser | null = null;
    try {
      if (size > WORKER_BATCH && !this.patchable)
        return failed(
          `dist/assets/${this.workerAsset} does not contain "${PATCH_FROM}" exactly once; cannot run model batches above ${WORKER_BATCH}`,
        );
      await this.serve(this.appFor(size));
      const served = await (await fetch(`${APP}assets/${this.workerAsset}`)).text();
      if (!served.includes(`batchSize??${Math.max(size, WORKER_BATCH)})`))
        return failed(`the served model worker does not run model batches of ${Math.max(size, WORKER_BATCH)}`);
      browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [...ARGS, ...flags] });
      // No service worker: every request goes to the server (a fresh profile has nothing cached anyway).
      const context = await browser.newContext({ serviceWorkers: 'block' });
      const page = await context.newPage();
      page.setDefaultTimeout(60 * 60_000);
      return await runOnPage(page, spec, this.modelName);
    } catch (e) {
      return failed((e as Error).message.split('\n')[0]!);
    } finally {
      await browser?.close();
    }
  }

  stop(): void {
    for (const p of [this.preview, this.mirror]) if (p?.pid) process.kill(-p.pid, 'SIGTERM');
    for (const d of readdirSync(join(repoRoot, 'bench/out')))
      if (/^app-batch-\d+$/.test(d)) rmSync(join(repoRoot, 'bench/out', d), { recursive: true, force: true });
  }
}

/** The original fixed list of browser runs (fp32), kept for callers that want just that. */
export async function browserBench(pairs: NliPair[], modelDir: string, webgpuPairs = 20, naivePairs = 200): Promise<BrowserFigures[]> {
  const bench = await BrowserBench.start(modelDir);
  if ('error' in bench) return [{ label: 'browser', pairs: 0, pairsPerSecond: null, error: bench.error }];
  try {
    const out: BrowserFigures[] = [];
    for (const spec of [
      { label: 'Chromium WASM, threads', device: 'wasm', threads: null, pairs },
      {
        label: `Chromium WASM, threads, naive (first ${naivePairs} pairs, one per call)`,
        device: 'wasm',
        threads: null,
        pairs: pairs.slice(0, naivePairs),
        naive: true,
      },
      {
        label: `Chromium WASM, threads, batched (same ${naivePairs} pairs)`,
        device: 'wasm',
        threads: null,
        pairs: pairs.slice(0, naivePairs),
      },
      { label: 'Chromium WASM, 1 thread', device: 'wasm', threads: 1, pairs },
      {
        label: `Chromium WebGPU (SwiftShader; report only, first ${webgpuPairs} pairs)`,
        device: 'webgpu',
        threads: null,
        pairs: pairs.slice(0, webgpuPairs),
      },
    ] as const)
      out.push(await bench.run({ ...spec, dtype: 'fp32' }));
    return out;
  } finally {
    bench.stop();
  }
}
