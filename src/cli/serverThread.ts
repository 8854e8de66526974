/**
 * A server thread (startServerThreads): the full server on the port its process claimed, with
 * its own kernel and signature worker, on the store every thread shares.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { SiteRegistry } from '../core/sites/SiteRegistry.js';
import type { CredentialStore } from '../store/credentials/CredentialStore.js';
import { callOverPort } from '../store/shared/callOverPort.js';
import { type ListStore, SharedMemoryStore } from '../store/shared/SharedMemoryStore.js';
import type { Store } from '../store/Store.js';
import { openTrafficStore } from '../store/openStore.js';
import { TRAFFIC_METHODS, type TrafficStore } from '../store/traffic/TrafficStore.js';
import { createLogger } from './createLogger.js';
import { serveHere } from './serveHere.js';
import { CREDENTIAL_METHODS, LIST_METHODS, type ServerThreadData } from './startServerThreads.js';
import type { FromServerThread, Gathering, Gatherings, ToServerThread } from './threadMessages.js';

const data = workerData as ServerThreadData;
const { config } = data;
const log = createLogger(config.logLevel, process.stdout, data.terminal).child({ thread: data.thread });
const store: Store = data.memory
  ? new SharedMemoryStore({
      memory: data.memory.tables,
      lists: callOverPort<ListStore, (typeof LIST_METHODS)[number]>(data.memory.lists, LIST_METHODS),
    })
  : await (await import('../store/redis/RedisStore.js')).RedisStore.open(config.store.redis);
const credentials: CredentialStore | undefined = data.credentials && {
  ...callOverPort<CredentialStore, (typeof CREDENTIAL_METHODS)[number]>(data.credentials, CREDENTIAL_METHODS),
  // The owner thread closes the store itself.
  close: async () => {},
};
const traffic: TrafficStore | undefined =
  data.traffic === true
    ? await openTrafficStore(config)
    : data.traffic && {
        ...callOverPort<TrafficStore, (typeof TRAFFIC_METHODS)[number]>(data.traffic, TRAFFIC_METHODS),
        // The main thread keeps (and closes) the store.
        close: async () => {},
      };
const sites = new SiteRegistry(data.sites);
const tell = (m: FromServerThread) => parentPort!.postMessage(m);
// Requests that need every thread (GET /metrics, /readyz), waiting for their whole, by id.
const gatherings = new Map<number, (whole: unknown) => void>();
let nextGathering = 0;
function gather<K extends Gathering>(of: K): Promise<Gatherings[K]['whole']> {
  return new Promise((resolve) => {
    const id = nextGathering++;
    gatherings.set(id, resolve as (whole: unknown) => void);
    tell({ type: 'gather', of, id });
  });
}
const server = await serveHere({
  config,
  sites,
  store,
  credentials,
  traffic,
  log,
  threadOfPort: true,
  threadsOfProcess: { thread: String(data.thread), allMetrics: () => gather('metrics'), allHealth: () => gather('health') },
});

/**
 * An uncaught error leaves this thread, and what it shares with the others, in an unknown state:
 * it reports the error, cuts its connections and exits, and the main thread ends the process. Left
 * to die with its sockets open, the thread would end its event loop under uWebSockets.js's handles,
 * which aborts the whole process in native code.
 */
let crashed = false;
function crash(error: unknown): void {
  if (crashed) return;
  crashed = true;
  tell({ type: 'crashed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  void server.close(0).finally(() => process.exit(1));
}
process.on('uncaughtException', crash);
process.on('unhandledRejection', crash);

parentPort!.on('message', (m: ToServerThread) => {
  switch (m.type) {
    case 'stop':
      return void stop(m.graceMs);
    case 'sites':
      sites.replace(m.snapshot);
      return tell({ type: 'sites-applied', version: m.version });
    case 'part':
      return void (m.of === 'metrics'
        ? server.metricsJson().then((part) => tell({ type: 'part', of: 'metrics', id: m.id, part }))
        : store.health().then((part) => tell({ type: 'part', of: 'health', id: m.id, part })));
    case 'gathered':
      gatherings.get(m.id)?.(m.whole);
      gatherings.delete(m.id);
  }
});
tell({ type: 'listening' });

async function stop(graceMs?: number): Promise<void> {
  await server.close(graceMs);
  await store.close();
  await traffic?.close();
  process.exit(0);
}
