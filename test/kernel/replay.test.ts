import { beforeAll, describe, expect, it } from 'vitest';
import type { Cell, Kernel, Maze, RawEvent, ReplayMode } from '../../src/kernel/index.js';
import { arrowPresses, canvasCentre, keyboardTrace, pointerTrace } from './helpers/events.js';
import { getKernel } from './helpers/kernel.js';
import { openNeighbours } from './helpers/referenceMaze.js';

// The first golden maze (seed 42, 8x8, d 0.3); its solution runs down column 0 first.
const PARAMS = { seed: 42, width: 8, height: 8, difficulty: 0.3 };
const CELL = 40;
const VERIFY: ReplayMode = { kind: 'verify' };

let k: Kernel;
let maze: Maze;
let solution: Cell[];

const at = (c: Cell, type = 'move', t = 0): RawEvent => ({ ...canvasCentre(c, 8, 8, CELL), t, type });
const trace = (cells: readonly Cell[]): RawEvent[] => pointerTrace(cells, 8, 8, CELL);
const run = (events: RawEvent[], mode: ReplayMode = VERIFY) => k.replay(maze, k.packEvents(events), CELL, mode);
const index = (c: Cell) => c.y * 8 + c.x;
const cellAt = (i: number): Cell => ({ x: i % 8, y: Math.floor(i / 8) });
const onSolution = (c: Cell) => solution.some((s) => s.x === c.x && s.y === c.y);

/** A solution cell with an open neighbour off the solution (the mouth of a dead end). */
function branch(): { at: number; into: Cell } {
  for (let i = 1; i < solution.length - 1; i++) {
    const off = openNeighbours(maze.walls, 8, index(solution[i]!))
      .map(cellAt)
      .find((n) => !onSolution(n));
    if (off) return { at: i, into: off };
  }
  throw new Error('no branch');
}

/** A solution cell and an orthogonal neighbour behind a wall with no short way round (rule 3b). */
function walled(): { at: number; behind: Cell } {
  for (let i = 0; i < solution.length - 1; i++) {
    const c = solution[i]!;
    const open = openNeighbours(maze.walls, 8, index(c));
    for (const [dx, dy] of [
      [1, 0],
      [-1, 0],
      [0, 1],
      [0, -1],
    ] as const) {
      const n = { x: c.x + dx, y: c.y + dy };
      if (n.x < 0 || n.y < 0 || n.x >= 8 || n.y >= 8 || open.includes(index(n)) || onSolution(n)) continue;
      if (k.detour(maze, c, n) === null) return { at: i, behind: n };
    }
  }
  throw new Error('no walled neighbour');
}

beforeAll(async () => {
  k = await getKernel();
  maze = k.generateMaze(PARAMS);
  solution = maze.solution;
});

