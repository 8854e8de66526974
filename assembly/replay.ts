// Path replay (kernel.md section 4) over the packed events in memory.
import { EVENTS, EVENT_BYTES, MAX_EVENTS, ensureHeap, pathPtr, setResult } from './memory';
import { ensureMaze } from './maze';
import { CODE_KEYDOWN, eventCell, lastMx, lastMy, setCanvas } from './geometry';
import { openStep, walkSegment } from './segment';
import { MAX_DETOUR_CELLS, walkDetour } from './detour';

/**
 * Replays `count` packed events (at EVENTS) over the maze. `trigger` < 0 selects the
 * /verify rules; otherwise the strict probe prefix ending on cell index `trigger`.
 * Results [valid, cellCount, firstStartIndex, cellsPtr]: the recorded cells are u16 indices at
 * cellsPtr (in the scratch after the events). Returns the cell count, or -1 for bad parameters
 * or when memory cannot grow. Events are taken in arrival order; timestamps are not consulted.
 *
 * A walk begins at the first event in the start cell, or at a keydown before any that the
 * segment walk reaches from the start cell's centre (an open neighbour, or cells along an open
 * corridor): the keyboard cursor starts on the start cell, and a keydown carries where the key
 * took it. That keydown is then walked from the start's centre, the same walk as with a keydown
 * on the start cell just before it, which any client may send. A keydown the start does not
 * reach begins nothing, like any other event outside the start cell.
 *
 * Rule 3 reaches a cell that is neither `last` nor an open neighbour by the segment walk from
 * the anchor, else (not from the exit) by the bounded detour from `last` (detour.ts).
 *
 * /verify runs two walks in one pass: the walk with rule 3 (rules 1 to 3) and the plain walk
 * (rules 1 and 2, every other cell noise). The path is valid when either ends on the exit with
 * at least two cells; the cells reported are rule 3's walk's, unless only the plain walk is
 * valid. The probe prefix runs the walk with rule 3 alone, strictly.
 */
export function replay(count: i32, seed: u32, w: i32, h: i32, d: f64, cellSize: f64, trigger: i32): i32 {
  if (count < 0 || count > MAX_EVENTS) return -1;
  if (!ensureMaze(seed, w, h, d)) return -1;
  if (!setCanvas(w, h, cellSize)) return -1;
  const n = w * h;
  if (trigger >= n) return -1;
  // The plain walk records at most one cell per event, plus an implied start; the cells of the
  // walk with rule 3 follow, in a region grown as it fills (an event adds at most
  // MAX_DETOUR_CELLS, more than a segment's).
  const plain = pathPtr(count);
  const path = plain + (<usize>(count + 1) << 1);
  let capacity: i32 = count + MAX_DETOUR_CELLS;
  if (!ensureHeap(path + (<usize>capacity << 1))) return -1;
  const exit = n - 1;
  const probe = trigger >= 0;
  let recorded: i32 = 0;
  let last: i32 = -1;
  let ax: f64 = 0;
  let ay: f64 = 0;
  let plainCount: i32 = 0;
  let plainLast: i32 = -1;
  let firstStart: i32 = -1;
  let ok = true;
  for (let i = 0; i < count; i++) {
    const p = EVENTS + <usize>i * EVENT_BYTES;
    const code = load<f64>(p, 24);
    const c = eventCell(load<f64>(p), load<f64>(p, 8), code);
    if (c < 0) continue;
    if (last < 0 && c != 0 && code == CODE_KEYDOWN && walksFromStart(c, w, h, path)) {
      // The keyboard cursor starts on the start cell and a keydown carries where the key took
      // it: a walk that such a keydown begins began on the start cell, anchored at its centre.
      firstStart = i;
      store<u16>(path, 0);
      recorded = 1;
      last = 0;
      ax = 0.5 / <f64>w;
      ay = 0.5 / <f64>h;
      if (!probe) {
        store<u16>(plain, 0);
        plainCount = 1;
        plainLast = 0;
      }
    } else if (firstStart < 0 && c == 0) firstStart = i;
    if (!probe) {
      if (firstStart < 0) continue;
      if (c != plainLast && (plainLast < 0 || openStep(plainLast, c, w))) {
        store<u16>(plain + (<usize>plainCount << 1), <u16>c);
        plainCount++;
        plainLast = c;
      }
    }
    if (c == last) {
      ax = lastMx;
      ay = lastMy;
      continue;
    }
    if (recorded + MAX_DETOUR_CELLS > capacity) {
      capacity = max(capacity << 1, recorded + MAX_DETOUR_CELLS);
      if (!ensureHeap(path + (<usize>capacity << 1))) return -1;
    }
    const at = path + (<usize>recorded << 1);
    if (last < 0 || openStep(last, c, w)) {
      // The first cell (the start, or in a probe prefix whatever comes first), or rule 2.
      if (probe && last < 0 && c != 0) ok = false;
      store<u16>(at, <u16>c);
      recorded++;
    } else {
      // Rule 3: the segment walk, else the bounded detour, which is never taken from the exit.
      let steps = walkSegment(ax, ay, lastMx, lastMy, w, h, at);
      if (steps < 0 && last != exit) steps = walkDetour(last, c, w, h, at);
      if (steps > 0) {
        recorded += steps;
      } else if (probe) {
        ok = false;
        store<u16>(at, <u16>c);
        recorded++;
      } else {
        continue; // noise: nothing moves
      }
    }
    last = c;
    ax = lastMx;
    ay = lastMy;
  }
  let cells = path;
  let valid: bool;
  if (probe) {
    valid = ok && recorded >= 2 && last == trigger;
  } else {
    valid = recorded >= 2 && last == exit;
    if (!valid && plainCount >= 2 && plainLast == exit) {
      valid = true;
      cells = plain;
      recorded = plainCount;
    }
  }
  setResult(0, valid ? 1.0 : 0.0);
  setResult(1, <f64>recorded);
  setResult(2, <f64>firstStart);
  setResult(3, <f64>cells);
  return recorded;
}

/**
 * True when a keydown in cell `c` (its maze fractions in lastMx, lastMy) is reached from the
 * start cell's centre: an open neighbour, or a segment through open cells (walked into
 * `scratch`, which the caller then overwrites).
 */
function walksFromStart(c: i32, w: i32, h: i32, scratch: usize): bool {
  return openStep(0, c, w) || walkSegment(0.5 / <f64>w, 0.5 / <f64>h, lastMx, lastMy, w, h, scratch) > 0;
}
