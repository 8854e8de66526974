// The events the widget records are what /verify receives: pointer positions as fractions of the
// drawing surface to 5 digits, keys at their cell's centre to 6, times from the maze's showing to
// 0.1 ms; past the cap, moves inside the current cell are dropped; the trail keeps the latest 80.
import { beforeAll, describe, expect, it } from 'vitest';
import { centrePx, type Surface } from '../../src/client/geometry.js';
import { Recording, type PointerSample } from '../../src/client/recording.js';
import type { Kernel, Maze } from '../../src/kernel/types.js';
import { mazeOnSurface } from './helpers/mazeOnSurface.js';

let kernel: Kernel;
let maze: Maze;
/** 7 x 6 cells of 40 px: 320 x 304 px with the margins and the strip. */
let s: Surface;
beforeAll(async () => {
  ({ kernel, maze, s } = await mazeOnSurface(7, 7, 6));
});

/** The canvas drawn at its surface's size, at the page's top left. */
const unscaled = () => ({ left: 0, top: 0, width: s.width, height: s.height });
const at = (p: { x: number; y: number }, timeStamp = 0, pointerType = 'mouse'): PointerSample => ({
  clientX: p.x,
  clientY: p.y,
  timeStamp,
  pointerType,
});

describe('Recording', () => {
  it('records a pointer event as fractions of the canvas, its time from the round start and its kind of pointer', () => {
    const rec = new Recording(maze, s, kernel, 1000);
    // The canvas shown at twice its surface's size, 100 px right and 50 px down the page.
    const rect = { left: 100, top: 50, width: 640, height: 608 };
    const got = rec.pointer(
      'down',
      { clientX: 100 + 640 / 3, clientY: 50 + (608 * 2) / 7, timeStamp: 1234.56, pointerType: 'pen' },
      3,
      rect,
    );
    expect(got?.event).toEqual({ x: 0.33333, y: 0.28571, t: 234.6, type: 'down', pointer_type: 'pen', coalesced_count: 3 });
    expect(rec.trace.events).toEqual([got?.event]);
    expect(rec.trail).toHaveLength(1);
    expect(rec.trail[0]!.x).toBeCloseTo(0.33333 * 320, 9);
    expect(rec.trail[0]!.y).toBeCloseTo(0.28571 * 304, 9);
    const types = ['touch', 'pen', 'mouse', '', 'stylus'].map(
      (t) => rec.pointer('move', at({ x: 300, y: 300 }, 0, t), 1, rect)?.event.pointer_type,
    );
    expect(types).toEqual(['touch', 'pen', 'mouse', 'mouse', 'mouse']);
  });

  it('starts the walk with a press on the start cell', () => {
    const rec = new Recording(maze, s, kernel, 0);
    expect(rec.pointer('down', at(centrePx(s, maze.start)), 1, unscaled())?.kind).toBe('step');
    expect(rec.trace.last).toEqual(maze.start);
  });

  it('records nothing while the canvas has no size', () => {
    const rec = new Recording(maze, s, kernel, 0);
    expect(rec.pointer('down', at(centrePx(s, maze.start)), 1, { left: 0, top: 0, width: 0, height: 0 })).toBeNull();
    expect(rec.trace.events).toHaveLength(0);
    expect(rec.trail).toHaveLength(0);
  });

  it('past 2000 events drops moves inside the current cell, never a move to another cell, a press or a release', () => {
    const rec = new Recording(maze, s, kernel, 0);
    const start = centrePx(s, maze.start);
    rec.pointer('down', at(start), 1, unscaled());
    for (let i = 1; i < 2000; i++) expect(rec.pointer('move', at({ x: start.x + (i % 7) - 3, y: start.y }), 1, unscaled())).not.toBeNull();
    expect(rec.pointer('move', at(start), 1, unscaled())).toBeNull();
    expect(rec.trail).toHaveLength(80);
    // Replay ignores a release: it is recorded all the same, as it comes.
    expect(rec.pointer('up', at(start), 1, unscaled())?.kind).toBe('ignored');
    expect(rec.pointer('down', at(start), 1, unscaled())?.kind).toBe('same');
    expect(rec.pointer('move', at(centrePx(s, maze.solution[1]!)), 1, unscaled())?.kind).toBe('step');
    expect(rec.trace.events).toHaveLength(2003);
  });

  it('keeps the 80 latest pointer positions, in surface pixels, oldest first', () => {
    const rec = new Recording(maze, s, kernel, 0);
    for (let i = 0; i < 100; i++) rec.pointer('move', at({ x: 20 + i, y: 76 }), 1, unscaled());
    expect(rec.trail).toHaveLength(80);
    // Within what the 5 digits of the recorded fraction keep (320 px * 0.5e-5).
    expect(rec.trail[0]!.x).toBeCloseTo(40, 2);
    expect(rec.trail[79]!.x).toBeCloseTo(119, 2);
    expect(rec.trail.every((p) => p.y === 76)).toBe(true);
  });

  it("records a key at the centre of the cursor's cell in maze fractions, and a keydown the start reaches starts the walk", () => {
    const rec = new Recording(maze, s, kernel, 1000);
    const got = rec.key('keydown', 'Enter', maze.start, 1500.04);
    expect(got.kind).toBe('step');
    expect(rec.trace.last).toEqual(maze.start);
    expect(rec.key('keyup', 'ArrowRight', { x: 1, y: 2 }, 2000).event).toEqual({
      x: 0.214286,
      y: 0.416667,
      t: 1000,
      type: 'keyup',
      key: 'ArrowRight',
    });
    expect(got.event.t).toBe(500);
  });
});
