import { describe, expect, it } from 'vitest';
import { canvasCentre } from './helpers/events.js';
import { getKernel } from './helpers/kernel.js';

// Surface of a W x H maze with cell c: (W*c + 40) x (H*c + 64) pixels (20 px margins, 24 px strip).
const M8 = { width: 8, height: 8 };

describe('canvas geometry (kernel.md section 3)', () => {
  it('maps the canvas centre of an 8x8 maze of 40 px cells (360 x 384 px)', async () => {
    const k = await getKernel();
    // x: 0.5 * 360 = 180 px -> (180 - 20) / 320 = 0.5; y: 0.5 * 384 = 192 px -> 172 / 320 = 0.5375.
    expect(k.mapEvent(M8, 40, 0.5, 0.5)).toEqual({ cell: { x: 4, y: 4 }, mx: 0.5, my: 0.5375 });
  });

  it('maps pixel positions given as fractions', async () => {
    const k = await getKernel();
    // 90 px across -> 70 / 320 = 0.21875 -> column 1; 96 px down -> 76 / 320 = 0.2375 -> row 1.
    const p = k.mapEvent(M8, 40, 90 / 360, 96 / 384)!;
    expect(p.cell).toEqual({ x: 1, y: 1 });
    expect(p.mx).toBe(0.21875);
    expect(p.my).toBeCloseTo(0.2375, 12);
    // 330 px across -> 310 / 320 -> column 7; 300 px down -> 280 / 320 = 0.875 -> row 7 exactly.
    const q = k.mapEvent(M8, 40, 330 / 360, 300 / 384)!;
    expect(q.cell).toEqual({ x: 7, y: 7 });
    expect(q.mx).toBeCloseTo(310 / 320, 12);
    expect(q.my).toBe(0.875);
  });

  it('puts a point exactly on a cell boundary in the cell to its right', async () => {
    const k = await getKernel();
    // 10 px cells: surface 120 x 144. x 0.25 -> 30 px -> 10 / 80 = 0.125 -> column 1 exactly;
    // x 0.75 -> 90 px -> 70 / 80 = 0.875 -> column 7 exactly.
    const p = k.mapEvent(M8, 10, 0.25, 0.25)!;
    expect(p.mx).toBe(0.125);
    expect(p.cell.x).toBe(1);
    expect(k.mapEvent(M8, 10, 0.75, 0.5)!.cell.x).toBe(7);
    // y 0.25 -> 36 px -> 16 / 80 = 0.2 -> row 1.
    expect(p.my).toBeCloseTo(0.2, 12);
    expect(p.cell.y).toBe(1);
  });

  it('clamps the margins and the instruction strip to the edge cells', async () => {
    const k = await getKernel();
    expect(k.mapEvent(M8, 40, 0, 0)).toEqual({ cell: { x: 0, y: 0 }, mx: 0, my: 0 });
    expect(k.mapEvent(M8, 40, 10 / 360, 10 / 384)).toEqual({ cell: { x: 0, y: 0 }, mx: 0, my: 0 });
    // 370 px down is in the strip: (370 - 20) / 320 > 1 -> 1 -> row min(8, 7) = 7.
    expect(k.mapEvent(M8, 40, 1, 370 / 384)).toEqual({ cell: { x: 7, y: 7 }, mx: 1, my: 1 });
  });

  it('uses the maze height for rows of a non-square maze', async () => {
    const k = await getKernel();
    // 8x12 of 40 px: surface 360 x 544; y 0.5 -> 272 px -> 252 / 480 = 0.525 -> row 6.
    const p = k.mapEvent({ width: 8, height: 12 }, 40, 0.5, 0.5)!;
    expect(p.my).toBe(0.525);
    expect(p.cell).toEqual({ x: 4, y: 6 });
  });

  it('maps every cell centre back to its cell for several sizes and cell sizes', async () => {
    const k = await getKernel();
    for (const [w, h, c] of [
      [2, 2, 40],
      [8, 12, 40],
      [32, 32, 12.5],
      [5, 31, 1000],
      [3, 7, 0.5],
    ] as const) {
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const at = canvasCentre({ x, y }, w, h, c);
          expect(k.mapEvent({ width: w, height: h }, c, at.x, at.y)?.cell).toEqual({ x, y });
        }
      }
    }
  });

  it('takes keydown coordinates as maze fractions, pointer coordinates as canvas fractions', async () => {
    const k = await getKernel();
    // Maze fraction 0.13 of 8 cells is column 1; as a canvas fraction it is
    // (0.13 * 360 - 20) / 320 = 0.08375 -> column 0 (rows: (0.13 * 384 - 20) / 320 -> row 0).
    expect(k.mapEvent(M8, 40, 0.13, 0.13, 'keydown')?.cell).toEqual({ x: 1, y: 1 });
    expect(k.mapEvent(M8, 40, 0.13, 0.13, 'move')?.cell).toEqual({ x: 0, y: 0 });
    expect(k.mapEvent(M8, 40, 0.13, 0.13, 'down')?.cell).toEqual({ x: 0, y: 0 });
    expect(k.mapEvent(M8, 40, 7.5 / 8, 7.5 / 8, 'keydown')).toEqual({ cell: { x: 7, y: 7 }, mx: 0.9375, my: 0.9375 });
  });

  it('ignores types replay ignores, and non-finite coordinates', async () => {
    const k = await getKernel();
    for (const type of ['up', 'keyup', 'wheel', '']) expect(k.mapEvent(M8, 40, 0.5, 0.5, type)).toBeNull();
    expect(k.mapEvent(M8, 40, NaN, 0.5)).toBeNull();
    expect(k.mapEvent(M8, 40, 0.5, Infinity)).toBeNull();
    expect(k.mapEvent(M8, 40, -Infinity, 0.5, 'keydown')).toBeNull();
  });

  it('clamps huge and negative finite coordinates to the edge cells', async () => {
    const k = await getKernel();
    expect(k.mapEvent(M8, 40, 1e308, 1e308)).toEqual({ cell: { x: 7, y: 7 }, mx: 1, my: 1 });
    expect(k.mapEvent(M8, 40, -1e308, -5)).toEqual({ cell: { x: 0, y: 0 }, mx: 0, my: 0 });
    expect(k.mapEvent(M8, 40, Number.MAX_VALUE, -Number.MAX_VALUE, 'keydown')).toEqual({ cell: { x: 7, y: 0 }, mx: 1, my: 0 });
  });
});
