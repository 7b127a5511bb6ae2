/**
 * @file CAP taxonomy: one of the eight correctness classes per answer (exact, equivalent, alternative-correct,
 * overinclusive-valid, partial, overinclusive-invalid, invalid, contradictory), with the CAP score as its score.
 *
 * taxonomy({question: 'Where is the Eiffel Tower?', golds: ['Paris'], candidate: 'Paris, and it is in Germany.'}, ctx)
 * // with p→g entailed (0.9), g→p not (0.1), and the clause "it is in Germany" contradicted by the gold statement:
 * // → { class: 'overinclusive-invalid', decision: false, score: <CAP>,
 * //     explanation: 'overinclusive-invalid for gold "Paris": P_ent(p→g)=0.9 ≥ 0.5, P_ent(g→p)=0.1 < 0.5; clause "it is in Germany" contradicted (P_con=0.8 ≥ 0.5)' }
 *
 * Method `structured` (default) — the rules, in order:
 * 1. exact: the candidate equals a gold after SQuAD normalization (non-empty).
 * 2. Per gold, from its two NLI distributions (a direction "entails" when P_ent ≥ τ):
 *    both entail → equivalent; only p→g (the candidate says more than the gold) → overinclusive;
 *    else contradiction dominates in either direction (P_con > P_ent and P_con > P_neu) → contradictory;
 *    else only g→p (the candidate says less than the gold) → partial; else (neutral both ways) → invalid.
 *    (Contradiction cannot dominate a direction that entails; an over-inclusive answer whose extra part is
 *    false often shows g→p contradiction, which is why overinclusive is tested before contradictory.)
 * 3. overinclusive → valid or invalid. Clause check when the run has an NLI model and the candidate has ≥ 2
 *    clauses (src/core/text/clauses.ts): NLI(premise = that gold's statement, hypothesis = each clause);
 *    invalid when some clause that is not entailed has P_con ≥ κ. Otherwise (probabilities from the input
 *    only, or a single clause) invalid when max(P_con(g→p), P_con(p→g)) ≥ κ, and the explanation says so.
 * 4. Several golds: the gold giving the most favourable class (protocol SEVERITY), then the higher CAP, then
 *    the first gold.
 * 5. alternative-correct: the best class is equivalent, the first gold is not equivalent, and the candidate
 *    shares no content word (SQuAD-normalized, minus a few function words) with the first gold — a correct
 *    answer that matches one of the alternative golds, not the main one.
 *
 * 6. Text signals (src/core/signals/classify.ts) override NLI where NLI is known to be blind or where they are
 *    decisive: a refusal → invalid; a polarity flip (negated gold clause, yes/no flip, premise denial, antonym)
 *    → contradictory; another value of the gold's quantity → invalid / overinclusive-invalid; a hedge with a
 *    wrong alternative → partial; a list with a wrong item → overinclusive-invalid or invalid. The explanation
 *    names the signal.
 *
 * `taxonomy_text` (taxonomy_text.ts) is the same taxonomy with no model at all: the eight classes from the
 * text signals alone.
 *
 * Method `cutpoints`: the CAP score → class by descending cut-points (`classifyScore` of the calibration
 * protocol); default uniform bins of width 1/8 in severity order, exact highest.
 */
import type { WordNet } from '../lexicon/index.ts';
import { CORRECT_CLASSES } from '../correctness.ts';
import type { Capability, ModelContext, NliDistribution, NliPair } from '../capabilities.ts';
import { classifyScore, type Cutpoints } from '../agreement/calibrate.ts';
import { SEVERITY } from '../agreement/ordinal.ts';
import { splitClauses } from '../text/clauses.ts';
import { normalizeTokens } from '../text/normalize.ts';
import {
  CAP_CLASSES,
  VerityError,
  type BatchMetric,
  type CapClass,
  type MetricCard,
  type MetricResult,
  type ProvidedNli,
  type QaItem,
} from '../types.ts';
import { analyzeCap, capParams, perGoldDetails, type CapAnalysis } from './cap.ts';
import { classifyUnique, evidenceDetails, isResult, usableEvidence, type Evidence } from '../evidence.ts';
import { quote, round } from './common.ts';
import { CAP_OPTIONS } from './cap.ts';
import { optionValues, type ModelDescriptor } from './descriptor.ts';
import { classifyText, type TextVerdict } from '../signals/classify.ts';
import { renderTextClaims } from '../signals/claims.ts';
import { verdictDetails } from './taxonomy_text.ts';

