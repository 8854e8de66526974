// Rule 3a of kernel.md section 4: a jump between two events is filled by the straight segment
// between them when every cell it crosses is open; otherwise by the bounded detour (rule 3b,
// test/kernel/detour.test.ts) or it is noise. Mazes here have walls chosen by the test (cycles
// included) so each geometric case is explicit.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Cell, RawEvent, ReplayMode } from '../../src/kernel/index.js';
import { corridor, customKernel, loadWalls, type CustomMaze } from './helpers/customMaze.js';
import { referenceReplay } from './helpers/referenceReplay.js';

const CELL = 40;
const VERIFY: ReplayMode = { kind: 'verify' };
let k: ReturnType<typeof customKernel>;

beforeEach(() => {
  k = customKernel();
});

/** A pointer event at (X, Y) in cell units of a w x h maze (canvas fractions, kernel.md 3). */
const pointer = (m: CustomMaze, X: number, Y: number, type = 'move', t = 0): RawEvent => ({
  x: (20 + X * CELL) / (m.width * CELL + 40),
  y: (20 + Y * CELL) / (m.height * CELL + 64),
  t,
  type,
});
/** A keydown at (X, Y) in cell units (maze fractions, exact for these sizes). */
const key = (m: CustomMaze, X: number, Y: number, t = 0): RawEvent => ({
  x: X / m.width,
  y: Y / m.height,
  t,
  type: 'keydown',
  key: 'ArrowRight',
});
const centre = (m: CustomMaze, c: Cell, type = 'move') => pointer(m, c.x + 0.5, c.y + 0.5, type);
const cells = (text: string): Cell[] => text.split(' ').map((p) => ({ x: Number(p.split(',')[0]), y: Number(p.split(',')[1]) }));
const row = (y: number, from: number, to: number): Cell[] => Array.from({ length: to - from + 1 }, (_, i) => ({ x: from + i, y }));
const col = (x: number, from: number, to: number): Cell[] => Array.from({ length: to - from + 1 }, (_, i) => ({ x, y: from + i }));

function run(m: CustomMaze, events: RawEvent[], mode: ReplayMode = VERIFY) {
  const r = k.kernel.replay(m, k.kernel.packEvents(events), CELL, mode);
  expect(r).toEqual(referenceReplay(m, CELL, events, mode.kind === 'probe' ? mode.trigger : undefined));
  return r;
}

/** 6x6: row 0 open from (0,0) to (5,0), column 5 open down to the exit (5,5). */
function lShape(): CustomMaze {
  return loadWalls(k, 6, 6, corridor([...row(0, 0, 5), ...col(5, 1, 5)]));
}

describe('jumps along a corridor', () => {
  it.each([1, 2, 3])('fills a jump over %i cells', (over) => {
    const m = lShape();
    const events = [
      centre(m, { x: 0, y: 0 }, 'down'),
      centre(m, { x: over + 1, y: 0 }),
      ...row(0, over + 2, 5).map((c) => centre(m, c)),
      ...col(5, 1, 5).map((c) => centre(m, c)),
    ];
    const r = run(m, events);
    expect(r.valid).toBe(true);
    expect(r.cells).toEqual([...row(0, 0, 5), ...col(5, 1, 5)]);
  });

  it('fills a whole stroke sampled every 2 to 3 cells, turning the corner', () => {
    const m = lShape();
    const events = [
      centre(m, { x: 0, y: 0 }, 'down'),
      centre(m, { x: 2, y: 0 }),
      centre(m, { x: 5, y: 0 }),
      centre(m, { x: 5, y: 3 }),
      centre(m, { x: 5, y: 5 }),
    ];
    const r = run(m, events);
    expect(r.valid).toBe(true);
    expect(r.cells).toEqual([...row(0, 0, 5), ...col(5, 1, 5)]);
    // Each filled jump moves the anchor: after the first one the trace stands in (2,0).
    expect(run(m, events.slice(0, 2)).cells).toEqual(row(0, 0, 2));
  });

  it('fills jumps of keyboard events the same way', () => {
    const m = lShape();
    const events = [key(m, 0.5, 0.5), key(m, 3.5, 0.5), key(m, 5.5, 0.5), key(m, 5.5, 4.5), key(m, 5.5, 5.5)];
    expect(run(m, events)).toMatchObject({ valid: true, cells: [...row(0, 0, 5), ...col(5, 1, 5)] });
  });

  it('fills a jump from a point clamped at the border (events out in the margin)', () => {
    const m = lShape();
    // Far right of the canvas clamps to column 5; far below clamps to row 5.
    const events = [
      centre(m, { x: 0, y: 0 }, 'down'),
      { x: 1e300, y: pointer(m, 0, 0.5).y, t: 0, type: 'move' },
      { x: 1e300, y: 1e300, t: 0, type: 'move' },
    ];
    expect(run(m, events)).toMatchObject({ valid: true, cells: [...row(0, 0, 5), ...col(5, 1, 5)] });
  });

  it('keeps the anchor through skipped events (non-finite, ignored types)', () => {
    const m = lShape();
    const events = [
      centre(m, { x: 0, y: 0 }, 'down'),
      { x: NaN, y: 0.5, t: 1, type: 'move' },
      pointer(m, 4.5, 4.5, 'up'),
      pointer(m, 3.5, 0.5, 'keyup'),
      centre(m, { x: 5, y: 0 }),
      centre(m, { x: 5, y: 5 }),
    ];
    expect(run(m, events)).toMatchObject({ valid: true, cells: [...row(0, 0, 5), ...col(5, 1, 5)] });
  });
});

