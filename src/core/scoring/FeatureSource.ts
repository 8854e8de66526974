import type { TraceFeatures } from '../../kernel/types.js';
import type { Maze, MazeParams, PackedEvents } from '../../kernel/types.js';

/** What scoring needs from the kernel: the features of packed events over a maze, and the maze (for keyboard solves). */
export interface FeatureSource {
  features(maze: MazeParams, events: PackedEvents, cellSize: number): TraceFeatures;
  generateMaze(params: MazeParams): Maze;
}
