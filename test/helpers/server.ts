/** Starts the server in-process on an ephemeral loopback port, and stops it. */
import { type Config, defaultConfig } from '../../src/config.js';
import { DEFAULT_TABLE } from '../../src/core/scoring/parseScoringConfig.js';
import { defaultTable } from '../../src/core/scoring/ScoringTable.js';
import type { ServerOptions } from '../../src/http/createServer.js';
import { SiteRegistry, type SitesChange, type SitesSnapshot } from '../../src/core/sites/SiteRegistry.js';
import { aggregateMetrics } from '../../src/http/aggregateMetrics.js';
import { processHealth } from '../../src/cli/processHealth.js';
import { claimPort } from '../../src/http/claimPort.js';
import { type RunningServer, startServer } from '../../src/http/startServer.js';
import { loadKernel } from '../../src/kernel/index.js';
import type { Kernel } from '../../src/kernel/types.js';
import { inject } from 'vitest';
import { MemoryStore } from '../../src/store/MemoryStore.js';
import { RedisStore } from '../../src/store/redis/RedisStore.js';
import { LIST_METHODS } from '../../src/cli/startServerThreads.js';
import { servedOverPort } from '../../src/store/shared/answerOverPort.js';
import { callOverPort } from '../../src/store/shared/callOverPort.js';
import { type ListStore, SharedMemoryStore, type SharedStoreMemory } from '../../src/store/shared/SharedMemoryStore.js';
import type { Store } from '../../src/store/Store.js';
import { MemoryTrafficStore } from '../../src/store/traffic/MemoryTrafficStore.js';
import { RedisTrafficStore } from '../../src/store/traffic/RedisTrafficStore.js';
import type { TrafficStore } from '../../src/store/traffic/TrafficStore.js';
import { type SecondThread, startSecondServerThread } from './secondServerThread.js';
import { sitesSnapshot } from './sites.js';