describe('jumps through walls: a short way round or noise', () => {
  it('skips a jump whose segment crosses a wall and that no route reaches, and moves nothing', () => {
    // Row 0 open to (2,0), a wall, then open from (3,0) on; the exit is reached another way.
    const m = loadWalls(k, 6, 2, [...corridor(row(0, 0, 2)), ...corridor(row(0, 3, 5)), ...corridor([{ x: 0, y: 0 }, ...row(1, 0, 5)])]);
    const start = centre(m, { x: 0, y: 0 }, 'down');
    const r = run(m, [start, centre(m, { x: 4, y: 0 }), centre(m, { x: 1, y: 0 })]);
    // The jump to (4,0) is noise; the anchor stayed at the start, so (1,0) is an open step.
    expect(r).toEqual({ valid: false, cells: row(0, 0, 1), firstStartIndex: 0 });
    // A jump along row 1 to the exit is filled by the segment walk; the same jump aimed through
    // row 0 meets the wall and is filled by the detour down and along row 1 (6 steps, 6 apart).
    expect(run(m, [start, centre(m, { x: 0, y: 1 }), centre(m, { x: 5, y: 1 })]).valid).toBe(true);
    expect(run(m, [start, centre(m, { x: 5, y: 0 }), pointer(m, 5.5, 1.5)]).cells).toEqual([{ x: 0, y: 0 }, ...row(1, 0, 5)]);
  });

  it('fills a diagonal jump whose segment passes a closed cell by the open route round it', () => {
    // (0,0)-(1,0)-(1,1) open; (0,1) closed off from both.
    const m = loadWalls(k, 2, 2, corridor(cells('0,0 1,0 1,1')));
    const start = centre(m, { x: 0, y: 0 }, 'down');
    // Aimed low: from the centre of (0,0) to (1.1, 1.9) crosses y = 1 first, into (0,1); the
    // segment walk meets the wall and the detour takes (1,0).
    expect(k.kernel.walkSegment(m, { mx: 0.25, my: 0.25 }, { mx: 1.1 / 2, my: 1.9 / 2 })).toBeNull();
    expect(run(m, [start, pointer(m, 1.1, 1.9)])).toEqual({ valid: true, cells: cells('0,0 1,0 1,1'), firstStartIndex: 0 });
    // Aimed high: to (1.9, 1.1) crosses x = 1 first, through (1,0), by the segment walk.
    expect(run(m, [start, pointer(m, 1.9, 1.1)])).toEqual({ valid: true, cells: cells('0,0 1,0 1,1'), firstStartIndex: 0 });
  });

  it('treats a walled orthogonal neighbour as noise', () => {
    const m = loadWalls(k, 2, 2, corridor(cells('0,0 1,0 1,1')));
    expect(run(m, [key(m, 0.5, 0.5), key(m, 0.5, 1.5), key(m, 1.5, 0.5), key(m, 1.5, 1.5)])).toMatchObject({
      valid: true,
      cells: cells('0,0 1,0 1,1'),
    });
  });
});

