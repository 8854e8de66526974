// Properties of replay (kernel.md section 4) on random mazes and random or perturbed traces,
// checked against the independent reference walker of helpers/referenceReplay.ts:
//  (a) every trace the plain walk (rules 1 and 2 only, the rule before jump filling) accepts
//      is still accepted;
//  (b) no recorded path steps through a wall: consecutive cells are open neighbours;
//  (c) the kernel and the reference agree exactly (validity, cells, first start index);
//  (d) an event that rule 3 reaches adds from `apart` to `apart` + 4 cells (the detour's bound).
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Cell, Kernel, Maze, RawEvent } from '../../src/kernel/index.js';
import { getKernel } from './helpers/kernel.js';
import { DETOUR_SLACK, referenceReplay, referenceWalkValid, wallViolations } from './helpers/referenceReplay.js';

let k: Kernel;
beforeAll(async () => {
  k = await getKernel();
});

const RUNS = 400;
/** Uniform in [0, 1) (fc.double is uniform over bit patterns, so mostly tiny). */
const unit = fc.integer({ min: 0, max: 999_999 }).map((i) => i / 1e6);
const between = (lo: number, hi: number) => unit.map((u) => lo + u * (hi - lo));
/** A position inside a cell: anywhere, its centre, on its top or left edge, or a hair inside. */
const within = fc.oneof(
  { arbitrary: unit, weight: 6 },
  { arbitrary: fc.constantFrom(0, 0.5, 1 - 2 ** -40), weight: 2 },
  { arbitrary: fc.double({ min: 0, max: 1e-9, noNaN: true }), weight: 1 },
);
const mazeArb = fc.record({
  seed: fc.integer({ min: 0, max: 0xffffffff }),
  width: fc.integer({ min: 2, max: 12 }),
  height: fc.integer({ min: 2, max: 12 }),
  difficulty: fc.oneof(unit, fc.constantFrom(0, 1)),
  cellSize: fc.constantFrom(40, 24, 57.5, 10),
});

/** Pointer (canvas fractions) or keydown (maze fractions) at (X, Y) in cell units. */
function eventAt(m: Maze, cellSize: number, X: number, Y: number, type: string): RawEvent {
  if (type === 'keydown') return { x: X / m.width, y: Y / m.height, t: 0, type, key: 'ArrowRight' };
  return { x: (20 + X * cellSize) / (m.width * cellSize + 40), y: (20 + Y * cellSize) / (m.height * cellSize + 64), t: 0, type };
}

const openNeighbours = (m: Maze, c: Cell): Cell[] =>
  [
    [0, -1, 1],
    [0, 1, 2],
    [1, 0, 4],
    [-1, 0, 8],
  ]
    .filter(([, , bit]) => (m.walls[c.y * m.width + c.x]! & bit!) === 0)
    .map(([dx, dy]) => ({ x: c.x + dx!, y: c.y + dy! }));

const stepArb = fc.record({
  kind: fc.constantFrom('follow', 'follow', 'follow', 'wander', 'jump', 'noise', 'stray', 'nan', 'margin', 'corner', 'ignored', 'back'),
  skip: fc.integer({ min: 0, max: 4 }),
  u: within,
  v: within,
  pick: fc.nat(7),
  key: fc.boolean(),
});

/**
 * A trace built from random steps: following the solution with 0 to 4 cells skipped between
 * events, wandering into open neighbours, jumping anywhere (walls or not), stray points (some
 * down straight open runs, where the segment walk follows and the plain walk does not),
 * non-finite and ignored events, points out in the margin and keydowns exactly on grid corners;
 * optionally finished by following the solution to the exit.
 */
type Step = typeof stepArb extends fc.Arbitrary<infer T> ? T : never;

