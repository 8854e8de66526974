// An independent JavaScript replay written from kernel.md sections 3 and 4, to check the wasm
// kernel against. It shares no code with the kernel and finds the crossed cells differently:
// it lists every grid line the segment meets, sorts the crossings by where they happen, and
// pairs an x and a y crossing at the same place into a corner; for the bounded detour it
// measures every cell's distance to the target with an unbounded search, then applies the bound.
import type { Cell, RawEvent } from '../../../src/kernel/types.js';

const N = 1;
const S = 2;
const E = 4;
const W = 8;

/** Same tolerance as the kernel: crossings this close (|dx| + |dy| cells apart) are one corner. */
export const CORNER_TOLERANCE = 1e-9;

export interface ReferenceMaze {
  walls: Uint8Array;
  width: number;
  height: number;
}

interface Point {
  cell: number;
  /** Position in cell units: maze fraction times the side. */
  x: number;
  y: number;
  /** A keydown: where the keyboard cursor is after the key. */
  key: boolean;
}

/** Where the keyboard cursor starts: the centre of the start cell. */
const KEYBOARD_START: Point = { cell: 0, x: 0.5, y: 0.5, key: true };

const clamp01 = (v: number): number => (v < 0 ? 0 : Math.min(v, 1));

/** kernel.md section 3, for the event types replay keeps; null for the others. */
export function referencePoint(maze: ReferenceMaze, cellSize: number, e: RawEvent): Point | null {
  if (e === null || typeof e !== 'object') return null;
  const { x, y, type } = e;
  if (typeof x !== 'number' || typeof y !== 'number' || !Number.isFinite(x) || !Number.isFinite(y)) return null;
  let mx: number;
  let my: number;
  if (type === 'move' || type === 'down') {
    mx = clamp01((x * (maze.width * cellSize + 40) - 20) / (maze.width * cellSize));
    my = clamp01((y * (maze.height * cellSize + 64) - 20) / (maze.height * cellSize));
  } else if (type === 'keydown') {
    mx = clamp01(x);
    my = clamp01(y);
  } else {
    return null;
  }
  const px = mx * maze.width;
  const py = my * maze.height;
  const cx = Math.min(Math.floor(px), maze.width - 1);
  const cy = Math.min(Math.floor(py), maze.height - 1);
  return { cell: cy * maze.width + cx, x: px, y: py, key: type === 'keydown' };
}

/** True when a and b are orthogonal neighbours with no wall between them. */
export function referenceOpen(maze: ReferenceMaze, a: number, b: number): boolean {
  const w = maze.width;
  const ax = a % w;
  const ay = Math.floor(a / w);
  const bx = b % w;
  const by = Math.floor(b / w);
  if (by < 0 || by >= maze.height || bx < 0 || bx >= w) return false;
  const walls = maze.walls[a]!;
  if (ay === by && bx === ax + 1) return (walls & E) === 0;
  if (ay === by && bx === ax - 1) return (walls & W) === 0;
  if (ax === bx && by === ay + 1) return (walls & S) === 0;
  if (ax === bx && by === ay - 1) return (walls & N) === 0;
  return false;
}

/** The cells crossed after `from`'s, or null when a step meets a wall. */
export function referenceSegment(maze: ReferenceMaze, from: Point, to: Point): number[] | null {
  const w = maze.width;
  const fx = from.cell % w;
  const fy = Math.floor(from.cell / w);
  const tx = to.cell % w;
  const ty = Math.floor(to.cell / w);
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const crossings: { t: number; axis: 'x' | 'y' }[] = [];
  // Leaving column k for k+1 crosses the line x = k+1; leaving it for k-1 crosses x = k.
  for (let k = fx; k !== tx; k += Math.sign(tx - fx)) {
    crossings.push({ t: ((tx > fx ? k + 1 : k) - from.x) / dx, axis: 'x' });
  }
  for (let k = fy; k !== ty; k += Math.sign(ty - fy)) {
    crossings.push({ t: ((ty > fy ? k + 1 : k) - from.y) / dy, axis: 'y' });
  }
  crossings.sort((a, b) => a.t - b.t);
  const span = Math.abs(dx) + Math.abs(dy);
  const stepX = Math.sign(tx - fx);
  const stepY = Math.sign(ty - fy) * w;
  const out: number[] = [];
  let at = from.cell;
  for (let i = 0; i < crossings.length; i++) {
    const c = crossings[i]!;
    const next = crossings[i + 1];
    if (next && next.axis !== c.axis && Math.abs(next.t - c.t) * span <= CORNER_TOLERANCE) {
      const diagonal = at + stepX + stepY;
      const via = [at + stepX, at + stepY].find((v) => referenceOpen(maze, at, v) && referenceOpen(maze, v, diagonal));
      if (via === undefined) return null;
      out.push(via, diagonal);
      at = diagonal;
      i++;
      continue;
    }
    const step = at + (c.axis === 'x' ? stepX : stepY);
    if (!referenceOpen(maze, at, step)) return null;
    out.push(step);
    at = step;
  }
  return out;
}