export const card: MetricCard = {
  what: 'Sorts each answer into one of eight correctness classes, from exact to contradictory, and scores it with CAP.',
  formula:
    'structured: exact = SQuAD EM; per gold, with "entails" = P_ent ≥ τ: both ways → equivalent, p→g only → overinclusive (invalid if an extra clause has P_con ≥ κ), contradiction dominating → contradictory, g→p only → partial, else invalid; best gold by class; equivalent to a non-first gold with no content word of the first → alternative-correct. cutpoints: CAP → class by descending cuts.',
  defaults:
    'method structured, τ = 0.5, κ = 0.5; cut-points: uniform bins of 1/8 in severity order (exact ≥ 0.875 … contradictory < 0.125). Score = CAP (α = 0.85, λ = 0.30). Correct = exact, equivalent, alternative-correct, overinclusive-valid.',
  limits:
    'Hand-set thresholds over NLI probabilities; the clause check needs an NLI model (without one, the contradiction mass of the two statements decides over-inclusion). Uniform cut-points are a placeholder until `verity calibrate` fits them.',
  citation:
    'CAP: Context-Aware Precision and an eight-class semantic correctness taxonomy for open-ended QA (CAP-Correctness / CAP-Statements), EMNLP 2026 submission, OpenReview QaUpgKM18R.',
};

/** Text signals that decide over NLI (rule 6): the class they give, or null to keep NLI's. */
export function decisiveSignal(v: TextVerdict): CapClass | null {
  switch (v.signal) {
    case 'refusal':
    case 'polarity':
    case 'hedge':
      return v.cls === 'equivalent' || v.cls === 'overinclusive-valid' ? null : v.cls;
    case 'list':
      return v.cls;
    case 'quantities':
      return v.cls === 'invalid' || v.cls === 'overinclusive-invalid' ? v.cls : null;
    default:
      return null;
  }
}

export type TaxonomyMethod = 'cutpoints' | 'structured';

export interface TaxonomyOptions {
  method?: TaxonomyMethod;
  /** CAP parameters for the score (and the cut-point method). */
  alpha?: number;
  lambda?: number;
  /** structured: a direction entails when P_ent ≥ tau. */
  tau?: number;
  /** structured: an extra clause (or, without the clause check, the statements) is contradicted when P_con ≥ this. */
  contradiction?: number;
  /** cutpoints: classes in severity order and descending cuts (the shape of a calibration's `cutpoints`). */
  cutpoints?: Pick<Cutpoints, 'classes' | 'cuts'>;
  /** WordNet, for the text signals' WordNet relations (rule 6); null runs them without it. */
  lexicon: WordNet | null;
}

export { CORRECT_CLASSES };

/** Uniform bins over [0, 1] in severity order: score ≥ 7/8 → exact, … , < 1/8 → contradictory. */
export function uniformCutpoints(): Cutpoints {
  const n = CAP_CLASSES.length;
  return { method: 'median-midpoints', classes: [...CAP_CLASSES], cuts: Array.from({ length: n - 1 }, (_, i) => (n - 1 - i) / n) };
}

/** What one gold's two directions say, before over-inclusion is split into valid / invalid. */
export type Relation = 'equivalent' | 'overinclusive' | 'contradictory' | 'partial' | 'invalid';

const dominated = (d: NliDistribution): boolean => d.contradiction > d.entailment && d.contradiction > d.neutral;

/** Rule 2 of the file comment. */
export function relation(n: ProvidedNli, tau: number): Relation {
  const gp = n.goldToCandidate.entailment >= tau;
  const pg = n.candidateToGold.entailment >= tau;
  if (gp && pg) return 'equivalent';
  if (pg) return 'overinclusive';
  if (dominated(n.goldToCandidate) || dominated(n.candidateToGold)) return 'contradictory';
  if (gp) return 'partial';
  return 'invalid';
}

/** Function words ignored by the alternative-correct overlap test (on top of SQuAD's a/an/the). */
const FUNCTION_WORDS = new Set(
  'is are was were be been being of in on at to for by with from as and or but not it its this that these those he she they his her their there which who'.split(
    ' ',
  ),
);
const contentWords = (s: string): Set<string> => new Set(normalizeTokens(s, 'squad').filter((t) => !FUNCTION_WORDS.has(t)));

