import type { Redis } from 'ioredis';

/** Quits politely when connected, else drops the connection (and any reconnection attempt). */
export async function closeRedis(redis: Redis): Promise<void> {
  if (redis.status === 'ready') await redis.quit().catch(() => redis.disconnect());
  else redis.disconnect();
}
