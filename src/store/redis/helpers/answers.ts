import type { StoreHealth } from '../../Store.js';
import type { RedisClient } from '../connectRedis.js';

/**
 * Whether `redis` answers now: connected, and `probe` (a command sent to where the caller's keys
 * live, when given) succeeds. Never rejects.
 */
export async function answers(redis: RedisClient, probe?: () => Promise<unknown>): Promise<StoreHealth> {
  if (redis.status !== 'ready') return { ok: false, detail: `redis: ${redis.status}` };
  if (probe === undefined) return { ok: true };
  return probe().then(
    () => ({ ok: true }),
    (e: unknown) => ({ ok: false, detail: `redis: ${e instanceof Error ? e.message : String(e)}` }),
  );
}
