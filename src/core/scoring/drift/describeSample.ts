import { isComparedRecord } from './acceptedFeatureRows.js';
import type { TraceRecord } from '../../traffic/traceRecord.js';

/** What a drift report says of the traces it compares, beside the distances. */
export interface SampleFacts {
  /** The site labels of the compared traces, sorted ('' is the one unnamed site without a sites file). */
  sites: string[];
  /** The minutes of the first and last compared trace (ISO 8601), or null when none carries one. */
  from: string | null;
  to: string | null;
  /** How many were accepted only because their site scores in shadow mode: a score under the threshold. */
  shadowOnly: number;
}

/**
 * The site, time span and shadow-mode accepts of the traces a drift report compares (those
 * acceptedFeatureRows keeps: accepted pointer solves with features). `threshold` is the one the
 * scores are read against (a record keeps its score, not its site's threshold).
 */
export function describeSample(records: readonly Partial<TraceRecord>[], threshold: number): SampleFacts {
  const sites = new Set<string>();
  const times: string[] = [];
  let shadowOnly = 0;
  for (const r of records) {
    if (!isComparedRecord(r)) continue;
    if (typeof r.site === 'string') sites.add(r.site);
    if (typeof r.time === 'string' && !Number.isNaN(Date.parse(r.time))) times.push(r.time);
    if (r.mode === 'shadow' && typeof r.score === 'number' && r.score < threshold) shadowOnly++;
  }
  times.sort((a, b) => Date.parse(a) - Date.parse(b));
  return { sites: [...sites].sort(), from: times[0] ?? null, to: times.at(-1) ?? null, shadowOnly };
}
