import { MemoryStore } from '../../src/store/MemoryStore.js';
import type { Store } from '../../src/store/Store.js';

/** A working embedded store with some methods replaced (spies, failures). */
export function storeWith(overrides: Partial<Store>): Store {
  const base = new MemoryStore({ maxMarkers: 1_000, maxCounters: 1_000 });
  return Object.assign(base, overrides);
}

/**
 * An embedded store that records its consume and increment calls into `calls` ("consume KEY",
 * "increment KEY by N"). A test server on a store of its own runs on one thread, so every call is seen.
 */
export function recordingStore(calls: string[], now?: () => number): Store {
  const base = new MemoryStore({ maxMarkers: 1_000, maxCounters: 1_000, ...(now ? { now } : {}) });
  const consume = base.consume.bind(base);
  const increment = base.increment.bind(base);
  return Object.assign(base, {
    consume: (k: string, life: Parameters<Store['consume']>[1], tag?: string) => (calls.push(`consume ${k}`), consume(k, life, tag)),
    increment: (k: string, windowMs: number, by?: number) => (calls.push(`increment ${k} by ${by ?? 1}`), increment(k, windowMs, by)),
  });
}