interface ClauseVerdict {
  clause: string;
  nli: NliDistribution;
  verdict: 'entailed' | 'neutral' | 'contradicted';
}

interface OverinclusionCheck {
  invalid: boolean;
  /** 'clauses' when each clause went through the model, else why the contradiction mass decided. */
  method: 'clauses' | 'contradiction-mass';
  note?: string;
  clauses?: ClauseVerdict[];
  /** The contradiction mass used when there was no clause check. */
  mass?: number;
}

interface GoldClass {
  relation: Relation;
  cls: Exclude<CapClass, 'exact' | 'alternative-correct'>;
  overinclusion?: OverinclusionCheck;
}

/** Per item, what phase 1 left for phase 2: evidence, CAP, relations, and the clause pairs (if any) per gold. */
interface Pending {
  ev: Evidence;
  cap: CapAnalysis;
  exact: number;
  relations: Relation[];
  clauses: string[];
  /** gold index → index of its first clause pair in the batch. */
  clausePairs: Map<number, number>;
  /** Why there is no clause check (the contradiction mass decides over-inclusion then). */
  noClauseCheck: string;
}

const fmt = (x: number) => String(round(x));

/** The settings one taxonomy instance runs with (validated by createTaxonomy). */
interface Config {
  method: TaxonomyMethod;
  params: { alpha: number; lambda: number; variant: 'cap' };
  tau: number;
  kappa: number;
  cuts: Cutpoints;
}

const resultOf = (cls: CapClass, score: number, explanation: string, details: Record<string, unknown>): MetricResult => ({
  score,
  decision: CORRECT_CLASSES.has(cls),
  class: cls,
  explanation,
  details,
});

function baseDetails(cfg: Config, ev: Evidence, item: QaItem, cap: CapAnalysis): Record<string, unknown> {
  return {
    ...evidenceDetails(ev),
    method: cfg.method,
    cap: cap.score,
    cap_gold: item.golds[cap.best] ?? ev.goldStatements[cap.best],
    alpha: cfg.params.alpha,
    lambda: cfg.params.lambda,
  };
}

/** Method `cutpoints`: the CAP score's bin. */
function byCutpoints(cfg: Config, item: QaItem, ev: Evidence, cap: CapAnalysis): MetricResult {
  const { cuts } = cfg;
  const cls = classifyScore(cuts, cap.score);
  const i = cuts.cuts.findIndex((c) => cap.score >= c);
  const bin = cuts.cuts.length === 0 ? '' : i === -1 ? ` < ${fmt(cuts.cuts.at(-1)!)}` : ` ≥ ${fmt(cuts.cuts[i]!)}`;
  return resultOf(cls, cap.score, `CAP=${fmt(cap.score)}${bin} → ${cls} (cut-points)`, {
    ...baseDetails(cfg, ev, item, cap),
    per_gold: perGoldDetails(item, ev, cap),
    cutpoints: { classes: cuts.classes, cuts: cuts.cuts },
  });
}

/** Phase 1 of `structured`: exact match, relations per gold, and the clause pairs the over-inclusion check needs (appended to `pairs`). */
function prepare(cfg: Config, item: QaItem, ev: Evidence, hasNli: boolean, pairs: NliPair[]): Pending {
  const cap = analyzeCap(ev, cfg.params);
  const candTokens = normalizeTokens(item.candidate, 'squad').join(' ');
  const exact = item.golds.findIndex((g) => {
    const t = normalizeTokens(g, 'squad').join(' ');
    return t !== '' && t === candTokens;
  });
  const relations = ev.nli.map((n) => relation(n, cfg.tau));
  const clauses = splitClauses(item.candidate);
  const clausePairs = new Map<number, number>();
  const noClauseCheck = !hasNli
    ? clauses.length >= 2
      ? 'clause check skipped (no NLI model; probabilities from the input only)'
      : 'no NLI model and a single clause'
    : clauses.length < 2
      ? 'single clause, no clause check'
      : 'clause check not needed (another gold is equivalent or exact)';
  // The clause check only matters when no gold gives a better class than overinclusive-valid.
  if (hasNli && clauses.length >= 2 && exact < 0 && !relations.includes('equivalent')) {
    relations.forEach((r, k) => {
      if (r !== 'overinclusive') return;
      clausePairs.set(k, pairs.length);
      for (const c of clauses) pairs.push({ premise: ev.goldStatements[k]!, hypothesis: c });
    });
  }
  return { ev, cap, exact, relations, clauses, clausePairs, noClauseCheck };
}

