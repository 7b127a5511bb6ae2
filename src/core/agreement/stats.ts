/**
 * Rank statistics for agreement with human labels. Every function returns null (never NaN) when the
 * statistic is undefined, so results serialize to JSON and callers cannot silently average NaNs.
 * Inputs must be finite numbers of equal length (callers filter missing scores first).
 */

type Nums = ArrayLike<number>;

function sameLength(x: Nums, y: ArrayLike<unknown>): void {
  if (x.length !== y.length) throw new RangeError(`length mismatch: ${x.length} vs ${y.length}`);
}

/** Indices sorted by value ascending; ties broken by index so the order is the same on every engine. */
export function argsort(x: Nums): Uint32Array {
  return stableOrder(x, identity(x.length));
}

function identity(n: number): Uint32Array {
  const idx = new Uint32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  return idx;
}

/** Below this many values a comparison sort is cheaper than the radix sort's 65,536-bucket passes. */
const RADIX_MIN = 4096;
/** Which 32-bit half of a Float64 holds its low bits (little-endian on every platform Verity runs on, checked). */
const LO = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 0 : 1;

/**
 * `order` (indices into x) re-sorted stably by x ascending (−0 = +0), in place. Large inputs by an LSD radix sort
 * over the 64-bit order-preserving form of each double (sign bit flipped for positives, all bits for negatives):
 * at most four 16-bit passes, skipping digits every value shares — O(n) instead of a comparison sort's
 * O(n log n) closure calls. Both paths give exactly the order of the comparison (x[a] − x[b], then position).
 */
export function stableOrder(x: Nums, order: Uint32Array): Uint32Array {
  const n = order.length;
  if (n < RADIX_MIN) {
    const rank = new Uint32Array(x.length);
    for (let i = 0; i < n; i++) rank[order[i]!] = i;
    return order.sort((a, b) => x[a]! - x[b]! || rank[a]! - rank[b]!);
  }
  const bits = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) bits[i] = x[i]! + 0; // −0 + 0 = +0
  const u = new Uint32Array(bits.buffer);
  const lo = new Uint32Array(x.length);
  const hi = new Uint32Array(x.length);
  for (let i = 0; i < x.length; i++) {
    let h = u[2 * i + 1 - LO]!;
    let l = u[2 * i + LO]!;
    if (h >>> 31) {
      h = ~h >>> 0;
      l = ~l >>> 0;
    } else h = (h | 0x80000000) >>> 0;
    hi[i] = h;
    lo[i] = l;
  }
  let src: Uint32Array = order;
  let dst: Uint32Array = new Uint32Array(n);
  const count = new Uint32Array(65536);
  for (const [key, shift] of [
    [lo, 0],
    [lo, 16],
    [hi, 0],
    [hi, 16],
  ] as const) {
    count.fill(0);
    for (let i = 0; i < n; i++) count[(key[src[i]!]! >>> shift) & 0xffff]!++;
    if (count[(key[src[0]!]! >>> shift) & 0xffff] === n) continue; // every value shares this digit
    let sum = 0;
    for (let d = 0; d < 65536; d++) {
      const c = count[d]!;
      count[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const k = src[i]!;
      dst[count[(key[k]! >>> shift) & 0xffff]!++] = k;
    }
    [src, dst] = [dst, src];
  }
  if (src !== order) order.set(src);
  return order;
}

/** 1-based ranks, tied values sharing the average of their positions (scipy.stats.rankdata 'average'). */
export function midranks(x: Nums): Float64Array {
  const order = argsort(x);
  const ranks = new Float64Array(x.length);
  for (let i = 0; i < order.length;) {
    let j = i + 1;
    while (j < order.length && x[order[j]!] === x[order[i]!]) j++;
    const r = (i + 1 + j) / 2; // mean of positions i+1..j
    for (let k = i; k < j; k++) ranks[order[k]!] = r;
    i = j;
  }
  return ranks;
}

function isConstant(x: Nums): boolean {
  for (let i = 1; i < x.length; i++) if (x[i] !== x[0]) return false;
  return true;
}

/** Pearson r; null for n < 2 or a constant input (checked exactly, not via a rounded variance). */
export function pearson(x: Nums, y: Nums): number | null {
  sameLength(x, y);
  const n = x.length;
  if (n < 2 || isConstant(x) || isConstant(y)) return null;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i]!;
    my += y[i]!;
  }
  mx /= n;
  my /= n;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i]! - mx;
    const dy = y[i]! - my;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  if (sxx === 0 || syy === 0) return null;
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

/** Spearman ρ: Pearson r of midranks (= scipy.stats.spearmanr). */
export function spearman(x: Nums, y: Nums): number | null {
  sameLength(x, y);
  return pearson(midranks(x), midranks(y));
}

/** Number of pairs within runs of equal values of a sorted sequence: Σ t(t−1)/2. */
function tiedPairs(sorted: Nums): number {
  let total = 0;
  for (let i = 0; i < sorted.length;) {
    let j = i + 1;
    while (j < sorted.length && sorted[j] === sorted[i]) j++;
    total += ((j - i) * (j - i - 1)) / 2;
    i = j;
  }
  return total;
}

/**
 * Kendall τ-b (= scipy.stats.kendalltau, variant 'b'), O(n log n) by Knight's algorithm:
 * sort by (x, y), count joint and x ties, then count discordant pairs as the inversions of y
 * during a bottom-up merge sort; y ties are counted on the merged (sorted) y.
 */
