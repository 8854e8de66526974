import type { Cell, Maze, RawEvent } from '../../src/kernel/index.js';

export const CELL = 40;

export interface Pt {
  x: number;
  y: number;
}

/** Canvas pixel of a cell centre (kernel.md section 3: 20 px margin). */
export function centre(c: Cell): Pt {
  return { x: 20 + (c.x + 0.5) * CELL, y: 20 + (c.y + 0.5) * CELL };
}

/** Cell centres where the solution turns, start and exit included. */
export function corners(maze: Maze): Pt[] {
  const s = maze.solution;
  const out: Pt[] = [centre(s[0]!)];
  for (let i = 1; i < s.length - 1; i++) {
    const a = s[i - 1]!,
      b = s[i]!,
      c = s[i + 1]!;
    if (b.x - a.x !== c.x - b.x || b.y - a.y !== c.y - b.y) out.push(centre(b));
  }
  out.push(centre(s[s.length - 1]!));
  return out;
}

/** The solution's centre-line with corners rounded over `radius` px, sampled every px. */
export function smoothPath(maze: Maze, radius = 0.3 * CELL): Pt[] {
  const raw: Pt[] = [];
  const cs = maze.solution.map(centre);
  for (let i = 0; i < cs.length - 1; i++) {
    const a = cs[i]!,
      b = cs[i + 1]!;
    for (let k = 0; k < CELL; k++) raw.push({ x: a.x + ((b.x - a.x) * k) / CELL, y: a.y + ((b.y - a.y) * k) / CELL });
  }
  raw.push(cs[cs.length - 1]!);
  const r = Math.round(radius);
  const out: Pt[] = [];
  for (let i = 0; i < raw.length; i++) {
    const lo = Math.max(0, i - r),
      hi = Math.min(raw.length - 1, i + r);
    const w = Math.min(i - lo, hi - i);
    let sx = 0,
      sy = 0;
    for (let k = i - w; k <= i + w; k++) {
      sx += raw[k]!.x;
      sy += raw[k]!.y;
    }
    out.push({ x: sx / (2 * w + 1), y: sy / (2 * w + 1) });
  }
  return out;
}

/** Length (px) of the corner-rounded centre-line a trace is laid along. */
export function laidLength(maze: Maze): number {
  const s = arcLengths(smoothPath(maze));
  return s[s.length - 1]!;
}

/** Cumulative arc length of a polyline. */
export function arcLengths(path: readonly Pt[]): number[] {
  const s = [0];
  for (let i = 1; i < path.length; i++) s.push(s[i - 1]! + Math.hypot(path[i]!.x - path[i - 1]!.x, path[i]!.y - path[i - 1]!.y));
  return s;
}

/** Point and unit normal at arc length `at` along `path`. */
export function pointAt(path: readonly Pt[], s: readonly number[], at: number): { p: Pt; nx: number; ny: number } {
  const total = s[s.length - 1]!;
  const u = Math.min(Math.max(at, 0), total);
  let lo = 0,
    hi = s.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (s[mid]! <= u) lo = mid;
    else hi = mid;
  }
  const a = path[lo]!,
    b = path[hi]!;
  const len = s[hi]! - s[lo]! || 1;
  const f = (u - s[lo]!) / len;
  const tx = (b.x - a.x) / len,
    ty = (b.y - a.y) / len;
  return { p: { x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f }, nx: -ty, ny: tx };
}

/** Pointer events in canvas fractions: a down, moves, an up. */
export function toEvents(maze: Maze, pts: readonly { x: number; y: number; t: number }[]): RawEvent[] {
  const w = maze.width * CELL + 40,
    h = maze.height * CELL + 64;
  const ev: RawEvent[] = pts.map((p, i) => ({
    x: p.x / w,
    y: p.y / h,
    t: p.t,
    type: i === 0 ? 'down' : 'move',
    pointer_type: 'mouse',
  }));
  const last = pts[pts.length - 1]!;
  ev.push({ x: last.x / w, y: last.y / h, t: last.t, type: 'up', pointer_type: 'mouse' });
  return ev;
}
