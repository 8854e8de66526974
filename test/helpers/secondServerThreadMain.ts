/** The module the second serving thread of a test server runs (secondServerThread.ts). */
import { parentPort, workerData } from 'node:worker_threads';
import { CREDENTIAL_METHODS, LIST_METHODS } from '../../src/cli/startServerThreads.js';
import { SiteRegistry } from '../../src/core/sites/SiteRegistry.js';
import { startServer } from '../../src/http/startServer.js';
import { loadKernel } from '../../src/kernel/index.js';
import type { CredentialStore } from '../../src/store/credentials/CredentialStore.js';
import { answerOverPort } from '../../src/store/shared/answerOverPort.js';
import { callOverPort } from '../../src/store/shared/callOverPort.js';
import { type ListStore, SharedMemoryStore } from '../../src/store/shared/SharedMemoryStore.js';
import {
  FIRST_THREAD_METHODS,
  type FirstThread,
  SECOND_THREAD_METHODS,
  type SecondThread,
  type SecondThreadData,
} from './secondServerThread.js';
import { readTestClock } from './testClock.js';
import { TRAFFIC_METHODS, type TrafficStore } from '../../src/store/traffic/TrafficStore.js';

const data = workerData as SecondThreadData;
const now = readTestClock(data.clock);
const first = callOverPort<FirstThread, (typeof FIRST_THREAD_METHODS)[number]>(data.first, FIRST_THREAD_METHODS);
const credentials: CredentialStore | undefined = data.passkeys && {
  ...callOverPort<CredentialStore, (typeof CREDENTIAL_METHODS)[number]>(data.passkeys.credentials, CREDENTIAL_METHODS),
  // The first thread's test owns the store and closes it.
  close: async () => {},
};
const store = new SharedMemoryStore({
  memory: data.memory,
  lists: callOverPort<ListStore, (typeof LIST_METHODS)[number]>(data.lists, LIST_METHODS),
  now,
});
const server = await startServer({
  config: data.config,
  store,
  kernel: await loadKernel(),
  now,
  ...(data.sites ? { sites: new SiteRegistry(data.sites) } : {}),
  ...(data.traffic
    ? { traffic: { ...callOverPort<TrafficStore, (typeof TRAFFIC_METHODS)[number]>(data.traffic, TRAFFIC_METHODS), close: async () => {} } }
    : {}),
  ...(data.passkeys && credentials ? { passkeys: { config: data.passkeys.config, credentials } } : {}),
  threadOfPort: true,
  threadsOfProcess: { thread: '2', allMetrics: () => first.allMetrics(), allHealth: () => first.allHealth() },
});
const self: SecondThread = {
  async replaceSites(snapshot) {
    server.sites.replace(snapshot);
  },
  metricsJson: () => server.metricsJson(),
  health: () => store.health(),
  async stop(graceMs) {
    await server.close(graceMs);
    // After the answer is posted: the first thread waits for this thread's exit.
    setImmediate(() => process.exit(0));
  },
};
answerOverPort(data.control, self, SECOND_THREAD_METHODS);
parentPort!.postMessage('listening');