describe('replay, /verify rules (kernel.md section 4)', () => {
  it('accepts the solution traced with the pointer', () => {
    const r = run(trace(solution));
    expect(r).toEqual({ valid: true, cells: solution, firstStartIndex: 0 });
  });

  it('collapses repeated events in one cell', () => {
    const events = solution.flatMap((c, i) => [at(c, 'move', 3 * i), at(c, 'move', 3 * i + 1), at(c, 'move', 3 * i + 2)]);
    expect(run(events)).toEqual({ valid: true, cells: solution, firstStartIndex: 0 });
  });

  it('drops the events before the first one in the start cell', () => {
    const r = run([at({ x: 3, y: 3 }), at({ x: 7, y: 7 }), ...trace(solution)]);
    expect(r).toEqual({ valid: true, cells: solution, firstStartIndex: 2 });
  });

  it('refuses a trace that never touches the start cell', () => {
    const r = run(trace(solution.slice(1)));
    expect(r).toEqual({ valid: false, cells: [], firstStartIndex: -1 });
  });

  it('refuses a trace that stays in the start cell', () => {
    expect(run(trace([solution[0]!, solution[0]!]))).toEqual({ valid: false, cells: [solution[0]], firstStartIndex: 0 });
  });

  it('refuses a trace that stops short of the exit', () => {
    const r = run(trace(solution.slice(0, -1)));
    expect(r.valid).toBe(false);
    expect(r.cells).toEqual(solution.slice(0, -1));
  });

  it('allows backtracking into a dead end and out again', () => {
    const { at: i, into } = branch();
    const cells = [...solution.slice(0, i + 1), into, solution[i]!, ...solution.slice(i + 1)];
    const r = run(trace(cells));
    expect(r.valid).toBe(true);
    expect(r.cells).toEqual(cells);
  });

  it('skips a jump to a cell that is not adjacent as noise', () => {
    const far = { x: 7, y: 0 };
    const cells = [...solution.slice(0, 5), far, ...solution.slice(5)];
    const r = run(trace(cells));
    expect(r.valid).toBe(true);
    expect(r.cells).toEqual(solution);
  });

  it('skips an adjacent cell behind a wall with no short way round as noise', () => {
    const { at: i, behind } = walled();
    const cells = [...solution.slice(0, i + 1), behind, ...solution.slice(i + 1)];
    const r = run(trace(cells));
    expect(r.valid).toBe(true);
    expect(r.cells).toEqual(solution);
  });

  it('refuses a straight line to the exit that crosses walls', () => {
    const line: Cell[] = [];
    for (let x = 0; x < 8; x++) line.push({ x, y: 0 });
    for (let y = 1; y < 8; y++) line.push({ x: 7, y });
    const r = run(trace(line));
    expect(r.valid).toBe(false);
    expect(r.cells.at(-1)).not.toEqual(maze.exit);
  });

  it('refuses a trace that leaves the exit and ends outside it', () => {
    const r = run(trace([...solution, solution.at(-2)!]));
    expect(r.valid).toBe(false);
    expect(r.cells.at(-1)).toEqual(solution.at(-2));
  });

  it('accepts a trace that leaves the exit and comes back (the final cell decides)', () => {
    const r = run(trace([...solution, solution.at(-2)!, solution.at(-1)!]));
    expect(r.valid).toBe(true);
    expect(r.cells.length).toBe(solution.length + 2);
  });

  it('ignores up, keyup and unknown events wherever they are', () => {
    const noise = [at({ x: 7, y: 0 }, 'up'), at({ x: 3, y: 5 }, 'keyup'), at({ x: 6, y: 1 }, 'wheel')];
    const events = trace(solution).flatMap((e, i) => (i % 4 === 2 ? [e, ...noise] : [e]));
    expect(run(events)).toEqual({ valid: true, cells: solution, firstStartIndex: 0 });
    // An up event in the exit does not complete a path.
    const short = [...trace(solution.slice(0, -1)), at(maze.exit, 'up')];
    expect(run(short).valid).toBe(false);
  });

  it('skips events with non-finite or non-numeric coordinates', () => {
    const bad = [
      { x: NaN, y: 0.5, t: 1, type: 'move' },
      { x: 0.5, y: Infinity, t: 1, type: 'move' },
      { x: -Infinity, y: -Infinity, t: 1, type: 'down' },
      { x: '0.5', y: 0.5, t: 1, type: 'move' } as unknown as RawEvent,
      null as unknown as RawEvent,
    ];
    const events = trace(solution).flatMap((e, i) => (i === 10 ? [e, ...bad] : [e]));
    expect(run(events)).toEqual({ valid: true, cells: solution, firstStartIndex: 0 });
  });

  it('clamps huge finite coordinates to the edge cell', () => {
    // The exit is the bottom-right cell, so an event far beyond the canvas lands in it.
    const events = [...trace(solution.slice(0, -1)), { x: 1e300, y: 1e300, t: 0, type: 'move' }];
    expect(run(events).valid).toBe(true);
  });

  it('uses arrival order and ignores timestamps, even unsorted or non-finite ones', () => {
    const events = trace(solution).map((e, i) => ({ ...e, t: i % 3 === 0 ? -i * 1000 : i % 3 === 1 ? NaN : 1e300 - i }));
    expect(run(events)).toEqual({ valid: true, cells: solution, firstStartIndex: 0 });
    // Sorting by time would change the walk; arrival order reversed is a different, invalid walk.
    expect(run(trace([...solution].reverse())).valid).toBe(false);
  });

  it('refuses an empty trace', () => {
    expect(run([])).toEqual({ valid: false, cells: [], firstStartIndex: -1 });
  });
});

describe('replay with the keyboard', () => {
  it('accepts the solution walked with keydown events (maze fractions)', () => {
    const r = run(keyboardTrace(solution, 8, 8));
    expect(r.valid).toBe(true);
    expect(r.cells).toEqual(solution);
    expect(r.firstStartIndex).toBe(0);
  });

  it('does not count keyup events', () => {
    const upsOnly = keyboardTrace(solution, 8, 8).filter((e) => e.type === 'keyup');
    expect(run(upsOnly)).toEqual({ valid: false, cells: [], firstStartIndex: -1 });
  });

  it('accepts a walk started with the pointer and finished with the keyboard', () => {
    const half = Math.floor(solution.length / 2);
    const events = [...trace(solution.slice(0, half)), ...keyboardTrace(solution.slice(half), 8, 8)];
    expect(run(events)).toEqual({ valid: true, cells: solution, firstStartIndex: 0 });
  });

  it('begins a walk that a keydown begins on the start cell, where the keyboard cursor starts', () => {
    // The deployed widget's keydowns carry where each key took the cursor: none is on the start.
    const events = arrowPresses(solution, 8, 8);
    expect(run(events)).toEqual({ valid: true, cells: solution, firstStartIndex: 0 });
    // A key pressed against a wall first leaves the cursor on the start: the same walk.
    const against = { x: 0.5 / 8, y: 0.5 / 8, t: 0, type: 'keydown', key: 'ArrowUp' };
    expect(run([against, ...events])).toEqual({ valid: true, cells: solution, firstStartIndex: 0 });
  });

  it('walks the first keydown from the start cell by the same rules; one it does not reach begins nothing', () => {
    // Two cells down the solution at once: filled along the open corridor from the start.
    const straight = solution.findIndex((c, i) => i >= 2 && c.x !== 0);
    const skipped = [solution[straight - 1]!, ...solution.slice(straight)];
    expect(run(keyboardTrace(skipped, 8, 8)).cells).toEqual(solution);
    // A first keydown the start does not reach (only through a wall) begins nothing, like a
    // pointer event there; the next keydown, one open step away, begins the walk.
    const { behind } = walled();
    const r = run([...keyboardTrace([behind], 8, 8), ...keyboardTrace(solution.slice(1), 8, 8)]);
    expect(r).toEqual({ valid: true, cells: solution, firstStartIndex: 2 });
    expect(run(keyboardTrace([behind], 8, 8), { kind: 'probe', trigger: behind }).valid).toBe(false);
  });

  it('begins no walk at a pointer event outside the start cell, nor at a keydown after the start', () => {
    expect(run(trace(solution.slice(1))).valid).toBe(false);
    // Pointer events before the start are dropped; the keydown after them begins the walk.
    const r = run([at({ x: 5, y: 5 }), ...arrowPresses(solution, 8, 8)]);
    expect(r).toEqual({ valid: true, cells: solution, firstStartIndex: 1 });
  });

  it('applies walls to keyboard moves too', () => {
    const { at: i, behind } = walled();
    const cells = [...solution.slice(0, i + 1), behind];
    const r = run(keyboardTrace(cells, 8, 8));
    expect(r.valid).toBe(false);
    expect(r.cells).toEqual(solution.slice(0, i + 1));
  });
});

