import { beforeAll, describe, expect, it } from 'vitest';
import { CELL, centre, toEvents } from '../../../calibration/people/mazePath.js';
import { worstDetour } from '../../../calibration/people/steps.js';
import type { CalibrationKernel, Sample } from '../../../calibration/samples.js';
import { packEvents, type Maze, type MazeParams } from '../../../src/kernel/index.js';
import { kernelWithFeatures } from '../../core/scoring/kernelWithFeatures.js';

describe('worstDetour', () => {
  let kernel: CalibrationKernel;
  // A maze whose solution bends back on itself enough for jumps 2, 4 and 6 steps over.
  const params: MazeParams = { seed: 9, width: 16, height: 16, difficulty: 0.8 };
  let maze: Maze;
  beforeAll(async () => {
    kernel = await kernelWithFeatures();
    maze = kernel.generateMaze(params);
  });

  /** A walk along the solution cell by cell, but jumping from its `from`-th cell to its `to`-th. */
  const jumping = (from: number, to: number): Sample => {
    const cells = maze.solution.filter((_, i) => i <= from || i >= to);
    const events = toEvents(
      maze,
      cells.map((c, i) => ({ ...centre(c), t: 16 * i })),
    );
    return { kind: 'human', user: 'u', maze: params, events };
  };
  /** The first jump along the solution whose route exceeds the cells' distance by `excess` steps. */
  const jumpOver = (excess: number): [number, number] => {
    const s = maze.solution;
    for (let i = 0; i < s.length; i++) {
      for (let j = i + 2; j < s.length; j++) {
        if (j - i - Math.abs(s[j]!.x - s[i]!.x) - Math.abs(s[j]!.y - s[i]!.y) === excess) return [i, j];
      }
    }
    throw new Error(`no jump ${excess} steps over on this maze`);
  };
  const replays = (s: Sample) => kernel.replay(s.maze, packEvents(s.events), CELL, { kind: 'verify' }).valid;

  it("is 0 for a walk cell by cell, and says by how much a jump round a bend exceeds the cells' distance", () => {
    expect(worstDetour(kernel, jumping(0, 1))).toBe(0);
    for (const excess of [2, 4, 6]) expect(worstDetour(kernel, jumping(...jumpOver(excess)))).toBe(excess);
  });

  it("agrees with path replay's bounded detour: a jump up to 4 steps over replays, one 6 over does not", () => {
    expect(replays(jumping(...jumpOver(4)))).toBe(true);
    expect(replays(jumping(...jumpOver(6)))).toBe(false);
  });
});
