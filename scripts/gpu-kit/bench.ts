/**
 * The GPU kit's benchmark, bundled to bench.mjs by build.ts and run by the kit's own Node with no network: it
 * builds a random-weight BERT NLI graph (BERT-base by default: 12 layers, hidden 768, vocab 30522; the project's
 * ONNX writer, scripts/fixtures/bert.ts) in fp32 and fp16, and times onnxruntime-web — the build the app ships,
 * `ort.webgpu.min.mjs` — on WebGPU (Dawn's Node binding, the `webgpu` package) and on WASM, at batch 1, 8 and
 * 32. It prints one JSON object: NLI pairs per second for each device, dtype and batch, or why a cell has none
 * (no WebGPU adapter, an operator without an fp16 kernel on WASM).
 *
 * Flags: --layers --hidden --heads --vocab (the graph), --seq (tokens per pair, 64), --batches 1,8,32,
 * --dtypes fp32,fp16, --devices webgpu,wasm, --runs 5 (timed runs per cell, after a warm-up), --budget-s 20
 * (a cell stops timing after this long, with at least one timed run), --warmup-s 3 (untimed runs first, at
 * least one), --out FILE (the JSON, also printed). WASM runs on one thread: onnxruntime-web's threads need
 * browser workers that Node does not have. Node compiles the 27 MB WASM module's optimised code in the
 * background (about 35 s of CPU on a 2-core machine), so the process ends some seconds after its last result.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { buildBertGraph, initBertWeights, type BertDims } from '../fixtures/bert.ts';

type Ort = typeof import('onnxruntime-web');

interface Cell {
  device: string;
  dtype: string;
  batch: number;
  pairsPerSecond?: number;
  msPerBatch?: number;
  runs?: number;
  error?: string;
}

const argv = process.argv.slice(2);
const arg = (name: string, dflt: string): string => {
  const i = argv.indexOf(name);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1]! : dflt;
};
const num = (name: string, dflt: number): number => {
  const v = Number(arg(name, String(dflt)));
  if (!Number.isFinite(v) || v <= 0) throw new Error(`${name} must be a positive number`);
  return v;
};
const list = (name: string, dflt: string): string[] => arg(name, dflt).split(',').filter(Boolean);

const here = new URL('./', import.meta.url);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Dawn's WebGPU for Node, as navigator.gpu; the adapter found, or why none. */
async function webgpu(): Promise<{ adapter: Record<string, unknown> } | { reason: string }> {
  try {
    const { create, globals } = (await import(new URL('webgpu/index.js', here).href)) as {
      create: (flags: string[]) => {
        requestAdapter(o?: unknown): Promise<{ info?: Record<string, unknown>; features: Iterable<string> } | null>;
      };
      globals: Record<string, unknown>;
    };
    Object.assign(globalThis, globals);
    // onnxruntime-web's threaded WASM keeps tensors in shared memory and uploads views of it; Dawn's Node binding
    // refuses a SharedArrayBuffer-backed view ("Invalid argument") where browsers accept it, so copy those.
    const queue = (globals.GPUQueue as { prototype: { writeBuffer: (...a: unknown[]) => unknown } }).prototype;
    const write = queue.writeBuffer;
    queue.writeBuffer = function (this: unknown, buffer: unknown, offset: unknown, data: unknown, ...rest: unknown[]) {
      const copy =
        ArrayBuffer.isView(data) && data.buffer instanceof SharedArrayBuffer
          ? new (data.constructor as new (d: ArrayBufferView) => ArrayBufferView)(data)
          : data;
      return write.call(this, buffer, offset, copy, ...rest);
    };
    const gpu = create([]);
    Object.defineProperty(globalThis, 'navigator', { value: { ...(globalThis.navigator ?? {}), gpu }, configurable: true });
    const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
    if (!adapter) return { reason: 'no WebGPU adapter was found (Dawn saw no Vulkan device it can use)' };
    const info = adapter.info ?? {};
    return {
      adapter: {
        vendor: info.vendor,
        architecture: info.architecture,
        device: info.device,
        description: info.description,
        features: [...adapter.features].sort(),
      },
    };
  } catch (e) {
    return { reason: `Dawn could not start: ${e instanceof Error ? e.message : String(e)}` };
  }
}

