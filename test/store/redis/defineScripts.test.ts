/**
 * Script calls as the store makes them, on a real redis-server: keys and arguments (text, numbers,
 * bytes) arrive as given, with a fixed or a per-call number of keys; and the store's client writes
 * each call in the turn it is made.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RedisClient, connectRedis } from '../../../src/store/redis/connectRedis.js';
import { defineScripts } from '../../../src/store/redis/helpers/defineScripts.js';
import { type TestRedis, startRedis } from '../../helpers/redisServer.js';

let server: TestRedis;
let redis: RedisClient;

beforeAll(async () => {
  server = await startRedis();
  redis = connectRedis(server.config());
  await redis.connect();
});
afterAll(async () => {
  redis.disconnect();
  await server.close();
});

const echo = 'return {KEYS, ARGV}';

it('passes keys and arguments as given, with a fixed or a per-call number of keys', async () => {
  const scripts = defineScripts(redis, { fixed: { lua: echo, numberOfKeys: 1 }, perCall: { lua: echo } });
  expect(await scripts.fixed(['k1'], ['a', 7, Buffer.from('b c')])).toEqual([['k1'], ['a', '7', 'b c']]);
  expect(await scripts.perCall(['k1', 'k2', 'k3'], ['x'])).toEqual([['k1', 'k2', 'k3'], ['x']]);
  expect(await scripts.perCall([], [''])).toEqual([[], ['']]);
});

it("writes each call in the turn it is made: nothing waits in ioredis' auto-pipeline", async () => {
  const scripts = defineScripts(redis, { again: { lua: echo } });
  const replies = [scripts.again(['k'], ['1']), scripts.again(['k'], ['2'])];
  expect(redis.autoPipelineQueueSize).toBe(0);
  expect(await Promise.all(replies)).toEqual([
    [['k'], ['1']],
    [['k'], ['2']],
  ]);
});
