import { beforeAll, describe, expect, it } from 'vitest';
import { FEATURE_NAMES, SHAPE_POINTS, type FeatureName } from '../../../src/kernel/features.js';
import { WALL_N, WALL_S, packEvents, type MazeParams, type RawEvent } from '../../../src/kernel/index.js';
import type { CalibrationKernel } from '../../../calibration/samples.js';
import { kernelWithFeatures } from './kernelWithFeatures.js';

// Hand-made traces with known answers. Points are given in maze cells (x right, y down) and
// converted to canvas fractions as a browser would send them (kernel.md section 3, 40 px cells).
const CELL = 40;
const maze: MazeParams = { seed: 12345, width: 6, height: 6, difficulty: 0.5 };

const at = (x: number, y: number, t: number, type = 'move'): RawEvent => ({
  x: (20 + x * CELL) / (maze.width * CELL + 40),
  y: (20 + y * CELL) / (maze.height * CELL + 64),
  t,
  type,
});

let kernel: CalibrationKernel;
beforeAll(async () => {
  kernel = await kernelWithFeatures();
});

function features(events: RawEvent[]) {
  const { values, shape } = kernel.features(maze, packEvents(events), CELL);
  const f = Object.fromEntries(FEATURE_NAMES.map((n, i) => [n, values[i]!])) as Record<FeatureName, number>;
  return { f, shape };
}

/** n + 1 events every `dt` ms along a straight line at `speed` cells/s, from (x0, y0) in direction (ux, uy). */
function line(n: number, dt: number, speed: number, x0 = 0.5, y0 = 0.5, ux = 1, uy = 0): RawEvent[] {
  return Array.from({ length: n + 1 }, (_, k) => at(x0 + (ux * speed * k * dt) / 1000, y0 + (uy * speed * k * dt) / 1000, k * dt));
}