describe('compatibility: what the plain walk accepts stays accepted', () => {
  it('accepts through the plain walk when filled jumps strand the walk with rule 3 in a dead end', () => {
    // Row 0 and column 6 lead to the exit (6,3); a dead end winds from (1,0) down column 1,
    // along row 3 and up column 4 to (4,1).
    const deadEnd = [...col(1, 0, 3), ...row(3, 2, 4), ...col(4, 1, 2).reverse()];
    const m = loadWalls(k, 7, 4, [...corridor(row(0, 0, 6)), ...corridor(col(6, 0, 3)), ...corridor(deadEnd)]);
    const main = [...row(0, 0, 6), ...col(6, 1, 3)];
    // Stray points at (1,3), straight down from (1,0), then at (4,1), a detour of 5 steps for 5
    // apart: rule 3 follows both, and from (4,1) every later cell of row 0 and column 6 is more
    // than 4 steps beyond its distance apart (the way back is the whole dead end).
    const events = [
      centre(m, main[0]!, 'down'),
      centre(m, main[1]!),
      centre(m, { x: 1, y: 3 }),
      centre(m, { x: 4, y: 1 }),
      ...main.slice(2).map((c) => centre(m, c)),
    ];
    const r = run(m, events);
    expect(r).toEqual({ valid: true, cells: main, firstStartIndex: 0 });
    // Without the last event neither walk ends on the exit, and rule 3's walk's cells are reported.
    expect(run(m, events.slice(0, -1))).toEqual({ valid: false, cells: [main[0]!, ...deadEnd], firstStartIndex: 0 });
  });
});

describe('corner crossings', () => {
  // 3x3, the walk from the centre cell (1,1) to each diagonal neighbour through the corner.
  const diagonals = [
    { to: { x: 2, y: 2 }, across: { x: 2, y: 1 }, down: { x: 1, y: 2 } },
    { to: { x: 0, y: 2 }, across: { x: 0, y: 1 }, down: { x: 1, y: 2 } },
    { to: { x: 2, y: 0 }, across: { x: 2, y: 1 }, down: { x: 1, y: 0 } },
    { to: { x: 0, y: 0 }, across: { x: 0, y: 1 }, down: { x: 1, y: 0 } },
  ];
  const link = (a: Cell, b: Cell) => `${a.x},${a.y}-${b.x},${b.y}`;
  const mid = { x: 1, y: 1 };
  const configs = [
    {
      name: 'both orders open: horizontal first',
      open: (d: (typeof diagonals)[0]) => [link(mid, d.across), link(d.across, d.to), link(mid, d.down), link(d.down, d.to)],
      via: 'across',
    },
    {
      name: 'only horizontal first open',
      open: (d: (typeof diagonals)[0]) => [link(mid, d.across), link(d.across, d.to), link(mid, d.down)],
      via: 'across',
    },
    {
      name: 'only vertical first open',
      open: (d: (typeof diagonals)[0]) => [link(mid, d.down), link(d.down, d.to), link(mid, d.across)],
      via: 'down',
    },
    { name: 'none open', open: (d: (typeof diagonals)[0]) => [link(mid, d.across), link(mid, d.down)], via: null },
  ] as const;

  for (const c of configs) {
    it(`${c.name}, in all four directions, exact and as rounded pointer fractions`, () => {
      for (const d of diagonals) {
        const m = loadWalls(k, 3, 3, [...c.open(d)]);
        const expected = c.via === null ? null : [d[c.via], d.to];
        // Keyboard fractions hit the corner exactly; pointer fractions miss it by rounding.
        expect(k.kernel.walkSegment(m, { mx: 1.5 / 3, my: 1.5 / 3 }, { mx: (d.to.x + 0.5) / 3, my: (d.to.y + 0.5) / 3 })).toEqual(expected);
        const a = k.kernel.mapEvent(m, CELL, centre(m, mid).x, centre(m, mid).y)!;
        const b = k.kernel.mapEvent(m, CELL, centre(m, d.to).x, centre(m, d.to).y)!;
        expect(k.kernel.walkSegment(m, a, b)).toEqual(expected);
      }
    });
  }

  it('walks a diagonal through several corners in a replay, taking an open order at each', () => {
    // 4x4, staircase from the start to the exit: the diagonal passes corners (1,1), (2,2), (3,3).
    const m = loadWalls(k, 4, 4, corridor(cells('0,0 0,1 1,1 1,2 2,2 3,2 3,3')));
    const events = [key(m, 0.5, 0.5), key(m, 3.5, 3.5)];
    const r = run(m, events);
    expect(r).toEqual({ valid: true, cells: cells('0,0 0,1 1,1 1,2 2,2 3,2 3,3'), firstStartIndex: 0 });
    const p = run(m, [centre(m, { x: 0, y: 0 }, 'down'), centre(m, { x: 3, y: 3 })]);
    expect(p.cells).toEqual(r.cells);
    // Close one step of the staircase: the segment is noise and the trace stays at the start.
    const blocked = loadWalls(k, 4, 4, corridor(cells('0,0 0,1 1,1 1,2 2,2 3,2')));
    expect(run(blocked, events).cells).toEqual([{ x: 0, y: 0 }]);
  });

  it('starts and ends on corners: points on grid lines belong to the cell after them', () => {
    const m = loadWalls(k, 3, 3, [...corridor(row(0, 0, 2)), ...corridor(col(2, 0, 2)), ...corridor(col(1, 0, 2)), '1,1-2,1']);
    // (1.0, 0.5) is in (1,0); (1.0, 2.5) in (1,2): the segment runs along x = 1 in column 1.
    expect(k.kernel.walkSegment(m, { mx: 1 / 3, my: 0.5 / 3 }, { mx: 1 / 3, my: 2.5 / 3 })).toEqual(cells('1,1 1,2'));
    // From the corner (1, 0), in (1,0), to the corner (2, 2), in (2,2): it crosses y = 1 first,
    // then meets x = 2 and y = 2 together at its end, a corner crossing into (2,2).
    expect(k.kernel.walkSegment(m, { mx: 1 / 3, my: 0 }, { mx: 2 / 3, my: 2 / 3 })).toEqual(cells('1,1 2,1 2,2'));
    // A corner-to-corner segment of the whole maze, ending clamped in the exit.
    expect(k.kernel.walkSegment(m, { mx: 0, my: 0 }, { mx: 1, my: 1 })).toEqual(cells('1,0 1,1 2,1 2,2'));
    // Along a grid line with column 1 closed below row 0: noise, column 0 is never used.
    const closed = loadWalls(k, 3, 3, [...corridor(row(0, 0, 2)), ...corridor(col(0, 0, 2))]);
    expect(k.kernel.walkSegment(closed, { mx: 1 / 3, my: 0.5 / 3 }, { mx: 1 / 3, my: 2.5 / 3 })).toBeNull();
  });

  it('answers a zero-length or same-cell segment with no cells', () => {
    const m = loadWalls(k, 3, 3, corridor(row(0, 0, 2)));
    expect(k.kernel.walkSegment(m, { mx: 0.1, my: 0.1 }, { mx: 0.1, my: 0.1 })).toEqual([]);
    expect(k.kernel.walkSegment(m, { mx: 0.1, my: 0.1 }, { mx: 0.3, my: 0.05 })).toEqual([]);
  });
});

