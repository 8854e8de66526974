// The segment walk of kernel.md section 4 (rule 3): the cells a straight segment between two
// points crosses, in order, each step checked against the walls.
import { MAX_SIDE, WALL_E, WALL_N, WALL_S, WALL_W, ensureMaze, wallAt } from './maze';

/** Most cells one segment walk records: a corner-to-corner crossing of the largest maze. */
export const MAX_SEGMENT_CELLS: i32 = 2 * (MAX_SIDE - 1);

/**
 * Two grid-line crossings closer than this along the segment (in cells, |dx| + |dy| measure)
 * are one crossing of a cell corner. Far below anything a pointer resolves (4e-8 px in a 40 px
 * cell), far above float64 rounding of the mapping (about 1e-14 cells), so a segment aimed
 * through a corner is treated as one whichever way the mapping rounded it.
 */
const CORNER_TOLERANCE: f64 = 1e-9;

/** True when cell b is an orthogonal neighbour of a with no wall between them. */
@inline export function openStep(a: i32, b: i32, w: i32): bool {
  const walls = wallAt(a);
  const d = b - a;
  if (d == 1) return b % w != 0 && (walls & WALL_E) == 0;
  if (d == -1) return a % w != 0 && (walls & WALL_W) == 0;
  if (d == w) return (walls & WALL_S) == 0;
  if (d == -w) return (walls & WALL_N) == 0;
  return false;
}

/** Column (or row) of a maze fraction scaled to cells, as kernel.md section 3 maps it. */
@inline function lane(scaled: f64, side: i32): i32 {
  const c = <i32>Math.floor(scaled);
  return c < side - 1 ? c : side - 1;
}

/**
 * Walks the segment from (ax, ay) to (bx, by), maze fractions in [0, 1] of the current maze
 * (w by h, walls loaded), through the cells it crosses. Writes the cells after the first one
 * (the anchor's), ending with the cell of (bx, by), as u16 indices at `out`, and returns their
 * count (0 when both points share a cell), or -1 when a step meets a wall.
 *
 * The walk takes exactly |columns apart| + |rows apart| orthogonal steps, so it ends and never
 * writes more than MAX_SEGMENT_CELLS cells whatever the numbers. The next step is along the
 * axis whose grid line the segment meets first; where it meets both at once (a cell corner,
 * within CORNER_TOLERANCE), the horizontal-first order is taken if both of its steps are open,
 * else the vertical-first one. Points on a grid line belong to the cell after it (floor), as in
 * the mapping, so a segment along a grid line stays in the cells its points map to.
 */
export function walkSegment(ax: f64, ay: f64, bx: f64, by: f64, w: i32, h: i32, out: usize): i32 {
  const x0 = ax * <f64>w;
  const y0 = ay * <f64>h;
  const x1 = bx * <f64>w;
  const y1 = by * <f64>h;
  const dx = x1 - x0;
  const dy = y1 - y0;
  let cx = lane(x0, w);
  let cy = lane(y0, h);
  const tx = lane(x1, w);
  const ty = lane(y1, h);
  const sx: i32 = tx > cx ? 1 : -1;
  const sy: i32 = ty > cy ? 1 : -1;
  let nx = tx > cx ? tx - cx : cx - tx;
  let ny = ty > cy ? ty - cy : cy - ty;
  const span = Math.abs(dx) + Math.abs(dy);
  let cur = cy * w + cx;
  let n: i32 = 0;
  while (nx > 0 || ny > 0) {
    let alongX = nx > 0;
    if (nx > 0 && ny > 0) {
      // Parameters (0..1 along the segment) where it meets the next vertical and horizontal
      // grid lines; computed from the endpoints each time, so no error accumulates.
      const gx = <f64>(sx > 0 ? cx + 1 : cx);
      const gy = <f64>(sy > 0 ? cy + 1 : cy);
      const apart = (gx - x0) / dx - (gy - y0) / dy;
      if (Math.abs(apart) * span <= CORNER_TOLERANCE) {
        const across = cur + sx;
        const down = cur + sy * w;
        const diagonal = across + sy * w;
        let via: i32;
        if (openStep(cur, across, w) && openStep(across, diagonal, w)) via = across;
        else if (openStep(cur, down, w) && openStep(down, diagonal, w)) via = down;
        else return -1;
        store<u16>(out + (<usize>n << 1), <u16>via);
        store<u16>(out + (<usize>(n + 1) << 1), <u16>diagonal);
        n += 2;
        cur = diagonal;
        cx += sx;
        cy += sy;
        nx--;
        ny--;
        continue;
      }
      alongX = apart < 0.0;
    }
    const next = alongX ? cur + sx : cur + sy * w;
    if (!openStep(cur, next, w)) return -1;
    store<u16>(out + (<usize>n << 1), <u16>next);
    n++;
    cur = next;
    if (alongX) {
      cx += sx;
      nx--;
    } else {
      cy += sy;
      ny--;
    }
  }
  return n;
}

const SEGMENT: usize = memory.data(MAX_SEGMENT_CELLS << 1, 16);

export function segmentPtr(): usize {
  return SEGMENT;
}

@inline function clamp01(v: f64): f64 {
  return v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
}

/**
 * The segment walk on its own, for a client that walks a trace one event at a time: maze
 * fractions (clamped into [0, 1]) of the anchor and of the new point, over the maze of these
 * parameters. Writes the crossed cells after the anchor's at segmentPtr() and returns their
 * count; -1 when a step meets a wall, -2 for bad parameters or a non-finite coordinate.
 */
export function segmentCells(seed: u32, w: i32, h: i32, d: f64, ax: f64, ay: f64, bx: f64, by: f64): i32 {
  if (!(ax - ax == 0.0 && ay - ay == 0.0 && bx - bx == 0.0 && by - by == 0.0)) return -2;
  if (!ensureMaze(seed, w, h, d)) return -2;
  return walkSegment(clamp01(ax), clamp01(ay), clamp01(bx), clamp01(by), w, h, SEGMENT);
}
