import { type Store, StoreUnavailableError } from '../../store/Store.js';
import type { SitePolicy } from '../sites/SitePolicy.js';

/** Length of one counting window, ms; a client's load is read over the last one to two windows. */
export const POW_WINDOW_MS = 60_000;
/** A failed /verify weighs as much as this many challenges. */
export const FAILURE_WEIGHT = 4;

const counterKey = (binding: string, window: number) => `pow:${binding}:${window}`;

/**
 * The proof-of-work difficulty of a new challenge for `binding` (a client address, see
 * rateLimit.ts), counting this challenge: the policy's difficulty while the client's load stays
 * within `freePerMinute`, then one bit more each time the load doubles, up to `maxDifficulty`.
 * Load is challenges plus FAILURE_WEIGHT per failed /verify, over a sliding minute (this
 * window's count plus the previous window's, weighted by how much of it still overlaps), so it
 * decays back to the floor within two quiet minutes. Counters only shape cost: a store that
 * forgets one (full, or restarted) just lets that client start low again. A store that cannot
 * answer cannot measure the load: the challenge is issued (issuing writes nothing) at
 * `maxDifficulty`, so an outage is no time to stock up cheap challenges.
 */
export async function powDifficultyFor(store: Store, binding: string, pow: SitePolicy['pow'], now: number): Promise<number> {
  if (pow.maxDifficulty <= pow.difficulty) return pow.difficulty;
  const window = Math.floor(now / POW_WINDOW_MS);
  const elapsed = now - window * POW_WINDOW_MS;
  // Both asked at once (one round trip to a remote store), without Promise.all's allocations. The
  // count lives through the next window too, where it is read as the previous one.
  const pending = store.increment(counterKey(binding, window), 2 * POW_WINDOW_MS - elapsed);
  pending.catch(ignore); // awaited below; this only keeps it handled if the read throws first
  try {
    const previous = await store.increment(counterKey(binding, window - 1), POW_WINDOW_MS, 0);
    const current = await pending;
    const load = current + previous * (1 - elapsed / POW_WINDOW_MS);
    return Math.min(pow.maxDifficulty, pow.difficulty + extraBits(load, pow.freePerMinute));
  } catch (e) {
    if (e instanceof StoreUnavailableError) return pow.maxDifficulty;
    throw e;
  }
}

/**
 * Counts a failed /verify of `binding` into its load (nothing when the policy does not adapt).
 * A store that cannot answer loses the count: the verdict stands either way.
 */
export async function notePowFailure(store: Store, binding: string, pow: SitePolicy['pow'], now: number): Promise<void> {
  if (pow.maxDifficulty <= pow.difficulty) return;
  const window = Math.floor(now / POW_WINDOW_MS);
  try {
    await store.increment(counterKey(binding, window), 2 * POW_WINDOW_MS - (now - window * POW_WINDOW_MS), FAILURE_WEIGHT);
  } catch (e) {
    if (!(e instanceof StoreUnavailableError)) throw e;
  }
}

const ignore = () => {};

/** Bits above the floor for a load: 0 up to `free`, then ceil(log2(load / free)). */
export function extraBits(load: number, free: number): number {
  return load <= free ? 0 : Math.ceil(Math.log2(load / free));
}
