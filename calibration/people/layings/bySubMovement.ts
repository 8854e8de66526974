import { CELL, arcLengths, pointAt, smoothPath, toEvents } from '../mazePath.js';
import { mazeFor } from '../mazeFor.js';
import type { Laying } from './laying.js';
import { absQuantile, sideOf, walked } from './offsets.js';
import { subMovementStarts } from './subMovements.js';

/** Corners rounded over this much of a cell (the first laying: 0.3). */
const RADIUS = 0.45 * CELL;
/** The trace's 98th percentile sideways offset is compressed to this (px), if larger. */
const SPREAD = 0.35 * CELL;
/** No offset goes further from the centre-line than this (px): the corridor's wall is at 0.5. */
const WALL_MARGIN = 0.42 * CELL;

const lengthOf = (maze: Parameters<typeof smoothPath>[0]) => {
  const s = arcLengths(smoothPath(maze, RADIUS));
  return s[s.length - 1]!;
};

/**
 * The second laying: along a centre-line rounded over 0.45 cells, at the person's own length;
 * each point's sideways offset is its deviation from the chord of its own sub-movement (split at
 * speed valleys and rests), the whole trace's offsets compressed linearly into the corridor.
 */
export const bySubMovement: Laying = {
  name: 'submovement',
  description:
    "centre-line rounded over 0.45 cells, the person's own length, offsets from each sub-movement's chord compressed linearly into the corridor",
  mazeFor: (kernel, rng, trace) => mazeFor(kernel, rng, trace.pathPx, lengthOf),
  lay(trace, maze) {
    const pts = trace.points;
    const starts = subMovementStarts(pts);
    const dev = pts.map((p, i) => {
      let k = starts.length - 1;
      while (starts[k]! > i) k--;
      const a = pts[starts[k]!]!,
        b = pts[(starts[k + 1] ?? pts.length) - 1]!;
      return sideOf(p, a, b);
    });
    const squeeze = Math.min(1, SPREAD / Math.max(1e-9, absQuantile(dev, 0.98)));
    const path = smoothPath(maze, RADIUS);
    const s = arcLengths(path);
    const total = s[s.length - 1]!;
    const along = walked(pts);
    const length = along[along.length - 1]! || 1;
    return toEvents(
      maze,
      pts.map((p, i) => {
        const off = Math.max(-WALL_MARGIN, Math.min(WALL_MARGIN, dev[i]! * squeeze));
        const at = pointAt(path, s, (along[i]! / length) * total);
        return { x: Math.round(at.p.x + at.nx * off), y: Math.round(at.p.y + at.ny * off), t: p.t };
      }),
    );
  },
};
