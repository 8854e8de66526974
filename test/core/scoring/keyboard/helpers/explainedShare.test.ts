// The F of a least-squares fit: near 1 for samples blind to the covariates, large when they follow
// them, NaN when there is too little to fit.
import { describe, expect, it } from 'vitest';
import { fitF, fitZ, momentsOf } from '../../../../../src/core/scoring/keyboard/helpers/explainedShare.js';

const all = (rows: readonly (readonly number[])[]) => (rows[0] ?? []).map((_, j) => j);
const explainedShareF = (rows: number[][], ys: number[], min: number) => fitF(momentsOf(rows, ys), all(rows), min);
const explainedShareZ = (rows: number[][], ys: number[], min: number) => fitZ(momentsOf(rows, ys), all(rows), min);
import { Rng } from '../../../../../calibration/random.js';

describe('fitF and fitZ over momentsOf', () => {
  it('is exactly the F of the fit on a hand-worked example', () => {
    const rows = [[0], [1], [2], [3]];
    const ys = [1, 1, 5, 7];
    // Mean 3.5; slope = sum((x - 1.5)(y - 3.5)) / sum((x - 1.5)^2) = 11 / 5; total 27, explained
    // 11^2 / 5 = 24.2, residual 2.8 over 4 - 1 - 1 = 2 degrees of freedom.
    expect(explainedShareF(rows, ys, 1)).toBeCloseTo(24.2 / 1 / (2.8 / 2), 6);
  });

  it('sits near 1 on average for samples drawn whatever the covariates, far above it when they follow them', () => {
    const rng = new Rng(5);
    const rows = Array.from({ length: 60 }, () => [rng.int(0, 1), rng.int(0, 1), rng.uniform(20, 40)]);
    let blind = 0;
    for (let k = 0; k < 200; k++)
      blind += explainedShareF(
        rows,
        rows.map(() => rng.gauss()),
        2,
      );
    expect(blind / 200).toBeGreaterThan(0.8);
    expect(blind / 200).toBeLessThan(1.3);
    const following = rows.map((r) => r[0]! + 0.05 * r[2]! + 0.3 * rng.gauss());
    expect(explainedShareF(rows, following, 2)).toBeGreaterThan(10);
  });

  it('drops constant covariates, splits collinear ones, and says NaN or 0 when there is nothing to fit', () => {
    const rows = [
      [1, 0, 0],
      [1, 1, 1],
      [1, 2, 2],
      [1, 3, 3],
      [1, 4, 4],
    ];
    const ys = [0, 2, 4, 6, 8.5];
    expect(Number.isFinite(explainedShareF(rows, ys, 1))).toBe(true);
    expect(explainedShareF(rows, [1, 1, 1, 1, 1], 1)).toBe(0);
    expect(
      explainedShareF(
        rows.map(() => [7]),
        ys,
        1,
      ),
    ).toBeNaN();
    expect(explainedShareF(rows.slice(0, 3), ys.slice(0, 3), 2)).toBeNaN();
    expect(explainedShareF([], [], 2)).toBeNaN();
  });

  it('turns the F into a normal deviate: mean near 0 and spread near 1 for blind samples, whatever their number', () => {
    const rng = new Rng(9);
    for (const n of [12, 40, 150]) {
      const rows = Array.from({ length: n }, () => [rng.int(0, 1), rng.int(0, 1), rng.uniform(20, 40)]);
      const zs = Array.from({ length: 400 }, () =>
        explainedShareZ(
          rows,
          rows.map(() => rng.gauss()),
          2,
        ),
      );
      const mean = zs.reduce((a, b) => a + b, 0) / zs.length;
      const sd = Math.sqrt(zs.reduce((a, b) => a + (b - mean) ** 2, 0) / zs.length);
      expect(Math.abs(mean)).toBeLessThan(0.2);
      expect(sd).toBeGreaterThan(0.8);
      expect(sd).toBeLessThan(1.2);
    }
    expect(explainedShareZ([[0], [1], [2], [3]], [1, 1, 1, 1], 1)).toBe(-Infinity);
    expect(explainedShareZ([[0], [1]], [1, 2], 2)).toBeNaN();
  });

  it('fits a subset of the covariates from the same moments as a fit on that subset alone', () => {
    const rng = new Rng(4);
    const rows = Array.from({ length: 50 }, () => [rng.int(0, 1), rng.uniform(0, 1), rng.int(0, 3)]);
    const ys = rows.map((r) => r[1]! * 2 + rng.gauss());
    const m = momentsOf(rows, ys);
    expect(fitF(m, [1, 2], 2)).toBeCloseTo(
      explainedShareF(
        rows.map((r) => [r[1]!, r[2]!]),
        ys,
        2,
      ),
      9,
    );
    expect(fitZ(m, [0], 2)).toBeCloseTo(
      explainedShareZ(
        rows.map((r) => [r[0]!]),
        ys,
        2,
      ),
      9,
    );
  });
});
