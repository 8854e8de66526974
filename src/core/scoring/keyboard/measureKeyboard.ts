import type { Maze } from '../../../kernel/types.js';
import { announcementLength } from './announcementLength.js';
import type { Keystroke } from './readKeystrokes.js';
import { fitZ, momentsOf } from './helpers/explainedShare.js';
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

const ARROWS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight']);

/** Fewest samples a side of a contrast, or a variation, is measured on. */
const MIN_SAMPLES = 2;
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
  const decision: number[] = [], straight: number[] = [], choice: number[] = [], bend: number[] = [];
  const loads: number[] = [], logGaps: number[] = [];
  let heading: { dx: number; dy: number } | undefined;
  strokes.forEach((s, i) => {
    const dx = s.to.x - s.from.x, dy = s.to.y - s.from.y;
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
  const { logGaps: arrowGaps, byKey, where } = listening(maze, strokes);
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


/**
 * What the gaps between consecutive arrow presses (auto-repeats, and the key that started the
 * solve, left out) can follow: the log gap before each press, those gaps by key, and where each
 * fell (`where`, one row a gap): the key (3 columns: down, left, right), a change of key, leaving a
 * junction, leaving a dead end, the length of what the press before announced (a press that left
 * the cursor where it was met a wall), a wall just met, a move back into a visited cell (the start
 * counts as visited), a press into a wall.
 */
function listening(maze: Maze, strokes: readonly Keystroke[]) {
  const logGaps: number[] = [];
  const byKey = new Map<string, number[]>();
  const where: number[][] = [];
  const visited = new Set<number>([strokes[0] === undefined ? 0 : strokes[0].from.y * maze.width + strokes[0].from.x]);
  let previous: Keystroke | undefined;
  for (const s of strokes) {
    if (s.repeat || !ARROWS.has(s.key)) continue;
    const cell = s.to.y * maze.width + s.to.x;
    const moved = s.to.x !== s.from.x || s.to.y !== s.from.y;
    if (previous !== undefined) {
      const logGap = Math.log(Math.max(1, s.t - previous.t));
      const intoWall = previous.to.x === previous.from.x && previous.to.y === previous.from.y;
      logGaps.push(logGap);
      const ofKey = byKey.get(s.key);
      if (ofKey === undefined) byKey.set(s.key, [logGap]);
      else ofKey.push(logGap);
      where.push([
        s.key === 'ArrowDown' ? 1 : 0,
        s.key === 'ArrowLeft' ? 1 : 0,
        s.key === 'ArrowRight' ? 1 : 0,
        s.key !== previous.key ? 1 : 0,
        s.openSides >= 3 ? 1 : 0,
        s.openSides === 1 ? 1 : 0,
        announcementLength(maze, previous.to, intoWall),
        intoWall ? 1 : 0,
        moved && visited.has(cell) ? 1 : 0,
        moved ? 0 : 1,
      ]);
    }
    visited.add(cell);
    previous = s;
  }
  return { logGaps, byKey, where };
}

/** Columns of `where` (listening()) each way a person's gaps may follow the maze or the keys. */
const WAYS: readonly (readonly number[])[] = [
  [3, 4, 5],
  [5, 6, 7, 8, 9],
  [0, 1, 2],
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
];

function gapStructure(where: readonly (readonly number[])[], ys: readonly number[]): number {
  const moments = momentsOf(where, ys);
  const zs = WAYS.map((cols) => fitZ(moments, cols, MIN_SAMPLES)).filter((z) => !Number.isNaN(z));
  return zs.length === 0 ? NaN : Math.max(...zs);
}

/** The rank of each value among `xs` (ties share their mean rank): long pauses weigh no more than the longest gap. */
function ranks(xs: readonly number[]): number[] {
  const order = xs.map((_, i) => i).sort((a, b) => xs[a]! - xs[b]!);
  const out = new Array<number>(xs.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && xs[order[j + 1]!] === xs[order[i]!]) j++;
    for (let k = i; k <= j; k++) out[order[k]!] = (i + j) / 2;
    i = j + 1;
  }
  return out;
}
