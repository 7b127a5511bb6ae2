/**
 * L2-regularized logistic regression trained by full-batch L-BFGS, for dense or sparse rows.
 * Full-batch and a fixed iteration order make training deterministic across runs and engines
 * (no shuffling, no RNG). Minimizes
 *   (1/W) Σ cᵢ·logloss(yᵢ, σ(w·xᵢ + b)) + (l2/2)·‖w‖²   (the bias is not penalized),
 * i.e. sklearn's LogisticRegression with C = 1/(W·l2).
 */
import { exp } from '../util/fmath.ts';

export interface SparseRow {
  indices: ArrayLike<number>;
  values: ArrayLike<number>;
}
export type FeatureRow = ArrayLike<number> | SparseRow;

export interface LogisticOptions {
  /** L2 strength (default 1e-3). */
  l2?: number;
  /** Maximum L-BFGS iterations (default 500). */
  maxIter?: number;
  /** Stop when the largest gradient component is below this (default 1e-6). */
  tol?: number;
  /** Number of features; required only when sparse rows do not reveal it (default: max index + 1). */
  dimension?: number;
  /** Per-row weights cᵢ, e.g. for class balancing (default 1). */
  sampleWeights?: ArrayLike<number>;
  /** L-BFGS history length (default 10). */
  memory?: number;
}

export interface LogisticModel {
  weights: number[];
  bias: number;
  iterations: number;
  /** Gradient reached `tol`; false after maxIter or a stall at double precision (tol too small). */
  converged: boolean;
  /** Final regularized objective. */
  loss: number;
}

const isSparse = (r: FeatureRow): r is SparseRow => (r as SparseRow).indices !== undefined;

/** Rows packed once as CSR so dense and sparse inputs share one fast inner loop. */
interface Csr {
  ptr: Int32Array;
  col: Int32Array;
  val: Float64Array;
  dim: number;
}

function toCsr(rows: readonly FeatureRow[], dimension?: number): Csr {
  let nnz = 0;
  for (const r of rows) nnz += isSparse(r) ? r.indices.length : r.length;
  const ptr = new Int32Array(rows.length + 1);
  const col = new Int32Array(nnz);
  const val = new Float64Array(nnz);
  let k = 0;
  let dim = 0;
  rows.forEach((r, i) => {
    const m = isSparse(r) ? r.indices.length : r.length;
    if (isSparse(r) && r.values.length !== m) throw new RangeError(`row ${i}: indices/values length mismatch`);
    for (let j = 0; j < m; j++) {
      const c = isSparse(r) ? r.indices[j]! : j;
      const v = isSparse(r) ? r.values[j]! : r[j]!;
      if (!Number.isInteger(c) || c < 0) throw new RangeError(`row ${i}: bad feature index ${c}`);
      if (!Number.isFinite(v)) throw new RangeError(`row ${i}: non-finite feature value`);
      if (v === 0) continue;
      col[k] = c;
      val[k++] = v;
      if (c >= dim) dim = c + 1;
    }
    ptr[i + 1] = k;
  });
  if (dimension !== undefined) {
    if (dimension < dim) throw new RangeError(`dimension ${dimension} < largest feature index + 1 (${dim})`);
    dim = dimension;
  } else if (rows.length && !isSparse(rows[0]!)) dim = Math.max(dim, rows[0]!.length);
  return { ptr, col: col.subarray(0, k), val: val.subarray(0, k), dim };
}

/** log(1 + eˣ) without overflow. */
const softplus = (x: number): number => (x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x)));
/** σ(z), computed without overflow for large |z|; fmath's exp gives the same bits in every engine (app = CLI). */
export const sigmoid = (z: number): number => (z >= 0 ? 1 / (1 + exp(-z)) : exp(z) / (1 + exp(z)));

const dot = (a: Float64Array, b: Float64Array): number => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
};