export function kendallTauB(x: Nums, y: Nums): number | null {
  sameLength(x, y);
  const n = x.length;
  if (n < 2) return null;
  // By (x, y, position): stably by y, then stably by x.
  const order = stableOrder(x, stableOrder(y, identity(n)));
  let ys = new Float64Array(n);
  let xtie = 0;
  let ntie = 0;
  for (let i = 0; i < n;) {
    let j = i + 1;
    while (j < n && x[order[j]!] === x[order[i]!]) j++;
    xtie += ((j - i) * (j - i - 1)) / 2;
    for (let k = i; k < j;) {
      let m = k + 1;
      while (m < j && y[order[m]!] === y[order[k]!]) m++;
      ntie += ((m - k) * (m - k - 1)) / 2;
      k = m;
    }
    i = j;
  }
  for (let i = 0; i < n; i++) ys[i] = y[order[i]!]!;
  // Within an x-run y is ascending, so every strict inversion is a pair with x_i < x_j, y_i > y_j.
  let buf = new Float64Array(n);
  let dis = 0;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        if (ys[j]! < ys[i]!) {
          dis += mid - i;
          buf[k++] = ys[j++]!;
        } else buf[k++] = ys[i++]!;
      }
      while (i < mid) buf[k++] = ys[i++]!;
      while (j < hi) buf[k++] = ys[j++]!;
    }
    [ys, buf] = [buf, ys];
  }
  const ytie = tiedPairs(ys);
  const tot = (n * (n - 1)) / 2;
  if (xtie === tot || ytie === tot) return null;
  const tau = (tot - xtie - ytie + ntie - 2 * dis) / Math.sqrt(tot - xtie) / Math.sqrt(tot - ytie);
  return Math.max(-1, Math.min(1, tau));
}

/**
 * ROC-AUC of a score against binary labels: P(score_pos > score_neg) + ½·P(tie), computed from
 * midranks (Mann–Whitney U / PN), which equals sklearn's trapezoidal roc_auc_score. Null with one class.
 */
export function rocAuc(scores: Nums, labels: ArrayLike<boolean>): number | null {
  sameLength(scores, labels);
  const ranks = midranks(scores);
  let pos = 0;
  let rankSum = 0;
  for (let i = 0; i < ranks.length; i++) {
    if (labels[i]) {
      pos++;
      rankSum += ranks[i]!;
    }
  }
  const neg = ranks.length - pos;
  if (pos === 0 || neg === 0) return null;
  return (rankSum - (pos * (pos + 1)) / 2) / (pos * neg);
}

/**
 * ROC-AUC with DeLong's variance, O(n log n): the positives' and the negatives' scores are sorted apart (native
 * typed-array sorts) and merged. The AUC is the same number `rocAuc` gives (both sum the same half-integers
 * exactly before one division). Variance = S10/P + S01/N, where S10 is the sample variance (n − 1) of the
 * positives' placements V10(x) = P(neg < x) + ½·P(neg = x) and S01 that of the negatives' placements
 * V01(y) = P(pos > y) + ½·P(pos = y) (DeLong, DeLong & Clarke-Pearson 1988, Biometrics 44:837–845).
 * Null with one class; variance null with fewer than two of either class.
 */
export function aucWithVariance(scores: Nums, labels: ArrayLike<boolean | number>): { auc: number; variance: number | null } | null {
  const { pos, neg } = sortedByClass(scores, labels);
  return aucOfSorted(pos, neg);
}

/** The positives' and the negatives' scores, each sorted ascending (native typed-array sorts). */
export function sortedByClass(scores: Nums, labels: ArrayLike<boolean | number>): { pos: Float64Array; neg: Float64Array } {
  sameLength(scores, labels);
  let P = 0;
  for (let i = 0; i < labels.length; i++) if (labels[i]) P++;
  const pos = new Float64Array(P);
  const neg = new Float64Array(labels.length - P);
  for (let i = 0, a = 0, b = 0; i < labels.length; i++) labels[i] ? (pos[a++] = scores[i]!) : (neg[b++] = scores[i]!);
  return { pos: pos.sort(), neg: neg.sort() };
}

/** aucWithVariance from sortedByClass's arrays. */
export function aucOfSorted(pos: Float64Array, neg: Float64Array): { auc: number; variance: number | null } | null {
  const P = pos.length;
  const N = neg.length;
  if (P === 0 || N === 0) return null;
  // Placements in units of the other class's count (half-integers, exact).
  const v10 = new Float64Array(P);
  let area = 0;
  for (let i = 0, lo = 0, hi = 0; i < P; i++) {
    const x = pos[i]!;
    while (lo < N && neg[lo]! < x) lo++;
    if (hi < lo) hi = lo;
    while (hi < N && neg[hi]! <= x) hi++;
    v10[i] = lo + 0.5 * (hi - lo);
    area += v10[i]!;
  }
  const auc = area / (P * N);
  if (P < 2 || N < 2) return { auc, variance: null };
  let s10 = 0;
  for (let i = 0; i < P; i++) s10 += (v10[i]! / N - auc) ** 2;
  let s01 = 0;
  for (let j = 0, lo = 0, hi = 0; j < N; j++) {
    const y = neg[j]!;
    while (lo < P && pos[lo]! < y) lo++;
    if (hi < lo) hi = lo;
    while (hi < P && pos[hi]! <= y) hi++;
    s01 += ((P - hi + 0.5 * (hi - lo)) / P - auc) ** 2;
  }
  return { auc, variance: s10 / (P - 1) / P + s01 / (N - 1) / N };
}

/** Linear-interpolation quantile of an ascending array (numpy's default 'linear' method). */
export function quantileSorted(sorted: Nums, q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}
