/**
 * @file Context-Aware Precision (CAP): NLI between declarative statements of the gold and of the candidate,
 * read mostly in the gold → candidate direction, with neutral mass counted at a discount.
 *
 * Statements s_g = statement(q, g) and s_p = statement(q, p) come from `getEvidence` (written once per run,
 * or taken from the input), as do the NLI distributions in both directions.
 *
 * cap({question: 'Where is the Eiffel Tower?', golds: ['Paris'], candidate: 'In Paris, France.'}, ctx)
 * // with g→p = (ent 0.7, neu 0.2, con 0.1) and p→g = (0.4, 0.5, 0.1):
 * // → { score: 0.7285, decision: true, explanation: 'gold "Paris": D(g→p)=0.76, D(p→g)=0.55 → CAP=0.729' }
 */
import type { Capability, ModelContext, NliDistribution } from '../capabilities.ts';
import { evidenceDetails, isResult, usableEvidence, type Evidence } from '../evidence.ts';
import { VerityError, type BatchMetric, type MetricCard, type MetricResult, type ProvidedNli, type QaItem } from '../types.ts';
import { argmax, clamp01, quote, round } from './common.ts';
import { optionValues, thresholdOption, type ModelDescriptor, type OptionTable } from './descriptor.ts';

export const card: MetricCard = {
  what: 'Whether the gold statement entails the candidate statement (and, less, the reverse), both written in the context of the question.',
  formula: 'D(a→b) = P_ent(a→b) + λ·P_neu(a→b); CAP = α·D(s_g→s_p) + (1−α)·D(s_p→s_g), s = statement(question, answer); max over golds.',
  defaults:
    'α = 0.85, λ = 0.30, threshold 0.5. Ablations (`variant`): ent_gp = P_ent(g→p), gp_lambda = D(g→p), pg = D(p→g), bidirectional = mean of both D. Ties between golds: the first gold.',
  limits:
    'Only as good as the NLI model and the statements: a wrong statement or an NLI miss moves the score. Neutral mass earns λ, so a vague candidate keeps some credit. Needs an NLI model or `nli` probabilities in the input.',
  citation:
    'CAP: Context-Aware Precision and an eight-class semantic correctness taxonomy for open-ended QA (CAP-Correctness / CAP-Statements), EMNLP 2026 submission, OpenReview QaUpgKM18R.',
};

export type CapVariant = 'cap' | 'ent_gp' | 'gp_lambda' | 'pg' | 'bidirectional';
export const CAP_VARIANTS: readonly CapVariant[] = ['cap', 'ent_gp', 'gp_lambda', 'pg', 'bidirectional'];

export interface CapParams {
  /** Weight of the gold → candidate direction. */
  alpha: number;
  /** Credit given to neutral mass. */
  lambda: number;
  variant: CapVariant;
}

export const CAP_DEFAULTS: Readonly<CapParams & { threshold: number }> = { alpha: 0.85, lambda: 0.3, variant: 'cap', threshold: 0.5 };

export interface CapOptions extends Partial<CapParams> {
  threshold?: number;
}

/** D(a→b) = P_ent + λ·P_neu of one direction. */
export function directional(d: NliDistribution, lambda: number): number {
  return d.entailment + lambda * d.neutral;
}

export interface GoldCap {
  /** D(s_g→s_p) and D(s_p→s_g) with the run's λ. */
  dGp: number;
  dPg: number;
  /** The variant's score for this gold, clamped to [0, 1]. */
  score: number;
}

/** The variant's score against one gold, from that gold's two NLI distributions. */
export function capForGold(nli: ProvidedNli, p: CapParams): GoldCap {
  const dGp = directional(nli.goldToCandidate, p.lambda);
  const dPg = directional(nli.candidateToGold, p.lambda);
  let s: number;
  switch (p.variant) {
    case 'cap':
      s = p.alpha * dGp + (1 - p.alpha) * dPg;
      break;
    case 'ent_gp':
      s = nli.goldToCandidate.entailment;
      break;
    case 'gp_lambda':
      s = dGp;
      break;
    case 'pg':
      s = dPg;
      break;
    case 'bidirectional':
      s = (dGp + dPg) / 2;
      break;
  }
  return { dGp, dPg, score: clamp01(s) };
}

export interface CapAnalysis {
  perGold: GoldCap[];
  /** Index of the gold with the highest score (first on ties). */
  best: number;
  score: number;
}

/** The variant's score against every gold and the best one. Callers check `unusableEvidence` (core/evidence.ts) first. */
export function analyzeCap(ev: Evidence, p: CapParams): CapAnalysis {
  const perGold = ev.nli.map((n) => capForGold(n, p));
  const best = argmax(perGold.map((g) => g.score));
  return { perGold, best, score: perGold[best]!.score };
}

/** Per-gold rows for `details`: the gold, its statement, both distributions and the D scores. */
export function perGoldDetails(item: QaItem, ev: Evidence, a: CapAnalysis): Record<string, unknown>[] {
  return ev.nli.map((n, i) => ({
    gold: item.golds[i] ?? ev.goldStatements[i],
    statement: ev.goldStatements[i],
    g_to_p: n.goldToCandidate,
    p_to_g: n.candidateToGold,
    d_gp: a.perGold[i]!.dGp,
    d_pg: a.perGold[i]!.dPg,
    score: a.perGold[i]!.score,
  }));
}

