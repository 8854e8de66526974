import type { Maze } from '../../../kernel/types.js';
import { announcementLength } from './announcementLength.js';
import { fitZ, momentsOf } from './helpers/explainedShare.js';
import type { Keystroke } from './readKeystrokes.js';

const ARROWS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight']);
/** Fewest samples a side of a contrast, or a variation, is measured on; a fit, beyond its covariates. */
export const MIN_SAMPLES = 2;

/**
 * What the gaps between consecutive arrow presses (auto-repeats, and the key that started the
 * solve, left out) can follow: the log gap before each press, those gaps by key, and where each
 * fell (`where`, one row a gap): the key (3 columns: down, left, right), a change of key, leaving a
 * junction, leaving a dead end, the length of what the press before announced (a press that left
 * the cursor where it was met a wall), a wall just met, a move back into a visited cell (the start
 * counts as visited), a press into a wall.
 */
export function gapPlacement(maze: Maze, strokes: readonly Keystroke[]) {
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

/**
 * How strongly `ys` (the ranks of the gaps) follow `where` (gapPlacement), whatever the way: the
 * largest normal deviate of their fits on each way (keyboard_gap_structure). NaN when no way has
 * enough gaps to fit.
 */
export function gapStructure(where: readonly (readonly number[])[], ys: readonly number[]): number {
  const moments = momentsOf(where, ys);
  const zs = WAYS.map((cols) => fitZ(moments, cols, MIN_SAMPLES)).filter((z) => !Number.isNaN(z));
  return zs.length === 0 ? NaN : Math.max(...zs);
}

/** The rank of each value among `xs` (ties share their mean rank): long pauses weigh no more than the longest gap. */
export function ranks(xs: readonly number[]): number[] {
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
