import { describe, expect, it } from 'vitest';
import { PROBE_COLORS, probeLayout } from '../../../src/core/probe/probeLayout.js';
import { loadKernel } from '../../../src/kernel/index.js';

const kernel = await loadKernel();

describe('probeLayout', () => {
  it.each([
    [8, 8],
    [2, 2],
    [3, 9],
    [32, 32],
  ])('on %ix%i mazes: trigger on the solution (not start or exit), distinct cells and colours, one target', (width, height) => {
    for (let seed = 0; seed < 200; seed++) {
      const maze = { seed: (seed * 2654435761) >>> 0, width, height, difficulty: 0.3 };
      const p = probeLayout(kernel, maze, seed);
      const { solution } = kernel.generateMaze(maze);
      const at = solution.findIndex((c) => c.x === p.trigger.x && c.y === p.trigger.y);
      expect(at).toBeGreaterThan(0);
      expect(at).toBeLessThan(solution.length - 1);
      expect(p.cells.length).toBe(Math.min(6, width * height - 1));
      expect(new Set(p.cells.map((c) => `${c.x},${c.y}`)).size).toBe(p.cells.length);
      expect(new Set(p.cells.map((c) => c.color)).size).toBe(p.cells.length);
      expect(p.cells.some((c) => c.x === p.trigger.x && c.y === p.trigger.y)).toBe(false);
      for (const c of p.cells) expect(c.x >= 0 && c.x < width && c.y >= 0 && c.y < height).toBe(true);
      expect(p.cells.filter((c) => c.color === p.targetColor)).toEqual([{ ...p.target, color: p.targetColor }]);
      expect(p.distractorColors).toHaveLength(p.cells.length - 1);
      expect(PROBE_COLORS.find((c) => c.hex === p.targetColor)?.name).toBe(p.targetName);
      expect(probeLayout(kernel, maze, seed)).toEqual(p);
    }
  });

  it('spreads the target over the cells', () => {
    const seen = new Set<number>();
    for (let seed = 0; seed < 200; seed++) {
      const p = probeLayout(kernel, { seed: 7, width: 8, height: 8, difficulty: 0.3 }, seed);
      seen.add(p.cells.findIndex((c) => c.color === p.targetColor));
    }
    expect(seen.size).toBe(6);
  });
});
