import { KernelInputError, MAX_CELL_SIZE, MAX_MAZE_SIDE, MIN_MAZE_SIDE, type Cell, type MazeParams, type MazePoint } from './types.js';

// Checks of the wrapper: each refuses with the name of the field at fault.

export function checkInteger(field: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new KernelInputError(field, `${field} must be an integer in ${min}..${max}`);
  }
  return value;
}

export function checkSize(size: { width: number; height: number }): void {
  if (size === null || typeof size !== 'object') throw new KernelInputError('maze', 'maze must be an object');
  checkInteger('width', size.width, MIN_MAZE_SIDE, MAX_MAZE_SIDE);
  checkInteger('height', size.height, MIN_MAZE_SIDE, MAX_MAZE_SIDE);
}

export function checkMaze(maze: MazeParams): void {
  checkSize(maze);
  checkInteger('seed', maze.seed, 0, 0xffffffff);
  const d = maze.difficulty;
  if (typeof d !== 'number' || !(d >= 0 && d <= 1)) {
    throw new KernelInputError('difficulty', 'difficulty must be a number in [0, 1]');
  }
}

export function checkCellSize(cellSize: number): void {
  if (typeof cellSize !== 'number' || !(cellSize > 0 && cellSize <= MAX_CELL_SIZE)) {
    throw new KernelInputError('cellSize', `cellSize must be a number in (0, ${MAX_CELL_SIZE}]`);
  }
}

export function checkNonce(field: string, nonce: number): void {
  if (typeof nonce !== 'number' || !Number.isSafeInteger(nonce) || nonce < 0) {
    throw new KernelInputError(field, `${field} must be a non-negative safe integer`);
  }
}

/** A cell of a width x height maze, as its index. */
export function checkCell(field: string, cell: Cell, width: number, height: number): number {
  if (cell === null || typeof cell !== 'object') throw new KernelInputError(field, `${field} must be a cell`);
  const x = checkInteger(field, cell.x, 0, width - 1);
  const y = checkInteger(field, cell.y, 0, height - 1);
  return y * width + x;
}

/** A point in maze fractions; finite coordinates (the kernel clamps them into [0, 1]). */
export function checkPoint(field: string, point: MazePoint): void {
  if (point === null || typeof point !== 'object' || !Number.isFinite(point.mx) || !Number.isFinite(point.my)) {
    throw new KernelInputError(field, `${field} must be {mx, my} with finite numbers`);
  }
}

export function checkBytes(field: string, data: Uint8Array, maxLength: number): void {
  if (!(data instanceof Uint8Array) || data.length > maxLength) {
    throw new KernelInputError(field, `${field} must be a Uint8Array of at most ${maxLength} bytes`);
  }
}