function randomTrace(m: Maze, cellSize: number, steps: Step[], finish: number): RawEvent[] {
  const sol = m.solution;
  let at = 0;
  let cur: Cell = sol[0]!;
  const events: RawEvent[] = [eventAt(m, cellSize, 0.5, 0.5, 'down')];
  const emit = (c: Cell, u: number, v: number, key: boolean) =>
    events.push(eventAt(m, cellSize, c.x + u, c.y + v, key ? 'keydown' : 'move'));
  for (const s of steps) {
    switch (s.kind) {
      case 'follow':
        at = Math.min(sol.length - 1, at + 1 + s.skip);
        cur = sol[at]!;
        emit(cur, s.u, s.v, s.key);
        break;
      case 'back':
        at = Math.max(0, at - 1 - s.skip);
        cur = sol[at]!;
        emit(cur, s.u, s.v, s.key);
        break;
      case 'wander':
        for (let i = 0; i <= s.skip; i++) {
          const open = openNeighbours(m, cur);
          cur = open[s.pick % open.length]!;
        }
        emit(cur, s.u, s.v, s.key);
        break;
      case 'jump':
        cur = { x: Math.floor(s.u * m.width), y: Math.floor(s.v * m.height) };
        emit(cur, 0.5, 0.5, s.key);
        break;
      case 'noise':
        events.push(eventAt(m, cellSize, s.u * m.width, s.v * m.height, s.key ? 'keydown' : 'move'));
        break;
      case 'stray': {
        // A lone point down a straight open run from here, into a side branch when there is
        // one (the segment walk follows it and may be stranded there; the plain walk skips
        // it); the trace then carries on from where it was.
        const onSolution = (c: Cell) => sol.some((q) => q.x === c.x && q.y === c.y);
        const exits = openNeighbours(m, cur);
        const side = exits.filter((n) => !onSolution(n));
        const first = (side.length > 0 ? side : exits)[s.pick % (side.length || exits.length)]!;
        const dx = first.x - cur.x;
        const dy = first.y - cur.y;
        let to = first;
        for (let i = 0; i < s.skip; i++) {
          const next = openNeighbours(m, to).find((n) => n.x - to.x === dx && n.y - to.y === dy);
          if (!next) break;
          to = next;
        }
        emit(to, s.u, s.v, s.key);
        break;
      }
      case 'nan':
        events.push({ x: s.key ? NaN : s.u, y: s.key ? s.v : Infinity, t: 0, type: 'move' });
        break;
      case 'margin':
        events.push(eventAt(m, cellSize, cur.x + s.u - (s.pick & 1 ? 3 : -3) * m.width, cur.y + s.v, 'move'));
        break;
      case 'corner':
        events.push(eventAt(m, cellSize, cur.x + (s.pick & 1), cur.y + ((s.pick >> 1) & 1), s.key ? 'keydown' : 'move'));
        break;
      case 'ignored':
        events.push({ ...eventAt(m, cellSize, s.u * m.width, s.v * m.height, 'move'), type: ['up', 'keyup', 'wheel'][s.pick % 3]! });
        break;
    }
  }
  if (finish >= 0) {
    while (at < sol.length - 1) {
      at = Math.min(sol.length - 1, at + 1 + (finish === 0 ? 0 : (at * 7) % (finish + 1)));
      emit(sol[at]!, 0.5, 0.5, false);
    }
  }
  return events;
}

/**
 * A stroke along the solution's centre-line, each point offset sideways by up to `wobble`
 * cells and 0.05 to 0.05 + `scale` cells on from the last (so chords cut corners at turns, as
 * a fast pointer's do), sampled as pointer or keydown events.
 */
function stroke(m: Maze, cellSize: number, strides: number[], scale: number, wobble: number, key: boolean): RawEvent[] {
  const sol = m.solution;
  const events: RawEvent[] = [];
  let s = 0;
  let i = 0;
  const end = sol.length - 1;
  while (s <= end) {
    const seg = Math.min(end - 1, Math.floor(s));
    const f = Math.max(0, s - seg);
    const a = sol[Math.max(0, seg)]!;
    const b = sol[Math.min(end, seg + 1)]!;
    const x = a.x + (b.x - a.x) * f + 0.5;
    const y = a.y + (b.y - a.y) * f + 0.5;
    const side = strides[(i + 3) % strides.length]! - 0.5;
    // Sideways: perpendicular to the current leg.
    const px = x + (b.y - a.y) * side * 2 * wobble;
    const py = y - (b.x - a.x) * side * 2 * wobble;
    events.push(eventAt(m, cellSize, px, py, key ? 'keydown' : i === 0 ? 'down' : 'move'));
    if (s === end) break;
    s = Math.min(end, s + 0.05 + strides[i % strides.length]! * scale);
    i++;
  }
  return events;
}

