// Rule 3b of kernel.md section 4, the bounded detour: an event the segment walk cannot reach is
// reached by the shortest open route from the last recorded cell when it is at most 4 steps
// longer than the two cells are apart; never from the exit. Vectors on a real generated maze
// (perfect, so the route is unique), the tie order on mazes with cycles, and the detour export
// checked against the independent reference on random mazes with cycles.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Cell, Kernel, Maze, RawEvent, ReplayMode } from '../../src/kernel/index.js';
import { corridor, customKernel, loadWalls } from './helpers/customMaze.js';
import { arrowPresses, canvasCentre, cellsOf, pointerTrace } from './helpers/events.js';
import { getKernel } from './helpers/kernel.js';
import { DETOUR_SLACK, referenceDetour, referenceReplay, referenceWalkValid, wallViolations } from './helpers/referenceReplay.js';

// The first golden maze (seed 42, 8x8, d 0.3). Its solution runs down column 0 to (0,6), turns
// back up through (1,6) (1,5) (2,5) to (2,4), and reaches the exit (7,7) down column 7 from (7,2).
const PARAMS = { seed: 42, width: 8, height: 8, difficulty: 0.3 };
const CELL = 40;
const VERIFY: ReplayMode = { kind: 'verify' };
const SOLUTION = cellsOf('0,0 0,1 0,2 0,3 0,4 0,5 0,6 1,6 1,5 2,5 2,4 1,4 1,3 1,2 2,2 3,2 3,3 4,3 4,2 5,2 6,2 7,2 7,3 7,4 7,5 7,6 7,7');

let k: Kernel;
let maze: Maze;

/** A pointer event at (X, Y) in cell units (canvas fractions, kernel.md 3). */
const pointer = (X: number, Y: number, type = 'move'): RawEvent => ({
  x: (20 + X * CELL) / (8 * CELL + 40),
  y: (20 + Y * CELL) / (8 * CELL + 64),
  t: 0,
  type,
});
const centre = (c: Cell, type = 'move'): RawEvent => ({ ...canvasCentre(c, 8, 8, CELL), t: 0, type });
const keyAt = (c: Cell): RawEvent => ({ x: (c.x + 0.5) / 8, y: (c.y + 0.5) / 8, t: 0, type: 'keydown', key: 'ArrowDown' });
const upTo = (c: string) => SOLUTION.slice(0, SOLUTION.findIndex((s) => `${s.x},${s.y}` === c) + 1);
const from = (c: string) => SOLUTION.slice(SOLUTION.findIndex((s) => `${s.x},${s.y}` === c));

function run(events: RawEvent[], mode: ReplayMode = VERIFY) {
  const r = k.replay(maze, k.packEvents(events), CELL, mode);
  expect(r).toEqual(referenceReplay(maze, CELL, events, mode.kind === 'probe' ? mode.trigger : undefined));
  return r;
}

beforeAll(async () => {
  k = await getKernel();
  maze = k.generateMaze(PARAMS);
  expect(maze.solution).toEqual(SOLUTION);
});

