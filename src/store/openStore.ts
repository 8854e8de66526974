import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { DEFAULT_MAX_COUNTERS, DEFAULT_MAX_MARKERS, MemoryStore } from './MemoryStore.js';
import type { Store } from './Store.js';
import type { CredentialStore } from './credentials/CredentialStore.js';
import { openFileCredentialStore } from './credentials/FileCredentialStore.js';
import { type ListStore, SharedMemoryStore, type SharedStoreMemory } from './shared/SharedMemoryStore.js';
import { MemoryTrafficStore } from './traffic/MemoryTrafficStore.js';
import type { TrafficStore } from './traffic/TrafficStore.js';

/** The TrafficStore of STORE: Redis (shared by every node), else this process's memory. */
export async function openTrafficStore(config: Config): Promise<TrafficStore> {
  if (config.store.kind !== 'redis') return new MemoryTrafficStore(config.traces);
  const { RedisTrafficStore } = await import('./traffic/RedisTrafficStore.js');
  return RedisTrafficStore.open(config.store.redis, config.traces);
}

export interface OpenedStores {
  store: Store;
  /** Passkey credentials; undefined when passkeys are off. */
  credentials: CredentialStore | undefined;
  /**
   * With `threads` and STORE=memory: what the serving threads share (the tables' memory) and
   * the lists this thread keeps for them.
   */
  shared: { memory: SharedStoreMemory; lists: ListStore } | undefined;
  /**
   * With DASHBOARD_TOKEN or TRACE_SAMPLE_RATE: where counts and traces are kept (this process's
   * memory, or Redis with STORE=redis); else undefined.
   */
  traffic: TrafficStore | undefined;
  close(): Promise<void>;
}

/**
 * The stores the configuration asks for: STORE (memory or redis) for short-lived state and, when
 * `passkeys` (any site uses them), CREDENTIALS (a file under DATA_DIR or redis). A Redis that does not answer
 * yet is no reason not to start: requests that need it answer 503 until it does. With `threads`
 * (WORKERS > 1) the embedded store is a SharedMemoryStore. Throws an Error with a message for
 * the operator when the credential file cannot be opened.
 */
export async function openStore(config: Config, log: Logger, opts: { passkeys: boolean; threads?: boolean }): Promise<OpenedStores> {
  const { store: storeConfig } = config;
  let store: Store;
  let shared: OpenedStores['shared'];
  if (storeConfig.kind === 'redis') {
    const { RedisStore } = await import('./redis/RedisStore.js'); // ioredis, loaded only when used: ~10 MiB of heap
    const redis = await RedisStore.open(storeConfig.redis);
    const health = await redis.health();
    if (!health.ok)
      log.error({ detail: health.detail }, 'Redis store not usable yet: /verify, /probe/* and /siteverify answer 503 until it is');
    store = redis;
  } else if (opts.threads === true) {
    // The lists only: markers and counters live in the shared tables.
    const lists = new MemoryStore({ maxMarkers: 1, maxCounters: 1 });
    shared = { memory: SharedMemoryStore.allocate({ maxMarkers: DEFAULT_MAX_MARKERS, maxCounters: DEFAULT_MAX_COUNTERS }), lists };
    store = new SharedMemoryStore(shared);
  } else {
    store = new MemoryStore({ maxMarkers: DEFAULT_MAX_MARKERS, maxCounters: DEFAULT_MAX_COUNTERS });
  }

  let credentials: CredentialStore | undefined;
  if (opts.passkeys && storeConfig.credentials === 'redis') {
    const { RedisCredentialStore } = await import('./credentials/RedisCredentialStore.js');
    const opened = await RedisCredentialStore.open(storeConfig.redis);
    if (opened.durable === false) {
      log.warn('Redis has appendonly off: passkey credentials are lost when Redis restarts. Set appendonly yes and appendfsync always.');
    }
    credentials = opened.store;
  } else if (opts.passkeys) {
    credentials = await openFileCredentialStore(config.dataDir).catch((e: unknown) => {
      throw new Error(`Cannot open the passkey credentials in DATA_DIR=${config.dataDir}: ${e instanceof Error ? e.message : String(e)}`);
    });
  }
  const traffic = config.dashboardToken !== undefined || config.traces.sampleRate > 0 ? await openTrafficStore(config) : undefined;
  return {
    store,
    credentials,
    shared,
    traffic,
    close: async () => {
      await traffic?.close();
      await store.close();
      await credentials?.close();
    },
  };
}
