import type { TrafficStore } from '../../store/traffic/TrafficStore.js';
import { LATENCY_BOUNDS_MS } from './trafficNames.js';

/** The dashboard's windows: the last hour in minutes, the last day in quarter hours. */
export const WINDOWS = {
  hour: { minutes: 60, step: 1 },
  day: { minutes: 24 * 60, step: 15 },
} as const;
export type TrafficWindow = keyof typeof WINDOWS;

/** What the dashboard draws, for one window and one site (or all). */
export interface TrafficSummary {
  window: TrafficWindow;
  /** The site shown; null: every site. */
  site: string | null;
  /** Every site label with counts in the window ('' is the open policy, or no site admitted). */
  sites: string[];
  /** Start of each step, epoch seconds. */
  times: number[];
  /** Counter name (core/traffic/trafficNames.ts) -> count per step; latency counters excepted. */
  series: Record<string, number[]>;
  /** Route -> p50 and p99 per step, ms (null: no answer in that step); from the latency buckets. */
  latency: Record<string, { p50: (number | null)[]; p99: (number | null)[] }>;
}

/**
 * Reads the window's counts from the store and lays them out per step: a site's own counts, or
 * every site's summed; latencies (filed under no site) are per route and summed over sites
 * always.
 */
export async function summarizeTraffic(
  store: TrafficStore,
  window: TrafficWindow,
  site: string | null,
  now: number,
): Promise<TrafficSummary> {
  const { minutes, step } = WINDOWS[window];
  const last = Math.floor(now / 60_000);
  // Steps aligned to the clock, the last one holding the current minute.
  const count = Math.ceil(minutes / step);
  const first = (Math.floor(last / step) - count + 1) * step;
  const times = Array.from({ length: count }, (_, i) => (first + i * step) * 60);
  const series: Record<string, number[]> = {};
  const latencyBuckets = new Map<string, number[][]>();
  const sites = new Set<string>();
  for (const [field, n] of await store.counts(first, last)) {
    const [minute, label, name] = field.split('\t') as [string, string, string];
    const at = Math.floor((Number(minute) - first) / step);
    if (name.startsWith('latency:')) {
      const cut = name.lastIndexOf(':');
      const route = name.slice('latency:'.length, cut);
      let buckets = latencyBuckets.get(route);
      if (buckets === undefined) {
        buckets = Array.from({ length: count }, () => new Array<number>(LATENCY_BOUNDS_MS.length + 1).fill(0));
        latencyBuckets.set(route, buckets);
      }
      buckets[at]![Number(name.slice(cut + 1))]! += n;
      continue;
    }
    sites.add(label);
    if (site !== null && label !== site) continue;
    (series[name] ??= new Array<number>(count).fill(0))[at]! += n;
  }
  const latency: TrafficSummary['latency'] = {};
  for (const [route, buckets] of latencyBuckets) {
    latency[route] = { p50: buckets.map((b) => percentile(b, 0.5)), p99: buckets.map((b) => percentile(b, 0.99)) };
  }
  return { window, site, sites: [...sites].sort(), times, series, latency };
}

/**
 * The `p` quantile of counts per latency bucket, as its bucket's upper bound (ms); answers slower
 * than the last bound read as sqrt 2 times it. Null when nothing was counted.
 */
export function percentile(buckets: readonly number[], p: number): number | null {
  const total = buckets.reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  let cumulative = 0;
  for (let i = 0; i < buckets.length; i++) {
    cumulative += buckets[i]!;
    if (cumulative >= p * total) return LATENCY_BOUNDS_MS[i] ?? LATENCY_BOUNDS_MS.at(-1)! * Math.SQRT2;
  }
  return LATENCY_BOUNDS_MS.at(-1)! * Math.SQRT2;
}
