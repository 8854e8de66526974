// The bounded detour of kernel.md section 4 (rule 3b): an event the segment walk cannot reach
// is reached by the shortest open route from the last recorded cell when that route is at most
// DETOUR_SLACK steps longer than the two cells are apart.
import { MAX_SIDE, WALL_E, WALL_N, WALL_S, WALL_W, ensureMaze, wallAt } from './maze';
import { MAX_SEGMENT_CELLS } from './segment';

/** Steps a detour may take beyond |columns apart| + |rows apart|. */
export const DETOUR_SLACK: i32 = 4;
/** Most cells one detour records: the farthest two cells of the largest maze, plus the slack. */
export const MAX_DETOUR_CELLS: i32 = MAX_SEGMENT_CELLS + DETOUR_SLACK;

const MAX_CELLS: i32 = MAX_SIDE * MAX_SIDE;
/** Distance to the target plus one, per cell; 0 for a cell the search has not reached. */
const DIST: usize = memory.data(MAX_CELLS, 16);
/** The search's queue (u16 cells); afterwards the list of cells whose DIST to clear. */
const QUEUE: usize = memory.data(MAX_CELLS << 1, 16);

/** Column and row steps across each side (wall bits N=1, S=2, E=4, W=8). */
@inline function stepX(side: u8): i32 {
  return side == WALL_E ? 1 : side == WALL_W ? -1 : 0;
}

@inline function stepY(side: u8): i32 {
  return side == WALL_S ? 1 : side == WALL_N ? -1 : 0;
}

@inline function distAt(c: i32): i32 {
  return <i32>load<u8>(DIST + <usize>c);
}

/**
 * The detour from cell `from` to cell `to` of the current maze (w by h, walls loaded): writes the
 * route's cells after `from`, ending with `to`, as u16 indices at `out` and returns their count
 * (0 when from == to), or -1 when no open route of at most apart + DETOUR_SLACK steps exists.
 *
 * A breadth-first search from `to` gives each cell its distance to `to`; the route then steps
 * from `from`, each time, to the first neighbour in the order N, S, E, W that is open and one
 * step closer, as kernel.md fixes. The search stops at the bound: a cell enters it only when its
 * distance plus its own cells apart from `from` (a lower bound on the rest of any route through
 * it) stays within apart + DETOUR_SLACK, which keeps every cell of a route within the bound and
 * its distance exact (the bound is consistent, so no route of the bound passes a cell left out);
 * and it stops as soon as it reaches `from`, when every cell one step closer is already placed.
 * Coordinates are carried along so the search divides once per cell. No memory is allocated;
 * DIST is left all zero for the next call.
 */
export function walkDetour(from: i32, to: i32, w: i32, h: i32, out: usize): i32 {
  if (from == to) return 0;
  const fx = from % w;
  const fy = from / w;
  const limit = abs<i32>(fx - to % w) + abs<i32>(fy - to / w) + DETOUR_SLACK;
  store<u8>(DIST + <usize>to, 1);
  store<u16>(QUEUE, <u16>to);
  let head: i32 = 0;
  let tail: i32 = 1;
  let found = false;
  while (head < tail && !found) {
    const c = <i32>load<u16>(QUEUE + (<usize>head << 1));
    head++;
    const cx = c % w;
    const cy = c / w;
    const walls = wallAt(c);
    const next = distAt(c); // the neighbours' distance, plus one
    for (let side: u8 = WALL_N; side <= WALL_W; side <<= 1) {
      if ((walls & side) != 0) continue;
      const nx = cx + stepX(side);
      const ny = cy + stepY(side);
      if (<u32>nx >= <u32>w || <u32>ny >= <u32>h || next + abs<i32>(nx - fx) + abs<i32>(ny - fy) > limit) continue;
      const nb = ny * w + nx;
      if (distAt(nb) != 0) continue;
      store<u8>(DIST + <usize>nb, <u8>(next + 1));
      store<u16>(QUEUE + (<usize>tail << 1), <u16>nb);
      tail++;
      if (nb == from) {
        found = true;
        break;
      }
    }
  }
  let count: i32 = -1;
  if (found) {
    // Every reached cell but `to` has an open neighbour one step closer (the cell the search
    // reached it from), so each step gets closer and the walk ends on `to` within the bound.
    count = 0;
    let x = fx;
    let y = fy;
    for (let cur = from; cur != to && count < limit; ) {
      const walls = wallAt(cur);
      const closer = distAt(cur) - 1;
      for (let side: u8 = WALL_N; side <= WALL_W; side <<= 1) {
        const nx = x + stepX(side);
        const ny = y + stepY(side);
        if ((walls & side) != 0 || <u32>nx >= <u32>w || <u32>ny >= <u32>h || distAt(ny * w + nx) != closer) continue;
        x = nx;
        y = ny;
        cur = ny * w + nx;
        break;
      }
      store<u16>(out + (<usize>count << 1), <u16>cur);
      count++;
    }
  }
  for (let i: i32 = 0; i < tail; i++) store<u8>(DIST + <usize>load<u16>(QUEUE + (<usize>i << 1)), 0);
  return count;
}

const DETOUR: usize = memory.data(MAX_DETOUR_CELLS << 1, 16);

export function detourPtr(): usize {
  return DETOUR;
}

/**
 * The detour on its own, for a client that walks a trace one event at a time: cell indices
 * `from` and `to` of the maze of these parameters. Writes the route's cells after `from` at
 * detourPtr() and returns their count; -1 when no route is within the bound, -2 for bad
 * parameters or a cell outside the maze.
 */
export function detourCells(seed: u32, w: i32, h: i32, d: f64, from: i32, to: i32): i32 {
  if (!ensureMaze(seed, w, h, d)) return -2;
  const n = w * h;
  if (from < 0 || from >= n || to < 0 || to >= n) return -2;
  return walkDetour(from, to, w, h, DETOUR);
}
