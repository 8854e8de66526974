import type { MazeParams } from '../../kernel/types.js';
import type { SitePolicy } from '../sites/SitePolicy.js';

/** The maze of a challenge: its derived seed with its site's size and difficulty. */
export function challengeMaze(maze: SitePolicy['maze'], seed: number): MazeParams {
  return { seed, width: maze.width, height: maze.height, difficulty: maze.difficulty };
}
