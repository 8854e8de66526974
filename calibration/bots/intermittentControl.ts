import type { Maze, RawEvent } from '../../src/kernel/index.js';
import { CELL, arcLengths, pointAt, smoothPath, type Pt } from '../people/mazePath.js';
import type { Rng } from '../random.js';
import type { Dpr } from './dispatch.js';
import { sampleMotion, type Cadence } from './sampleMotion.js';

/**
 * Intermittent control, a motor-control account none of the features were written against: the
 * hand is a mass on a damped spring whose set point is moved only at discrete decision times
 * (every 120 to 350 ms, a refractory period), each time to a point a look-ahead further along
 * the corner-rounded centre-line, off it by a sideways aiming error. Between decisions the
 * spring pulls the hand there, overshooting a little when underdamped; the motor command
 * carries multiplicative noise. Sampled as a 125 Hz mouse, like the other imitations.
 */
export function intermittentControlEvents(rng: Rng, maze: Maze, cadence: Cadence, dpr: Dpr): RawEvent[] {
  const line = smoothPath(maze, rng.uniform(0.25, 0.5) * CELL);
  const s = arcLengths(line);
  const total = s[s.length - 1]!;
  const omega = (2 * Math.PI * rng.uniform(1.5, 3.5)) / 1000; // spring's natural frequency, rad/ms
  const zeta = rng.uniform(0.55, 1.05); // damping ratio: a little under to a little over critical
  const lookAhead = rng.uniform(0.7, 1.6) * CELL;
  const aimError = rng.uniform(0.03, 0.12) * CELL;
  const commandNoise = rng.uniform(0.05, 0.2);
  const start = line[0]!;
  let x = start.x,
    y = start.y,
    vx = 0,
    vy = 0;
  let goal = 0,
    target: Pt = start,
    nextDecision = rng.uniform(150, 450);
  const path: Pt[] = [];
  for (let ms = 0; ms < 60_000; ms++) {
    if (ms >= nextDecision) {
      const here = pointAt(line, s, Math.min(total, Math.max(goal, progressOf(line, s, goal, { x, y })) + lookAhead));
      goal = Math.min(total, Math.max(goal, progressOf(line, s, goal, { x, y })) + lookAhead * rng.uniform(0.6, 1));
      const off = aimError * rng.gauss();
      target = { x: here.p.x + here.nx * off, y: here.p.y + here.ny * off };
      nextDecision = ms + rng.uniform(120, 350);
    }
    const gain = 1 + commandNoise * rng.gauss();
    const ax = gain * omega * omega * (target.x - x) - 2 * zeta * omega * vx;
    const ay = gain * omega * omega * (target.y - y) - 2 * zeta * omega * vy;
    vx += ax;
    vy += ay;
    x += vx;
    y += vy;
    path.push({ x, y });
    const end = line[line.length - 1]!;
    if (goal >= total && Math.hypot(x - end.x, y - end.y) < 0.15 * CELL && Math.hypot(vx, vy) < 0.01) break;
  }
  return sampleMotion(rng, maze, path, cadence, dpr);
}

/** Arc length along `line` nearest to `p`, searched a little either side of `near`. */
function progressOf(line: readonly Pt[], s: readonly number[], near: number, p: Pt): number {
  let best = near,
    bestD = Infinity;
  for (let at = Math.max(0, near - CELL); at <= Math.min(s[s.length - 1]!, near + 3 * CELL); at += 2) {
    const q = pointAt(line, s, at).p;
    const d = Math.hypot(q.x - p.x, q.y - p.y);
    if (d < bestD) [best, bestD] = [at, d];
  }
  return best;
}
