/**
 * The browser half of `npm run bench:nli`: one headless Debian Chromium page (Playwright) of the built app that
 * holds, side by side,
 *   - Verity's path: the evidence code's classifyUnique → hostContext → the app's model worker (comlink) →
 *     ModelHost → transformers.js (bench/nli-page.ts, built with Vite into the served copy), and
 *   - the WASM ceiling: a bare onnxruntime-web InferenceSession in a worker of the same page
 *     (bench/nli-ceiling.worker.js) on the same ONNX file, the same onnxruntime-web build and wasm files, the
 *     same thread count, fed pre-tokenised, pre-padded batches.
 * A second page with --enable-unsafe-webgpu runs the WebGPU path and reads the adapter's description.
 *
 * Servers (loopback): `vite preview` of bench/out/nli-app (a copy of dist/ plus the bench files) on
 * PREVIEW_PORT (default 4202) and e2e/model-mirror.mjs over bench/out/ on MIRROR_PORT (default 4282).
 *
 * Every timed run records how much CPU other processes (not this bench's process tree) used meanwhile
 * (/proc/stat minus our tree): the machine may be shared.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { build } from 'vite';
import { repoRoot } from '../scripts/evouna.ts';
import { CHROMIUM_ARGS } from '../playwright.config.ts';
import type { NliDistribution, NliPair } from '../src/core/capabilities.ts';
import type { VerityBench } from './nli-page.ts';

const PREVIEW_PORT = Number(process.env.PREVIEW_PORT ?? 4202);
const MIRROR_PORT = Number(process.env.MIRROR_PORT ?? 4282);
const APP = `http://127.0.0.1:${PREVIEW_PORT}/`;
const MIRROR = `http://127.0.0.1:${MIRROR_PORT}/`;
const SERVED = join(repoRoot, 'bench/out/nli-app');
const ARGS = CHROMIUM_ARGS;

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
  /** CPU seconds this bench's own process tree (Chromium, servers) used during the run. */
  ownCpuSeconds: number;
}

export function disturbance(a: CpuSnap, b: CpuSnap): Disturbance {
  const seconds = (b.t - a.t) / 1000;
  const other = Math.max(0, b.busy - a.busy - (b.ours - a.ours)) / HZ / seconds;
  return { seconds, otherCores: other, stealCores: (b.steal - a.steal) / HZ / seconds, ownCpuSeconds: (b.ours - a.ours) / HZ };
}

// ---------- the page ----------

/** Pre-tokenised, pre-padded model inputs of one ceiling batch (plain arrays: they cross page.evaluate). */
export interface CeilingBatch {
  inputs: Record<string, { data: number[]; dims: [number, number] }>;
}

export interface AdapterInfo {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  isFallbackAdapter: boolean;
}

export interface Timed<T> {
  ms: number;
  value: T;
  disturbance: Disturbance;
}

declare global {
  var __verityBench: VerityBench | undefined;
  var __ceilingCall: ((msg: unknown) => Promise<{ ok: boolean; error?: string } & Record<string, unknown>>) | undefined;
}

/** One Chromium page with the app's model worker, the Verity driver and the ceiling worker. */
export class BenchPage {
  constructor(
    private readonly browser: Browser,
    private readonly page: Page,
    private readonly modelName: string,
  ) {}

  /** Verity's model through the app's worker (device/dtype as asked, canary skipped: random weights). */
  async loadVerity(
    device: 'wasm' | 'webgpu',
    dtype: 'fp32' | 'q8',
    warm: NliPair[],
  ): Promise<{ device: string; dtype: string } | { error: string }> {
    const spec = {
      role: 'nli' as const,
      id: this.modelName,
      revision: 'main',
      source: { kind: 'mirror' as const, url: MIRROR },
      device,
      dtypes: { [device]: [dtype] },
      skipCanary: true,
    };
    const r = await this.page.evaluate(({ spec, warm }) => globalThis.__verityBench!.load(spec, warm), { spec, warm });
    if ('error' in r) return r;
    if (r.device !== device || r.dtype !== dtype)
      return { error: `asked for ${device}/${dtype}, got ${r.device}/${r.dtype} (${r.fallbacks.join('; ')})` };
    return r;
  }

