/**
 * Two real Ariadne processes on a real Redis Cluster (3 primaries, 3 replicas, started once for
 * the file): 50-way races of one challenge and of one token, a resharding under load, and a
 * primary killed under load. Never a second redemption, never a 5xx but 503 store_unavailable.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AriadneNode } from '../helpers/ariadneNode.js';
import { type LoadReport, loadPair, mintToken, raceSiteverify, raceVerify, startPair, submission } from '../helpers/nodePair.js';
import { metricSum } from '../helpers/metricSum.js';
import { type TestCluster, startRedisCluster } from '../helpers/redisCluster.js';
import { until } from '../helpers/until.js';
import { markerShardTags } from '../../src/store/redis/markerShards.js';

let cluster: TestCluster;
let a: AriadneNode;
let b: AriadneNode;

beforeAll(async () => {
  cluster = await startRedisCluster();
  [a, b] = await startPair({ REDIS_CLUSTER: cluster.seeds, REDIS_COMMAND_TIMEOUT_MS: '1000' });
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await cluster?.close();
});

/** Both nodes report the store whole: every shard of markers usable. */
async function bothHealthy(): Promise<boolean> {
  const states = await Promise.all([a, b].map(async (n) => (await (await fetch(n.at('/healthz'))).json()) as { status: string }));
  return states.every((s) => s.status === 'ok');
}

/** A /metrics counter of `node`. */
async function counter(node: AriadneNode, name: string, labels: Record<string, string> = {}): Promise<number> {
  return metricSum(await (await fetch(node.at('/metrics'))).text(), name, labels) ?? Number.NaN;
}

/** Keys in the slot of each marker shard of a Cluster, in shard order. */
const SHARD_TAGS = markerShardTags(true).map((tag) => `{${tag}}`);
const FIRST_SHARD = SHARD_TAGS[0]!;

function summary(r: LoadReport, since: number) {
  const last = r.unavailableAt.length === 0 ? undefined : Math.max(...r.unavailableAt) - since;
  return {
    verified: r.verified,
    redeemed: r.redeemed,
    unavailable: r.unavailableAt.length,
    lastUnavailableMs: last,
    refusedInFlight: r.refusedInFlight,
  };
}

