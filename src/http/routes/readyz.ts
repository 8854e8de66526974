import { failure } from '../../core/errors.js';
import type { StoreHealth } from '../../store/Store.js';
import { ReadyResponse } from '../responses.js';
import { type GetRoute, plainFailure } from '../route.js';

/**
 * GET /readyz, readiness: 503 while the store cannot answer (`health`: the process's, every
 * serving thread's), so a load balancer sends traffic to nodes that can verify.
 */
export function readyzRoute(health: () => Promise<StoreHealth>): GetRoute {
  return {
    path: '/readyz',
    summary: 'Readiness for load balancers: 503 while the store cannot answer',
    success: ReadyResponse,
    errors: ['store_unavailable'],
    answer: async () => {
      const s = await health();
      if (!s.ok) return plainFailure(failure('store_unavailable', s.detail));
      return { status: 200, body: s.down === undefined ? { status: 'ready' } : { status: 'ready', down: s.down } };
    },
  };
}
