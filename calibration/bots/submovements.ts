import type { Maze, RawEvent } from '../../src/kernel/index.js';
import { CELL, type Pt } from '../people/mazePath.js';
import type { Rng } from '../random.js';
import type { Dpr } from './dispatch.js';
import { sampleMotion, type Cadence } from './sampleMotion.js';
import { tremor } from './tremor.js';
import { waypoints } from './waypoints.js';

interface Stroke {
  t0: number;
  duration: number;
  dx: number;
  dy: number;
}

const minimumJerk = (f: number) => (f <= 0 ? 0 : f >= 1 ? 1 : f * f * f * (10 - 15 * f + 6 * f * f));

/**
 * A motor-control imitation: each leg between turn points is a minimum-jerk primary
 * sub-movement timed by Fitts' law, landing short or long with an error proportional to its
 * amplitude (signal-dependent noise), then one or two overlapping corrective sub-movements;
 * the next leg starts while the last correction ends (corners are rounded) or after a pause.
 * Velocity-scaled noise and 8-12 Hz tremor ride on top.
 */
export function submovementEvents(rng: Rng, maze: Maze, cadence: Cadence, dpr: Dpr): RawEvent[] {
  const targets = waypoints(rng, maze, 0.12);
  const pace = rng.uniform(0.6, 1.4);
  const a = rng.uniform(80, 150) * pace,
    b = rng.uniform(90, 160) * pace;
  const strokes: Stroke[] = [];
  let planned = targets[0]!;
  let t = rng.uniform(100, 400);
  const add = (t0: number, duration: number, to: Pt) => {
    strokes.push({ t0, duration, dx: to.x - planned.x, dy: to.y - planned.y });
    planned = to;
  };
  for (const target of targets.slice(1)) {
    const dx = target.x - planned.x,
      dy = target.y - planned.y;
    const d = Math.hypot(dx, dy);
    if (d < 1) continue;
    const ux = dx / d,
      uy = dy / d;
    const gain = rng.next() < 0.15 ? rng.uniform(1.04, 1.12) : 0.95 + 0.04 * rng.gauss();
    const lateral = 0.025 * d * rng.gauss();
    const primary = a + b * Math.log2(d / (0.5 * CELL) + 1);
    const t0 = t;
    add(t0, primary, { x: planned.x + ux * d * gain - uy * lateral, y: planned.y + uy * d * gain + ux * lateral });
    let next = t0 + primary * rng.uniform(0.55, 0.85);
    let end = t0 + primary;
    for (let k = 0; k < (rng.next() < 0.5 ? 2 : 1); k++) {
      const err = Math.hypot(target.x - planned.x, target.y - planned.y);
      const duration = rng.uniform(120, 250) * pace;
      add(next, duration, { x: target.x + 0.1 * err * rng.gauss(), y: target.y + 0.1 * err * rng.gauss() });
      end = next + duration;
      next += duration * rng.uniform(0.6, 0.9);
    }
    t = rng.next() < 0.35 ? end + rng.uniform(150, 900) : next;
  }
  const duration = Math.ceil(Math.max(t, ...strokes.map((s) => s.t0 + s.duration)) + rng.uniform(50, 200));
  const shake = tremor(rng);
  const noise = rng.uniform(0.01, 0.04);
  const path: Pt[] = [];
  let nx = 0,
    ny = 0,
    px = targets[0]!.x,
    py = targets[0]!.y;
  for (let ms = 0; ms <= duration; ms++) {
    let x = targets[0]!.x,
      y = targets[0]!.y;
    for (const s of strokes) {
      const f = minimumJerk((ms - s.t0) / s.duration);
      x += s.dx * f;
      y += s.dy * f;
    }
    // Noise whose size follows the speed (px/ms), low-passed so it bends the path rather than shakes it.
    const speed = Math.hypot(x - px, y - py);
    px = x;
    py = y;
    nx = 0.97 * nx + noise * speed * 10 * rng.gauss();
    ny = 0.97 * ny + noise * speed * 10 * rng.gauss();
    // A mouse resting on the desk does not pass the hand's tremor on: only a moving one shakes.
    const s = speed > 0.02 ? shake(ms) : { x: 0, y: 0 };
    path.push({ x: x + nx + s.x, y: y + ny + s.y });
  }
  return sampleMotion(rng, maze, path, cadence, dpr);
}
