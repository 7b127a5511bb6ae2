/**
 * Features of the PEDANTS-style classifier: generic answer-vs-gold agreement features plus tf-idf unigrams
 * over "[CLS] candidate [SEP] gold [SEP] question". Shared by the metric and by its training script so the
 * two can never drift apart.
 */
import type { WordNet } from '../lexicon/index.ts';
import type { QaItem } from '../types.ts';
import { normalizeTokens } from '../text/normalize.ts';
import { overlapWithCounts, tokenCounts } from './common.ts';
import { log1p } from '../util/fmath.ts';
import { classifyText, type TextVerdict } from '../signals/classify.ts';
import { textMemo } from '../util/memo.ts';
import { isNameNumber } from '../signals/quantities.ts';

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
  // WordNet (signals/wordnet.ts): looked up for answers the other signals do not find correct.
  'wordnet_synonym',
  'wordnet_broader',
  'wordnet_narrower',
  'wordnet_antonym',
] as const;

/**
 * A fixed logit for a clear contradiction (the polarity signal: a negated gold clause, a yes/no flip, a premise
 * denial, an antonym), added after the learned model. EVOUNA-TQ has almost no contradictory answers, so the
 * learned weight of polarity_flip stays near 0 and "The Eiffel Tower is not in Paris" would score as correct;
 * −6 moves P = 0.99 to about 0.2. Applied the same way in training's held-out figures.
 */
export const POLARITY_PRIOR = -6;

/**
 * The same for another number of the gold's name ("Elizabeth I" for "Elizabeth II", "World War I" for "World War
 * II"): EVOUNA-TQ has no such answer, and by its characters "Elizabeth I" is nearly "Elizabeth II".
 */
export const NAME_NUMBER_PRIOR = -6;

/** The fixed logit added for a verdict the training data cannot teach (see above), and its name in the details. */
export function signalPrior(v: TextVerdict): { name: 'polarity_prior' | 'name_number_prior'; logit: number } | null {
  // A WordNet antonym in the gold's frame is the same kind of clear contradiction.
  if ((v.signal === 'polarity' || v.signal === 'wordnet') && v.cls === 'contradictory')
    return { name: 'polarity_prior', logit: POLARITY_PRIOR };
  const qs = v.signals.quantities[v.gold];
  if (v.signal === 'quantities' && (v.cls === 'invalid' || v.cls === 'overinclusive-invalid') && qs?.at && isNameNumber(qs.at))
    return { name: 'name_number_prior', logit: NAME_NUMBER_PRIOR };
  return null;
}

/**
 * The key of the trigram at `i` of `t` (a string padded with a space each side): a trigram of ASCII characters is a
 * small integer (7 bits a character, so no string is made for it), any other its text: one trigram, one key.
 */
function trigramKey(t: string, i: number): number | string {
  const a = t.charCodeAt(i);
  const b = t.charCodeAt(i + 1);
  const c = t.charCodeAt(i + 2);
  return a < 128 && b < 128 && c < 128 ? (a << 14) | (b << 7) | c : t.slice(i, i + 3);
}

/** Character trigrams of a string padded with spaces, by trigramKey. */
function trigrams(s: string): Set<number | string> {
  const t = ` ${s} `;
  const out = new Set<number | string>();
  for (let i = 0; i + 3 <= t.length; i++) out.add(trigramKey(t, i));
  return out;
}

/** What the features read from one gold alone. */
interface GoldSide {
  tokens: string[];
  /** The tokens joined, and padded with a space each side (for whole-token containment). */
  str: string;
  padded: string;
  /** Trigrams of `str` (empty when `str` is). */
  tri: Set<number | string>;
  nums: string[];
}

/** A gold's side of the features (cached: the rows of a question share its golds). Callers must not mutate it. */
const goldSide = textMemo((gold: string): GoldSide => {
  const tokens = normalizeTokens(gold, 'numeric');
  const str = tokens.join(' ');
  return { tokens, str, padded: ` ${str} `, tri: str.length > 0 ? trigrams(str) : new Set(), nums: tokens.filter(isNumberToken) };
});

/**
 * The candidate's trigrams, in buffers reused from row to row (a Set a row was one of the scoring workers' largest
 * allocations): the integer trigrams in an open-addressing table whose slots are stamped with the row's
 * generation (so nothing is cleared), the others in a Set. Keys by trigramKey, as the golds' sets.
 */
class CandidateTrigrams {
  #slots = new Int32Array(256);
  #stamps = new Uint32Array(256);
  /** 32 − log2(slots): a Fibonacci hash takes the product's top bits. */
  #shift = 24;
  #gen = 0;
  /** The distinct integer trigrams, in the order first seen. */
  ints = new Int32Array(128);
  intCount = 0;
  readonly others = new Set<string>();

  get size(): number {
    return this.intCount + this.others.size;
  }

