/**
 * A real Sentinel setup for tests: a primary with two replicas (redis-server) watched by three
 * redis-sentinel processes, all on random loopback ports. Start it once per test file.
 *
 * down-after-milliseconds is 1000 (the default is 30 s) and failover-timeout 2000 (default 3
 * min): a primary that stops answering is agreed down (quorum 2) about a second later and a
 * replica promoted within another second or two, so a failover costs 2-4 s here. When two
 * Sentinels start their attempts at once the vote splits and the next attempt waits twice
 * failover-timeout: 4 s here (it was 6-8 s at 3000, and two splits in a row broke the failover
 * test's bounds about once in seven runs). Under 2000 a promotion can be aborted: the Sentinel
 * reads the promoted replica's role with INFO once a second, within failover-timeout.
 * Production setups keep longer values to ride out network blips (docs/several-nodes.md); the
 * store's behaviour does not depend on them, only how long requests that need markers answer 503.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import type { RedisConfig } from '../../src/store/parseStoreConfig.js';
import { freePort } from './freePort.js';
import { type TestRedis, startRedis } from './redisServer.js';
import { until } from './until.js';

/** The name the Sentinels know the primary by (REDIS_SENTINEL_NAME). */
export const SENTINEL_NAME = 'ariadne';
export const DOWN_AFTER_MS = 1_000;
export const FAILOVER_TIMEOUT_MS = 2_000;

export interface TestSentinels {
  /** The primary first, then the two replicas. */
  servers: TestRedis[];
  /** `host:port,...` of the three Sentinels, for REDIS_SENTINELS. */
  sentinels: string;
  config(overrides?: Partial<RedisConfig>): RedisConfig;
  /** The server the Sentinels name as the primary now. */
  primary(): Promise<TestRedis>;
  /** Resolves once every Sentinel names a live primary that has a replica in sync. */
  settled(ms?: number): Promise<void>;
  close(): Promise<void>;
}

let prefixes = 0;

export interface SentinelOptions {
  /** down-after-milliseconds: DOWN_AFTER_MS unless given (the failover bench uses the docs' 3000). */
  downAfterMs?: number;
}

export async function startRedisSentinels(opts: SentinelOptions = {}): Promise<TestSentinels> {
  const primary = await startRedis({ args: () => ['--repl-diskless-sync-delay', '0'] });
  const replicas = await Promise.all(
    [0, 1].map(() => startRedis({ args: () => ['--replicaof', '127.0.0.1', String(primary.port), '--repl-diskless-sync-delay', '0'] })),
  );
  const servers = [primary, ...replicas];
  const dir = await mkdtemp(path.join(tmpdir(), 'ariadne-sentinel-'));
  const sentinelPorts: number[] = [];
  const children: ChildProcess[] = [];
  const ask = async (port: number, ...args: string[]): Promise<unknown> => {
    const c = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 0, retryStrategy: () => null, lazyConnect: true });
    c.on('error', () => {});
    try {
      await c.connect();
      return await c.call(args[0]!, ...args.slice(1));
    } catch {
      return undefined;
    } finally {
      c.disconnect();
    }
  };
  for (let i = 0; i < 3; i++) {
    // A port picked free can be taken before the Sentinel binds it: it then exits, and is started
    // again on another.
    for (let attempt = 0; ; attempt++) {
      const port = await freePort();
      const conf = path.join(dir, `sentinel-${i}.conf`);
      await writeFile(
        conf,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          'protected-mode no',
          `dir ${dir}`,
          `sentinel monitor ${SENTINEL_NAME} 127.0.0.1 ${primary.port} 2`,
          `sentinel down-after-milliseconds ${SENTINEL_NAME} ${opts.downAfterMs ?? DOWN_AFTER_MS}`,
          `sentinel failover-timeout ${SENTINEL_NAME} ${FAILOVER_TIMEOUT_MS}`,
          `sentinel parallel-syncs ${SENTINEL_NAME} 2`,
          '',
        ].join('\n'),
      );
      const child = spawn('redis-sentinel', [conf], { stdio: 'ignore' });
      const end = Date.now() + 10_000;
      // Ready once it names the primary it monitors (a process that held the port first would not).
      const ready = async () => Array.isArray(await ask(port, 'SENTINEL', 'get-master-addr-by-name', SENTINEL_NAME));
      while (child.exitCode === null && Date.now() < end && !(await ready())) await new Promise((r) => setTimeout(r, 30));
      if (child.exitCode === null && Date.now() < end) {
        children.push(child);
        sentinelPorts.push(port);
        break;
      }
      child.kill('SIGKILL');
      if (attempt >= 4) throw new Error(`redis-sentinel did not start on port ${port}`);
    }
  }
  const primaryPort = async (): Promise<number | undefined> => {
    const addr = (await ask(sentinelPorts[0]!, 'SENTINEL', 'get-master-addr-by-name', SENTINEL_NAME)) as [string, string] | undefined;
    return addr === undefined ? undefined : Number(addr[1]);
  };
  const settled = (ms = 20_000) =>
    until(async () => {
      const named = await Promise.all(sentinelPorts.map((p) => ask(p, 'SENTINEL', 'get-master-addr-by-name', SENTINEL_NAME)));
      const ports = named.map((a) => (Array.isArray(a) ? Number(a[1]) : undefined));
      const server = servers.find((s) => s.port === ports[0]);
      if (server === undefined || !ports.every((p) => p === ports[0])) return false;
      const info = String(await server.command('INFO', 'replication').catch(() => ''));
      const known = await Promise.all(sentinelPorts.map((p) => ask(p, 'SENTINEL', 'sentinels', SENTINEL_NAME)));
      // Each Sentinel knows the two others (they vote on failovers), and a replica is in sync.
      return info.includes('role:master') && /slave\d+:.*state=online/.test(info) && known.every((k) => Array.isArray(k) && k.length === 2);
    }, ms);
  await settled(30_000);

  return {
    servers,
    sentinels: sentinelPorts.map((p) => `127.0.0.1:${p}`).join(','),
    config: (overrides = {}) => ({
      url: 'redis://127.0.0.1',
      topology: { kind: 'sentinel', sentinels: sentinelPorts.map((port) => ({ host: '127.0.0.1', port })), name: SENTINEL_NAME },
      prefix: `s${process.pid}-${++prefixes}:`,
      commandTimeoutMs: 500,
      clockSkewMs: 0,
      ...overrides,
    }),
    async primary() {
      const port = await primaryPort();
      return servers.find((s) => s.port === port)!;
    },
    settled,
    async close() {
      for (const c of children) c.kill('SIGKILL');
      await Promise.all(servers.map((s) => s.close()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
