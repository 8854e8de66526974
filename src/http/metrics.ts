import { Counter, Registry, collectDefaultMetrics } from 'prom-client';
import { MAX_POW_DIFFICULTY } from '../core/sites/SitePolicy.js';
import type { StoreEvents } from '../store/Store.js';

/** Upper bounds of the request duration buckets, seconds. */
const BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
const BUCKETS_MS = BUCKETS.map((s) => s * 1000);
/** Proof-of-work difficulties, 0 to MAX_POW_DIFFICULTY bits: one bucket each. */
const POW_BITS = Array.from({ length: MAX_POW_DIFFICULTY + 1 }, (_, bits) => bits);

/** What one route has answered: plain numbers, so counting costs no label lookups. */
export class RouteMetrics {
  readonly byStatus = new Map<number, number>();
  readonly byFailure = new Map<string, number>();
  /** Answers per duration bucket (not cumulative); the last slot is +Inf. */
  readonly buckets = new Float64Array(BUCKETS.length + 1);
  sumSeconds = 0;

  /** Counts one answer of `status` (with its failure `code`) that took since `startedAt` (performance.now()). */
  observe(status: number, startedAt: number, code: string | undefined): void {
    this.byStatus.set(status, (this.byStatus.get(status) ?? 0) + 1);
    if (code !== undefined) this.byFailure.set(code, (this.byFailure.get(code) ?? 0) + 1);
    const ms = performance.now() - startedAt;
    let i = 0;
    while (i < BUCKETS_MS.length && ms > BUCKETS_MS[i]!) i++;
    this.buckets[i]!++;
    this.sumSeconds += ms / 1000;
  }
}

/**
 * Prometheus metrics of one server, on its own registry (served by GET /metrics). Requests are
 * counted in RouteMetrics on the hot path; prom-client reads those numbers only when scraped.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly #routes = new Map<string, RouteMetrics>();
  /** Challenges issued per proof-of-work difficulty (one bucket per bit, and +Inf): adaptive cost at work. */
  readonly #powIssued = new Float64Array(POW_BITS.length + 1);

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
    const duration = histogramOf('ariadne_http_request_duration_seconds', 'Time from request to answer, by route.', BUCKETS, function* () {
      for (const [route, m] of routes) yield { labels: { route }, counts: m.buckets, sum: m.sumSeconds };
    });
    const issued = this.#powIssued;
    const pow = histogramOf(
      'ariadne_pow_difficulty',
      'Proof-of-work difficulty (leading zero bits) of the challenges issued.',
      POW_BITS,
      () => [{ labels: {}, counts: issued, sum: issued.reduce((total, n, bits) => total + n * bits, 0) }],
    );
    this.registry.registerMetric(duration as never);
    this.registry.registerMetric(pow as never);
    collectDefaultMetrics({ register: this.registry, prefix: 'ariadne_' });
  }

  /** Exposes what the store went through (a Redis store's failovers, fence replacements and slot moves). */
  watchStore(events: () => StoreEvents): void {
    const counter = (
      name: string,
      help: string,
      labelNames: string[],
      read: (e: StoreEvents, inc: (labels: Record<string, string>, n: number) => void) => void,
    ) =>
      new Counter({
        name,
        help,
        labelNames,
        registers: [this.registry],
        collect() {
          this.reset();
          read(events(), (labels, n) => this.inc(labels, n));
        },
      });
    counter(
      'ariadne_redis_failovers_seen_total',
      'New Redis processes found holding the markers: failovers and restarts seen.',
      [],
      (e, inc) => inc({}, e.failoversSeen),
    );
    counter(
      'ariadne_redis_fence_replacements_total',
      'Loss fences this process replaced, by why: lost (gone with their data) or process (of another Redis process).',
      ['reason'],
      (e, inc) => {
        inc({ reason: 'lost' }, e.fenceReplacements.lost);
        inc({ reason: 'process' }, e.fenceReplacements.process);
      },
    );
    counter(
      'ariadne_redis_slots_moved_total',
      'Redis Cluster slots seen served by another primary than before (resharding, failover): what MOVED and ASK redirect.',
      [],
      (e, inc) => inc({}, e.slotsMoved),
    );
  }

  /** Counts a challenge issued at `difficulty` bits (beyond the buckets: in +Inf). */
  powIssued(difficulty: number): void {
    this.#powIssued[Math.min(difficulty, POW_BITS.length)]!++;
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

/** One series of a histogram kept as plain numbers. */
interface HistogramSeries {
  labels: Record<string, string>;
  /** Observations per bucket, not cumulative; the last slot is +Inf. */
  counts: Float64Array;
  sum: number;
}

/**
 * A histogram whose numbers are kept elsewhere (counting costs no label lookups), in the shape
 * prom-client's registry prints; `bounds` are the buckets' upper bounds but +Inf.
 */
function histogramOf(name: string, help: string, bounds: readonly number[], series: () => Iterable<HistogramSeries>) {
  return {
    name,
    help,
    type: 'histogram',
    aggregator: 'sum',
    get() {
      const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
      for (const { labels, counts, sum } of series()) {
        let cumulative = 0;
        counts.forEach((n, i) => {
          cumulative += n;
          values.push({ labels: { le: bounds[i] ?? '+Inf', ...labels }, value: cumulative, metricName: `${name}_bucket` });
        });
        values.push({ labels, value: sum, metricName: `${name}_sum` });
        values.push({ labels, value: cumulative, metricName: `${name}_count` });
      }
      return { name, help, type: 'histogram', aggregator: 'sum', values };
    },
  };
}
