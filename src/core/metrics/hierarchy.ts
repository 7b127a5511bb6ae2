/**
 * @file Entailment hierarchy (Yao & Barbosa): which direction of entailment holds between the candidate
 * statement and a gold statement sorts the answer into one of four sets.
 *
 * - superior: the candidate entails the gold (p→g) — it says at least what the gold says;
 * - inferior: the gold entails the candidate (g→p) — it says no more than the gold;
 * - equivalent: both; incorrect: neither. A direction holds when its P_ent ≥ τ.
 *
 * hierarchy({question: 'Where is the Eiffel Tower?', golds: ['Paris'], candidate: 'In Paris, France.'}, ctx)
 * // with g→p = (ent 0.3, …) and p→g = (ent 0.9, …):
 * // → { score: 0.9, decision: true, set: 'superior', explanation: 'superior to gold "Paris": P_ent(p→g)=0.9 ≥ 0.5, P_ent(g→p)=0.3 < 0.5' }
 */
import type { Capability, ModelContext } from '../capabilities.ts';
import {
  VerityError,
  type BatchMetric,
  type EntailmentSet,
  type MetricCard,
  type MetricResult,
  type ProvidedNli,
  type QaItem,
} from '../types.ts';
import { evidenceDetails, isResult, usableEvidence } from '../evidence.ts';
import { clamp01, quote, round } from './common.ts';
import { thresholdOption, type ModelDescriptor } from './descriptor.ts';

export const card: MetricCard = {
  what: 'Which way entailment holds between the candidate and gold statements: superior (p→g), inferior (g→p), equivalent (both) or incorrect (neither).',
  formula:
    'holds(a→b) = P_ent(a→b) ≥ τ. Several golds: the best set, equivalent > superior > inferior > incorrect (ties: higher score, then the first gold). Score = max over golds of max(P_ent(p→g), P_ent(g→p)); strict: max over golds of P_ent(p→g).',
  defaults:
    'τ = 0.5, which is also the threshold: score ≥ τ exactly when the decision is true. Correct = superior, inferior or equivalent; `strict` = superior or equivalent only.',
  limits:
    'Hard cut at τ: P_ent = 0.49 and 0.01 land in the same set. The score ranks incorrect below the rest but does not separate equivalent from superior — read `set` for that. Needs an NLI model or `nli` probabilities in the input.',
  citation: 'Yao & Barbosa, 2024. Accurate and Nuanced Open-QA Evaluation Through Textual Entailment. Findings of ACL.',
};

export interface HierarchyOptions {
  /** Entailment threshold τ (also the decision threshold). */
  tau?: number;
  /** Count only superior (and equivalent) answers as correct. */
  strict?: boolean;
}

/** Preference between sets when several golds disagree. */
export const SET_RANK: Readonly<Record<EntailmentSet, number>> = { equivalent: 3, superior: 2, inferior: 1, incorrect: 0 };

/** The set of one gold: which of P_ent(p→g) ≥ τ (superior) and P_ent(g→p) ≥ τ (inferior) hold. */
export function entailmentSet(n: ProvidedNli, tau: number): EntailmentSet {
  const pg = n.candidateToGold.entailment >= tau;
  const gp = n.goldToCandidate.entailment >= tau;
  return pg && gp ? 'equivalent' : pg ? 'superior' : gp ? 'inferior' : 'incorrect';
}

/** Whether the set counts as correct (default: any entailment; strict: the candidate entails the gold). */
export const isCorrectSet = (set: EntailmentSet, strict: boolean): boolean =>
  strict ? set === 'superior' || set === 'equivalent' : set !== 'incorrect';

/** The models it uses: NLI, and a statement writer (the rule writer unless a model is loaded). */
const NEEDS: readonly Capability[] = ['nli', 'writer'];

