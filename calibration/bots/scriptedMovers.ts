import type { Maze, RawEvent } from '../../src/kernel/index.js';
import { CELL, arcLengths, corners, pointAt, toEvents, type Pt } from '../people/mazePath.js';
import type { Rng } from '../random.js';

/**
 * Scripted movers over a maze's solution. Each gives a position over time; a clock then samples
 * it as a browser would (60 Hz Date.now frames, 10 ms polling or a 33 ms throttle), so timing
 * alone does not give a bot away.
 */
export type ScriptedFamily = 'linear' | 'bezier' | 'minjerk' | 'windmouse';
export const SCRIPTED_FAMILIES: readonly ScriptedFamily[] = ['linear', 'bezier', 'minjerk', 'windmouse'];

interface Motion {
  duration: number;
  at(t: number): Pt;
  /** Pixel noise added to each sampled point. */
  noise: number;
}

/** Event times (ms) of a capture style over [0, duration]. */
function clock(rng: Rng, duration: number): number[] {
  const style = rng.pick(['frame', 'poll', 'throttle'] as const);
  const times: number[] = [0];
  const period = style === 'poll' ? 10 : 1000 / 60;
  const origin = rng.uniform(0, period);
  let last = 0;
  for (let k = 1; origin + k * period < duration; k++) {
    if (style === 'frame' && rng.next() < 0.04) continue;
    const t = Math.round(origin + k * period + (style === 'poll' ? 0 : rng.uniform(-0.5, 0.5)));
    if (style === 'throttle' && t - last < 33) continue;
    if (t > last) times.push(t);
    last = t;
  }
  times.push(Math.round(duration));
  return times;
}

function polyline(points: readonly Pt[]) {
  const s = arcLengths(points);
  return { total: s[s.length - 1]!, at: (u: number) => pointAt(points, s, u).p };
}

/** A run of legs between the solution's corners, each timed by `ease` over its own duration. */
function legs(
  rng: Rng,
  maze: Maze,
  speed: number,
  ease: (f: number) => number,
  shape: (a: Pt, b: Pt) => (f: number) => Pt,
  pauseP: number,
) {
  const cs = corners(maze);
  const parts: { t0: number; t1: number; f: (f: number) => Pt }[] = [];
  let t = rng.uniform(0, 300);
  for (let i = 0; i < cs.length - 1; i++) {
    const a = cs[i]!,
      b = cs[i + 1]!;
    const d = Math.hypot(b.x - a.x, b.y - a.y);
    const dur = Math.max(60, (d / (speed * CELL)) * 1000);
    parts.push({ t0: t, t1: t + dur, f: shape(a, b) });
    t += dur;
    if (rng.next() < pauseP) t += rng.uniform(80, 500);
  }
  const start = cs[0]!;
  return {
    duration: t,
    at(time: number): Pt {
      if (time <= parts[0]!.t0) return start;
      for (const p of parts) {
        if (time <= p.t1) return time < p.t0 ? p.f(0) : p.f(ease((time - p.t0) / (p.t1 - p.t0)));
      }
      return parts[parts.length - 1]!.f(1);
    },
  };
}

const straight = (a: Pt, b: Pt) => (f: number) => ({ x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f });

