import { LRUCache } from 'lru-cache';
import { isStale } from './helpers/isStale.js';

/**
 * A bounded map whose entries each live until their own `expiresAt` (epoch ms, through the whole
 * millisecond it falls in) or until room is needed: lru-cache provides the map, the hard bound and
 * the recency order, and when it is full drops its least recently used entry, live or not (for
 * counters and lists, which only limit; single-use markers are LiveMarkers, never dropped). The
 * expiry is read from the entry itself: lru-cache's own TTL would keep two more arrays of `max`
 * numbers for a time every entry already carries.
 */
export class ExpiringEntries<V extends { expiresAt: number }> {
  readonly #cache: LRUCache<string, V>;
  readonly #now: () => number;

  constructor(opts: {
    /** Most entries held at once; a new one beyond drops the least recently used. */
    max: number;
    /** Clock in epoch ms, the one `expiresAt` is written in. */
    now: () => number;
  }) {
    if (!Number.isSafeInteger(opts.max) || opts.max < 1) {
      throw new RangeError(`max must be a positive integer, got ${opts.max}`);
    }
    this.#now = opts.now;
    this.#cache = new LRUCache<string, V>({ max: opts.max });
  }

  get size(): number {
    return this.#cache.size;
  }

  /** The live entry under `key`, now the most recently used, or undefined (a stale one is dropped). */
  get(key: string): V | undefined {
    const value = this.#cache.get(key);
    if (value === undefined || !isStale(value.expiresAt, this.#now())) return value;
    this.#cache.delete(key);
    return undefined;
  }

  /** Stores `value` under `key`, replacing any entry there; when full, drops the least recently used. */
  insert(key: string, value: V): void {
    this.#cache.set(key, value);
  }

  clear(): void {
    this.#cache.clear();
  }
}