/** How often each case came up, so a test can show its generator reaches them. */
const newCounts = () => ({ valid: 0, plainValid: 0, onlyByRuleThree: 0, onlyByDetour: 0, onlyByPlain: 0, probeValid: 0 });
type Counts = ReturnType<typeof newCounts>;

/**
 * Checks (a), (b), (c) for /verify on the whole trace, and (b), (c) for a probe prefix: the
 * first `cut` events (modulo the length), with the trigger where the last of them lands.
 */
function checkAll(m: Maze, cellSize: number, events: RawEvent[], cut: number, counts: Counts): void {
  const packed = k.packEvents(events);
  const got = k.replay(m, packed, cellSize, { kind: 'verify' });
  const ref = referenceReplay(m, cellSize, events);
  // (c)
  expect(got).toEqual(ref);
  // (b)
  expect(wallViolations(m, got.cells)).toEqual([]);
  if (got.cells.length > 0) expect(got.cells[0]).toEqual(m.start);
  if (got.valid) expect(got.cells.at(-1)).toEqual(m.exit);
  // (a)
  const plain = referenceWalkValid(m, cellSize, events, 'plain');
  if (plain) expect(got.valid).toBe(true);
  counts.valid += got.valid ? 1 : 0;
  counts.plainValid += plain ? 1 : 0;
  counts.onlyByRuleThree += got.valid && !plain ? 1 : 0;
  counts.onlyByDetour += got.valid && !plain && !referenceWalkValid(m, cellSize, events, 'segment') ? 1 : 0;
  counts.onlyByPlain += plain && !referenceWalkValid(m, cellSize, events, 'full') ? 1 : 0;

  const prefix = events.slice(0, 1 + (cut % events.length));
  const landed = prefix.map((e) => k.mapEvent(m, cellSize, e.x, e.y, e.type)).filter((p) => p !== null);
  const trigger = landed.at(-1)?.cell ?? m.exit;
  const probe = k.replay(m, k.packEvents(prefix), cellSize, { kind: 'probe', trigger });
  expect(probe).toEqual(referenceReplay(m, cellSize, prefix, trigger));
  if (probe.valid) {
    expect(wallViolations(m, probe.cells)).toEqual([]);
    expect(probe.cells.at(-1)).toEqual(trigger);
    counts.probeValid += 1;
  }
}

