import type { Maze, RawEvent } from '../../src/kernel/index.js';
import type { HumanTrace } from './humans.js';
import { CELL, arcLengths, laidLength, pointAt, smoothPath, toEvents } from './mazePath.js';

/** Largest offset (px) from the centre-line; deviations saturate smoothly towards it. */
const MAX_OFFSET = 0.3 * CELL;

/**
 * Largest relative difference between a trace's path and the centre-line it is laid along:
 * beyond it the laying would change the person's speed, and with it the per-event steps that
 * path replay depends on.
 */
export const MAX_STRETCH = 0.02;

/** How much laying `trace` along `maze` scales its path (1: the person's own length). */
export function stretchOf(trace: HumanTrace, maze: Maze): number {
  return laidLength(maze) / trace.pathPx;
}

/**
 * Lays a human trace along the maze's solution: each point keeps its timestamp, goes to the
 * same fraction of the solution's length as of the human path, and keeps its perpendicular
 * deviation from its segment's chord (in px, saturating inside the corridor). Pick a maze
 * whose `stretchOf` is within MAX_STRETCH of 1, so the person's speed is kept.
 */
export function layOnMaze(trace: HumanTrace, maze: Maze): RawEvent[] {
  const path = smoothPath(maze);
  const s = arcLengths(path);
  const total = s[s.length - 1]!;
  const pts = trace.points;
  const out: { x: number; y: number; t: number }[] = [];
  let walked = 0;
  for (let i = 0; i < pts.length; i++) {
    const p = pts[i]!;
    if (i > 0) walked += Math.hypot(p.x - pts[i - 1]!.x, p.y - pts[i - 1]!.y);
    const cx = p.bx - p.ax,
      cy = p.by - p.ay;
    const chord = Math.hypot(cx, cy);
    const dev = chord > 0 ? ((p.x - p.ax) * cy - (p.y - p.ay) * cx) / chord : 0;
    const off = MAX_OFFSET * Math.tanh(dev / MAX_OFFSET);
    const at = pointAt(path, s, (walked / trace.pathPx) * total);
    out.push({ x: Math.round(at.p.x + at.nx * off), y: Math.round(at.p.y + at.ny * off), t: p.t });
  }
  return toEvents(maze, out);
}
