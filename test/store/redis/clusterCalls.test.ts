/**
 * On a real Redis Cluster (3 primaries): a turn's batched calls are split by slot, and every
 * batched key lives in one of the marker shards' slots, so a turn costs at most one call per
 * shard and kind however many clients, challenges and trace buckets it carries.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RedisStore } from '../../../src/store/redis/RedisStore.js';
import { CLUSTER_MARKER_SHARDS } from '../../../src/store/redis/markerShards.js';
import { type TestCluster, startRedisCluster } from '../../helpers/redisCluster.js';

let cluster: TestCluster;
let store: RedisStore;

beforeAll(async () => {
  cluster = await startRedisCluster({ replicasPerPrimary: 0 });
  // No periodic fence check: its six openFence calls, landing within a measured turn on a busy
  // machine, counted as that turn's (12 appends where 6 were made).
  store = await RedisStore.open({ ...cluster.config(), checkIntervalMs: 3_600_000 });
});
afterAll(async () => {
  await store?.close();
  await cluster?.close();
});

/** Script calls (EVALSHA and EVAL) the Cluster's nodes have received so far. */
async function scriptCalls(): Promise<number> {
  const infos = await Promise.all(cluster.nodes.map(async (n) => String(await n.command('INFO', 'commandstats'))));
  const count = (info: string, command: string) => Number(new RegExp(`^cmdstat_${command}:calls=(\\d+)`, 'm').exec(info)?.[1] ?? 0);
  return infos.reduce((sum, info) => sum + count(info, 'evalsha') + count(info, 'eval'), 0);
}

/** The script calls one turn of `work` makes, after a first turn that loads the scripts on every primary. */
async function callsOfOneTurn(work: (round: number) => Promise<unknown>[]): Promise<number> {
  await Promise.all(work(0));
  const before = await scriptCalls();
  await Promise.all(work(1));
  return (await scriptCalls()) - before;
}

const KEYS = 60;
const keys = (round: number, kind: string) => Array.from({ length: KEYS }, (_, i) => `${kind}-${round}-${i}`);

it('a turn of 60 consumes, 60 counters, 60 list appends or a read of 60 lists is at most one call per marker shard', async () => {
  const life = () => ({ issuedAt: Date.now(), expiresAt: Date.now() + 60_000 });
  const calls = {
    consumes: await callsOfOneTurn((round) => keys(round, 'challenge').map((k) => store.consume(k, life()))),
    counters: await callsOfOneTurn((round) => keys(round, 'client').map((k) => store.increment(k, 60_000))),
    appends: await callsOfOneTurn((round) => keys(round, 'bucket').map((k) => store.append(k, new Uint8Array([1]), 60_000, 4))),
    reads: await callsOfOneTurn((round) => [store.lists(keys(round, 'bucket'))]),
  };
  for (const [kind, n] of Object.entries(calls)) {
    // 60 keys of their own slots would be about 60 calls; spread over the shards, several.
    expect(n, kind).toBeLessThanOrEqual(CLUSTER_MARKER_SHARDS);
    expect(n, kind).toBeGreaterThan(1);
  }
  // What was appended reads back, from every shard.
  expect((await store.lists(keys(1, 'bucket'))).every((l) => l.length === 1)).toBe(true);
});