describe('the bounded detour on a generated maze', () => {
  it('takes a route of exactly apart + 4 steps and records its cells', () => {
    // (0,0) to (2,4): 6 cells apart, 10 steps round the U of the solution; the straight segment
    // between their centres meets a wall.
    expect(k.walkSegment(maze, { mx: 0.5 / 8, my: 0.5 / 8 }, { mx: 2.5 / 8, my: 4.5 / 8 })).toBeNull();
    const events = [centre(SOLUTION[0]!, 'down'), centre({ x: 2, y: 4 }), ...pointerTrace(from('1,4'), 8, 8, CELL)];
    expect(run(events.slice(0, 2))).toEqual({ valid: false, cells: upTo('2,4'), firstStartIndex: 0 });
    expect(run(events)).toEqual({ valid: true, cells: SOLUTION, firstStartIndex: 0 });
    // The segment walk alone (the rule before the detour) loses this trace.
    expect(referenceWalkValid(maze, CELL, events, 'segment')).toBe(false);
  });

  it('refuses a route of apart + 6 steps: the event is noise and nothing moves', () => {
    // (0,0) to (1,4): 5 cells apart, 11 steps.
    expect(k.detour(maze, { x: 0, y: 0 }, { x: 1, y: 4 })).toBeNull();
    expect(run([centre(SOLUTION[0]!, 'down'), centre({ x: 1, y: 4 })])).toEqual({ valid: false, cells: [SOLUTION[0]], firstStartIndex: 0 });
    // The anchor stayed at the start: the next cell down is an open step from there.
    expect(run([centre(SOLUTION[0]!, 'down'), centre({ x: 1, y: 4 }), centre({ x: 0, y: 1 })]).cells).toEqual(upTo('0,1'));
    // From (0,5), (1,4) is 6 steps for 2 apart: taken.
    expect(run([...pointerTrace(upTo('0,5'), 8, 8, CELL), centre({ x: 1, y: 4 })]).cells).toEqual(upTo('1,4'));
  });

  it('replays a fast stroke that cuts the inside of the last turn (chord through the walled cell)', () => {
    // At (7,2) the solution turns down; the cell inside the turn, (6,3), is walled off from (6,2).
    // Sampled in (6,2) near that corner and next in (7,3) near it, (7,2) unseen: the chord runs
    // through (6,3). Every later chord from the first point down column 7 crosses it too.
    const events = [...pointerTrace(upTo('5,2'), 8, 8, CELL), pointer(6.8, 2.8), pointer(7.2, 3.3), ...from('7,4').map((c) => centre(c))];
    expect(k.walkSegment(maze, { mx: 6.8 / 8, my: 2.8 / 8 }, { mx: 7.2 / 8, my: 3.3 / 8 })).toBeNull();
    expect(run(events)).toEqual({ valid: true, cells: SOLUTION, firstStartIndex: 0 });
    expect(referenceWalkValid(maze, CELL, events, 'segment')).toBe(false);
  });

  it('takes no detour from the exit: jitter past it is noise; leaving it still invalidates', () => {
    const solved = pointerTrace(SOLUTION, 8, 8, CELL);
    // From the top of the exit cell to (6,6) through (7,6), whose west side is a wall: a detour
    // through (6,7) would be 2 steps, but it is not taken from the exit.
    const jitter = [pointer(7.5, 7.1), pointer(6.9, 6.6)];
    expect(referenceDetour(maze, 63, 54)).toEqual([62, 54]);
    expect(run([...solved, ...jitter])).toEqual({ valid: true, cells: SOLUTION, firstStartIndex: 0 });
    // Past the canvas's bottom-right edge: clamped into the exit.
    expect(run([...solved, pointer(9, 9), pointer(8.5, 7.5)]).valid).toBe(true);
    // An open step out of the exit leaves it (for both walks).
    expect(run([...solved, ...jitter, centre({ x: 6, y: 7 })])).toEqual({
      valid: false,
      cells: [...SOLUTION, { x: 6, y: 7 }],
      firstStartIndex: 0,
    });
  });

  it('fills a keyboard jump the same way, keydowns included; the keyboard start rule is unchanged', () => {
    // The deployed widget's presses (none on the start), with the U from (0,2) to (2,4) skipped.
    const presses = arrowPresses(SOLUTION, 8, 8);
    const skipped = presses.filter(
      (e) => !['0,3', '0,4', '0,5', '0,6', '1,6', '1,5', '2,5'].includes(`${Math.floor(e.x * 8)},${Math.floor(e.y * 8)}`),
    );
    expect(skipped.length).toBe(presses.length - 14);
    expect(run(skipped)).toEqual({ valid: true, cells: SOLUTION, firstStartIndex: 0 });
    expect(referenceWalkValid(maze, CELL, skipped, 'segment')).toBe(false);
    // A first keydown the start's centre reaches only by a detour begins nothing (the start
    // rule is the segment walk's); after a keydown on the start it is a detour like any other.
    const detoured = cellsOf('0,0 0,1 1,1 1,0 2,0');
    expect(run([keyAt({ x: 2, y: 0 })], { kind: 'probe', trigger: { x: 2, y: 0 } }).valid).toBe(false);
    expect(run([keyAt({ x: 0, y: 0 }), keyAt({ x: 2, y: 0 })], { kind: 'probe', trigger: { x: 2, y: 0 } })).toEqual({
      valid: true,
      cells: detoured,
      firstStartIndex: 0,
    });
    expect(run([keyAt({ x: 2, y: 0 }), ...presses])).toEqual({ valid: true, cells: SOLUTION, firstStartIndex: 1 });
  });

  it('fills a probe arm prefix by a detour, and refuses one a detour cannot fill', () => {
    const trigger = { x: 1, y: 3 };
    const prefix = [...pointerTrace(upTo('0,2'), 8, 8, CELL), centre({ x: 2, y: 4 }), centre({ x: 1, y: 4 }), centre(trigger)];
    expect(run(prefix, { kind: 'probe', trigger })).toEqual({ valid: true, cells: upTo('1,3'), firstStartIndex: 0 });
    // From (0,1), (1,4) is 10 steps for 4 apart: neither rule fills the jump.
    const far = [...pointerTrace(upTo('0,1'), 8, 8, CELL), centre({ x: 1, y: 4 }), centre(trigger)];
    expect(run(far, { kind: 'probe', trigger }).valid).toBe(false);
  });

  it('is exported for a client walking a trace one event at a time', () => {
    expect(k.detour(maze, { x: 0, y: 0 }, { x: 2, y: 4 })).toEqual(upTo('2,4').slice(1));
    expect(k.detour(maze, { x: 2, y: 4 }, { x: 0, y: 0 })).toEqual(upTo('2,4').reverse().slice(1));
    expect(k.detour(maze, { x: 3, y: 3 }, { x: 3, y: 3 })).toEqual([]);
    expect(() => k.detour(maze, { x: 8, y: 0 }, { x: 0, y: 0 })).toThrow(/from/);
    expect(() => k.detour(maze, { x: 0, y: 0 }, { x: 0, y: -1 })).toThrow(/to/);
    expect(() => k.detour(maze, null as unknown as Cell, { x: 0, y: 0 })).toThrow(/from must be a cell/);
    expect(() => k.detour(maze, { x: 0.5, y: 0 }, { x: 0, y: 0 })).toThrow(/from must be an integer/);
  });
});

