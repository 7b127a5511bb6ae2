/**
 * Features of the PEDANTS-style classifier: generic answer-vs-gold agreement features plus tf-idf unigrams
 * over "[CLS] candidate [SEP] gold [SEP] question". Shared by the metric and by its training script so the
 * two can never drift apart.
 */
import type { QaItem } from '../types.ts';
import { normalizeTokens } from '../text/normalize.ts';
import { overlapCount, overlapWithCounts, prfFromOverlap, tokenCounts } from './common.ts';
import { log1p } from '../util/fmath.ts';
import { classifyText, type TextVerdict } from '../signals/classify.ts';

export const DENSE_FEATURES = [
  'f1',
  'precision',
  'recall',
  'max_recall',
  'exact',
  'contains_gold',
  'contains_gold_substring',
  'gold_contains_candidate',
  'fuzzy_gold_coverage',
  'char_trigram_jaccard',
  'gold_has_number',
  'numbers_agree',
  'numbers_conflict',
  'candidate_question_overlap',
  'log_candidate_len',
  'log_gold_len',
  'empty_candidate',
  // Text signals (src/core/signals): what word overlap cannot see.
  'polarity_flip',
  'refusal',
  'quantity_conflict',
  'quantity_incomplete',
  'list_or_hedge_wrong',
  'less_specific',
  'text_class_correct',
] as const;

/**
 * A fixed logit for a clear contradiction (the polarity signal: a negated gold clause, a yes/no flip, a premise
 * denial, an antonym), added after the learned model. EVOUNA-TQ has almost no contradictory answers, so the
 * learned weight of polarity_flip stays near 0 and "The Eiffel Tower is not in Paris" would score as correct;
 * −6 moves P = 0.99 to about 0.2. Applied the same way in training's held-out figures.
 */
export const POLARITY_PRIOR = -6;

/** Character trigrams of a string padded with spaces. */
function trigrams(s: string): Set<string> {
  const t = ` ${s} `;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= t.length; i++) out.add(t.slice(i, i + 3));
  return out;
}

const goldTrigramCache = new Map<string, Set<string>>();
/** Trigrams of a gold (cached: the rows of a question share its golds). Callers must not mutate the set. */
function goldTrigrams(s: string): Set<string> {
  let t = goldTrigramCache.get(s);
  if (t === undefined) {
    t = trigrams(s);
    if (goldTrigramCache.size >= 20_000) goldTrigramCache.clear();
    goldTrigramCache.set(s, t);
  }
  return t;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / (a.size + b.size - inter);
}

let prevRow = new Int32Array(64);
let curRow = new Int32Array(64);

/**
 * Whether two tokens are spelling variants of each other ("Tchaikovsky" / "Tchaikowsky"): Levenshtein similarity
 * 1 − d / max(|a|, |b|) of at least 0.8. Stops as soon as every cell of a row is past the largest distance that
 * still passes (a row's minimum never falls), on reused buffers.
 */
function similarSpelling(a: string, b: string): boolean {
  if (a === b) return true;
  const m = a.length;
  const n = b.length;
  if (m === 0 || n === 0) return false;
  const longest = Math.max(m, n);
  // The largest distance that passes, by the same floating-point test as the similarity.
  let bound = -1;
  while (bound < longest && 1 - (bound + 1) / longest >= 0.8) bound++;
  if (Math.abs(m - n) > bound) return false;
  if (prevRow.length <= n) {
    prevRow = new Int32Array(n + 1);
    curRow = new Int32Array(n + 1);
  }
  let prev = prevRow;
  let cur = curRow;
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= m; i++) {
    cur[0] = i;
    let rowMin = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const sub = prev[j - 1]! + (ca === b.charCodeAt(j - 1) ? 0 : 1);
      const del = prev[j]! + 1;
      const ins = cur[j - 1]! + 1;
      const v = sub < del ? (sub < ins ? sub : ins) : del < ins ? del : ins;
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > bound) return false;
    const t = prev;
    prev = cur;
    cur = t;
  }
  return prev[n]! <= bound;
}

const isNumberToken = (t: string): boolean => /^\d+(\.\d+)?(st|nd|rd|th)?$/.test(t);

export interface Analysis {
  dense: number[];
  /** Gold answer with the best token F1 (used in explanations and the tf-idf text). */
  bestGold: string;
  /** Tokens of "[CLS] candidate [SEP] gold [SEP] question" for the tf-idf part. */
  textTokens: string[];
  /** The text signals' verdict (the same as taxonomy_text's). */
  verdict: TextVerdict;
}