  disposeVerity(): Promise<void> {
    return this.page.evaluate(() => globalThis.__verityBench!.dispose());
  }

  threads(): Promise<number> {
    return this.page.evaluate(() => globalThis.__verityBench!.threads());
  }

  setBatchSize(n: number): Promise<number> {
    return this.page.evaluate((n) => globalThis.__verityBench!.setBatchSize(n), n);
  }

  /** Verity on `pairs`, handed to the evidence code `perCall` at a time (0: all at once). */
  async verity(
    pairs: NliPair[],
    perCall: number,
  ): Promise<Timed<{ dists: NliDistribution[]; tokens: { real: number; padded: number; batches: number } }>> {
    const before = cpuSnap();
    const r = await this.page.evaluate(({ pairs, perCall }) => globalThis.__verityBench!.run(pairs, perCall), { pairs, perCall });
    return { ms: r.ms, value: { dists: r.dists, tokens: r.tokens }, disturbance: disturbance(before, cpuSnap()) };
  }

  private async ceilingCall(msg: unknown): Promise<Record<string, unknown>> {
    const r = await this.page.evaluate((msg) => globalThis.__ceilingCall!(msg), msg);
    if (!r.ok) throw new Error(`ceiling: ${r.error}`);
    return r;
  }

  /** The bare InferenceSession on the same file, the app's wasm files and the app's thread count. */
  async loadCeiling(file: string, threads: number): Promise<{ inputNames: string[] }> {
    const files = await this.page.evaluate(() => globalThis.__verityBench!.runtimeFiles());
    const wasmPaths = { mjs: new URL(files.mjs, APP).href, wasm: new URL(files.wasm, APP).href };
    const r = await this.ceilingCall({ type: 'load', url: `${MIRROR}${this.modelName}/resolve/main/${file}`, wasmPaths, threads });
    return { inputNames: r.inputNames as string[] };
  }

  async prepareCeiling(batches: CeilingBatch[]): Promise<void> {
    await this.ceilingCall({ type: 'prepare', batches });
  }

  /** One timed pass over the prepared batches: session.run only; logits per batch, row-major. */
  async ceiling(): Promise<Timed<number[][]>> {
    const before = cpuSnap();
    const r = await this.ceilingCall({ type: 'run' });
    return { ms: r.ms as number, value: r.logits as number[][], disturbance: disturbance(before, cpuSnap()) };
  }

  disposeCeiling(): Promise<Record<string, unknown>> {
    return this.ceilingCall({ type: 'dispose' });
  }

  /** The WebGPU adapter the page gets (null: none), as the browser describes it. */
  adapter(): Promise<AdapterInfo | null> {
    return this.page.evaluate(async () => {
      type Info = { vendor?: string; architecture?: string; device?: string; description?: string; isFallbackAdapter?: boolean };
      const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<{ info?: Info; isFallbackAdapter?: boolean } | null> } })
        .gpu;
      const a = gpu ? await gpu.requestAdapter() : null;
      if (!a) return null;
      const i = a.info ?? {};
      return {
        vendor: i.vendor ?? '',
        architecture: i.architecture ?? '',
        device: i.device ?? '',
        description: i.description ?? '',
        isFallbackAdapter: i.isFallbackAdapter ?? a.isFallbackAdapter ?? false,
      };
    });
  }

  close(): Promise<void> {
    return this.browser.close();
  }
}

/** Vite preview of the app (with the bench files) + model mirror, started once; each page gets a fresh Chromium. */
export class BrowserBench {
  private constructor(
    private readonly servers: ChildProcess[],
    private readonly modelName: string,
    readonly chromiumVersion: string,
  ) {}