export function trainLogistic(rows: readonly FeatureRow[], labels: ArrayLike<boolean | number>, opts: LogisticOptions = {}): LogisticModel {
  if (rows.length !== labels.length) throw new RangeError('rows and labels must have the same length');
  if (rows.length === 0) throw new RangeError('no training rows');
  const l2 = opts.l2 ?? 1e-3;
  const maxIter = opts.maxIter ?? 500;
  const tol = opts.tol ?? 1e-6;
  const mem = opts.memory ?? 10;
  const X = toCsr(rows, opts.dimension);
  const n = rows.length;
  const d = X.dim;
  const y = Float64Array.from({ length: n }, (_, i) => (labels[i] ? 1 : 0));
  const c = Float64Array.from({ length: n }, (_, i) => opts.sampleWeights?.[i] ?? 1);
  const W = c.reduce((a, b) => a + b, 0);
  if (!(W > 0)) throw new RangeError('sample weights must sum to a positive number');

  // θ = [w₀ … w_{d−1}, b]
  const evaluate = (theta: Float64Array, grad: Float64Array): number => {
    grad.fill(0);
    const b = theta[d]!;
    let loss = 0;
    for (let i = 0; i < n; i++) {
      let z = b;
      for (let k = X.ptr[i]!; k < X.ptr[i + 1]!; k++) z += theta[X.col[k]!]! * X.val[k]!;
      loss += c[i]! * (y[i] ? softplus(-z) : softplus(z));
      const r = (c[i]! * (sigmoid(z) - y[i]!)) / W;
      for (let k = X.ptr[i]!; k < X.ptr[i + 1]!; k++) grad[X.col[k]!] = grad[X.col[k]!]! + r * X.val[k]!;
      grad[d] = grad[d]! + r;
    }
    loss /= W;
    for (let j = 0; j < d; j++) {
      loss += 0.5 * l2 * theta[j]! ** 2;
      grad[j] = grad[j]! + l2 * theta[j]!;
    }
    return loss;
  };
  const gnorm = (g: Float64Array) => g.reduce((m, v) => Math.max(m, Math.abs(v)), 0);

  let theta = new Float64Array(d + 1);
  let grad = new Float64Array(d + 1);
  let f = evaluate(theta, grad);
  const S: Float64Array[] = [];
  const Y: Float64Array[] = [];
  const dir = new Float64Array(d + 1);
  const alphas = new Float64Array(mem);
  let iter = 0;
  let converged = gnorm(grad) <= tol;
  while (!converged && iter < maxIter) {
    iter++;
    // Two-loop recursion: dir = −H·g.
    for (let j = 0; j <= d; j++) dir[j] = -grad[j]!;
    for (let m = S.length - 1; m >= 0; m--) {
      const a = dot(S[m]!, dir) / dot(Y[m]!, S[m]!);
      alphas[m] = a;
      for (let j = 0; j <= d; j++) dir[j] = dir[j]! - a * Y[m]![j]!;
    }
    if (S.length) {
      const last = S.length - 1;
      const gamma = dot(S[last]!, Y[last]!) / dot(Y[last]!, Y[last]!);
      for (let j = 0; j <= d; j++) dir[j] = dir[j]! * gamma;
    }
    for (let m = 0; m < S.length; m++) {
      const beta = dot(Y[m]!, dir) / dot(Y[m]!, S[m]!);
      for (let j = 0; j <= d; j++) dir[j] = dir[j]! + S[m]![j]! * (alphas[m]! - beta);
    }
    let slope = dot(grad, dir);
    if (!(slope < 0)) {
      // Not a descent direction (numerical trouble): restart from steepest descent.
      S.length = Y.length = 0;
      for (let j = 0; j <= d; j++) dir[j] = -grad[j]!;
      slope = dot(grad, dir);
    }
    // Backtracking Armijo line search; the first step is scaled since −g has no natural length.
    let step = S.length ? 1 : Math.min(1, 1 / Math.sqrt(-slope));
    const next = new Float64Array(d + 1);
    const nextGrad = new Float64Array(d + 1);
    let fNext = Infinity;
    let ok = false;
    for (let tries = 0; tries < 50 && !ok; tries++) {
      for (let j = 0; j <= d; j++) next[j] = theta[j]! + step * dir[j]!;
      fNext = evaluate(next, nextGrad);
      ok = fNext <= f + 1e-4 * step * slope;
      if (!ok) step /= 2;
    }
    if (!ok) break; // no decrease representable in doubles: as close as we can get
    const s = next.map((v, j) => v - theta[j]!);
    const yv = nextGrad.map((v, j) => v - grad[j]!);
    // Keep the pair only with safely positive curvature, else the inverse-Hessian estimate blows up.
    if (dot(s, yv) > 1e-12 * dot(yv, yv)) {
      S.push(s);
      Y.push(yv);
      if (S.length > mem) {
        S.shift();
        Y.shift();
      }
    }
    // Stalled: the step no longer moves θ (relative to its size), so the gradient cannot shrink further.
    const moved = s.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    const size = next.reduce((m, v) => Math.max(m, Math.abs(v)), 1);
    theta = next;
    grad = nextGrad;
    f = fNext;
    converged = gnorm(grad) <= tol;
    if (!converged && moved <= 1e-15 * size) break;
  }
  return { weights: Array.from(theta.subarray(0, d)), bias: theta[d]!, iterations: iter, converged, loss: f };
}

/** w·x + b; sparse indices beyond the model's dimension are ignored (unseen features). */
export function logisticMargin(model: Pick<LogisticModel, 'weights' | 'bias'>, row: FeatureRow): number {
  let z = model.bias;
  if (isSparse(row)) {
    for (let k = 0; k < row.indices.length; k++) z += (model.weights[row.indices[k]!] ?? 0) * row.values[k]!;
  } else {
    if (row.length !== model.weights.length) throw new RangeError(`expected ${model.weights.length} features, got ${row.length}`);
    for (let j = 0; j < row.length; j++) z += model.weights[j]! * row[j]!;
  }
  return z;
}

export function predictProba(model: Pick<LogisticModel, 'weights' | 'bias'>, row: FeatureRow): number {
  return sigmoid(logisticMargin(model, row));
}
