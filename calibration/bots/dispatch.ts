import type { Maze, RawEvent } from '../../src/kernel/index.js';
import { toEvents, type Pt } from '../people/mazePath.js';
import type { Rng } from '../random.js';
import { frameTimes } from './frameTimes.js';

/**
 * How a bot's points reach the page: `native` keeps the tool's own times; a frame cadence
 * dispatches one point per animation frame of that period (ms), with scheduling jitter and the
 * odd dropped frame, as a script driving the page from requestAnimationFrame does.
 */
export type Timing = 'native' | 8 | 16 | 33;
export const TIMINGS: readonly Timing[] = ['native', 8, 16, 33];

/** Device pixel ratio: pointer coordinates in CSS px come in steps of 1 / dpr. */
export type Dpr = 1 | 2;
export const DPRS: readonly Dpr[] = [1, 2];

export interface Variant {
  timing: Timing;
  dpr: Dpr;
}

export const variantName = (v: Variant) => `${v.timing === 'native' ? 'native timing' : `${v.timing} ms frames`}, dpr ${v.dpr}`;

/** Every timing at every DPR. */
export const ALL_VARIANTS: readonly Variant[] = TIMINGS.flatMap((timing) => DPRS.map((dpr) => ({ timing, dpr })));

/** A point the tool produced; `t` (ms) is its own time when it has one. */
export interface ToolPoint extends Pt {
  t?: number;
}

/**
 * Events of a tool's points dispatched with `variant`: times rounded to whole ms (as the
 * recorded human data), positions to the device's pixel grid.
 */
export function dispatch(rng: Rng, maze: Maze, points: readonly ToolPoint[], variant: Variant): RawEvent[] {
  const times =
    variant.timing === 'native'
      ? points.map((p) => p.t ?? 0)
      : frameTimes(rng, points.length, variant.timing === 16 ? 1000 / 60 : variant.timing);
  const snap = (v: number) => Math.round(v * variant.dpr) / variant.dpr;
  const start = rng.uniform(0, 300);
  let last = -Infinity;
  const pts: { x: number; y: number; t: number }[] = [];
  points.forEach((p, i) => {
    const t = Math.round(start + times[i]! - times[0]!);
    if (t < last) return;
    last = t;
    pts.push({ x: snap(p.x), y: snap(p.y), t });
  });
  return toEvents(maze, pts);
}
