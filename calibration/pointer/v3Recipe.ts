import { FEATURE_NAMES, type FeatureName } from '../../src/kernel/features.js';
import type { ScoringGate } from '../../src/core/scoring/ScoringTable.js';
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

/**
 * The pointer model's gate: motion smoother (`jerk_norm`, the jerk of the 40 ms resampled path
 * over its speed) than all but SMOOTHEST_PEOPLE_SHARE of the calibration people, every laying and
 * both captures together, refuses alone. Jerk is the person's own speed profile: it moves little
 * with the laying (KS 0.09) and the motor-control imitations are smoother than people (the
 * `submovements` family KS 0.96), yet a fit weighs it little when the families it already refuses
 * by other features are smooth too. A share, not a fitted weight: held-out people lose at most
 * what the share says, whatever the bots.
 */
export const SMOOTHNESS_GATE_FEATURE: FeatureName = 'jerk_norm';
export const SMOOTHEST_PEOPLE_SHARE = 0.001;

/** The gate at the value under which `share` of the people's measured values fall (rounded to 5 digits). */
export function peopleShareGate(feature: FeatureName, people: readonly Float64Array[], share: number): ScoringGate {
  const slot = FEATURE_NAMES.indexOf(feature);
  const xs = people
    .map((p) => p[slot]!)
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  if (xs.length === 0) throw new Error(`no person has a value of ${feature}`);
  return { feature, below: Number(xs[Math.floor(share * xs.length)]!.toPrecision(5)) };
}

export interface Recipe {
  /** How the model is fitted on `people` (their feature rows): with the smoothness gate read from them. */
  optionsFor(people: readonly Float64Array[]): FitOptions;
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
 * (a real mouse's clock, say) cannot buy back looking scripted on another; and motion smoother
 * than all but a thousandth of the people fitted on is refused alone.
 */
export function v3Recipe(shifts: readonly FeatureShift[]): Recipe {
  const dropped = shifts.filter((s) => s.byLaying > s.separation).map((s) => s.feature);
  const features = MODEL_FEATURES.filter(([f]) => !dropped.includes(f));
  const bounded = FEATURE_GROUPS.geometry!.filter((f) => features.some(([g]) => g === f));
  const options: FitOptions = { features, bounded: new Set(bounded), boundedFloor: GEOMETRY_FLOOR, onlyLowers: true };
  return {
    optionsFor: (people) => ({ ...options, gates: [peopleShareGate(SMOOTHNESS_GATE_FEATURE, people, SMOOTHEST_PEOPLE_SHARE)] }),
    dropped,
    bounded,
  };
}
