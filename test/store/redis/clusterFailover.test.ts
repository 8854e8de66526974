/**
 * A Redis Cluster failover to a replica that never received a marker its primary had written:
 * the store must refuse what was issued before, not consume it again there, even before its
 * once-a-second check runs (the consume script compares the fence's Redis process with its own).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RedisStore } from '../../../src/store/redis/RedisStore.js';
import { markerShardTags, shardOf } from '../../../src/store/redis/markerShards.js';
import { type TestCluster, startRedisCluster } from '../../helpers/redisCluster.js';
import { until } from '../../helpers/until.js';

let cluster: TestCluster;

beforeAll(async () => {
  cluster = await startRedisCluster();
});
afterAll(async () => {
  await cluster?.close();
});

it('a promoted replica missing the newest marker: what was issued before is refused, at once', async () => {
  const config = cluster.config();
  // No periodic check within the test: only the consume itself can notice the change of process.
  const store = await RedisStore.open({ ...config, checkIntervalMs: 3_600_000 });
  try {
    const tags = markerShardTags(true);
    const tag = `{${tags[shardOf('ticket', tags.length)]}}`;
    const primary = await cluster.primaryOf(tag);
    const primaryId = String(await primary.command('CLUSTER', 'MYID'));
    const replicaLine = String(await primary.command('CLUSTER', 'NODES'))
      .split('\n')
      .find((l) => l.includes(`slave ${primaryId}`))!;
    const replica = cluster.nodes.find((n) => replicaLine.includes(`127.0.0.1:${n.port}@`))!;
    const life = { issuedAt: Date.now(), expiresAt: Date.now() + 60_000 };

    // The replica stops reading its link (busy for 3 s); 32 MB for it fill the sockets between
    // them, so the marker written next stays in the primary's memory, and dies with it.
    const busy = replica.command('DEBUG', 'SLEEP', 3);
    await new Promise((r) => setTimeout(r, 100));
    await primary.command('SET', `${config.prefix}${tag}:filler`, 'x'.repeat(32 * 1024 * 1024));
    expect(await store.consume('ticket', life)).toBe('fresh');
    await cluster.kill(primary);
    await busy;
    await until(async () => (await cluster.primaryOf(tag)) === replica, 20_000);
    await cluster.settled();
    expect(await replica.command('KEYS', '*:marker:ticket')).toEqual([]);

    // Its fence came along (replicated long before), but it names the dead primary's process:
    // the consume is refused, and leaves no marker.
    expect(await store.consume('ticket', life)).toBe('used');
    expect(await replica.command('KEYS', '*:marker:ticket')).toEqual([]);
    const after = { issuedAt: store.since(), expiresAt: Date.now() + 60_000 };
    expect(await store.consume('ticket-2', after)).toBe('fresh');
    const events = store.events!();
    expect(events.failoversSeen).toBe(1);
    // The shards of the promoted replica got new fences, and only those.
    expect(events.fenceReplacements.process).toBeGreaterThanOrEqual(1);
    expect(events.fenceReplacements.process).toBeLessThan(16);
  } finally {
    await store.close();
  }
});
