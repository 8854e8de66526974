import { FEATURE_NAMES, type FeatureName } from '../../src/kernel/features.js';
import type { Labelled } from './fitTable.js';
import { Rng } from './random.js';

/**
 * Groups of features one way of writing a mover gets right or wrong together. A bot family
 * that nobody here has seen may look human on one whole group (a mover driven by a real mouse's
 * clock has human timing; one built from the motor-control literature has human sub-movements).
 */
export const FEATURE_GROUPS: Readonly<Record<string, readonly FeatureName[]>> = {
  timing: ['interval_cv', 'interval_entropy', 'interval_kurtosis', 'interval_max'],
  speed: ['speed_cv', 'speed_peak_ratio', 'speed_autocorrelation', 'acceleration_norm', 'acceleration_cv', 'jerk_norm'],
  submovements: ['pause_fraction', 'submovement_rate', 'submovement_rise', 'submovement_gap_cv'],
  roughness: ['speed_roughness', 'step_roughness', 'jitter_ratio'],
  geometry: ['efficiency_ratio', 'curvature', 'turn_mean', 'angular_entropy', 'corridor_deviation', 'corridor_deviation_sd', 'on_rail_fraction'],
};

/**
 * The bots, and for each bot one copy per feature group with that group's values taken from a
 * calibration person drawn at random: so the fit cannot rest on any one group, and a bot that
 * looks human in one respect must still be told apart by the others. Each bot's weight is
 * shared among it and its copies.
 */
export function withHumanisedGroups(bots: readonly Labelled[], humans: readonly Labelled[], seed = 5): Labelled[] {
  const rng = new Rng(seed);
  const groups = Object.values(FEATURE_GROUPS).map((g) => g.map((f) => FEATURE_NAMES.indexOf(f)));
  const share = 1 / (groups.length + 1);
  return bots.flatMap((b) => [
    { ...b, weight: b.weight * share },
    ...groups.map((slots) => {
      const donor = rng.pick(humans).values;
      const values = b.values.slice();
      for (const k of slots) values[k] = donor[k]!;
      return { values, human: false, weight: b.weight * share };
    }),
  ]);
}
