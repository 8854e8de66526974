import { layOnMaze } from '../layOnMaze.js';
import { mazeFor } from '../mazeFor.js';
import type { Laying } from './laying.js';

/**
 * The first laying: along the solution's centre-line rounded over 0.3 cells, at the person's own
 * length, each point's sideways deviation from its recorded segment's chord kept and saturated
 * (tanh) at 0.3 cells.
 */
export const alongChord: Laying = {
  name: 'chord',
  description:
    "rounded centre-line (0.3 cells), the person's own length, offsets from each recorded segment's chord saturated at 0.3 cells",
  mazeFor: (kernel, rng, trace) => mazeFor(kernel, rng, trace.pathPx),
  lay: (trace, maze) => layOnMaze(trace, maze),
};
