/**
 * The browser half of `npm run bench:nli`: the same real-size BERT NLI model and pairs, run by the app's model
 * worker in Debian Chromium (headless, Playwright): WASM with threads (cross-origin isolated, N threads), WASM
 * with one thread, and WebGPU on SwiftShader (--enable-unsafe-webgpu; reported only, on a subset — it is a
 * CPU emulation of a GPU). The pairs are sent deduplicated and length-sorted, one batch per call, as the
 * runtime does; a subset also runs naively (one pair per call) for the batching ratio in the browser. Servers: `vite preview` of dist/ and e2e/model-mirror.mjs over bench/out/, both on loopback.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { repoRoot } from '../scripts/evouna.ts';
import type { NliPair } from '../src/core/capabilities.ts';

const APP = 'http://127.0.0.1:4310/';
const MIRROR = 'http://127.0.0.1:4311/';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

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

export interface BrowserFigures {
  label: string;
  pairs: number;
  pairsPerSecond: number | null;
  device?: string;
  dtype?: string;
  threads?: number;
  error?: string;
}

/** Deduplicated, length-sorted batches — the order the runtime feeds a model in. */
function batches(pairs: NliPair[], size: number): NliPair[][] {
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

async function run(page: Page, label: string, pairs: NliPair[], device: 'wasm' | 'webgpu', threads: number | null, modelName: string, naive = false): Promise<BrowserFigures> {
  await page.goto(`${APP}#/models`);
  await page.waitForFunction(() => '__verityModels' in globalThis, undefined, { timeout: 30_000 });
  // Naive: every pair in input order, one call each (duplicates included).
  const groups = naive ? pairs.map((p) => [p]) : batches(pairs, 16);
  return page.evaluate(
    async ({ label, groups, device, threads, modelName, mirror, total }) => {
      type Api = {
        setWasmThreads(n: number): Promise<number>;
        load(spec: unknown): Promise<{ ok: boolean; value?: { device: string; dtype: string }; error?: { message: string } }>;
        nli(pairs: unknown[]): Promise<{ ok: boolean; error?: { message: string } }>;
        probe(): Promise<{ threads: number }>;
      };
      const api = (globalThis as unknown as { __verityModels: Api }).__verityModels;
      const used = threads === null ? (await api.probe()).threads : await api.setWasmThreads(threads);
      const loaded = await api.load({ role: 'nli', id: modelName, revision: 'main', source: { kind: 'mirror', url: mirror }, device, dtypes: { [device]: ['fp32'] } });
      if (!loaded.ok) return { label, pairs: total, pairsPerSecond: null, error: loaded.error!.message };
      await api.nli(groups[0]!.slice(0, 2)); // warm-up (WebGPU compiles its shaders here)
      const t = performance.now();
      for (const g of groups) {
        const r = await api.nli(g);
        if (!r.ok) return { label, pairs: total, pairsPerSecond: null, error: r.error!.message };
      }
      return { label, pairs: total, pairsPerSecond: total / ((performance.now() - t) / 1000), device: loaded.value!.device, dtype: loaded.value!.dtype, threads: used };
    },
    { label, groups, device, threads, modelName, mirror: MIRROR, total: pairs.length },
  );
}

export async function browserBench(pairs: NliPair[], modelDir: string, webgpuPairs = 20, naivePairs = 200): Promise<BrowserFigures[]> {
  if (!existsSync('/usr/bin/chromium')) return [{ label: 'browser', pairs: 0, pairsPerSecond: null, error: 'no /usr/bin/chromium (apt-get install -y chromium)' }];
  if (!existsSync(join(repoRoot, 'dist/index.html'))) spawnSync('npx', ['vite', 'build'], { cwd: repoRoot, stdio: 'ignore' });
  const modelName = modelDir.split('/').pop()!;
  const procs: ChildProcess[] = [
    // Own process groups, so stopping them also stops what npx started.
    spawn('npx', ['vite', 'preview', '--host', '127.0.0.1', '--port', '4310', '--strictPort'], { cwd: repoRoot, stdio: process.env.BENCH_DEBUG ? 'inherit' : 'ignore', detached: true }),
    spawn(process.execPath, ['e2e/model-mirror.mjs', '--port', '4311', '--root', join(modelDir, '..'), '--max-mb', '1024'], { cwd: repoRoot, stdio: process.env.BENCH_DEBUG ? 'inherit' : 'ignore', detached: true }),
  ];
  const out: BrowserFigures[] = [];
  try {
    await waitFor(APP);
    await waitFor(`${MIRROR}__health`);
    for (const [label, device, threads, flags, n, naive] of [
      ['Chromium WASM, threads', 'wasm', null, [], pairs.length, false],
      [`Chromium WASM, threads, naive (first ${naivePairs} pairs, one per call)`, 'wasm', null, [], naivePairs, true],
      [`Chromium WASM, threads, batched (same ${naivePairs} pairs)`, 'wasm', null, [], naivePairs, false],
      ['Chromium WASM, 1 thread', 'wasm', 1, [], pairs.length, false],
      [`Chromium WebGPU (SwiftShader; report only, first ${webgpuPairs} pairs)`, 'webgpu', null, ['--enable-unsafe-webgpu'], webgpuPairs, false],
    ] as const) {
      const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [...ARGS, ...flags] });
      try {
        const page = await browser.newPage();
        page.setDefaultTimeout(30 * 60_000);
        out.push(await run(page, label, pairs.slice(0, n), device, threads, modelName, naive));
      } catch (e) {
        out.push({ label, pairs: n, pairsPerSecond: null, error: (e as Error).message.split('\n')[0]! });
      } finally {
        await browser.close();
      }
    }
  } finally {
    for (const p of procs) if (p.pid) process.kill(-p.pid, 'SIGTERM');
  }
  return out;
}