export function createHierarchy(options: HierarchyOptions = {}): BatchMetric {
  const tau = options.tau ?? 0.5;
  const strict = options.strict ?? false;
  if (!(Number.isFinite(tau) && tau > 0 && tau <= 1)) throw new VerityError(`hierarchy τ must be a number in (0, 1], got ${tau}`, 'usage');
  const goldScore = (n: ProvidedNli) =>
    strict ? n.candidateToGold.entailment : Math.max(n.candidateToGold.entailment, n.goldToCandidate.entailment);
  const cmp = (x: number) => (x >= tau ? '≥' : '<');
  return {
    name: strict ? 'hierarchy_strict' : 'hierarchy',
    card,
    threshold: tau,
    needs: NEEDS,
    async scoreBatch(items: readonly QaItem[], ctx: ModelContext): Promise<MetricResult[]> {
      const evidence = await usableEvidence(ctx, items);
      return items.map((item, i): MetricResult => {
        const ev = evidence[i]!;
        if (isResult(ev)) return ev;
        const perGold = ev.nli.map((n) => ({ set: entailmentSet(n, tau), score: clamp01(goldScore(n)) }));
        let best = 0;
        perGold.forEach((g, k) => {
          const b = perGold[best]!;
          if (SET_RANK[g.set] > SET_RANK[b.set] || (SET_RANK[g.set] === SET_RANK[b.set] && g.score > b.score)) best = k;
        });
        const score = perGold.reduce((m, g) => Math.max(m, g.score), 0); // not Math.max(...): one argument per gold overflows the stack
        const { set } = perGold[best]!;
        const n = ev.nli[best]!;
        const gold = item.golds[best] ?? ev.goldStatements[best]!;
        const pg = n.candidateToGold.entailment;
        const gp = n.goldToCandidate.entailment;
        const rel = set === 'incorrect' ? `incorrect for gold ${quote(gold)}` : `${set} to gold ${quote(gold)}`;
        const of = ev.nli.length > 1 ? ` (best of ${ev.nli.length} golds)` : '';
        return {
          score,
          decision: isCorrectSet(set, strict),
          set,
          explanation: `${rel}${of}: P_ent(p→g)=${round(pg)} ${cmp(pg)} ${tau}, P_ent(g→p)=${round(gp)} ${cmp(gp)} ${tau}`,
          details: {
            ...evidenceDetails(ev),
            tau,
            strict,
            per_gold: ev.nli.map((m, k) => ({
              gold: item.golds[k] ?? ev.goldStatements[k],
              statement: ev.goldStatements[k],
              g_to_p: m.goldToCandidate,
              p_to_g: m.candidateToGold,
              set: perGold[k]!.set,
              score: perGold[k]!.score,
            })),
            chosen_gold: gold,
            chosen_gold_index: best,
          },
        };
      });
    },
  };
}

export const descriptor: ModelDescriptor = {
  needs: NEEDS,
  name: 'hierarchy',
  family: 'model',
  card,
  variants: ['hierarchy_strict'],
  create: (s, name = 'hierarchy') => {
    const { threshold } = thresholdOption(s, name);
    return createHierarchy({ strict: name === 'hierarchy_strict', ...(threshold !== undefined ? { tau: threshold } : {}) });
  },
  examples: [
    {
      item: {
        question: 'Where is the Eiffel Tower?',
        golds: ['Paris'],
        candidate: 'In Paris, France.',
        nli: [
          {
            goldToCandidate: { entailment: 0.3, neutral: 0.6, contradiction: 0.1 },
            candidateToGold: { entailment: 0.9, neutral: 0.1, contradiction: 0 },
          },
        ],
      },
      given: 'NLI probabilities in the input: P_ent(g→p) = 0.3, P_ent(p→g) = 0.9',
      expected: {
        score: 0.9,
        decision: true,
        set: 'superior',
        explanation: 'superior to gold "Paris": P_ent(p→g)=0.9 ≥ 0.5, P_ent(g→p)=0.3 < 0.5',
      },
    },
  ],
};
