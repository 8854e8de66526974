import type { Maze, RawEvent } from '../../src/kernel/index.js';
import { CELL, arcLengths, pointAt, smoothPath } from '../people/mazePath.js';
import type { Pt } from '../people/mazePath.js';
import type { Rng } from '../random.js';
import type { Dpr } from './dispatch.js';
import { sampleMotion, type Cadence } from './sampleMotion.js';
import { tremor } from './tremor.js';

/**
 * A motor-control imitation along the corner-rounded centre-line: speed follows the two-thirds
 * power law (v = K * curvature^(-1/3), capped on straights), modulated by sub-movement pulses
 * of 150 to 350 ms; the hand drifts sideways (a bounded random walk), pauses at some turns,
 * and carries 8-12 Hz tremor.
 */
export function powerLawEvents(rng: Rng, maze: Maze, cadence: Cadence, dpr: Dpr): RawEvent[] {
  const line = smoothPath(maze, rng.uniform(0.2, 0.45) * CELL);
  const s = arcLengths(line);
  const total = s[s.length - 1]!;
  const vmax = (rng.uniform(3, 10) * CELL) / 1000;
  // At a radius of one cell the law gives 0.4 to 0.8 of the top speed.
  const k = (vmax * rng.uniform(0.4, 0.8)) / Math.cbrt(CELL);
  const pulse = rng.uniform(150, 350);
  const shake = tremor(rng);
  const path: Pt[] = [];
  let at = 0,
    ms = 0,
    lateral = 0,
    pausedUntil = rng.uniform(100, 400),
    wasTurning = false;
  while (at < total && ms < 60_000) {
    const here = pointAt(line, s, at);
    const ahead = pointAt(line, s, at + 4);
    const curvature = Math.abs(Math.atan2(here.nx * ahead.ny - here.ny * ahead.nx, here.nx * ahead.nx + here.ny * ahead.ny)) / 4;
    const turning = curvature > 0.01;
    if (turning && !wasTurning && rng.next() < 0.3) pausedUntil = ms + rng.uniform(60, 300);
    wasTurning = turning;
    const v = Math.min(vmax, k * Math.cbrt(1 / Math.max(curvature, 1e-6))) * (0.55 + 0.45 * Math.abs(Math.sin((Math.PI * ms) / pulse)));
    if (ms >= pausedUntil) at += v;
    lateral = Math.max(-0.2 * CELL, Math.min(0.2 * CELL, 0.995 * lateral + 0.15 * rng.gauss()));
    const tr = shake(ms);
    path.push({ x: here.p.x + here.nx * lateral + tr.x, y: here.p.y + here.ny * lateral + tr.y });
    ms++;
  }
  return sampleMotion(rng, maze, path, cadence, dpr);
}
