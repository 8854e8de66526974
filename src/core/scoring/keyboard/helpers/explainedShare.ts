/** Sums and cross products of samples (covariates, then y last), gathered in one pass so that fits on any subset of covariates cost no pass over the samples. */
export interface Moments {
  n: number;
  /** Covariates and y: width = covariates + 1. */
  width: number;
  sums: Float64Array;
  /** Row-major width x width: the sum of each product. */
  products: Float64Array;
}

/** The moments of `rows` (one covariate vector a sample, all of one width) and `ys`. */
export function momentsOf(rows: readonly (readonly number[])[], ys: readonly number[]): Moments {
  const width = (rows[0]?.length ?? 0) + 1;
  const sums = new Float64Array(width);
  const products = new Float64Array(width * width);
  const v = new Float64Array(width);
  rows.forEach((row, t) => {
    for (let j = 0; j < width - 1; j++) v[j] = row[j]!;
    v[width - 1] = ys[t]!;
    for (let i = 0; i < width; i++) {
      sums[i]! += v[i]!;
      for (let j = i; j < width; j++) products[i * width + j]! += v[i]! * v[j]!;
    }
  });
  return { n: ys.length, width, sums, products };
}

/** Ridge added to the normal equations so that collinear covariates still solve (their share is then split). */
const RIDGE = 1e-9;

/** Centred cross product of columns i and j. */
function centred(m: Moments, i: number, j: number): number {
  const [a, b] = i <= j ? [i, j] : [j, i];
  return m.products[a * m.width + b]! - (m.sums[i]! * m.sums[j]!) / m.n;
}

/**
 * How strongly y follows the covariates `cols`: the F statistic of the least-squares fit of y on
 * them and an intercept, a ratio of mean squares, explained over residual. About 1 whatever the
 * shape of y when it is drawn independently of the covariates (F(p, n - p - 1) has mean near 1),
 * large when it follows them; under independence it tightens as n grows, so long solves give
 * clearer evidence than short ones. Covariates constant over the samples are dropped. NaN with
 * fewer than `p + 1 + min` samples or without a covariate left; 0 when every y is equal.
 */
export function fitF(m: Moments, cols: readonly number[], min: number): number {
  const kept = cols.filter((j) => centred(m, j, j) > 1e-9 * (1 + Math.abs(m.products[j * m.width + j]!)));
  const p = kept.length,
    n = m.n,
    y = m.width - 1;
  if (p === 0 || n < p + 1 + min) return NaN;
  const total = centred(m, y, y);
  if (total <= 0) return 0;
  const a = kept.map((i) => kept.map((k) => centred(m, i, k) + (i === k ? RIDGE * n : 0)));
  const b = kept.map((i) => centred(m, i, y));
  const beta = solveSymmetric(a, b);
  const explained = beta.reduce((s, w, i) => s + w * b[i]!, 0);
  const residual = Math.max(total - explained, 1e-12 * total);
  return explained / p / (residual / (n - p - 1));
}

/**
 * fitF as a standard normal deviate (Paulson's approximation of the F distribution with p and
 * n - p - 1 degrees of freedom): about N(0, 1) for y drawn whatever the covariates, so that fits on
 * different numbers of covariates and samples compare. NaN as fitF; -Infinity for a fit with
 * nothing to explain (every y equal).
 */
export function fitZ(m: Moments, cols: readonly number[], min: number): number {
  const f = fitF(m, cols, min);
  if (!Number.isFinite(f)) return f;
  if (f === 0) return -Infinity;
  const p = cols.filter((j) => centred(m, j, j) > 1e-9 * (1 + Math.abs(m.products[j * m.width + j]!))).length;
  const a = 2 / (9 * p),
    b = 2 / (9 * (m.n - p - 1));
  const c = Math.cbrt(f);
  return ((1 - b) * c - (1 - a)) / Math.sqrt(a + b * c * c);
}

/** Solves a x = b for a symmetric positive-definite a, by Gaussian elimination. */
function solveSymmetric(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    for (let r = c + 1; r < n; r++) {
      const f = m[r]![c]! / m[c]![c]!;
      for (let j = c; j <= n; j++) m[r]![j]! -= f * m[c]![j]!;
    }
  }
  const out = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = m[r]![n]!;
    for (let j = r + 1; j < n; j++) s -= m[r]![j]! * out[j]!;
    out[r] = s / m[r]![r]!;
  }
  return out;
}