function motion(family: ScriptedFamily, rng: Rng, maze: Maze): Motion {
  switch (family) {
    case 'linear': {
      const line = polyline(corners(maze));
      const speed = rng.uniform(3, 20) * CELL;
      return { duration: (line.total / speed) * 1000, at: (t) => line.at((t / 1000) * speed), noise: rng.uniform(0.5, 2.5) };
    }
    case 'bezier': {
      const ease = rng.pick([
        (f: number) => 0.5 - 0.5 * Math.cos(Math.PI * f),
        (f: number) => (f < 0.5 ? 4 * f * f * f : 1 - (-2 * f + 2) ** 3 / 2),
        (f: number) => (f < 0.5 ? 2 * f * f : 1 - (-2 * f + 2) ** 2 / 2),
      ]);
      const bend = rng.uniform(0.05, 0.3) * CELL;
      const curve = (a: Pt, b: Pt) => {
        const d = Math.hypot(b.x - a.x, b.y - a.y) || 1;
        const nx = -(b.y - a.y) / d,
          ny = (b.x - a.x) / d;
        const o1 = rng.uniform(-bend, bend),
          o2 = rng.uniform(-bend, bend);
        const c1 = { x: a.x + (b.x - a.x) / 3 + nx * o1, y: a.y + (b.y - a.y) / 3 + ny * o1 };
        const c2 = { x: a.x + (2 * (b.x - a.x)) / 3 + nx * o2, y: a.y + (2 * (b.y - a.y)) / 3 + ny * o2 };
        return (f: number) => {
          const g = 1 - f;
          return {
            x: g * g * g * a.x + 3 * g * g * f * c1.x + 3 * g * f * f * c2.x + f * f * f * b.x,
            y: g * g * g * a.y + 3 * g * g * f * c1.y + 3 * g * f * f * c2.y + f * f * f * b.y,
          };
        };
      };
      return { ...legs(rng, maze, rng.uniform(3, 15), ease, curve, 0), noise: 0 };
    }
    case 'minjerk': {
      const mj = (f: number) => f * f * f * (10 - 15 * f + 6 * f * f);
      return { ...legs(rng, maze, rng.uniform(3, 15), mj, straight, 0.3), noise: rng.uniform(0.3, 1.5) };
    }
    case 'windmouse':
      return windMouse(rng, maze);
  }
}

/** WindMouse (Benjamin J. Land's wind and gravity mover) through the solution's corners. */
function windMouse(rng: Rng, maze: Maze): Motion {
  const gravity = rng.uniform(7, 11),
    wind = rng.uniform(2, 4),
    maxStep = rng.uniform(8, 16),
    near = 12;
  const targets = corners(maze);
  const pts: Pt[] = [targets[0]!];
  let x = pts[0]!.x,
    y = pts[0]!.y,
    vx = 0,
    vy = 0,
    wx = 0,
    wy = 0;
  for (let k = 1; k < targets.length; k++) {
    const goal = targets[k]!;
    for (let guard = 0; guard < 2000; guard++) {
      const dist = Math.hypot(goal.x - x, goal.y - y);
      if (dist < 1) break;
      const w = Math.min(wind, dist);
      if (dist >= near) {
        wx = wx / Math.sqrt(3) + ((2 * rng.next() - 1) * w) / Math.sqrt(5);
        wy = wy / Math.sqrt(3) + ((2 * rng.next() - 1) * w) / Math.sqrt(5);
      } else {
        wx /= Math.sqrt(3);
        wy /= Math.sqrt(3);
      }
      vx += wx + (gravity * (goal.x - x)) / dist;
      vy += wy + (gravity * (goal.y - y)) / dist;
      const v = Math.hypot(vx, vy);
      const cap = dist >= near ? maxStep : Math.max(3, maxStep / 2);
      if (v > cap) {
        const r = cap / 2 + (rng.next() * cap) / 2;
        vx = (vx / v) * r;
        vy = (vy / v) * r;
      }
      x += vx;
      y += vy;
      pts.push({ x, y });
    }
  }
  // One step per frame of its own clock: steps spread evenly over the motion's duration.
  const stepMs = rng.uniform(8, 20);
  const duration = (pts.length - 1) * stepMs;
  return {
    duration,
    at(t: number): Pt {
      const i = Math.min(pts.length - 1, Math.max(0, t / stepMs));
      const a = pts[Math.floor(i)]!,
        b = pts[Math.min(pts.length - 1, Math.floor(i) + 1)]!;
      const f = i - Math.floor(i);
      return { x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f };
    },
    noise: 0,
  };
}

/** Events of one bot of `family` solving `maze`, in whole screen pixels as a browser reports. */
export function botEvents(family: ScriptedFamily, rng: Rng, maze: Maze): RawEvent[] {
  const m = motion(family, rng, maze);
  const pts = clock(rng, m.duration).map((t) => {
    const p = m.at(t);
    return { x: Math.round(p.x + m.noise * rng.gauss()), y: Math.round(p.y + m.noise * rng.gauss()), t };
  });
  return toEvents(maze, pts);
}
