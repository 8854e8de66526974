// Pointer and keys on the maze canvas, as the widget records them: the primary pointer from its
// press to its release (captured, every coalesced report), the keyboard cursor walking the
// corridors from S, what is said after each key, and nothing taken while the widget takes no input.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { centrePx, type Surface } from '../../src/client/geometry.js';
import type { Announcement } from '../../src/client/keyboardAnnouncement.js';
import { type Recorded, Recording } from '../../src/client/recording.js';
import { MOVES, type MoveKey, wallsAt } from '../../src/client/trace.js';
import { type AddListener, TraceInput } from '../../src/client/traceInput.js';
import type { Cell, Kernel, Maze } from '../../src/kernel/types.js';
import { mazeOnSurface } from './helpers/mazeOnSurface.js';

let kernel: Kernel;
let maze: Maze;
let s: Surface;
beforeAll(async () => {
  ({ kernel, maze, s } = await mazeOnSurface(21, 8, 6));
});

/** A canvas at the page's top left, drawn at its surface's size, whose listeners a test calls. */
function setup() {
  const handlers = new Map<string, (e: unknown) => void>();
  const canvas = {
    getBoundingClientRect: () => ({ left: 0, top: 0, width: s.width, height: s.height }),
    setPointerCapture: vi.fn(),
    releasePointerCapture: vi.fn(),
  };
  const rec = new Recording(maze, s, kernel, 0);
  const said: [Cell, Announcement][] = [];
  const recorded: Recorded[] = [];
  const state = { accepting: true, stopOnStep: false };
  const input = new TraceInput(canvas as unknown as HTMLElement, {
    recording: () => (state.accepting ? rec : null),
    recorded: (got) => {
      recorded.push(got);
      if (state.stopOnStep && got.kind === 'step') state.accepting = false;
    },
    announce: (m, at, what) => {
      expect(m).toBe(maze);
      said.push([at, what]);
    },
  });
  const on: AddListener = (_el, type, fn) => handlers.set(type, fn as (e: unknown) => void);
  input.listen(on);
  const key = (type: 'keydown' | 'keyup', k: string) => {
    const e = { key: k, timeStamp: 100, preventDefault: vi.fn() };
    handlers.get(type)!(e);
    return e.preventDefault.mock.calls.length > 0;
  };
  const pointer = (type: string, p: { x: number; y: number }, more: Record<string, unknown> = {}) =>
    handlers.get(type)!({
      pointerId: 7,
      isPrimary: true,
      clientX: p.x,
      clientY: p.y,
      timeStamp: 50,
      pointerType: 'mouse',
      preventDefault: () => {},
      ...more,
    });
  return { canvas, rec, said, recorded, state, input, key, pointer };
}

/** An arrow key from `c` along an open side, and one into a wall (every cell has at least one). */
function arrows(c: Cell): { open: MoveKey; wall: MoveKey } {
  const keys = Object.keys(MOVES) as MoveKey[];
  return { open: keys.find((k) => !(wallsAt(maze, c) & MOVES[k].wall))!, wall: keys.find((k) => wallsAt(maze, c) & MOVES[k].wall)! };
}
const step = (c: Cell, k: MoveKey): Cell => ({ x: c.x + MOVES[k].dx, y: c.y + MOVES[k].dy });

