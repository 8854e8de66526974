import type { Kernel, Maze, MazeParams } from '../../src/kernel/index.js';
import { MAX_MAZE_SIDE, MIN_MAZE_SIDE } from '../../src/kernel/index.js';
import { MAX_STRETCH } from './layOnMaze.js';
import { CELL, laidLength } from './mazePath.js';
import type { Rng } from '../random.js';

const MAZE_TRIES = 300;

/**
 * A maze whose laid centre-line (`lengthOf`, by default the corner-rounded one) is `lengthPx`
 * long within MAX_STRETCH (else the closest of MAZE_TRIES), so a trace laid on it keeps the
 * person's speed. The side adapts to the length.
 */
export function mazeFor(kernel: Kernel, rng: Rng, lengthPx: number, lengthOf: (maze: Maze) => number = laidLength): MazeParams {
  const clampSide = (v: number) => Math.min(MAX_MAZE_SIDE, Math.max(MIN_MAZE_SIDE, Math.round(v)));
  let side = lengthPx / CELL / 2.5 + 1;
  let best: MazeParams | undefined;
  let bestGap = Infinity;
  for (let i = 0; i < MAZE_TRIES && bestGap > MAX_STRETCH; i++) {
    const m: MazeParams = {
      seed: rng.int(0, 0xffffffff),
      width: clampSide(side + rng.uniform(-2, 2)),
      height: clampSide(side + rng.uniform(-2, 2)),
      difficulty: rng.uniform(0.1, 0.9),
    };
    const stretch = lengthOf(kernel.generateMaze(m)) / lengthPx;
    if (Math.abs(stretch - 1) < bestGap) {
      best = m;
      bestGap = Math.abs(stretch - 1);
    }
    side *= stretch < 1 ? 1.02 : 0.98;
  }
  return best!;
}
