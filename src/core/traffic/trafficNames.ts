/**
 * The names of the dashboard's counters. Every name comes from a closed set (routes, error and
 * reason codes, input types, bucket numbers), so no request can add a name of its own.
 */

/** Scores are counted in SCORE_BUCKETS buckets of equal width over [0, 1] (1 falls in the last). */
export const SCORE_BUCKETS = 10;

/**
 * Upper bounds of the latency buckets, ms: fixed and log-scale (a factor of sqrt 2 apart, 0.25 ms
 * to about 11.6 s; slower answers fall in one more bucket), so every node and thread counts in the
 * same buckets and a percentile read from their sum is off by at most that factor.
 */
export const LATENCY_BOUNDS_MS: readonly number[] = Array.from({ length: 32 }, (_, i) => 0.25 * 2 ** (i / 2));

/** The bucket of a latency: the first whose bound holds it, or the one past the last bound. */
export function latencyBucket(ms: number): number {
  let i = 0;
  while (i < LATENCY_BOUNDS_MS.length && ms > LATENCY_BOUNDS_MS[i]!) i++;
  return i;
}

export function scoreBucket(score: number): number {
  return Math.min(SCORE_BUCKETS - 1, Math.max(0, Math.floor(score * SCORE_BUCKETS)));
}

/** The counters, by what they count. */
export const COUNTER = {
  challenge: 'challenge',
  /** A /verify outcome: `ok` or its error code. */
  verify: (outcome: string) => `verify:${outcome}`,
  score: (mode: 'enforce' | 'shadow', bucket: number) => `score:${mode}:${bucket}`,
  reason: (code: string) => `reason:${code}`,
  input: (type: string) => `input:${type}`,
  /** A /siteverify outcome: `ok` or its error code. */
  siteverify: (outcome: string) => `siteverify:${outcome}`,
  /** A request refused by the rate limit of `bucket` (verify, challenge, probe). */
  limited: (bucket: string) => `limited:${bucket}`,
  /** A client's first refusal by the rate limit of `bucket` in the limit's window: a client limited. */
  limitedClients: (bucket: string) => `limited_clients:${bucket}`,
  pow: (bits: number) => `pow:${bits}`,
  latency: (route: string, bucket: number) => `latency:${route}:${bucket}`,
} as const;
