import { WALL_E, WALL_N, WALL_S, WALL_W, type Cell, type Kernel, type Maze, type RawEvent } from '../../src/kernel/index.js';
import type { HumanTrace } from './humans.js';
import { CELL } from './mazePath.js';
import type { Sample } from '../samples.js';

/**
 * Distance (in CELL-pixel cells) between consecutive pointer positions. Path replay skips an
 * event that lands beyond the cell next to the last recorded one, and every later event of a
 * forward stroke with it, so one step over a cell usually makes a trace `invalid_path`.
 */
export function stepCells(points: readonly { x: number; y: number }[]): number[] {
  const out: number[] = [];
  for (let i = 1; i < points.length; i++) out.push(Math.hypot(points[i]!.x - points[i - 1]!.x, points[i]!.y - points[i - 1]!.y) / CELL);
  return out;
}

/** A recorded trace's points as pointer moves (screen pixels), to capture them like laid events. */
export function recordedMoves(trace: HumanTrace): RawEvent[] {
  return trace.points.map((p) => ({ x: p.x, y: p.y, t: p.t, type: 'move' }));
}

/** Canvas pixels of a sample's moves and downs (events carry canvas fractions). */
export function canvasMoves(sample: Sample): { x: number; y: number }[] {
  const w = sample.maze.width * CELL + 40,
    h = sample.maze.height * CELL + 64;
  return sample.events.filter((e) => e.type === 'move' || e.type === 'down').map((e) => ({ x: e.x * w, y: e.y * h }));
}

/**
 * True when two consecutive pointer events land in cells that are neither the same nor open
 * neighbours: the step replay skips as noise (kernel.md section 4).
 */
export function skipsCells(kernel: Kernel, sample: Sample): boolean {
  const maze = kernel.generateMaze(sample.maze);
  let last: Cell | undefined;
  for (const e of sample.events) {
    if (e.type !== 'move' && e.type !== 'down') continue;
    const c = kernel.mapEvent(maze, CELL, e.x, e.y, e.type)?.cell;
    if (!c) continue;
    if (last && !(c.x === last.x && c.y === last.y) && !openNeighbours(maze, last, c)) return true;
    last = c;
  }
  return false;
}

/** True when cells a and b are orthogonal neighbours with no wall between them. */
export function openNeighbours(maze: Maze, a: Cell, b: Cell): boolean {
  const dx = b.x - a.x,
    dy = b.y - a.y;
  if (Math.abs(dx) + Math.abs(dy) !== 1) return false;
  const wall = dx === 1 ? WALL_E : dx === -1 ? WALL_W : dy === 1 ? WALL_S : WALL_N;
  return (maze.walls[a.y * maze.width + a.x]! & wall) === 0;
}

/**
 * The most steps by which the route between two consecutive pointer events' cells exceeds how
 * far apart the cells are (rows plus columns): path replay's bounded detour fills a jump up to 4
 * over (kernel.md section 4, rule 3b). For traces laid on the solution of a perfect maze, whose
 * route between two of its cells runs along it; events off the solution are not counted.
 */
export function worstDetour(kernel: Kernel, sample: Sample): number {
  const maze = kernel.generateMaze(sample.maze);
  const along = new Map(maze.solution.map((c, i) => [c.y * maze.width + c.x, i]));
  let last: Cell | undefined;
  let worst = 0;
  for (const e of sample.events) {
    if (e.type !== 'move' && e.type !== 'down') continue;
    const c = kernel.mapEvent(maze, CELL, e.x, e.y, e.type)?.cell;
    if (!c || !along.has(c.y * maze.width + c.x)) continue;
    if (last) {
      const route = Math.abs(along.get(c.y * maze.width + c.x)! - along.get(last.y * maze.width + last.x)!);
      worst = Math.max(worst, route - Math.abs(c.x - last.x) - Math.abs(c.y - last.y));
    }
    last = c;
  }
  return worst;
}