describe('the tie order N, S, E, W (mazes with cycles)', () => {
  // 3x3, a ring round the closed centre cell (1,1): two routes of 4 steps between opposite sides.
  const ring = corridor(cellsOf('0,0 1,0 2,0 2,1 2,2 1,2 0,2 0,1 0,0'));

  it.each([
    { name: 'north before south', a: '0,1', b: '2,1', route: '0,0 1,0 2,0 2,1' },
    { name: 'north before south, going west', a: '2,1', b: '0,1', route: '2,0 1,0 0,0 0,1' },
    { name: 'east before west', a: '1,0', b: '1,2', route: '2,0 2,1 2,2 1,2' },
    { name: 'south before east', a: '0,0', b: '2,2', route: '0,1 0,2 1,2 2,2' },
  ])('$name: $a to $b', ({ a, b, route }) => {
    const c = customKernel();
    const m = loadWalls(c, 3, 3, ring);
    const [p, q] = cellsOf(`${a} ${b}`) as [Cell, Cell];
    expect(c.kernel.detour(m, p, q)).toEqual(cellsOf(route));
    // In a replay: the segment between the two centres meets the closed centre cell, so the
    // detour fills the jump, recording the same route.
    const events = [
      { ...canvasCentre(p, 3, 3, CELL), t: 0, type: 'down' },
      { ...canvasCentre(q, 3, 3, CELL), t: 0, type: 'move' },
    ];
    const r = c.kernel.replay(m, c.kernel.packEvents(events), CELL, { kind: 'probe', trigger: q });
    expect(r.cells).toEqual([p, ...cellsOf(route)]);
    expect(referenceReplay(m, CELL, events, q).cells).toEqual(r.cells);
  });
});

describe('detour export against the reference (fast-check)', () => {
  it('random mazes with cycles: shortest, open, within apart + 4, the same route as the reference', () => {
    let found = 0;
    let refused = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 0xffffffff }),
        fc.integer({ min: 2, max: 16 }),
        fc.integer({ min: 2, max: 16 }),
        fc.array(fc.tuple(fc.nat(), fc.boolean()), { maxLength: 40 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 20 }),
        (seed, width, height, extra, pairs) => {
          const c = customKernel();
          // A generated maze with walls knocked out: cycles, so routes tie.
          const params = { seed, width, height, difficulty: 0.5 };
          const base = c.kernel.generateMaze(params);
          const open: string[] = [];
          for (let i = 0; i < width * height; i++) {
            const x = i % width;
            const y = Math.floor(i / width);
            if (x + 1 < width && (base.walls[i]! & 4) === 0) open.push(`${x},${y}-${x + 1},${y}`);
            if (y + 1 < height && (base.walls[i]! & 2) === 0) open.push(`${x},${y}-${x},${y + 1}`);
          }
          for (const [at, east] of extra) {
            const x = at % width;
            const y = Math.floor(at / width) % height;
            if (east && x + 1 < width) open.push(`${x},${y}-${x + 1},${y}`);
            if (!east && y + 1 < height) open.push(`${x},${y}-${x},${y + 1}`);
          }
          const m = loadWalls(c, width, height, [...new Set(open)], seed);
          for (const [i, j] of pairs) {
            const a = i % (width * height);
            const b = j % (width * height);
            const cell = (n: number): Cell => ({ x: n % width, y: Math.floor(n / width) });
            const got = c.kernel.detour(m, cell(a), cell(b));
            const ref = referenceDetour(m, a, b);
            expect(got).toEqual(ref === null ? null : ref.map(cell));
            if (got === null) {
              refused++;
              continue;
            }
            found++;
            const apart = Math.abs(cell(a).x - cell(b).x) + Math.abs(cell(a).y - cell(b).y);
            expect(got.length).toBeLessThanOrEqual(apart + DETOUR_SLACK);
            expect(got.at(-1) ?? cell(a)).toEqual(cell(b));
            expect(wallViolations(m, [cell(a), ...got])).toEqual([]);
          }
        },
      ),
      { numRuns: 300, seed: 17 },
    );
    expect(found).toBeGreaterThan(300);
    expect(refused).toBeGreaterThan(300);
  });
});