describe('replay, strict probe prefix', () => {
  const upTo = 12;
  const probe = (): ReplayMode => ({ kind: 'probe', trigger: solution[upTo]! });

  it('accepts the solution prefix ending on the trigger cell', () => {
    const r = run(trace(solution.slice(0, upTo + 1)), probe());
    expect(r).toEqual({ valid: true, cells: solution.slice(0, upTo + 1), firstStartIndex: 0 });
  });

  it('collapses consecutive duplicates', () => {
    const cells = solution.slice(0, upTo + 1).flatMap((c) => [c, c, c]);
    expect(run(trace(cells), probe()).valid).toBe(true);
  });

  it('accepts stepping back along open passages', () => {
    const cells = [...solution.slice(0, 4), solution[2]!, solution[3]!, ...solution.slice(4, upTo + 1)];
    expect(run(trace(cells), probe()).valid).toBe(true);
  });

  it('accepts a keyboard prefix', () => {
    expect(run(keyboardTrace(solution.slice(0, upTo + 1), 8, 8), probe()).valid).toBe(true);
  });

  it('accepts a keyboard prefix that begins away from the start (the cursor starts there)', () => {
    const r = run(arrowPresses(solution.slice(0, upTo + 1), 8, 8), probe());
    expect(r).toEqual({ valid: true, cells: solution.slice(0, upTo + 1), firstStartIndex: 0 });
    // Not after a pointer event elsewhere: that one begins the prefix, away from the start.
    expect(run([at({ x: 5, y: 5 }), ...arrowPresses(solution.slice(0, upTo + 1), 8, 8)], probe()).valid).toBe(false);
  });

  it('skips non-finite events and ignored types', () => {
    const events = [
      ...trace(solution.slice(0, 3)),
      { x: NaN, y: NaN, t: 0, type: 'move' },
      at({ x: 7, y: 7 }, 'up'),
      ...trace(solution.slice(3, upTo + 1)),
    ];
    expect(run(events, probe()).valid).toBe(true);
  });

  it('refuses a jump that /verify would skip as noise', () => {
    const cells = [...solution.slice(0, 5), { x: 7, y: 0 }, ...solution.slice(5, upTo + 1)];
    expect(run(trace(cells), VERIFY).cells).toEqual(solution.slice(0, upTo + 1));
    expect(run(trace(cells), probe()).valid).toBe(false);
  });

  it('refuses a step through a wall', () => {
    const { at: i, behind } = walled();
    const cells = [...solution.slice(0, i + 1), behind, solution[i]!, ...solution.slice(i + 1, upTo + 1)];
    expect(run(trace(cells), probe()).valid).toBe(false);
  });

  it('refuses a prefix that does not begin in the start cell', () => {
    expect(run(trace(solution.slice(1, upTo + 1)), probe()).valid).toBe(false);
    // Events elsewhere before the start are not dropped in this mode.
    const r = run([at({ x: 5, y: 5 }), ...trace(solution.slice(0, upTo + 1))], probe());
    expect(r.valid).toBe(false);
    expect(r.firstStartIndex).toBe(1);
  });

  it('refuses a prefix that stops before or runs past the trigger', () => {
    expect(run(trace(solution.slice(0, upTo)), probe()).valid).toBe(false);
    expect(run(trace(solution.slice(0, upTo + 2)), probe()).valid).toBe(false);
  });

  it('refuses a single cell, even when the trigger is the start', () => {
    const r = run(trace([solution[0]!, solution[0]!]), { kind: 'probe', trigger: { x: 0, y: 0 } });
    expect(r).toEqual({ valid: false, cells: [solution[0]], firstStartIndex: 0 });
    expect(run([], probe()).valid).toBe(false);
  });
});
