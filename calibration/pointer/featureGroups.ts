import type { FeatureName } from '../../src/kernel/features.js';

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
  geometry: [
    'efficiency_ratio',
    'curvature',
    'turn_mean',
    'angular_entropy',
    'corridor_deviation',
    'corridor_deviation_sd',
    'on_rail_fraction',
  ],
};
