import type { Kernel, Maze, MazeParams, RawEvent } from '../../../src/kernel/index.js';
import type { HumanTrace } from '../humans.js';
import type { Rng } from '../../random.js';

/**
 * One way of laying recorded pointing movement onto a maze. Nobody here has recorded people
 * tracing a maze, so where a laid path runs in a corridor, how it rounds a turn and at what pace
 * it covers the maze are our choices, not the person's: calibrate lays the same people in several
 * independent ways and holds one laying out when it measures.
 */
export interface Laying {
  name: string;
  /** One line: what the laying chooses. */
  description: string;
  /** The maze this trace is laid on (its size follows the trace's length). */
  mazeFor(kernel: Kernel, rng: Rng, trace: HumanTrace): MazeParams;
  /** The trace laid on `maze`: pointer events in canvas fractions, the person's timestamps kept. */
  lay(trace: HumanTrace, maze: Maze, rng: Rng): RawEvent[];
}