const CORRECT = new Set(['exact', 'equivalent', 'alternative-correct', 'overinclusive-valid']);

/** The signal features, in DENSE_FEATURES order. */
function signalFeatures(v: TextVerdict): number[] {
  const s = v.signals;
  const q = s.quantities.map((x) => x.relation);
  return [
    v.signal === 'polarity' && v.cls === 'contradictory' ? 1 : 0,
    s.refusal ? 1 : 0,
    q.includes('conflict') || q.includes('extra-conflict') ? 1 : 0,
    q.includes('missing-unit') || q.includes('range') ? 1 : 0,
    s.list && s.list.wrong.length > 0 ? 1 : 0,
    s.specificity.some(Boolean) ? 1 : 0,
    CORRECT.has(v.cls) ? 1 : 0,
  ];
}

export function analyze(item: QaItem): Analysis {
  const verdict = classifyText(item);
  const cand = normalizeTokens(item.candidate, 'numeric');
  const candStr = cand.join(' ');
  const question = normalizeTokens(item.question, 'numeric');
  const golds = item.golds.map((g) => normalizeTokens(g, 'numeric'));
  let best = { precision: 0, recall: 0, f1: 0 };
  let bestIdx = 0;
  let maxRecall = 0;
  let exact = 0;
  let containsTok = 0;
  let containsSub = 0;
  let goldContains = 0;
  let fuzzy = 0;
  let tri = 0;
  const candTri = trigrams(candStr);
  const candCounts = tokenCounts(cand);
  golds.forEach((g, i) => {
    // The multiset overlap is symmetric: the candidate's counts, built once, serve every gold.
    const r = prfFromOverlap(overlapWithCounts(candCounts, g), cand.length, g.length);
    if (r.f1 > best.f1) {
      best = r;
      bestIdx = i;
    }
    maxRecall = Math.max(maxRecall, r.recall);
    const gs = g.join(' ');
    if (gs.length === 0) return;
    if (gs === candStr) exact = 1;
    if (` ${candStr} `.includes(` ${gs} `)) containsTok = 1;
    if (candStr.includes(gs)) containsSub = 1;
    if (candStr.length > 0 && ` ${gs} `.includes(` ${candStr} `)) goldContains = 1;
    // Share of gold tokens that have a close spelling in the candidate.
    let covered = 0;
    for (const gt of g) if (cand.some((ct) => similarSpelling(ct, gt))) covered++;
    fuzzy = Math.max(fuzzy, covered / g.length);
    tri = Math.max(tri, jaccard(candTri, goldTrigrams(gs)));
  });
  const goldTokens = golds[bestIdx] ?? [];
  const goldNums = new Set(golds.flat().filter(isNumberToken));
  const bestGoldNums = goldTokens.filter(isNumberToken);
  const candNums = cand.filter(isNumberToken);
  const numbersAgree = bestGoldNums.length > 0 && bestGoldNums.every((n) => candNums.includes(n)) ? 1 : 0;
  const numbersConflict = goldNums.size > 0 && candNums.length > 0 && !candNums.some((n) => goldNums.has(n)) ? 1 : 0;
  const qOverlap = cand.length > 0 ? overlapCount(cand, question) / cand.length : 0;
  const dense = [
    best.f1,
    best.precision,
    best.recall,
    maxRecall,
    exact,
    containsTok,
    containsSub,
    goldContains,
    fuzzy,
    tri,
    goldNums.size > 0 ? 1 : 0,
    numbersAgree,
    numbersConflict,
    qOverlap,
    log1p(cand.length),
    log1p(goldTokens.length),
    cand.length === 0 ? 1 : 0,
    ...signalFeatures(verdict),
  ];
  const textTokens = ['[cls]', ...cand, '[sep]', ...goldTokens, '[sep]', ...question];
  return { dense, bestGold: item.golds[bestIdx] ?? '', textTokens, verdict };
}

/** sklearn-style tf-idf (raw counts × smooth idf, L2-normalized) over a fixed vocabulary, as sparse pairs. */
export function tfidf(tokens: string[], index: ReadonlyMap<string, number>, idf: ArrayLike<number>): { idx: number[]; val: number[] } {
  const counts = new Map<number, number>();
  for (const t of tokens) {
    const k = index.get(t);
    if (k !== undefined) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const idx = [...counts.keys()].sort((a, b) => a - b);
  const val = idx.map((k) => counts.get(k)! * idf[k]!);
  const norm = Math.hypot(...val);
  return { idx, val: norm > 0 ? val.map((v) => v / norm) : val };
}
