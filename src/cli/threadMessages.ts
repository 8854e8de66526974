import type { SitesSnapshot } from '../core/sites/SiteRegistry.js';

/** Messages to a server thread. */
export type ToServerThread =
  | { type: 'sites'; snapshot: SitesSnapshot; version: number }
  /** Stop serving: let requests in flight finish for at most `graceMs` (default: the server's). */
  | { type: 'stop'; graceMs?: number }
  /** Send your metrics (prom-client JSON), for the scrape `id`. */
  | { type: 'metrics-json'; id: number }
  /** Every thread's metrics, for the scrape `id` you asked for. */
  | { type: 'metrics'; id: number; text: string };

/** Messages from a server thread. */
export type FromServerThread =
  | { type: 'listening' }
  /** An uncaught error: the thread stops serving and exits; the process must end (superviseThread). */
  | { type: 'crashed'; message: string }
  | { type: 'sites-applied'; version: number }
  /** A scrape of GET /metrics: answer with every thread's metrics. */
  | { type: 'metrics'; id: number }
  | { type: 'metrics-json'; id: number; json: object[] };