export interface TestServer extends Omit<RunningServer, 'sites'> {
  config: Config;
  /** The sites served (a sites file's, or the open default): `replace` reaches every thread. */
  sites: { replace(snapshot: SitesSnapshot): Promise<SitesChange> };
  kernel: Kernel;
  store: Store;
  /** Where the dashboard's counts and sampled traces are kept (with DASHBOARD_TOKEN or TRACE_SAMPLE_RATE). */
  traffic: TrafficStore | undefined;
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

/** The shared tables of WORKERS > 1, and the owner of their lists (a thread serves them to the others). */
function sharedStore(now: () => number): { store: SharedMemoryStore; memory: SharedStoreMemory; lists: MemoryStore } {
  const lists = new MemoryStore({ maxMarkers: 1, maxCounters: 1, now });
  const memory = SharedMemoryStore.allocate({ maxMarkers: 100_000, maxCounters: 100_000, now });
  const store = new SharedMemoryStore({
    memory,
    lists: callOverPort<ListStore, (typeof LIST_METHODS)[number]>(servedOverPort(lists, LIST_METHODS), LIST_METHODS),
    now,
  });
  return { store, memory, lists };
}

/**
 * The store of a test server: embedded, or with ARIADNE_TEST_STORE=redis (the `redis` test
 * project) a RedisStore on the project's redis-server under a key prefix of its own.
 */
async function testStore(now: () => number): Promise<Store> {
  if (process.env.ARIADNE_TEST_STORE === 'redis') {
    const prefix = `http${process.pid}-${++prefixes}:`;
    return RedisStore.open({ url: inject('redisUrl'), prefix, commandTimeoutMs: 2_000, clockSkewMs: 0, now });
  }
  return new MemoryStore({ maxMarkers: 100_000, maxCounters: 100_000, now });
}

/**
 * The TrafficStore of a test server that collects (DASHBOARD_TOKEN, TRACE_SAMPLE_RATE): in memory,
 * or with ARIADNE_TEST_STORE=redis on the project's redis-server under a key prefix of its own.
 */
async function testTraffic(config: Config, now: () => number): Promise<TrafficStore | undefined> {
  if (config.dashboardToken === undefined && config.traces.sampleRate === 0) return undefined;
  if (process.env.ARIADNE_TEST_STORE === 'redis') {
    const prefix = `traffic${process.pid}-${++prefixes}:`;
    return RedisTrafficStore.open({ url: inject('redisUrl'), prefix, commandTimeoutMs: 2_000, clockSkewMs: 0 }, config.traces);
  }
  return new MemoryTrafficStore(config.traces, now);
}

type TestServerOptions = Omit<ServerOptions, 'config' | 'kernel'> & {
  /** A sites file's JSON, read under this server's config. */ sitesFile?: unknown;
};

/**
 * With ARIADNE_TEST_WORKERS=2 (the `workers` test project) a test server is two serving threads
 * on one port and the shared store, as `WORKERS=2` runs: this one and a worker thread
 * (secondServerThread.ts). What cannot cross to another thread keeps a server on this one: a
 * store, logger, mount, signature verifier or site registry of the test's own, or a fixed port
 * (the tests of port sharing).
 */
function crossesThreads(config: Config, opts: TestServerOptions): boolean {
  const own = opts.store ?? opts.logger ?? opts.mount ?? opts.signatures ?? opts.sites;
  return own === undefined && config.port === 0;
}

/**
 * `fn` against a test server (startTestServer with `overrides` and `opts`), closed however `fn`
 * ends: the try/finally every test with a server of its own would otherwise write.
 */
export async function withServer<T>(overrides: Partial<Config>, fn: (server: TestServer) => Promise<T>): Promise<T>;
export async function withServer<T>(
  overrides: Partial<Config>,
  opts: TestServerOptions,
  fn: (server: TestServer) => Promise<T>,
): Promise<T>;
export async function withServer<T>(
  overrides: Partial<Config>,
  optsOrFn: TestServerOptions | ((server: TestServer) => Promise<T>),
  fn?: (server: TestServer) => Promise<T>,
): Promise<T> {
  const [opts, run] = typeof optsOrFn === 'function' ? [{}, optsOrFn] : [optsOrFn, fn!];
  const server = await startTestServer(overrides, opts);
  try {
    return await run(server);
  } finally {
    await server.close();
  }
}

/**
 * Test defaults: port 0 on 127.0.0.1, a low proof-of-work difficulty (solving is not what is
 * tested here), rate limiting off, scoring off (test/http/scoring.test.ts turns it on);
 * override anything.
 */
export async function startTestServer(overrides: Partial<Config> = {}, opts: TestServerOptions = {}): Promise<TestServer> {
  const config = defaultConfig({ host: '127.0.0.1', port: 0, powDifficulty: 8, rateLimitPerMinute: 0, scoring: SCORING_OFF, ...overrides });
  const k = await testKernel();
  let offset = 0;
  const clock = opts.now ?? Date.now;
  const now = () => clock() + offset;
  const shared = process.env.ARIADNE_TEST_WORKERS === '2' && opts.store === undefined ? sharedStore(now) : undefined;
  const threads = shared !== undefined && crossesThreads(config, opts);
  const store = opts.store ?? shared?.store ?? (await testStore(now));
  const traffic = opts.traffic ?? (await testTraffic(config, now));
  const { sitesFile, ...rest } = opts;
  const snapshot = sitesFile === undefined ? undefined : sitesSnapshot(sitesFile, config);
  const sites = snapshot ? new SiteRegistry(snapshot) : opts.sites;
  let second: SecondThread | undefined;
  // Both threads listen on a port claimed first, as `npm start` does with WORKERS > 1.
  const claimed = threads ? await claimPort(config.host, 0) : undefined;
  const server = await startServer({
    ...rest,
    ...(sites ? { sites } : {}),
    now,
    config: claimed ? { ...config, port: claimed.port } : config,
    kernel: k,
    store,
    ...(traffic ? { traffic } : {}),
    ...(threads
      ? { threadOfPort: true, threadsOfProcess: { thread: '1', allMetrics: () => bothMetrics(), allHealth: () => bothHealth() } }
      : {}),
  });
  const bothMetrics = async () => aggregateMetrics([await server.metricsJson(), await second!.metricsJson()]);
  // As the main thread of a process answers: both threads' stores, and the passkey credentials it keeps.
  const bothHealth = async () => processHealth([await store.health(), await second!.health()], opts.passkeys?.credentials);
  if (threads) {
    second = await startSecondServerThread({
      config: { ...config, port: server.port },
      sites: snapshot,
      memory: shared.memory,
      lists: shared.lists,
      traffic,
      passkeys: opts.passkeys,
      now,
      first: { allMetrics: bothMetrics, allHealth: bothHealth },
    });
  }
  return {
    ...server,
    config,
    kernel: k,
    store,
    traffic,
    sites: {
      async replace(next) {
        await second?.replaceSites(next);
        return server.sites.replace(next);
      },
    },
    at: (path) => server.url + path,
    advance: (ms) => {
      // Whole milliseconds, as Date.now() gives: ids and expires_at carry integer times.
      offset += Math.ceil(ms);
    },
    close: async (graceMs) => {
      // Both threads stop together, each letting its requests in flight finish.
      await Promise.all([second?.stop(graceMs), server.close(graceMs)]);
      claimed?.release();
      // A store the caller passed outlives the server (a restart with the same store).
      if (opts.store === undefined) await store.close();
      if (opts.traffic === undefined) await traffic?.close();
    },
  };
}