async function main(): Promise<void> {
  const hidden = num('--hidden', 768);
  const dims: BertDims = {
    vocabSize: num('--vocab', 30522),
    hidden,
    layers: num('--layers', 12),
    heads: num('--heads', 12),
    intermediate: hidden * 4,
    maxPositions: 512,
    typeVocabSize: 2,
    layerNormEps: 1e-12,
  };
  const seq = num('--seq', 64);
  const batches = list('--batches', '1,8,32').map(Number);
  const dtypes = list('--dtypes', 'fp32,fp16');
  const devices = list('--devices', 'webgpu,wasm');
  const runs = num('--runs', 5);
  const budgetMs = num('--budget-s', 20) * 1000;
  const warmupMs = num('--warmup-s', 3) * 1000;

  const ort = (await import(new URL('ort/ort.webgpu.min.mjs', here).href)) as Ort;
  ort.env.wasm.wasmPaths = { mjs: new URL('ort/ort-wasm-simd-threaded.asyncify.mjs', here).href };
  ort.env.wasm.wasmBinary = readFileSync(new URL('ort/ort-wasm-simd-threaded.asyncify.wasm', here));
  ort.env.wasm.numThreads = 1;

  const gpu = devices.includes('webgpu') ? await webgpu() : { reason: 'not asked for (--devices)' };
  const t0 = performance.now();
  const weights = initBertWeights(dims, 1234, 3);
  const graphs = new Map(
    dtypes.map((d) => [
      d,
      buildBertGraph(weights, 'sequence-classification', { float16: d === 'fp16' })
        .encode('verity gpu kit')
        .toBytes(),
    ]),
  );
  const buildMs = performance.now() - t0;
  const params = dims.vocabSize * dims.hidden + dims.layers * (4 * dims.hidden ** 2 + 2 * dims.hidden * dims.intermediate);

  const feeds = (batch: number) => {
    const n = batch * seq;
    const ids = BigInt64Array.from({ length: n }, (_, i) => BigInt(1 + ((i * 7919) % (dims.vocabSize - 1))));
    return {
      input_ids: new ort.Tensor('int64', ids, [batch, seq]),
      attention_mask: new ort.Tensor('int64', new BigInt64Array(n).fill(1n), [batch, seq]),
      token_type_ids: new ort.Tensor(
        'int64',
        BigInt64Array.from({ length: n }, (_, i) => (i % seq < seq / 2 ? 0n : 1n)),
        [batch, seq],
      ),
    };
  };

  const cells: Cell[] = [];
  let wasmSettled = false;
  for (const device of devices) {
    for (const dtype of dtypes) {
      const skip =
        device !== 'webgpu'
          ? null
          : 'reason' in gpu
            ? gpu.reason
            : dtype === 'fp16' && !(gpu.adapter.features as string[]).includes('shader-f16')
              ? 'this adapter has no shader-f16, so an fp16 graph cannot run on it'
              : null;
      let session: Awaited<ReturnType<Ort['InferenceSession']['create']>> | null = null;
      let why = skip;
      if (!why)
        try {
          session = await ort.InferenceSession.create(graphs.get(dtype)!, { executionProviders: [device] });
        } catch (e) {
          why = `the session could not be created: ${e instanceof Error ? e.message : String(e)}`;
        }
      for (const batch of batches) {
        if (!session) {
          cells.push({ device, dtype, batch, error: why! });
          continue;
        }
        try {
          const f = feeds(batch);
          // Warm-up: shaders, kernels, buffers. The first WASM cell also waits for the optimised code V8 compiles
          // in the background (it competes for the cores until done): until three runs in a row agree within 10%.
          const warm = performance.now();
          const recent: number[] = [];
          const settle = device === 'wasm' && !wasmSettled;
          for (;;) {
            const t = performance.now();
            await session.run(f);
            recent.push(performance.now() - t);
            const last = recent.slice(-3);
            const steady = last.length === 3 && Math.max(...last) <= 1.1 * Math.min(...last);
            if (performance.now() - warm >= warmupMs && (!settle || steady || performance.now() - warm > 120_000)) break;
          }
          if (device === 'wasm') wasmSettled = true;
          const times: number[] = [];
          const start = performance.now();
          while (times.length < runs && (times.length === 0 || performance.now() - start < budgetMs)) {
            const t = performance.now();
            await session.run(f);
            times.push(performance.now() - t);
          }
          const ms = median(times);
          cells.push({
            device,
            dtype,
            batch,
            pairsPerSecond: Math.round((batch / ms) * 1000 * 10) / 10,
            msPerBatch: Math.round(ms * 10) / 10,
            runs: times.length,
          });
        } catch (e) {
          cells.push({ device, dtype, batch, error: `the run failed: ${e instanceof Error ? e.message : String(e)}` });
        }
        process.stderr.write(`${JSON.stringify(cells.at(-1))}\n`);
      }
      await session?.release();
    }
  }

  const out = {
    kit: 'verity gpu-kit',
    at: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu: cpus()[0]?.model ?? '', memoryGb: Math.round(totalmem() / 2 ** 30) },
    node: process.version,
    onnxruntimeWeb: ort.env.versions?.web ?? ort.env.versions?.common ?? '',
    webgpu: 'adapter' in gpu ? { available: true, ...gpu.adapter } : { available: false, reason: gpu.reason },
    graph: { model: 'BERT NLI, random weights', ...dims, params, seq, buildSeconds: Math.round(buildMs / 100) / 10 },
    wasmThreads: 1,
    results: cells,
  };
  const text = JSON.stringify(out, null, 1);
  const file = arg('--out', '');
  if (file) writeFileSync(file, `${text}\n`);
  // onnxruntime-web's WASM module keeps a handle open for half a minute after the last session: exit once written.
  process.stdout.write(`${text}\n`, () => process.exit(0));
}

main().catch((e: unknown) => {
  process.stderr.write(`gpu kit: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
