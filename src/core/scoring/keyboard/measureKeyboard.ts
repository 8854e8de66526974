import type { Maze } from '../../../kernel/types.js';
import type { Keystroke } from './readKeystrokes.js';
import { MIN_SAMPLES, gapPlacement, gapStructure, ranks } from './gapPlacement.js';
import { correlation, dispersion, groupShare, median, rankContrast } from './helpers/sampleStats.js';

/**
 * Keyboard features, computed in TypeScript from the keystrokes (keyboard traces are small).
 * Times in seconds. What a person shows when solving a maze with the arrow keys: decisions
 * take time where the maze asks for one, runs along a corridor go at a tapping rhythm, and
 * keys are held for about a tenth of a second and released.
 */
export const KEYBOARD_FEATURE_NAMES = [
  /** Presses whose keyup arrived, of all presses but the last (a widget may stop listening at the exit). */
  'keyboard_keyup_fraction',
  /** Median keydown-to-keyup time of a press. */
  'keyboard_hold_median',
  /** Spread of the holds of presses released within a second (taps, not held runs). */
  'keyboard_hold_spread',
  /** P(gap before a decision keystroke > gap before a straight-run one): 0.5 for gaps blind to the maze. */
  'keyboard_decision_contrast',
  /** Correlation of the log gap with the keystroke's load (a turn, a junction: 0, 1 or 2). */
  'keyboard_load_correlation',
  /** Spread of the gaps before every press that moved: a fixed rhythm has none. */
  'keyboard_gap_spread',
  /** P(gap leaving a junction > gap leaving a bend): a choice costs more than a forced turn (Hick-Hyman). */
  'keyboard_choice_contrast',
  /** Presses made while another key was still down (rollover). */
  'keyboard_overlap_fraction',
  /**
   * Share of the variance of the log gaps explained by which key was pressed, corrected for
   * chance: a switch-scanning user waits for the scan to reach the key, so each key has its delay.
   */
  'keyboard_key_gap_share',
  /**
   * How strongly the ranks of the gaps follow where they fall, whatever the way: the largest, as
   * a normal deviate (explainedShare.ts), of their fits on what a sighted person decides on (a
   * change of key, leaving a junction or a dead end), on what a listener hears and remembers (the
   * length of the announcement just heard, a wall just met, a move back into a visited cell, a
   * press into a wall, leaving a dead end), on the key (a scan reaching it), and on all of these.
   * About N(0, 1) (its maximum of four: a little above 0) for gaps blind to the maze.
   */
  'keyboard_gap_structure',
] as const;

export type KeyboardFeatureName = (typeof KEYBOARD_FEATURE_NAMES)[number];

/** A hold longer than this is a key kept down through auto-repeat, not a tap (ms). */
const TAP_HOLD_MS = 1000;

/**
 * The keyboard features of `strokes` (readKeystrokes), in KEYBOARD_FEATURE_NAMES order; NaN
 * where the solve gives too little to measure (the scoring table says what that counts for).
 *
 * A press is a keydown that is not an auto-repeat. The gap before a press that moved the cursor
 * runs from the keydown before it; the press is a decision when it changes direction (a turn, a
 * reversal) or leaves a junction (3 or more open sides), straight otherwise (same direction out
 * of a corridor cell). The first move has no direction before it and no category.
 */
export function measureKeyboard(maze: Maze, strokes: readonly Keystroke[]): Float64Array {
  const presses = strokes.filter((s) => !s.repeat);
  const decision: number[] = [],
    straight: number[] = [],
    choice: number[] = [],
    bend: number[] = [];
  const loads: number[] = [],
    logGaps: number[] = [];
  let heading: { dx: number; dy: number } | undefined;
  strokes.forEach((s, i) => {
    const dx = s.to.x - s.from.x,
      dy = s.to.y - s.from.y;
    if (dx === 0 && dy === 0) return;
    const previous = heading;
    heading = { dx, dy };
    if (s.repeat || previous === undefined || i === 0) return;
    const gap = s.t - strokes[i - 1]!.t;
    const turns = dx !== previous.dx || dy !== previous.dy;
    (turns || s.openSides >= 3 ? decision : straight).push(gap);
    loads.push((turns ? 1 : 0) + (s.openSides >= 3 ? 1 : 0));
    logGaps.push(Math.log(Math.max(1, gap)));
    if (s.openSides >= 3) choice.push(gap);
    else if (turns && s.openSides === 2) bend.push(gap);
  });
  const { logGaps: arrowGaps, byKey, where } = gapPlacement(maze, strokes);
  const released = presses.slice(0, -1);
  const holds = presses.map((p) => p.hold).filter((h) => Number.isFinite(h) && h >= 0);
  const taps = holds.filter((h) => h < TAP_HOLD_MS);
  const values = [
    released.length === 0 ? NaN : released.filter((p) => Number.isFinite(p.hold)).length / released.length,
    median(holds) / 1000,
    dispersion(taps, MIN_SAMPLES + 1),
    rankContrast(decision, straight, MIN_SAMPLES),
    correlation(loads, logGaps, 2 * MIN_SAMPLES),
    dispersion([...decision, ...straight], MIN_SAMPLES + 1),
    rankContrast(choice, bend, MIN_SAMPLES),
    presses.length === 0 ? NaN : presses.filter((p) => p.overlapped).length / presses.length,
    groupShare([...byKey.values()], MIN_SAMPLES),
    gapStructure(where, ranks(arrowGaps)),
  ];
  return Float64Array.from(values);
}