describe('replay properties on random mazes (fast-check)', () => {
  it('random traces: plain-valid stays valid, no wall is crossed, kernel = reference', () => {
    const counts = newCounts();
    fc.assert(
      fc.property(mazeArb, fc.array(stepArb, { maxLength: 50 }), fc.constantFrom(-1, 0, 0, 1, 3), fc.nat(), (p, steps, finish, cut) => {
        const m = k.generateMaze(p);
        checkAll(m, p.cellSize, randomTrace(m, p.cellSize, steps, finish), cut, counts);
      }),
      { numRuns: RUNS, seed: 9 },
    );
    // The generator must reach every case the properties speak of.
    expect(counts.plainValid).toBeGreaterThan(RUNS / 10);
    expect(counts.onlyByRuleThree).toBeGreaterThan(RUNS / 10);
    expect(counts.onlyByDetour).toBeGreaterThan(RUNS / 10);
    expect(counts.valid).toBeLessThan(RUNS * 0.9);
    expect(counts.probeValid).toBeGreaterThan(RUNS / 10);
  });

  it('strokes along the solution with sideways wobble and long strides (chords cut corners)', () => {
    const counts = newCounts();
    fc.assert(
      fc.property(
        mazeArb,
        fc.array(unit, { minLength: 1, maxLength: 40 }),
        between(0.2, 8),
        between(0, 0.45),
        fc.boolean(),
        fc.nat(),
        (p, strides, scale, wobble, key, cut) => {
          const m = k.generateMaze(p);
          checkAll(m, p.cellSize, stroke(m, p.cellSize, strides, scale, wobble, key), cut, counts);
        },
      ),
      { numRuns: RUNS, seed: 11 },
    );
    expect(counts.plainValid).toBeGreaterThan(RUNS / 10);
    expect(counts.onlyByRuleThree).toBeGreaterThan(RUNS / 10);
    // Chords through the inside of a turn: the detour, not the segment walk, brings these home.
    expect(counts.onlyByDetour).toBeGreaterThan(RUNS / 4);
    expect(counts.probeValid).toBeGreaterThan(RUNS / 10);
    expect(counts.valid).toBeLessThan(RUNS);
  });

  it('each event rule 3 reaches adds apart to apart + 4 open steps (fast strokes, prefix by prefix)', () => {
    let detours = 0;
    let steps = 0;
    fc.assert(
      fc.property(
        mazeArb,
        fc.array(between(0.3, 1), { minLength: 1, maxLength: 30 }),
        between(1, 6),
        between(0, 0.45),
        fc.boolean(),
        (p, strides, scale, wobble, key) => {
          const m = k.generateMaze(p);
          const events = stroke(m, p.cellSize, strides, scale, wobble, key);
          let before: Cell[] | null = [];
          for (let i = 1; i <= events.length; i++) {
            const prefix = events.slice(0, i);
            // The cells reported are rule 3's walk's, unless only the plain walk accepts the prefix.
            if (referenceWalkValid(m, p.cellSize, prefix, 'plain') && !referenceWalkValid(m, p.cellSize, prefix, 'full')) {
              before = null;
              continue;
            }
            const { cells } = k.replay(m, k.packEvents(prefix), p.cellSize, { kind: 'verify' });
            expect(wallViolations(m, cells)).toEqual([]);
            if (before !== null && before.length > 0) {
              // The walk only appends: what this event added is what it reached.
              expect(cells.slice(0, before.length)).toEqual(before);
              const added = cells.length - before.length;
              const a = before.at(-1)!;
              const b = cells.at(-1)!;
              const apart = Math.abs(a.x - b.x) + Math.abs(a.y - b.y);
              if (added > 0) {
                expect(added).toBeGreaterThanOrEqual(apart);
                expect(added).toBeLessThanOrEqual(apart + DETOUR_SLACK);
                steps++;
                if (added > apart) detours++;
              }
            }
            before = cells;
          }
        },
      ),
      { numRuns: 150, seed: 19 },
    );
    // Detours that took extra steps (a segment walk or an open step adds exactly `apart`).
    expect(detours).toBeGreaterThan(50);
    expect(steps).toBeGreaterThan(1000);
  });

  it('plain-valid traces with stray points the segment walk follows stay valid', () => {
    const counts = newCounts();
    fc.assert(
      fc.property(
        mazeArb,
        fc.array(fc.tuple(unit, unit, unit, within, within), { minLength: 1, maxLength: 16 }),
        fc.nat(),
        (p, strays, cut) => {
          const m = k.generateMaze(p);
          // The solution cell by cell (the plain walk accepts it), a random point in each cell.
          const base = m.solution.map((c, i) =>
            eventAt(m, p.cellSize, c.x + ((i * 0.37) % 1), c.y + ((i * 0.61) % 1), i === 0 ? 'down' : 'move'),
          );
          const after: RawEvent[][] = base.map(() => []);
          for (const [where, tx, ty, u, v] of strays) {
            // After some event of the base, a point in a cell the segment walk reaches from it,
            // neither the same cell nor a neighbour: the plain walk skips it, the segment walk
            // moves there (when its anchor is still that event's point).
            const j = Math.floor(where * base.length);
            const from = k.mapEvent(m, p.cellSize, base[j]!.x, base[j]!.y, base[j]!.type)!;
            const target = { x: Math.floor(tx * m.width), y: Math.floor(ty * m.height) };
            const to = eventAt(m, p.cellSize, target.x + u, target.y + v, 'move');
            const mapped = k.mapEvent(m, p.cellSize, to.x, to.y)!;
            const apart = Math.abs(mapped.cell.x - from.cell.x) + Math.abs(mapped.cell.y - from.cell.y);
            if (apart >= 2 && k.walkSegment(m, from, mapped) !== null) after[j]!.push(to);
          }
          const events = base.flatMap((e, j) => [e, ...after[j]!]);
          checkAll(m, p.cellSize, events, cut, counts);
          expect(referenceWalkValid(m, p.cellSize, events, 'plain')).toBe(true);
        },
      ),
      { numRuns: RUNS, seed: 13 },
    );
    // The strays strand the walk with rule 3 (beyond a detour's reach of the next cell) often
    // enough that only the plain walk ends on the exit.
    expect(counts.onlyByPlain).toBeGreaterThan(RUNS / 20);
  });

  it('a walk a keydown the start reaches begins is the walk with a keydown on the start cell before it', () => {
    const counts = newCounts();
    let implied = 0;
    let unreached = 0;
    const firstKey = fc.constantFrom('follow', 'wander', 'jump', 'noise', 'stray', 'corner');
    fc.assert(
      fc.property(
        mazeArb,
        stepArb,
        firstKey,
        fc.array(stepArb, { maxLength: 50 }),
        fc.constantFrom(-1, 0, 0, 1, 3),
        fc.nat(),
        (p, step, kind, steps, finish, cut) => {
          const m = k.generateMaze(p);
          // Without the pointer's down on the start cell: the trace begins with a keydown.
          const events = randomTrace(m, p.cellSize, [{ ...step, kind, key: true }, ...steps], finish).slice(1);
          const begun = [eventAt(m, p.cellSize, 0.5, 0.5, 'keydown'), ...events];
          const replay = (e: RawEvent[], trigger?: Cell) =>
            k.replay(m, k.packEvents(e), p.cellSize, trigger ? { kind: 'probe', trigger } : { kind: 'verify' });
          const first = k.mapEvent(m, p.cellSize, events[0]!.x, events[0]!.y, 'keydown')!;
          const reached = k.walkSegment(m, { mx: 0.5 / m.width, my: 0.5 / m.height }, first) !== null;
          if (reached) {
            expect(replay(events)).toEqual(replay(begun));
            expect(replay(events.slice(0, 1), first.cell)).toEqual(replay(begun.slice(0, 2), first.cell));
            if (first.cell.x !== 0 || first.cell.y !== 0) implied++;
          } else {
            // Begins nothing: the walk is the one without it.
            const rest = replay(events.slice(1));
            expect(replay(events)).toEqual({ ...rest, firstStartIndex: rest.firstStartIndex < 0 ? -1 : rest.firstStartIndex + 1 });
            expect(replay(events.slice(0, 1), first.cell).valid).toBe(false);
            unreached++;
          }
          checkAll(m, p.cellSize, events, cut, counts);
        },
      ),
      { numRuns: RUNS, seed: 15 },
    );
    expect(implied).toBeGreaterThan(RUNS / 4);
    expect(unreached).toBeGreaterThan(RUNS / 20);
    expect(counts.valid).toBeGreaterThan(RUNS / 10);
    expect(counts.probeValid).toBeGreaterThan(RUNS / 10);
  });

  it('a long trace bouncing across the largest maze costs bounded work and still agrees', () => {
    const m = k.generateMaze({ seed: 5, width: 32, height: 32, difficulty: 0.5 });
    const rand = fc.sample(fc.tuple(unit, unit), { numRuns: 20_000, seed: 3 });
    const events = [eventAt(m, 40, 0.5, 0.5, 'down'), ...rand.map(([u, v]) => eventAt(m, 40, u * 32, v * 32, 'move'))];
    const r = k.replay(m, k.packEvents(events), 40, { kind: 'verify' });
    expect(r).toEqual(referenceReplay(m, 40, events));
    expect(wallViolations(m, r.cells)).toEqual([]);
  });
});