/** Validates α / λ / threshold / variant (a usage error otherwise) and fills in the defaults. */
export function capParams(o: CapOptions): CapParams & { threshold: number } {
  const p = {
    alpha: o.alpha ?? CAP_DEFAULTS.alpha,
    lambda: o.lambda ?? CAP_DEFAULTS.lambda,
    variant: o.variant ?? CAP_DEFAULTS.variant,
    threshold: o.threshold ?? CAP_DEFAULTS.threshold,
  };
  const unit = (v: number, name: string) => {
    if (!(Number.isFinite(v) && v >= 0 && v <= 1)) throw new VerityError(`${name} must be a number in [0, 1], got ${v}`, 'usage');
  };
  unit(p.alpha, 'CAP α');
  unit(p.lambda, 'CAP λ');
  if (!Number.isFinite(p.threshold)) throw new VerityError(`threshold must be a finite number, got ${p.threshold}`, 'usage');
  if (!CAP_VARIANTS.includes(p.variant))
    throw new VerityError(`unknown CAP variant "${p.variant}"; available: ${CAP_VARIANTS.join(', ')}`, 'usage');
  return p;
}

function formulaText(g: GoldCap, ev: ProvidedNli, p: CapParams): string {
  const r = (x: number) => round(x);
  switch (p.variant) {
    case 'cap':
      return `D(g→p)=${r(g.dGp)}, D(p→g)=${r(g.dPg)} → CAP=${r(g.score)}`;
    case 'ent_gp':
      return `P_ent(g→p)=${r(ev.goldToCandidate.entailment)}`;
    case 'gp_lambda':
      return `D(g→p)=${r(g.dGp)}`;
    case 'pg':
      return `D(p→g)=${r(g.dPg)}`;
    case 'bidirectional':
      return `D(g→p)=${r(g.dGp)}, D(p→g)=${r(g.dPg)} → mean=${r(g.score)}`;
  }
}

/** The models it uses: NLI, and a statement writer (the rule writer unless a model is loaded). */
const NEEDS: readonly Capability[] = ['nli', 'writer'];

/** `cap` for the default variant, `cap_<variant>` for an ablation, so they can run side by side. */
export function createCap(options: CapOptions = {}): BatchMetric {
  const p = capParams(options);
  const params: CapParams = { alpha: p.alpha, lambda: p.lambda, variant: p.variant };
  return {
    name: p.variant === 'cap' ? 'cap' : `cap_${p.variant}`,
    card,
    threshold: p.threshold,
    needs: NEEDS,
    async scoreBatch(items: readonly QaItem[], ctx: ModelContext): Promise<MetricResult[]> {
      const evidence = await usableEvidence(ctx, items);
      return items.map((item, i): MetricResult => {
        const ev = evidence[i]!;
        if (isResult(ev)) return ev;
        const a = analyzeCap(ev, params);
        const gold = item.golds[a.best] ?? ev.goldStatements[a.best]!;
        const of = ev.nli.length > 1 ? ` (best of ${ev.nli.length} golds)` : '';
        return {
          score: a.score,
          decision: a.score >= p.threshold,
          explanation: `gold ${quote(gold)}${of}: ${formulaText(a.perGold[a.best]!, ev.nli[a.best]!, params)}`,
          details: {
            ...evidenceDetails(ev),
            variant: params.variant,
            alpha: params.alpha,
            lambda: params.lambda,
            per_gold: perGoldDetails(item, ev, a),
            chosen_gold: gold,
            chosen_gold_index: a.best,
          },
        };
      });
    },
  };
}

/** α and λ as options (the taxonomy, which scores with CAP, declares the same). */
export const CAP_OPTIONS = {
  alpha: { kind: 'number', default: CAP_DEFAULTS.alpha, min: 0, max: 1, describe: 'α, the weight of the gold → candidate direction' },
  lambda: { kind: 'number', default: CAP_DEFAULTS.lambda, min: 0, max: 1, describe: 'λ, the credit neutral mass earns' },
} as const satisfies OptionTable;

export const descriptor: ModelDescriptor = {
  needs: NEEDS,
  name: 'cap',
  family: 'model',
  card,
  variants: CAP_VARIANTS.filter((v) => v !== 'cap').map((v) => `cap_${v}`),
  options: CAP_OPTIONS,
  create: (s, name = 'cap') =>
    createCap({
      ...optionValues(CAP_OPTIONS, s, 'cap'),
      ...thresholdOption(s, name),
      ...(name === 'cap' ? {} : { variant: name.slice('cap_'.length) as CapVariant }),
    }),
  examples: [
    {
      item: {
        question: 'Where is the Eiffel Tower?',
        golds: ['Paris'],
        candidate: 'In Paris, France.',
        nli: [
          {
            goldToCandidate: { entailment: 0.7, neutral: 0.2, contradiction: 0.1 },
            candidateToGold: { entailment: 0.4, neutral: 0.5, contradiction: 0.1 },
          },
        ],
      },
      given: 'NLI probabilities in the input: g→p = (ent 0.7, neu 0.2, con 0.1), p→g = (0.4, 0.5, 0.1)',
      expected: { score: 0.729, decision: true, explanation: 'gold "Paris": D(g→p)=0.76, D(p→g)=0.55 → CAP=0.729' },
    },
  ],
};
