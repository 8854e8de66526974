/**
 * A real Redis Cluster for tests and the bench: 3 primaries and by default 3 replicas (redis-server
 * on random loopback ports) joined by `redis-cli --cluster create --cluster-replicas 1`. Start it
 * once per test file: it takes a few seconds.
 *
 * cluster-node-timeout is 1000 ms (the default is 15 s): a primary that stops answering is marked
 * failed after about that long and its replica promoted about a second later, so a failover costs
 * 2-3 s here instead of 15-20 s. Production clusters keep a longer timeout to ride out network
 * blips; the store's behaviour does not depend on it, only how long a dead primary's slots answer 503.
 * cluster-require-full-coverage is no, as the store's docs ask: the slots of the live primaries
 * keep answering while one primary's slots have none (with yes, every node refuses every key
 * then). repl-diskless-sync-delay is 0 so replicas take their first copy at once: a replica that
 * never synced cannot be promoted, and the helper waits for every replica's link before it returns.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import type { RedisConfig } from '../../src/store/parseStoreConfig.js';
import { freePort } from './freePort.js';
import { type TestRedis, startRedis } from './redisServer.js';
import { until } from './until.js';

const run = promisify(execFile);

/** cluster-node-timeout of the test cluster, ms (see above). */
export const CLUSTER_NODE_TIMEOUT_MS = 1_000;

export interface ClusterOptions {
  /** Replicas per primary: 1 (the default, for failovers) or 0 (3 processes, e.g. for the bench). */
  replicasPerPrimary?: 0 | 1;
  /** A command that runs each node, e.g. `taskset -c 1` to keep it off the cores a benchmark measures. */
  launcher?: readonly string[];
  /** requirepass and masterauth of every node (REDIS_PASSWORD); its config() carries it in the URL. */
  password?: string;
}

export interface TestCluster {
  nodes: TestRedis[];
  /** `host:port,...` of every node, for REDIS_CLUSTER. */
  seeds: string;
  /** A RedisConfig on this cluster with a key prefix of its own and a short command timeout. */
  config(overrides?: Partial<RedisConfig>): RedisConfig;
  /** The node that is the primary of `key`'s slot now. */
  primaryOf(key: string): Promise<TestRedis>;
  /** Resolves once every live node sees every slot served (cluster_state:ok) and agrees on who serves it. */
  settled(ms?: number): Promise<void>;
  /** Stops `node` as a crash would (SIGKILL); the cluster's checks leave it out from then on. */
  kill(node: TestRedis): Promise<void>;
  /** Runs `redis-cli` with `args` against the cluster (through a live node). */
  cli(...args: string[]): Promise<string>;
  close(): Promise<void>;
}

let prefixes = 0;

export async function startRedisCluster(opts: ClusterOptions = {}): Promise<TestCluster> {
  const replicas = opts.replicasPerPrimary ?? 1;
  const { password } = opts;
  const nodes = await Promise.all(
    Array.from({ length: 3 * (1 + replicas) }, async () => {
      // The bus port, picked free like the node's own, can be taken before redis binds it: a node
      // that cannot bind it exits at once, and is started again on another.
      for (let attempt = 0; ; attempt++) {
        const bus = await freePort();
        try {
          return await startRedis({
            ...(opts.launcher === undefined ? {} : { launcher: opts.launcher }),
            ...(password === undefined ? {} : { password }),
            args: () => [
              '--cluster-enabled',
              'yes',
              '--cluster-config-file',
              'nodes.conf',
              '--cluster-node-timeout',
              String(CLUSTER_NODE_TIMEOUT_MS),
              '--cluster-port',
              String(bus),
              '--cluster-require-full-coverage',
              'no',
              '--repl-diskless-sync-delay',
              '0',
            ],
          });
        } catch (e) {
          if (attempt >= 4) throw e;
        }
      }
    }),
  );
  const addresses = nodes.map((n) => `127.0.0.1:${n.port}`);
  const alive = new Set(nodes);
  const live = () => nodes.filter((n) => alive.has(n));
  const cliEnv = password === undefined ? process.env : { ...process.env, REDISCLI_AUTH: password };
  const cli = async (...args: string[]) => (await run('redis-cli', args, { timeout: 60_000, env: cliEnv })).stdout;
  await cli('--cluster', 'create', ...addresses, '--cluster-replicas', String(replicas), '--cluster-yes');

  const slotsSeenBy = async (node: TestRedis): Promise<string | undefined> => {
    const info = String(await node.command('CLUSTER', 'INFO').catch(() => ''));
    if (!info.includes('cluster_state:ok')) return undefined;
    const slots = (await node.command('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
    return JSON.stringify(slots.map(([from, to, [, port]]) => [from, to, port]).sort((x, y) => x[0]! - y[0]!));
  };
  const settled = (ms = 20_000) =>
    until(async () => {
      const views = await Promise.all(live().map(slotsSeenBy));
      return views.every((v) => v !== undefined && v === views[0]);
    }, ms);
  await settled();
  // Every replica holds its primary's data: only then can it be promoted.
  await until(async () => {
    const roles = await Promise.all(nodes.map((n) => n.command('INFO', 'replication').then(String)));
    return roles.filter((r) => r.includes('role:slave') && r.includes('master_link_status:up')).length === 3 * replicas;
  }, 20_000);

  return {
    nodes,
    seeds: addresses.join(','),
    config: (overrides = {}) => ({
      url: password === undefined ? 'redis://127.0.0.1' : `redis://:${encodeURIComponent(password)}@127.0.0.1`,
      topology: { kind: 'cluster', nodes: nodes.map((n) => ({ host: '127.0.0.1', port: n.port })) },
      prefix: `c${process.pid}-${++prefixes}:`,
      commandTimeoutMs: 500,
      clockSkewMs: 0,
      ...overrides,
    }),
    async primaryOf(key) {
      const [node] = live();
      const c = new Redis({
        port: node!.port,
        host: '127.0.0.1',
        maxRetriesPerRequest: 0,
        retryStrategy: () => null,
        ...(password === undefined ? {} : { password }),
      });
      c.on('error', () => {});
      try {
        const slot = Number(await c.call('CLUSTER', 'KEYSLOT', key));
        const slots = (await c.call('CLUSTER', 'SLOTS')) as [number, number, [string, number]][];
        const port = slots.find(([from, to]) => slot >= from && slot <= to)![2][1];
        return nodes.find((n) => n.port === port)!;
      } finally {
        c.disconnect();
      }
    },
    settled,
    async kill(node) {
      alive.delete(node);
      await node.stop('SIGKILL');
    },
    cli: (...args) => cli('-p', String(live()[0]!.port), ...args),
    async close() {
      await Promise.all(nodes.map((n) => n.close()));
    },
  };
}
