/**
 * @file A-VERT (Aguirre et al., 2025): rank the response against groups of correct and wrong target answers
 * with a cross-encoder ranker (or sentence embeddings), aggregate each group, normalize across groups, and
 * call the response correct when the "correct" group ranks first.
 *
 * With a ranker that scores word overlap (Jaccard of word sets, as in the tests):
 * avert({question: 'Capital of France?', golds: ['Paris'], choices: ['Paris', 'Rome'], candidate: 'The answer is Paris.'})
 * // → { score: 0.615, decision: true,
 * //     explanation: 'correct 0.615 > wrong 0.385 (margin 0.231); closest target "Therefore, the answer is : \"Paris\""' }
 *
 * Definitions (Verity's choices where the paper leaves room):
 * - Targets. correct = the golds; wrong = the `choices` that are not golds, plus `wrongAnswers` (union; compared
 *   case- and space-insensitively, repeats dropped, first spelling kept; a wrong answer equal to a gold is
 *   dropped). With `enhance` (default) every correct AND wrong target also appears in the enhancement
 *   templates of the authors' reference library (a_vert/prompts_general.py `enhance_group`), which enhances
 *   both groups alike; enhancing only the correct group would bias a max over targets towards "correct".
 *   The multiple-choice "option A" templates of that library are not used (rows carry no option letters).
 * - Refusal (option `refusal`): a third group of fixed refusal sentences — the reference library's three plus
 *   Verity's "I don't know." — so a refusal is not forced into correct or wrong.
 * - Target score: ranker.score(query = response, docs = targets), in [0, 1]; or, with backend 'embedding',
 *   (cos(e(response), e(target)) + 1) / 2. Values outside [0, 1] are clamped.
 * - Group score: max over its targets (default), mean, or 'topk-mean' (mean of the k highest, k = 2; fewer
 *   targets → mean of all). The reference library's mean_top_k_ takes the first k targets in list order;
 *   Verity takes the k highest, which is what the name says.
 * - Normalization: group score / Σ group scores (all zero → every group 1/n). score = the normalized correct
 *   group score; margin = best minus second-best normalized score.
 * - Decision: correct only when the correct group is strictly first. Ties (normalized scores within 1e-12)
 *   never go to "correct": a tie is reported with best_group "wrong" (or "refusal" when wrong is not tied) and
 *   margin 0. With two groups this is
 *   score > 0.5; with the refusal group the correct group can win with a score below 0.5. A threshold given
 *   in the options (e.g. from calibration) replaces the rule: decision = score >= threshold.
 * - Not applicable (score null) when a row has no wrong target; no gold → 0; empty response → 0.
 */
import type { Capability, Embedder, ModelContext, Ranker } from '../capabilities.ts';
import type { BatchMetric, MetricCard, MetricResult, QaItem } from '../types.ts';
import { clamp01, quote, round } from './common.ts';
import { renamed, thresholdOption, type ModelDescriptor } from './descriptor.ts';

export type GroupName = 'correct' | 'wrong' | 'refusal';

export interface TargetGroup {
  name: GroupName;
  targets: string[];
}

export type Aggregation = 'max' | 'mean' | 'topk-mean';

/** Enhancement templates of the authors' reference library ({t} = one target answer). */
export const ENHANCEMENT_TEMPLATES: readonly string[] = [
  '{t}',
  'The answer is : "{t}" . Let me explain why',
  'Therefore, the answer is : "{t}"',
];

/** Refusal targets: the reference library's three, then Verity's addition. */
export const REFUSAL_TARGETS: readonly string[] = [
  "I'm unable to answer that question.",
  "Sorry, I'm not allowed to answer that.",
  'I choose not to respond to that inquiry.',
  "I don't know.",
];

/** k of 'topk-mean'. */
export const TOP_K = 2;

export interface TargetGroupOptions {
  /** Add the enhancement templates to every correct and wrong target (default true). */
  enhance?: boolean;
  /** Add the refusal group (default false). */
  refusal?: boolean;
  /** Replaces REFUSAL_TARGETS. */
  refusalTargets?: readonly string[];
}

