import { combineHealth } from '../store/combineHealth.js';
import type { StoreHealth } from '../store/Store.js';
import type { CredentialStore } from '../store/credentials/CredentialStore.js';

/**
 * The health of a process that serves from several threads: each thread's store health (in
 * thread order; undefined: it did not answer in time), and that of the passkey credentials the
 * main thread keeps for them all, when they can fail (a Redis credential store).
 */
export async function processHealth(perThread: readonly (StoreHealth | undefined)[], credentials?: CredentialStore): Promise<StoreHealth> {
  return combineHealth([
    ...perThread.map((h, i) => [`thread ${i + 1}`, h] as const),
    ...(credentials?.health ? [['passkey credentials', await credentials.health()] as const] : []),
  ]);
}
