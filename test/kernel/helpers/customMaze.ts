// Mazes with walls chosen by a test (cycles included), for the geometry of the segment walk.
// The kernel caches the walls of the last maze it generated; overwriting them in its memory
// makes every later call with the same parameters use the chosen walls.
import { readFileSync } from 'node:fs';
import { kernelFromInstance, type Cell, type Kernel, type KernelExports, type MazeParams } from '../../../src/kernel/index.js';

const wasm = readFileSync(new URL('../../../build/kernel.wasm', import.meta.url));

export interface CustomMaze extends MazeParams {
  walls: Uint8Array;
}

/** A kernel of its own, so overwritten walls never leak into other tests. */
export function customKernel(): { kernel: Kernel; exports: KernelExports } {
  const instance = new WebAssembly.Instance(new WebAssembly.Module(wasm), {});
  return { kernel: kernelFromInstance(instance), exports: instance.exports as unknown as KernelExports };
}

/**
 * Walls from a list of open passages "x,y-x,y" between orthogonal neighbours (every other wall
 * closed), loaded into the kernel as the maze of `params`.
 */
export function loadWalls(
  k: { kernel: Kernel; exports: KernelExports },
  width: number,
  height: number,
  open: string[],
  seed = 1,
): CustomMaze {
  const walls = new Uint8Array(width * height).fill(15);
  for (const passage of open) {
    const [a, b] = passage.split('-').map((p) => p.split(',').map(Number)) as [[number, number], [number, number]];
    const dx = b[0] - a[0];
    const dy = b[1] - a[1];
    const [bit, back] = dx === 1 ? [4, 8] : dx === -1 ? [8, 4] : dy === 1 ? [2, 1] : dy === -1 ? [1, 2] : [0, 0];
    if (Math.abs(dx) + Math.abs(dy) !== 1 || bit === 0) throw new Error(`not a passage: ${passage}`);
    walls[a[1] * width + a[0]]! &= ~bit;
    walls[b[1] * width + b[0]]! &= ~back;
  }
  const params = { seed, width, height, difficulty: 0.5 };
  k.kernel.generateMaze(params);
  const at = k.exports.wallsPtr() >>> 0;
  new Uint8Array(k.exports.memory.buffer).set(walls, at);
  return { ...params, walls };
}

/** Open passages along a list of cells, each to the next. */
export function corridor(cells: Cell[]): string[] {
  return cells.slice(1).map((c, i) => `${cells[i]!.x},${cells[i]!.y}-${c.x},${c.y}`);
}
