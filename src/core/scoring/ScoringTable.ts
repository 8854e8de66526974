import type { FeatureName } from '../../kernel/features.js';
import type { KeyboardFeatureName } from './keyboard/measureKeyboard.js';
import v1 from './tables/v1.json' with { type: 'json' };
import v2 from './tables/v2.json' with { type: 'json' };
import v3 from './tables/v3.json' with { type: 'json' };

export type InputType = 'mouse' | 'touch' | 'pen' | 'keyboard';

/**
 * One feature's contribution: weight * z with z = clamp((transform(value) - center) / scale,
 * -4, 4), or weight * |z| for a `fold` term (a distance from the human median either way).
 * A kernel feature's term unless `F` says otherwise; a keyboard feature is measured for
 * keyboard solves only.
 */
export interface ScoringTerm<F extends ScoredFeature = FeatureName> {
  feature: F;
  transform: 'identity' | 'log';
  center: number;
  scale: number;
  weight: number;
  /**
   * The clamped z of a value the trace gives too little to measure (NaN), such as a rhythm
   * contrast on a maze without straight runs; absent, such a value counts as the worst (-4 on
   * the human side of the weight).
   */
  missing?: number;
  /** Weigh |z| instead of z: a distance from the human median in either direction. */
  fold?: boolean;
  /**
   * Count the term only where it lowers the score: a value on the human side of the median
   * adds nothing, so looking very human on one feature cannot buy back looking scripted on
   * another.
   */
  onlyLowers?: boolean;
  /**
   * One of the table's bounded terms (see InputTable.boundedFloor): a feature that the way
   * calibration lays pointing data on mazes can move, so it may lower a score only so far.
   */
  bounded?: boolean;
}

/** Every feature a term may weigh. */
export type ScoredFeature = FeatureName | KeyboardFeatureName;

/**
 * A machine's signature: a measured value below `below` refuses the solve alone, whatever the
 * rest of the model reads (score 0, the feature's reason code first). Set where no modelled person
 * falls (a keyboard solve with no keyups, gaps of one fixed length), so that moving the model's
 * bias towards people never lets such a script through, or past all but a thousandth of the
 * calibration people on a feature that is the person's own whatever the laying (pointer motion
 * smoother than people's). A value the solve gives too little to measure trips no gate.
 */
export interface ScoringGate<F extends ScoredFeature = ScoredFeature> {
  feature: F;
  below: number;
}

export interface InputTable {
  bias: number;
  terms: ScoringTerm<ScoredFeature>[];
  /** Checked before the terms, in order; the first tripped one names the reason. */
  gates?: ScoringGate[];
  /**
   * The most the `bounded` terms together may lower the logit (a positive number; absent: no
   * bound). Kept below bias - logit(threshold), so a person at the human median on every other
   * feature is accepted however the bounded features read: they cannot reject anyone alone.
   */
  boundedFloor?: number;
}

/**
 * Versioned scoring data: a logistic model per input type over kernel features, the
 * calibrated threshold, and the probe reaction-time penalty.
 */
export interface ScoringTable {
  version: string;
  /** Default SCORE_THRESHOLD: traces scoring below it are rejected in enforce mode. */
  threshold: number;
  types: Record<InputType, InputTable>;
  probe: {
    /** Reactions faster than this (ms) are not plausibly human. */
    minReactionMs: number;
    /** Logit penalty per unit of ln(minReactionMs / reaction) for each too-fast reaction. */
    weight: number;
  };
}

/**
 * The shipped tables by version: `v1` (fitted on four scripted movers), `v2` (also on public mover
 * libraries and motor-control imitations), `v3` (the default: features that hold whatever the
 * laying of the calibration data, and keyboard people who explore by announcements).
 */
export const scoringTables = { v1: v1 as ScoringTable, v2: v2 as ScoringTable, v3: v3 as ScoringTable } as const;
export type TableVersion = keyof typeof scoringTables;

export const defaultTable: ScoringTable = scoringTables.v3;
