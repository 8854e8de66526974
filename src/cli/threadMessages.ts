import type { SitesSnapshot } from '../core/sites/SiteRegistry.js';
import type { StoreHealth } from '../store/Store.js';

/**
 * What a server thread may ask of every thread of its process (answerGatherings): each thread's
 * part, and the whole the main thread makes of them. A thread's part is missing when it did not
 * answer in time.
 */
export interface Gatherings {
  /** GET /metrics: each thread's metrics (prom-client JSON), one Prometheus text of them all. */
  metrics: { part: object[]; whole: string };
  /** GET /healthz and /readyz: each thread's store health, the process's (with the passkey credentials'). */
  health: { part: StoreHealth; whole: StoreHealth };
}
export type Gathering = keyof Gatherings;

/** Messages to a server thread. */
export type ToServerThread =
  | { type: 'sites'; snapshot: SitesSnapshot; version: number }
  /** Stop serving: let requests in flight finish for at most `graceMs` (default: the server's). */
  | { type: 'stop'; graceMs?: number }
  /** Send your part of the gathering `id`. */
  | { type: 'part'; of: Gathering; id: number }
  /** The whole of the gathering `id` you asked for. */
  | { [K in Gathering]: { type: 'gathered'; of: K; id: number; whole: Gatherings[K]['whole'] } }[Gathering];

/** Messages from a server thread. */
export type FromServerThread =
  | { type: 'listening' }
  /** An uncaught error: the thread stops serving and exits; the process must end (superviseThread). */
  | { type: 'crashed'; message: string }
  | { type: 'sites-applied'; version: number }
  /** A request that needs every thread (GET /metrics, /readyz): gather `of`, answer as `id`. */
  | { type: 'gather'; of: Gathering; id: number }
  | { [K in Gathering]: { type: 'part'; of: K; id: number; part: Gatherings[K]['part'] } }[Gathering];
