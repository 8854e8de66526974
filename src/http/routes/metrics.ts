import { failure } from '../../core/errors.js';
import { BEARER_CHALLENGE } from '../bearer.js';
import { type GetRoute, plainFailure } from '../route.js';

/**
 * GET /metrics, an operator endpoint: `operator` tells whether an Authorization header may read
 * it (behind SITEVERIFY_AUTH_TOKEN when one is set); `scrape` gives the text, in `contentType`.
 */
export function metricsRoute(operator: (authorization: string) => boolean, scrape: () => Promise<string>, contentType: string): GetRoute {
  return {
    path: '/metrics',
    summary: 'Prometheus metrics (behind SITEVERIFY_AUTH_TOKEN when set)',
    success: 'text/plain',
    errors: ['unauthorized'],
    answer: async (authorization) =>
      operator(authorization)
        ? { status: 200, body: await scrape(), contentType }
        : { ...plainFailure(failure('unauthorized')), headers: BEARER_CHALLENGE },
  };
}
