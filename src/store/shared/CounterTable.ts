import { DigestTable, type DigestTableMemory, createDigestTableMemory } from './DigestTable.js';

export interface CounterTableMemory {
  table: DigestTableMemory;
  /** Each slot's count. */
  counts: Float64Array;
}

export function createCounterTableMemory(capacity: number): CounterTableMemory {
  const table = createDigestTableMemory(capacity);
  return { table, counts: new Float64Array(new SharedArrayBuffer(table.first.length * 8)) };
}

/**
 * Fixed-window counters in shared memory (Store.increment). A new counter in a bucket with no
 * free slot evicts the one whose window ends first: counters limit, they never refuse.
 */
export class CounterTable {
  readonly #table: DigestTable;
  readonly #counts: Float64Array;

  constructor(memory: CounterTableMemory) {
    this.#table = new DigestTable(memory.table);
    this.#counts = memory.counts;
  }

  increment(key: string, windowMs: number, by: number, now: number): number {
    const t = this.#table;
    const bucket = t.holdBucketOf(key);
    try {
      const found = t.find(bucket, now);
      if (found >= 0) return (this.#counts[found]! += by);
      if (by === 0) return 0;
      const slot = t.free >= 0 ? t.free : t.soonestToExpire(bucket);
      t.claim(slot, now + windowMs);
      this.#counts[slot] = by;
      return by;
    } finally {
      t.release(bucket);
    }
  }
}