export interface AvertOptions extends TargetGroupOptions {
  /** 'ranker' (default): ctx.ranker; 'embedding': cosine of ctx.embedder vectors. */
  backend?: 'ranker' | 'embedding';
  /** How a group's target scores combine (default 'max'). */
  aggregation?: Aggregation;
  /** A calibrated threshold: decision = score >= threshold instead of "the correct group ranks first". */
  threshold?: number;
}

export const card: MetricCard = {
  what: 'Ranks the response against groups of correct and wrong target answers (and optionally refusals) with a ranker or embeddings; correct when the correct group ranks first.',
  formula:
    'Target score s(t) = ranker(response, t) or (cos+1)/2; group score G = max_t s(t) (or mean, or mean of the top 2); score = G_correct / Σ_groups G; decision: correct group strictly first (ties → not correct); margin = first − second normalized score.',
  defaults:
    'Ranker backend, max aggregation, no refusal group. Correct = golds, wrong = choices minus golds ∪ wrong_answers, each also in the reference library\'s templates ("{t}", \'The answer is : "{t}" . Let me explain why\', \'Therefore, the answer is : "{t}"\'). Reported threshold 0.5 (two groups: decision ⇔ score > 0.5).',
  limits:
    "Needs wrong targets (choices or wrong_answers); null without them. Only as good as the ranker/embedder, which in Verity is a small in-browser model, not the paper's; scores are not comparable across backends. The paper's multiple-choice option templates and question-formulation group are not used.",
  citation:
    'Aguirre, Caso, Rodríguez Colmeiro, Santelli, Toranzo Calderón, 2025. A-VERT: Agnostic Verification with Embedding Ranking Targets. arXiv:2510.01469 (templates from the a_vert library, github.com/pnyxai/a-vert).',
};

const key = (s: string): string => s.trim().replace(/\s+/g, ' ').toLowerCase();

/** Trimmed, non-empty, first spelling of each case/space-insensitive value, minus the `exclude` keys. */
function uniqueTexts(values: readonly string[], exclude: ReadonlySet<string> = new Set()): string[] {
  const seen = new Set(exclude);
  const out: string[] = [];
  for (const v of values) {
    const k = key(v);
    if (k === '' || seen.has(k)) continue;
    seen.add(k);
    out.push(v.trim());
  }
  return out;
}

const enhanceAll = (targets: readonly string[], on: boolean): string[] =>
  on ? targets.flatMap((t) => ENHANCEMENT_TEMPLATES.map((tpl) => tpl.replaceAll('{t}', t))) : [...targets];

/**
 * The target groups of an item, in order correct, wrong, [refusal]. The wrong group has no targets when the
 * item has neither choices (other than the golds) nor wrong answers.
 */
export function buildTargetGroups(item: QaItem, options: TargetGroupOptions = {}): TargetGroup[] {
  const enhance = options.enhance ?? true;
  const golds = uniqueTexts(item.golds);
  const goldKeys = new Set(golds.map(key));
  const wrong = uniqueTexts([...(item.choices ?? []), ...(item.wrongAnswers ?? [])], goldKeys);
  const groups: TargetGroup[] = [
    { name: 'correct', targets: enhanceAll(golds, enhance) },
    { name: 'wrong', targets: enhanceAll(wrong, enhance) },
  ];
  if (options.refusal) groups.push({ name: 'refusal', targets: uniqueTexts(options.refusalTargets ?? REFUSAL_TARGETS) });
  return groups;
}

/** Combines one group's target scores. */
export function aggregate(scores: readonly number[], how: Aggregation): number {
  if (scores.length === 0) return 0;
  if (how === 'max') return scores.reduce((a, b) => Math.max(a, b)); // not Math.max(...): one argument per target overflows the stack
  const pick = how === 'mean' ? scores : [...scores].sort((a, b) => b - a).slice(0, TOP_K);
  return pick.reduce((a, b) => a + b, 0) / pick.length;
}

/** Order used to break ties when choosing the best group: correct never wins a tie. */
const TIE_ORDER: Record<GroupName, number> = { wrong: 0, refusal: 1, correct: 2 };
/** Normalized scores this close count as tied (float noise of sums taken in different orders). */
const TIE_EPS = 1e-12;
const tied = (a: number, b: number): boolean => Math.abs(a - b) <= TIE_EPS;

