import { availableParallelism } from 'node:os';
import { pino, type Logger } from 'pino';
import uWS, { type TemplatedApp, type us_listen_socket } from 'uWebSockets.js';
import type { Config } from '../config.js';
import { challengeKeys } from '../core/challenge/challengeKeys.js';
import type { CoreContext, Passkeys } from '../core/context.js';
import { TraceFingerprints } from '../core/scoring/TraceFingerprints.js';
import { keyRing } from '../core/token/keys.js';
import { SiteRegistry } from '../core/sites/SiteRegistry.js';
import { defaultPolicy } from '../core/sites/SitePolicy.js';
import { siteverifyCallerFinder } from '../core/redeem/siteverifyCaller.js';
import type { SignatureVerifier } from '../core/verify/SignatureVerifier.js';
import { signatureVerifierFor } from '../core/verify/signatureVerifierFor.js';
import { loadKernel } from '../kernel/index.js';
import type { Kernel } from '../kernel/types.js';
import { combineHealth } from '../store/combineHealth.js';
import { DEFAULT_MAX_COUNTERS, DEFAULT_MAX_MARKERS, MemoryStore } from '../store/MemoryStore.js';
import type { Store, StoreHealth } from '../store/Store.js';
import { bearerCheck } from './bearer.js';
import { Metrics } from './metrics.js';
import { guardRequests } from './guard/guardRequests.js';
import { refuseClaimedPort } from './claimPort.js';
import { listenExclusive, listenShared } from './listenExclusive.js';
import type { GetRoute, PostRoute } from './route.js';
import { requestPipeline } from './requestPipeline.js';
import { mountFallbacks } from './mountFallbacks.js';
import { healthzRoute } from './routes/healthz.js';
import { readyzRoute } from './routes/readyz.js';
import { metricsRoute } from './routes/metrics.js';
import { openapiRoute } from './routes/openapi.js';
import { challengeRoute } from './routes/challenge.js';
import { probeArmRoute, probeCompleteRoute } from './routes/probe.js';
import { siteverifyRoute } from './routes/siteverify.js';
import { compatSiteverifyRoute } from './routes/compatSiteverify.js';
import { HCAPTCHA, RECAPTCHA, TURNSTILE } from './compat/dialects.js';
import { verifyRoute } from './routes/verify.js';
import { registerOptionsRoute, registerVerifyRoute } from './routes/webauthn.js';
import { privacyPassRoute } from './routes/privacyPass.js';
import { passkeyDoorRoute } from './routes/passkeyDoor.js';
import { compileSchemas } from './schemas.js';
import { buildOpenApiDocument } from './openapi/buildOpenApiDocument.js';
import { RouteTable } from './openapi/RouteTable.js';
import { mountDashboard } from './dashboard/mountDashboard.js';
import { TraceSampler } from '../core/traffic/TraceSampler.js';
import { KeyboardBudget } from '../core/keyboard/KeyboardBudget.js';
import { TrafficCounters } from '../core/traffic/TrafficCounters.js';
import { MemoryTrafficStore } from '../store/traffic/MemoryTrafficStore.js';
import type { TrafficStore } from '../store/traffic/TrafficStore.js';

export interface ServerOptions {
  config: Config;
  /** Default: an in-memory store owned (and closed) by the server. */
  store?: Store;
  /** Default: build/kernel.wasm. */
  kernel?: Kernel;
  /** Passkey settings and credentials; absent = passkeys off. */
  passkeys?: Passkeys;
  /**
   * The sites served (core/sites). Default: any site key under the one policy of `config` (with
   * the passkey settings of `passkeys`). Replace its contents to reload.
   */
  sites?: SiteRegistry;
  /** Where /verify's ECDSA checks run. Default: signatureVerifierFor(WORKERS, the cores available). */
  signatures?: SignatureVerifier;
  /** Clock in epoch ms (tests inject one). */
  now?: () => number;
  /** Default: silent. */
  logger?: Logger;
  /**
   * Listen with SO_REUSEPORT although SHARE_PORT is off: this server is one of the threads of a
   * process that holds the port alone (claimPort) and serves it from every thread.
   */
  threadOfPort?: boolean;
  /**
   * One of several threads serving the port: its series carry the label `thread`; GET /metrics
   * answers `allMetrics()` (the metrics of every thread) rather than its own alone, and /healthz
   * and /readyz answer `allHealth()` (the process's: not ok while any thread's store, or the
   * passkey credentials' store, cannot answer) rather than this thread's.
   */
  threadsOfProcess?: { thread: string; allMetrics(): Promise<string>; allHealth(): Promise<StoreHealth> };
  /**
   * Where the dashboard's counts (DASHBOARD_TOKEN) and the sampled traces (TRACE_SAMPLE_RATE)
   * are kept. Default, when either is on: an in-memory one owned (and closed) by the server.
   */
  traffic?: TrafficStore;
  /** Adds more routes (e.g. static assets) before the 404/405 fallback is installed. */
  mount?: (app: TemplatedApp, ctx: CoreContext) => void;
}

