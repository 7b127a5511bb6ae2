/**
 * `npm run bench:nli`: Verity's NLI throughput against the WASM ceiling, on a real-size BERT classifier (6 layers,
 * hidden 768, 12 heads, vocab 30522, random weights — generated into bench/out/, never committed) over 2,000
 * (premise, hypothesis) pairs of realistic lengths: gold vs candidate statements written by the rule writer from
 * the shared TriviaQA answers. Two copies of the model: fp32 (onnx/model.onnx) and q8 (onnx/model_quantized.onnx,
 * dynamically quantized as transformers.js ships it, written by scripts/fixtures/quantize.ts).
 *
 * In one Chromium page (bench/nli-browser.ts), per dtype:
 *   - Verity: the pairs through the product's path — classifyUnique (evidence) → hostContext → the app's model
 *     worker → ModelHost (token-length batches) → transformers.js → onnxruntime-web;
 *   - the WASM ceiling: a bare onnxruntime-web InferenceSession (same build, wasm files, ONNX file and threads)
 *     on the same pairs, pre-tokenised and pre-padded in token-length batches of the same size, timing only
 *     session.run.
 * The two alternate (Verity, ceiling, ceiling, Verity, …) so machine noise hits both; the ratio of their
 * pairs/s in one run is target 4 (≥ 0.9×). The same alternation runs a batch-size sweep on a subset. Then WebGPU
 * (Chromium with --enable-unsafe-webgpu) against WASM at batch 16, with the adapter's description: target 5
 * (≥ 3×) applies to a real GPU only; on a software adapter (SwiftShader) it is "not applicable here".
 * onnxruntime-node through the same product path is printed as context only. Every timed run records the CPU
 * other processes used meanwhile. Figures go to stdout (with a markdown section for bench/REPORT.md) and
 * bench/out/nli.json (+ bench/out/nli.md).
 *
 *   npm run bench:nli [-- --quick] [--pairs 2000] [--rounds 2] [--sizes 4,8,16,32,64] [--sweep-pairs 400]
 *                     [--pairs-per-call 128] [--webgpu-pairs 32] [--dtypes fp32,q8] [--no-node] [--no-sweep]
 *                     [--no-webgpu] [--no-build]
 *   --quick: 300 pairs, 2 rounds, sweep 8,16,32 on 150 pairs, WebGPU on 16 pairs (about 15 minutes).
 *   Ports: PREVIEW_PORT (4202) and MIRROR_PORT (4282).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { AutoTokenizer } from '@huggingface/transformers';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { buildBertNliModel } from '../scripts/fixtures/generate.ts';
import { bertTokenizerJson, bertVocab } from '../scripts/fixtures/vocab.ts';
import { loadEvouna, repoRoot } from '../scripts/evouna.ts';
import { createRuleWriter } from '../src/core/statements/rules.ts';
import { classifyUnique, MEMO_LIMIT } from '../src/core/evidence.ts';
import { Generations } from '../src/core/util/memo.ts';
import { createNodeHost } from '../src/runtime/node.ts';
import { parseModelArg } from '../src/runtime/model-args.ts';
import { DEFAULT_BATCH_SIZE, DYNAMIC_QUANT_DTYPES, lengthBatches, nliLabelIndex, padRows, type Encodings } from '../src/runtime/host.ts';
import type { NliDistribution, NliPair } from '../src/core/capabilities.ts';
import {
  type AdapterInfo,
  type BenchPage,
  BrowserBench,
  type CeilingBatch,
  cpuSnap,
  type Disturbance,
  disturbance,
} from './nli-browser.ts';
import { argFlag, argList, argNumber } from './args.ts';

const QUICK = argFlag('quick');
const PAIRS = argNumber('pairs', QUICK ? 300 : 2000);
const ROUNDS = Math.max(1, argNumber('rounds', 2));
const SWEEP_PAIRS = argNumber('sweep-pairs', QUICK ? 150 : 400);
const SIZES = argList('sizes', QUICK ? [8, 16, 32] : [4, 8, 16, 32, 64], Number);
const WEBGPU_PAIRS = Math.max(16, argNumber('webgpu-pairs', QUICK ? 16 : 32));
const DTYPES: Dtype[] = argList<Dtype>('dtypes', ['fp32', 'q8'], (s) => {
  if (s !== 'fp32' && s !== 'q8') throw new Error(`--dtypes: fp32 and/or q8, not "${s}"`);
  return s;
});
const BATCH = DEFAULT_BATCH_SIZE;
/** Rows per model call the host uses for a dtype: one for dynamically quantized graphs (DYNAMIC_QUANT_DTYPES). */
const batchFor = (dtype: Dtype) => (DYNAMIC_QUANT_DTYPES.includes(dtype) ? 1 : BATCH);
/**
 * Pairs per classifyUnique call on Verity's side: the app's scoring session hands the evidence code 64 rows at
 * a time (MODEL_CHUNK in src/session/session.ts), and each bench row gives 2 pairs (both directions). 0: all.
 */