/** Phase 3a: valid or invalid over-inclusion per overinclusive gold, from the clause verdicts or the contradiction mass. */
function overinclusionChecks(
  cfg: Config,
  p: Pending,
  dists: NliDistribution[],
  clauseError: string | undefined,
): Map<number, OverinclusionCheck> {
  const checks = new Map<number, OverinclusionCheck>();
  p.relations.forEach((r, k) => {
    if (r !== 'overinclusive') return;
    const start = p.clausePairs.get(k);
    if (start !== undefined && !clauseError) {
      const clauses = p.clauses.map((clause, j): ClauseVerdict => {
        const nli = dists[start + j]!;
        const verdict = nli.entailment >= cfg.tau ? 'entailed' : nli.contradiction >= cfg.kappa ? 'contradicted' : 'neutral';
        return { clause, nli, verdict };
      });
      checks.set(k, { invalid: clauses.some((c) => c.verdict === 'contradicted'), method: 'clauses', clauses });
      return;
    }
    const n = p.ev.nli[k]!;
    const mass = Math.max(n.goldToCandidate.contradiction, n.candidateToGold.contradiction);
    const note = start !== undefined ? clauseError! : p.noClauseCheck;
    checks.set(k, { invalid: mass >= cfg.kappa, method: 'contradiction-mass', note, mass });
  });
  return checks;
}

/** Phase 3b: rules 1–5 of the file comment. */
function structured(cfg: Config, item: QaItem, p: Pending, checks: Map<number, OverinclusionCheck>): MetricResult {
  const { ev, cap } = p;
  const { tau, kappa } = cfg;
  const name = (k: number) => quote(item.golds[k] ?? ev.goldStatements[k]!);
  const probs = (k: number) => {
    const n = ev.nli[k]!;
    const pg = n.candidateToGold.entailment;
    const gp = n.goldToCandidate.entailment;
    return `P_ent(p→g)=${fmt(pg)} ${pg >= tau ? '≥' : '<'} ${tau}, P_ent(g→p)=${fmt(gp)} ${gp >= tau ? '≥' : '<'} ${tau}`;
  };
  const goldClasses: GoldClass[] = p.relations.map((relation, k) => {
    if (relation !== 'overinclusive') return { relation, cls: relation };
    const check = checks.get(k)!;
    return { relation, cls: check.invalid ? 'overinclusive-invalid' : 'overinclusive-valid', overinclusion: check };
  });
  const details = (cls: CapClass, chosen: number) => ({
    ...baseDetails(cfg, ev, item, cap),
    tau,
    contradiction: kappa,
    clauses: p.clauses,
    per_gold: perGoldDetails(item, ev, cap).map((row, k) => ({
      ...row,
      relation: goldClasses[k]!.relation,
      class: goldClasses[k]!.cls,
      ...(goldClasses[k]!.overinclusion ? { overinclusion: goldClasses[k]!.overinclusion } : {}),
    })),
    class: cls,
    chosen_gold: item.golds[chosen] ?? ev.goldStatements[chosen],
    chosen_gold_index: chosen,
  });

  if (p.exact >= 0)
    return resultOf('exact', cap.score, `exact: equals gold ${name(p.exact)} after normalization`, details('exact', p.exact));

  let best = 0;
  goldClasses.forEach((g, k) => {
    const b = goldClasses[best]!;
    const d = SEVERITY[g.cls] - SEVERITY[b.cls];
    if (d > 0 || (d === 0 && cap.perGold[k]!.score > cap.perGold[best]!.score)) best = k;
  });
  const cls = goldClasses[best]!.cls;
  const of = ev.nli.length > 1 ? ` (best of ${ev.nli.length} golds)` : '';

  switch (cls) {
    case 'equivalent': {
      if (goldClasses[0]!.cls === 'equivalent')
        return resultOf('equivalent', cap.score, `equivalent to gold ${name(0)}${of}: ${probs(0)}`, details('equivalent', 0));
      const first = contentWords(item.golds[0] ?? '');
      const shared = [...contentWords(item.candidate)].filter((t) => first.has(t));
      if (shared.length === 0)
        return resultOf(
          'alternative-correct',
          cap.score,
          `alternative-correct: equivalent to gold #${best + 1} ${name(best)} (${probs(best)}), no content word shared with the first gold ${name(0)}`,
          details('alternative-correct', best),
        );
      return resultOf(
        'equivalent',
        cap.score,
        `equivalent to gold #${best + 1} ${name(best)}${of}: ${probs(best)}; shares ${quote(shared.join(' '))} with the first gold, so not alternative-correct`,
        details('equivalent', best),
      );
    }
    case 'overinclusive-valid':
    case 'overinclusive-invalid': {
      const check = goldClasses[best]!.overinclusion!;
      let why: string;
      if (check.method === 'clauses') {
        const bad = check.clauses!.filter((c) => c.verdict === 'contradicted');
        why = bad.length
          ? `clause ${quote(bad[0]!.clause)} contradicted (P_con=${fmt(bad[0]!.nli.contradiction)} ≥ ${kappa})`
          : `no clause contradicted (${check.clauses!.length} clauses checked)`;
      } else {
        why = `${check.note}: contradiction mass ${fmt(check.mass!)} ${check.invalid ? '≥' : '<'} ${kappa}`;
      }
      return resultOf(cls, cap.score, `${cls} for gold ${name(best)}${of}: ${probs(best)}; ${why}`, details(cls, best));
    }
    case 'contradictory': {
      const n = ev.nli[best]!;
      const dir = dominated(n.goldToCandidate)
        ? `P_con(g→p)=${fmt(n.goldToCandidate.contradiction)}`
        : `P_con(p→g)=${fmt(n.candidateToGold.contradiction)}`;
      return resultOf('contradictory', cap.score, `contradictory to gold ${name(best)}${of}: ${dir} dominates`, details(cls, best));
    }
    case 'partial':
      return resultOf(
        'partial',
        cap.score,
        `partial for gold ${name(best)}${of}: the gold entails the candidate, not the reverse (${probs(best)})`,
        details(cls, best),
      );
    default:
      return resultOf(
        'invalid',
        cap.score,
        `invalid: neither direction entails${ev.nli.length > 1 ? ' any gold' : ''} (gold ${name(best)}: ${probs(best)})`,
        details(cls, best),
      );
  }
}

