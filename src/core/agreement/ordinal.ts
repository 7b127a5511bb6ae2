/**
 * Ordinal agreement, the CAP paper's monotonicity protocol: is a metric's score monotone in the ordinal severity of the
 * eight correctness classes?
 */
import { CAP_CLASSES, type CapClass } from '../types.ts';
import { argsort, kendallTauB, rocAuc, spearman } from './stats.ts';

/** Ordinal severity; equivalent and alternative-correct share a level, so there are 7 levels. */
export const SEVERITY: Readonly<Record<CapClass, number>> = {
  exact: 7,
  equivalent: 6,
  'alternative-correct': 6,
  'overinclusive-valid': 5,
  partial: 4,
  'overinclusive-invalid': 2,
  invalid: 1,
  contradictory: 0,
};

/** The hard neighbouring pairs: P(score_a > score_b) + ½·P(tie) over all cross pairs. */
export const HARD_PAIRS = {
  'Eq>Part': ['equivalent', 'partial'],
  'OV>Part': ['overinclusive-valid', 'partial'],
  'OV>OI': ['overinclusive-valid', 'overinclusive-invalid'],
  'Alt>Inv': ['alternative-correct', 'invalid'],
} as const satisfies Record<string, readonly [CapClass, CapClass]>;
export type HardPair = keyof typeof HARD_PAIRS;

export interface ClassStats {
  count: number;
  mean: number | null;
  /** Sample standard deviation (n − 1); null below 2 items. */
  std: number | null;
}

export interface Violation {
  higher: CapClass;
  lower: CapClass;
  meanHigher: number;
  meanLower: number;
}

export interface TaxonomyReport {
  n: number;
  excluded: number;
  spearman: number | null;
  kendall: number | null;
  /** Over pairs with different severity: agree 1, score tie ½, disagree 0. */
  pairwiseAccuracy: number | null;
  /** Number of pairs with different severity (the denominator above). */
  pairs: number;
  classes: Record<CapClass, ClassStats>;
  violations: {
    count: number;
    /** Strictly ordered class pairs with both classes present (at most 27). */
    of: number;
    /**
     * Pairs whose class means are equal: the metric does not order them (exact match gives every class but exact one
     * score). A tie is counted as half a violation in `weighted` = count + ties / 2, the figure metrics are ranked by.
     */
    ties: number;
    weighted: number;
    pairs: Violation[];
    /** The same without the partial / overinclusive-valid pair, which the paper treats apart. */
    excluding_ov_partial: { count: number; of: number };
  };
  hardPairs: Record<HardPair, number | null>;
}

/**
 * Pairwise ranking accuracy: over the pairs of answers of different severity, the share the score orders the right
 * way, a tie counting half; `pairs` is their number. From each row's components (pairComponents), O(n log n + 8n).
 */
export function pairwiseAccuracy(scores: ArrayLike<number>, severity: ArrayLike<number>): { value: number | null; pairs: number } {
  const { agree, pairs } = pairComponents(scores, severity);
  let right = 0;
  let all = 0;
  for (let i = 0; i < agree.length; i++) {
    right += agree[i]!;
    all += pairs[i]!;
  }
  // Each pair is counted once from each of its rows (a sum of halves and whole numbers: exact).
  return { value: all === 0 ? null : right / all, pairs: all / 2 };
}

/**
 * Each row's agreeing pairs (a tie counting half) and its pairs: the other rows of another severity, a higher severity
 * being the one that should score higher. O(n log n + 8n): sweep the scores ascending in tie groups, keeping
 * per-severity counts of the strictly lower scores already seen.
 */
