/**
 * @file NLI + lexical match (Balamurali & Cheng): a two-feature logistic model over the entailment
 * probability of "question + answer ⇒ question + ground truth" and whether the ground truth occurs in the answer.
 *
 * nli_lex({question: 'In which year did WWII end?', golds: ['1945'], candidate: 'It ended in 1945.'}, ctx)
 * // with P_ent('question: In which year did WWII end? answer: It ended in 1945.' ⇒ '… ground truth: 1945') = 0.9:
 * // → { score: 0.984, decision: true, explanation: 'se=0.9 (ref "1945"), lm=1 (ref "1945") → P=0.984' }
 */
import type { Capability, ModelContext, Nli, NliDistribution, NliPair } from '../capabilities.ts';
import { classifyUnique } from '../evidence.ts';
import { VerityError, type BatchMetric, type MetricCard, type MetricResult, type QaItem } from '../types.ts';
import { fail, ok, type Result } from '../errors.ts';
import { normalizeTokens } from '../text/normalize.ts';
import { argmax, quote, round } from './common.ts';
import { contains } from './lexical_match.ts';
import { sigmoid } from '../agreement/logistic.ts';
import { labelIsCorrect } from '../correctness.ts';
import { trainLogistic, predictProba } from '../agreement/logistic.ts';
import { resolvedThreshold } from '../agreement/calibrate.ts';
import { thresholdOption, type ModelDescriptor } from './descriptor.ts';

export interface NliLexWeights {
  se: number;
  lm: number;
  bias: number;
}

/** Uncalibrated defaults: se ≥ 0.875 alone, or lm = 1 alone, gives P > 0.5; both ≈ 0.99; neither ≈ 0.03. */
export const NLI_LEX_DEFAULT_WEIGHTS: Readonly<NliLexWeights> = { se: 4, lm: 4, bias: -3.5 };

export const card: MetricCard = {
  what: 'A logistic combination of an NLI entailment score between question+answer and question+ground truth, and lexical containment of the ground truth in the answer.',
  formula:
    'se = P_ent("question: q answer: a" ⇒ "question: q ground truth: r"); lm = [norm(r) occurs in norm(a)]; each maxed over references r; P(correct) = σ(w_se·se + w_lm·lm + b).',
  defaults:
    'Uncalibrated weights w_se = 4, w_lm = 4, b = −3.5 (lm = 1 alone → 0.62, se ≥ 0.875 alone → ≥ 0.5, both → 0.99, neither → 0.03); fit them with `verity calibrate`. Number-aware normalization on token boundaries (as lexical_match). Threshold 0.5.',
  limits:
    'Needs an NLI model: `nli` probabilities given in the input are for statement pairs, not this premise format. lm inherits containment\'s blind spots ("not Paris" contains "Paris"); the default weights are hand-set, not fitted.',
  citation:
    'Balamurali & Cheng: an NLI entailment score and a lexical-match flag combined by logistic regression for QA answer evaluation (the formulation Verity follows; full bibliographic reference not verified here).',
};

export const nliLexPremise = (question: string, answer: string): string => `question: ${question} answer: ${answer}`;
export const nliLexHypothesis = (question: string, reference: string): string => `question: ${question} ground truth: ${reference}`;

export interface NliLexReference {
  reference: string;
  /** NLI of premise (question + answer) ⇒ hypothesis (question + this reference). */
  nli: NliDistribution;
  se: number;
  lm: 0 | 1;
}

/** An item's se and lm (each the best over its references), or why it cannot be scored. */
export type NliLexRow = Result<{ se: number; lm: 0 | 1; perReference: NliLexReference[] }>;

/**
 * se and lm per reference and per item (each maxed over references), with one batched, de-duplicated NLI
 * pass over all items. Rows that cannot be scored carry a reason.
 */
export async function nliLexRows(items: readonly QaItem[], nli: Nli | undefined): Promise<NliLexRow[]> {
  if (!nli) {
    return items.map((it) =>
      fail(
        it.nli !== undefined
          ? 'needs an NLI model: the nli probabilities in the input are for statement pairs, not nli_lex\'s "question: … answer: …" premise'
          : 'needs an NLI model',
      ),
    );
  }
  const pairs: NliPair[] = [];
  for (const it of items) {
    const premise = nliLexPremise(it.question, it.candidate);
    for (const r of it.golds) pairs.push({ premise, hypothesis: nliLexHypothesis(it.question, r) });
  }
  let dists: NliDistribution[];
  try {
    dists = pairs.length ? await classifyUnique(nli, pairs) : [];
  } catch (e) {
    const reason = `the NLI model failed: ${(e as Error).message}`;
    return items.map(() => fail(reason));
  }
  let d = 0;
  return items.map((it): NliLexRow => {
    const cand = normalizeTokens(it.candidate, 'numeric');
    const perReference = it.golds.map((reference): NliLexReference => {
      const nliDist = dists[d++]!;
      return {
        reference,
        nli: nliDist,
        se: nliDist.entailment,
        lm: contains(cand, normalizeTokens(reference, 'numeric'), 'token') ? 1 : 0,
      };
    });
    if (perReference.length === 0) return fail('no gold answer');
    if (!perReference.every((r) => Number.isFinite(r.se))) return fail('the NLI probabilities are not finite numbers');
    const se = perReference.reduce((m, r) => Math.max(m, r.se), -Infinity); // not Math.max(...): one argument per gold overflows the stack
    const lm = perReference.some((r) => r.lm === 1) ? 1 : 0;
    return ok({ se, lm, perReference });
  });
}

