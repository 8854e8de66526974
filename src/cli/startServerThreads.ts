import type { MessagePort, Worker } from 'node:worker_threads';
import type { Config } from '../config.js';
import type { SitesSnapshot } from '../core/sites/SiteRegistry.js';
import type { CredentialStore } from '../store/credentials/CredentialStore.js';
import type { ListStore, SharedStoreMemory } from '../store/shared/SharedMemoryStore.js';
import { servedOverPort } from '../store/shared/answerOverPort.js';
import { threadOfModule } from '../threadOfModule.js';
import { TRAFFIC_METHODS, type TrafficStore } from '../store/traffic/TrafficStore.js';
import { YOUNG_GENERATION_MIB } from './heapBounds.js';
import { aggregateMetrics } from '../http/aggregateMetrics.js';
import { PART_SLACK_MS, answerGatherings } from './answerGatherings.js';
import { nextMessage } from './nextMessage.js';
import { processHealth } from './processHealth.js';
import type { FromServerThread, ToServerThread } from './threadMessages.js';
import { type Supervision, superviseThread } from './superviseThread.js';

/** What a server thread starts from (workerData of serverThread.ts). */
export interface ServerThreadData {
  /** The configuration, with `port` the one this process claimed. */
  config: Config;
  sites: SitesSnapshot;
  /** STORE=memory: the shared tables, and the port to the lists' owner. Absent: each thread opens Redis. */
  memory: { tables: SharedStoreMemory; lists: MessagePort } | undefined;
  /** Passkeys on: the port to the credential store's owner. */
  credentials: MessagePort | undefined;
  /**
   * Dashboard or sampling on: with STORE=memory the port to the process's TrafficStore (kept by
   * the main thread); with STORE=redis true (each thread opens its own); else undefined.
   */
  traffic: MessagePort | true | undefined;
  /** Whether the process logs to a terminal (readable lines) or not (JSON lines). */
  terminal: boolean;
  /** The thread's number, 1 to WORKERS: its metrics' `thread` label. */
  thread: number;
}

export interface ServerThreadsOptions {
  /** Threads to start (WORKERS). */
  count: number;
  config: Config;
  sites: SitesSnapshot;
  /** STORE=memory: what the threads share (openStore with `threads`). */
  shared: { memory: SharedStoreMemory; lists: ListStore } | undefined;
  /** Kept by this thread and served to the others over message ports. */
  credentials: CredentialStore | undefined;
  /** The dashboard's counts and the sampled traces (see ServerThreadData.traffic). */
  traffic: TrafficStore | undefined;
  /** Called once when a thread dies after all started (see superviseThread). */
  onCrash(message: string): void;
}

export interface ServerThreads {
  /** Serves `snapshot` on every thread from now on (the SIGHUP reload); resolves once all do. */
  replaceSites(snapshot: SitesSnapshot): Promise<void>;
  /**
   * Every thread finishes its requests in flight (for at most `graceMs`, default the server's)
   * and stops; resolves when all have exited.
   */
  stop(graceMs?: number): Promise<void>;
}

/** What a thread may call on the owners: the lists, and the credentials except `close`. */
export const LIST_METHODS = ['append', 'lists'] as const;
export const CREDENTIAL_METHODS = ['add', 'listFor', 'get', 'advanceCounter'] as const;

/**
 * Starts `count` server threads (serverThread.ts), each serving every route on config.port
 * (claimed by this process first, see claimPort) with its own kernel. Resolves once all
 * listen; rejects when one fails to start (the others are stopped).
 */
export async function startServerThreads(opts: ServerThreadsOptions): Promise<ServerThreads> {
  let stopping = false;
  let started = false;
  const supervision: Supervision = { stopping: () => stopping || !started, onCrash: opts.onCrash };
  const threads = Array.from({ length: opts.count }, (_, i) => {
    const lists = opts.shared && servedOverPort(opts.shared.lists, LIST_METHODS);
    const credentials = opts.credentials && servedOverPort(opts.credentials, CREDENTIAL_METHODS);
    const traffic = opts.traffic && (opts.config.store.kind === 'redis' ? true : servedOverPort(opts.traffic, TRAFFIC_METHODS));
    const data: ServerThreadData = {
      config: opts.config,
      sites: opts.sites,
      memory: opts.shared && lists && { tables: opts.shared.memory, lists },
      credentials,
      traffic,
      terminal: process.stdout.isTTY === true,
      thread: i + 1,
    };
    const worker = threadOfModule(import.meta.url, 'serverThread', {
      workerData: data,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MIB },
      transferList: [lists, credentials, traffic].filter((p): p is MessagePort => p !== undefined && p !== true),
    });
    superviseThread(worker, `server thread ${i + 1} of ${opts.count}`, supervision);
    return worker;
  });
  const listening = (worker: Worker, i: number) =>
    new Promise<void>((resolve, reject) => {
      worker.on('message', (m: FromServerThread) => m.type === 'listening' && resolve());
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`server thread ${i + 1} exited with code ${code} while starting`)));
    });
  try {
    await Promise.all(threads.map(listening));
  } catch (e) {
    stopping = true;
    await Promise.all(threads.map((w) => w.terminate()));
    throw e;
  }
  started = true;
  const send = (m: ToServerThread) => threads.forEach((w) => w.postMessage(m));
  answerGatherings(
    threads,
    {
      metrics: (parts) => aggregateMetrics(parts.filter((p) => p !== undefined)),
      health: (parts) => processHealth(parts, opts.credentials),
    },
    (opts.config.store.kind === 'redis' ? opts.config.store.redis.commandTimeoutMs : 0) + PART_SLACK_MS,
  );
  let sitesVersion = 0;
  const applied = (worker: Worker, version: number) =>
    nextMessage(
      worker,
      (m): m is Extract<FromServerThread, { type: 'sites-applied' }> => m.type === 'sites-applied' && m.version === version,
    );
  return {
    async replaceSites(snapshot) {
      const version = ++sitesVersion;
      const all = Promise.all(threads.map((w) => applied(w, version)));
      send({ type: 'sites', snapshot, version });
      await all;
    },
    async stop(graceMs) {
      stopping = true;
      const exited = threads.map((w) => new Promise((resolve) => (w.threadId === -1 ? resolve(undefined) : w.once('exit', resolve))));
      send(graceMs === undefined ? { type: 'stop' } : { type: 'stop', graceMs });
      await Promise.all(exited);
    },
  };
}
