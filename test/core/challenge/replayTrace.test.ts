import { beforeAll, describe, expect, it } from 'vitest';
import { DEPLOYED_WIDGET_CELL_SIZES, replayTrace } from '../../../src/core/challenge/replayTrace.js';
import type { Cell, Kernel, Maze, RawEvent, ReplayMode } from '../../../src/kernel/types.js';
import { loadKernel } from '../../../src/kernel/index.js';
import { canvasCentre } from '../../kernel/helpers/events.js';

const PARAMS = { seed: 42, width: 8, height: 8, difficulty: 0.3 };
const VERIFY: ReplayMode = { kind: 'verify' };

let k: Kernel;
let maze: Maze;
beforeAll(async () => {
  k = await loadKernel();
  maze = k.generateMaze(PARAMS);
});

/**
 * Pointer events on the canvas of `cellSize`: a down on the start, then one move per step just
 * past the edge into the next cell. Read on the canvas of a larger cell size, every point moves
 * towards the middle of the maze (the margins weigh less there), and the last one falls short
 * of the exit.
 */
function edgeTrace(cells: readonly Cell[], cellSize: number): RawEvent[] {
  const w = PARAMS.width * cellSize + 40;
  const h = PARAMS.height * cellSize + 64;
  const events: RawEvent[] = [{ ...canvasCentre(cells[0]!, PARAMS.width, PARAMS.height, cellSize), t: 0, type: 'down' }];
  for (let i = 1; i < cells.length; i++) {
    const a = cells[i - 1]!;
    const b = cells[i]!;
    const X = a.x + 0.5 + (b.x - a.x) * 0.55;
    const Y = a.y + 0.5 + (b.y - a.y) * 0.55;
    events.push({ x: (20 + X * cellSize) / w, y: (20 + Y * cellSize) / h, t: i * 40, type: 'move' });
  }
  return events;
}

const replayOn = (events: RawEvent[], cellSize: number) => k.replay(maze, k.packEvents(events), cellSize, VERIFY);

describe("replayTrace: the issued canvas, then the deployed widget's", () => {
  it("walks a trace of the deployed widget's compact canvas (28 px cells) that the 40 px canvas does not", () => {
    const events = edgeTrace(maze.solution, 28);
    expect(replayOn(events, 40).valid).toBe(false);
    const r = replayTrace(k, maze, k.packEvents(events), 40, VERIFY);
    expect(r).toEqual({ replay: replayOn(events, 28), cellSize: 28 });
    expect(r.replay.cells).toEqual(maze.solution);
  });

  it("walks a trace of the deployed widget's 40 px canvas when another cell size was issued", () => {
    const events = edgeTrace(maze.solution, 40);
    expect(replayOn(events, 60).valid).toBe(false);
    expect(replayTrace(k, maze, k.packEvents(events), 60, VERIFY)).toEqual({ replay: replayOn(events, 40), cellSize: 40 });
  });

  it('takes the issued canvas first when it walks', () => {
    const events = edgeTrace(maze.solution, 24);
    expect(replayTrace(k, maze, k.packEvents(events), 24, VERIFY)).toEqual({ replay: replayOn(events, 24), cellSize: 24 });
    expect(replayOn(events, 24).valid).toBe(true);
  });

  it("answers the issued canvas's walk when no canvas walks: another cell size is not guessed", () => {
    const events = edgeTrace(maze.solution, 16);
    expect(replayOn(events, 16).valid).toBe(true);
    for (const size of DEPLOYED_WIDGET_CELL_SIZES) expect(replayOn(events, size).valid).toBe(false);
    expect(replayTrace(k, maze, k.packEvents(events), 40, VERIFY)).toEqual({ replay: replayOn(events, 40), cellSize: 40 });
  });

  it('applies to the probe prefix too', () => {
    const trigger = maze.exit;
    const events = edgeTrace(maze.solution, 28);
    const mode: ReplayMode = { kind: 'probe', trigger };
    expect(k.replay(maze, k.packEvents(events), 40, mode).valid).toBe(false);
    expect(replayTrace(k, maze, k.packEvents(events), 40, mode)).toMatchObject({ replay: { valid: true }, cellSize: 28 });
  });
});
