/**
 * `npm run bench:nli`: NLI throughput on a real-size BERT classifier (6 layers, hidden 768, 12 heads,
 * vocab 30522, random weights — generated into bench/out/, never committed) over 2,000 (premise, hypothesis)
 * pairs of realistic lengths: gold vs candidate statements written by the rule writer from the shared
 * TriviaQA answers. Measures, in Node (onnxruntime-node, CPU):
 *   - naive: one pair per call, in input order;
 *   - batched: the runtime's path — duplicates removed, pairs sorted by length, batches of 32.
 * then the same pairs in Chromium through the app's model worker (bench/nli-browser.ts): WASM with threads,
 * WASM with one thread, and WebGPU on SwiftShader (report only, on a subset). Targets on a 2-core machine:
 * Chromium WASM ≥ 0.8× Node; batched ≥ 2× naive. Figures go to stdout and bench/out/nli.json.
 *
 *   npm run bench:nli [-- --pairs 2000 --no-browser]
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildBertNliModel } from '../scripts/fixtures/generate.ts';
import { bertTokenizerJson, bertVocab } from '../scripts/fixtures/vocab.ts';
import { loadEvouna, repoRoot } from '../scripts/evouna.ts';
import { createRuleWriter } from '../src/core/statements/rules.ts';
import { classifyUnique } from '../src/core/evidence.ts';
import { createNodeHost, parseModelArg } from '../src/runtime/node.ts';
import type { NliPair } from '../src/core/capabilities.ts';
import { browserBench } from './nli-browser.ts';

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const PAIRS = arg('--pairs', 2000);
export const BENCH_MODEL_DIR = join(repoRoot, 'bench/out/bert-nli-6x768');

/** Real-size model with a vocabulary of words from the data, so tokenization gives realistic lengths. */
export function ensureModel(words: string[]): void {
  if (existsSync(join(BENCH_MODEL_DIR, 'onnx/model.onnx'))) return;
  buildBertNliModel(BENCH_MODEL_DIR, { layers: 6, hidden: 768, heads: 12, vocabSize: 30522, quantizedCopy: false });
  const base = bertVocab();
  const seen = new Set(base);
  const vocab = [...base, ...words.filter((w) => !seen.has(w) && (seen.add(w), true))].slice(0, 30522);
  for (let i = 0; vocab.length < 30522; i++) vocab.push(`[unused${i}]`);
  writeFileSync(join(BENCH_MODEL_DIR, 'tokenizer.json'), JSON.stringify(bertTokenizerJson(vocab)));
}

/** 2,000 gold-statement → candidate-statement pairs from the shared TriviaQA answers (both directions). */
export async function benchPairs(n: number): Promise<{ pairs: NliPair[]; words: string[] }> {
  const items = loadEvouna();
  const freq = new Map<string, number>();
  for (const it of items) for (const w of `${it.question} ${it.candidate}`.toLowerCase().match(/[a-z]+/g) ?? []) freq.set(w, (freq.get(w) ?? 0) + 1);
  const words = [...freq.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([w]) => w);
  const writer = createRuleWriter();
  const chosen = items.slice(0, Math.ceil(n / 2));
  const gold = await writer.write(chosen.map((it) => ({ question: it.question, answer: it.golds[it.golds.length - 1]! })));
  const cand = await writer.write(chosen.map((it) => ({ question: it.question, answer: it.candidate })));
  const pairs: NliPair[] = [];
  chosen.forEach((_, i) => pairs.push({ premise: gold[i]!, hypothesis: cand[i]! }, { premise: cand[i]!, hypothesis: gold[i]! }));
  return { pairs: pairs.slice(0, n), words };
}

async function main(): Promise<void> {
  const { pairs, words } = await benchPairs(PAIRS);
  ensureModel(words);
  const unique = new Set(pairs.map((p) => `${p.premise}\u0000${p.hypothesis}`)).size;
  const chars = pairs.map((p) => p.premise.length + p.hypothesis.length).sort((a, b) => a - b);
  console.log(`Verity bench:nli — ${pairs.length} pairs (${unique} distinct), premise+hypothesis length median ${chars[chars.length >> 1]} chars, p90 ${chars[Math.floor(chars.length * 0.9)]}; Node ${process.version}`);
  const host = createNodeHost();
  const loaded = await host.load(parseModelArg('nli', BENCH_MODEL_DIR));
  if (!loaded.ok) throw new Error(loaded.error.message);
  console.log(`  model: ${BENCH_MODEL_DIR} (6 layers, hidden 768, 12 heads, vocab 30522, random weights) on ${loaded.value.device}/${loaded.value.dtype}`);
  const nli = { classify: async (ps: NliPair[]) => { const r = await host.nli(ps); if (!r.ok) throw new Error(r.error.message); return r.value; } };
  await nli.classify(pairs.slice(0, 8)); // warm-up

  let t = performance.now();
  for (const p of pairs) await nli.classify([p]);
  const naive = pairs.length / ((performance.now() - t) / 1000);
  t = performance.now();
  await classifyUnique(nli, pairs);
  const batched = pairs.length / ((performance.now() - t) / 1000);
  console.log(`  Node onnxruntime-node (cpu, fp32): naive one pair per call ${naive.toFixed(1)} pairs/s; length-sorted deduplicated batches ${batched.toFixed(1)} pairs/s; ratio ${(batched / naive).toFixed(2)}×`);
  const browser = process.argv.includes('--no-browser') ? [] : await browserBench(pairs, BENCH_MODEL_DIR);
  for (const b of browser) {
    const rate = b.pairsPerSecond === null ? `failed: ${b.error}` : `${b.pairsPerSecond.toFixed(1)} pairs/s on ${b.pairs} pairs (${b.device}/${b.dtype}, ${b.threads} thread${b.threads === 1 ? '' : 's'})`;
    const vsNode = b.pairsPerSecond !== null && b.device === 'wasm' ? `; ${(b.pairsPerSecond / batched).toFixed(2)}× Node` : '';
    console.log(`  ${b.label}: ${rate}${vsNode}`);
  }
  const result = { date: new Date().toISOString(), pairs: pairs.length, unique, node: { naive, batched, ratio: batched / naive }, browser };
  writeFileSync(join(repoRoot, 'bench/out/nli.json'), `${JSON.stringify(result, null, 2)}\n`);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) await main();
