/** Starts the server in-process on an ephemeral loopback port, and stops it. */
import { type Config, defaultConfig } from '../../src/config.js';
import { DEFAULT_TABLE } from '../../src/core/scoring/parseScoringConfig.js';
import { defaultTable } from '../../src/core/scoring/ScoringTable.js';
import type { ServerOptions } from '../../src/http/createServer.js';
import type { SiteRegistry } from '../../src/core/sites/SiteRegistry.js';
import { type RunningServer, startServer } from '../../src/http/startServer.js';
import { loadKernel } from '../../src/kernel/index.js';
import type { Kernel } from '../../src/kernel/types.js';
import { inject } from 'vitest';
import { MemoryStore } from '../../src/store/MemoryStore.js';
import { RedisStore } from '../../src/store/redis/RedisStore.js';
import { MessageChannel } from 'node:worker_threads';
import { LIST_METHODS } from '../../src/cli/startServerThreads.js';
import { answerOverPort } from '../../src/store/shared/answerOverPort.js';
import { callOverPort } from '../../src/store/shared/callOverPort.js';
import { type ListStore, SharedMemoryStore } from '../../src/store/shared/SharedMemoryStore.js';
import type { Store } from '../../src/store/Store.js';
import { sitesRegistry } from './sites.js';

export interface TestServer extends RunningServer {
  config: Config;
  /** The sites served (a sites file's, or the open default). */
  sites: SiteRegistry;
  kernel: Kernel;
  store: Store;
  /** The URL of a route at the root, e.g. url('/verify'). */
  at(path: string): string;
  /**
   * Moves the server's clock forward (it reads the given `now`, or real time, plus every
   * advance so far): /verify refuses a trace longer than the time since its challenge was issued.
   */
  advance(ms: number): void;
}

let kernel: Promise<Kernel> | undefined;

/** One kernel per test file. */
export function testKernel(): Promise<Kernel> {
  kernel ??= loadKernel();
  return kernel;
}

/** Scoring off: the synthetic traces of helpers/client.ts are scripted, and rightly score as such. */
export const SCORING_OFF: Config['scoring'] = { mode: 'off', threshold: defaultTable.threshold, table: DEFAULT_TABLE };

let prefixes = 0;

/**
 * The store of a test server: embedded, or with ARIADNE_TEST_STORE=redis (the `redis` test
 * project) a RedisStore on the project's redis-server under a key prefix of its own, or with
 * ARIADNE_TEST_STORE=shared (the `shared` project) the SharedMemoryStore of WORKERS > 1, its
 * lists owned behind a message port as a server thread sees them.
 */
async function testStore(now: () => number): Promise<Store> {
  if (process.env.ARIADNE_TEST_STORE === 'shared') {
    const { port1, port2 } = new MessageChannel();
    answerOverPort(port1, new MemoryStore({ maxMarkers: 1, maxCounters: 1, now }), LIST_METHODS);
    port1.unref();
    port2.unref();
    const memory = SharedMemoryStore.allocate({ maxMarkers: 100_000, maxCounters: 100_000, now });
    return new SharedMemoryStore({ memory, lists: callOverPort<ListStore, (typeof LIST_METHODS)[number]>(port2, LIST_METHODS), now });
  }
  if (process.env.ARIADNE_TEST_STORE === 'redis') {
    const prefix = `http${process.pid}-${++prefixes}:`;
    return RedisStore.open({ url: inject('redisUrl'), prefix, commandTimeoutMs: 2_000, clockSkewMs: 0, now });
  }
  return new MemoryStore({ maxMarkers: 100_000, maxCounters: 100_000, now });
}

/**
 * Test defaults: port 0 on 127.0.0.1, a low proof-of-work difficulty (solving is not what is
 * tested here), rate limiting off, scoring off (test/http/scoring.test.ts turns it on);
 * override anything.
 */
export async function startTestServer(
  overrides: Partial<Config> = {},
  opts: Omit<ServerOptions, 'config' | 'kernel'> & { /** A sites file's JSON, read under this server's config. */ sitesFile?: unknown } = {},
): Promise<TestServer> {
  const config = defaultConfig({ host: '127.0.0.1', port: 0, powDifficulty: 8, rateLimitPerMinute: 0, scoring: SCORING_OFF, ...overrides });
  const k = await testKernel();
  let offset = 0;
  const clock = opts.now ?? Date.now;
  const now = () => clock() + offset;
  const store = opts.store ?? (await testStore(now));
  const { sitesFile, ...rest } = opts;
  const sites = sitesFile === undefined ? opts.sites : sitesRegistry(sitesFile, config);
  const server = await startServer({ ...rest, ...(sites ? { sites } : {}), now, config, kernel: k, store });
  return {
    ...server,
    config,
    kernel: k,
    store,
    sites: server.sites,
    at: (path) => server.url + path,
    advance: (ms) => {
      // Whole milliseconds, as Date.now() gives: ids and expires_at carry integer times.
      offset += Math.ceil(ms);
    },
    close: async (graceMs) => {
      await server.close(graceMs);
      // A store the caller passed outlives the server (a restart with the same store).
      if (opts.store === undefined) await store.close();
    },
  };
}
