import type { ConsumeResult, Lifetime, Store, StoreHealth } from '../Store.js';
import { CounterTable, type CounterTableMemory, createCounterTableMemory } from './CounterTable.js';
import { MarkerTable, type MarkerTableMemory, createMarkerTableMemory } from './MarkerTable.js';

/** Everything the threads share, each array on a SharedArrayBuffer: post it to a worker to share it. */
export interface SharedStoreMemory {
  /** [0]: when the memory was created (epoch ms): Store.since of every thread. */
  since: Float64Array;
  markers: MarkerTableMemory;
  counters: CounterTableMemory;
}

/** The recent-item lists (duplicate-trace fingerprints): kept by one owner thread. */
export type ListStore = Pick<Store, 'append' | 'lists'>;

export interface SharedMemoryStoreOptions {
  /** The shared tables (SharedMemoryStore.allocate, in the thread that starts the others). */
  memory: SharedStoreMemory;
  /** Where lists live: the owner's store, or a proxy to it over a MessagePort. */
  lists: ListStore;
  /** Clock in epoch ms; tests inject one. Default Date.now. */
  now?: () => number;
}

/**
 * The embedded Store of a process whose threads all serve requests: single-use markers and
 * rate-limit counters in fixed-size tables on SharedArrayBuffers, read and written by every
 * thread directly (MarkerTable, CounterTable); lists kept by one owner thread. Its memory
 * begins when `allocate` runs, so anything issued before is refused as `used`.
 */
export class SharedMemoryStore implements Store {
  readonly #markers: MarkerTable;
  readonly #counters: CounterTable;
  readonly #lists: ListStore;
  readonly #since: number;
  readonly #now: () => number;

  /**
   * Zeroed tables for at least `maxMarkers` markers and `maxCounters` counters (rounded up to
   * a power of two of 64-slot buckets); `now` stamps since().
   */
  static allocate(opts: { maxMarkers: number; maxCounters: number; now?: () => number }): SharedStoreMemory {
    const since = new Float64Array(new SharedArrayBuffer(8));
    since[0] = (opts.now ?? Date.now)();
    return { since, markers: createMarkerTableMemory(opts.maxMarkers), counters: createCounterTableMemory(opts.maxCounters) };
  }

  constructor(opts: SharedMemoryStoreOptions) {
    this.#markers = new MarkerTable(opts.memory.markers);
    this.#counters = new CounterTable(opts.memory.counters);
    this.#lists = opts.lists;
    this.#since = opts.memory.since[0]!;
    this.#now = opts.now ?? Date.now;
  }

  async consume(key: string, life: Lifetime, tag?: string): Promise<ConsumeResult> {
    if (life.issuedAt < this.#since) return 'used';
    return this.#markers.consume(key, life.expiresAt, tag, this.#now());
  }

  async increment(key: string, windowMs: number, by = 1): Promise<number> {
    return this.#counters.increment(key, windowMs, by, this.#now());
  }

  append(key: string, item: Uint8Array, ttlMs: number, cap: number): Promise<void> {
    return this.#lists.append(key, item, ttlMs, cap);
  }

  lists(keys: readonly string[]): Promise<Uint8Array[][]> {
    return this.#lists.lists(keys);
  }

  since(): number {
    return this.#since;
  }

  async health(): Promise<StoreHealth> {
    return { ok: true };
  }

  /** The shared memory lives as long as any thread holds it: nothing to close per thread. */
  async close(): Promise<void> {}
}
