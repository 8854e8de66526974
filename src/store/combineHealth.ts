import type { StoreHealth } from './Store.js';

/**
 * One health of several named parts (the serving threads of a process, each with its own
 * connections; the passkey credentials' store beside the markers'): not ok while any part cannot
 * answer (undefined: it did not answer in time), naming each such part, since a request may need
 * any of them; else ok, with what is down where only a part of the servers is (every part sees
 * the same servers).
 */
export function combineHealth(parts: readonly (readonly [name: string, health: StoreHealth | undefined])[]): StoreHealth {
  const failing = parts.flatMap(([name, h]) => {
    if (h === undefined) return [`${name}: did not answer`];
    return h.ok ? [] : [`${name}: ${h.detail ?? 'store unavailable'}`];
  });
  if (failing.length > 0) return { ok: false, detail: failing.join('; ') };
  return parts.find(([, h]) => h?.down !== undefined)?.[1] ?? { ok: true };
}
