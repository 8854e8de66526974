import type { Rng } from '../random.js';

/**
 * Runs `fn` with Math.random drawn from `rng`, so third-party movers (which call Math.random)
 * give the same traces on every run. Their generation is synchronous, even where they return
 * a promise, so the swap covers it.
 */
export function withSeededRandom<T>(rng: Rng, fn: () => T): T {
  const original = Math.random;
  Math.random = () => rng.next();
  try {
    return fn();
  } finally {
    Math.random = original;
  }
}