  fill(s: string): void {
    const t = ` ${s} `;
    const most = Math.max(0, t.length - 2);
    if (this.#slots.length < 2 * most) {
      let n = this.#slots.length;
      while (n < 2 * most) n *= 2;
      this.#slots = new Int32Array(n);
      this.#stamps = new Uint32Array(n);
      this.#shift = 32 - Math.log2(n);
      this.#gen = 0;
    }
    if (this.ints.length < most) this.ints = new Int32Array(most);
    if (++this.#gen === 0xffffffff) {
      this.#stamps.fill(0);
      this.#gen = 1;
    }
    this.intCount = 0;
    if (this.others.size) this.others.clear();
    for (let i = 0; i + 3 <= t.length; i++) {
      const k = trigramKey(t, i);
      if (typeof k === 'number') this.#addInt(k);
      else this.others.add(k);
    }
  }

  #slot(x: number): number {
    const mask = this.#slots.length - 1;
    let h = Math.imul(x, 0x9e3779b1) >>> this.#shift;
    while (this.#stamps[h] === this.#gen && this.#slots[h] !== x) h = (h + 1) & mask;
    return h;
  }

  #addInt(x: number): void {
    const h = this.#slot(x);
    if (this.#stamps[h] === this.#gen) return;
    this.#stamps[h] = this.#gen;
    this.#slots[h] = x;
    this.ints[this.intCount++] = x;
  }

  has(x: number | string): boolean {
    return typeof x === 'number' ? this.#stamps[this.#slot(x)] === this.#gen : this.others.has(x);
  }
}
const candTri = new CandidateTrigrams();

/** Jaccard similarity of the candidate's trigrams and a gold's; the smaller is walked (the count is the same either way). */
function jaccard(a: CandidateTrigrams, b: Set<number | string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let inter = 0;
  if (a.size <= b.size) {
    for (let i = 0; i < a.intCount; i++) if (b.has(a.ints[i]!)) inter++;
    for (const x of a.others) if (b.has(x)) inter++;
  } else for (const x of b) if (a.has(x)) inter++;
  return inter / (a.size + b.size - inter);
}

/** A number token as the numeric normalization writes it ("1813", "2.5", "1st"). */
export const isNumberToken = (t: string): boolean => /^\d+(\.\d+)?(st|nd|rd|th)?$/.test(t);

/** The largest distance that passes for a longer token of `longest`, by the same floating-point test as the similarity. */
function largestDistance(longest: number): number {
  let bound = -1;
  while (bound < longest && 1 - (bound + 1) / longest >= 0.8) bound++;
  return bound;
}
const BOUNDS = Array.from({ length: 65 }, (_, longest) => largestDistance(longest));

/** Whether `b` is `a` (as long, or one shorter, and not equal) with one code unit changed or deleted. */
function oneEdit(a: string, b: string): boolean {
  const n = b.length;
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  // The first difference is the edit: the rest must agree, after it in both (a change) or in `a` alone (a deletion).
  const skip = a.length === n ? 1 : 0;
  for (let j = i + skip; j < n; j++) if (a.charCodeAt(j + 1 - skip) !== b.charCodeAt(j)) return false;
  return true;
}

let prevRow = new Int32Array(64);
let curRow = new Int32Array(64);

/**
 * Whether two tokens are spelling variants of each other ("Tchaikovsky" / "Tchaikowsky"): Levenshtein similarity
 * 1 − d / max(|a|, |b|) of at least 0.8. Stops as soon as every cell of a row is past the largest distance that
 * still passes (a row's minimum never falls), on reused buffers.
 */
export function similarSpelling(a: string, b: string): boolean {
  if (a === b) return true;
  const m = a.length;
  const n = b.length;
  if (m === 0 || n === 0) return false;
  const longest = Math.max(m, n);
  const bound = longest < BOUNDS.length ? BOUNDS[longest]! : largestDistance(longest);
  // Tokens of up to four letters pass only when equal; those of five to nine (most words) within one edit.
  if (bound === 0 || Math.abs(m - n) > bound) return false;
  if (bound === 1) return m >= n ? oneEdit(a, b) : oneEdit(b, a);
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

/** Whether some token is a spelling variant of `t` (a loop: a closure over `t` would be an allocation a gold token). */
function someSimilar(tokens: readonly string[], t: string): boolean {
  for (const x of tokens) if (similarSpelling(x, t)) return true;
  return false;
}

export interface Analysis {
  dense: number[];
  /** Gold answer with the best token F1 (used in explanations and the tf-idf text). */
  bestGold: string;
  /** The best match is not a gold but another name of one the text signals found (an alias, a WordNet synonym). */
  bestIsForm: boolean;
  /** Tokens of "[CLS] candidate [SEP] gold [SEP] question" for the tf-idf part. */
  textTokens: string[];
  /** What the reason's claims rest on: the golds read (the golds, then the form the signals found), the first one the
   * candidate holds word for word (−1: none), the candidate's and the best gold's tokens (numeric normalization). */
  goldTexts: readonly string[];
  held: number;
  candTokens: readonly string[];
  bestTokens: readonly string[];
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
    s.wordnet?.relation === 'synonym' ? 1 : 0,
    s.wordnet?.relation === 'broader' ? 1 : 0,
    s.wordnet?.relation === 'narrower' ? 1 : 0,
    s.wordnet?.relation === 'antonym' ? 1 : 0,
  ];
}

