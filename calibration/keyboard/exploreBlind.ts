import { MOVES, type MoveKey, wallsAt } from '../../src/client/trace.js';
import type { Cell, Maze } from '../../src/kernel/index.js';
import type { Rng } from '../random.js';

/** How someone who cannot see the maze finds the exit from what is announced. */
export type BlindStrategy = 'right-hand' | 'left-hand' | 'depth-first';

/** One keystroke of an exploration, before any timing. */
export interface ExploreStep {
  key: MoveKey;
  /** The cursor's cell after the key: the same cell when the key met a wall. */
  to: Cell;
  intoWall: boolean;
  /** The cell was visited before (backtracking, or a loop). */
  revisit: boolean;
  /** The cell reached is a dead end other than the exit. */
  deadEnd: boolean;
}

export interface BlindExplorer {
  strategy: BlindStrategy;
  /** Chance of pressing the direction the strategy prefers before hearing whether it is open. */
  probeHabit: number;
  /** Depth-first: chance of going for the exit's side (down, right) first. */
  towardsExit: number;
  /** Depth-first: chance of forgetting a branch was explored and going in again. */
  memoryLapse: number;
}

const KEYS = Object.keys(MOVES) as MoveKey[];
const id = (maze: Maze, c: Cell) => c.y * maze.width + c.x;
const step = (c: Cell, k: MoveKey): Cell => ({ x: c.x + MOVES[k].dx, y: c.y + MOVES[k].dy });
const isOpen = (maze: Maze, c: Cell, k: MoveKey) => (wallsAt(maze, c) & MOVES[k].wall) === 0;
/** Clockwise from up: turning right is one step on. */
const CLOCKWISE: readonly MoveKey[] = ['ArrowUp', 'ArrowRight', 'ArrowDown', 'ArrowLeft'];
const turn = (k: MoveKey, quarter: number) => CLOCKWISE[(CLOCKWISE.indexOf(k) + quarter + 4) % 4]!;

/**
 * An exploration from S to the exit by someone who hears "Row, column. Open: ..." after each key
 * and never sees the maze: a wall follower (right or left hand on the wall, a method taught for
 * mazes and unfamiliar buildings) or a depth-first search that remembers the cells it has been in
 * and backs out of dead ends. The exit is at the bottom right (the maze's label says so), so a
 * depth-first explorer often tries down and right first. With `probeHabit` a key goes the
 * preferred way before the open sides were heard, and meets a wall when it is closed. At most
 * `maxKeys` keys (a safety bound; both methods reach the exit of these mazes well before).
 */
export function exploreBlind(rng: Rng, maze: Maze, who: BlindExplorer, maxKeys = 8 * maze.width * maze.height): ExploreStep[] {
  const steps: ExploreStep[] = [];
  const seen = new Set<number>([id(maze, maze.start)]);
  const tried = new Map<number, Set<MoveKey>>();
  const path: Cell[] = [maze.start];
  let at = maze.start;
  let heading: MoveKey = 'ArrowDown';
  const atExit = () => at.x === maze.exit.x && at.y === maze.exit.y;
  const go = (key: MoveKey) => {
    const to = step(at, key);
    const revisit = seen.has(id(maze, to));
    const open = KEYS.filter((k) => isOpen(maze, to, k)).length;
    steps.push({ key, to, intoWall: false, revisit, deadEnd: open === 1 && !(to.x === maze.exit.x && to.y === maze.exit.y) });
    seen.add(id(maze, to));
    heading = key;
    at = to;
  };
  const probe = (key: MoveKey) => steps.push({ key, to: at, intoWall: true, revisit: true, deadEnd: false });
  while (!atExit() && steps.length < maxKeys) {
    if (who.strategy !== 'depth-first') {
      // Hand on the wall: the hand's side first, then ahead, the other side, back.
      const side = who.strategy === 'right-hand' ? 1 : -1;
      const order = [turn(heading, side), heading, turn(heading, -side), turn(heading, 2)];
      const key = order.find((k) => isOpen(maze, at, k))!;
      const preferred = order[0]!;
      if (preferred !== key && rng.next() < who.probeHabit) probe(preferred);
      go(key);
      continue;
    }
    const here = id(maze, at);
    const done = tried.get(here) ?? new Set<MoveKey>();
    tried.set(here, done);
    const back =
      path.length > 1
        ? KEYS.find((k) => {
            const c = step(at, k);
            const p = path.at(-2)!;
            return c.x === p.x && c.y === p.y;
          })
        : undefined;
    const fresh = KEYS.filter(
      (k) => isOpen(maze, at, k) && k !== back && !done.has(k) && (!seen.has(id(maze, step(at, k))) || rng.next() < who.memoryLapse),
    );
    const wanted = rng.next() < who.towardsExit ? (['ArrowDown', 'ArrowRight'] as MoveKey[]) : [];
    const choice = fresh.find((k) => wanted.includes(k)) ?? (fresh.length > 0 ? rng.pick(fresh) : undefined);
    if (choice === undefined) {
      if (back === undefined) break;
      go(back);
      path.pop();
      continue;
    }
    const guess = rng.pick(wanted.length > 0 ? wanted : KEYS);
    if (!isOpen(maze, at, guess) && rng.next() < who.probeHabit) probe(guess);
    done.add(choice);
    go(choice);
    path.push(at);
  }
  return steps;
}
