/** Small-sample statistics of the keyboard features; NaN when there is too little to say. */

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Standard deviation over mean; NaN under `min` samples. */
export function variation(xs: readonly number[], min: number): number {
  if (xs.length < min) return NaN;
  const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
  const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (xs.length - 1));
  return mean > 0 ? sd / mean : NaN;
}

/**
 * P(a > b) for a drawn from `as` and b from `bs`, ties counting half (the Mann-Whitney U over
 * the product of the sizes): 0.5 when both come from one distribution whatever its shape, so
 * gaps drawn independently of the maze sit at 0.5. NaN under `min` samples on either side.
 */
export function rankContrast(as: readonly number[], bs: readonly number[], min: number): number {
  if (as.length < min || bs.length < min) return NaN;
  const all = [...as.map((v) => ({ v, a: true })), ...bs.map((v) => ({ v, a: false }))].sort((x, y) => x.v - y.v);
  let rankSumOfA = 0;
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j < all.length && all[j]!.v === all[i]!.v) j++;
    const rank = (i + j + 1) / 2; // mean of the 1-based ranks i+1..j shared by a run of ties
    for (let k = i; k < j; k++) if (all[k]!.a) rankSumOfA += rank;
    i = j;
  }
  return (rankSumOfA - (as.length * (as.length + 1)) / 2) / (as.length * bs.length);
}
