import { extractFeatures } from './features.js';
import { eventCode, packEvents } from './packEvents.js';
import {
  KernelInputError,
  MAX_DRAWS,
  MAX_INPUT_BYTES,
  MAX_POW_BATCH,
  type Cell,
  type Kernel,
  type Maze,
  type MazeParams,
  type MazeProfile,
  type PowSearch,
} from './types.js';
import { checkBytes, checkCell, checkCellSize, checkInteger, checkMaze, checkNonce, checkPoint, checkSize } from './validate.js';
import { WasmKernel } from './wasmKernel.js';

function cellsAt(words: Uint16Array, ptr: number, count: number, width: number): Cell[] {
  const cells = new Array<Cell>(count);
  const base = ptr >>> 1;
  for (let i = 0; i < count; i++) {
    const c = words[base + i]!;
    cells[i] = { x: c % width, y: (c / width) | 0 };
  }
  return cells;
}

/** The typed API over an instance of build/kernel.wasm. */
export function kernelFromInstance(instance: WebAssembly.Instance): Kernel {
  const wasm = new WasmKernel(instance);
  const ex = wasm.exports;

  return {
    mulberry32(seed, count) {
      checkInteger('seed', seed, 0, 0xffffffff);
      checkInteger('count', count, 0, MAX_DRAWS);
      ex.mulberry32(seed, count);
      const start = wasm.io >>> 3;
      return wasm.floats().slice(start, start + count);
    },

    generateMaze(params: MazeParams): Maze {
      checkMaze(params);
      const { seed, width, height, difficulty } = params;
      const length = ex.generateMaze(seed, width, height, difficulty);
      const wallsAt = ex.wallsPtr() >>> 0;
      return {
        seed,
        width,
        height,
        difficulty,
        walls: wasm.bytes().slice(wallsAt, wallsAt + width * height),
        start: { x: 0, y: 0 },
        exit: { x: width - 1, y: height - 1 },
        solution: cellsAt(wasm.words(), ex.solutionPtr() >>> 0, length, width),
      };
    },

    profile(maze: MazeParams): MazeProfile {
      checkMaze(maze);
      ex.profileMaze(maze.seed, maze.width, maze.height, maze.difficulty);
      return {
        solutionLength: wasm.resultAt(0),
        decisionPointCount: wasm.resultAt(1),
        turnCount: wasm.resultAt(2),
        optimalEfficiency: wasm.resultAt(3),
      };
    },

    packEvents,

    mapEvent(size, cellSize, x, y, type = 'move') {
      checkSize(size);
      checkCellSize(cellSize);
      if (typeof x !== 'number' || typeof y !== 'number') return null;
      const c = ex.mapEvent(size.width, size.height, cellSize, x, y, eventCode(type));
      if (c < 0) return null;
      return { cell: { x: c % size.width, y: (c / size.width) | 0 }, mx: wasm.resultAt(0), my: wasm.resultAt(1) };
    },

    replay(maze, events, cellSize, mode) {
      checkMaze(maze);
      checkCellSize(cellSize);
      let trigger: number;
      if (mode?.kind === 'verify') trigger = -1;
      else if (mode?.kind === 'probe') trigger = checkCell('trigger', mode.trigger, maze.width, maze.height);
      else throw new KernelInputError('mode', "mode.kind must be 'verify' or 'probe'");
      const count = wasm.writeEvents(events);
      const recorded = ex.replay(count, maze.seed, maze.width, maze.height, maze.difficulty, cellSize, trigger);
      if (recorded < 0) throw new KernelInputError('events', 'the kernel refused the replay');
      return {
        valid: wasm.resultAt(0) === 1,
        cells: cellsAt(wasm.words(), wasm.resultAt(3), recorded, maze.width),
        firstStartIndex: wasm.resultAt(2),
      };
    },

    walkSegment(maze, from, to) {
      checkMaze(maze);
      checkPoint('from', from);
      checkPoint('to', to);
      const n = ex.segmentCells(maze.seed, maze.width, maze.height, maze.difficulty, from.mx, from.my, to.mx, to.my);
      return n < 0 ? null : cellsAt(wasm.words(), ex.segmentPtr() >>> 0, n, maze.width);
    },

    detour(maze, from, to) {
      checkMaze(maze);
      const n = ex.detourCells(
        maze.seed,
        maze.width,
        maze.height,
        maze.difficulty,
        checkCell('from', from, maze.width, maze.height),
        checkCell('to', to, maze.width, maze.height),
      );
      return n < 0 ? null : cellsAt(wasm.words(), ex.detourPtr() >>> 0, n, maze.width);
    },

    sha256(data) {
      checkBytes('data', data, Number.MAX_SAFE_INTEGER);
      ex.sha256Init();
      for (let at = 0; at === 0 || at < data.length; at += MAX_INPUT_BYTES) {
        const chunk = data.subarray(at, at + MAX_INPUT_BYTES);
        wasm.writeBytes(chunk);
        ex.sha256Update(chunk.length);
      }
      ex.sha256Final();
      return wasm.digestBytes();
    },

    leadingZeroBits(digest) {
      checkBytes('digest', digest, MAX_INPUT_BYTES);
      wasm.writeBytes(digest);
      return ex.leadingZeroBits(digest.length);
    },

    checkPow(challenge, nonce, difficulty) {
      checkNonce('nonce', nonce);
      checkInteger('difficulty', difficulty, 0, 256);
      const length = wasm.writeText('challenge', challenge);
      const leadingZeroBits = ex.powCheck(length, nonce);
      return { valid: leadingZeroBits >= difficulty, hash: wasm.digestHex(), leadingZeroBits };
    },

    solvePow(challenge, difficulty, from, batch): PowSearch {
      checkInteger('difficulty', difficulty, 0, 256);
      checkNonce('from', from);
      checkInteger('batch', batch, 1, MAX_POW_BATCH);
      const length = wasm.writeText('challenge', challenge);
      const nonce = ex.powSolve(length, difficulty, from, batch);
      if (nonce >= 0) return { nonce, hash: wasm.digestHex(), next: nonce + 1 };
      return { nonce: null, hash: null, next: Math.min(from + batch, Number.MAX_SAFE_INTEGER + 1) };
    },

    features: (maze, events, cellSize) => extractFeatures(wasm, maze, events, cellSize),
  };
}

/** Instantiates a compiled module synchronously (fine in workers and in Node). */
export function createKernel(module: WebAssembly.Module): Kernel {
  return kernelFromInstance(new WebAssembly.Instance(module, {}));
}
