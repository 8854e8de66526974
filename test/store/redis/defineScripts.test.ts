/**
 * Script calls on an auto-pipelining client: a script whose caller batches already is written in
 * the turn it is called, the others wait for the auto-pipeline; both answer on a real redis-server.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defineScripts } from '../../../src/store/redis/helpers/defineScripts.js';
import { type TestRedis, startRedis } from '../../helpers/redisServer.js';

let server: TestRedis;
let redis: Redis;

beforeAll(async () => {
  server = await startRedis();
  redis = new Redis(server.url, { enableAutoPipelining: true });
  await redis.ping();
});
afterAll(async () => {
  redis.disconnect();
  await server.close();
});

const echo = 'return {KEYS[1], ARGV[1], ARGV[2]}';

it('sends a sendAtOnce script at once and leaves the others to the auto-pipeline', async () => {
  const scripts = defineScripts(redis, { batched: { lua: echo, sendAtOnce: true }, single: { lua: echo, numberOfKeys: 1 } });
  const batched = scripts.batched(['k1'], ['a', 7]);
  expect(redis.autoPipelineQueueSize).toBe(0);
  const single = scripts.single(['k2'], ['b', Buffer.from('c')]);
  expect(redis.autoPipelineQueueSize).toBe(1);
  expect(await Promise.all([batched, single])).toEqual([
    ['k1', 'a', '7'],
    ['k2', 'b', 'c'],
  ]);
  // Another client keeps auto-pipelining the script's command: the setting is per client.
  const other = new Redis(server.url, { enableAutoPipelining: true, lazyConnect: true });
  expect(other.options.autoPipeliningIgnoredCommands).not.toContain('ariadne_batched');
  other.disconnect();
});