export interface AriadneServer {
  /** Starts listening; port 0 picks a free one. Resolves to the bound port. */
  listen(host: string, port: number): Promise<number>;
  /**
   * Graceful stop: closes the listener, lets in-flight requests finish (at most `graceMs`),
   * then closes the remaining connections and, if the server created it, the store.
   */
  close(graceMs?: number): Promise<void>;
  /** Every route registered, as (method, path): what GET /openapi.json is compared with. */
  readonly routes: RouteTable;
  /** The sites served (ServerOptions.sites, or the open default). */
  readonly sites: SiteRegistry;
  /** This server's metrics as prom-client JSON, for a thread that answers for all (aggregateMetrics). */
  metricsJson(): Promise<object[]>;
}

const METHODS_OF_GET_ROUTES = 'GET, OPTIONS';
const METHODS_OF_POST_ROUTES = 'POST, OPTIONS';

/** The uWebSockets.js server of every route, at the root and under API_PREFIX. */
export async function createServer(opts: ServerOptions): Promise<AriadneServer> {
  const { config } = opts;
  const log = opts.logger ?? pino({ enabled: false });
  const ownStore = opts.store === undefined;
  const store = opts.store ?? new MemoryStore({ maxMarkers: DEFAULT_MAX_MARKERS, maxCounters: DEFAULT_MAX_COUNTERS });
  const ring = keyRing(config.signingSecret, config.signingKeys);
  const metrics = new Metrics(opts.threadsOfProcess ? { thread: opts.threadsOfProcess.thread } : {});
  const scrape = opts.threadsOfProcess?.allMetrics ?? (() => metrics.registry.metrics());
  const credentialsHealth = opts.passkeys?.credentials.health?.bind(opts.passkeys.credentials);
  const health =
    opts.threadsOfProcess?.allHealth ??
    (credentialsHealth === undefined
      ? () => store.health()
      : async () =>
          combineHealth([
            ['store', await store.health()],
            ['passkey credentials', await credentialsHealth()],
          ]));
  const storeEvents = (store as Store).events?.bind(store);
  if (storeEvents !== undefined) metrics.watchStore(storeEvents);
  const sites =
    opts.sites ??
    new SiteRegistry({
      source: undefined,
      sites: undefined,
      fallback: defaultPolicy({ ...config, webauthn: opts.passkeys?.config ?? config.webauthn }),
      testKeys: config.testKeys,
    });
  const collecting = config.dashboardToken !== undefined || config.traces.sampleRate > 0;
  const ownTraffic = opts.traffic === undefined && collecting;
  const trafficStore = opts.traffic ?? (collecting ? new MemoryTrafficStore(config.traces, opts.now) : undefined);
  const traffic =
    config.dashboardToken !== undefined && trafficStore
      ? new TrafficCounters(trafficStore, { log, ...(opts.now ? { now: opts.now } : {}) })
      : undefined;
  const traces =
    config.traces.sampleRate > 0 && trafficStore ? new TraceSampler(trafficStore, config.traces.sampleRate, { log }) : undefined;
  const nowOf = opts.now ?? Date.now;
  const keyboardBudget = new KeyboardBudget(store, { minuteMs: config.keyboardBudgetMinuteMs, now: nowOf, log });
  const ctx: CoreContext = {
    config,
    sites,
    kernel: opts.kernel ?? (await loadKernel()),
    store,
    signatures: opts.signatures ?? signatureVerifierFor(config.workers, availableParallelism()),
    ring,
    challengeKeys: challengeKeys(ring.all.map((k) => k.value)),
    passkeys: opts.passkeys,
    fingerprints: new TraceFingerprints(store),
    log,
    onPowIssued: (d) => metrics.powIssued(d),
    traffic,
    traces,
    keyboardBudget,
    now: nowOf,
  };
  const schemas = compileSchemas(config.maxEvents);
  const routes = new RouteTable();
  const app = routes.recording(guardRequests(uWS.App()));
  const pipeline = requestPipeline(ctx, metrics);

  const callerOf = siteverifyCallerFinder(sites, config.siteverifyAuthToken);
  const postRoutes: PostRoute[] = [
    challengeRoute(schemas),
    probeArmRoute(schemas),
    probeCompleteRoute(schemas),
    verifyRoute(schemas),
    siteverifyRoute(schemas, callerOf, compatSiteverifyRoute(schemas, HCAPTCHA, callerOf)),
    compatSiteverifyRoute(schemas, RECAPTCHA, callerOf),
    compatSiteverifyRoute(schemas, TURNSTILE, callerOf),
    registerOptionsRoute(schemas),
    registerVerifyRoute(schemas),
    passkeyDoorRoute(schemas),
  ];
  let openapi: string | undefined;
  const getRoutes: GetRoute[] = [
    healthzRoute(health),
    readyzRoute(health),
    // An operator endpoint: behind SITEVERIFY_AUTH_TOKEN when one is set.
    metricsRoute(bearerCheck(config.siteverifyAuthToken), scrape, metrics.registry.contentType),
    openapiRoute(() => openapi),
    privacyPassRoute(ctx),
  ];

  const allowed = new Map<string, string>();
  for (const prefix of config.apiPrefix === '' ? [''] : ['', config.apiPrefix]) {
    for (const route of postRoutes) {
      app.post(prefix + route.path, pipeline.post(route));
      allowed.set(prefix + route.path, METHODS_OF_POST_ROUTES);
    }
    for (const route of getRoutes) {
      app.get(prefix + route.path, pipeline.get(route));
      allowed.set(prefix + route.path, METHODS_OF_GET_ROUTES);
    }
  }

  // What `mount` adds (the widget, the demo) is documented as it is registered.
  routes.mounting(() => {
    const { dashboardToken } = config;
    if (dashboardToken !== undefined && trafficStore !== undefined) {
      mountDashboard(app, {
        config: { ...config, dashboardToken },
        store,
        traffic: trafficStore,
        now: ctx.now,
        keyboardDoors: () => keyboardBudget.viewWith(ctx.sites.listedSites.map((site) => [site.key, site.policy.keyboard] as const)),
      });
    }
    opts.mount?.(app, ctx);
  });
  openapi = JSON.stringify(buildOpenApiDocument({ postRoutes, getRoutes, mounted: routes.mounted, apiPrefix: config.apiPrefix }));
  mountFallbacks(app, allowed, config.corsOrigins, metrics);

  let listenSocket: us_listen_socket | undefined;
  return {
    async listen(host, port) {
      // Sharing a port (SO_REUSEPORT) is an explicit choice, allowed with a shared store only,
      // and never beside a process that holds the port alone.
      if (config.store.sharePort && opts.threadOfPort !== true) await refuseClaimedPort(host, port);
      return new Promise((resolve, reject) => {
        (config.store.sharePort || opts.threadOfPort === true ? listenShared : listenExclusive)(app, host, port, (socket) => {
          if (socket === false) {
            reject(new Error(`could not listen on ${host}:${port} (is another process using the port?)`));
            return;
          }
          listenSocket = socket;
          const bound = uWS.us_socket_local_port(socket as unknown as uWS.us_socket);
          log.info({ host, port: bound }, 'listening');
          resolve(bound);
        });
      });
    },
    routes,
    sites,
    metricsJson: () => metrics.registry.getMetricsAsJSON(),
    async close(graceMs = 10_000) {
      pipeline.closing();
      if (listenSocket !== undefined) uWS.us_listen_socket_close(listenSocket);
      listenSocket = undefined;
      await pipeline.drained(graceMs);
      // Let the event loop flush the last answers before the remaining sockets are cut.
      await new Promise((r) => setImmediate(r));
      (app as TemplatedApp & { close(): void }).close();
      keyboardBudget.close();
      await traffic?.close();
      if (ownTraffic) await trafficStore?.close();
      if (ownStore) await store.close();
      log.info('closed');
    },
  };
}
