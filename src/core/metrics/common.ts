/** Small helpers shared by the metric files. */

/** A short quoted excerpt for explanations. */
export function quote(s: string, max = 60): string {
  const t = s.length > max ? `${s.slice(0, max - 1)}…` : s;
  return JSON.stringify(t);
}

/** Multiset overlap of two token lists (how many tokens they share, counting repeats). */
export function overlapCount(a: string[], b: string[]): number {
  const counts = new Map<string, number>();
  for (const t of b) counts.set(t, (counts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of a) {
    const c = counts.get(t);
    if (c) {
      same++;
      counts.set(t, c - 1);
    }
  }
  return same;
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