describe('kernel features on hand-made traces', () => {
  it('counts events, duration, path and input kind', () => {
    const { f } = features([...line(50, 20, 4), { ...at(0, 0, 1000), type: 'up' }]);
    expect(f.event_count).toBe(51);
    expect(f.pointer_events).toBe(51);
    expect(f.key_events).toBe(0);
    expect(f.duration).toBeCloseTo(1.0, 9);
    expect(f.path_length).toBeCloseTo(4.0, 9);
  });

  it('path efficiency is relative to the maze optimum', () => {
    const { f } = features(line(50, 20, 4));
    const solution = kernel.generateMaze(maze).solution.length;
    const optimal = Math.hypot(maze.width - 1, maze.height - 1) / (solution - 1);
    expect(f.efficiency_ratio).toBeCloseTo(1 / optimal, 9);
  });

  it('interval statistics: constant, alternating, zero and longest gaps', () => {
    const constant = features(line(50, 20, 4)).f;
    expect(constant.interval_cv).toBeCloseTo(0, 6);
    expect(constant.interval_entropy).toBeCloseTo(0, 9);
    expect(constant.interval_max).toBeCloseTo(0.02, 9);
    // Intervals alternate 10 and 30 ms: mean 20, sd 10, two equally likely values.
    let t = 0;
    const alternating = Array.from({ length: 41 }, (_, k) => {
      const e = at(0.5 + k * 0.05, 0.5, t);
      t += k % 2 === 0 ? 10 : 30;
      return e;
    });
    const a = features(alternating).f;
    expect(a.interval_cv).toBeCloseTo(0.5, 9);
    expect(a.interval_entropy).toBeCloseTo(1, 9);
    expect(a.interval_kurtosis).toBeCloseTo(1, 9);
    expect(a.interval_max).toBeCloseTo(0.03, 9);
    const zeros = features([at(0.5, 0.5, 0), at(0.6, 0.5, 0), at(0.7, 0.5, 20), at(0.8, 0.5, 20), at(0.9, 0.5, 40)]).f;
    expect(zeros.interval_zero_fraction).toBeCloseTo(0.5, 9);
  });

  it('constant speed: mean, no variation, no acceleration or jerk', () => {
    const { f } = features(line(100, 10, 5));
    expect(f.speed_mean).toBeCloseTo(5, 6);
    expect(f.speed_cv).toBeCloseTo(0, 6);
    expect(f.speed_peak_ratio).toBeCloseTo(1, 6);
    expect(f.acceleration_norm).toBeCloseTo(0, 6);
    expect(f.acceleration_cv).toBeCloseTo(0, 6);
    expect(f.jerk_norm).toBeCloseTo(0, 6);
    expect(f.curvature).toBeCloseTo(0, 6);
    expect(f.turn_mean).toBeCloseTo(0, 6);
    expect(f.angular_entropy).toBeCloseTo(0, 6);
    expect(f.pause_count).toBe(0);
    expect(f.onset).toBeCloseTo(0, 6);
    expect(f.submovements).toBe(0);
    expect(f.jitter_ratio).toBeCloseTo(1, 6);
  });

  it('alternating step lengths give a lag-1 speed autocorrelation near -1 and known accelerations', () => {
    // One event per 40 ms resampling step, steps of 0.1 and 0.3 cells: speeds 2.5 and 7.5 cells/s.
    let x = 0.5;
    const events = Array.from({ length: 61 }, (_, k) => {
      const e = at(x, 0.5, k * 40);
      x += k % 2 === 0 ? 0.1 : 0.3;
      return e;
    });
    const { f } = features(events);
    expect(f.speed_mean).toBeCloseTo(5, 6);
    expect(f.speed_cv).toBeCloseTo(0.5, 6);
    expect(f.speed_autocorrelation).toBeCloseTo(-1, 1);
    // |a| is always 5 / 0.04 = 125 cells/s^2: acceleration_norm = 125 * 0.04 / 5.
    expect(f.acceleration_norm).toBeCloseTo(1, 6);
    expect(f.acceleration_cv).toBeCloseTo(0, 6);
    // |j| is always 250 / 0.04: jerk_norm = 6250 * 0.04^2 / 5.
    expect(f.jerk_norm).toBeCloseTo(2, 6);
  });

  it('a circle at constant speed: curvature 1/R, constant turning, one angle bin', () => {
    const R = 1.5,
      speed = 3,
      dt = 40;
    const events = Array.from({ length: 60 }, (_, k) => {
      const a = (speed * k * dt) / 1000 / R;
      return at(3 + R * Math.cos(a), 3 + R * Math.sin(a), k * dt);
    });
    const { f } = features(events);
    const chord = 2 * R * Math.sin((speed * 0.04) / R / 2);
    const turn = (speed * 0.04) / R;
    expect(f.turn_mean).toBeCloseTo(turn, 6);
    expect(f.curvature).toBeCloseTo(turn / chord, 6);
    expect(f.angular_entropy).toBeCloseTo(0, 6);
  });

  it('a zigzag turning alternately left and right has one bit of angular entropy', () => {
    const events = Array.from({ length: 42 }, (_, k) => at(0.5 + k * 0.1, 2.5 + (k % 2) * 0.05, k * 40));
    const { f } = features(events);
    expect(f.angular_entropy).toBeCloseTo(1, 6);
    expect(f.turn_mean).toBeCloseTo(2 * Math.atan(0.5), 6);
  });

  it('pauses, onset and sub-movements of two strokes separated by a rest', () => {
    // Rest 300 ms, stroke 1 (400 ms), rest 500 ms (no events), stroke 2 (400 ms).
    const mj = (f: number) => f * f * f * (10 - 15 * f + 6 * f * f);
    const stroke = (x0: number, t0: number) => Array.from({ length: 41 }, (_, k) => at(x0 + 2 * mj(k / 40), 0.5, t0 + k * 10));
    const events = [at(0.5, 0.5, 0), ...stroke(0.5, 300).slice(0), ...stroke(2.5, 1200).slice(1)];
    const { f } = features(events);
    expect(f.duration).toBeCloseTo(1.6, 9);
    expect(f.onset).toBeGreaterThanOrEqual(0.28);
    expect(f.onset).toBeLessThanOrEqual(0.36);
    expect(f.pause_count).toBe(2);
    // About 0.3 s before the first stroke and 0.45 s held in the gap (the last 50 ms move).
    expect(f.pause_fraction).toBeGreaterThan(0.6 / 1.6);
    expect(f.pause_fraction).toBeLessThan(0.85 / 1.6);
    expect(f.submovements).toBe(2);
    expect(f.submovement_rate).toBeCloseTo(2 / 1.6, 9);
    expect(f.interval_max).toBeCloseTo(0.51, 9);
  });

  it("sub-movement timing: a stroke's rise share of its duration, and the spread of the gaps between peaks", () => {
    // Back and forth along a corridor, each sub-movement a speed bump from rest to rest whose
    // peak comes at `peakAt` of its duration (a power warp of minimum jerk's symmetric profile).
    const mj = (f: number) => f * f * f * (10 - 15 * f + 6 * f * f);
    const strokes = (peakAt: number, durations: number[]) => {
      const warp = Math.log(0.5) / Math.log(peakAt);
      const events: RawEvent[] = [at(0.5, 0.5, 0)];
      let t = 0,
        x = 0.5,
        dir = 1;
      for (const ms of durations) {
        for (let k = 1; k <= ms / 10; k++) events.push(at(x + dir * 2 * mj(((k * 10) / ms) ** warp), 0.5, t + k * 10));
        t += ms;
        x += dir * 2;
        dir = -dir;
      }
      return events;
    };
    const even = Array.from({ length: 8 }, () => 400);
    const symmetric = features(strokes(0.5, even)).f;
    const early = features(strokes(0.3, even)).f;
    expect(symmetric.submovements).toBeGreaterThanOrEqual(7);
    // Resampled every 40 ms, a 400 ms stroke's peak and valleys land within a step.
    expect(Math.abs(symmetric.submovement_rise - 0.5)).toBeLessThanOrEqual(0.1);
    expect(early.submovement_rise).toBeLessThan(symmetric.submovement_rise - 0.1);
    expect(symmetric.submovement_gap_cv).toBeLessThan(0.1);
    const uneven = features(strokes(0.5, [240, 240, 240, 720, 720, 720, 240, 240])).f;
    expect(uneven.submovement_gap_cv).toBeGreaterThan(0.25);
    // One stroke has no valley before it: nothing to measure, the neutral 0.5 and no spread.
    const one = features(strokes(0.3, [400])).f;
    expect(one.submovement_rise).toBe(0.5);
    expect(one.submovement_gap_cv).toBe(0);
  });

  it('corridor deviation: distance to the centre-line of a horizontal corridor', () => {
    const m = kernel.generateMaze(maze);
    const index = [...m.walls].findIndex((w) => w === (WALL_N | WALL_S));
    expect(index).toBeGreaterThanOrEqual(0);
    const cx = index % maze.width,
      cy = Math.floor(index / maze.width);
    const across = (dy: number) => Array.from({ length: 9 }, (_, k) => at(cx + 0.1 + k * 0.1, cy + 0.5 + dy, k * 20));
    const off = features(across(0.25)).f;
    expect(off.corridor_deviation).toBeCloseTo(0.25, 9);
    expect(off.corridor_deviation_sd).toBeCloseTo(0, 6);
    expect(off.on_rail_fraction).toBe(0);
    const on = features(across(0)).f;
    expect(on.corridor_deviation).toBeCloseTo(0, 9);
    expect(on.on_rail_fraction).toBe(1);
  });

  it('jitter ratio: raw path over the path resampled every 40 ms', () => {
    // Every other event (20 ms apart) is 0.1 cells off the line; resampled points fall on the line.
    const events = Array.from({ length: 41 }, (_, k) => at(0.5 + k * 0.1, 2.5 + (k % 2) * 0.1, k * 20));
    expect(features(events).f.jitter_ratio).toBeCloseTo(Math.hypot(0.1, 0.1) / 0.1, 6);
  });

  it('speed and step roughness of fast raw events: mean |a - b| / (a + b) of consecutive speeds and steps', () => {
    // Steps alternating 0.1 and 0.2 cells every 20 ms (5 and 10 cells/s): both roughnesses 1/3.
    const alternating = Array.from({ length: 21 }, (_, k) => at(0.5 + 0.15 * k - (k % 2 ? 0.05 : 0), 0.5, k * 20));
    const a = features(alternating).f;
    expect(a.speed_roughness).toBeCloseTo(1 / 3, 9);
    expect(a.step_roughness).toBeCloseTo(1 / 3, 9);
    // Equal steps dispatched 10 and 20 ms apart: the speeds vary by 2, the steps not at all.
    let t = 0;
    const jittered = Array.from({ length: 21 }, (_, k) => at(0.5 + 0.1 * k, 0.5, k === 0 ? 0 : (t += k % 2 ? 10 : 20)));
    const j = features(jittered).f;
    expect(j.speed_roughness).toBeCloseTo(1 / 3, 9);
    expect(j.step_roughness).toBeCloseTo(0, 9);
    // A smooth constant-speed line has neither; a line under 3 cells/s is not measured.
    expect(features(line(40, 16, 6)).f.speed_roughness).toBeCloseTo(0, 9);
    expect(features(line(40, 16, 2.5)).f).toMatchObject({ speed_roughness: 0, step_roughness: 0 });
  });

  it('counts points outside the maze and timestamps that go back', () => {
    const events = [at(0.5, 0.5, 0), at(-0.2, 0.5, 10), at(0.7, 0.5, 20), at(0.8, 0.5, 15), at(0.9, 0.5, 30)];
    const { f } = features(events);
    expect(f.outside_fraction).toBeCloseTo(0.2, 9);
    expect(f.backward_timestamps).toBe(1);
  });

  it('keyboard traces use keydown cell centres in maze fractions', () => {
    const keys: RawEvent[] = [0, 1, 2, 3].map((i) => ({
      x: (i + 0.5) / maze.width,
      y: 0.5 / maze.height,
      t: i * 250,
      type: 'keydown',
      key: 'ArrowRight',
    }));
    const { f } = features([...keys, at(0.5, 0.5, 0)]);
    expect(f.key_events).toBe(4);
    expect(f.event_count).toBe(4);
    expect(f.path_length).toBeCloseTo(3, 9);
    expect(f.duration).toBeCloseTo(0.75, 9);
    expect(f.interval_cv).toBeCloseTo(0, 9);
  });

  it('shape: timing and progress curves of a uniform trace are the diagonal', () => {
    const { shape } = features(line(96, 10, 3));
    for (let k = 0; k < SHAPE_POINTS; k++) {
      expect(shape[k]).toBeCloseTo(Math.round((96 * (k + 0.5)) / SHAPE_POINTS) / 96, 9);
      expect(shape[SHAPE_POINTS + k]).toBeCloseTo((k + 0.5) / SHAPE_POINTS, 6);
    }
  });

  it('bounds the work of a trace claiming an enormous duration', () => {
    // Timestamps are client data: 9e10 ms once wrapped the sample counter and looped forever.
    for (const end of [9e10, 1e300]) {
      const { f } = features([at(0.5, 0.5, 0), at(1.5, 0.5, end)]);
      expect(f.duration).toBe(end / 1000);
      expect(Number.isFinite(f.speed_mean)).toBe(true);
    }
  });

  it('refuses bad parameters with a KernelInputError', () => {
    expect(() => kernel.features({ ...maze, width: 1 }, packEvents([]), CELL)).toThrow(/width/);
    expect(() => kernel.features(maze, packEvents([]), 0)).toThrow(/cellSize/);
    const empty = features([]).f;
    expect(empty.event_count).toBe(0);
    expect(empty.duration).toBe(0);
  });
});
