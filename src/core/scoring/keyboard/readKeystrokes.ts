import type { Cell, Maze, RawEvent } from '../../../kernel/types.js';

/** One keydown as the server sees it, whatever its key: scripts cannot hide strokes behind odd key names. */
export interface Keystroke {
  /** Event time, ms. */
  t: number;
  key: string;
  /** The cursor's cell before and after the keydown (the keydown's own maze-fraction point). */
  from: Cell;
  to: Cell;
  /** Open sides of `from` (1 a dead end, 2 a corridor or bend, 3-4 a junction). */
  openSides: number;
  /** Another keydown of the same key without its keyup in between: the key is held (auto-repeat). */
  repeat: boolean;
  /** Keydown to keyup of this press, ms; NaN when no keyup came (or for a repeat). */
  hold: number;
  /** Pressed while another key was still down (rollover). */
  overlapped: boolean;
}

/**
 * The keystrokes of a submission over its maze, in arrival order: keydowns map to cells as
 * replay maps them (maze fractions, kernel.md section 3), keyups close the press of their key.
 * Events that are not objects, or carry a non-finite time or point, are left out.
 */
export function readKeystrokes(maze: Maze, events: readonly RawEvent[]): Keystroke[] {
  const strokes: Keystroke[] = [];
  const held = new Map<string, Keystroke>();
  let at: Cell = maze.start;
  for (const e of events) {
    if (e === null || typeof e !== 'object' || !Number.isFinite(e.t)) continue;
    const key = typeof e.key === 'string' ? e.key : '';
    if (e.type === 'keyup') {
      const press = held.get(key);
      if (press !== undefined) press.hold = e.t - press.t;
      held.delete(key);
      continue;
    }
    if (e.type !== 'keydown' || !Number.isFinite(e.x) || !Number.isFinite(e.y)) continue;
    const to = cellAt(maze, e.x, e.y);
    const repeat = held.has(key);
    const overlapped = held.size > (repeat ? 1 : 0);
    const stroke: Keystroke = { t: e.t, key, from: at, to, openSides: openSides(maze, at), repeat, hold: NaN, overlapped };
    strokes.push(stroke);
    if (!repeat) held.set(key, stroke);
    at = to;
  }
  return strokes;
}

function cellAt(maze: Maze, x: number, y: number): Cell {
  const clamp = (v: number) => Math.min(1, Math.max(0, v));
  return {
    x: Math.min(Math.floor(clamp(x) * maze.width), maze.width - 1),
    y: Math.min(Math.floor(clamp(y) * maze.height), maze.height - 1),
  };
}

/** Sides of `c` without a wall (its four low bits, kernel.md section 2). */
function openSides(maze: Maze, c: Cell): number {
  let walls = (maze.walls[c.y * maze.width + c.x] ?? 0xf) & 0xf;
  let closed = 0;
  for (; walls !== 0; walls &= walls - 1) closed++;
  return 4 - closed;
}