export interface GroupScore {
  name: GroupName;
  /** Aggregated target score. */
  raw: number;
  /** raw / Σ raw. */
  normalized: number;
  /** The group's highest-scoring target and its score. */
  top: { target: string; score: number } | null;
}

export interface AvertOutcome {
  /** In group order. */
  groups: GroupScore[];
  /** Best first (ties: wrong, refusal, then correct). */
  ranked: GroupScore[];
  bestGroup: GroupName;
  margin: number;
  /** Normalized correct-group score. */
  score: number;
  /** The correct group ranks strictly first. */
  correctFirst: boolean;
}

/** Group scores, normalization and ranking from per-target scores (aligned with the groups' targets, flattened). */
export function rankGroups(groups: readonly TargetGroup[], targetScores: readonly number[], how: Aggregation): AvertOutcome {
  let at = 0;
  const scored = groups.map((g) => {
    const s = targetScores.slice(at, at + g.targets.length).map(targetScore);
    at += g.targets.length;
    let top: GroupScore['top'] = null;
    s.forEach((v, i) => {
      if (top === null || v > top.score) top = { target: g.targets[i]!, score: v };
    });
    return { name: g.name, raw: aggregate(s, how), top };
  });
  const sum = scored.reduce((a, g) => a + g.raw, 0);
  const out: GroupScore[] = scored.map((g) => ({ ...g, normalized: sum > 0 ? g.raw / sum : 1 / scored.length }));
  const ranked = [...out].sort((a, b) =>
    tied(a.normalized, b.normalized) ? TIE_ORDER[a.name] - TIE_ORDER[b.name] : b.normalized - a.normalized,
  );
  const first = ranked[0]!;
  const second = ranked[1]!; // there are always at least two groups
  const correct = out.find((g) => g.name === 'correct')!;
  return {
    groups: out,
    ranked,
    bestGroup: first.name,
    margin: tied(first.normalized, second.normalized) ? 0 : first.normalized - second.normalized,
    score: correct.normalized,
    correctFirst: first.name === 'correct',
  };
}

/** A model's target score in [0, 1]; NaN is a model failure, not a score. */
function targetScore(x: number): number {
  if (Number.isNaN(x)) throw new Error('the model returned a non-numeric score');
  return clamp01(x);
}

export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new Error(`vector sizes differ (${a.length} vs ${b.length})`);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

interface Pending {
  index: number;
  response: string;
  groups: TargetGroup[];
  targets: string[];
}

async function rankerScores(ranker: Ranker, rows: readonly Pending[]): Promise<number[][]> {
  // One ranker call per distinct (response, target list); rows are few per batch, so calls go one at a time.
  const memo = new Map<string, number[]>();
  const out: number[][] = [];
  for (const r of rows) {
    const k = JSON.stringify([r.response, r.targets]);
    let s = memo.get(k);
    if (!s) {
      s = await ranker.score(r.response, r.targets);
      if (s.length !== r.targets.length) throw new Error(`the ranker returned ${s.length} scores for ${r.targets.length} targets`);
      memo.set(k, s);
    }
    out.push(s);
  }
  return out;
}

async function embeddingScores(embedder: Embedder, rows: readonly Pending[]): Promise<number[][]> {
  const texts = [...new Set(rows.flatMap((r) => [r.response, ...r.targets]))];
  const vecs = await embedder.embed(texts);
  if (vecs.length !== texts.length) throw new Error(`the embedder returned ${vecs.length} vectors for ${texts.length} texts`);
  const byText = new Map(texts.map((t, i) => [t, vecs[i]!] as const));
  return rows.map((r) => {
    const q = byText.get(r.response)!;
    return r.targets.map((t) => (cosine(q, byText.get(t)!) + 1) / 2);
  });
}

/** The models it uses: a reranker, or an embedder with the embedding backend. */
const NEEDS: readonly Capability[] = ['ranker'];
const EMBEDDING_NEEDS: readonly Capability[] = ['embedder'];

