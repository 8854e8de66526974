import { FEATURE_NAMES, type FeatureName } from '../../src/kernel/features.js';
import type { InputTable } from '../../src/core/scoring/ScoringTable.js';
import { ksDistance } from './layingShift.js';

/** How far the capture moves one weighed feature of the same movements. */
export interface CaptureShift {
  feature: FeatureName;
  /** Median over traces of (throttled - native), in the model's scaled units (its term's z). */
  median: number;
  /** Median over users of each user's median shift: no one person weighs more than another. */
  byUser: number;
  /** KS distance between the native and the throttled values. */
  ks: number;
}

const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/**
 * For each kernel feature `model` weighs, how far the same movements move between two captures:
 * `native[i]` and `throttled[i]` are one trace's feature rows (FEATURE_NAMES order), `users[i]`
 * its person. A feature the capture moves measures the way the trace was sent, not the person.
 */
export function captureShifts(
  model: InputTable,
  native: readonly Float64Array[],
  throttled: readonly Float64Array[],
  users: readonly string[],
): CaptureShift[] {
  const features = [...new Set(model.terms.map((t) => t.feature))].filter((f): f is FeatureName =>
    (FEATURE_NAMES as readonly string[]).includes(f),
  );
  return features.map((feature) => {
    const term = model.terms.find((t) => t.feature === feature)!;
    const slot = FEATURE_NAMES.indexOf(feature);
    const z = (v: number) => ((term.transform === 'log' ? Math.log(0.01 + Math.max(0, v)) : v) - term.center) / term.scale;
    const shifts = native.map((row, i) => z(throttled[i]![slot]!) - z(row[slot]!));
    const perUser = new Map<string, number[]>();
    shifts.forEach((s, i) => perUser.set(users[i]!, [...(perUser.get(users[i]!) ?? []), s]));
    return {
      feature,
      median: median(shifts),
      byUser: median([...perUser.values()].map(median)),
      ks: ksDistance(
        native.map((r) => r[slot]!),
        throttled.map((r) => r[slot]!),
      ),
    };
  });
}
