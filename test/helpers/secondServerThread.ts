/**
 * The second serving thread of a test server under ARIADNE_TEST_WORKERS=2 (startTestServer): the
 * first thread's routes on its port and shared store, on the test's clock, in a worker thread of
 * its own, as a `WORKERS=2` process runs them.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { Config } from '../../src/config.js';
import type { Passkeys } from '../../src/core/context.js';
import type { SitesSnapshot } from '../../src/core/sites/SiteRegistry.js';
import { CREDENTIAL_METHODS, LIST_METHODS } from '../../src/cli/startServerThreads.js';
import { servedOverPort } from '../../src/store/shared/answerOverPort.js';
import { callOverPort } from '../../src/store/shared/callOverPort.js';
import type { ListStore, SharedStoreMemory } from '../../src/store/shared/SharedMemoryStore.js';
import type { StoreHealth } from '../../src/store/Store.js';
import { threadOfModule } from '../../src/threadOfModule.js';
import { TRAFFIC_METHODS, type TrafficStore } from '../../src/store/traffic/TrafficStore.js';
import { type SharedTestClock, shareTestClock } from './testClock.js';

/** What the thread starts from (workerData of secondServerThreadMain.ts). */
export interface SecondThreadData {
  /** With `port` the one the first thread listens on. */
  config: Config;
  /** The sites file's snapshot; absent: the one policy of `config`, as the first thread. */
  sites: SitesSnapshot | undefined;
  memory: SharedStoreMemory;
  lists: MessagePort;
  /** The first thread's TrafficStore, when the server collects. */
  traffic: MessagePort | undefined;
  passkeys: { config: Passkeys['config']; credentials: MessagePort } | undefined;
  clock: SharedTestClock;
  /** Calls FirstThread's methods. */
  first: MessagePort;
  /** Answers SecondThread's methods. */
  control: MessagePort;
}

/** What the second thread asks of the first: the /metrics and the store health of both threads. */
export interface FirstThread {
  allMetrics(): Promise<string>;
  allHealth(): Promise<StoreHealth>;
}

export const FIRST_THREAD_METHODS = ['allMetrics', 'allHealth'] as const;

/** The second thread, driven from the first. */
export interface SecondThread {
  /** Serves `snapshot` from now on; resolves once it does. */
  replaceSites(snapshot: SitesSnapshot): Promise<void>;
  /** Its metrics (prom-client JSON). */
  metricsJson(): Promise<object[]>;
  /** Its store's health. */
  health(): Promise<StoreHealth>;
  /** Stops serving (requests in flight get at most `graceMs`, default the server's); resolves once the thread has exited. */
  stop(graceMs?: number): Promise<void>;
}

export const SECOND_THREAD_METHODS = ['replaceSites', 'metricsJson', 'health', 'stop'] as const;

export interface SecondThreadOptions {
  config: Config;
  sites: SitesSnapshot | undefined;
  memory: SharedStoreMemory;
  /** The lists' owner, on this thread. */
  lists: ListStore;
  traffic: TrafficStore | undefined;
  passkeys: Passkeys | undefined;
  now: () => number;
  first: FirstThread;
}

/** Starts the thread; resolves once it listens. A thread that fails later makes `stop` reject. */
export async function startSecondServerThread(opts: SecondThreadOptions): Promise<SecondThread> {
  const clock = shareTestClock(opts.now);
  const control = new MessageChannel();
  const data: SecondThreadData = {
    config: opts.config,
    sites: opts.sites,
    memory: opts.memory,
    lists: servedOverPort(opts.lists, LIST_METHODS),
    traffic: opts.traffic && servedOverPort(opts.traffic, TRAFFIC_METHODS),
    passkeys: opts.passkeys && { config: opts.passkeys.config, credentials: servedOverPort(opts.passkeys.credentials, CREDENTIAL_METHODS) },
    clock: clock.clock,
    first: servedOverPort(opts.first, FIRST_THREAD_METHODS),
    control: control.port2,
  };
  const ports = [data.lists, data.traffic, data.passkeys?.credentials, data.clock.port, data.first, data.control].filter(
    (p) => p !== undefined,
  );
  const worker = threadOfModule(import.meta.url, 'secondServerThreadMain', { workerData: data, transferList: ports });
  let failure: Error | undefined;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('error', (e) => (failure ??= e));
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the second server thread exited with code ${code} while starting`)));
  });
  control.port1.unref();
  const thread = callOverPort<SecondThread, (typeof SECOND_THREAD_METHODS)[number]>(control.port1, SECOND_THREAD_METHODS);
  return {
    replaceSites: (snapshot) => thread.replaceSites(snapshot),
    metricsJson: () => thread.metricsJson(),
    health: () => thread.health(),
    async stop(graceMs) {
      // A thread that already failed cannot answer: its exit ends the wait too.
      await Promise.race([thread.stop(graceMs), exited]);
      await exited;
      clock.close();
      if (failure) throw failure;
    },
  };
}
