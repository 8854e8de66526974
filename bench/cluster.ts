/**
 * `npm run bench -- --only cluster`: two Ariadne nodes on one redis-server against two on a Redis
 * Cluster of 3 primaries (no replicas; made as the tests make theirs, test/helpers/redisCluster.ts),
 * all four nodes up at once. Both setups get the same valid /verify submissions (each consumes its
 * own challenge; each setup's store is its own, so each body is fresh on both), each node half of
 * them, in turns A B A B A B so that drift in the shared machine's speed falls on both alike.
 *
 * The figure is /verify per CPU-second of the Ariadne nodes (the two nodes' CPU time summed): both
 * nodes are pinned to the server's core (WORKERS=1 each), the Redis processes and the two wrk
 * load generators to the other core, as in the HTTP bench. Redis CPU per /verify is read from each
 * Redis process's INFO cpu.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TestCluster, startRedisCluster } from '../test/helpers/redisCluster.js';
import { type TestRedis, startRedis } from '../test/helpers/redisServer.js';
import { verifyBodies } from './http/bodies.js';
import { PIN, type Child, cpuSeconds, startServer } from './http/processes.js';
import { runWrk } from './http/wrk.js';
import { type ClusterBenchResult, SETUPS, type Setup, type Turn, clusterReport } from './cluster/report.js';
import { type RedisWork, redisWork } from './cluster/redisWork.js';

/** BENCH_QUICK=1 shrinks the run for a smoke test (its numbers are not comparable). */
const QUICK = process.env.BENCH_QUICK === '1';
/** Turns per setup, and /verify per turn over both nodes (at ~0.5 ms of CPU each, about 1 s of the nodes' core). */
const TURNS = 3;
const PER_TURN = QUICK ? 400 : 2_000;
/** Requests each node answers unmeasured first, while V8 still compiles on the pinned core. */
const WARM_UP_PER_NODE = QUICK ? 300 : 1_000;

interface RunningSetup {
  setup: Setup;
  nodes: [Child, Child];
  /** What the setup's Redis processes have done so far. */
  redisWork(): Promise<RedisWork>;
}

/** Sends each node its half of `bodies` at once (a wrk per node); CPU times taken around both. */
async function drive(work: string, running: RunningSetup, bodies: string[]): Promise<Turn> {
  const half = Math.ceil(bodies.length / 2);
  const shares = [bodies.slice(0, half), bodies.slice(half)];
  const pids = running.nodes.map((n) => n.proc.pid as number);
  const nodeBefore = pids.map(cpuSeconds);
  const redisBefore = await running.redisWork();
  const loads = await Promise.all(
    running.nodes.map((node, i) => {
      const dir = join(work, String(i));
      mkdirSync(dir, { recursive: true });
      const share = shares[i]!;
      return runWrk(dir, {
        url: node.url,
        path: '/verify',
        bodies: share,
        count: share.length,
        expectStatus: 200,
        expectText: '"success":true',
      });
    }),
  );
  const nodeCpuSeconds = pids.reduce((total, pid, i) => total + cpuSeconds(pid) - nodeBefore[i]!, 0);
  const redisAfter = await running.redisWork();
  return {
    setup: running.setup,
    requests: loads.reduce((n, l) => n + l.responses, 0),
    errors: loads.reduce((n, l) => n + l.errors, 0),
    firstError: loads.find((l) => l.firstError !== undefined)?.firstError,
    seconds: Math.max(...loads.map((l) => l.seconds)),
    nodeCpuSeconds,
    redisCpuSeconds: redisAfter.cpu - redisBefore.cpu,
    redisCalls: redisAfter.calls - redisBefore.calls,
  };
}

export async function runClusterBench(): Promise<ClusterBenchResult> {
  const work = mkdtempSync(join(tmpdir(), 'ariadne-bench-cluster-'));
  const started: Child[] = [];
  let redis: TestRedis | undefined;
  let cluster: TestCluster | undefined;
  const node = async (env: Record<string, string>) => {
    // One machine, one clock: no skew to allow for. (With the default 2 s, the fences a node opens
    // at start refuse challenges issued in the 2 s after, the first bodies made.)
    const child = await startServer({ STORE: 'redis', REDIS_CLOCK_SKEW_MS: '0', ...env });
    started.push(child);
    return child;
  };
  try {
    [redis, cluster] = await Promise.all([
      startRedis({ launcher: PIN.generator }),
      startRedisCluster({ replicasPerPrimary: 0, launcher: PIN.generator }),
    ]);
    const oneRedis = { REDIS_URL: redis.url };
    const onCluster = { REDIS_CLUSTER: cluster.seeds };
    const setups: RunningSetup[] = [
      { setup: SETUPS[0], nodes: [await node(oneRedis), await node(oneRedis)], redisWork: () => redisWork([redis!]) },
      { setup: SETUPS[1], nodes: [await node(onCluster), await node(onCluster)], redisWork: () => redisWork(cluster!.nodes) },
    ];
    // Challenges verify on any node holding the secret: the same bodies go to both setups.
    const bodies = await verifyBodies(setups[0]!.nodes[0].url, 2 * WARM_UP_PER_NODE + TURNS * PER_TURN);
    const warmUp = bodies.splice(0, 2 * WARM_UP_PER_NODE);
    const errors: string[] = [];
    for (const running of setups) {
      const w = await drive(work, running, warmUp);
      if (w.errors > 0)
        errors.push(
          `warm-up, ${running.setup}: ${w.errors} of ${warmUp.length} /verify not as expected (first: ${w.firstError ?? 'socket error or no answer'})`,
        );
    }
    const turns: Turn[] = [];
    for (let t = 0; t < TURNS; t++) {
      const share = bodies.slice(t * PER_TURN, (t + 1) * PER_TURN);
      for (const running of setups) turns.push(await drive(work, running, share));
    }
    return clusterReport(turns, errors, [
      `${TURNS} turns per setup of ${PER_TURN.toLocaleString('en-US')} valid /verify (half to each node), after ${WARM_UP_PER_NODE.toLocaleString('en-US')} unmeasured per node${QUICK ? '; BENCH_QUICK: not comparable with full runs' : ''}.`,
      PIN.server.length > 0
        ? 'The 2 nodes of each setup pinned to one core (their CPU summed); Redis and wrk on the other.'
        : 'Not pinned (one core or no taskset): CPU figures include whatever else ran.',
    ]);
  } finally {
    await Promise.all(started.map((c) => c.stop()));
    await Promise.all([redis?.close(), cluster?.close()]);
    rmSync(work, { recursive: true, force: true });
  }
}
