import type { Cell, Kernel, Maze, MazePoint, RawEvent } from '../../src/kernel/index.js';
import { CELL } from './mazePath.js';
import { openNeighbours } from './steps.js';

/** Cell index `i` of `maze` as a cell. */
const cellAt = (maze: Maze, i: number): Cell => ({ x: i % maze.width, y: Math.floor(i / maze.width) });

const openStep = (maze: Maze, a: number, b: number) =>
  b >= 0 && b < maze.width * maze.height && openNeighbours(maze, cellAt(maze, a), cellAt(maze, b));

/**
 * A what-if for kernel.md section 4, NOT the rule the server applies: path replay in verify
 * mode where an event that the segment walk cannot reach (rule 3 meets a wall) is reached all
 * the same when a route through open cells leads from the last recorded cell to its cell in at
 * most `slack` steps more than the two cells are apart (|columns| + |rows|). The route never
 * crosses a wall; what it forgives is a sample that cut the inside of a turn, which the
 * straight segment between two samples 33 ms apart does at pointing speed. `slack` 0 is the
 * segment walk alone (rules 1 to 3), which `npm run calibrate` checks against the kernel.
 */
export function replaysWithDetour(kernel: Kernel, maze: Maze, events: readonly RawEvent[], slack: number): boolean {
  const exit = maze.width * maze.height - 1;
  let last = -1;
  let anchor: MazePoint | undefined;
  for (const e of events) {
    if (e.type !== 'move' && e.type !== 'down') continue;
    const p = kernel.mapEvent(maze, CELL, e.x, e.y, e.type);
    if (!p) continue;
    const c = p.cell.y * maze.width + p.cell.x;
    if (last < 0 && c !== 0) continue;
    const reached =
      last < 0 ||
      c === last ||
      openStep(maze, last, c) ||
      kernel.walkSegment(maze, anchor!, p) !== null ||
      (slack > 0 && routeWithin(maze, last, c, cellsApart(maze, last, c) + slack));
    if (!reached) continue; // noise: nothing moves
    last = c;
    anchor = p;
  }
  return last === exit && exit > 0;
}

function cellsApart(maze: Maze, a: number, b: number): number {
  const ca = cellAt(maze, a), cb = cellAt(maze, b);
  return Math.abs(ca.x - cb.x) + Math.abs(ca.y - cb.y);
}

/** True when open cells lead from `a` to `b` in at most `steps` steps (breadth-first). */
function routeWithin(maze: Maze, a: number, b: number, steps: number): boolean {
  const w = maze.width;
  const seen = new Set([a]);
  let frontier = [a];
  for (let d = 0; d < steps && frontier.length > 0; d++) {
    const next: number[] = [];
    for (const c of frontier) {
      for (const n of [c + 1, c - 1, c + w, c - w]) {
        if (seen.has(n) || !openStep(maze, c, n)) continue;
        if (n === b) return true;
        seen.add(n);
        next.push(n);
      }
    }
    frontier = next;
  }
  return false;
}
