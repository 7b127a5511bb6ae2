/**
 * The evidence CAP, the entailment hierarchy and the taxonomy share: a declarative statement per gold and for
 * the candidate, and NLI distributions in both directions per gold. Computed once per item per run, from the
 * input's own `nli` field when present, else with the run's `Nli` model — statements for a repeated
 * (question, answer) and NLI for a repeated pair are computed once per run (also across batches), and pairs go
 * to the model deduplicated and length-sorted.
 *
 * "Per run" is explicit: the run's `EvidenceCache` travels in `ModelContext.evidence` (`scoreRows` makes one
 * when the caller gives none), so nothing is kept at module level and two runs never share answers.
 */
import type { ModelContext, Nli, NliDistribution, NliPair, StatementItem, StatementWriter } from './capabilities.ts';
import type { MetricResult, ProvidedNli, QaItem } from './types.ts';
import { createRuleWriter } from './statements/rules.ts';
import { Generations } from './util/memo.ts';
import { fail, ok, type Result } from './errors.ts';

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

/**
 * Distinct pairs per model call. Large, so the model host sees many pairs at once: it sorts them by token
 * length and pads each model batch to its longest row, and a large call has neighbours of nearly equal length
 * (chunks of 32 left about a fifth of the computed tokens as padding). One call is also one worker round trip.
 */
const NLI_BATCH = 512;

/**
 * Statements and NLI already computed in this run, so a repeated (question, answer) or pair is computed once. Two
 * generations each (memo.ts), so memory stays bounded on 10^6-row runs and what recurs survives a full one.
 */
interface Memo {
  statements: Generations<string, { text: string; name: string }>;
  nli: Generations<string, NliDistribution>;
}
/** Entries in each generation of a memo (the NLI benches keep their memo as a run does). */
export const MEMO_LIMIT = 200_000;

/**
 * Each key's first index among those the memo does not hold, and what it holds for the others, read before any
 * await: remembering new results may drop a generation, and another batch may run meanwhile.
 */
function split<V>(
  keys: readonly string[],
  memo: Generations<string, V> | undefined,
): { firstOf: Map<string, number>; known: Map<string, V> } {
  const firstOf = new Map<string, number>();
  const known = new Map<string, V>();
  keys.forEach((k, i) => {
    if (firstOf.has(k) || known.has(k)) return;
    const v = memo?.find(k);
    if (v === undefined) firstOf.set(k, i);
    else known.set(k, v);
  });
  return { firstOf, known };
}

/** Writes statements for unique (question, answer) items; falls back to the rule writer when the model writer fails. */
async function writeStatements(
  items: StatementItem[],
  writer: StatementWriter,
  rules: StatementWriter,
  memo?: Memo['statements'],
): Promise<{ out: string[]; name: string; fallback?: string }> {
  const keys = items.map((it) => `${it.question}\u0000${it.answer}`);
  const { firstOf, known } = split(keys, memo);
  const unique = [...firstOf.keys()];
  const uniqueItems = unique.map((k) => items[firstOf.get(k)!]!);
  let written: string[] = [];
  let name = writer.name;
  let fallback: string | undefined;
  if (uniqueItems.length)
    try {
      written = await writer.write(uniqueItems);
      if (written.length !== uniqueItems.length || written.some((s) => typeof s !== 'string' || s.trim() === ''))
        throw new Error('it returned empty or missing statements');
    } catch (e) {
      if (writer === rules) throw e;
      fallback = `${writer.name} failed (${(e as Error).message}); used the rule writer`;
      written = await rules.write(uniqueItems);
      name = rules.name;
    }
  const byKey = new Map(unique.map((k, i) => [k, { text: written[i]!, name }] as const));
  // Only the configured writer's statements are remembered: after a fallback the next batch tries it again.
  if (memo && !fallback) for (const [k, v] of byKey) memo.set(k, v);
  const out = keys.map((k) => (byKey.get(k) ?? known.get(k)!).text);
  const names = new Set(keys.map((k) => (byKey.get(k) ?? known.get(k)!).name));
  return { out, name: names.size === 1 ? [...names][0]! : name, ...(fallback ? { fallback } : {}) };
}

/** Classifies unique pairs once, shortest first in fixed-size batches, and maps results back. */
export async function classifyUnique(nli: Nli, pairs: NliPair[], memo?: Memo['nli']): Promise<NliDistribution[]> {
  const keys = pairs.map((p) => `${p.premise}\u0000${p.hypothesis}`);
  const { firstOf, known } = split(keys, memo);
  const unique = [...firstOf.keys()];
  const order = unique.map((_, i) => i).sort((a, b) => unique[a]!.length - unique[b]!.length);
  const results = new Map<string, NliDistribution>();
  for (let s = 0; s < order.length; s += NLI_BATCH) {
    const chunk = order.slice(s, s + NLI_BATCH).map((i) => unique[i]!);
    const out = await nli.classify(chunk.map((k) => pairs[firstOf.get(k)!]!));
    if (out.length !== chunk.length) throw new Error(`the NLI model returned ${out.length} results for ${chunk.length} pairs`);
    chunk.forEach((k, i) => results.set(k, out[i]!));
  }
  if (memo) for (const [k, v] of results) memo.set(k, v);
  return keys.map((k) => results.get(k) ?? known.get(k)!);
}

