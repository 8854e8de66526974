/** Lock word states: free, held, held with a thread asleep on it. */
const FREE = 0;
const HELD = 1;
const CONTENDED = 2;
/** Tries before sleeping: a holder keeps a bucket for a scan of its slots, well under a microsecond. */
const SPINS = 64;

/**
 * One mutex per bucket of a shared table, over an Int32Array on a SharedArrayBuffer (the
 * three-state futex mutex): taking a free lock is one compare-and-exchange, releasing it one
 * atomic subtraction; only a thread that finds it held after spinning sleeps (Atomics.wait),
 * and only then does the release wake it. Every read and write of a bucket's slots happens
 * between `hold` and `release`, whose atomics order them across threads.
 */
export class BucketLocks {
  readonly #words: Int32Array;

  /** `words`: one Int32 per bucket, zero (free) when created. */
  constructor(words: Int32Array) {
    this.#words = words;
  }

  hold(bucket: number): void {
    const w = this.#words;
    if (Atomics.compareExchange(w, bucket, FREE, HELD) === FREE) return;
    for (let i = 0; i < SPINS; i++) {
      if (Atomics.load(w, bucket) === FREE && Atomics.compareExchange(w, bucket, FREE, HELD) === FREE) return;
    }
    // Marked contended, so the holder's release wakes a sleeper.
    while (Atomics.exchange(w, bucket, CONTENDED) !== FREE) Atomics.wait(w, bucket, CONTENDED);
  }

  release(bucket: number): void {
    const w = this.#words;
    if (Atomics.sub(w, bucket, 1) !== HELD) {
      Atomics.store(w, bucket, FREE);
      Atomics.notify(w, bucket, 1);
    }
  }
}
