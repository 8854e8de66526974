/** Small-sample statistics of the keyboard features; NaN when there is too little to say. */

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = Float64Array.from(xs).sort();
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Quartile coefficient of dispersion, (Q3 - Q1) / (Q3 + Q1): a spread that one long pause or
 * one key kept down does not swamp; NaN under `min` samples.
 */
export function dispersion(xs: readonly number[], min: number): number {
  if (xs.length < min) return NaN;
  const s = Float64Array.from(xs).sort();
  const at = (p: number) => {
    const i = (s.length - 1) * p,
      lo = Math.floor(i);
    return s[lo]! + (s[Math.min(lo + 1, s.length - 1)]! - s[lo]!) * (i - lo);
  };
  const q1 = at(0.25),
    q3 = at(0.75);
  return q1 + q3 > 0 ? (q3 - q1) / (q3 + q1) : NaN;
}

/**
 * P(a > b) for a drawn from `as` and b from `bs`, ties counting half (the Mann-Whitney U over
 * the product of the sizes): 0.5 when both come from one distribution whatever its shape, so
 * gaps drawn independently of the maze sit at 0.5. NaN under `min` samples on either side.
 */
export function rankContrast(as: readonly number[], bs: readonly number[], min: number): number {
  if (as.length < min || bs.length < min) return NaN;
  const a = Float64Array.from(as).sort();
  const b = Float64Array.from(bs).sort();
  // For each a, the bs below it and the bs equal to it, walking both sorted lists once.
  let wins = 0;
  let below = 0;
  let upTo = 0;
  for (const v of a) {
    while (below < b.length && b[below]! < v) below++;
    upTo = Math.max(upTo, below);
    while (upTo < b.length && b[upTo]! === v) upTo++;
    wins += below + (upTo - below) / 2;
  }
  return wins / (a.length * b.length);
}

/**
 * Pearson correlation of paired samples: NaN under `min` pairs or for constant `xs` (nothing to
 * relate to), 0 for constant `ys` (they follow nothing).
 */
export function correlation(xs: readonly number[], ys: readonly number[], min: number): number {
  const n = xs.length;
  if (n < min) return NaN;
  if (ys.every((y) => y === ys[0])) return xs.every((x) => x === xs[0]) ? NaN : 0;
  const mx = xs.reduce((a, b) => a + b, 0) / n,
    my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0,
    sxx = 0,
    syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = xs[i]! - mx,
      dy = ys[i]! - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : NaN;
}

/**
 * Share of the variance of the samples explained by their group, corrected for chance (epsilon
 * squared: (between - (groups - 1) * within mean square) / total): about 0 when the groups are
 * drawn from one distribution whatever its shape, 1 when each group is a constant of its own.
 * NaN under two groups or with fewer than `groups + min` samples; 0 when every sample is equal.
 */
export function groupShare(groups: readonly (readonly number[])[], min: number): number {
  const kept = groups.filter((g) => g.length > 0);
  const n = kept.reduce((s, g) => s + g.length, 0);
  if (kept.length < 2 || n < kept.length + min) return NaN;
  const mean = kept.reduce((s, g) => s + g.reduce((a, b) => a + b, 0), 0) / n;
  let total = 0,
    within = 0;
  for (const g of kept) {
    const m = g.reduce((a, b) => a + b, 0) / g.length;
    for (const v of g) {
      total += (v - mean) ** 2;
      within += (v - m) ** 2;
    }
  }
  if (total === 0) return 0;
  const between = total - within;
  return (between - ((kept.length - 1) * within) / (n - kept.length)) / total;
}
