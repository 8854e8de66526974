import type { RedisClient } from '../connectRedis.js';

/** Quits politely when connected, else drops the connection (and any reconnection attempt). */
export async function closeRedis(redis: RedisClient): Promise<void> {
  if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
  else redis.disconnect();
}
