// What a screen reader hears while someone solves by keyboard: the cell's row and column counted
// from 1, its open sides in a fixed order, and the texts a site translated.
import { describe, expect, it } from 'vitest';
import { announce } from '../../src/client/keyboardAnnouncement.js';
import { defaultTexts, mergeTexts } from '../../src/client/texts.js';
import { WALL_E, WALL_N, WALL_S, WALL_W, type Maze } from '../../src/kernel/types.js';

/** A 3 x 2 maze: the top row one corridor, (1, 1) open up into it, (0, 1) and (2, 1) closed in. */
const maze: Maze = {
  seed: 1,
  width: 3,
  height: 2,
  difficulty: 0,
  walls: Uint8Array.from([WALL_N | WALL_W | WALL_S, WALL_N, WALL_N | WALL_E | WALL_S, 0xf, WALL_W | WALL_E | WALL_S, 0xf]),
  start: { x: 0, y: 0 },
  exit: { x: 2, y: 0 },
  solution: [
    { x: 0, y: 0 },
    { x: 1, y: 0 },
    { x: 2, y: 0 },
  ],
};

describe('announce', () => {
  it('says the row and column from 1 and the open sides up, down, left, right', () => {
    expect(announce(defaultTexts, maze, { x: 1, y: 0 }, 'position')).toBe('Row 1, column 2. Open: down, left, right.');
    expect(announce(defaultTexts, maze, { x: 1, y: 1 }, 'position')).toBe('Row 2, column 2. Open: up.');
  });

  it('says only the open sides after a wall, and "none" where every side is shut', () => {
    expect(announce(defaultTexts, maze, { x: 0, y: 0 }, 'wall')).toBe('Wall. Open: right.');
    expect(announce(defaultTexts, maze, { x: 2, y: 1 }, 'wall')).toBe('Wall. Open: none.');
  });

  it('starts with the started text and lists the open sides after it', () => {
    expect(announce(defaultTexts, maze, { x: 0, y: 0 }, 'started')).toBe('Started at S, row 1, column 1. right');
  });

  it("speaks a site's translated texts", () => {
    const texts = mergeTexts({
      keyboardPosition: 'Zeile {row}, Spalte {col}. Offen: {open}.',
      directions: { up: 'hoch', down: 'runter', left: 'links', right: 'rechts' },
    });
    expect(announce(texts, maze, { x: 1, y: 0 }, 'position')).toBe('Zeile 1, Spalte 2. Offen: runter, links, rechts.');
  });
});
