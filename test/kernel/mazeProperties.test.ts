import { describe, expect, it } from 'vitest';
import { MAX_MAZE_SIDE, MIN_MAZE_SIDE, WALL_E, WALL_N, WALL_S, WALL_W } from '../../src/kernel/index.js';
import { pointerTrace } from './helpers/events.js';
import { getKernel } from './helpers/kernel.js';
import { bfsParents, mulberry32, openNeighbours, referenceWalls } from './helpers/referenceMaze.js';

const SEEDS = 1200;
const DIFFICULTIES = [0, 0.01, 0.3, 0.5, 0.75, 0.999, 1];

describe('maze properties over many seeds', () => {
  it(`${SEEDS} mazes of mixed sizes and difficulties are perfect and solved`, async () => {
    const k = await getKernel();
    const pick = mulberry32(0xa11ad4e);
    for (let i = 0; i < SEEDS; i++) {
      const seed = Math.floor(pick() * 2 ** 32);
      const span = MAX_MAZE_SIDE - MIN_MAZE_SIDE + 1;
      const width = i < 4 ? [2, 32, 2, 32][i]! : MIN_MAZE_SIDE + Math.floor(pick() * span);
      const height = i < 4 ? [2, 32, 32, 2][i]! : MIN_MAZE_SIDE + Math.floor(pick() * span);
      const difficulty = i % 3 === 0 ? DIFFICULTIES[i % DIFFICULTIES.length]! : pick();
      const maze = k.generateMaze({ seed, width, height, difficulty });
      const { walls } = maze;
      const where = `seed ${seed} ${width}x${height} d=${difficulty}`;

      expect(walls, where).toEqual(referenceWalls(seed, width, height, difficulty));

      // Border walls intact, inner walls agree on both sides, W*H-1 passages.
      let passages = 0;
      const broken: string[] = [];
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          const c = walls[y * width + x]!;
          if (y === 0 && !(c & WALL_N)) broken.push(`${x},${y} N border`);
          if (x === 0 && !(c & WALL_W)) broken.push(`${x},${y} W border`);
          if (y === height - 1 && !(c & WALL_S)) broken.push(`${x},${y} S border`);
          if (x === width - 1 && !(c & WALL_E)) broken.push(`${x},${y} E border`);
          if (x < width - 1) {
            if (!(c & WALL_E) !== !(walls[y * width + x + 1]! & WALL_W)) broken.push(`${x},${y} E/W mismatch`);
            if (!(c & WALL_E)) passages++;
          }
          if (y < height - 1) {
            if (!(c & WALL_S) !== !(walls[(y + 1) * width + x]! & WALL_N)) broken.push(`${x},${y} S/N mismatch`);
            if (!(c & WALL_S)) passages++;
          }
        }
      }
      expect(broken, where).toEqual([]);
      expect(passages, where).toBe(width * height - 1);

      // Connected with n-1 edges: a tree, so the start-exit path is unique: BFS finds it.
      const parent = bfsParents(walls, width, height);
      expect(
        parent.every((p) => p >= 0),
        where,
      ).toBe(true);
      const path: number[] = [];
      for (let c = width * height - 1; c !== 0; c = parent[c]!) path.push(c);
      path.push(0);
      path.reverse();
      const solution = maze.solution.map((c) => c.y * width + c.x);
      expect(solution, where).toEqual(path);
      const closedSteps = solution.filter((c, j) => j > 0 && !openNeighbours(walls, width, solution[j - 1]!).includes(c));
      expect(closedSteps, where).toEqual([]);
      expect(new Set(solution).size, where).toBe(solution.length);

      const profile = k.profile({ seed, width, height, difficulty });
      expect(profile.solutionLength, where).toBe(solution.length);
      expect(profile.optimalEfficiency, where).toBeGreaterThan(0);
      expect(profile.optimalEfficiency, where).toBeLessThanOrEqual(1);

      // Tracing the solution with the pointer is a valid path, and a valid probe prefix.
      if (i % 10 === 0) {
        const events = k.packEvents(pointerTrace(maze.solution, width, height, 40));
        const verify = k.replay(maze, events, 40, { kind: 'verify' });
        expect(verify.valid, where).toBe(true);
        expect(verify.cells, where).toEqual(maze.solution);
        const probe = k.replay(maze, events, 40, { kind: 'probe', trigger: maze.exit });
        expect(probe.valid, where).toBe(true);
      }
    }
  });
});
