/**
 * Holm's step-down correction for a family of tests (every pair of systems under one metric).
 *
 * What: controls the family-wise error rate at α without assuming independence; uniformly more powerful than
 *   Bonferroni. Formula: sort the m p-values ascending p(1) ≤ … ≤ p(m); adjusted p(i) = max_{j ≤ i} min(1,
 *   (m − j + 1)·p(j)). A hypothesis is rejected at α when its adjusted p < α (= the step-down procedure).
 * Ties in p keep input order (the adjusted values are equal anyway). Null p-values (no test possible) are
 *   left out of the family and stay null. Citation: Holm (1979), Scand. J. Statistics 6(2).
 */
export function holm(pValues: readonly (number | null)[]): (number | null)[] {
  const idx = pValues.map((p, i) => ({ p, i })).filter((x): x is { p: number; i: number } => x.p !== null);
  idx.sort((a, b) => a.p - b.p || a.i - b.i);
  const m = idx.length;
  const out: (number | null)[] = pValues.map(() => null);
  let running = 0;
  idx.forEach(({ p, i }, j) => {
    running = Math.max(running, Math.min(1, (m - j) * p));
    out[i] = running;
  });
  return out;
}
