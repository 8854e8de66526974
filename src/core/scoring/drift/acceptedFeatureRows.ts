import type { TraceRecord } from '../../traffic/traceRecord.js';
import { FEATURE_NAMES } from '../../../kernel/features.js';

/**
 * The feature rows (FEATURE_NAMES order) of the sampled traces a drift report compares: accepted
 * pointer solves with features (the calibration people are pointer traces, and refused traffic
 * is not the people the scorer should match).
 */
export function acceptedFeatureRows(records: readonly Partial<TraceRecord>[]): number[][] {
  const rows: number[][] = [];
  for (const r of records) {
    if (!isComparedRecord(r)) continue;
    const features = r.features;
    rows.push(FEATURE_NAMES.map((name) => features[name] ?? NaN));
  }
  return rows;
}

/** Whether a drift report compares `r`: an accepted pointer solve with features. */
export function isComparedRecord(r: Partial<TraceRecord>): r is Partial<TraceRecord> & { features: NonNullable<TraceRecord['features']> } {
  return r.outcome === 'ok' && r.input_type !== 'keyboard' && typeof r.features === 'object' && r.features !== null;
}
