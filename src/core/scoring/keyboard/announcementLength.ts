import { type Cell, type Maze, WALL_E, WALL_N, WALL_S, WALL_W } from '../../../kernel/types.js';

/** The widget's direction names, in the order it lists them (up, down, left, right). */
const DIRECTIONS: readonly [number, string][] = [
  [WALL_N, 'up'],
  [WALL_S, 'down'],
  [WALL_W, 'left'],
  [WALL_E, 'right'],
];

/**
 * Characters of what the widget announces after a keystroke that left the cursor on `at`: "Row
 * r, column c. Open: ..." after a move, "Wall. Open: ..." after a press into a wall (as
 * src/client/keyboardAnnouncement.ts says them with the default English texts; a test holds the
 * two together). A screen-reader user hears it before choosing the next key, so the time it
 * takes to speak grows with this length. A site that translates the texts changes the lengths,
 * but not much which announcements are the longer ones: more open sides and two-digit rows or
 * columns lengthen them in any language.
 */
export function announcementLength(maze: Maze, at: Cell, intoWall: boolean): number {
  const walls = maze.walls[at.y * maze.width + at.x] ?? 0xf;
  const open = DIRECTIONS.filter(([wall]) => (walls & wall) === 0).map(([, name]) => name);
  const list = open.length === 0 ? 'none' : open.join(', ');
  const head = intoWall ? 'Wall.' : `Row ${at.y + 1}, column ${at.x + 1}.`;
  return `${head} Open: ${list}.`.length;
}