/** Steps a detour may take beyond the cells apart (kernel.md section 4, rule 3b). */
export const DETOUR_SLACK = 4;

/**
 * Rule 3b: the cells after `from` of the shortest open route to `to`, each step to the first
 * neighbour in the order N, S, E, W one step closer; null when it is longer than apart + 4.
 */
export function referenceDetour(maze: ReferenceMaze, from: number, to: number): number[] | null {
  const w = maze.width;
  const dist = distancesTo(maze, to);
  const apart = Math.abs((from % w) - (to % w)) + Math.abs(Math.floor(from / w) - Math.floor(to / w));
  const d = dist.get(from);
  if (d === undefined || d > apart + DETOUR_SLACK) return null;
  const route: number[] = [];
  for (let at = from; at !== to; ) {
    at = around(maze, at).find((n) => dist.get(n) === dist.get(at)! - 1)!;
    route.push(at);
  }
  return route;
}

/** Open neighbours in the order N, S, E, W. */
const around = (maze: ReferenceMaze, c: number): number[] =>
  [c - maze.width, c + maze.width, c + 1, c - 1].filter((n) => referenceOpen(maze, c, n));

/** Distances of every cell to `to` (those it reaches), by an unbounded search; kept per walls and target. */
const distances = new WeakMap<Uint8Array, Map<number, Map<number, number>>>();
function distancesTo(maze: ReferenceMaze, to: number): Map<number, number> {
  const byTarget = distances.get(maze.walls) ?? distances.set(maze.walls, new Map()).get(maze.walls)!;
  const known = byTarget.get(to);
  if (known) return known;
  const dist = new Map([[to, 0]]);
  const queue = [to];
  for (let head = 0; head < queue.length; head++) {
    const c = queue[head]!;
    for (const n of around(maze, c)) {
      if (!dist.has(n)) {
        dist.set(n, dist.get(c)! + 1);
        queue.push(n);
      }
    }
  }
  byTarget.set(to, dist);
  return dist;
}

/**
 * Which rules a /verify walk applies: `plain` rules 1 and 2 only (the rule before jump filling),
 * `segment` the segment walk too (the rule before the detour), `full` all of kernel.md.
 */
export type WalkRules = 'plain' | 'segment' | 'full';

/** Rule 3: the segment walk from the anchor, else the bounded detour from `last` unless it is the exit. */
function ruleThree(maze: ReferenceMaze, anchor: Point, last: number, p: Point, rules: WalkRules = 'full'): number[] | null {
  const exit = maze.width * maze.height - 1;
  return referenceSegment(maze, anchor, p) ?? (rules !== 'full' || last === exit ? null : referenceDetour(maze, last, p.cell));
}

export interface ReferenceResult {
  valid: boolean;
  cells: Cell[];
  firstStartIndex: number;
}

const toCell = (maze: ReferenceMaze, c: number): Cell => ({ x: c % maze.width, y: Math.floor(c / maze.width) });

/** A keydown away from the start that the start cell's centre reaches: it begins a walk there. */
const keyFromStart = (maze: ReferenceMaze, p: Point): boolean =>
  p.key && p.cell !== 0 && (referenceOpen(maze, 0, p.cell) || referenceSegment(maze, KEYBOARD_START, p) !== null);

