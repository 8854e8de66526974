import { Counter, Histogram, Registry, collectDefaultMetrics, linearBuckets } from 'prom-client';
import { MAX_POW_DIFFICULTY } from '../core/sites/SitePolicy.js';

/** Upper bounds of the request duration buckets, seconds. */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
const BUCKETS_MS = BUCKETS.map((s) => s * 1000);

/** What one route has answered: plain numbers, so counting costs no label lookups. */
export class RouteMetrics {
  readonly byStatus = new Map<number, number>();
  readonly byFailure = new Map<string, number>();
  /** Answers per duration bucket (not cumulative); the last slot is +Inf. */
  readonly buckets = new Float64Array(BUCKETS.length + 1);
  sumSeconds = 0;
  count = 0;

  /** Counts one answer of `status` (with its failure `code`) that took since `startedAt` (performance.now()). */
  observe(status: number, startedAt: number, code: string | undefined): void {
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
    if (code !== undefined) this.byFailure.set(code, (this.byFailure.get(code) ?? 0) + 1);
    const ms = performance.now() - startedAt;
    let i = 0;
    while (i < BUCKETS_MS.length && ms > BUCKETS_MS[i]!) i++;
    this.buckets[i]!++;
    this.sumSeconds += ms / 1000;
    this.count++;
  }
}

/**
 * Prometheus metrics of one server, on its own registry (served by GET /metrics). Requests are
 * counted in RouteMetrics on the hot path; prom-client reads those numbers only when scraped.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly #routes = new Map<string, RouteMetrics>();
  /** Proof-of-work difficulty of each challenge issued: adaptive cost at work, one bucket per bit. */
  readonly powDifficulty = new Histogram({
    name: 'ariadne_pow_difficulty',
    help: 'Proof-of-work difficulty (leading zero bits) of the challenges issued.',
    buckets: linearBuckets(0, 1, MAX_POW_DIFFICULTY + 1),
    registers: [this.registry],
  });

  /** `labels`: added to every series (a server thread's `thread`). */
  constructor(labels: Record<string, string> = {}) {
    this.registry.setDefaultLabels(labels);
    const routes = this.#routes;
    const counter = (name: string, help: string, label: string, counts: (m: RouteMetrics) => Map<number | string, number>) =>
      new Counter({
        name,
        help,
        labelNames: ['route', label],
        registers: [this.registry],
        collect() {
          this.reset();
          for (const [route, m] of routes) for (const [value, n] of counts(m)) this.inc({ route, [label]: String(value) }, n);
        },
      });
    counter('ariadne_http_requests_total', 'HTTP requests answered, by route and status.', 'status', (m) => m.byStatus);
    counter('ariadne_failures_total', 'Failure answers, by route and error code.', 'code', (m) => m.byFailure);
    this.registry.registerMetric(durationHistogram(routes) as never);
    collectDefaultMetrics({ register: this.registry, prefix: 'ariadne_' });
  }

  /** The counters of `route` (a fixed path, or 'unknown'), created on first use. */
  route(route: string): RouteMetrics {
    let m = this.#routes.get(route);
    if (m === undefined) {
      m = new RouteMetrics();
      this.#routes.set(route, m);
    }
    return m;
  }
}

/** ariadne_http_request_duration_seconds in the shape prom-client's registry prints. */
function durationHistogram(routes: Map<string, RouteMetrics>) {
  const name = 'ariadne_http_request_duration_seconds';
  return {
    name,
    help: 'Time from request to answer, by route.',
    type: 'histogram',
    aggregator: 'sum',
    get() {
      const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
      for (const [route, m] of routes) {
        let cumulative = 0;
        m.buckets.forEach((n, i) => {
          cumulative += n;
          values.push({ labels: { le: BUCKETS[i] ?? '+Inf', route }, value: cumulative, metricName: `${name}_bucket` });
        });
        values.push({ labels: { route }, value: m.sumSeconds, metricName: `${name}_sum` });
        values.push({ labels: { route }, value: m.count, metricName: `${name}_count` });
      }
      return { name, help: this.help, type: this.type, aggregator: this.aggregator, values };
    },
  };
}
