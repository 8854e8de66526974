import type { FeatureName } from '../../src/kernel/features.js';
import type { FitOptions } from '../../src/core/scoring/fit/fitTable.js';
import { MODEL_FEATURES } from '../../src/core/scoring/fit/fitTable.js';
import { FEATURE_GROUPS } from './featureGroups.js';
import type { FeatureShift } from './layingShift.js';

/**
 * The most the corridor-geometry terms together may lower a v3 logit. The fitted bias is about
 * 8 and the threshold's logit 0, so a person at the human median on every other feature is
 * accepted whatever the geometry reads.
 */
export const GEOMETRY_FLOOR = 2;

export interface Recipe {
  options: FitOptions;
  /** Features left out: they move with the laying more than they separate bot families. */
  dropped: FeatureName[];
  /** Corridor-geometry features kept, bounded together by GEOMETRY_FLOOR. */
  bounded: FeatureName[];
}

/**
 * How v3's pointer model is built from the measured laying shifts: a feature whose people move
 * between layings more than it separates the bot families (median KS over families) is left
 * out; where a path runs in a corridor, how straight it is and how it turns are set by the
 * laying, not by the person, so the geometry features that stay are bounded together and cannot
 * reject anyone alone; signed terms only lower a score, so looking very human on one feature
 * (a real mouse's clock, say) cannot buy back looking scripted on another.
 */
export function v3Recipe(shifts: readonly FeatureShift[]): Recipe {
  const dropped = shifts.filter((s) => s.byLaying > s.separation).map((s) => s.feature);
  const features = MODEL_FEATURES.filter(([f]) => !dropped.includes(f));
  const bounded = FEATURE_GROUPS.geometry!.filter((f) => features.some(([g]) => g === f));
  return { options: { features, bounded: new Set(bounded), boundedFloor: GEOMETRY_FLOOR, onlyLowers: true }, dropped, bounded };
}
