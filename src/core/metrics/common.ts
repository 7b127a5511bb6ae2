/** Small helpers shared by the metric files. */

/** A short quoted excerpt for explanations. */
export function quote(s: string, max = 60): string {
  const t = s.length > max ? `${s.slice(0, max - 1)}…` : s;
  return JSON.stringify(t);
}

/** Multiset overlap of two token lists (how many tokens they share, counting repeats). */
export function overlapCount(a: string[], b: string[]): number {
  return takeFrom(tokenCounts(b), a);
}

/** How many of `tokens` the counts hold, each one taking one from its count (the counts are used up). */
function takeFrom(counts: Map<string, number>, tokens: readonly string[]): number {
  let same = 0;
  for (const t of tokens) {
    const c = counts.get(t);
    if (c) {
      same++;
      counts.set(t, c - 1);
    }
  }
  return same;
}

/** Token counts of a list, built once per candidate and reused against every gold. */
export function tokenCounts(tokens: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of tokens) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

/**
 * Multiset overlap of a gold against candidate counts: Σ over distinct gold tokens of min(count in gold,
 * count in candidate). O(|gold|²) without a map for the short golds of QA; a long gold gets a map (linear).
 */
export function overlapWithCounts(candCounts: ReadonlyMap<string, number>, gold: readonly string[]): number {
  if (gold.length > SHORT_GOLD) return takeFrom(new Map(candCounts), gold);
  let same = 0;
  outer: for (let i = 0; i < gold.length; i++) {
    const t = gold[i]!;
    for (let k = 0; k < i; k++) if (gold[k] === t) continue outer;
    const inCand = candCounts.get(t);
    if (!inCand) continue;
    let inGold = 1;
    for (let k = i + 1; k < gold.length; k++) if (gold[k] === t) inGold++;
    same += Math.min(inGold, inCand);
  }
  return same;
}
/** Gold tokens up to which the quadratic count is faster than building a map. */
const SHORT_GOLD = 64;

/** precision / recall / F1 from an overlap count (SQuAD v1.1: all 0 when nothing is shared). */
export function prfFromOverlap(same: number, predLen: number, goldLen: number): { precision: number; recall: number; f1: number } {
  if (same === 0) return { precision: 0, recall: 0, f1: 0 };
  const precision = same / predLen;
  const recall = same / goldLen;
  return { precision, recall, f1: (2 * precision * recall) / (precision + recall) };
}

/** SQuAD v1.1 token precision / recall / F1 of a prediction against one gold. */
export function prf(pred: string[], gold: string[]): { precision: number; recall: number; f1: number } {
  const same = overlapCount(pred, gold);
  if (same === 0) return { precision: 0, recall: 0, f1: 0 };
  const precision = same / pred.length;
  const recall = same / gold.length;
  return { precision, recall, f1: (2 * precision * recall) / (precision + recall) };
}

export const round = (x: number, digits = 3): number => Math.round(x * 10 ** digits) / 10 ** digits;

/** x limited to [0, 1]. */
export const clamp01 = (x: number): number => Math.min(1, Math.max(0, x));

/** Index of the highest value, the first one on ties (as numpy's argmax); -1 for an empty list. */
export function argmax(xs: readonly number[]): number {
  let best = -1;
  for (let i = 0; i < xs.length; i++) if (best < 0 || xs[i]! > xs[best]!) best = i;
  return best;
}

/** A token without the ASCII punctuation around it ("shakespeare," → "shakespeare"). */
const bare = (t: string) => t.replace(/^[!-/:-@[-`{-~]+|[!-/:-@[-`{-~]+$/g, '');

/**
 * Why whitespace tokens did not match where the words do: the first candidate token that equals a gold token once
 * the punctuation glued to it is taken off, said as `"shakespeare," ≠ "shakespeare": tokens are split on spaces
 * only, so punctuation stays on the word` (quoted as JSON: a token may hold quotes); '' when there is none.
 */
export function gluedPunctuation(candidate: readonly string[], golds: readonly (readonly string[])[]): string {
  const exact = new Set(golds.flat());
  for (const c of candidate) {
    if (exact.has(c)) continue;
    const b = bare(c);
    if (!b) continue;
    for (const g of golds.flat())
      if (g !== c && bare(g) === b)
        return `${JSON.stringify(c)} ≠ ${JSON.stringify(g)}: tokens are split on spaces only, so punctuation stays on the word`;
  }
  return '';
}
