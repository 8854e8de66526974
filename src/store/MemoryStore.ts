import type { ConsumeResult, Lifetime, Store, StoreHealth } from './Store.js';
import { ExpiringEntries } from './ExpiringEntries.js';
import { LiveMarkers } from './LiveMarkers.js';

/** Default capacity of the embedded store: consumed markers and counters. */
export const DEFAULT_MAX_MARKERS = 1_000_000;
export const DEFAULT_MAX_COUNTERS = 200_000;

export interface MemoryStoreOptions {
  /**
   * Most consumed markers held at once (challenge ids, probe tickets, probe arm attempts, token
   * ids). Each marker lives exactly until the expiry of the thing it guards and is never evicted
   * before; when all slots hold live markers, consume answers 'full' and the caller refuses the work.
   * Size it above the number of single-use things that can be redeemed within one lifetime.
   */
  maxMarkers: number;
  /**
   * Most counters held at once (rate limits). Each lives its own window; when all slots are
   * taken, a new counter evicts the least recently used one (an idle binding's count starts over),
   * so a flood of new keys can weaken limits but never make them refuse everyone.
   */
  maxCounters: number;
  /**
   * Most recent-item lists held at once (duplicate-trace fingerprints). When all slots are taken,
   * a new list evicts the least recently used one. Default 20,000.
   */
  maxLists?: number;
  /** Clock in epoch ms; tests inject one. Default Date.now. */
  now?: () => number;
  /**
   * While the markers are full of live entries, the least time between two sweeps for expired
   * ones (each sweep walks every entry); refusals in between cost O(1). Default 1000 ms.
   */
  reclaimIntervalMs?: number;
}

interface Counter {
  expiresAt: number;
  count: number;
}

interface RecentList {
  expiresAt: number;
  items: Uint8Array[];
}

/**
 * The embedded single-process Store: markers in LiveMarkers, counters and lists on lru-cache
 * (ExpiringEntries). Its memory begins when it is created, so anything issued before (by an
 * earlier process with the same keys) is refused as `used`.
 */
export class MemoryStore implements Store {
  readonly #markers: LiveMarkers;
  readonly #counters: ExpiringEntries<Counter>;
  readonly #lists: ExpiringEntries<RecentList>;
  readonly #now: () => number;
  readonly #since: number;

  constructor(opts: MemoryStoreOptions) {
    this.#now = opts.now ?? Date.now;
    this.#since = this.#now();
    this.#markers = new LiveMarkers({ max: opts.maxMarkers, now: this.#now, reclaimIntervalMs: opts.reclaimIntervalMs ?? 1000 });
    this.#counters = new ExpiringEntries({ max: opts.maxCounters, now: this.#now });
    this.#lists = new ExpiringEntries({ max: opts.maxLists ?? 20_000, now: this.#now });
  }

  async consume(key: string, life: Lifetime, tag?: string): Promise<ConsumeResult> {
    if (life.issuedAt < this.#since) return 'used';
    const marker = this.#markers.get(key);
    if (marker !== undefined) return tag !== undefined && tag !== '' && marker.tag === tag ? 'again' : 'used';
    return this.#markers.insert(key, life.expiresAt, tag === '' ? undefined : tag) ? 'fresh' : 'full';
  }

  async increment(key: string, windowMs: number, by = 1): Promise<number> {
    const counter = this.#counters.get(key);
    if (counter !== undefined) return (counter.count += by);
    if (by === 0) return 0;
    this.#counters.insert(key, { expiresAt: this.#now() + windowMs, count: by });
    return by;
  }

  async append(key: string, item: Uint8Array, ttlMs: number, cap: number): Promise<void> {
    const items = this.#lists.get(key)?.items ?? [];
    items.push(item.slice());
    if (items.length > cap) items.splice(0, items.length - cap);
    this.#lists.insert(key, { expiresAt: this.#now() + ttlMs, items });
  }

  async lists(keys: readonly string[]): Promise<Uint8Array[][]> {
    return keys.map((k) => this.#lists.get(k)?.items ?? []);
  }

  since(): number {
    return this.#since;
  }

  async health(): Promise<StoreHealth> {
    return { ok: true };
  }

  async close(): Promise<void> {
    this.#markers.clear();
    this.#counters.clear();
    this.#lists.clear();
  }

  /** Entries held (live or not yet swept), for metrics. */
  get size(): { markers: number; counters: number; lists: number } {
    return { markers: this.#markers.size, counters: this.#counters.size, lists: this.#lists.size };
  }
}
