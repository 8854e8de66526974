import type { RedisClient } from '../connectRedis.js';

export interface ServerInfo {
  /** Identifies one run of one Redis process: it changes on every restart and differs between a primary and its replicas. */
  runId: string;
  /** Bytes; 0 = no limit. */
  maxmemory: number;
  maxmemoryPolicy: string;
  /** Whether the append-only file is on (credentials need it to survive a restart). */
  aofEnabled: boolean;
}

/** The parts of INFO this store depends on. */
export async function readInfo(redis: RedisClient): Promise<ServerInfo> {
  const text = await redis.info();
  const field = (name: string) => new RegExp(`^${name}:(.*)$`, 'm').exec(text)?.[1]?.trim();
  const runId = field('run_id');
  if (runId === undefined || runId === '') throw new Error('Redis INFO has no run_id');
  return {
    runId,
    maxmemory: Number(field('maxmemory') ?? 0),
    maxmemoryPolicy: field('maxmemory_policy') ?? 'noeviction',
    aofEnabled: field('aof_enabled') === '1',
  };
}
