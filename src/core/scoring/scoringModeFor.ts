import type { ScoringConfig, ScoringMode } from './parseScoringConfig.js';

/** The scoring mode a solve of `inputType` meets: the keyboard mode for a keyboard solve (by default the mode), else the mode. */
export function scoringModeFor(scoring: Pick<ScoringConfig, 'mode' | 'keyboardMode'>, inputType: string | undefined): ScoringMode {
  return inputType === 'keyboard' ? (scoring.keyboardMode ?? scoring.mode) : scoring.mode;
}
