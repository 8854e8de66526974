// The widget's incremental walk must agree with the kernel's replay, which the server runs:
// same final cell and validity for /verify, a drawn route that never crosses a wall, and walk
// events (or a prefix through a cell a fast stroke crossed or a detour took) that arm a probe.
import { beforeAll, describe, expect, it } from 'vitest';
import { surfaceOf } from '../../src/client/geometry.js';
import { Trace } from '../../src/client/trace.js';
import { loadKernel } from '../../src/kernel/index.js';
import type { Cell, Kernel, Maze, RawEvent } from '../../src/kernel/types.js';
import { cellsOf } from '../kernel/helpers/events.js';
import { wallViolations } from '../kernel/helpers/referenceReplay.js';

let kernel: Kernel;
beforeAll(async () => {
  kernel = await loadKernel();
});

/** mulberry32, so every run replays the same streams. */
function rng(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t = (t + Math.imul(t ^ (t >>> 7), t | 61)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * A wandering stream: mostly neighbouring cells (through walls too), runs of 2 to 4 cells along
 * open passages between two events (fast strokes), some jumps anywhere, some keys.
 */
function stream(rand: () => number, maze: Maze, cell: number, n: number): RawEvent[] {
  const { width: w, height: h } = maze;
  const s = surfaceOf(w, h, cell);
  const events: RawEvent[] = [];
  let at: Cell = { x: Math.floor(rand() * 2), y: Math.floor(rand() * 2) };
  const dirs = [
    [1, 0, 4],
    [-1, 0, 8],
    [0, 1, 2],
    [0, -1, 1],
  ] as const;
  for (let i = 0; i < n; i++) {
    const r = rand();
    if (r < 0.06) at = { x: Math.floor(rand() * w), y: Math.floor(rand() * h) };
    else if (r < 0.3) {
      for (let k = 2 + Math.floor(rand() * 3); k > 0; k--) {
        const open = dirs.filter(([, , bit]) => (maze.walls[at.y * w + at.x]! & bit) === 0);
        const d = open[Math.floor(rand() * open.length)]!;
        at = { x: at.x + d[0], y: at.y + d[1] };
      }
    } else if (r < 0.75) {
      const d = dirs[Math.floor(rand() * 4)]!;
      at = { x: Math.min(w - 1, Math.max(0, at.x + d[0])), y: Math.min(h - 1, Math.max(0, at.y + d[1])) };
    }
    if (rand() < 0.15) {
      events.push({ x: (at.x + 0.5) / w, y: (at.y + 0.5) / h, t: i * 30, type: 'keydown', key: 'ArrowRight' });
    } else {
      // Anywhere in the cell, now and then out in the margin (which clamps to the edge).
      const px = 20 + (at.x + rand()) * cell + (rand() < 0.03 ? -25 : 0);
      const py = 20 + (at.y + rand()) * cell;
      events.push({ x: px / s.width, y: py / s.height, t: i * 30, type: i === 0 ? 'down' : rand() < 0.05 ? 'up' : 'move' });
    }
  }
  return events;
}

function walk(maze: Maze, events: RawEvent[], cell: number, onStep?: (trace: Trace) => void): Trace {
  const trace = new Trace(maze, surfaceOf(maze.width, maze.height, cell), kernel);
  for (const e of events) {
    if (trace.add(e, kernel.mapEvent(maze, cell, e.x, e.y, e.type)) === 'step') onStep?.(trace);
  }
  return trace;
}

describe('Trace', () => {
  it('agrees with the kernel replay on 400 random streams', () => {
    const rand = rng(7);
    let valid = 0;
    let armed = 0;
    let crossedTriggers = 0;
    for (let i = 0; i < 400; i++) {
      const w = 2 + Math.floor(rand() * 9);
      const h = 2 + Math.floor(rand() * 9);
      const cell = [40, 24, 57][i % 3]!;
      const maze = kernel.generateMaze({ seed: Math.floor(rand() * 2 ** 32), width: w, height: h, difficulty: rand() });
      const events = stream(rand, maze, cell, 20 + Math.floor(rand() * 300));
      let steps = 0;
      const trace = walk(maze, events, cell, (t) => {
        steps++;
        // Every cell a step passed through before its end arms a probe there, as the server checks.
        for (let y = 0; y < h; y++) {
          for (let x = 0; x < w; x++) {
            if (t.last!.x === x && t.last!.y === y) continue;
            const prefix = t.prefixTo({ x, y });
            if (prefix === null) continue;
            crossedTriggers++;
            expect(kernel.replay(maze, kernel.packEvents(prefix), cell, { kind: 'probe', trigger: { x, y } }).valid).toBe(true);
          }
        }
      });
      const replay = kernel.replay(maze, kernel.packEvents(events), cell, { kind: 'verify' });
      expect(trace.atExit).toBe(replay.valid);
      if (!replay.valid) expect(trace.last).toEqual(replay.cells.at(-1) ?? null);
      expect(wallViolations(maze, trace.route)).toEqual([]);
      if (replay.valid) valid++;

      if (steps >= 2) {
        armed++;
        const arm = kernel.replay(maze, kernel.packEvents(trace.walkEvents()), cell, { kind: 'probe', trigger: trace.last! });
        expect(arm.valid).toBe(true);
        expect(arm.cells.at(-1)).toEqual(trace.last);
      }
    }
    expect(valid).toBeGreaterThan(5);
    expect(armed).toBeGreaterThan(100);
    expect(crossedTriggers).toBeGreaterThan(100);
  });

  it('follows the solution to the exit, drawing the route without backtracks', () => {
    const maze = kernel.generateMaze({ seed: 12345, width: 8, height: 8, difficulty: 0.3 });
    const s = surfaceOf(8, 8, 40);
    const trace = new Trace(maze, s, kernel);
    const sol = maze.solution;
    const centre = (c: Cell): RawEvent => ({
      x: (20 + (c.x + 0.5) * 40) / s.width,
      y: (20 + (c.y + 0.5) * 40) / s.height,
      t: 0,
      type: 'move',
    });
    const add = (c: Cell) => trace.add(centre(c), kernel.mapEvent(maze, 40, centre(c).x, centre(c).y));
    // Start, step forward, step back, then the whole solution.
    for (const c of [sol[0]!, sol[1]!, sol[0]!, ...sol]) add(c);
    expect(trace.atExit).toBe(true);
    expect(trace.route).toEqual(sol);
  });

  it('walks keydowns that carry where each key took the cursor, none on the start, as the server does', () => {
    const maze = kernel.generateMaze({ seed: 12345, width: 8, height: 8, difficulty: 0.3 });
    const trace = new Trace(maze, surfaceOf(8, 8, 40), kernel);
    const sol = maze.solution;
    const events = sol
      .slice(1)
      .map((c): RawEvent => ({ x: (c.x + 0.5) / 8, y: (c.y + 0.5) / 8, t: 0, type: 'keydown', key: 'ArrowRight' }));
    expect(trace.add(events[0]!, kernel.mapEvent(maze, 40, events[0]!.x, events[0]!.y, 'keydown'))).toBe('step');
    expect(trace.route).toEqual(sol.slice(0, 2));
    for (const e of events.slice(1)) trace.add(e, kernel.mapEvent(maze, 40, e.x, e.y, 'keydown'));
    expect(trace.route).toEqual(sol);
    expect(trace.atExit).toBe(true);
    expect(kernel.replay(maze, kernel.packEvents(trace.events), 40, { kind: 'verify' }).valid).toBe(true);
    // A pointer event away from the start still begins nothing.
    const pointer = new Trace(maze, surfaceOf(8, 8, 40), kernel);
    expect(pointer.add({ x: 0.5, y: 0.5, t: 0, type: 'move' }, kernel.mapEvent(maze, 40, 0.5, 0.5))).toBe('ignored');
    expect(pointer.started).toBe(false);
  });

  it('draws a fast stroke along a corridor cell by cell', () => {
    const maze = kernel.generateMaze({ seed: 12345, width: 8, height: 8, difficulty: 0.3 });
    const s = surfaceOf(8, 8, 40);
    const trace = new Trace(maze, s, kernel);
    const sol = maze.solution;
    // Every other cell of the solution where it runs straight; each turn cell is kept.
    const kept = sol.filter(
      (_c, i) => i === 0 || i === sol.length - 1 || i % 2 === 0 || (sol[i - 1]!.x !== sol[i + 1]!.x && sol[i - 1]!.y !== sol[i + 1]!.y),
    );
    expect(kept.length).toBeLessThan(sol.length);
    for (const c of kept) {
      const e = { x: (20 + (c.x + 0.5) * 40) / s.width, y: (20 + (c.y + 0.5) * 40) / s.height, t: 0, type: 'move' };
      trace.add(e, kernel.mapEvent(maze, 40, e.x, e.y));
    }
    expect(trace.route).toEqual(sol);
    expect(trace.atExit).toBe(true);
  });

  it('draws a jump the segment walk cannot fill along the detour the server records, never from the exit', () => {
    // The golden maze (seed 42, 8x8): from (0,2) a stroke's next sample is in (2,4), across the
    // U the solution takes through (0,6) and (1,6); the chord between them crosses walls.
    const maze = kernel.generateMaze({ seed: 42, width: 8, height: 8, difficulty: 0.3 });
    const s = surfaceOf(8, 8, 40);
    const sol = maze.solution;
    const at = (X: number, Y: number): RawEvent => ({ x: (20 + X * 40) / s.width, y: (20 + Y * 40) / s.height, t: 0, type: 'move' });
    const centre = (c: Cell) => at(c.x + 0.5, c.y + 0.5);
    const u = sol.findIndex((c) => c.x === 2 && c.y === 4);
    const events = [...sol.slice(0, 3), ...sol.slice(u)].map(centre);
    const trace = walk(maze, events.slice(0, 4), 40);
    expect(trace.route).toEqual(sol.slice(0, u + 1));
    // A probe whose trigger the detour passed arms with the prefix the widget builds.
    for (const trigger of cellsOf('0,3 0,6 1,6 2,5')) {
      const prefix = trace.prefixTo(trigger);
      expect(prefix).not.toBeNull();
      expect(kernel.replay(maze, kernel.packEvents(prefix!), 40, { kind: 'probe', trigger }).valid).toBe(true);
    }
    const done = walk(maze, events, 40);
    expect(done.route).toEqual(sol);
    expect(done.atExit).toBe(true);
    expect(kernel.replay(maze, kernel.packEvents(events), 40, { kind: 'verify' }).cells).toEqual(sol);
    // Jitter from the exit to (6,6) through (7,6), walled on its west: noise, as on the server.
    const jitter = at(6.9, 6.6);
    expect(done.add(at(7.5, 7.1), kernel.mapEvent(maze, 40, at(7.5, 7.1).x, at(7.5, 7.1).y))).toBe('same');
    expect(done.add(jitter, kernel.mapEvent(maze, 40, jitter.x, jitter.y))).toBe('noise');
    expect(done.route).toEqual(sol);
    expect(done.atExit).toBe(true);
  });
});