const PER_CALL = argNumber('pairs-per-call', 128);
/** The WebGPU target's batch size. */
const GPU_BATCH = Math.max(16, BATCH);
const RATIO_TARGET = 0.9;
const GPU_TARGET = 3;
export const BENCH_MODEL_DIR = join(repoRoot, 'bench/out/bert-nli-6x768');
type Dtype = 'fp32' | 'q8';
const FILE: Record<Dtype, string> = { fp32: 'onnx/model.onnx', q8: 'onnx/model_quantized.onnx' };

/** Real-size model (fp32 + q8) with a vocabulary of words from the data, so tokenization gives realistic lengths. */
export function ensureModel(words: string[]): void {
  if (existsSync(join(BENCH_MODEL_DIR, 'onnx/model.onnx')) && existsSync(join(BENCH_MODEL_DIR, 'onnx/model_quantized.onnx'))) return;
  const t = performance.now();
  buildBertNliModel(BENCH_MODEL_DIR, { layers: 6, hidden: 768, heads: 12, vocabSize: 30522, q8: true });
  const base = bertVocab();
  const seen = new Set(base);
  const vocab = [...base, ...words.filter((w) => !seen.has(w) && (seen.add(w), true))].slice(0, 30522);
  for (let i = 0; vocab.length < 30522; i++) vocab.push(`[unused${i}]`);
  writeFileSync(join(BENCH_MODEL_DIR, 'tokenizer.json'), JSON.stringify(bertTokenizerJson(vocab)));
  console.log(`  generated ${BENCH_MODEL_DIR} (fp32 + q8) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}

/** Gold-statement → candidate-statement pairs from the shared TriviaQA answers (both directions). */
export async function benchPairs(n: number): Promise<{ pairs: NliPair[]; words: string[] }> {
  const items = loadEvouna();
  const freq = new Map<string, number>();
  for (const it of items)
    for (const w of `${it.question} ${it.candidate}`.toLowerCase().match(/[a-z]+/g) ?? []) freq.set(w, (freq.get(w) ?? 0) + 1);
  const words = [...freq.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w);
  const writer = createRuleWriter();
  const chosen = items.slice(0, Math.ceil(n / 2));
  const gold = await writer.write(chosen.map((it) => ({ question: it.question, answer: it.golds[it.golds.length - 1]! })));
  const cand = await writer.write(chosen.map((it) => ({ question: it.question, answer: it.candidate })));
  const pairs: NliPair[] = [];
  chosen.forEach((_, i) => pairs.push({ premise: gold[i]!, hypothesis: cand[i]! }, { premise: cand[i]!, hypothesis: gold[i]! }));
  return { pairs: pairs.slice(0, n), words };
}

const key = (p: NliPair) => `${p.premise}\u0000${p.hypothesis}`;
const distinct = (pairs: NliPair[]) => {
  const seen = new Set<string>();
  return pairs.filter((p) => !seen.has(key(p)) && (seen.add(key(p)), true));
};

/** Token sequences of the distinct pairs, as the model host makes them (one tokenizer call, no padding). */
type Tokenized = { unique: NliPair[]; enc: Encodings; lengths: number[]; padId: number };

/** The ceiling's inputs: token-length batches of `size`, padded as the tokenizer pads; `rows` maps outputs back. */
function ceilingBatches(t: Tokenized, size: number): { batches: CeilingBatch[]; rows: number[][]; real: number; padded: number } {
  const rows = lengthBatches(t.lengths, size);
  let real = 0;
  let padded = 0;
  const batches = rows.map((r) => {
    const p = padRows(t.enc, r, t.padId);
    real += p.real;
    padded += p.padded;
    return {
      inputs: Object.fromEntries(Object.entries(p.inputs).map(([k, v]) => [k, { data: Array.from(v.data, Number), dims: v.dims }])),
    };
  });
  return { batches, rows, real, padded };
}

/** Padding of the order before token-length batches: chunks of 32 distinct pairs by character length, model batches of 16 in order. */
function charOrderPadding(t: Tokenized): number {
  const order = t.unique.map((_, i) => i).sort((a, b) => key(t.unique[a]!).length - key(t.unique[b]!).length);
  let real = 0;
  let padded = 0;
  for (let c = 0; c < order.length; c += 32)
    for (let b = c; b < Math.min(c + 32, order.length); b += 16) {
      const ls = order.slice(b, Math.min(b + 16, c + 32, order.length)).map((i) => t.lengths[i]!);
      real += ls.reduce((a, x) => a + x, 0);
      padded += Math.max(...ls) * ls.length;
    }
  return 1 - real / padded;
}

const labels = ['entailment', 'neutral', 'contradiction'] as const;
/** Output index per label, from the generated model's config (as the host reads it). */
let labelIndex: Record<(typeof labels)[number], number> = { entailment: 0, neutral: 1, contradiction: 2 };
const softmax3 = (row: number[]): NliDistribution => {
  const m = Math.max(...row);
  const ex = row.map((x) => Math.exp(x - m));
  const z = ex.reduce((a, b) => a + b, 0);
  return {
    entailment: ex[labelIndex.entailment]! / z,
    neutral: ex[labelIndex.neutral]! / z,
    contradiction: ex[labelIndex.contradiction]! / z,
  };
};
const top = (d: NliDistribution) => labels.reduce((a, b) => (d[b] > d[a] ? b : a));

/** The ceiling's probabilities per input pair (from its logits per batch), to check both computed the same thing. */
function ceilingDists(t: Tokenized, rows: number[][], logits: number[][], pairs: NliPair[]): NliDistribution[] {
  const byKey = new Map<string, NliDistribution>();
  rows.forEach((r, b) => r.forEach((i, j) => byKey.set(key(t.unique[i]!), softmax3(logits[b]!.slice(j * 3, j * 3 + 3)))));
  return pairs.map((p) => byKey.get(key(p))!);
}

function agreement(a: NliDistribution[], b: NliDistribution[]): { maxAbsDiff: number; sameTopLabel: number } {
  let max = 0;
  let same = 0;
  a.forEach((d, i) => {
    for (const l of labels) max = Math.max(max, Math.abs(d[l] - b[i]![l]));
    if (top(d) === top(b[i]!)) same++;
  });
  return { maxAbsDiff: max, sameTopLabel: same / a.length };
}

/**
 * Waits (up to 60 s) until this bench's own processes are idle for a second — after a load, Chromium may still
 * be storing the model in IndexedDB, which would slow whichever side runs first.
 */
async function settle(): Promise<void> {
  const until = performance.now() + 60_000;
  while (performance.now() < until) {
    const a = cpuSnap();
    await new Promise((r) => setTimeout(r, 1000));
    if (disturbance(a, cpuSnap()).ownCpuSeconds < 0.1) return;
  }
}

interface Side {
  ms: number[];
  other: number[];
  /** CPU seconds of this bench's process tree per run: work done, whatever the wall clock lost to others. */
  cpu: number[];
}
interface Alternated {
  pairs: number;
  batchSize: number;
  verity: Side & { pairsPerSecond: number };
  ceiling: Side & { pairsPerSecond: number };
  ratio: number;
  /** Ceiling CPU seconds ÷ Verity CPU seconds (this bench's processes): the work ratio, robust to other load. */
  cpuRatio: number;
  /** Per round: Verity / ceiling (each round has one run of each, back to back). */
  roundRatios: number[];
  padding: { verity: number; ceiling: number };
  outputs: { maxAbsDiff: number; sameTopLabel: number };
}

/** Verity and the ceiling on the same pairs, alternating (V C, C V, …) over `rounds` rounds. */
async function alternate(
  page: BenchPage,
  t: Tokenized,
  pairs: NliPair[],
  size: number,
  rounds: number,
  label: string,
  offset = 0,
): Promise<Alternated> {
  await page.setBatchSize(size);
  const cb = ceilingBatches(t, size);
  await page.prepareCeiling(cb.batches);
  const v: Side = { ms: [], other: [], cpu: [] };
  const c: Side = { ms: [], other: [], cpu: [] };
  let dists: NliDistribution[] = [];
  let logits: number[][] = [];
  let tokens = { real: 0, padded: 0 };
  const roundRatios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const runV = async () => {
      const x = await page.verity(pairs, PER_CALL);
      v.ms.push(x.ms);
      v.other.push(x.disturbance.otherCores);
      v.cpu.push(x.disturbance.ownCpuSeconds);
      dists = x.value.dists;
      tokens = x.value.tokens;
    };
    const runC = async () => {
      const x = await page.ceiling();
      c.ms.push(x.ms);
      c.other.push(x.disturbance.otherCores);
      c.cpu.push(x.disturbance.ownCpuSeconds);
      logits = x.value;
    };
    if ((r + offset) % 2 === 0) {
      await runV();
      await runC();
    } else {
      await runC();
      await runV();
    }
    roundRatios.push(c.ms.at(-1)! / v.ms.at(-1)!);
    console.log(
      `    ${label} round ${r + 1}: Verity ${rate(pairs.length, v.ms.at(-1)!)} pairs/s (others ${v.other.at(-1)!.toFixed(2)} cores; own CPU ${(v.cpu.at(-1)! / pairs.length).toFixed(3)} s/pair), ceiling ${rate(pairs.length, c.ms.at(-1)!)} pairs/s (others ${c.other.at(-1)!.toFixed(2)} cores; own CPU ${(c.cpu.at(-1)! / pairs.length).toFixed(3)} s/pair); ratio ${roundRatios.at(-1)!.toFixed(3)}`,
    );
  }
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const vps = (pairs.length * rounds) / (sum(v.ms) / 1000);
  const cps = (pairs.length * rounds) / (sum(c.ms) / 1000);
  return {
    pairs: pairs.length,
    batchSize: size,
    verity: { ...v, pairsPerSecond: vps },
    ceiling: { ...c, pairsPerSecond: cps },
    ratio: vps / cps,
    cpuRatio: sum(c.cpu) / sum(v.cpu),
    roundRatios,
    padding: { verity: 1 - tokens.real / tokens.padded, ceiling: 1 - cb.real / cb.padded },
    outputs: agreement(dists, ceilingDists(t, cb.rows, logits, pairs)),
  };
}

const rate = (n: number, ms: number) => (n / (ms / 1000)).toFixed(1);
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const mark = (ok: boolean | null) => (ok === null ? 'not applicable here' : ok ? 'met' : '**not met**');

/** A software adapter: the figure says nothing about real GPUs. */
const isSoftware = (a: AdapterInfo) =>
  a.isFallbackAdapter ||
  /swiftshader|llvmpipe|lavapipe|software|microsoft basic render/i.test(`${a.vendor} ${a.architecture} ${a.device} ${a.description}`);

async function main(): Promise<void> {
  const started = performance.now();
  const { pairs, words } = await benchPairs(PAIRS);
  ensureModel(words);
  const config = JSON.parse(readFileSync(join(BENCH_MODEL_DIR, 'config.json'), 'utf8')) as { id2label?: Record<string, string> };
  labelIndex = nliLabelIndex(config.id2label) ?? labelIndex;
  const flags = (readFileSync('/proc/cpuinfo', 'utf8').match(/^flags\s*:(.*)$/m)?.[1] ?? '').trim().split(/\s+/);
  const machine = {
    cpu: cpus()[0]?.model ?? '',
    cores: cpus().length,
    simd: flags.filter((f) => /^(avx2|avx512f|avx512_vnni|avx_vnni|amx_int8)$/.test(f)),
    node: process.version,
    loadavg: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number),
  };
  const tokenizer = await AutoTokenizer.from_pretrained(BENCH_MODEL_DIR, { local_files_only: true });
  const tok = (ps: NliPair[]): Tokenized => {
    const unique = distinct(ps);
    const enc = tokenizer(
      unique.map((p) => p.premise),
      { text_pair: unique.map((p) => p.hypothesis), truncation: true, return_tensor: false },
    ) as unknown as Encodings;
    return {
      unique,
      enc,
      lengths: enc.input_ids!.map((x) => x.length),
      padId: (tokenizer as unknown as { pad_token_id: number }).pad_token_id ?? 0,
    };
  };
  const all = tok(pairs);
  const sorted = [...all.lengths].sort((a, b) => a - b);
  console.log(
    `Verity bench:nli${QUICK ? ' (quick)' : ''} — ${pairs.length} pairs (${all.unique.length} distinct), tokens per pair median ${sorted[sorted.length >> 1]}, p90 ${sorted[Math.floor(sorted.length * 0.9)]}; Node ${process.version}; ${machine.cores}× ${machine.cpu} (${machine.simd.join(', ')}); load average ${machine.loadavg.join(' ')}`,
  );
  console.log(
    `  model: ${BENCH_MODEL_DIR} (6 layers, hidden 768, 12 heads, vocab 30522, random weights): fp32 ${FILE.fp32}, q8 ${FILE.q8}`,
  );
  const paddingBefore = charOrderPadding(all);
  console.log(
    `  padding (share of computed token positions that are padding): character order in chunks of 32, batches of 16 (before) ${pct(paddingBefore)}; token-length batches of ${BATCH} ${pct(ceilingBatches(all, BATCH).padded ? 1 - ceilingBatches(all, BATCH).real / ceilingBatches(all, BATCH).padded : 0)}`,
  );

  // Context only: onnxruntime-node through the same product path (classifyUnique → ModelHost), one pass.
  const node: Partial<Record<Dtype, { pairsPerSecond: number; disturbance: Disturbance }>> = {};
  if (!argFlag('no-node'))
    for (const dtype of DTYPES) {
      const host = createNodeHost();
      const loaded = await host.load({ ...parseModelArg('nli', BENCH_MODEL_DIR), dtypes: { cpu: [dtype] }, skipCanary: true });
      if (!loaded.ok) throw new Error(loaded.error.message);
      const nli = {
        classify: async (ps: NliPair[]) => {
          const r = await host.nli(ps);
          if (!r.ok) throw new Error(r.error.message);
          return r.value;
        },
      };
      await nli.classify(pairs.slice(0, 4));
      const before = cpuSnap();
      const t = performance.now();
      const memo = new Generations<string, NliDistribution>(MEMO_LIMIT);
      const step = PER_CALL > 0 ? PER_CALL : pairs.length;
      for (let i = 0; i < pairs.length; i += step) await classifyUnique(nli, pairs.slice(i, i + step), memo);
      node[dtype] = { pairsPerSecond: pairs.length / ((performance.now() - t) / 1000), disturbance: disturbance(before, cpuSnap()) };
      await host.dispose('nli');
      console.log(
        `  context: onnxruntime-node (cpu, ${dtype}) through the same path: ${node[dtype]!.pairsPerSecond.toFixed(1)} pairs/s (others ${node[dtype]!.disturbance.otherCores.toFixed(2)} cores)`,
      );
    }

  const bb = await BrowserBench.start(BENCH_MODEL_DIR, !argFlag('no-build'));
  if ('error' in bb) throw new Error(`browser bench: ${bb.error}`);
  const main: Partial<Record<Dtype, Alternated | { error: string }>> = {};
  const sweep: Partial<Record<Dtype, (Alternated | { batchSize: number; error: string })[]>> = {};
  let threads: number | undefined;
  let gpu: {
    adapter: AdapterInfo | null;
    software: boolean | null;
    pairs: number;
    batchSize: number;
    webgpu: number | null;
    wasm: number | null;
    ratio: number | null;
    met: boolean | null;
    error?: string;
  } | null = null;
  try {
    console.log(
      `  browser: ${bb.chromiumVersion}; app built from this tree, served by vite preview; Verity and the ceiling alternate in one page`,
    );
    const page = await bb.open();
    try {
      threads = await page.threads();
      const sweepPairs = pairs.slice(0, SWEEP_PAIRS);
      const sweepTok = tok(sweepPairs);
      for (const dtype of DTYPES) {
        const v = await page.loadVerity('wasm', dtype, pairs.slice(0, 2));
        if ('error' in v) {
          main[dtype] = { error: v.error };
          console.log(`  ${dtype}: Verity's model did not load: ${v.error}`);
          continue;
        }
        await page.loadCeiling(FILE[dtype], threads);
        // Warm-up of the ceiling (first runs allocate): one small pass.
        await page.prepareCeiling(ceilingBatches(tok(pairs.slice(0, 2)), batchFor(dtype)).batches);
        await page.ceiling();
        await settle();
        console.log(`  Chromium WASM ${dtype}, ${threads} threads, batch ${batchFor(dtype)}, all ${pairs.length} pairs, ${ROUNDS} rounds:`);
        const m = await alternate(page, all, pairs, batchFor(dtype), ROUNDS, dtype);
        main[dtype] = m;
        console.log(
          `  → ${dtype}: Verity ${m.verity.pairsPerSecond.toFixed(1)} pairs/s, ceiling ${m.ceiling.pairsPerSecond.toFixed(1)} pairs/s: ${m.ratio.toFixed(3)}× (rounds ${m.roundRatios.map((r) => r.toFixed(3)).join(', ')}; CPU-time ratio ${m.cpuRatio.toFixed(3)}); padding Verity ${pct(m.padding.verity)}, ceiling ${pct(m.padding.ceiling)}; outputs max |Δp| ${m.outputs.maxAbsDiff.toExponential(1)}, same top label ${pct(m.outputs.sameTopLabel)}`,
        );
        if (batchFor(dtype) === 1)
          console.log(`  (no batch-size sweep for ${dtype}: a dynamically quantized model runs one pair per model call)`);
        else if (!argFlag('no-sweep')) {
          console.log(`  batch-size sweep ${dtype} on the first ${sweepPairs.length} pairs (1 round each, order alternating):`);
          const rows: (Alternated | { batchSize: number; error: string })[] = [];
          for (const [i, size] of SIZES.entries()) {
            try {
              // Which side goes first alternates from one size to the next.
              rows.push(await alternate(page, sweepTok, sweepPairs, size, 1, `${dtype} batch ${size}`, i));
            } catch (e) {
              rows.push({ batchSize: size, error: (e as Error).message.split('\n')[0]! });
              console.log(`    ${dtype} batch ${size}: failed: ${(e as Error).message.split('\n')[0]}`);
            }
          }
          sweep[dtype] = rows;
          await page.setBatchSize(BATCH);
        }
        await page.disposeCeiling();
        await page.disposeVerity();
      }
    } finally {
      await page.close();
    }

    if (!argFlag('no-webgpu')) {
      const gpuPage = await bb.open(true);
      const gpuPairs = pairs.slice(0, WEBGPU_PAIRS);
      try {
        const adapter = await gpuPage.adapter();
        gpu = {
          adapter,
          software: adapter ? isSoftware(adapter) : null,
          pairs: gpuPairs.length,
          batchSize: GPU_BATCH,
          webgpu: null,
          wasm: null,
          ratio: null,
          met: null,
        };
        console.log(
          `  WebGPU adapter: ${adapter ? `vendor "${adapter.vendor}", architecture "${adapter.architecture}", device "${adapter.device}", description "${adapter.description}", fallback adapter: ${adapter.isFallbackAdapter ? 'yes' : 'no'}` : 'none'}`,
        );
        if (adapter) {
          await gpuPage.setBatchSize(GPU_BATCH);
          // WASM first: nothing of the WebGPU run (shader compilation, SwiftShader's threads) is still busy then.
          for (const device of ['wasm', 'webgpu'] as const) {
            const l = await gpuPage.loadVerity(device, 'fp32', gpuPairs.slice(0, 2)); // the warm-up compiles the shaders
            if ('error' in l) throw new Error(`${device}: ${l.error}`);
            await settle();
            const x = await gpuPage.verity(gpuPairs, PER_CALL);
            gpu[device] = gpuPairs.length / (x.ms / 1000);
            console.log(
              `    Verity ${device} fp32, batch ${GPU_BATCH}, ${gpuPairs.length} pairs: ${gpu[device]!.toFixed(2)} pairs/s (others ${x.disturbance.otherCores.toFixed(2)} cores)`,
            );
            await gpuPage.disposeVerity();
          }
          gpu.ratio = gpu.webgpu! / gpu.wasm!;
          gpu.met = gpu.software ? null : gpu.ratio >= GPU_TARGET;
        }
      } catch (e) {
        gpu = {
          ...(gpu ?? {
            adapter: null,
            software: null,
            pairs: gpuPairs.length,
            batchSize: GPU_BATCH,
            webgpu: null,
            wasm: null,
            ratio: null,
            met: null,
          }),
          error: (e as Error).message.split('\n')[0]!,
        };
        console.log(`    WebGPU failed: ${gpu.error}`);
      } finally {
        await gpuPage.close();
      }
    }
  } finally {
    bb.stop();
  }

  // ---------- summary ----------
  const ok = (x: Alternated | { error: string } | undefined): x is Alternated => !!x && !('error' in x);
  const target4 = Object.fromEntries(DTYPES.map((d) => [d, ok(main[d]) ? main[d].ratio >= RATIO_TARGET : false])) as Record<Dtype, boolean>;
  const best = Object.fromEntries(
    DTYPES.map((d) => {
      const rows = (sweep[d] ?? []).filter((r): r is Alternated => !('error' in r));
      const b = rows.reduce<Alternated | null>((a, r) => (!a || r.verity.pairsPerSecond > a.verity.pairsPerSecond ? r : a), null);
      return [d, b ? b.batchSize : null];
    }),
  ) as Record<Dtype, number | null>;
  const allOther = [
    ...DTYPES.flatMap((d) => (ok(main[d]) ? [...main[d].verity.other, ...main[d].ceiling.other] : [])),
    ...DTYPES.flatMap((d) => (sweep[d] ?? []).flatMap((r) => ('error' in r ? [] : [...r.verity.other, ...r.ceiling.other]))),
  ];
  const minutes = (performance.now() - started) / 60_000;

  const md: string[] = [];
  md.push(
    `Measured ${new Date().toISOString().slice(0, 10)}${QUICK ? ' (--quick run: fewer pairs, figures noisier)' : ''}: ${pairs.length} (premise, hypothesis) pairs (${all.unique.length} distinct; tokens per pair median ${sorted[sorted.length >> 1]}) on a generated real-size BERT NLI model (6 layers, hidden 768, 12 heads, vocab 30,522, random weights). CPU: ${machine.cpu}, ${machine.cores} cores, SIMD ${machine.simd.join(', ')}. ${bb.chromiumVersion}, ${threads} WASM threads.`,
    '',
    `Method: in one Chromium page, Verity's path (classifyUnique → hostContext → the app's model worker over comlink → ModelHost → transformers.js; ${PER_CALL > 0 ? `${PER_CALL} pairs per classifyUnique call, as the app's scoring session hands the evidence code ${PER_CALL / 2} rows of 2 pairs at a time` : 'all pairs in one classifyUnique call'}) and the WASM ceiling (a bare onnxruntime-web \`InferenceSession\` in a worker of the same page: the same onnxruntime-web build and wasm files, ONNX file and thread count, fed pre-tokenised, pre-padded token-length batches of the same size, timing \`session.run\` only) run the same pairs, alternating (Verity, ceiling, then ceiling, Verity, …) over ${ROUNDS} rounds, so machine noise hits both. pairs/s = input pairs / time. onnxruntime-node is context only.`,
    '',
    `| dtype | batch | Verity pairs/s | ceiling pairs/s | Verity / ceiling (target ≥ ${RATIO_TARGET}×) | per round | CPU-time ratio | padding Verity / ceiling | outputs max \\|Δp\\| | other processes (cores, max) | onnxruntime-node pairs/s (context) |`,
    '|---|---:|---:|---:|---|---|---:|---:|---:|---:|---:|',
  );
  for (const d of DTYPES) {
    const m = main[d];
    const n = node[d] ? node[d].pairsPerSecond.toFixed(1) : '—';
    if (!ok(m)) md.push(`| ${d} | ${batchFor(d)} | failed: ${m?.error ?? 'not run'} | | **not met** | | | | | | ${n} |`);
    else
      md.push(
        `| ${d} | ${m.batchSize} | ${m.verity.pairsPerSecond.toFixed(1)} | ${m.ceiling.pairsPerSecond.toFixed(1)} | ${m.ratio.toFixed(3)}× (${mark(target4[d])}) | ${m.roundRatios.map((r) => r.toFixed(3)).join(', ')} | ${m.cpuRatio.toFixed(3)} | ${pct(m.padding.verity)} / ${pct(m.padding.ceiling)} | ${m.outputs.maxAbsDiff.toExponential(1)} | ${Math.max(...m.verity.other, ...m.ceiling.other).toFixed(2)} | ${n} |`,
      );
  }
  md.push(
    '',
    `Padding (share of computed token positions): ${pct(paddingBefore)} with the order before issue 16 (character order, chunks of 32, model batches of 16); token-length batches now (table). Same top label for Verity and the ceiling on every pair: ${DTYPES.map((d) => (ok(main[d]) ? `${d} ${pct(main[d].outputs.sameTopLabel)}` : `${d} —`)).join(', ')}.`,
    '',
  );
  if (DTYPES.some((d) => sweep[d]?.length)) {
    md.push(
      `Batch-size sweep (first ${SWEEP_PAIRS} pairs, one alternating round per size; pairs/s):`,
      '',
      '| dtype | batch | Verity | ceiling | ratio | padding Verity |',
      '|---|---:|---:|---:|---:|---:|',
    );
    for (const d of DTYPES)
      for (const r of sweep[d] ?? [])
        md.push(
          'error' in r
            ? `| ${d} | ${r.batchSize} | failed: ${r.error} | | | |`
            : `| ${d} | ${r.batchSize} | ${r.verity.pairsPerSecond.toFixed(1)} | ${r.ceiling.pairsPerSecond.toFixed(1)} | ${r.ratio.toFixed(3)} | ${pct(r.padding.verity)} |`,
        );
    md.push(
      '',
      `Default model batch: ${BATCH} (src/runtime/host.ts DEFAULT_BATCH_SIZE; q8 graphs run one pair per model call, DYNAMIC_QUANT_DTYPES, so their scores do not depend on the other pairs of a call); fastest in this sweep for Verity: ${DTYPES.filter(
        (d) => batchFor(d) > 1,
      )
        .map((d) => `${d} ${best[d] ?? '—'}`)
        .join(', ')}.`,
      '',
    );
  }
  if (gpu) {
    const a = gpu.adapter;
    md.push(
      `WebGPU (Chromium --enable-unsafe-webgpu): adapter ${a ? `vendor "${a.vendor}", architecture "${a.architecture}", device "${a.device}", description "${a.description}", fallback adapter ${a.isFallbackAdapter ? 'yes' : 'no'}` : 'none'}. Verity fp32, batch ${gpu.batchSize}, ${gpu.pairs} pairs: WebGPU ${gpu.webgpu?.toFixed(2) ?? '—'} pairs/s, WASM ${gpu.wasm?.toFixed(2) ?? '—'} pairs/s (${gpu.ratio === null ? '—' : `${gpu.ratio.toFixed(2)}×`}). Target WebGPU ≥ ${GPU_TARGET}× WASM at batch ≥ 16: ${gpu.error ? `failed: ${gpu.error}` : gpu.software ? '**not applicable here** — this is a software adapter (SwiftShader, a CPU emulation of a GPU); the figure says nothing about real GPUs.' : gpu.met === null ? 'not applicable here (no adapter)' : mark(gpu.met)}`,
      '',
    );
  }
  md.push(
    `The CPU-time ratio (the ceiling's CPU seconds ÷ Verity's, both counted over this bench's own processes) shows the work each side did, whatever the wall clock lost to other processes; the target is the wall-clock ratio. The CPU other processes used is recorded for every timed run (worst here ${Math.max(0, ...allOther).toFixed(2)} cores); a ratio is measured within one run, both sides under the same conditions. Total ${minutes.toFixed(1)} min.`,
  );

  console.log('\n  targets:');
  for (const d of DTYPES)
    console.log(
      `    4. Verity / WASM ceiling ≥ ${RATIO_TARGET}× (${d}): ${ok(main[d]) ? `${main[d].ratio.toFixed(3)}×` : 'failed'} — ${mark(target4[d]).replace(/\*/g, '')}`,
    );
  console.log(
    `    5. WebGPU ≥ ${GPU_TARGET}× WASM at batch ≥ 16: ${!gpu ? 'not run' : gpu.error ? `failed (${gpu.error})` : gpu.software ? `${gpu.ratio?.toFixed(2) ?? '—'}× on a software adapter (SwiftShader) — not applicable here; says nothing about real GPUs` : gpu.met === null ? 'not applicable here (no WebGPU adapter)' : `${gpu.ratio!.toFixed(2)}× — ${gpu.met ? 'met' : 'not met'}`}`,
  );
  console.log(`\n----- markdown for bench/REPORT.md ("NLI throughput") -----\n${md.join('\n')}\n-----`);

  const result = {
    date: new Date().toISOString(),
    quick: QUICK,
    pairs: pairs.length,
    unique: all.unique.length,
    machine,
    chromium: bb.chromiumVersion,
    threads,
    defaults: { modelBatch: BATCH, classifyUniqueChunk: 512 },
    paddingBefore,
    node,
    main,
    sweep: { pairs: SWEEP_PAIRS, sizes: SIZES, rows: sweep, fastest: best },
    webgpu: gpu,
    targets: {
      verityToCeiling: { target: RATIO_TARGET, met: target4 },
      webgpuToWasm: { target: GPU_TARGET, met: gpu?.met ?? null, applicable: gpu ? gpu.software === false : false },
    },
    markdown: md.join('\n'),
    minutes,
  };
  writeFileSync(join(repoRoot, 'bench/out/nli.json'), `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(join(repoRoot, 'bench/out/nli.md'), `${md.join('\n')}\n`);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) await main();