/**
 * One run's evidence: per item (the same row objects are handed to every metric of the run) and the memo of
 * statements and NLI pairs. Belongs to one run and its models; a new run makes a new one.
 */
export class EvidenceCache {
  private readonly cache = new WeakMap<QaItem, Promise<Result<Evidence>>>();
  private readonly rules = createRuleWriter();
  private readonly memo: Memo;

  /** `memoLimit`: entries in each generation of the statement and NLI memos. */
  constructor(memoLimit = MEMO_LIMIT) {
    this.memo = { statements: new Generations(memoLimit), nli: new Generations(memoLimit) };
  }

  /** Evidence for each item, with the run's models in `ctx`; an item seen before is not computed again. */
  get(ctx: ModelContext, items: readonly QaItem[]): Promise<Result<Evidence>[]> {
    const missing = items.filter((it) => !this.cache.has(it));
    if (missing.length > 0) {
      const batch = this.compute(ctx, missing);
      missing.forEach((it, i) =>
        this.cache.set(
          it,
          batch.then((r) => r[i]!),
        ),
      );
    }
    return Promise.all(items.map((it) => this.cache.get(it)!));
  }

  private async compute(ctx: ModelContext, items: QaItem[]): Promise<Result<Evidence>[]> {
    const nli = ctx.nli;
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
      if (toWrite.length) written = await writeStatements(toWrite, ctx.writer ?? this.rules, this.rules, this.memo.statements);
    } catch (e) {
      const reason = `statement writing failed: ${(e as Error).message}`;
      return items.map(() => fail(reason));
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
        return items.map(() => fail(reason));
      }
    }
    let d = 0;
    return items.map((it, i): Result<Evidence> => {
      const st = statements[i];
      if (!st) return fail('needs an NLI model, or nli probabilities in the input');
      const fromInput = it.nli !== undefined;
      const perGold: ProvidedNli[] = fromInput
        ? it.nli!
        : st.gold.map(() => ({ goldToCandidate: dists[d++]!, candidateToGold: dists[d++]! }));
      return ok({
        goldStatements: st.gold,
        candidateStatement: st.candidate,
        writer: st.writer,
        ...(st.writer !== 'input' && written.fallback ? { writerFallback: written.fallback } : {}),
        nli: perGold,
        nliSource: fromInput ? 'input' : 'model',
      });
    });
  }
}

/** A run's context: its models, and the evidence its metrics share (one cache per run). */
export type RunContext = ModelContext & { evidence?: EvidenceCache };

/** The context with a fresh evidence cache: call once per run, then pass the result to every batch. */
export function withEvidenceCache<C extends ModelContext>(ctx: C): C & { evidence: EvidenceCache } {
  return { ...ctx, evidence: new EvidenceCache() };
}

/** Evidence for each item, shared through the run's cache (`ctx.evidence`; none → computed for this call only). */
export function getEvidence(ctx: RunContext, items: readonly QaItem[]): Promise<Result<Evidence>[]> {
  return (ctx.evidence ?? new EvidenceCache()).get(ctx, items);
}

/** The evidence fields every evidence-based metric reports in `details`. */
export function evidenceDetails(ev: Evidence): Record<string, unknown> {
  return {
    gold_statements: ev.goldStatements,
    candidate_statement: ev.candidateStatement,
    writer: ev.writer,
    ...(ev.writerFallback ? { writer_fallback: ev.writerFallback } : {}),
    nli_source: ev.nliSource,
  };
}

/** Why an item with evidence still cannot be scored (no gold, or non-finite probabilities), else null. */
export function unusableEvidence(ev: Evidence): string | null {
  if (ev.nli.length === 0) return 'no gold answer';
  const finite = (d: NliDistribution) => Number.isFinite(d.entailment) && Number.isFinite(d.neutral) && Number.isFinite(d.contradiction);
  if (!ev.nli.every((n) => finite(n.goldToCandidate) && finite(n.candidateToGold))) return 'the NLI probabilities are not finite numbers';
  return null;
}

/**
 * Usable evidence per item, or the "not scored" result that says why (no model, failed NLI, bad numbers):
 * the guard CAP, the hierarchy and the taxonomy all start with.
 */
export async function usableEvidence(ctx: ModelContext, items: readonly QaItem[]): Promise<(Evidence | MetricResult)[]> {
  const evidence = await getEvidence(ctx, items);
  return evidence.map((e): Evidence | MetricResult => {
    if (!e.ok) return { score: null, decision: null, explanation: e.error };
    const why = unusableEvidence(e.value);
    return why ? { score: null, decision: null, explanation: why, details: evidenceDetails(e.value) } : e.value;
  });
}

export const isResult = (x: Evidence | MetricResult): x is MetricResult => 'explanation' in x;
