import type { ScoringMode } from '../../core/scoring/parseScoringConfig.js';

/** What the demo's backend learnt from redeeming a token, and how its site is scored. */
export interface DemoOutcome {
  valid: boolean;
  score: number;
  error?: string;
  /** Why the score is under the threshold (shadow mode only). */
  reasons?: readonly string[];
  /** The scoring mode that judged the solve (the keyboard mode for a keyboard solve); absent: unknown. */
  mode?: ScoringMode;
  threshold?: number;
}

/** Scores are shown to two decimals: the rest is noise to a reader (the token keeps them all). */
const shown = (score: number) => score.toFixed(2);

/** What the demo page says, and in which tone: `shadow` for a solve only shadow mode let through. */
export interface DemoVerdict {
  text: string;
  tone: 'ok' | 'shadow' | 'error';
}

/**
 * The sentence the demo shows after a sign-up. "Passed" is said only when the score would have
 * passed in enforce mode: in shadow mode a solve under the threshold is let through, and the
 * page says so rather than call it a pass.
 */
export function demoVerdict(outcome: DemoOutcome): DemoVerdict {
  if (!outcome.valid) return { text: `The human check did not pass: ${outcome.error ?? 'invalid_token'}.`, tone: 'error' };
  if (outcome.mode === 'off')
    return { text: 'The maze and the proof of work were checked; scoring is off, so no score was measured.', tone: 'ok' };
  const threshold = outcome.threshold;
  if (outcome.mode === 'shadow' && threshold !== undefined && outcome.score < threshold) {
    const why = outcome.reasons && outcome.reasons.length > 0 ? ` (${outcome.reasons.join(', ')})` : '';
    const text = `Accepted only because scoring is in shadow mode: the score ${shown(outcome.score)} is under the threshold ${threshold}${why}, which enforce mode would refuse.`;
    return { text, tone: 'shadow' };
  }
  const shadow = outcome.mode === 'shadow' ? '; scoring is in shadow mode, which accepts any score' : '';
  return {
    text: `The human check passed (score ${shown(outcome.score)}${threshold === undefined ? '' : `, threshold ${threshold}`}${shadow}).`,
    tone: 'ok',
  };
}
