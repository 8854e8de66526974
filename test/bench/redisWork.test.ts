import { afterAll, beforeAll, expect, it } from 'vitest';
import { redisWork } from '../../bench/cluster/redisWork.js';
import { type TestRedis, startRedis } from '../helpers/redisServer.js';

let servers: TestRedis[];

beforeAll(async () => {
  servers = await Promise.all([startRedis(), startRedis()]);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

it('counts the script calls of every server (EVAL and EVALSHA, not what the scripts run) and sums their CPU', async () => {
  const before = await redisWork(servers);
  const [one, two] = servers as [TestRedis, TestRedis];
  // A script that runs three commands: one call.
  const lua = "redis.call('SET', KEYS[1], 'x'); redis.call('GET', KEYS[1]); return redis.call('DEL', KEYS[1])";
  await one.command('EVAL', lua, 1, 'k');
  const sha = String(await two.command('SCRIPT', 'LOAD', lua));
  await two.command('EVALSHA', sha, 1, 'k');
  await two.command('EVALSHA', sha, 1, 'k');
  await one.command('SET', 'not-a-script', 'x');
  const after = await redisWork(servers);
  expect(after.calls - before.calls).toBe(3);
  expect(after.cpu).toBeGreaterThan(0);
  expect(after.cpu).toBeGreaterThanOrEqual(before.cpu);
});
