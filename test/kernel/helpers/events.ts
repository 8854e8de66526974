import type { Cell, RawEvent } from '../../../src/kernel/index.js';

export const MARGIN = 20;
export const STRIP = 24;

/** Canvas fractions of a cell's centre (kernel.md section 3). */
export function canvasCentre(cell: Cell, w: number, h: number, cellSize: number): { x: number; y: number } {
  return {
    x: (MARGIN + (cell.x + 0.5) * cellSize) / (w * cellSize + 2 * MARGIN),
    y: (MARGIN + (cell.y + 0.5) * cellSize) / (h * cellSize + 2 * MARGIN + STRIP),
  };
}

/** Pointer moves through the centres of `cells`, 16 ms apart, the first one a `down`. */
export function pointerTrace(cells: readonly Cell[], w: number, h: number, cellSize = 40): RawEvent[] {
  return cells.map((c, i) => ({ ...canvasCentre(c, w, h, cellSize), t: i * 16, type: i === 0 ? 'down' : 'move' }));
}

/** Keyboard cursor events: keydown then keyup at the maze-fraction centre of each cell. */
export function keyboardTrace(cells: readonly Cell[], w: number, h: number): RawEvent[] {
  return cells.flatMap((c, i) => {
    const at = { x: (c.x + 0.5) / w, y: (c.y + 0.5) / h };
    return [
      { ...at, t: i * 100, type: 'keydown', key: 'ArrowRight' },
      { ...at, t: i * 100 + 50, type: 'keyup', key: 'ArrowRight' },
    ];
  });
}

/**
 * Arrow presses along `cells` as the deployed widget records them: one keydown and one keyup per
 * press, each at the maze-fraction centre of the cell the key took the cursor to, so the start
 * cell (where the cursor begins) carries no event.
 */
export function arrowPresses(cells: readonly Cell[], w: number, h: number): RawEvent[] {
  return cells.slice(1).flatMap((c, i) => {
    const from = cells[i]!;
    const key = c.x > from.x ? 'ArrowRight' : c.x < from.x ? 'ArrowLeft' : c.y > from.y ? 'ArrowDown' : 'ArrowUp';
    const at = { x: (c.x + 0.5) / w, y: (c.y + 0.5) / h };
    return [
      { ...at, t: i * 120, type: 'keydown', key },
      { ...at, t: i * 120 + 60, type: 'keyup', key },
    ];
  });
}

export const cellsOf = (text: string): Cell[] =>
  text.split(' ').map((p) => {
    const [x, y] = p.split(',').map(Number);
    return { x: x!, y: y! };
  });
