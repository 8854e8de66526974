import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import type { CoreContext } from '../core/context.js';
import { type Failure, failure } from '../core/errors.js';
import { bindingFromAddress, checkRateLimit } from '../core/rateLimit.js';
import { siteLabel } from '../core/traffic/siteLabel.js';
import { StoreUnavailableError } from '../store/Store.js';
import { type Header, corsHeaders } from './cors.js';
import { FORM_TYPE, mediaType } from './mediaType.js';
import type { Metrics, RouteMetrics } from './metrics.js';
import { parseJson } from './parseJson.js';
import { peerAddress } from './peerAddress.js';
import { readBody } from './readBody.js';
import { type Reply, writeReply } from './reply.js';
import { type GetRequest, type GetRoute, type PostRoute, type RequestInfo, plainFailure, rateLimitedReply } from './route.js';
import { schemaError } from './schemas.js';

type Handler = (res: HttpResponse, req: HttpRequest) => void;

/** What every request goes through between uWebSockets.js and a route. */
export interface RequestPipeline {
  /**
   * The handler of a POST route: the body read within MAX_BODY_BYTES, decoded (JSON, or a form
   * where the route takes one), checked against the schema of the shape it selects, rate-limited
   * where the route has a bucket, handled, answered once and counted.
   */
  post(route: PostRoute): Handler;
  /** The handler of a GET route: told of its request when it asks (`request`), answered once and counted. */
  get(route: GetRoute): Handler;
  /** From now on every answer closes its connection (keep-alive clients reconnect elsewhere). */
  closing(): void;
  /** Resolves once no request is in flight, or after `graceMs`. */
  drained(graceMs: number): Promise<void>;
}

/**
 * The request pipeline of a server: tracks the requests in flight (each answered at most once,
 * none after an abort), turns a failed answer into store_unavailable or internal_error (logged),
 * and counts each answer in the route's metrics and the dashboard.
 */
export function requestPipeline(ctx: CoreContext, metrics: Metrics): RequestPipeline {
  const { config, store, sites, traffic, log } = ctx;
  let inflight = 0;
  let closing = false;
  let drained: (() => void) | undefined;
  const settle = () => {
    if (--inflight === 0) drained?.();
  };

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
      return rateLimitedReply(limit.retryAfterSeconds, route.fail);
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

  function post(route: PostRoute): Handler {
    const m = metrics.route(route.path);
    // Bucketed routes serve browsers: their address feeds rate limits and adaptive proof of work.
    const withAddress = route.bucket !== undefined;
    const run =
      withAddress && config.rateLimitPerMinute > 0
        ? rateLimited
        : (r: PostRoute, body: unknown, info: RequestInfo) => r.handle(ctx, body as never, info);
    const tooLarge = { ...route.fail(failure('payload_too_large', `body: larger than ${config.maxBodyBytes} bytes`)), close: true };
    // /verify's refusals before core (body, JSON, schema, a thrown failure) go to the dashboard's
    // outcomes with core's own, filed under the body's site when it names a listed one (a rate-limit
    // refusal is counted in its own panel, by rateLimited). Other routes, and no dashboard: as is.
    const countsEarly = route.path === '/verify' && traffic !== undefined;
    const refusedEarly = countsEarly
      ? (reply: Reply, body?: unknown) => {
          if (reply.code !== undefined)
            traffic.verified(siteLabel(sites, (body as { site_key?: unknown } | undefined)?.site_key), reply.code, {});
          return reply;
        }
      : (reply: Reply) => reply;
    return (res, req) => {
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

  function get({ path, answer, request }: GetRoute): Handler {
    const m = metrics.route(path);
    return (res, req) => {
      const origin = req.getHeader('origin');
      const cors = corsHeaders(config.corsOrigins, origin);
      const about = request ? aboutRequest(res, req, origin) : undefined;
      settleWith(track(res, m, path, cors), answer(req.getHeader('authorization'), about), path, plainFailure);
    };
  }

  /** What a GET route that asks for it learns of its request (GetRoute.request). */
  function aboutRequest(res: HttpResponse, req: HttpRequest, origin: string): GetRequest {
    const host = req.getHeader('host');
    // A browser sends no Origin with a same-origin GET (only with a cross-origin one): the page is
    // then on the host it asked, as Sec-Fetch-Site says; only the hostname is read from it.
    const pageOrigin = origin === '' && req.getHeader('sec-fetch-site') === 'same-origin' && host !== '' ? `https://${host}` : origin;
    return { query: req.getQuery() ?? '', host, origin: pageOrigin, address: peerAddress(res, req, config.trustProxy) };
  }

  return {
    post,
    get,
    closing: () => {
      closing = true;
    },
    drained: (graceMs) =>
      inflight === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, graceMs);
            drained = () => {
              clearTimeout(timer);
              resolve();
            };
          }),
  };
}