/** `explain`: the verdict's reason is wanted (false: a scoring pool that keeps scores only). */
export function analyze(item: QaItem, wn: WordNet | null, explain = true): Analysis {
  const verdict = classifyText(item, wn, explain);
  // A stated final answer that decided the verdict (final.ts) is the answer the lexical features read too.
  const cand = normalizeTokens(verdict.answer ?? item.candidate, 'numeric');
  const candStr = cand.join(' ');
  const candPadded = ` ${candStr} `;
  const question = normalizeTokens(item.question, 'numeric');
  // A gold's other name that the text signals found in the candidate (USA for United States) is one more gold here.
  const goldTexts = verdict.form === undefined ? item.golds : [...item.golds, verdict.form];
  const golds = goldTexts.map(goldSide);
  let bestF1 = 0;
  let bestPrecision = 0;
  let bestRecall = 0;
  let bestIdx = 0;
  let maxRecall = 0;
  let exact = 0;
  let containsTok = 0;
  let held = -1;
  let containsSub = 0;
  let goldContains = 0;
  let fuzzy = 0;
  let tri = 0;
  candTri.fill(candStr);
  const candCounts = tokenCounts(cand);
  // Distinct candidate tokens: whether some token is a close spelling does not depend on repeats.
  const candDistinct = [...candCounts.keys()];
  for (let i = 0; i < golds.length; i++) {
    const gold = golds[i]!;
    const g = gold.tokens;
    // The multiset overlap is symmetric: the candidate's counts, built once, serve every gold.
    // SQuAD precision / recall / F1 (prfFromOverlap's arithmetic), with no object per gold.
    const same = overlapWithCounts(candCounts, g);
    const precision = same === 0 ? 0 : same / cand.length;
    const recall = same === 0 ? 0 : same / g.length;
    const f1 = same === 0 ? 0 : (2 * precision * recall) / (precision + recall);
    if (f1 > bestF1) {
      bestF1 = f1;
      bestPrecision = precision;
      bestRecall = recall;
      bestIdx = i;
    }
    maxRecall = Math.max(maxRecall, recall);
    const gs = gold.str;
    if (gs.length === 0) continue;
    if (gs === candStr) exact = 1;
    // Flags: once set, the (long) candidate need not be searched again. One text holds the other's tokens only
    // where they share one (tokens have no space): most golds share none, and are searched as a substring alone.
    if (same > 0) {
      if (!containsTok && candPadded.includes(gold.padded)) {
        containsTok = 1;
        held = i;
      }
      if (!goldContains && candStr.length > 0 && gold.padded.includes(candPadded)) goldContains = 1;
    }
    if (!containsSub && candStr.includes(gs)) containsSub = 1;
    // Share of gold tokens that have a close spelling in the candidate (a gold that cannot beat the best so far
    // is left early: the maximum is the same).
    let covered = 0;
    for (let k = 0; k < g.length && (covered + g.length - k) / g.length > fuzzy; k++) {
      const gt = g[k]!;
      if (candCounts.has(gt) || someSimilar(candDistinct, gt)) covered++;
    }
    fuzzy = Math.max(fuzzy, covered / g.length);
    // Jaccard is at most min/max of the set sizes (all of the smaller shared): skip a gold that cannot beat the best.
    const gt = gold.tri;
    const small = Math.min(candTri.size, gt.size);
    const large = Math.max(candTri.size, gt.size);
    if (small / large > tri) tri = Math.max(tri, jaccard(candTri, gt));
  }
  const goldTokens = golds[bestIdx]?.tokens ?? [];
  const bestGoldNums = golds[bestIdx]?.nums ?? [];
  const goldHasNumber = golds.some((x) => x.nums.length > 0);
  const candNums = cand.filter(isNumberToken);
  const numbersAgree = bestGoldNums.length > 0 && bestGoldNums.every((n) => candNums.includes(n)) ? 1 : 0;
  const numbersConflict = goldHasNumber && candNums.length > 0 && !candNums.some((n) => golds.some((x) => x.nums.includes(n))) ? 1 : 0;
  // The multiset overlap is symmetric: the candidate's counts serve the question too.
  const qOverlap = cand.length > 0 ? overlapWithCounts(candCounts, question) / cand.length : 0;
  const dense = [
    bestF1,
    bestPrecision,
    bestRecall,
    maxRecall,
    exact,
    containsTok,
    containsSub,
    goldContains,
    fuzzy,
    tri,
    goldHasNumber ? 1 : 0,
    numbersAgree,
    numbersConflict,
    qOverlap,
    log1p(cand.length),
    log1p(goldTokens.length),
    cand.length === 0 ? 1 : 0,
    ...signalFeatures(verdict),
  ];
  const textTokens = ['[cls]', ...cand, '[sep]', ...goldTokens, '[sep]', ...question];
  return {
    dense,
    bestGold: goldTexts[bestIdx] ?? '',
    bestIsForm: bestIdx >= item.golds.length,
    textTokens,
    verdict,
    goldTexts,
    held,
    candTokens: cand,
    bestTokens: goldTokens,
  };
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
