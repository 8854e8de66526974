import type { StoreHealth } from '../store/Store.js';

/**
 * The store health of a process from its serving threads' (in thread order; undefined: the thread
 * did not answer in time). Not ok while any thread cannot use the store: a load balancer's
 * connections land on every thread, and each thread (re)connects on its own, so one thread's
 * readiness alone would send it requests the others refuse. Else ok, with what is down where
 * only a part is (every thread sees the same servers).
 */
export function processHealth(perThread: readonly (StoreHealth | undefined)[]): StoreHealth {
  const failing = perThread.flatMap((h, i) => {
    if (h === undefined) return [`thread ${i + 1}: did not answer`];
    return h.ok ? [] : [`thread ${i + 1}: ${h.detail ?? 'store unavailable'}`];
  });
  if (failing.length > 0) return { ok: false, detail: failing.join('; ') };
  return perThread.find((h) => h?.down !== undefined) ?? { ok: true };
}
