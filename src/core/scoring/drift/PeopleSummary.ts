import { FEATURE_NAMES, type FeatureName } from '../../../kernel/features.js';

/** The quantile levels a summary holds: 0, 0.01, ..., 1. */
export const QUANTILE_LEVELS: readonly number[] = Array.from({ length: 101 }, (_, i) => i / 100);

/**
 * Where the calibration people of a scoring table sit, feature by feature: the quantiles
 * (QUANTILE_LEVELS) of their kernel feature values, as laid on mazes for the fit. Shipped beside
 * the table (tables/<version>.people.json, written by `npm run calibrate`), so an operator's
 * traffic can be compared with them (`ariadne calibrate --traces`).
 */
export interface PeopleSummary {
  /** The table whose calibration people these are. */
  table: string;
  /** Traces and distinct people summarised. */
  traces: number;
  users: number;
  /** Per kernel feature: its values' quantiles at QUANTILE_LEVELS (NaN values left out), and the share that was NaN. */
  features: Partial<Record<FeatureName, { quantiles: number[]; missing: number }>>;
}

/** The quantile at level `p` of sorted values (linear between ranks); NaN for none. */
export function quantileOf(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const at = p * (sorted.length - 1);
  const lo = Math.floor(at);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (at - lo);
}

/** The summary of feature rows (each in FEATURE_NAMES order), six significant digits. */
export function summarizeFeatures(table: string, rows: readonly ArrayLike<number>[], users: number): PeopleSummary {
  const features: PeopleSummary['features'] = {};
  FEATURE_NAMES.forEach((name, slot) => {
    const values = rows.map((r) => r[slot]!).filter((v) => Number.isFinite(v));
    values.sort((a, b) => a - b);
    features[name] = {
      quantiles: QUANTILE_LEVELS.map((p) => Number(quantileOf(values, p).toPrecision(6))),
      missing: rows.length === 0 ? 0 : Number((1 - values.length / rows.length).toFixed(4)),
    };
  });
  return { table, traces: rows.length, users, features };
}
