import type { MazeParams, PackedEvents, RawEvent } from '../../kernel/types.js';
import type { CoreContext } from '../context.js';
import { type Failure, failure } from '../errors.js';
import type { ScoringConfig } from '../scoring/parseScoringConfig.js';
import { scoringTables } from '../scoring/ScoringTable.js';
import type { ReasonCode } from '../scoring/reasons/reasonCodes.js';
import type { Scored } from '../scoring/Scored.js';
import { scoreSubmission } from '../scoring/scoreSubmission.js';
import { scoringModeFor } from '../scoring/scoringModeFor.js';

export interface ScoreCheckInput {
  siteKey: string;
  /** The site's scoring mode, threshold and table (its own, or the server's). */
  scoring: ScoringConfig;
  maze: MazeParams;
  /** The cell size of the canvas the path replay walked (features are in its cell units). */
  cellSize: number;
  events: readonly RawEvent[];
  /** The same events packed (already replayed). */
  packed: PackedEvents;
  /** Server-measured probe reaction times, ms (empty without probes). */
  probeReactionsMs: readonly number[];
  /** Score a keyboard solve by the strict keyboard model (STRICT_KEYBOARD_MODEL) instead of the table's. */
  strictKeyboard: boolean;
}

/** The strict keyboard model: `v2`'s, which holds the known keyboard scripts to about 2% (docs/keyboard-solves.md). */
export const STRICT_KEYBOARD_MODEL = scoringTables.v2.types.keyboard;

/**
 * For a keyboard solve: whether the strict model judged it (the `keyboard_strict` method), and
 * whether the table's own (people-first) model accepts it, which is what the keyboard budget
 * counts whichever model judged it.
 */
export interface KeyboardJudgement {
  strict: boolean;
  peopleFirstPass: boolean;
}

/**
 * `reasons`: why the score is under the threshold (shadow mode only; empty otherwise). `scored`:
 * present when scoring ran in enforce or shadow mode.
 */
export type ScoreCheck =
  | { ok: true; score: number; reasons: ReasonCode[]; scored?: Scored; keyboard?: KeyboardJudgement }
  | { ok: false; failure: Failure; scored: Scored; keyboard?: KeyboardJudgement };

/** The score a token carries when scoring is off: nothing was measured, so nothing counts against. */
export const UNSCORED = 1;

/**
 * The scoring step of /verify, by the site's scoring mode (SCORING_MODE without a sites file), or
 * for a solve scored as a keyboard one its keyboard mode (SCORING_KEYBOARD_MODE; default the same):
 * - off: no scoring; the token's score is UNSCORED (1);
 * - shadow: scores and logs (site key, score, input type, duplicate, reason codes), never
 *   rejects; the token carries the measured score (0 for a duplicate) and, below the threshold,
 *   the reason codes;
 * - enforce: a near-copy of a recently accepted trace is duplicate_trace, a score below
 *   the threshold is behavioral_rejected; otherwise the token carries the measured score.
 */
export async function checkScore(ctx: CoreContext, input: ScoreCheckInput): Promise<ScoreCheck> {
  const { mode: pointerMode, keyboardMode = pointerMode, threshold } = input.scoring;
  const unscored: ScoreCheck = { ok: true, score: UNSCORED, reasons: [] };
  if (pointerMode === 'off' && keyboardMode === 'off') return unscored;
  const table = input.scoring.siteTable ?? scoringTables[input.scoring.table];
  const r = await scoreSubmission(
    {
      kernel: ctx.kernel,
      table,
      keyboardModel: input.strictKeyboard ? STRICT_KEYBOARD_MODEL : undefined,
      fingerprints: ctx.fingerprints,
      stages: ctx.verifyStages,
    },
    {
      maze: input.maze,
      cellSize: input.cellSize,
      events: input.packed,
      rawEvents: input.events,
      probeReactionsMs: input.probeReactionsMs,
      threshold,
    },
  );
  const mode = scoringModeFor(input.scoring, r.inputType);
  if (mode === 'off') return unscored;
  const scored: Scored = { mode, score: r.score, reasons: r.reasons, features: r.features };
  const keyboard =
    r.inputType === 'keyboard'
      ? { strict: r.model === STRICT_KEYBOARD_MODEL, peopleFirstPass: !r.duplicate && r.tableScore >= threshold }
      : undefined;
  if (mode === 'shadow') {
    ctx.log.info(
      {
        site_key: input.siteKey,
        score: r.score,
        input_type: r.inputType,
        duplicate: r.duplicate,
        below_threshold: r.score < threshold,
        reasons: r.reasons,
      },
      'shadow score',
    );
    ctx.verifyStages?.('logging');
    return { ok: true, score: r.score, reasons: r.reasons, scored, keyboard };
  }
  if (r.duplicate) return { ok: false, failure: failure('duplicate_trace'), scored, keyboard };
  if (r.score < threshold) return { ok: false, failure: failure('behavioral_rejected'), scored, keyboard };
  return { ok: true, score: r.score, reasons: [], scored, keyboard };
}