/** Rule 6: a decisive text signal overrides the NLI class (never an exact match); the explanation says which. */
function withSignals(item: QaItem, r: MetricResult, wn: WordNet | null): MetricResult {
  const v = classifyText(item, wn);
  const details = { ...r.details, text_signals: { class: v.cls, ...verdictDetails(v) } };
  const cls = decisiveSignal(v);
  if (!cls || cls === r.class || r.class === 'exact') return { ...r, details };
  return {
    ...r,
    decision: CORRECT_CLASSES.has(cls),
    class: cls,
    explanation: `${cls} by text signal ${v.signal} (${renderTextClaims(v.claims)}), over NLI's ${r.explanation}`,
    details: { ...details, class: cls, nli_class: r.class },
  };
}

/** The models it uses: NLI, and a statement writer (the rule writer unless a model is loaded). */
const NEEDS: readonly Capability[] = ['nli', 'writer'];

export function createTaxonomy(options: TaxonomyOptions): BatchMetric {
  const method = options.method ?? 'structured';
  if (method !== 'structured' && method !== 'cutpoints')
    throw new VerityError(`unknown taxonomy method "${String(method)}"; available: structured, cutpoints`, 'usage');
  const cp = capParams({ alpha: options.alpha, lambda: options.lambda });
  const tau = options.tau ?? 0.5;
  const kappa = options.contradiction ?? 0.5;
  for (const [v, name] of [
    [tau, 'τ'],
    [kappa, 'contradiction threshold'],
  ] as const)
    if (!(Number.isFinite(v) && v > 0 && v <= 1)) throw new VerityError(`taxonomy ${name} must be a number in (0, 1], got ${v}`, 'usage');
  const cfg: Config = {
    method,
    params: { alpha: cp.alpha, lambda: cp.lambda, variant: 'cap' },
    tau,
    kappa,
    cuts: options.cutpoints ? checkCutpoints(options.cutpoints) : uniformCutpoints(),
  };

  return {
    name: method === 'structured' ? 'taxonomy' : 'taxonomy_cutpoints',
    card,
    threshold: method === 'cutpoints' ? cutpointThreshold(cfg.cuts) : cp.threshold,
    needs: NEEDS,
    async scoreBatch(items: readonly QaItem[], ctx: ModelContext): Promise<MetricResult[]> {
      const evidence = await usableEvidence(ctx, items);
      const pairs: NliPair[] = [];
      const pending = items.map((item, i): Pending | MetricResult => {
        const ev = evidence[i]!;
        if (isResult(ev)) return ev;
        if (method === 'cutpoints') return byCutpoints(cfg, item, ev, analyzeCap(ev, cfg.params));
        return prepare(cfg, item, ev, !!ctx.nli, pairs);
      });
      // Phase 2: one batched NLI pass over every clause pair.
      let dists: NliDistribution[] = [];
      let clauseError: string | undefined;
      if (pairs.length) {
        try {
          dists = await classifyUnique(ctx.nli!, pairs);
        } catch (e) {
          clauseError = `clause check failed (${(e as Error).message})`;
        }
      }
      return pending.map((p, i) => {
        if (!('ev' in p)) return p;
        return withSignals(items[i]!, structured(cfg, items[i]!, p, overinclusionChecks(cfg, p, dists, clauseError)), options.lexicon);
      });
    },
  };
}

