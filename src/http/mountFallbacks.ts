import type { TemplatedApp } from 'uWebSockets.js';
import type { Config } from '../config.js';
import { failure } from '../core/errors.js';
import { afterBody } from './afterBody.js';
import { PREFLIGHT, corsHeaders } from './cors.js';
import type { Metrics } from './metrics.js';
import { writeReply } from './reply.js';
import { plainFailure } from './route.js';

/**
 * What answers a request no route took, registered last: OPTIONS on a known path is the CORS
 * preflight (204), on an unknown one 404; any other method on a known path is 405 with `Allow`
 * (`allowed`: path -> its methods), on an unknown path 404. The body, if any, is discarded first,
 * so an uploading client reads the answer; then the connection closes.
 */
export function mountFallbacks(
  app: TemplatedApp,
  allowed: ReadonlyMap<string, string>,
  corsOrigins: Config['corsOrigins'],
  metrics: Metrics,
): void {
  app.options('/*', (res, req) => {
    const known = allowed.has(req.getUrl());
    const cors = corsHeaders(corsOrigins, req.getHeader('origin'));
    writeReply(res, known ? { status: 204, body: undefined, headers: PREFLIGHT } : plainFailure(failure('not_found')), cors);
  });

  app.any('/*', (res, req) => {
    const methods = allowed.get(req.getUrl());
    const cors = corsHeaders(corsOrigins, req.getHeader('origin'));
    const reply =
      methods === undefined
        ? plainFailure(failure('not_found'))
        : { ...plainFailure(failure('method_not_allowed')), headers: [['allow', methods]] as const };
    afterBody(res, req, () => writeReply(res, { ...reply, close: true }, cors));
    metrics.route(methods === undefined ? 'unknown' : req.getUrl()).observe(reply.status, performance.now(), reply.code);
  });
}
