import { MemoryStore } from '../../src/store/MemoryStore.js';
import type { Store } from '../../src/store/Store.js';

/** A working embedded store with some methods replaced (spies, failures). */
export function storeWith(overrides: Partial<Store>): Store {
  const base = new MemoryStore({ maxMarkers: 1_000, maxCounters: 1_000 });
  return Object.assign(base, overrides);
}