  /**
   * Builds the app (unless `rebuild` is false and dist/ exists) and the bench files, then starts the servers.
   * The ceiling's onnxruntime-web is the file `onnxruntime-web/webgpu` resolves to — what transformers.js, and
   * so the app's model worker, imports (`npm ls onnxruntime-web` shows one copy).
   */
  static async start(modelDir: string, rebuild = true): Promise<BrowserBench | { error: string }> {
    if (!existsSync('/usr/bin/chromium')) return { error: 'no /usr/bin/chromium (apt-get install -y chromium)' };
    if (rebuild || !existsSync(join(repoRoot, 'dist/index.html'))) {
      const b = spawnSync('npx', ['vite', 'build', '--logLevel', 'error'], { cwd: repoRoot, encoding: 'utf8' });
      if (b.status !== 0) return { error: `vite build failed: ${b.stderr.slice(-500)}` };
    }
    rmSync(SERVED, { recursive: true, force: true });
    cpSync(join(repoRoot, 'dist'), SERVED, { recursive: true });
    await build({
      configFile: false,
      logLevel: 'error',
      build: {
        outDir: join(SERVED, 'bench'),
        emptyOutDir: false,
        target: 'es2022',
        lib: { entry: join(repoRoot, 'bench/nli-page.ts'), formats: ['es'], fileName: () => 'page.js' },
      },
    });
    const ort = createRequire(join(repoRoot, 'node_modules/@huggingface/transformers/package.json'));
    const ortDir = join(ort.resolve('onnxruntime-web'), '..');
    copyFileSync(join(ortDir, 'ort.webgpu.bundle.min.mjs'), join(SERVED, 'bench/ort.bundle.mjs'));
    copyFileSync(join(repoRoot, 'bench/nli-ceiling.worker.js'), join(SERVED, 'bench/ceiling.js'));
    const version = spawnSync('/usr/bin/chromium', ['--version'], { encoding: 'utf8' }).stdout.trim();
    const quiet = process.env.BENCH_DEBUG ? 'inherit' : 'ignore';
    // Own process groups, so stopping them also stops what they started.
    const servers = [
      spawn(process.execPath, ['e2e/model-mirror.mjs', '--port', String(MIRROR_PORT), '--root', join(modelDir, '..'), '--max-mb', '1024'], {
        cwd: repoRoot,
        stdio: quiet,
        detached: true,
      }),
      spawn('npx', ['vite', 'preview', '--host', '127.0.0.1', '--port', String(PREVIEW_PORT), '--strictPort', '--outDir', SERVED], {
        cwd: repoRoot,
        stdio: quiet,
        detached: true,
      }),
    ];
    const bench = new BrowserBench(servers, modelDir.split('/').pop()!, version);
    try {
      await waitFor(APP);
      await waitFor(`${MIRROR}__health`);
    } catch (e) {
      bench.stop();
      return { error: (e as Error).message };
    }
    return bench;
  }

  /** A fresh Chromium (empty caches, new workers) with the app, the Verity driver and the ceiling worker. */
  async open(webgpu = false): Promise<BenchPage> {
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [...ARGS, ...(webgpu ? ['--enable-unsafe-webgpu'] : [])],
    });
    try {
      // No service worker: every request goes to the server (a fresh profile has nothing cached anyway).
      const context = await browser.newContext({ serviceWorkers: 'block' });
      const page = await context.newPage();
      page.setDefaultTimeout(60 * 60_000);
      await page.goto(`${APP}#/models`);
      await page.waitForFunction(() => '__verityModels' in globalThis, undefined, { timeout: 60_000 });
      await page.addScriptTag({ url: '/bench/page.js', type: 'module' });
      await page.waitForFunction(() => '__verityBench' in globalThis, undefined, { timeout: 60_000 });
      await page.evaluate(() => {
        const w = new Worker('/bench/ceiling.js', { type: 'module', name: 'ceiling' });
        globalThis.__ceilingCall = (msg) =>
          new Promise((resolve) => {
            w.onmessage = (e) => resolve(e.data);
            w.onerror = (e) => resolve({ ok: false, error: e.message || 'the ceiling worker failed to start' });
            w.postMessage(msg);
          });
      });
      return new BenchPage(browser, page, this.modelName);
    } catch (e) {
      await browser.close();
      throw e;
    }
  }

  stop(): void {
    for (const p of this.servers) if (p.pid) process.kill(-p.pid, 'SIGTERM');
    rmSync(SERVED, { recursive: true, force: true });
  }
}