/** Validates user cut-points: known classes, one cut fewer than classes, finite and non-increasing. */
function checkCutpoints(c: Pick<Cutpoints, 'classes' | 'cuts'>): Cutpoints {
  const bad = (msg: string): never => {
    throw new VerityError(`taxonomy cut-points: ${msg}`, 'usage');
  };
  if (!Array.isArray(c.classes) || c.classes.length === 0) bad('classes must be a non-empty list');
  for (const k of c.classes) if (!(CAP_CLASSES as readonly string[]).includes(k)) bad(`"${k}" is not a CAP class`);
  if (!Array.isArray(c.cuts) || c.cuts.length !== c.classes.length - 1)
    bad(`need ${c.classes.length - 1} cuts for ${c.classes.length} classes`);
  c.cuts.forEach((x, i) => {
    if (!Number.isFinite(x)) bad(`cut ${i} is not a finite number`);
    if (i > 0 && x > c.cuts[i - 1]!) bad('cuts must be in descending order');
  });
  return { method: 'median-midpoints', classes: [...c.classes], cuts: [...c.cuts] };
}

/**
 * The score at which the cut-point class turns correct, when the correct classes come first (as in severity
 * order): decision = score ≥ threshold then. Otherwise 0.5, and only the class decides.
 */
function cutpointThreshold(c: Cutpoints): number {
  const firstWrong = c.classes.findIndex((k) => !CORRECT_CLASSES.has(k));
  if (firstWrong === -1) return 0;
  if (firstWrong === 0 || c.classes.slice(firstWrong).some((k) => CORRECT_CLASSES.has(k))) return 0.5;
  return c.cuts[firstWrong - 1]!;
}

export const descriptor: ModelDescriptor = {
  needs: NEEDS,
  name: 'taxonomy',
  family: 'model',
  card,
  classes: true,
  variants: ['taxonomy_cutpoints'],
  needsLexicon: true,
  options: CAP_OPTIONS,
  create: (s, name = 'taxonomy', lexicon = null) =>
    name === 'taxonomy_cutpoints'
      ? createTaxonomy({
          ...optionValues(CAP_OPTIONS, s, 'taxonomy'),
          method: 'cutpoints',
          ...(s.cutpoints ? { cutpoints: s.cutpoints } : {}),
          lexicon,
        })
      : createTaxonomy({ ...optionValues(CAP_OPTIONS, s, 'taxonomy'), method: 'structured', lexicon }),
  examples: [
    {
      item: {
        question: 'Where is the Eiffel Tower?',
        golds: ['Paris'],
        candidate: 'Paris, and it is in Germany.',
        nli: [
          {
            goldToCandidate: { entailment: 0.1, neutral: 0.1, contradiction: 0.8 },
            candidateToGold: { entailment: 0.9, neutral: 0.05, contradiction: 0.05 },
          },
        ],
      },
      given: 'NLI probabilities in the input: p→g entailed (0.9), g→p contradicted (0.8); no NLI model for the clause check',
      // Over-inclusive (p→g entails, g→p does not); invalid because P_con(g→p) = 0.8 ≥ κ. Score: CAP = 0.85·0.13 + 0.15·0.915.
      expected: { score: 0.248, decision: false, class: 'overinclusive-invalid' },
    },
  ],
};
