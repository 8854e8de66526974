/** Ridge added to the normal equations so that collinear covariates still solve (their share is then split). */
const RIDGE = 1e-9;

/**
 * How strongly `ys` follow `rows` (one covariate vector per sample): the F statistic of the
 * least-squares fit of ys on the covariates and an intercept, as a ratio of mean squares, explained
 * over residual. About 1 whatever the shape of ys when they are drawn independently of the
 * covariates (F(p, n - p - 1) has mean near 1), large when they follow them; its distribution
 * under independence tightens as n grows, so long solves give clearer evidence than short ones.
 * Covariates constant over the samples are dropped. NaN with fewer than `p + min` samples, or
 * without any covariate left; 0 when every y is equal (nothing follows anything).
 */
export function explainedShareF(rows: readonly (readonly number[])[], ys: readonly number[], min: number): number {
  const n = ys.length;
  const width = rows[0]?.length ?? 0;
  const kept = Array.from({ length: width }, (_, j) => j).filter((j) => rows.some((r) => r[j] !== rows[0]![j]));
  const p = kept.length;
  if (p === 0 || n < p + 1 + min) return NaN;
  const meanY = ys.reduce((a, b) => a + b, 0) / n;
  const total = ys.reduce((s, y) => s + (y - meanY) ** 2, 0);
  if (total === 0) return 0;
  // Centred covariates: the intercept is then the mean and drops out of the normal equations.
  const means = kept.map((j) => rows.reduce((s, r) => s + r[j]!, 0) / n);
  const x = rows.map((r) => kept.map((j, k) => r[j]! - means[k]!));
  const a = Array.from({ length: p }, (_, i) => Array.from({ length: p }, (_, k) => x.reduce((s, r) => s + r[i]! * r[k]!, 0) + (i === k ? RIDGE * n : 0)));
  const b = Array.from({ length: p }, (_, i) => x.reduce((s, r, t) => s + r[i]! * (ys[t]! - meanY), 0));
  const beta = solveSymmetric(a, b);
  const explained = beta.reduce((s, w, i) => s + w * b[i]!, 0);
  const residual = Math.max(total - explained, 1e-12 * total);
  return explained / p / (residual / (n - p - 1));
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

/**
 * The F of explainedShareF(rows, ys) as a standard normal deviate (Paulson's approximation of the
 * F distribution with p and n - p - 1 degrees of freedom): about N(0, 1) for ys drawn whatever the
 * covariates, so that fits on different numbers of covariates and samples compare. NaN as
 * explainedShareF; -Infinity for a fit with nothing to explain (every y equal).
 */
export function explainedShareZ(rows: readonly (readonly number[])[], ys: readonly number[], min: number): number {
  const f = explainedShareF(rows, ys, min);
  if (!Number.isFinite(f)) return f;
  const width = rows[0]?.length ?? 0;
  const p = Array.from({ length: width }, (_, j) => j).filter((j) => rows.some((r) => r[j] !== rows[0]![j])).length;
  const a = 2 / (9 * p), b = 2 / (9 * (ys.length - p - 1));
  const c = Math.cbrt(f);
  return f === 0 ? -Infinity : ((1 - b) * c - (1 - a)) / Math.sqrt(a + b * c * c);
}