describe('two nodes on a Redis Cluster', () => {
  it('50 concurrent /verify of one challenge over both nodes give exactly one token (5 challenges)', async () => {
    const prepared = await Promise.all([0, 1, 2, 3, 4].map((round) => submission(round % 2 ? a : b)));
    for (const { body } of prepared) {
      const answers = await raceVerify(a, b, body);
      expect(answers.filter((r) => r.status === 200 && r.body.success === true)).toHaveLength(1);
      expect(answers.filter((r) => r.body.error_code === 'challenge_not_found')).toHaveLength(49);
    }
  });

  it('50 concurrent /siteverify of one token over both nodes give exactly one success (5 tokens)', async () => {
    const tokens = await Promise.all([0, 1, 2, 3, 4].map((round) => mintToken(round % 2 ? a : b)));
    for (const t of tokens) {
      const answers = await raceSiteverify(a, b, t);
      expect(answers.filter((r) => r.body.success === true)).toHaveLength(1);
      expect(answers.filter((r) => r.body.error === 'token_already_used')).toHaveLength(49);
    }
  });

  it('resharding 3000 slots, a marker shard among them, under load: no double redemption, no 5xx', async () => {
    const from = await cluster.primaryOf(FIRST_SHARD);
    // The primary of the first shard held by another one.
    let to = from;
    for (const tag of SHARD_TAGS) if ((to = await cluster.primaryOf(tag)) !== from) break;
    expect(to).not.toBe(from);
    const [fromId, toId] = (await Promise.all([from, to].map(async (n) => String(await n.command('CLUSTER', 'MYID'))))) as [string, string];
    let faultEnd = Infinity;
    const started = Date.now();
    const load = loadPair(a, b, { endAt: started + 8_000, faultEnd: () => faultEnd });
    await new Promise((r) => setTimeout(r, 1_000));
    // The first 3000 slots of the first marker shard's primary (that shard's slot among them,
    // with its keys, MIGRATE by MIGRATE) go to another primary while the load runs.
    await cluster.cli(
      '--cluster',
      'reshard',
      `127.0.0.1:${from.port}`,
      '--cluster-from',
      fromId,
      '--cluster-to',
      toId,
      '--cluster-slots',
      '3000',
      '--cluster-yes',
      '--cluster-pipeline',
      '20',
    );
    const movedIn = Date.now() - started - 1_000;
    expect((await cluster.primaryOf(FIRST_SHARD)).port).toBe(to.port);
    // A moved shard's fence now lives in another Redis process: the first consume or check
    // there (each node checks every second) opens a new one, and refuses what was issued before
    // (a token counts from its challenge's creation). The fault ends once both nodes have read the
    // new slot map (under load a node's refresh can lag the move) and had a check since.
    await until(
      async () =>
        (await counter(a, 'ariadne_redis_slots_moved_total')) >= 3000 && (await counter(b, 'ariadne_redis_slots_moved_total')) >= 3000,
      10_000,
    );
    await new Promise((r) => setTimeout(r, 1_500));
    faultEnd = Date.now();
    const report = await load;
    console.log(`cluster resharding under load: ${JSON.stringify({ ...summary(report, started), movedInMs: movedIn })}`);
    expect(report.wrong, report.wrong.join('\n')).toEqual([]);
    expect(report.doubleRedemptions).toBe(0);
    expect(report.unavailableAt).toEqual([]);
    expect(report.verified).toBeGreaterThan(0);
    for (const node of [a, b]) expect(await counter(node, 'ariadne_redis_slots_moved_total')).toBeGreaterThanOrEqual(3000);
    // The moved shard's fence was opened again under the process that holds it now, after the move
    // began. Read from the new primary rather than from the nodes' replacement counters: with a 1 s
    // command timeout, a loaded machine can run a node's replacing script and time the reply out,
    // and the node then finds the new fence in place and counts nothing.
    const fenceKeys = (await to.command('KEYS', `*${FIRST_SHARD}:fence`)) as string[];
    expect(fenceKeys).toHaveLength(1);
    const [, since, process] = String(await to.command('GET', fenceKeys[0]!)).split('|');
    const runId = String(await to.command('INFO', 'server')).match(/run_id:(\w+)/)?.[1];
    const replid = String(await to.command('INFO', 'replication')).match(/master_replid:(\w+)/)?.[1];
    expect(process).toBe(`${runId}:${replid}`);
    expect(Number(since)).toBeGreaterThanOrEqual(started);
  });

  it('a primary killed under load: 503 for its slots only, no double redemption, service back within 10 s', async () => {
    const killed = await cluster.primaryOf(FIRST_SHARD);
    const failoversBefore = await Promise.all([a, b].map((n) => counter(n, 'ariadne_redis_failovers_seen_total')));
    let faultEnd = Infinity;
    let killedAt = Infinity;
    const load = loadPair(a, b, { endAt: Date.now() + 10_000, faultEnd: () => faultEnd });
    await new Promise((r) => setTimeout(r, 1_000));
    killedAt = Date.now();
    await cluster.kill(killed);
    // While its slots have no primary: the other slots keep working, /healthz says which is down.
    const namesKilled = (down: { part: string }[] | undefined) => (down ?? []).some((d) => d.part.includes(`127.0.0.1:${killed.port}`));
    let seenDown = false;
    let seenReadyWithDown = false;
    await until(async () => {
      const h = (await (await fetch(a.at('/healthz'))).json()) as { status: string; store: { down?: { part: string }[] } };
      seenDown ||= h.status === 'degraded' && namesKilled(h.store.down);
      // The other primaries answer: /readyz stays 200 and names what is down.
      const r = await fetch(a.at('/readyz'));
      seenReadyWithDown ||= r.status === 200 && namesKilled(((await r.json()) as { down?: { part: string }[] }).down);
      return (await cluster.primaryOf(FIRST_SHARD)) !== killed;
    }, 20_000);
    const promotedAt = Date.now();
    await until(bothHealthy, 20_000);
    // Every node's next check (each second) has opened the fences on the promoted replica: what
    // was issued before may be refused as used, nothing issued after.
    await new Promise((r) => setTimeout(r, 1_500));
    faultEnd = Date.now();
    const report = await load;
    const figures = summary(report, killedAt);
    console.log(`cluster failover under load: ${JSON.stringify({ ...figures, promotedAfterMs: promotedAt - killedAt })}`);
    expect(seenDown).toBe(true);
    expect(seenReadyWithDown).toBe(true);
    expect(report.wrong, report.wrong.join('\n')).toEqual([]);
    expect(report.doubleRedemptions).toBe(0);
    expect(report.unavailableAt.length).toBeGreaterThan(0);
    expect(figures.lastUnavailableMs!).toBeLessThan(10_000);
    expect(report.verified).toBeGreaterThan(0);
    const failoversAfter = await Promise.all([a, b].map((n) => counter(n, 'ariadne_redis_failovers_seen_total')));
    expect(failoversAfter[0]).toBeGreaterThan(failoversBefore[0]!);
    expect(failoversAfter[1]).toBeGreaterThan(failoversBefore[1]!);
  });
});
