// The server's count of what the widget announces agrees with the widget's own default texts.
import { beforeAll, describe, expect, it } from 'vitest';
import { announcementLength } from '../../../../src/core/scoring/keyboard/announcementLength.js';
import { announce } from '../../../../src/client/keyboardAnnouncement.js';
import { defaultTexts } from '../../../../src/client/texts.js';
import { loadKernel, type Cell, type Maze } from '../../../../src/kernel/index.js';

let maze: Maze;
beforeAll(async () => {
  maze = (await loadKernel()).generateMaze({ seed: 11, width: 12, height: 10, difficulty: 0.6 });
});

/** What the widget says after a key leaves the cursor on `c`. */
function widgetSays(c: Cell, intoWall: boolean): string {
  return announce(defaultTexts, maze, c, intoWall ? 'wall' : 'position');
}

describe('announcementLength', () => {
  it('is the length of the default announcement on every cell, after a move and after a wall', () => {
    for (let y = 0; y < maze.height; y++) {
      for (let x = 0; x < maze.width; x++) {
        for (const wall of [false, true]) expect(announcementLength(maze, { x, y }, wall)).toBe(widgetSays({ x, y }, wall).length);
      }
    }
  });
});
