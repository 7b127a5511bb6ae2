/**
 * The Verity side of `npm run bench:nli` in the page: NLI pairs through the product's own path — the evidence
 * code's classifyUnique (dedup, order, chunks) → hostContext's Nli → the app's model worker (comlink, the
 * `__verityModels` handle the app sets) → ModelHost → transformers.js. Built by bench/nli-browser.ts with Vite
 * into the served copy of the app; nothing here is part of the app.
 */
import type { Remote } from 'comlink';
import { classifyUnique, MEMO_LIMIT } from '../src/core/evidence.ts';
import { Generations } from '../src/core/util/memo.ts';
import { hostContext } from '../src/runtime/context.ts';
import type { ModelSpec } from '../src/runtime/messages.ts';
import type { NliDistribution, NliPair } from '../src/core/capabilities.ts';
import type { ModelHostApi } from '../src/runtime/host-api.ts';

const api = () => (globalThis as unknown as { __verityModels: Remote<ModelHostApi> }).__verityModels;

let ctx: ReturnType<typeof hostContext> | null = null;

const bench = {
  /** Loads the model through hostContext (as a run does); the first inference (warm-up) happens here too. */
  async load(spec: ModelSpec, warm: NliPair[]): Promise<{ device: string; dtype: string; fallbacks: string[] } | { error: string }> {
    ctx = hostContext(api(), { nli: spec });
    try {
      await classifyUnique(ctx.nli!, warm);
    } catch (e) {
      return { error: (e as Error).message };
    }
    const info = ctx.provenance.nli!;
    await api().takeTokenStats();
    return { device: info.device, dtype: info.dtype, fallbacks: info.fallbacks };
  },

  /**
   * One timed pass over `pairs`, handed to classifyUnique `perCall` pairs at a time (as the evidence code gets
   * one scoring batch of rows at a time) with one memo for the pass (as a run's EvidenceCache keeps it), so every
   * distinct pair is computed once; with the host's padding figures.
   */
  async run(
    pairs: NliPair[],
    perCall: number,
  ): Promise<{ ms: number; dists: NliDistribution[]; tokens: { real: number; padded: number; batches: number } }> {
    const memo = new Generations<string, NliDistribution>(MEMO_LIMIT);
    const step = perCall > 0 ? perCall : pairs.length;
    const dists: NliDistribution[] = [];
    const t = performance.now();
    for (let i = 0; i < pairs.length; i += step) dists.push(...(await classifyUnique(ctx!.nli!, pairs.slice(i, i + step), memo)));
    const ms = performance.now() - t;
    return { ms, dists, tokens: await api().takeTokenStats() };
  },

  setBatchSize: (n: number) => api().setBatchSize(n),
  threads: async () => (await api().probe()).threads,
  runtimeFiles: () => api().runtimeFiles(),
  dispose: () => api().dispose('nli'),
};

export type VerityBench = typeof bench;
(globalThis as unknown as { __verityBench: VerityBench }).__verityBench = bench;
