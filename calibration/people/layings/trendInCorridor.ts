import { CELL, arcLengths, pointAt, smoothPath, toEvents } from '../mazePath.js';
import { mazeFor } from '../mazeFor.js';
import type { Laying } from './laying.js';
import { sideOf, trendOf, walked } from './offsets.js';

/** Half-width (ms) of the moving average that is the trace's trend. */
const TREND_HALF_MS = 100;
/** Sideways deviation from the trend is scaled by the corridor: a 60 px target becomes one cell. */
const CORRIDOR_SCALE = CELL / 60;
const WALL_MARGIN = 0.45 * CELL;
/** The maze's centre-line is this many times the person's path, drawn log-uniformly per trace. */
const PACE = [0.75, 1.33] as const;

const lengthOf = (maze: Parameters<typeof smoothPath>[0]) => {
  const s = arcLengths(smoothPath(maze, 0));
  return s[s.length - 1]!;
};

/**
 * The third laying: along the sharp-cornered centre-line, on a maze 0.75 to 1.33 times as long
 * as the person's path (a steering pace, not their own), and the sideways offset the deviation
 * from the trace's trend (a 200 ms moving average), scaled by the corridor's width: the slow
 * drift is dropped, the quick wobble kept. Progress is read along the recorded path, as in the
 * other layings: a laying chooses the geometry, it does not filter the person's own motion.
 */
export const trendInCorridor: Laying = {
  name: 'trend',
  description: 'sharp corners, 0.75-1.33x the path length, offsets = deviation from a 200 ms trend scaled by the corridor',
  mazeFor: (kernel, rng, trace) =>
    mazeFor(kernel, rng, trace.pathPx * Math.exp(rng.uniform(Math.log(PACE[0]), Math.log(PACE[1]))), lengthOf),
  lay(trace, maze) {
    const pts = trace.points;
    const trend = trendOf(pts, TREND_HALF_MS);
    const along = walked(pts);
    const length = along[along.length - 1]! || 1;
    const path = smoothPath(maze, 0);
    const s = arcLengths(path);
    const total = s[s.length - 1]!;
    return toEvents(
      maze,
      pts.map((p, i) => {
        const a = trend[Math.max(0, i - 1)]!,
          b = trend[Math.min(pts.length - 1, i + 1)]!;
        const off = Math.max(-WALL_MARGIN, Math.min(WALL_MARGIN, sideOf(p, a, b) * CORRIDOR_SCALE));
        const at = pointAt(path, s, (along[i]! / length) * total);
        return { x: Math.round(at.p.x + at.nx * off), y: Math.round(at.p.y + at.ny * off), t: p.t };
      }),
    );
  },
};
