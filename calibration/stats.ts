import { Rng } from './random.js';

export interface Rate {
  rate: number;
  lo: number;
  hi: number;
  n: number;
}

/** Wilson 95% interval of k successes in n. */
export function wilson(k: number, n: number): Rate {
  if (n === 0) return { rate: NaN, lo: NaN, hi: NaN, n };
  const z = 1.96,
    p = k / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return { rate: p, lo: Math.max(0, c - h), hi: Math.min(1, c + h), n };
}

/** Mean of per-user rates, with a 95% percentile bootstrap over users. */
export function macroRate(perUser: ReadonlyMap<string, boolean[]>, seed = 7, reps = 2000): Rate {
  const rates = [...perUser.values()].map((v) => v.filter(Boolean).length / v.length);
  const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const rng = new Rng(seed);
  const boots = Array.from({ length: reps }, () => mean(rates.map(() => rates[Math.floor(rng.next() * rates.length)]!))).sort(
    (a, b) => a - b,
  );
  return { rate: mean(rates), lo: boots[Math.floor(reps * 0.025)]!, hi: boots[Math.floor(reps * 0.975)]!, n: rates.length };
}

export const pct = (r: Rate) => `${(100 * r.rate).toFixed(2)}% [${(100 * r.lo).toFixed(2)}, ${(100 * r.hi).toFixed(2)}]`;

/** The `ps` quantiles of `xs` (nearest rank). */
export function quantiles(xs: readonly number[], ps: readonly number[]): number[] {
  const s = [...xs].sort((a, b) => a - b);
  return ps.map((p) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN);
}
