/**
 * The evidence CAP, the entailment hierarchy and the taxonomy share: a declarative statement per gold and for
 * the candidate, and NLI distributions in both directions per gold. Computed once per item per run, from the
 * input's own `nli` field when present, else with the run's `Nli` model — statements for a repeated
 * (question, answer) and NLI for a repeated pair are computed once per run (also across batches), and pairs go
 * to the model deduplicated and length-sorted.
 */
import type { ModelContext, Nli, NliDistribution, NliPair, StatementItem, StatementWriter } from './capabilities.ts';
import type { ProvidedNli, QaItem } from './types.ts';
import { createRuleWriter } from './statements/rules.ts';

export interface Evidence {
  /** One statement per gold, in gold order. */
  goldStatements: string[];
  candidateStatement: string;
  /** Which writer produced the statements ("input" when the row carried them). */
  writer: string;
  /** Why the configured writer was not used, when it fell back to the rule writer. */
  writerFallback?: string;
  /** Per gold, in gold order. */
  nli: ProvidedNli[];
  nliSource: 'input' | 'model';
}

export type EvidenceResult = { ok: true; evidence: Evidence } | { ok: false; reason: string };

const NLI_BATCH = 32;

/** Statements and NLI already computed in this run, so a repeated (question, answer) or pair is computed once. */
interface Memo {
  statements: Map<string, { text: string; name: string }>;
  nli: Map<string, NliDistribution>;
}
/** Past this many entries a memo starts again (bounded memory on 10^6-row runs). */
const MEMO_LIMIT = 200_000;
const remember = <V>(m: Map<string, V>, k: string, v: V) => {
  if (m.size >= MEMO_LIMIT) m.clear();
  m.set(k, v);
};

/** Writes statements for unique (question, answer) items; falls back to the rule writer when the model writer fails. */
async function writeStatements(items: StatementItem[], writer: StatementWriter, rules: StatementWriter, memo?: Memo['statements']): Promise<{ out: string[]; name: string; fallback?: string }> {
  const keys = items.map((it) => `${it.question}\u0000${it.answer}`);
  const firstOf = new Map<string, number>();
  keys.forEach((k, i) => {
    if (!firstOf.has(k) && !memo?.has(k)) firstOf.set(k, i);
  });
  const unique = [...firstOf.keys()];
  const uniqueItems = unique.map((k) => items[firstOf.get(k)!]!);
  let written: string[] = [];
  let name = writer.name;
  let fallback: string | undefined;
  if (uniqueItems.length)
    try {
      written = await writer.write(uniqueItems);
      if (written.length !== uniqueItems.length || written.some((s) => typeof s !== 'string' || s.trim() === '')) throw new Error('it returned empty or missing statements');
    } catch (e) {
      if (writer === rules) throw e;
      fallback = `${writer.name} failed (${(e as Error).message}); used the rule writer`;
      written = await rules.write(uniqueItems);
      name = rules.name;
    }
  const byKey = new Map(unique.map((k, i) => [k, { text: written[i]!, name }] as const));
  // Only the configured writer's statements are remembered: after a fallback the next batch tries it again.
  if (memo && !fallback) for (const [k, v] of byKey) remember(memo, k, v);
  const out = keys.map((k) => (byKey.get(k) ?? memo!.get(k)!).text);
  const names = new Set(keys.map((k) => (byKey.get(k) ?? memo!.get(k)!).name));
  return { out, name: names.size === 1 ? [...names][0]! : name, ...(fallback ? { fallback } : {}) };
}

/** Classifies unique pairs once, shortest first in fixed-size batches, and maps results back. */
export async function classifyUnique(nli: Nli, pairs: NliPair[], memo?: Memo['nli']): Promise<NliDistribution[]> {
  const keys = pairs.map((p) => `${p.premise}\u0000${p.hypothesis}`);
  const firstOf = new Map<string, number>();
  keys.forEach((k, i) => {
    if (!firstOf.has(k) && !memo?.has(k)) firstOf.set(k, i);
  });
  const unique = [...firstOf.keys()];
  const order = unique.map((_, i) => i).sort((a, b) => unique[a]!.length - unique[b]!.length);
  const results = new Map<string, NliDistribution>();
  for (let s = 0; s < order.length; s += NLI_BATCH) {
    const chunk = order.slice(s, s + NLI_BATCH).map((i) => unique[i]!);
    const out = await nli.classify(chunk.map((k) => pairs[firstOf.get(k)!]!));
    if (out.length !== chunk.length) throw new Error(`the NLI model returned ${out.length} results for ${chunk.length} pairs`);
    chunk.forEach((k, i) => results.set(k, out[i]!));
  }
  if (memo) for (const [k, v] of results) remember(memo, k, v);
  return keys.map((k) => results.get(k) ?? memo!.get(k)!);
}

