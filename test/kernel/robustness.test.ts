import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KernelInputError, MAX_EVENTS, type Kernel, type KernelExports } from '../../src/kernel/index.js';
import { pointerTrace } from './helpers/events.js';
import { getKernel } from './helpers/kernel.js';
import { referenceReplay, wallViolations } from './helpers/referenceReplay.js';

const GOLDEN = { seed: 42, width: 8, height: 8, difficulty: 0.3 };
const GOLDEN_WALLS = 'd9593797/86a697a5/c9358134/ccd8687c/ca4a5cdc/c927ca6c/a6b105dc/b336eea6';

function refuses(fn: () => unknown, field: string): void {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught, `expected a KernelInputError for ${field}`).toBeInstanceOf(KernelInputError);
  expect((caught as KernelInputError).field).toBe(field);
}

/** The kernel still answers golden values exactly. */
function stillSound(k: Kernel): void {
  const maze = k.generateMaze(GOLDEN);
  const text = Array.from({ length: 8 }, (_, y) => Array.from(maze.walls.subarray(y * 8, y * 8 + 8), (b) => b.toString(16)).join('')).join(
    '/',
  );
  expect(text).toBe(GOLDEN_WALLS);
  expect(k.profile(GOLDEN).optimalEfficiency).toBe(0.3807498052542948);
  const r = k.replay(GOLDEN, k.packEvents(pointerTrace(maze.solution, 8, 8)), 40, { kind: 'verify' });
  expect(r.valid).toBe(true);
  expect(k.checkPow('abc', 17, 0).hash).toBe(createHash('sha256').update('abc17').digest('hex'));
  expect(Array.from(k.mulberry32(42, 1))).toEqual([0.6011037519201636]);
}

describe('the wrapper refuses bad input with the field name', () => {
  it('maze parameters', async () => {
    const k = await getKernel();
    for (const seed of [-1, 2 ** 32, 1.5, NaN, Infinity, '1']) refuses(() => k.generateMaze({ ...GOLDEN, seed: seed as number }), 'seed');
    for (const width of [0, 1, 33, 2.5, NaN, 1e9, -8]) refuses(() => k.generateMaze({ ...GOLDEN, width }), 'width');
    for (const height of [0, 1, 33, NaN, Infinity]) refuses(() => k.profile({ ...GOLDEN, height }), 'height');
    for (const difficulty of [-0.1, 1.1, NaN, Infinity, -Infinity, '0.3']) {
      refuses(() => k.generateMaze({ ...GOLDEN, difficulty: difficulty as number }), 'difficulty');
    }
    refuses(() => k.generateMaze(null as never), 'maze');
    // Bounds themselves are accepted.
    expect(k.generateMaze({ seed: 0xffffffff, width: 32, height: 2, difficulty: 1 }).solution.at(-1)).toEqual({ x: 31, y: 1 });
    expect(k.generateMaze({ seed: 0, width: 2, height: 32, difficulty: 0 }).walls.length).toBe(64);
    stillSound(k);
  });

  it('replay arguments', async () => {
    const k = await getKernel();
    const events = k.packEvents([{ x: 0.1, y: 0.1, t: 0, type: 'down' }]);
    for (const cellSize of [0, -1, 1000.5, NaN, Infinity])
      refuses(() => k.replay(GOLDEN, events, cellSize, { kind: 'verify' }), 'cellSize');
    expect(k.replay(GOLDEN, events, 1000, { kind: 'verify' }).firstStartIndex).toBe(0);
    refuses(() => k.replay(GOLDEN, events, 40, { kind: 'other' } as never), 'mode');
    refuses(() => k.replay(GOLDEN, events, 40, null as never), 'mode');
    for (const trigger of [{ x: 8, y: 0 }, { x: 0, y: -1 }, { x: 0.5, y: 1 }, { x: NaN, y: 1 }, null]) {
      refuses(() => k.replay(GOLDEN, events, 40, { kind: 'probe', trigger: trigger as never }), 'trigger');
    }
    refuses(() => k.replay(GOLDEN, new Float64Array(5), 40, { kind: 'verify' }), 'events');
    refuses(() => k.replay(GOLDEN, [0, 0, 0, 0] as never, 40, { kind: 'verify' }), 'events');
    refuses(() => k.replay(GOLDEN, new Float64Array((MAX_EVENTS + 1) * 4), 40, { kind: 'verify' }), 'events');
    refuses(() => k.replay({ ...GOLDEN, width: 64 }, events, 40, { kind: 'verify' }), 'width');
    refuses(() => k.packEvents('[]' as never), 'events');
    refuses(() => k.packEvents(new Array(MAX_EVENTS + 1)), 'events');
    refuses(() => k.mapEvent({ width: 1, height: 8 }, 40, 0.5, 0.5), 'width');
    refuses(() => k.mapEvent({ width: 8, height: 8 }, NaN, 0.5, 0.5), 'cellSize');
    stillSound(k);
  });

  it('hash and proof-of-work arguments', async () => {
    const k = await getKernel();
    for (const nonce of [-1, 1.5, 2 ** 53, NaN, Infinity, '5']) refuses(() => k.checkPow('ab', nonce as number, 1), 'nonce');
    for (const d of [-1, 257, 1.5, NaN]) {
      refuses(() => k.checkPow('ab', 1, d), 'difficulty');
      refuses(() => k.solvePow('ab', d, 0, 10), 'difficulty');
    }
    for (const from of [-1, 0.5, 2 ** 53, NaN]) refuses(() => k.solvePow('ab', 4, from, 10), 'from');
    for (const batch of [0, -1, 1.5, 2 ** 31, NaN]) refuses(() => k.solvePow('ab', 4, 0, batch), 'batch');
    refuses(() => k.checkPow(42 as never, 1, 1), 'challenge');
    refuses(() => k.checkPow('a'.repeat(65537), 1, 1), 'challenge');
    refuses(() => k.solvePow('é'.repeat(32769), 1, 0, 1), 'challenge');
    const longest = 'a'.repeat(65536);
    expect(k.checkPow(longest, 3, 0).hash).toBe(
      createHash('sha256')
        .update(longest + '3')
        .digest('hex'),
    );
    refuses(() => k.sha256('abc' as never), 'data');
    refuses(() => k.leadingZeroBits(new Uint8Array(65537)), 'digest');
    refuses(() => k.mulberry32(1, 8193), 'count');
    refuses(() => k.mulberry32(-1, 1), 'seed');
    stillSound(k);
  });
});

