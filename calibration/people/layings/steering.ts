import { CELL, arcLengths, pointAt, smoothPath, toEvents, type Pt } from '../mazePath.js';
import { mazeFor } from '../mazeFor.js';
import type { Laying } from './laying.js';
import { sideOf, walked } from './offsets.js';

/** Corners of the centre-line the point steers along, rounded over this much of a cell. */
const RADIUS = 0.3 * CELL;
/** The point heads for the centre-line this far (px) ahead of where it is nearest to it. */
const LOOK_AHEAD = 0.5 * CELL;
/** Longest move (px) between two steering decisions: a fast step is steered in pieces. */
const PIECE = 2;
/** The person's own deviation from each recorded segment's chord saturates (tanh) here (px). */
const OWN_DEVIATION = 0.3 * CELL;
/** No point goes further from the centre-line than this (px): the corridor's wall is at 0.5. */
const WALL_MARGIN = 0.45 * CELL;

const lengthOf = (maze: Parameters<typeof smoothPath>[0]) => {
  const s = arcLengths(smoothPath(maze, RADIUS));
  return s[s.length - 1]!;
};

/**
 * A steering model driven by the person's own velocity, not a mapping of their path: a point
 * that pursues the solution's centre-line (heading for a point LOOK_AHEAD along it, so it cuts
 * the inside of turns and drifts back as a steering controller does), moving between each pair
 * of recorded points exactly as far as the person moved (the person's own speed over time, rests
 * included). Its sideways error is the pursuit's plus the person's own deviation from each
 * recorded segment's chord, saturating, the sum kept inside the corridor. Held out: never fitted,
 * a laying none of the fitted ones resembles by construction.
 */
export const steering: Laying = {
  name: 'steering',
  description:
    "a point pursuing the centre-line 0.5 cells ahead at the person's own speed, plus the person's chord deviation (tanh at 0.3 cells), inside 0.45 cells",
  mazeFor: (kernel, rng, trace) => mazeFor(kernel, rng, trace.pathPx, lengthOf),
  lay(trace, maze) {
    const pts = trace.points;
    const path = smoothPath(maze, RADIUS);
    const s = arcLengths(path);
    const total = s[s.length - 1]!;
    const along = walked(pts);
    const pos: Pt = { ...path[0]! };
    let near = 0;
    /** Where on the centre-line (index into `path`) the point is nearest, searched forward only. */
    const nearest = () => {
      let best = near,
        bestD = Infinity;
      for (let k = near; k < path.length && s[k]! <= s[near]! + 4 * PIECE + 1; k++) {
        const d = Math.hypot(path[k]!.x - pos.x, path[k]!.y - pos.y);
        if (d < bestD) {
          best = k;
          bestD = d;
        }
      }
      near = best;
    };
    return toEvents(
      maze,
      pts.map((p, i) => {
        let left = i === 0 ? 0 : along[i]! - along[i - 1]!;
        while (left > 0) {
          const target = pointAt(path, s, s[near]! + LOOK_AHEAD).p;
          const gap = Math.hypot(target.x - pos.x, target.y - pos.y);
          if (gap < 1e-6) break; // at the exit: the rest of the person's movement has nowhere to go
          const move = Math.min(left, PIECE, gap);
          pos.x += ((target.x - pos.x) / gap) * move;
          pos.y += ((target.y - pos.y) / gap) * move;
          left -= move;
          nearest();
        }
        const at = pointAt(path, s, Math.min(s[near]!, total));
        const pursuit = (pos.x - at.p.x) * at.nx + (pos.y - at.p.y) * at.ny;
        const own = sideOf(p, { x: p.ax, y: p.ay }, { x: p.bx, y: p.by });
        const off = Math.max(-WALL_MARGIN, Math.min(WALL_MARGIN, pursuit + OWN_DEVIATION * Math.tanh(own / OWN_DEVIATION)));
        return { x: Math.round(at.p.x + at.nx * off), y: Math.round(at.p.y + at.ny * off), t: p.t };
      }),
    );
  },
};