class EvidenceCache {
  private readonly cache = new WeakMap<QaItem, Promise<EvidenceResult>>();
  private readonly rules = createRuleWriter();
  private readonly memo: Memo = { statements: new Map(), nli: new Map() };

  constructor(private readonly ctx: ModelContext) {}

  get(items: readonly QaItem[]): Promise<EvidenceResult[]> {
    const missing = items.filter((it) => !this.cache.has(it));
    if (missing.length > 0) {
      const batch = this.compute(missing);
      missing.forEach((it, i) => this.cache.set(it, batch.then((r) => r[i]!)));
    }
    return Promise.all(items.map((it) => this.cache.get(it)!));
  }

  private async compute(items: QaItem[]): Promise<EvidenceResult[]> {
    const nli = this.ctx.nli;
    const usable = items.map((it) => it.nli !== undefined || nli !== undefined);
    // Statements: from the input, else written (model writer with rule fallback, or rules).
    const toWrite: StatementItem[] = [];
    items.forEach((it, i) => {
      if (!usable[i] || it.statements) return;
      for (const g of it.golds) toWrite.push({ question: it.question, answer: g });
      toWrite.push({ question: it.question, answer: it.candidate });
    });
    let written: Awaited<ReturnType<typeof writeStatements>> = { out: [], name: this.rules.name };
    try {
      if (toWrite.length) written = await writeStatements(toWrite, this.ctx.writer ?? this.rules, this.rules, this.memo.statements);
    } catch (e) {
      const reason = `statement writing failed: ${(e as Error).message}`;
      return items.map(() => ({ ok: false, reason }));
    }
    let w = 0;
    const statements = items.map((it, i) => {
      if (!usable[i]) return null;
      if (it.statements) return { gold: it.statements.gold, candidate: it.statements.candidate, writer: 'input' };
      const gold = it.golds.map(() => written.out[w++]!);
      return { gold, candidate: written.out[w++]!, writer: written.name };
    });
    // NLI in both directions for the rows that did not bring their own.
    const pairs: NliPair[] = [];
    items.forEach((it, i) => {
      const st = statements[i];
      if (!st || it.nli) return;
      for (const g of st.gold) pairs.push({ premise: g, hypothesis: st.candidate }, { premise: st.candidate, hypothesis: g });
    });
    let dists: NliDistribution[] = [];
    if (pairs.length && nli) {
      try {
        dists = await classifyUnique(nli, pairs, this.memo.nli);
      } catch (e) {
        const reason = `the NLI model failed: ${(e as Error).message}`;
        return items.map(() => ({ ok: false, reason }));
      }
    }
    let d = 0;
    return items.map((it, i): EvidenceResult => {
      const st = statements[i];
      if (!st) return { ok: false, reason: 'needs an NLI model, or nli probabilities in the input' };
      const fromInput = it.nli !== undefined;
      const perGold: ProvidedNli[] = fromInput ? it.nli! : st.gold.map(() => ({ goldToCandidate: dists[d++]!, candidateToGold: dists[d++]! }));
      return {
        ok: true,
        evidence: {
          goldStatements: st.gold,
          candidateStatement: st.candidate,
          writer: st.writer,
          ...(st.writer !== 'input' && written.fallback ? { writerFallback: written.fallback } : {}),
          nli: perGold,
          nliSource: fromInput ? 'input' : 'model',
        },
      };
    });
  }
}

const caches = new WeakMap<ModelContext, EvidenceCache>();

/** Evidence for each item, shared by every metric of a run that uses the same context object. */
export function getEvidence(ctx: ModelContext, items: readonly QaItem[]): Promise<EvidenceResult[]> {
  let c = caches.get(ctx);
  if (!c) caches.set(ctx, (c = new EvidenceCache(ctx)));
  return c.get(items);
}
