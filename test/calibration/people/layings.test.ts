import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { every, splitTraces } from '../../../calibration/pointer/evaluate.js';
import type { HumanTrace } from '../../../calibration/people/humans.js';
import { HELD_OUT_LAYINGS, LAYINGS } from '../../../calibration/people/layings/index.js';
import { steering } from '../../../calibration/people/layings/steering.js';
import { subMovementStarts } from '../../../calibration/people/layings/subMovements.js';
import { ksDistance, layingShifts } from '../../../calibration/pointer/layingShift.js';
import { CELL } from '../../../calibration/people/mazePath.js';
import { Rng } from '../../../calibration/random.js';
import type { CalibrationKernel, Sample } from '../../../calibration/samples.js';
import {
  v3Recipe,
  GEOMETRY_FLOOR,
  SMOOTHEST_PEOPLE_SHARE,
  SMOOTHNESS_GATE_FEATURE,
  peopleShareGate,
} from '../../../calibration/pointer/v3Recipe.js';
import { FEATURE_NAMES } from '../../../src/kernel/features.js';
import { kernelWithFeatures } from '../../core/scoring/kernelWithFeatures.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const dataFile = path.resolve(repoRoot, '../shared/data/human-dev.jsonl');
const present = existsSync(dataFile);

describe('ksDistance', () => {
  it('is 0 for one sample against itself, 1 for samples that do not overlap, and the largest CDF gap otherwise', () => {
    expect(ksDistance([1, 2, 3], [3, 2, 1])).toBe(0);
    expect(ksDistance([1, 2], [3, 4, 5])).toBe(1);
    // CDFs at 2: 2/4 against 0/2; at 3: 3/4 against 1/2.
    expect(ksDistance([1, 2, 3, 4], [3, 5])).toBe(0.5);
  });
});

describe('v3Recipe', () => {
  it('leaves out a feature that moves with the laying more than it separates bots, and bounds the corridor geometry that stays', () => {
    // Two layings of the same 40 "people" and one bot family, on three features: on_rail_fraction
    // moves with the laying, efficiency_ratio separates the bots, interval_cv is the person's own.
    const slot = (f: (typeof FEATURE_NAMES)[number]) => FEATURE_NAMES.indexOf(f);
    const values = new Map<Sample, Float64Array>();
    const sample = (kind: string, rail: number, efficiency: number, interval: number): Sample => {
      const s = { kind, user: kind, maze: { seed: 1, width: 5, height: 5, difficulty: 0.5 }, events: [] } as Sample;
      const v = new Float64Array(FEATURE_NAMES.length);
      v[slot('on_rail_fraction')] = rail;
      v[slot('efficiency_ratio')] = efficiency;
      v[slot('interval_cv')] = interval;
      values.set(s, v);
      return s;
    };
    const rng = new Rng(4);
    const people = (railShift: number) =>
      Array.from({ length: 40 }, () => sample('human', railShift + rng.uniform(0, 0.2), 1 + rng.uniform(0, 0.2), 1 + rng.uniform(0, 1)));
    const bots = Array.from({ length: 40 }, () => sample('bot', 0.5 + rng.uniform(0, 0.4), 2 + rng.uniform(0, 0.2), rng.uniform(0, 0.1)));
    const shifts = layingShifts(['on_rail_fraction', 'efficiency_ratio', 'interval_cv'], values, { a: people(0), b: people(0.5) }, bots);
    const rail = shifts.find((s) => s.feature === 'on_rail_fraction')!;
    expect(rail.byLaying).toBe(1);
    expect(rail.separation).toBeLessThan(1);
    const recipe = v3Recipe(shifts);
    const options = recipe.optionsFor([...values.values()]);
    expect(recipe.dropped).toEqual(['on_rail_fraction']);
    expect(recipe.bounded).toContain('efficiency_ratio');
    expect(recipe.bounded).not.toContain('interval_cv');
    expect(options.features!.map(([f]) => f)).not.toContain('on_rail_fraction');
    expect(options.boundedFloor).toBe(GEOMETRY_FLOOR);
    expect(options.onlyLowers).toBe(true);
  });

  it('gates motion smoother than all but a thousandth of the people it is given, read from those people', () => {
    const rows = (values: number[]) =>
      values.map((v) => {
        const row = new Float64Array(FEATURE_NAMES.length);
        row[FEATURE_NAMES.indexOf(SMOOTHNESS_GATE_FEATURE)] = v;
        return row;
      });
    // 2,000 people at 1..2000 (and one who gave no value): the gate sits at the third smallest.
    const people = rows([...Array.from({ length: 2000 }, (_, i) => 2000 - i), NaN]);
    const recipe = v3Recipe([]);
    expect(SMOOTHEST_PEOPLE_SHARE).toBe(0.001);
    expect(recipe.optionsFor(people).gates).toEqual([{ feature: SMOOTHNESS_GATE_FEATURE, below: 3 }]);
    expect(recipe.optionsFor(rows([0.5, 0.7, 0.9])).gates).toEqual([{ feature: SMOOTHNESS_GATE_FEATURE, below: 0.5 }]);
    expect(peopleShareGate('jerk_norm', rows([1.234567891, 5]), 0.001).below).toBe(1.2346);
    expect(() => recipe.optionsFor(rows([NaN]))).toThrow(/no person/);
  });
});