export function createAvert(options: AvertOptions = {}): BatchMetric {
  const backend = options.backend ?? 'ranker';
  const how = options.aggregation ?? 'max';
  const calibrated = options.threshold;
  const threshold = calibrated ?? 0.5;
  const groupOptions: TargetGroupOptions = {
    enhance: options.enhance ?? true,
    refusal: options.refusal ?? false,
    ...(options.refusalTargets ? { refusalTargets: options.refusalTargets } : {}),
  };

  return {
    name: 'avert',
    card,
    threshold,
    needs: backend === 'ranker' ? NEEDS : EMBEDDING_NEEDS,
    async scoreBatch(items: readonly QaItem[], ctx: ModelContext): Promise<MetricResult[]> {
      const results: MetricResult[] = new Array(items.length);
      const pending: Pending[] = [];
      items.forEach((item, index) => {
        const groups = buildTargetGroups(item, groupOptions);
        if (groups[1]!.targets.length === 0)
          results[index] = { score: null, decision: null, explanation: 'not applicable: no wrong targets (add choices or wrong_answers)' };
        else if (groups[0]!.targets.length === 0) results[index] = { score: 0, decision: false, explanation: 'no gold answer' };
        else if (item.candidate.trim() === '') results[index] = { score: 0, decision: false, explanation: 'empty response' };
        else pending.push({ index, response: item.candidate, groups, targets: groups.flatMap((g) => g.targets) });
      });
      if (pending.length === 0) return results;

      const model = backend === 'ranker' ? ctx.ranker : ctx.embedder;
      if (!model) {
        const explanation = `not available: A-VERT with the ${backend} backend needs ${backend === 'ranker' ? 'a ranker' : 'an embedder'} (none loaded)`;
        for (const p of pending) results[p.index] = { score: null, decision: null, explanation };
        return results;
      }
      const scores = backend === 'ranker' ? await rankerScores(ctx.ranker!, pending) : await embeddingScores(ctx.embedder!, pending);

      pending.forEach((p, i) => {
        const o = rankGroups(p.groups, scores[i]!, how);
        const decision = calibrated === undefined ? o.correctFirst : o.score >= calibrated;
        const [first, ...rest] = o.ranked;
        const rel = tied(rest[0]!.normalized, first!.normalized) ? '=' : '>';
        const top = first!.top;
        const explanation =
          `${first!.name} ${round(first!.normalized)} ${rel} ${rest.map((g) => `${g.name} ${round(g.normalized)}`).join(', ')} (margin ${round(o.margin)})` +
          (top ? `; closest target ${quote(top.target)}` : '') +
          (calibrated === undefined ? '' : `; threshold ${calibrated}`);
        results[p.index] = {
          score: o.score,
          decision,
          explanation,
          details: {
            backend,
            aggregation: how,
            best_group: o.bestGroup,
            margin: o.margin,
            groups: Object.fromEntries(
              o.groups.map((g) => [
                g.name,
                { score: g.raw, normalized: g.normalized, top_target: g.top?.target ?? null, top_score: g.top?.score ?? null },
              ]),
            ),
            targets: Object.fromEntries(p.groups.map((g) => [g.name, g.targets.length])),
          },
        };
      });
      return results;
    },
  };
}

const exampleWords = (s: string): Set<string> => new Set(s.toLowerCase().match(/[a-z0-9']+/g) ?? []);

export const descriptor: ModelDescriptor = {
  needs: NEEDS,
  variantNeeds: { avert_embedding: EMBEDDING_NEEDS },
  name: 'avert',
  family: 'model',
  card,
  variants: ['avert_embedding'],
  create: (s, name = 'avert') =>
    name === 'avert_embedding'
      ? renamed(createAvert({ ...thresholdOption(s, name), backend: 'embedding' }), 'avert_embedding')
      : createAvert(thresholdOption(s, name)),
  examples: [
    {
      item: { question: 'Capital of France?', golds: ['Paris'], choices: ['Paris', 'Rome'], candidate: 'The answer is Paris.' },
      given: 'a ranker that scores word overlap (Jaccard similarity of the word sets)',
      models: () => ({
        ranker: {
          score: async (query, docs) => {
            const q = exampleWords(query);
            return docs.map((d) => {
              const w = exampleWords(d);
              return [...w].filter((x) => q.has(x)).length / new Set([...q, ...w]).size;
            });
          },
        },
      }),
      expected: {
        score: 0.615,
        decision: true,
        explanation: 'correct 0.615 > wrong 0.385 (margin 0.231); closest target "Therefore, the answer is : \\"Paris\\""',
      },
    },
  ],
};
