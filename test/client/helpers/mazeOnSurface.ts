// A maze from the real kernel on its drawing surface (cells of 40 px), as the widget lays it out.
import { surfaceOf, type Surface } from '../../../src/client/geometry.js';
import type { Kernel, Maze } from '../../../src/kernel/types.js';
import { getKernel } from '../../kernel/helpers/kernel.js';

export interface MazeOnSurface {
  kernel: Kernel;
  maze: Maze;
  s: Surface;
}

export async function mazeOnSurface(seed: number, width: number, height: number): Promise<MazeOnSurface> {
  const kernel = await getKernel();
  return { kernel, maze: kernel.generateMaze({ seed, width, height, difficulty: 0.5 }), s: surfaceOf(width, height, 40) };
}
