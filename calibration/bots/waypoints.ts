import type { Maze } from '../../src/kernel/index.js';
import { CELL, centre, corners, type Pt } from '../people/mazePath.js';
import type { Rng } from '../random.js';

/**
 * Where a bot author aims a mover along the maze's public solution: its turn points (or every
 * `step`-th cell centre), each moved by up to `spread` cells inside its cell, start and exit
 * included.
 */
export function waypoints(rng: Rng, maze: Maze, spread: number, every: 'turns' | number = 'turns'): Pt[] {
  const jitter = (p: Pt): Pt => ({ x: p.x + rng.uniform(-spread, spread) * CELL, y: p.y + rng.uniform(-spread, spread) * CELL });
  if (every === 'turns') return corners(maze).map(jitter);
  const cells = maze.solution.filter((_, i) => i % every === 0 || i === maze.solution.length - 1);
  return cells.map((c) => jitter(centre(c)));
}