describe('subMovementStarts', () => {
  it('splits at speed valleys and rests', () => {
    // Two bell-shaped strokes 10 ms apart, then a 200 ms rest and a third stroke.
    const points: HumanTrace['points'] = [];
    let x = 0,
      t = 0;
    for (const gap of [0, 0, 200]) {
      t += gap;
      for (let k = 0; k < 30; k++) {
        x += Math.sin((Math.PI * (k + 0.5)) / 30) * 10;
        t += 10;
        points.push({ x, y: 0, t, ax: 0, ay: 0, bx: 0, by: 0 });
      }
    }
    const starts = subMovementStarts(points);
    expect(starts[0]).toBe(0);
    expect(starts).toHaveLength(3);
    expect(Math.abs(starts[1]! - 30)).toBeLessThanOrEqual(2);
    expect(starts[2]).toBe(60);
  });
});

describe('the steering laying', () => {
  it("moves as far as the person between points, rests when they rest, and stays in the solution's corridors", async () => {
    const kernel = await kernelWithFeatures();
    // Two 600 px strokes at 4 px per 10 ms with a wobble off their chord (none at their ends), a 500 ms rest between.
    const points: HumanTrace['points'] = [];
    let t = 0;
    for (const stroke of [0, 1]) {
      for (let k = 0; k <= 150; k++) {
        points.push({
          x: stroke * 600 + 4 * k,
          y: 6 * Math.sin((3 * Math.PI * k) / 150),
          t,
          ax: stroke * 600,
          ay: 0,
          bx: stroke * 600 + 600,
          by: 0,
        });
        t += 10;
      }
      t += 500;
    }
    const trace: HumanTrace = { user: 'u', source: 's', points, pathPx: 1200 };
    const maze = kernel.generateMaze(steering.mazeFor(kernel, new Rng(3), trace));
    const events = steering.lay(trace, maze, new Rng(3)).filter((e) => e.type !== 'up');
    expect(events.map((e) => e.t)).toEqual(points.map((p) => p.t));
    const w = maze.width * CELL + 40,
      h = maze.height * CELL + 64;
    const px = events.map((e) => ({ x: e.x * w, y: e.y * h }));
    // The rest between the strokes: the same point (the last of the first stroke, the first of the second).
    expect(px[151]).toEqual(px[150]);
    const onSolution = new Set(maze.solution.map((c) => c.y * maze.width + c.x));
    for (const p of px) expect(onSolution.has(Math.floor((p.y - 20) / CELL) * maze.width + Math.floor((p.x - 20) / CELL))).toBe(true);
    // Along the way the laid point covers about the person's 4 px per 10 ms (turns and the wobble
    // move single steps; the pursuit's corner cuts shorten it a little).
    const covered = px.slice(1, 151).reduce((sum, p, i) => sum + Math.hypot(p.x - px[i]!.x, p.y - px[i]!.y), 0);
    expect(covered).toBeGreaterThan(0.85 * 600);
    expect(covered).toBeLessThan(1.15 * 600);
  });
});

describe.skipIf(!present)('layings of held-out people', () => {
  let kernel: CalibrationKernel;
  let traces: HumanTrace[];
  beforeAll(async () => {
    kernel = await kernelWithFeatures();
    traces = every(splitTraces(dataFile).heldOut, 30);
  });

  it.each([...LAYINGS, ...HELD_OUT_LAYINGS].map((l) => [l.name, l] as const))(
    '%s keeps every point and timestamp and stays inside the corridors of the solution',
    (_, laying) => {
      const rng = new Rng(9);
      for (const trace of traces) {
        const params = laying.mazeFor(kernel, rng, trace);
        const maze = kernel.generateMaze(params);
        const events = laying.lay(trace, maze, rng);
        const moves = events.filter((e) => e.type !== 'up');
        expect(moves.map((e) => e.t)).toEqual(trace.points.map((p) => p.t));
        const onSolution = new Set(maze.solution.map((c) => c.y * maze.width + c.x));
        for (const e of moves) {
          const px = e.x * (maze.width * CELL + 40) - 20,
            py = e.y * (maze.height * CELL + 64) - 20;
          const cell = Math.floor(py / CELL) * maze.width + Math.floor(px / CELL);
          expect(onSolution.has(cell), `${laying.name}: a point off the solution's corridors`).toBe(true);
        }
      }
    },
  );

  it('lays the same person a different way in each laying', () => {
    const rng = new Rng(10);
    const trace = traces[0]!;
    const layings = [...LAYINGS, ...HELD_OUT_LAYINGS];
    const laid = layings.map((l) => {
      const maze = kernel.generateMaze(l.mazeFor(kernel, new Rng(10), trace));
      return l
        .lay(trace, maze, rng)
        .map((e) => `${e.x.toFixed(4)},${e.y.toFixed(4)}`)
        .join(' ');
    });
    expect(new Set(laid).size).toBe(layings.length);
  });
});
