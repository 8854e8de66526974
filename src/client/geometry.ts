// The drawing surface of kernel.md section 3: the maze, a 20 px margin on every side and a
// 24 px instruction strip below the bottom margin. Event x, y are fractions of this surface.
import type { Cell, MazePoint } from '../kernel/types.js';

export const MARGIN = 20;
export const STRIP = 24;

export interface Surface {
  width: number;
  height: number;
  /** Maze size in cells. */
  cols: number;
  rows: number;
  cell: number;
}

export function surfaceOf(cols: number, rows: number, cell: number): Surface {
  return { width: cols * cell + 2 * MARGIN, height: rows * cell + 2 * MARGIN + STRIP, cols, rows, cell };
}

/** Maze fractions of a cell centre: what keyboard events carry. */
export function mazeFractionOfCentre(s: Surface, c: Cell): { x: number; y: number } {
  return { x: (c.x + 0.5) / s.cols, y: (c.y + 0.5) / s.rows };
}

/** Surface fractions of a point given in maze fractions (the inverse of kernel.md section 3). */
export function surfaceFractionOf(s: Surface, p: MazePoint): { x: number; y: number } {
  return { x: (MARGIN + p.mx * s.cols * s.cell) / s.width, y: (MARGIN + p.my * s.rows * s.cell) / s.height };
}

/** Surface pixel of a cell centre. */
export function centrePx(s: Surface, c: Cell): { x: number; y: number } {
  return { x: MARGIN + (c.x + 0.5) * s.cell, y: MARGIN + (c.y + 0.5) * s.cell };
}