describe('TraceInput: keys', () => {
  it('starts the cursor on S with Enter, recording a keydown at its centre and saying where it stands', () => {
    const t = setup();
    expect(t.input.cursor).toBeNull();
    expect(t.key('keydown', 'Enter')).toBe(true);
    expect(t.input.cursor).toEqual(maze.start);
    const [event] = t.rec.trace.events;
    expect(t.rec.trace.events).toHaveLength(1);
    expect(event).toMatchObject({ t: 100, type: 'keydown', key: 'Enter' });
    expect(event!.x).toBeCloseTo((maze.start.x + 0.5) / 8, 6);
    expect(event!.y).toBeCloseTo((maze.start.y + 0.5) / 6, 6);
    expect(t.recorded.map((r) => r.kind)).toEqual(['step']);
    // The keydown has started the walk by then, so the position is said (not the started text).
    expect(t.said).toEqual([[maze.start, 'position']]);
  });

  it('moves the cursor and the walk along an open side; a press into a wall is recorded where it stands and says so', () => {
    const t = setup();
    const { open, wall } = arrows(maze.start);
    t.key('keydown', wall);
    expect(t.input.cursor).toEqual(maze.start);
    expect(t.said).toEqual([
      [maze.start, 'position'],
      [maze.start, 'wall'],
    ]);
    t.key('keydown', open);
    const next = step(maze.start, open);
    expect(t.input.cursor).toEqual(next);
    expect(t.rec.trace.last).toEqual(next);
    expect(t.said.at(-1)).toEqual([next, 'position']);
    expect(t.rec.trace.events.map((e) => e.key)).toEqual([wall, wall, open]);
    // Enter once started says the position again and records nothing.
    t.key('keydown', 'Enter');
    expect(t.said.at(-1)).toEqual([next, 'position']);
    expect(t.rec.trace.events).toHaveLength(3);
  });

  it('records a keyup at the cursor once the keyboard is in use, and leaves other keys to the page', () => {
    const t = setup();
    expect(t.key('keyup', 'Enter')).toBe(true);
    expect(t.rec.trace.events).toHaveLength(0);
    expect(t.key('keydown', 'Tab')).toBe(false);
    expect(t.key('keydown', 'a')).toBe(false);
    t.key('keydown', ' ');
    t.key('keyup', ' ');
    expect(t.rec.trace.events.map((e) => e.type)).toEqual(['keydown', 'keyup']);
    expect(t.said).toHaveLength(1);
  });

  it('says nothing after a key that ends the tracing', () => {
    const t = setup();
    t.key('keydown', 'Enter');
    t.state.stopOnStep = true;
    t.key('keydown', arrows(maze.start).open);
    expect(t.recorded).toHaveLength(2);
    expect(t.said).toHaveLength(1);
  });

  it('takes no key while the widget takes no input', () => {
    const t = setup();
    t.state.accepting = false;
    expect(t.key('keydown', 'Enter')).toBe(false);
    expect(t.input.cursor).toBeNull();
    expect(t.rec.trace.events).toHaveLength(0);
  });
});

describe('TraceInput: pointer', () => {
  it('records the primary pointer from its press to its release, captured, with every coalesced report', () => {
    const t = setup();
    const start = centrePx(s, maze.start);
    t.pointer('pointerdown', start, { isPrimary: false });
    expect(t.rec.trace.events).toHaveLength(0);
    t.pointer('pointerdown', start);
    expect(t.canvas.setPointerCapture).toHaveBeenCalledWith(7);
    t.pointer('pointermove', start, { pointerId: 8 });
    const reports = [0, 1, 2].map((i) => ({ clientX: start.x + i, clientY: start.y, timeStamp: 60 + i, pointerType: 'mouse' }));
    t.pointer('pointermove', start, { getCoalescedEvents: () => reports });
    t.pointer('pointerup', start, { pointerId: 8 });
    t.pointer('pointercancel', start);
    t.pointer('pointermove', start);
    expect(t.rec.trace.events.map((e) => [e.type, e.coalesced_count])).toEqual([
      ['down', 1],
      ['move', 3],
      ['move', 3],
      ['move', 3],
      ['up', 1],
    ]);
    t.input.release();
    expect(t.canvas.releasePointerCapture).not.toHaveBeenCalled();
  });

  it('stops at the report that ends the tracing, and lets the pointer go when asked', () => {
    const t = setup();
    t.pointer('pointerdown', centrePx(s, maze.start));
    t.state.stopOnStep = true;
    const next = centrePx(s, step(maze.start, arrows(maze.start).open));
    const reports = [0, 1, 2].map((i) => ({ clientX: next.x + i, clientY: next.y, timeStamp: 60 + i, pointerType: 'mouse' }));
    t.pointer('pointermove', next, { getCoalescedEvents: () => reports });
    expect(t.rec.trace.events.map((e) => e.type)).toEqual(['down', 'move']);
    t.input.release();
    expect(t.canvas.releasePointerCapture).toHaveBeenCalledWith(7);
  });

  it('moves a keyboard cursor in use to where a pointer step takes the walk; reset forgets it', () => {
    const t = setup();
    t.key('keydown', 'Enter');
    const next = step(maze.start, arrows(maze.start).open);
    t.pointer('pointerdown', centrePx(s, next));
    expect(t.input.cursor).toEqual(next);
    t.input.reset();
    expect(t.input.cursor).toBeNull();
    t.input.release();
    expect(t.canvas.releasePointerCapture).not.toHaveBeenCalled();
  });
});
