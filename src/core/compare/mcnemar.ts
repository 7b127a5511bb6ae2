/**
 * McNemar's exact test for two systems' binary decisions on the same questions.
 *
 * What: of the questions both systems decided, b = A correct & B incorrect, c = A incorrect & B correct. Under
 *   H0 (equal accuracy) each discordant question is a fair coin, so b ~ Binomial(b + c, ½).
 * Formula: two-sided p = min(1, 2 · P(X ≤ min(b, c))), X ~ Bin(b + c, ½) — the exact binomial test, equal to
 *   scipy.stats.binomtest(b, b + c, 0.5).pvalue (for p = ½ the "as or less likely" outcomes are the two tails);
 *   p = 1 when b + c = 0.
 * Numerics: the tail is summed from its largest term down, in log space for the first term, so it stays
 *   accurate for millions of discordant pairs (terms below 1e-300 of the sum stop the loop).
 * Limits: only the discordant questions carry information; the test says nothing about questions both got
 *   right or both got wrong. Citation: McNemar (1947), Psychometrika 12(2).
 */

export interface McNemar {
  /** A correct, B incorrect. */
  b: number;
  /** A incorrect, B correct. */
  c: number;
  /** Questions both systems decided. */
  n: number;
  p: number;
}

/** log C(n, k) by summing logs of the k smaller factors (exact enough; O(min(k, n−k))). */
function logChoose(n: number, k: number): number {
  k = Math.min(k, n - k);
  let s = 0;
  for (let j = 1; j <= k; j++) s += Math.log((n - k + j) / j);
  return s;
}

/** P(X ≤ k) for X ~ Binomial(n, ½), k ≤ n/2. */
export function binomialLowerTailHalf(k: number, n: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  let term = Math.exp(logChoose(n, k) - n * Math.LN2);
  let sum = 0;
  for (let i = k; i >= 0; i--) {
    sum += term;
    if (term < sum * 1e-17) break;
    term *= i / (n - i + 1); // pmf(i−1) = pmf(i) · i / (n − i + 1)
  }
  return Math.min(1, sum);
}

export function mcnemarExact(b: number, c: number, n = b + c): McNemar {
  const m = b + c;
  const p = m === 0 || b === c ? 1 : Math.min(1, 2 * binomialLowerTailHalf(Math.min(b, c), m));
  return { b, c, n, p };
}

/** McNemar on two decision vectors (1 correct, 0 incorrect, −1 none); questions either left undecided are skipped. */
export function mcnemarDecisions(a: ArrayLike<number>, bDec: ArrayLike<number>): McNemar {
  if (a.length !== bDec.length) throw new RangeError(`length mismatch: ${a.length} vs ${bDec.length}`);
  let b = 0;
  let c = 0;
  let n = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = bDec[i]!;
    if (x < 0 || y < 0) continue;
    n++;
    if (x > y) b++;
    else if (y > x) c++;
  }
  return mcnemarExact(b, c, n);
}