describe('probe arm prefix: the segment walk, strictly', () => {
  it('accepts a prefix whose jumps the segment walk fills', () => {
    const m = lShape();
    const trigger = { x: 5, y: 2 };
    const events = [centre(m, { x: 0, y: 0 }, 'down'), centre(m, { x: 3, y: 0 }), centre(m, { x: 5, y: 0 }), centre(m, { x: 5, y: 2 })];
    expect(run(m, events, { kind: 'probe', trigger })).toEqual({
      valid: true,
      cells: [...row(0, 0, 5), ...col(5, 1, 2)],
      firstStartIndex: 0,
    });
    const keys = [key(m, 0.5, 0.5), key(m, 5.5, 0.5), key(m, 5.5, 2.5)];
    expect(run(m, keys, { kind: 'probe', trigger }).valid).toBe(true);
  });

  it('refuses a prefix with a jump the walk cannot fill, even when it comes back', () => {
    const m = loadWalls(k, 6, 2, [...corridor(row(0, 0, 2)), ...corridor(row(0, 3, 5)), ...corridor([{ x: 0, y: 0 }, ...row(1, 0, 5)])]);
    const trigger = { x: 2, y: 0 };
    const good = [centre(m, { x: 0, y: 0 }, 'down'), centre(m, { x: 2, y: 0 })];
    expect(run(m, good, { kind: 'probe', trigger }).valid).toBe(true);
    // A jump through the wall to (4,0) and back: /verify would skip it, a prefix may not.
    const bad = [good[0]!, centre(m, { x: 4, y: 0 }), centre(m, { x: 2, y: 0 })];
    expect(run(m, bad, { kind: 'probe', trigger }).valid).toBe(false);
    expect(run(m, bad).cells).toEqual(row(0, 0, 2));
  });

  it('refuses a corner crossing with no open order', () => {
    const m = loadWalls(k, 2, 2, corridor(cells('0,0 1,0 1,1')).slice(0, 1).concat(['0,0-0,1']));
    expect(run(m, [key(m, 0.5, 0.5), key(m, 1.5, 1.5)], { kind: 'probe', trigger: { x: 1, y: 1 } }).valid).toBe(false);
  });
});
