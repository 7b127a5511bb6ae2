/**
 * @file BERTScore F1 (Zhang et al., 2020): greedy matching of contextual token embeddings between the
 * candidate and each gold answer; best gold by F.
 *
 * With token vectors the=(0,0,1), kitten=(0.8,0.6,0), cat=(1,0,0), sat=(0,1,0) (as in the tests):
 * bertscore({question: 'Who sat?', golds: ['the cat'], candidate: 'the kitten sat'})
 * // → { score: 0.72, decision: false, explanation: 'best gold "the cat": P=0.6 R=0.9 F=0.72' }
 *
 * Definitions:
 * - Token vectors come from ctx.embedder.embedTokens (special tokens excluded); sim = cosine.
 *   P = Σ_i w(c_i) · max_j sim(c_i, r_j) / Σ_i w(c_i) over candidate tokens c_i, R likewise over reference
 *   tokens r_j, F = 2PR / (P + R). Without idf every w = 1 (plain means).
 * - idf (option `idf`), as bert-score with idf=True: over the M gold strings of the current batch (all golds of
 *   all rows, repeats counted), idf(w) = ln((M + 1) / (df(w) + 1)) with df(w) = how many golds contain token w
 *   (by token text); a token in no gold gets ln(M + 1). Candidate tokens are weighted with the same table.
 *   A row's score therefore depends on the other rows of its batch. Special handling: bert-score gives
 *   [CLS]/[SEP] weight 0 and keeps them in the max; here they are absent altogether. When every token of a
 *   sentence has idf 0 (e.g. a batch with a single gold, where bert-score returns NaN — Tiiiger/bert_score#6),
 *   that sentence falls back to uniform weights (reported in details.idf_fallback).
 * - Range: cosines can be negative, so raw P, R (and bert-score's F) can be < 0. The score uses P and R clamped
 *   into [0, 1] and F from those (so F = 0 when P ≤ 0 or R ≤ 0, and F equals bert-score's raw F whenever
 *   P, R ≥ 0, the usual case); the raw values are in details. No baseline rescaling.
 * - Several golds: the gold with the highest F (first on a tie); its P and R are reported (bert-score instead
 *   takes the max of P, R and F separately). Empty candidate or gold (no tokens) → 0 for that pair.
 */
import type { Capability, ModelContext, TokenEmbeddings } from '../capabilities.ts';
import type { BatchMetric, MetricCard, MetricResult, QaItem } from '../types.ts';
import { clamp01, quote, round } from './common.ts';
import { optionValues, thresholdOption, type ModelDescriptor, type OptionTable } from './descriptor.ts';

export const card: MetricCard = {
  what: 'Soft token overlap: each candidate token is matched to its most similar gold token (and vice versa) using contextual embeddings.',
  formula:
    'P = mean_i max_j cos(c_i, r_j), R = mean_j max_i cos(r_j, c_i) (idf-weighted means with idf), F = 2PR/(P+R); P, R clamped to [0, 1]; max F over golds.',
  defaults:
    'No idf weighting; idf option: idf(w) = ln((M+1)/(df(w)+1)) over the golds of the batch. Decision threshold 0.8. No baseline rescaling.',
  limits:
    'Scores from the small in-browser encoder are not comparable to the official roberta-large numbers (different model and layer, no baseline rescaling); raw values sit high (often 0.7–1) and a fluent wrong answer can still score high. With idf a score depends on the other rows of its batch.',
  citation: 'Zhang, Kishore, Wu, Weinberger, Artzi, 2020. BERTScore: Evaluating Text Generation with BERT. ICLR.',
};

export interface BertScoreOptions {
  /** idf weighting over the golds of the batch (default false). */
  idf?: boolean;
  /** Decision threshold on F (default 0.8). */
  threshold?: number;
}

export interface Prf {
  precision: number;
  recall: number;
  f1: number;
}