export function pairComponents(scores: ArrayLike<number>, severity: ArrayLike<number>): { agree: Float64Array; pairs: Float64Array } {
  const n = scores.length;
  let levels = 1;
  for (let i = 0; i < n; i++) levels = Math.max(levels, severity[i]! + 1);
  const total = new Float64Array(levels);
  for (let i = 0; i < n; i++) total[severity[i]!] = total[severity[i]!]! + 1;
  const order = argsort(scores);
  const below = new Float64Array(levels);
  const inGroup = new Float64Array(levels);
  const agree = new Float64Array(n);
  const pairs = new Float64Array(n);
  for (let a = 0; a < n;) {
    let b = a;
    while (b < n && scores[order[b]!] === scores[order[a]!]) b++;
    inGroup.fill(0);
    for (let k = a; k < b; k++) inGroup[severity[order[k]!]!] = inGroup[severity[order[k]!]!]! + 1;
    for (let k = a; k < b; k++) {
      const i = order[k]!;
      const s = severity[i]!;
      let right = 0;
      let tied = 0;
      for (let l = 0; l < levels; l++) {
        if (l === s) continue;
        const above = total[l]! - below[l]! - inGroup[l]!;
        right += l < s ? below[l]! : above;
        tied += inGroup[l]!;
      }
      agree[i] = right + tied / 2;
      pairs[i] = n - total[s]!;
    }
    for (let l = 0; l < levels; l++) below[l] = below[l]! + inGroup[l]!;
    a = b;
  }
  return { agree, pairs };
}

export function taxonomyReport(scores: readonly (number | null)[], labels: readonly CapClass[]): TaxonomyReport {
  if (scores.length !== labels.length) throw new RangeError('scores and labels must have the same length');
  const sc: number[] = [];
  const cls: CapClass[] = [];
  labels.forEach((c, i) => {
    if (!(c in SEVERITY)) throw new RangeError(`unknown class at row ${i}: ${String(c)}`);
    const s = scores[i];
    if (s == null || Number.isNaN(s)) return;
    sc.push(s);
    cls.push(c);
  });
  const sev = cls.map((c) => SEVERITY[c]);
  const { value, pairs } = pairwiseAccuracy(sc, sev);

  const classes = {} as Record<CapClass, ClassStats>;
  for (const c of CAP_CLASSES) {
    const xs = sc.filter((_, i) => cls[i] === c);
    const mean = xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
    const std = xs.length > 1 && mean !== null ? Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / (xs.length - 1)) : null;
    classes[c] = { count: xs.length, mean, std };
  }

  // CAP_CLASSES is ordered by non-increasing severity, so i < j means "i should score higher".
  const found: Violation[] = [];
  let of = 0;
  let ofExcl = 0;
  let countExcl = 0;
  let ties = 0;
  for (let i = 0; i < CAP_CLASSES.length; i++) {
    for (let j = i + 1; j < CAP_CLASSES.length; j++) {
      const higher = CAP_CLASSES[i]!;
      const lower = CAP_CLASSES[j]!;
      if (SEVERITY[higher] === SEVERITY[lower]) continue;
      const mh = classes[higher].mean;
      const ml = classes[lower].mean;
      if (mh === null || ml === null) continue;
      const ovPartial = higher === 'overinclusive-valid' && lower === 'partial';
      of++;
      if (!ovPartial) ofExcl++;
      if (mh < ml) {
        found.push({ higher, lower, meanHigher: mh, meanLower: ml });
        if (!ovPartial) countExcl++;
      } else if (mh === ml) ties++;
    }
  }

  const hardPairs = {} as Record<HardPair, number | null>;
  for (const [name, [a, b]] of Object.entries(HARD_PAIRS) as [HardPair, readonly [CapClass, CapClass]][]) {
    const xs: number[] = [];
    const ys: boolean[] = [];
    cls.forEach((c, i) => {
      if (c === a || c === b) {
        xs.push(sc[i]!);
        ys.push(c === a);
      }
    });
    hardPairs[name] = rocAuc(xs, ys); // AUC of a vs b is exactly P(a > b) + ½·P(tie)
  }

  return {
    n: sc.length,
    excluded: scores.length - sc.length,
    spearman: spearman(sc, sev),
    kendall: kendallTauB(sc, sev),
    pairwiseAccuracy: value,
    pairs,
    classes,
    violations: {
      count: found.length,
      of,
      ties,
      weighted: found.length + ties / 2,
      pairs: found,
      excluding_ov_partial: { count: countExcl, of: ofExcl },
    },
    hardPairs,
  };
}
