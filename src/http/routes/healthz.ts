import type { StoreHealth } from '../../store/Store.js';
import { HealthResponse } from '../responses.js';
import type { GetRoute } from '../route.js';

/** GET /healthz, liveness: the process answers (200), and says whether its store does (`health`: the process's). */
export function healthzRoute(health: () => Promise<StoreHealth>): GetRoute {
  return {
    path: '/healthz',
    summary: 'Liveness, with the state of the store',
    success: HealthResponse,
    errors: [],
    answer: async () => {
      const s = await health();
      return { status: 200, body: { status: s.ok && s.down === undefined ? 'ok' : 'degraded', store: s } };
    },
  };
}
