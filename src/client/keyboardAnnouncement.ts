// What the status line says while someone solves by keyboard: where the cursor stands and which
// sides are open. The line is a polite live region, so a screen reader speaks it after each key
// and the maze can be walked without seeing it. The server counts these texts' length
// (core/scoring/keyboard/announcementLength.ts; a test holds the two together).
import type { Cell, Maze } from '../kernel/types.js';
import { fill, type Texts } from './texts.js';
import { MOVES, wallsAt } from './trace.js';

/** After the key that starts a keyboard solve, after a move, or after a press into a wall. */
export type Announcement = 'started' | 'position' | 'wall';

/** The text said of the cursor on `at`; the open sides are listed up, down, left, right. */
export function announce(texts: Texts, maze: Maze, at: Cell, what: Announcement): string {
  const walls = wallsAt(maze, at);
  const sides = Object.values(MOVES)
    .filter((m) => !(walls & m.wall))
    .map((m) => texts.directions[m.name]);
  const open = sides.length ? sides.join(', ') : texts.none;
  if (what === 'started') return `${texts.keyboardStarted} ${open}`;
  if (what === 'wall') return fill(texts.keyboardWall, { open });
  return fill(texts.keyboardPosition, { row: at.y + 1, col: at.x + 1, open });
}
