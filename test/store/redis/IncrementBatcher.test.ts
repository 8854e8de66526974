/**
 * The increments of one event-loop turn share one countEachInWindow call on a real redis-server:
 * each counter gets its own count, its window starts at its first use, 0 reads without creating.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IncrementBatcher } from '../../../src/store/redis/IncrementBatcher.js';
import { type ScriptCall, defineScripts } from '../../../src/store/redis/helpers/defineScripts.js';
import { countEachInWindow } from '../../../src/store/redis/scripts/countEachInWindow.js';
import { type TestRedis, startRedis } from '../../helpers/redisServer.js';

let server: TestRedis;
let redis: Redis;
let script: ScriptCall;
let calls = 0;
let counted: ScriptCall;

beforeAll(async () => {
  server = await startRedis();
  redis = new Redis(server.url);
  script = defineScripts(redis, { countEachInWindow }).countEachInWindow;
  counted = (keys, args) => {
    calls++;
    return script(keys, args);
  };
});
afterAll(async () => {
  redis.disconnect();
  await server.close();
});

describe('IncrementBatcher', () => {
  it('sends the increments made in one turn as one call, each counter with its own count', async () => {
    const batcher = new IncrementBatcher(counted);
    const before = calls;
    const counts = await Promise.all([
      batcher.increment('c:a', 60_000, 1),
      batcher.increment('c:b', 60_000, 4),
      batcher.increment('c:a', 60_000, 1),
      batcher.increment('c:a', 60_000, 0),
      batcher.increment('c:b', 60_000, 1),
      batcher.increment('c:absent', 60_000, 0),
    ]);
    expect(calls - before).toBe(1);
    expect(counts).toEqual([1, 4, 2, 2, 5, 0]);
    expect(await redis.exists('c:absent')).toBe(0);
    expect(await batcher.increment('c:a', 60_000, 3)).toBe(5);
  });

  it('a counter lives its window from its first use; later increments do not extend it', async () => {
    const batcher = new IncrementBatcher(counted);
    await batcher.increment('c:window', 30_000, 1);
    const first = await redis.pttl('c:window');
    await batcher.increment('c:window', 90_000, 1);
    const second = await redis.pttl('c:window');
    expect(first).toBeGreaterThan(29_000);
    expect(first).toBeLessThanOrEqual(30_000);
    expect(second).toBeLessThanOrEqual(first);
  });

  it('splits a turn of more than 128 increments over several calls, every one answered', async () => {
    const batcher = new IncrementBatcher(counted);
    const before = calls;
    const counts = await Promise.all(Array.from({ length: 300 }, () => batcher.increment('c:many', 60_000, 1)));
    expect(calls - before).toBe(3);
    expect(counts).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
  });

  it('an amount the script cannot read fails the call rather than count wrongly', async () => {
    const batcher = new IncrementBatcher(counted);
    const results = await Promise.allSettled([batcher.increment('c:bad', 60_000, 1), batcher.increment('c:bad', 60_000, -1)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await redis.exists('c:bad')).toBe(0);
  });
});
