import type { ScoredFeature } from '../ScoringTable.js';

/**
 * Why a trace scored low, as stable codes. Tokens carry a code as its index here, so the list
 * only grows at its end: a code never changes place or meaning.
 */
export const REASON_CODES = [
  'duplicate_trace',
  'probe_reaction_too_fast',
  'too_few_events',
  'duration_implausible',
  'path_too_straight',
  'timing_too_regular',
  'speed_implausible',
  'speed_too_constant',
  'motion_too_smooth',
  'start_too_abrupt',
  'no_pauses',
  'no_corrections',
  'path_too_centred',
  'no_tremor',
  'path_outside_corridors',
  'timestamps_invalid',
  'keyboard_rhythm_scripted',
  'keyboard_keyups_missing',
  'keyboard_holds_implausible',
  'keyboard_no_rollover',
] as const;

export type ReasonCode = (typeof REASON_CODES)[number];

/** The code a feature answers with when its term pulls a score down (README "Reason codes"). */
export const REASON_OF_FEATURE: Readonly<Record<ScoredFeature, ReasonCode>> = {
  event_count: 'too_few_events',
  duration: 'duration_implausible',
  pointer_events: 'too_few_events',
  key_events: 'too_few_events',
  path_length: 'path_too_straight',
  efficiency_ratio: 'path_too_straight',
  interval_cv: 'timing_too_regular',
  interval_entropy: 'timing_too_regular',
  interval_kurtosis: 'timing_too_regular',
  interval_zero_fraction: 'timing_too_regular',
  interval_max: 'timing_too_regular',
  speed_mean: 'speed_implausible',
  speed_cv: 'speed_too_constant',
  speed_peak_ratio: 'speed_too_constant',
  acceleration_norm: 'motion_too_smooth',
  acceleration_cv: 'motion_too_smooth',
  jerk_norm: 'motion_too_smooth',
  speed_autocorrelation: 'speed_too_constant',
  curvature: 'path_too_straight',
  turn_mean: 'path_too_straight',
  angular_entropy: 'path_too_straight',
  pause_count: 'no_pauses',
  pause_fraction: 'no_pauses',
  onset: 'start_too_abrupt',
  submovement_rate: 'no_corrections',
  submovements: 'no_corrections',
  corridor_deviation: 'path_too_centred',
  corridor_deviation_sd: 'path_too_centred',
  on_rail_fraction: 'path_too_centred',
  jitter_ratio: 'no_tremor',
  outside_fraction: 'path_outside_corridors',
  backward_timestamps: 'timestamps_invalid',
  keyboard_keyup_fraction: 'keyboard_keyups_missing',
  keyboard_hold_median: 'keyboard_holds_implausible',
  keyboard_hold_spread: 'keyboard_holds_implausible',
  keyboard_decision_contrast: 'keyboard_rhythm_scripted',
  keyboard_load_correlation: 'keyboard_rhythm_scripted',
  keyboard_gap_spread: 'timing_too_regular',
  keyboard_choice_contrast: 'keyboard_rhythm_scripted',
  keyboard_overlap_fraction: 'keyboard_no_rollover',
};