/**
 * The two features [se, lm] per item, exactly as the metric combines them (null where it does not apply),
 * so `verity calibrate` can fit w_se, w_lm and b by logistic regression.
 */
export async function nliLexFeatures(items: readonly QaItem[], ctx: ModelContext): Promise<([number, number] | null)[]> {
  const rows = await nliLexRows(items, ctx.nli);
  return rows.map((r) => (r.ok ? [r.value.se, r.value.lm] : null));
}

export interface NliLexOptions {
  weights?: Partial<NliLexWeights>;
  threshold?: number;
}

/** The models it uses: NLI. */
const NEEDS: readonly Capability[] = ['nli'];

export function createNliLex(options: NliLexOptions = {}): BatchMetric {
  const w: NliLexWeights = { ...NLI_LEX_DEFAULT_WEIGHTS };
  for (const k of ['se', 'lm', 'bias'] as const) {
    const v = options.weights?.[k];
    if (v === undefined) continue;
    if (!Number.isFinite(v)) throw new VerityError(`nli_lex weight ${k} must be a finite number, got ${v}`, 'usage');
    w[k] = v;
  }
  const threshold = options.threshold ?? 0.5;
  if (!Number.isFinite(threshold)) throw new VerityError(`threshold must be a finite number, got ${threshold}`, 'usage');
  return {
    name: 'nli_lex',
    card,
    threshold,
    needs: NEEDS,
    async scoreBatch(items: readonly QaItem[], ctx: ModelContext): Promise<MetricResult[]> {
      const rows = await nliLexRows(items, ctx.nli);
      return rows.map((row, i): MetricResult => {
        if (!row.ok) return { score: null, decision: null, explanation: row.error };
        const r = row.value;
        const item = items[i]!;
        const logit = w.se * r.se + w.lm * r.lm + w.bias;
        const score = sigmoid(logit);
        const seRef = r.perReference[argmax(r.perReference.map((x) => x.se))]!.reference;
        const lmRef = r.perReference.find((x) => x.lm === 1)?.reference;
        return {
          score,
          decision: score >= threshold,
          explanation: `se=${round(r.se)} (ref ${quote(seRef)}), lm=${r.lm}${lmRef !== undefined ? ` (ref ${quote(lmRef)})` : ''} → P=${round(score)}`,
          details: {
            premise: nliLexPremise(item.question, item.candidate),
            per_reference: r.perReference.map((x) => ({
              reference: x.reference,
              hypothesis: nliLexHypothesis(item.question, x.reference),
              nli: x.nli,
              se: x.se,
              lm: x.lm,
            })),
            se: r.se,
            lm: r.lm,
            weights: { ...w },
            logit,
            nli_source: 'model',
          },
        };
      });
    },
  };
}

export const descriptor: ModelDescriptor = {
  needs: NEEDS,
  name: 'nli_lex',
  family: 'model',
  card,
  create: (s, name = 'nli_lex') => createNliLex({ ...thresholdOption(s, name), ...(s.nliLexWeights ? { weights: s.nliLexWeights } : {}) }),
  /** The paper's two weights and bias, fitted directly on [se, lm] (no standardization, so they plug into the metric). */
  async calibrate(rows, ctx, objective) {
    const labels = rows.map((r) => (r.label ? labelIsCorrect(r.label) : null));
    const feats = await nliLexFeatures(rows, ctx);
    const keep = feats.map((f, i) => (f && labels[i] !== null ? i : -1)).filter((i) => i >= 0);
    if (keep.length === 0) throw new VerityError('no labelled row could be scored by nli_lex (it needs an NLI model)', 'input');
    const y = keep.map((i) => labels[i]!);
    const lr = trainLogistic(
      keep.map((i) => feats[i]!),
      y,
      { l2: 1e-3 },
    );
    const best = resolvedThreshold(
      keep.map((i) => predictProba(lr, feats[i]!)),
      y,
      objective,
    );
    return {
      version: 1,
      metric: 'nli_lex',
      objective,
      nliLex: { se: lr.weights[0]!, lm: lr.weights[1]!, bias: lr.bias },
      threshold: best.threshold,
    };
  },
  examples: [
    {
      item: { question: 'In which year did WWII end?', golds: ['1945'], candidate: 'It ended in 1945.' },
      given: 'an NLI model that gives entailment 0.9 to every pair',
      models: () => ({ nli: { classify: async (pairs) => pairs.map(() => ({ entailment: 0.9, neutral: 0.05, contradiction: 0.05 })) } }),
      expected: { score: 0.984, decision: true, explanation: 'se=0.9 (ref "1945"), lm=1 (ref "1945") → P=0.984' },
    },
  ],
};
