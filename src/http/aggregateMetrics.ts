import { AggregatorRegistry } from 'prom-client';

/**
 * One Prometheus text of the metrics of several threads (each thread's `getMetricsAsJSON()`):
 * series of the same name are merged into one family, and each thread's series keep their own
 * `thread` label, so every scrape sees every thread whichever thread answers it.
 */
export function aggregateMetrics(perThread: readonly object[][]): Promise<string> {
  return AggregatorRegistry.aggregate(perThread as object[]).metrics();
}
