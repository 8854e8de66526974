import { availableParallelism } from 'node:os';
import { pino, type Logger } from 'pino';
import uWS, { type HttpRequest, type HttpResponse, type TemplatedApp, type us_listen_socket } from 'uWebSockets.js';
import type { Config } from '../config.js';
import { challengeKeys } from '../core/challenge/challengeKeys.js';
import type { CoreContext, Passkeys } from '../core/context.js';
import { type Failure, failure } from '../core/errors.js';
import { bindingFromAddress, checkRateLimit } from '../core/rateLimit.js';
import { TraceFingerprints } from '../core/scoring/TraceFingerprints.js';
import { keyRing } from '../core/token/keys.js';
import { SiteRegistry } from '../core/sites/SiteRegistry.js';
import { defaultPolicy } from '../core/sites/SitePolicy.js';
import { siteverifyCallerFinder } from '../core/redeem/siteverifyCaller.js';
import type { SignatureVerifier } from '../core/verify/SignatureVerifier.js';
import { signatureVerifierFor } from '../core/verify/signatureVerifierFor.js';
import { loadKernel } from '../kernel/index.js';
import type { Kernel } from '../kernel/types.js';
import { DEFAULT_MAX_COUNTERS, DEFAULT_MAX_MARKERS, MemoryStore } from '../store/MemoryStore.js';
import { type Store, StoreUnavailableError } from '../store/Store.js';
import { BEARER_CHALLENGE, bearerCheck } from './bearer.js';
import { type Header, PREFLIGHT, corsHeaders } from './cors.js';
import { Metrics, type RouteMetrics } from './metrics.js';
import { parseJson } from './parseJson.js';
import { peerAddress } from './peerAddress.js';
import { guardRequests } from './guard/guardRequests.js';
import { refuseClaimedPort } from './claimPort.js';
import { listenExclusive, listenShared } from './listenExclusive.js';
import { afterBody } from './afterBody.js';
import { FORM_TYPE, mediaType } from './mediaType.js';
import { readBody } from './readBody.js';
import { JSON_TYPE, type Reply, writeReply } from './reply.js';
import { type PostRoute, type RequestInfo, plainFailure } from './route.js';
import { challengeRoute } from './routes/challenge.js';
import { probeArmRoute, probeCompleteRoute } from './routes/probe.js';
import { siteverifyRoute } from './routes/siteverify.js';
import { compatSiteverifyRoute } from './routes/compatSiteverify.js';
import { HCAPTCHA, RECAPTCHA, TURNSTILE } from './compat/dialects.js';
import { verifyRoute } from './routes/verify.js';
import { registerOptionsRoute, registerVerifyRoute } from './routes/webauthn.js';
import { privacyPassRoute } from './routes/privacyPass.js';
import { passkeyDoorRoute } from './routes/passkeyDoor.js';
import { compileSchemas, schemaError } from './schemas.js';
import { type GetRoute, buildOpenApiDocument } from './openapi/buildOpenApiDocument.js';
import { RouteTable } from './openapi/RouteTable.js';
import { HealthResponse, ReadyResponse } from './responses.js';
import { mountDashboard } from './dashboard/mountDashboard.js';
import { TraceSampler } from '../core/traffic/TraceSampler.js';
import { KeyboardBudget } from '../core/keyboard/KeyboardBudget.js';
import { TrafficCounters } from '../core/traffic/TrafficCounters.js';
import { siteLabel } from '../core/traffic/siteLabel.js';
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
   * One of several threads serving the port: its series carry the label `thread`, and GET
   * /metrics answers `allThreads()` (the metrics of every thread) rather than its own alone.
   */
  threadMetrics?: { thread: string; allThreads(): Promise<string> };
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
  const metrics = new Metrics(opts.threadMetrics ? { thread: opts.threadMetrics.thread } : {});
  const scrape = opts.threadMetrics?.allThreads ?? (() => metrics.registry.metrics());
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
  const traffic = config.dashboardToken !== undefined && trafficStore ? new TrafficCounters(trafficStore, { log, ...(opts.now ? { now: opts.now } : {}) }) : undefined;
  const traces = config.traces.sampleRate > 0 && trafficStore ? new TraceSampler(trafficStore, config.traces.sampleRate, { log }) : undefined;
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
  const prefixes = config.apiPrefix === '' ? [''] : ['', config.apiPrefix];
  const allowed = new Map<string, string>();

  let inflight = 0;
  let closing = false;
  let drained: (() => void) | undefined;
  const settle = () => {
    if (--inflight === 0) drained?.();
  };

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

  const limitOf = { verify: config.rateLimitPerMinute, challenge: config.rateLimitPerMinute * 10, probe: config.rateLimitPerMinute * 10 };

  async function rateLimited(route: PostRoute, body: unknown, info: RequestInfo): Promise<Reply> {
    const bucket = route.bucket!;
    const limit = await checkRateLimit(store, bucket, bindingFromAddress(info.address), limitOf[bucket], ctx.now()).catch((e: unknown) => {
      // Issuing a challenge writes nothing and nothing issued can be redeemed while the store is
      // down, so /challenge keeps working unlimited meanwhile; every other route fails closed.
      if (bucket === 'challenge' && e instanceof StoreUnavailableError) return { ok: true } as const;
      throw e;
    });
    if (!limit.ok) {
      traffic?.limited(siteLabel(sites, (body as { site_key?: unknown }).site_key), bucket, limit.first);
      return { ...route.fail(failure('rate_limited')), headers: [['retry-after', String(limit.retryAfterSeconds)]] };
    }
    return route.handle(ctx, body as never, info);
  }

  /**
   * Counts a request in flight until it is answered or aborted, and returns the function that
   * answers it (once; later calls and calls after an abort do nothing).
   */
  function track(res: HttpResponse, m: RouteMetrics, path: string, cors: readonly Header[]): (reply: Reply) => void {
    const startedAt = performance.now();
    let open = true;
    inflight++;
    res.onAborted(() => {
      if (!open) return;
      open = false;
      settle();
    });
    return (reply) => {
      if (!open) return;
      open = false;
      // While shutting down, tell keep-alive clients to reconnect elsewhere.
      writeReply(res, closing ? { ...reply, close: true } : reply, cors);
      m.observe(reply.status, startedAt, reply.code);
      traffic?.answered(path, performance.now() - startedAt);
      settle();
    };
  }

  /** Answers with `reply`, or with internal_error (logged) when it fails. */
  function settleWith(finish: (reply: Reply) => void, reply: Promise<Reply>, path: string, fail: (f: Failure) => Reply): void {
    reply.then(finish, (err: unknown) => {
      if (err instanceof StoreUnavailableError) {
        log.warn({ err: err.message, route: path }, 'store unavailable');
        return finish(fail(failure('store_unavailable')));
      }
      log.error({ err, route: path }, 'request failed');
      finish(fail(failure('internal_error')));
    });
  }

  function decode(route: PostRoute, bytes: Buffer, contentType: string): { ok: true; value: unknown } | { ok: false; detail: string } {
    if (route.form === true && mediaType(contentType) === FORM_TYPE) {
      return { ok: true, value: Object.fromEntries(new URLSearchParams(bytes.toString('utf8'))) };
    }
    return parseJson(bytes);
  }

  function post(route: PostRoute) {
    const m = metrics.route(route.path);
    // Bucketed routes serve browsers: their address feeds rate limits and adaptive proof of work.
    const withAddress = route.bucket !== undefined;
    const run = withAddress && config.rateLimitPerMinute > 0 ? rateLimited : (r: PostRoute, body: unknown, info: RequestInfo) => r.handle(ctx, body as never, info);
    const tooLarge = { ...route.fail(failure('payload_too_large', `body: larger than ${config.maxBodyBytes} bytes`)), close: true };
    // /verify's refusals before core (body, JSON, schema, a thrown failure) go to the dashboard's
    // outcomes with core's own, filed under the body's site when it names a listed one (a rate-limit
    // refusal is counted in its own panel, by rateLimited). Other routes, and no dashboard: as is.
    const countsEarly = route.path === '/verify' && traffic !== undefined;
    const refusedEarly = countsEarly
      ? (reply: Reply, body?: unknown) => {
          if (reply.code !== undefined) traffic.verified(siteLabel(sites, (body as { site_key?: unknown } | undefined)?.site_key), reply.code, {});
          return reply;
        }
      : (reply: Reply) => reply;
    return (res: HttpResponse, req: HttpRequest) => {
      const info: RequestInfo = {
        origin: req.getHeader('origin'),
        authorization: req.getHeader('authorization'),
        contentType: req.getHeader('content-type'),
        address: withAddress ? peerAddress(res, req, config.trustProxy) : '',
      };
      const finish = track(res, m, route.path, corsHeaders(config.corsOrigins, info.origin));
      readBody(res, config.maxBodyBytes, req.getHeader('content-length'), (bytes) => {
        if (bytes === undefined) return finish(refusedEarly(tooLarge));
        const parsed = decode(route, bytes, info.contentType);
        if (!parsed.ok) return finish(refusedEarly(route.fail(failure('invalid_request', parsed.detail))));
        // The shape a body selects answers it, from its schema check on.
        const shape = route.variant?.selects(parsed.value) === true ? route.variant.route : route;
        if (!shape.check.Check(parsed.value)) {
          return finish(refusedEarly(shape.fail(failure('invalid_request', schemaError(shape.check, parsed.value))), parsed.value));
        }
        // No closure per request unless there is something to count.
        const fail = countsEarly ? (f: Failure) => refusedEarly(shape.fail(f), parsed.value) : shape.fail;
        settleWith(finish, run(shape, parsed.value, info), route.path, fail);
      });
    };
  }

  function get({ path, answer, request }: GetRoute) {
    const m = metrics.route(path);
    return (res: HttpResponse, req: HttpRequest) => {
      const origin = req.getHeader('origin');
      const cors = corsHeaders(config.corsOrigins, origin);
      const host = req.getHeader('host');
      // A browser sends no Origin with a same-origin GET (only with a cross-origin one): the page is
      // then on the host it asked, as Sec-Fetch-Site says; only the hostname is read from it.
      const pageOrigin = origin === '' && req.getHeader('sec-fetch-site') === 'same-origin' && host !== '' ? `https://${host}` : origin;
      const about = request ? { query: req.getQuery() ?? '', host, origin: pageOrigin, address: peerAddress(res, req, config.trustProxy) } : undefined;
      settleWith(track(res, m, path, cors), answer(req.getHeader('authorization'), about), path, plainFailure);
    };
  }

  // An operator endpoint: behind SITEVERIFY_AUTH_TOKEN when one is set.
  const operator = bearerCheck(config.siteverifyAuthToken);
  let openapi: string | undefined;
  const getRoutes: GetRoute[] = [
    {
      // Liveness: the process answers (200), and says whether its store does.
      path: '/healthz',
      summary: 'Liveness, with the state of the store',
      success: HealthResponse,
      errors: [],
      answer: async () => {
        const s = await store.health();
        return { status: 200, body: { status: s.ok && s.down === undefined ? 'ok' : 'degraded', store: s } };
      },
    },
    {
      // Readiness: 503 while the store cannot answer, so a load balancer sends traffic to nodes that can verify.
      path: '/readyz',
      summary: 'Readiness for load balancers: 503 while the store cannot answer',
      success: ReadyResponse,
      errors: ['store_unavailable'],
      answer: async () => {
        const s = await store.health();
        if (!s.ok) return plainFailure(failure('store_unavailable', s.detail));
        return { status: 200, body: s.down === undefined ? { status: 'ready' } : { status: 'ready', down: s.down } };
      },
    },
    {
      path: '/metrics',
      summary: 'Prometheus metrics (behind SITEVERIFY_AUTH_TOKEN when set)',
      success: 'text/plain',
      errors: ['unauthorized'],
      answer: async (authorization) =>
        operator(authorization)
          ? { status: 200, body: await scrape(), contentType: metrics.registry.contentType }
          : { ...plainFailure(failure('unauthorized')), headers: BEARER_CHALLENGE },
    },
    {
      path: '/openapi.json',
      summary: 'This OpenAPI 3.1 document, generated from the request and response schemas',
      success: 'application/json',
      errors: [],
      answer: async () => ({ status: 200, body: openapi, contentType: JSON_TYPE }),
    },
    privacyPassRoute(ctx),
  ];

  for (const prefix of prefixes) {
    for (const route of postRoutes) {
      const path = prefix + route.path;
      app.post(path, post(route));
      allowed.set(path, METHODS_OF_POST_ROUTES);
    }
    for (const route of getRoutes) {
      app.get(prefix + route.path, get(route));
      allowed.set(prefix + route.path, METHODS_OF_GET_ROUTES);
    }
  }

  // What `mount` adds (the widget, the demo) is documented as it is registered.
  routes.mounting(() => {
    const { dashboardToken } = config;
    if (dashboardToken !== undefined && trafficStore !== undefined) {
      mountDashboard(app, { config: { ...config, dashboardToken }, store, traffic: trafficStore, now: ctx.now, keyboardDoors: () => keyboardBudget.view() });
    }
    opts.mount?.(app, ctx);
  });
  openapi = JSON.stringify(buildOpenApiDocument({ postRoutes, getRoutes, mounted: routes.mounted, apiPrefix: config.apiPrefix }));

  app.options('/*', (res, req) => {
    const known = allowed.has(req.getUrl());
    const cors = corsHeaders(config.corsOrigins, req.getHeader('origin'));
    writeReply(res, known ? { status: 204, body: undefined, headers: PREFLIGHT } : plainFailure(failure('not_found')), cors);
  });

  // Anything else: a known path with the wrong method is 405, an unknown path 404.
  app.any('/*', (res, req) => {
    const methods = allowed.get(req.getUrl());
    const cors = corsHeaders(config.corsOrigins, req.getHeader('origin'));
    const reply =
      methods === undefined
        ? plainFailure(failure('not_found'))
        : { ...plainFailure(failure('method_not_allowed')), headers: [['allow', methods]] as const };
    // The body (if any) is discarded first, so an uploading client reads the answer; then close.
    afterBody(res, req, () => writeReply(res, { ...reply, close: true }, cors));
    metrics.route(methods === undefined ? 'unknown' : req.getUrl()).observe(reply.status, performance.now(), reply.code);
  });

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
      closing = true;
      if (listenSocket !== undefined) uWS.us_listen_socket_close(listenSocket);
      listenSocket = undefined;
      if (inflight > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, graceMs);
          drained = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
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