/**
 * The /verify walk from the first event in the start cell, or from the start cell's centre when
 * a keydown it reaches comes first (the keyboard cursor starts there).
 */
function verifyWalk(maze: ReferenceMaze, points: (Point | null)[], rules: WalkRules): { cells: number[]; first: number } {
  const first = points.findIndex((p) => p !== null && (p.cell === 0 || keyFromStart(maze, p)));
  if (first < 0) return { cells: [], first };
  const cells = [0];
  let last = 0;
  const begun = points[first]!.cell === 0;
  let anchor = begun ? points[first]! : KEYBOARD_START;
  for (const p of points.slice(begun ? first + 1 : first)) {
    if (p === null) continue;
    if (p.cell === last) {
      anchor = p;
    } else if (referenceOpen(maze, last, p.cell)) {
      cells.push(p.cell);
      last = p.cell;
      anchor = p;
    } else if (rules !== 'plain') {
      const crossed = ruleThree(maze, anchor, last, p, rules);
      if (crossed === null) continue;
      cells.push(...crossed);
      last = p.cell;
      anchor = p;
    }
  }
  return { cells, first };
}

/** kernel.md section 4: /verify (trigger undefined) or the strict probe prefix ending on `trigger`. */
export function referenceReplay(maze: ReferenceMaze, cellSize: number, events: readonly RawEvent[], trigger?: Cell): ReferenceResult {
  const points = events.map((e) => referencePoint(maze, cellSize, e));
  const exit = maze.width * maze.height - 1;
  if (trigger === undefined) {
    const seg = verifyWalk(maze, points, 'full');
    const plain = verifyWalk(maze, points, 'plain');
    const ends = (cells: number[]) => cells.length >= 2 && cells.at(-1) === exit;
    const chosen = !ends(seg.cells) && ends(plain.cells) ? plain.cells : seg.cells;
    return { valid: ends(seg.cells) || ends(plain.cells), cells: chosen.map((c) => toCell(maze, c)), firstStartIndex: seg.first };
  }
  // Strict: consecutive duplicates collapsed, every move filled by rule 3; a prefix that a
  // keydown begins begins on the start cell.
  const kept = points.filter((p): p is Point => p !== null);
  const keyFirst = kept.length > 0 && keyFromStart(maze, kept[0]!);
  if (keyFirst) kept.unshift(KEYBOARD_START);
  const firstStartIndex = keyFirst ? points.findIndex((p) => p !== null) : points.findIndex((p) => p !== null && p.cell === 0);
  let ok = kept.length > 0 && kept[0]!.cell === 0;
  const cells: number[] = kept.length > 0 ? [kept[0]!.cell] : [];
  for (let i = 1; i < kept.length; i++) {
    const prev = kept[i - 1]!;
    const p = kept[i]!;
    if (p.cell === prev.cell) continue;
    const crossed = referenceOpen(maze, prev.cell, p.cell) ? [p.cell] : ruleThree(maze, prev, prev.cell, p);
    if (crossed === null) {
      ok = false;
      cells.push(p.cell);
    } else cells.push(...crossed);
  }
  const target = trigger.y * maze.width + trigger.x;
  return { valid: ok && cells.length >= 2 && cells.at(-1) === target, cells: cells.map((c) => toCell(maze, c)), firstStartIndex };
}

/** Consecutive cells that are not open neighbours (empty for a path that respects the walls). */
export function wallViolations(maze: ReferenceMaze, cells: readonly Cell[]): number[] {
  const bad: number[] = [];
  for (let i = 1; i < cells.length; i++) {
    const a = cells[i - 1]!;
    const b = cells[i]!;
    if (!referenceOpen(maze, a.y * maze.width + a.x, b.y * maze.width + b.x)) bad.push(i);
  }
  return bad;
}

/** Whether the /verify walk alone with these rules (no plain-walk compatibility) accepts the trace. */
export function referenceWalkValid(maze: ReferenceMaze, cellSize: number, events: readonly RawEvent[], rules: WalkRules): boolean {
  const { cells } = verifyWalk(
    maze,
    events.map((e) => referencePoint(maze, cellSize, e)),
    rules,
  );
  return cells.length >= 2 && cells.at(-1) === maze.width * maze.height - 1;
}
