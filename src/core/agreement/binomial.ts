/**
 * Seeded binomial and multinomial draws, for bootstraps that resample counts instead of rows.
 *
 * What: Binomial(n, p) from a uniform generator on [0, 1) (mulberry32 in Verity), exact in distribution:
 *   - n·min(p, 1−p) < 10: inversion by sequential search from 0 (O(n·p) steps, at most ~10 on average);
 *   - otherwise: BTRD, Hörmann's transformed rejection with decomposition (O(1) expected, ~1.2 uniforms).
 *   p > ½ draws n − Binomial(n, 1 − p). Multinomial(n; c₁…c_K) by sequential conditional binomials:
 *   k_i ~ Binomial(n − Σ_{j<i} k_j, c_i / Σ_{j≥i} c_j).
 * Why hand-written: the one well-kept npm sampler that takes a custom generator (@stdlib/random-base-binomial)
 *   switches to a sum of n Bernoulli draws below n·p = 10, which is O(n) — a million rows with a rare cell would
 *   cost a million uniforms per draw; it also pulls in ~220 packages.
 * Deterministic: the same generator state gives the same draws on every engine (only +, ×, /, log, floor).
 * Citation: W. Hörmann (1993), "The generation of binomial random variates", J. Statist. Comput. Simul. 46:101–110;
 *   inversion as in Kachitvichyanukul & Schmeiser (1988), Comm. ACM 31(2):216–222.
 */

export type Uniform = () => number;

/** fc(k) = ln k! − (k + ½)·ln(k + 1) + (k + 1) − ½·ln 2π, the Stirling remainder, tabulated below 10. */
const FC = [
  0.08106146679532726, 0.04134069595540929, 0.02767792568499834, 0.02079067210376509, 0.01664469118982119, 0.01387612882307075,
  0.01189670994589177, 0.01041126526197209, 0.009255462182712733, 0.008330563433362871,
];
function fc(k: number): number {
  if (k < 10) return FC[k]!;
  const r = 1 / (k + 1);
  const r2 = r * r;
  return (1 / 12 - (1 / 360 - r2 / 1260) * r2) * r;
}

/** Inversion for a small mean (n·p < 10, p ≤ ½); restarts in the (≤1e-13) tail past mean + 10 sd, as numpy does. */
function inversion(rng: Uniform, n: number, p: number): number {
  const q = 1 - p;
  const s = p / q;
  const a = (n + 1) * s;
  const q0 = Math.exp(n * Math.log1p(-p));
  const bound = Math.min(n, Math.floor(n * p + 10 * Math.sqrt(n * p * q + 1)));
  for (;;) {
    let r = q0;
    let u = rng();
    let x = 0;
    while (u > r) {
      u -= r;
      x++;
      if (x > bound) break;
      r *= a / x - s;
    }
    if (x <= bound) return x;
  }
}

/** BTRD (Hörmann 1993, steps 0–3.4) for p ≤ ½ and n·p ≥ 10. */
function btrd(rng: Uniform, n: number, p: number): number {
  const q = 1 - p;
  const m = Math.floor((n + 1) * p);
  const r = p / q;
  const nr = (n + 1) * r;
  const npq = n * p * q;
  const spq = Math.sqrt(npq);
  const b = 1.15 + 2.53 * spq;
  const a = -0.0873 + 0.0248 * b + 0.01 * p;
  const c = n * p + 0.5;
  const alpha = (2.83 + 5.1 / b) * spq;
  const vr = 0.92 - 4.2 / b;
  const urvr = 0.86 * vr;
  const nm = n - m + 1;
  const h = (m + 0.5) * Math.log((m + 1) / (r * nm)) + fc(m) + fc(n - m);
  for (;;) {
    let v = rng();
    let u: number;
    if (v <= urvr) {
      // The triangle: accepted at once (~86% of draws).
      u = v / vr - 0.43;
      return Math.floor(((2 * a) / (0.5 - Math.abs(u)) + b) * u + c);
    }
    if (v >= vr) u = rng() - 0.5;
    else {
      u = v / vr - 0.93;
      u = Math.sign(u) * 0.5 - u;
      v = rng() * vr;
    }
    const us = 0.5 - Math.abs(u);
    if (us <= 0) continue;
    const k = Math.floor(((2 * a) / us + b) * u + c);
    if (!(k >= 0 && k <= n)) continue;
    v = (v * alpha) / (a / (us * us) + b);
    const km = Math.abs(k - m);
    if (km <= 15) {
      // Near the mode: the pmf ratio f(k)/f(m) by recursion.
      let f = 1;
      if (m < k) for (let i = m + 1; i <= k; i++) f *= nr / i - r;
      else if (m > k) for (let i = k + 1; i <= m; i++) v *= nr / i - r;
      if (v <= f) return k;
      continue;
    }
    // Squeeze, then the exact log-pmf ratio with Stirling remainders.
    v = Math.log(v);
    const rho = (km / npq) * (((km / 3 + 0.625) * km + 1 / 6) / npq + 0.5);
    const t = (-km * km) / (2 * npq);
    if (v < t - rho) return k;
    if (v > t + rho) continue;
    const nk = n - k + 1;
    if (v <= h + (n + 1) * Math.log(nm / nk) + (k + 0.5) * Math.log((nk * r) / (k + 1)) - fc(k) - fc(n - k)) return k;
  }
}

/** One Binomial(n, p) draw; n a whole number ≥ 0, p in [0, 1]. */
export function binomial(rng: Uniform, n: number, p: number): number {
  if (!(Number.isInteger(n) && n >= 0)) throw new RangeError(`binomial n must be a whole number ≥ 0, got ${n}`);
  if (!(p >= 0 && p <= 1)) throw new RangeError(`binomial p must be in [0, 1], got ${p}`);
  if (n === 0 || p === 0) return 0;
  if (p === 1) return n;
  if (p > 0.5) return n - binomial(rng, n, 1 - p);
  return n * p < 10 ? inversion(rng, n, p) : btrd(rng, n, p);
}

/**
 * One Multinomial(n; counts/Σcounts) draw into `out` (same length as `counts`), by sequential conditional
 * binomials; cells with a zero count stay 0. The counts are whole numbers, so the remaining mass is exact.
 */
export function multinomial(rng: Uniform, n: number, counts: ArrayLike<number>, out: { [i: number]: number; length: number }): void {
  let mass = 0;
  for (let i = 0; i < counts.length; i++) mass += counts[i]!;
  if (mass === 0 && n > 0) throw new RangeError('multinomial needs a cell with a positive count');
  let left = n;
  for (let i = 0; i < counts.length; i++) {
    const c = counts[i]!;
    if (left === 0 || c === 0) {
      out[i] = 0;
    } else if (c >= mass) {
      out[i] = left;
      left = 0;
    } else {
      const k = binomial(rng, left, c / mass);
      out[i] = k;
      left -= k;
    }
    mass -= c;
  }
}
