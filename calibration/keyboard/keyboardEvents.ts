import { MOVES, type MoveKey, wallsAt } from '../../src/client/trace.js';
import type { Cell, Maze, RawEvent } from '../../src/kernel/index.js';

/** `ours`: this project's widget (Enter or the first arrow starts on S); `deployed`: the deployed widget's collector. */
export type KeyboardWidget = 'ours' | 'deployed';

/** One keydown of a solve: its time, key, the cursor's cell after it, and when its key comes up. */
export interface PlannedStroke {
  t: number;
  key: string;
  to: Cell;
  /** ms from keydown to keyup; null for no keyup (an auto-repeat, or a script that sends none). */
  hold: number | null;
}

/** The arrow key moving from `a` to its neighbour `b`. */
export function keyBetween(a: Cell, b: Cell): MoveKey {
  const found = (Object.keys(MOVES) as MoveKey[]).find((k) => a.x + MOVES[k].dx === b.x && a.y + MOVES[k].dy === b.y);
  if (found === undefined) throw new Error('not neighbours');
  return found;
}

/** The open neighbours of `c`. */
export function openNeighbours(maze: Maze, c: Cell): Cell[] {
  return Object.values(MOVES)
    .filter((m) => (wallsAt(maze, c) & m.wall) === 0)
    .map((m) => ({ x: c.x + m.dx, y: c.y + m.dy }));
}

/** An arrow key that meets a wall at `c`, or undefined. */
export function keyIntoWall(maze: Maze, c: Cell, pick: (keys: MoveKey[]) => MoveKey): MoveKey | undefined {
  const blocked = (Object.keys(MOVES) as MoveKey[]).filter((k) => (wallsAt(maze, c) & MOVES[k].wall) !== 0);
  return blocked.length === 0 ? undefined : pick(blocked);
}

/**
 * The events a widget sends for planned strokes: keydowns and keyups at the centre of the
 * cursor's cell in maze fractions, in time order, nothing after the keydown that reaches the
 * exit (both widgets stop listening there). Ours records the first arrow twice (on S, then on the
 * cell it moves to) unless `enter` started the solve `enter` ms earlier.
 */
export function keyboardEvents(
  maze: Maze,
  strokes: readonly PlannedStroke[],
  widget: KeyboardWidget,
  enter?: { lead: number; hold: number },
): RawEvent[] {
  const at = (c: Cell) => ({ x: (c.x + 0.5) / maze.width, y: (c.y + 0.5) / maze.height });
  const downs: { t: number; key: string; cell: Cell }[] = [];
  const ups: { t: number; key: string }[] = [];
  const first = strokes[0]!;
  if (widget === 'ours' && enter !== undefined) {
    downs.push({ t: first.t - enter.lead, key: 'Enter', cell: maze.start });
    ups.push({ t: first.t - enter.lead + enter.hold, key: 'Enter' });
  } else if (widget === 'ours') {
    downs.push({ t: first.t, key: first.key, cell: maze.start });
  }
  for (const s of strokes) {
    downs.push({ t: s.t, key: s.key, cell: s.to });
    if (s.hold !== null) ups.push({ t: s.t + s.hold, key: s.key });
  }
  const end = strokes.find((s) => s.to.x === maze.exit.x && s.to.y === maze.exit.y)?.t ?? Infinity;
  const cursorAt = (t: number) => {
    let cell = maze.start;
    for (const d of downs) if (d.t <= t) cell = d.cell;
    return cell;
  };
  const events: (RawEvent & { order: number })[] = [
    ...downs.map((d, i) => ({ ...at(d.cell), t: d.t, type: 'keydown', key: d.key, order: i })),
    ...ups.filter((u) => u.t <= end).map((u, i) => ({ ...at(cursorAt(u.t)), t: u.t, type: 'keyup', key: u.key, order: downs.length + i })),
  ].filter((e) => e.t <= end);
  events.sort((a, b) => a.t - b.t || a.order - b.order);
  const t0 = events[0]!.t;
  return events.map(({ order: _, ...e }) => ({ ...e, t: Math.round((e.t - t0) * 10) / 10 }));
}