/** Unit-length copy of each vector (zero vectors stay zero, so their cosines are 0). */
function unit(vectors: readonly Float32Array[]): Float32Array[] {
  return vectors.map((v) => {
    let n = 0;
    for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
    const out = new Float32Array(v.length);
    if (n > 0) {
      const s = 1 / Math.sqrt(n);
      for (let i = 0; i < v.length; i++) out[i] = v[i]! * s;
    }
    return out;
  });
}

function dot(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new Error(`token vector sizes differ (${a.length} vs ${b.length})`);
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

const uniform = (n: number): number[] => new Array<number>(n).fill(1);

/**
 * Raw greedy-matching P, R, F of candidate vs reference token vectors (unit length), with per-token weights.
 * Either side empty → all 0 (as bert-score).
 */
export function greedyMatch(
  cand: readonly Float32Array[],
  ref: readonly Float32Array[],
  candWeights: readonly number[] = uniform(cand.length),
  refWeights: readonly number[] = uniform(ref.length),
): Prf {
  if (cand.length === 0 || ref.length === 0) return { precision: 0, recall: 0, f1: 0 };
  const bestForCand = new Array<number>(cand.length).fill(-Infinity);
  const bestForRef = new Array<number>(ref.length).fill(-Infinity);
  for (let i = 0; i < cand.length; i++)
    for (let j = 0; j < ref.length; j++) {
      const s = dot(cand[i]!, ref[j]!);
      if (s > bestForCand[i]!) bestForCand[i] = s;
      if (s > bestForRef[j]!) bestForRef[j] = s;
    }
  const wmean = (xs: number[], ws: readonly number[]) => {
    let num = 0;
    let den = 0;
    xs.forEach((x, k) => {
      num += ws[k]! * x;
      den += ws[k]!;
    });
    return num / den;
  };
  const precision = wmean(bestForCand, candWeights);
  const recall = wmean(bestForRef, refWeights);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

/** idf table over reference token lists: ln((M+1)/(df+1)); unseen tokens → ln(M+1). */
export function idfTable(refs: readonly (readonly string[])[]): (token: string) => number {
  const df = new Map<string, number>();
  for (const r of refs) for (const t of new Set(r)) df.set(t, (df.get(t) ?? 0) + 1);
  const m = refs.length;
  return (t) => Math.log((m + 1) / ((df.get(t) ?? 0) + 1));
}

/** The score's P, R, F: P and R clamped into [0, 1], F from the clamped values. */
export function clampPrf(raw: Prf): Prf {
  const precision = clamp01(raw.precision);
  const recall = clamp01(raw.recall);
  return { precision, recall, f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall) };
}

interface Encoded {
  tokens: string[];
  vectors: Float32Array[];
}

/** The models it uses: an embedder (token embeddings). */
const NEEDS: readonly Capability[] = ['embedder'];

export function createBertScore(options: BertScoreOptions = {}): BatchMetric {
  const useIdf = options.idf ?? false;
  const threshold = options.threshold ?? 0.8;
  return {
    name: 'bertscore',
    card,
    threshold,
    needs: NEEDS,
    async scoreBatch(items: readonly QaItem[], ctx: ModelContext): Promise<MetricResult[]> {
      const results: MetricResult[] = new Array(items.length);
      const todo: number[] = [];
      items.forEach((it, i) => {
        if (it.golds.length === 0) results[i] = { score: 0, decision: false, explanation: 'no gold answer' };
        else todo.push(i);
      });
      if (todo.length === 0) return results;

      const embedder = ctx.embedder;
      if (!embedder?.embedTokens) {
        const explanation = embedder
          ? 'not available: the loaded embedder gives no token embeddings (embedTokens), which BERTScore needs'
          : 'not available: BERTScore needs an embedder with token embeddings (none loaded)';
        for (const i of todo) results[i] = { score: null, decision: null, explanation };
        return results;
      }

      const texts = [...new Set(todo.flatMap((i) => [items[i]!.candidate, ...items[i]!.golds]))];
      const out: TokenEmbeddings[] = await embedder.embedTokens(texts);
      if (out.length !== texts.length) throw new Error(`the embedder returned token embeddings for ${out.length} of ${texts.length} texts`);
      const enc = new Map<string, Encoded>();
      texts.forEach((t, k) => {
        const e = out[k]!;
        if (e.tokens.length !== e.vectors.length)
          throw new Error(`the embedder returned ${e.vectors.length} vectors for ${e.tokens.length} tokens`);
        enc.set(t, { tokens: e.tokens, vectors: unit(e.vectors) });
      });

      const idf = useIdf ? idfTable(todo.flatMap((i) => items[i]!.golds.map((g) => enc.get(g)!.tokens))) : null;
      /** Token weights of one sentence; fallback = every idf was 0, so uniform weights are used. */
      const weights = (e: Encoded): { w: number[]; fallback: boolean } => {
        if (!idf) return { w: uniform(e.tokens.length), fallback: false };
        const w = e.tokens.map(idf);
        const fallback = w.length > 0 && w.every((x) => x === 0);
        return { w: fallback ? uniform(w.length) : w, fallback };
      };

      for (const i of todo) {
        const it = items[i]!;
        const c = enc.get(it.candidate)!;
        const cw = weights(c);
        let best: { gold: string; raw: Prf; prf: Prf; fallback: string[] } | undefined;
        for (const g of it.golds) {
          const r = enc.get(g)!;
          const rw = weights(r);
          const raw = greedyMatch(c.vectors, r.vectors, cw.w, rw.w);
          const prf = clampPrf(raw);
          const fallback = [...(cw.fallback ? ['candidate'] : []), ...(rw.fallback ? ['reference'] : [])];
          if (!best || prf.f1 > best.prf.f1) best = { gold: g, raw, prf, fallback };
        }
        const b = best!;
        const why =
          c.tokens.length === 0 ? 'empty candidate' : enc.get(b.gold)!.tokens.length === 0 ? `gold ${quote(b.gold)} is empty` : null;
        results[i] = {
          score: b.prf.f1,
          decision: b.prf.f1 >= threshold,
          explanation:
            why ??
            `best gold ${quote(b.gold)}: P=${round(b.prf.precision)} R=${round(b.prf.recall)} F=${round(b.prf.f1)}${useIdf ? ' (idf)' : ''}`,
          details: {
            matched_gold: b.gold,
            ...b.prf,
            raw: b.raw,
            idf: useIdf,
            ...(b.fallback.length ? { idf_fallback: b.fallback } : {}),
          },
        };
      }
      return results;
    },
  };
}

const EXAMPLE_VECTORS: Record<string, number[]> = { the: [0, 0, 1], kitten: [0.8, 0.6, 0], cat: [1, 0, 0], sat: [0, 1, 0] };

const OPTIONS = {
  idf: { kind: 'choice', choices: ['off', 'on'], default: 'off', describe: 'weight tokens by their idf over the golds of the batch' },
} as const satisfies OptionTable;

export const descriptor: ModelDescriptor = {
  needs: NEEDS,
  name: 'bertscore',
  family: 'model',
  card,
  options: OPTIONS,
  create: (s, name = 'bertscore') =>
    createBertScore({ ...thresholdOption(s, name), idf: optionValues(OPTIONS, s, 'bertscore').idf === 'on' }),
  examples: [
    {
      item: { question: 'Who sat?', golds: ['the cat'], candidate: 'the kitten sat' },
      given: 'token vectors the = (0, 0, 1), kitten = (0.8, 0.6, 0), cat = (1, 0, 0), sat = (0, 1, 0)',
      models: () => ({
        embedder: {
          embed: async () => {
            throw new Error('BERTScore uses token vectors only');
          },
          embedTokens: async (texts) =>
            texts.map((t) => {
              const tokens = t.split(/\s+/).filter(Boolean);
              return { tokens, vectors: tokens.map((w) => Float32Array.from(EXAMPLE_VECTORS[w] ?? [0, 0, 0])) };
            }),
        },
      }),
      expected: { score: 0.72, decision: false, explanation: 'best gold "the cat": P=0.6 R=0.9 F=0.72' },
    },
  ],
};
