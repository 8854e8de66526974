// Event-to-cell mapping (kernel.md section 3).
import { MAX_SIDE, MIN_SIDE } from './maze';
import { setResult } from './memory';

/** Type codes as packed by the loader (EventCode in src/kernel/types.ts). */
export const CODE_MOVE: f64 = 0;
export const CODE_DOWN: f64 = 1;
export const CODE_KEYDOWN: f64 = 3;

// Canvas of the current call, set once per call by setCanvas.
let mazeW: i32 = 0;
let mazeH: i32 = 0;
let spanX: f64 = 0;
let spanY: f64 = 0;
let pixW: f64 = 0;
let pixH: f64 = 0;
// Maze fractions of the last mapped event (replay reads them as the walk's anchor).
export let lastMx: f64 = 0;
export let lastMy: f64 = 0;

/** False when the cell size is not finite in (0, 1000]. */
export function setCanvas(w: i32, h: i32, cellSize: f64): bool {
  if (!(cellSize > 0.0 && cellSize <= 1000.0)) return false;
  mazeW = w;
  mazeH = h;
  pixW = <f64>w * cellSize;
  pixH = <f64>h * cellSize;
  spanX = pixW + 40.0;
  spanY = pixH + 64.0;
  return true;
}

@inline function clamp01(v: f64): f64 {
  return v < 0.0 ? 0.0 : v > 1.0 ? 1.0 : v;
}

@inline function toCell(fraction: f64, side: i32): i32 {
  const c = <i32>Math.floor(fraction * <f64>side);
  return c < side - 1 ? c : side - 1;
}

/**
 * Cell index (y * W + x) of an event, or -1 when replay ignores it: a type other than
 * move, down or keydown, or a non-finite coordinate. Pointer events carry canvas fractions;
 * keydown events carry maze fractions already. Finite out-of-range values clamp to the edge.
 */
@inline export function eventCell(x: f64, y: f64, code: f64): i32 {
  if (!(x - x == 0.0 && y - y == 0.0)) return -1;
  if (code == CODE_MOVE || code == CODE_DOWN) {
    lastMx = clamp01((x * spanX - 20.0) / pixW);
    lastMy = clamp01((y * spanY - 20.0) / pixH);
  } else if (code == CODE_KEYDOWN) {
    lastMx = clamp01(x);
    lastMy = clamp01(y);
  } else {
    return -1;
  }
  return toCell(lastMy, mazeH) * mazeW + toCell(lastMx, mazeW);
}

/**
 * Maps one event as replay would: returns its cell index and puts the maze fractions in
 * results [mx, my]; -1 when ignored, -2 for bad maze size or cell size.
 */
export function mapEvent(w: i32, h: i32, cellSize: f64, x: f64, y: f64, code: f64): i32 {
  if (w < MIN_SIDE || w > MAX_SIDE || h < MIN_SIDE || h > MAX_SIDE) return -2;
  if (!setCanvas(w, h, cellSize)) return -2;
  const cell = eventCell(x, y, code);
  if (cell >= 0) {
    setResult(0, lastMx);
    setResult(1, lastMy);
  }
  return cell;
}
