import type { FeatureName } from '../../kernel/features.js';
import v1 from './tables/v1.json' with { type: 'json' };
import v2 from './tables/v2.json' with { type: 'json' };

export type InputType = 'mouse' | 'touch' | 'pen' | 'keyboard';

/**
 * One feature's contribution: weight * z with z = clamp((transform(value) - center) / scale,
 * -4, 4), or weight * |z| for a `fold` term (a distance from the human median either way).
 */
export interface ScoringTerm {
  feature: FeatureName;
  transform: 'identity' | 'log';
  center: number;
  scale: number;
  weight: number;
  fold?: boolean;
}

export interface InputTable {
  bias: number;
  terms: ScoringTerm[];
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

/** The shipped tables by version: `v1` (fitted on four scripted movers), `v2` (also on public mover libraries and motor-control imitations). */
export const scoringTables = { v1: v1 as ScoringTable, v2: v2 as ScoringTable } as const;
export type TableVersion = keyof typeof scoringTables;

export const defaultTable: ScoringTable = scoringTables.v2;
