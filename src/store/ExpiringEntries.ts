import { LRUCache } from 'lru-cache';

/** What a full map does with a new entry. */
export type WhenFull =
  /** Refuse it (the caller fails closed): a live entry is never dropped before its expiresAt. */
  | { policy: 'refuse'; reclaimIntervalMs: number }
  /** Make room by dropping the least recently used entry, live or not. */
  | { policy: 'evictLeastRecentlyUsed' };

/**
 * A bounded map whose entries each live until their own `expiresAt` (epoch ms, through the whole
 * millisecond it falls in): lru-cache provides the map, the hard bound and the recency order; the
 * expiry is read from the entry itself. (lru-cache's own TTL would keep two more arrays of `max`
 * numbers, 16 MiB for the default million markers, for a time every entry already carries.) When
 * it is full, `whenFull` decides: refuse the insertion (for single-use markers, which must outlive
 * what they guard) or let lru-cache drop its least recently used entry (for counters, which only
 * limit).
 */
export class ExpiringEntries<V extends { expiresAt: number }> {
  readonly #cache: LRUCache<string, V>;
  readonly #max: number;
  readonly #now: () => number;
  readonly #whenFull: WhenFull;
  /** While full, no sweep before this time: refusals stay O(1) under a flood. */
  #nextReclaimAt = 0;

  constructor(opts: {
    /** Most entries held at once, live or awaiting a sweep. */
    max: number;
    /** Clock in epoch ms, the one `expiresAt` is written in. */
    now: () => number;
    whenFull: WhenFull;
  }) {
    if (!Number.isSafeInteger(opts.max) || opts.max < 1) {
      throw new RangeError(`max must be a positive integer, got ${opts.max}`);
    }
    this.#max = opts.max;
    this.#now = opts.now;
    this.#whenFull = opts.whenFull;
    this.#cache = new LRUCache<string, V>({ max: opts.max });
  }

  get size(): number {
    return this.#cache.size;
  }

  /** The live entry under `key`, now the most recently used, or undefined (a stale one is dropped). */
  get(key: string): V | undefined {
    const value = this.#cache.get(key);
    if (value === undefined || !stale(value, this.#now())) return value;
    this.#cache.delete(key);
    return undefined;
  }

  /**
   * Stores `value` under `key`, replacing any entry there (the 'refuse' policy's callers insert
   * only keys `get` just found empty). Returns false only when full of live entries under the
   * 'refuse' policy: the caller fails closed.
   */
  insert(key: string, value: V): boolean {
    if (this.#whenFull.policy === 'refuse' && this.#cache.size >= this.#max && !this.#reclaim(this.#now(), this.#whenFull.reclaimIntervalMs)) {
      return false;
    }
    this.#cache.set(key, value);
    return true;
  }

  clear(): void {
    this.#cache.clear();
    this.#nextReclaimAt = 0;
  }

  /** Drops stale entries if a sweep is due; true when there is room afterwards. */
  #reclaim(now: number, reclaimIntervalMs: number): boolean {
    if (now < this.#nextReclaimAt) return false;
    // Keys first, then deletions: the walk must not run over entries it is removing.
    const expired: string[] = [];
    for (const [key, value] of this.#cache.entries()) if (stale(value, now)) expired.push(key);
    for (const key of expired) this.#cache.delete(key);
    if (this.#cache.size < this.#max) return true;
    // Still full of live entries: nothing can free before the earliest of them expires.
    let earliest = Infinity;
    for (const v of this.#cache.values()) if (v.expiresAt < earliest) earliest = v.expiresAt;
    this.#nextReclaimAt = Math.max(Math.ceil(earliest) + 1, now + reclaimIntervalMs);
    return false;
  }
}

/** Whether an entry is past the millisecond its expiresAt falls in (the clock reads whole ms). */
function stale(value: { expiresAt: number }, now: number): boolean {
  return now > Math.ceil(value.expiresAt);
}