describe('the module itself never traps', () => {
  it('answers raw calls with bad arguments by negative codes, then still works', async () => {
    const module = new WebAssembly.Module(readFileSync(new URL('../../build/kernel.wasm', import.meta.url)));
    const ex = new WebAssembly.Instance(module, {}).exports as unknown as KernelExports;
    expect(ex.eventsPtr(-1)).toBe(0);
    expect(ex.eventsPtr(2 ** 30)).toBe(0);
    expect(ex.replay(-5, 1, 8, 8, 0.3, 40, -1)).toBe(-1);
    expect(ex.replay(2 ** 30, 1, 8, 8, 0.3, 40, -1)).toBe(-1);
    expect(ex.replay(10, 1, 0, 8, 0.3, 40, -1)).toBe(-1);
    expect(ex.replay(10, 1, 8, 8, NaN, 40, -1)).toBe(-1);
    expect(ex.replay(10, 1, 8, 8, 0.3, -40, -1)).toBe(-1);
    expect(ex.replay(10, 1, 8, 8, 0.3, 40, 64)).toBe(-1);
    expect(ex.generateMaze(1, 33, 8, 0.5)).toBe(-1);
    expect(ex.generateMaze(1, 8, 8, NaN)).toBe(-1);
    expect(ex.profileMaze(1, 8, -8, 0.5)).toBe(-1);
    expect(ex.mapEvent(0, 8, 40, 0.5, 0.5, 0)).toBe(-2);
    expect(ex.mapEvent(8, 8, Infinity, 0.5, 0.5, 0)).toBe(-2);
    expect(ex.mapEvent(8, 8, 40, 0.5, 0.5, NaN)).toBe(-1);
    expect(ex.powCheck(-1, 0)).toBe(-1);
    expect(ex.powCheck(10, NaN)).toBe(-1);
    expect(ex.powCheck(10, 2 ** 53)).toBe(-1);
    expect(ex.powCheck(1 << 20, 1)).toBe(-1);
    expect(ex.powSolve(10, 300, 0, 1)).toBe(-2);
    expect(ex.powSolve(10, 4, 0, 0)).toBe(-2);
    expect(ex.powSolve(10, 4, -1, 5)).toBe(-2);
    expect(ex.mulberry32(1, 1 << 20)).toBe(-1);
    expect(ex.sha256Update(-1)).toBe(-1);
    expect(ex.leadingZeroBits(1 << 20)).toBe(-1);
    // A replay over events never written reads zeros (move events at x = y = 0): no trap.
    expect(ex.replay(5000, 42, 8, 8, 0.3, 40, -1)).toBe(1);
    expect(ex.generateMaze(42, 8, 8, 0.3)).toBe(27);
  });

  it('grows memory for a large trace and keeps answering small ones', async () => {
    const k = await getKernel();
    const maze = k.generateMaze(GOLDEN);
    const one = pointerTrace(maze.solution, 8, 8);
    const big = Array.from({ length: 300_000 }, (_, i) => one[i % one.length]!);
    const r = k.replay(GOLDEN, k.packEvents(big), 40, { kind: 'verify' });
    expect(r.valid).toBe(true);
    expect(r.cells.slice(0, maze.solution.length)).toEqual(maze.solution);
    // Jumps back to the start are filled or skipped, so far more cells than events may be recorded.
    expect(r).toEqual(referenceReplay(maze, 40, big));
    expect(wallViolations(maze, r.cells)).toEqual([]);
    stillSound(k);
  });

  it('replays against the maze it is given, not the one generated last', async () => {
    const k = await getKernel();
    const other = { seed: 7, width: 4, height: 4, difficulty: 0.01 };
    const golden = k.generateMaze(GOLDEN);
    const small = k.generateMaze(other);
    expect(k.replay(GOLDEN, k.packEvents(pointerTrace(golden.solution, 8, 8)), 40, { kind: 'verify' }).valid).toBe(true);
    expect(k.replay(other, k.packEvents(pointerTrace(small.solution, 4, 4)), 40, { kind: 'verify' }).valid).toBe(true);
    // The golden maze is the one cached now; the walk must still read `other`'s walls.
    k.generateMaze(GOLDEN);
    const events = pointerTrace(golden.solution, 8, 8);
    const r = k.replay(other, k.packEvents(events), 40, { kind: 'verify' });
    expect(r).toEqual(referenceReplay(small, 40, events));
    expect(wallViolations(small, r.cells)).toEqual([]);
    expect(r.cells).not.toEqual(k.replay(GOLDEN, k.packEvents(events), 40, { kind: 'verify' }).cells);
  });
});
