// Keyboard features from keystrokes over a known maze: what counts as a press, a repeat, a hold,
// a decision and a straight-run step, and what the contrasts say about gaps blind to the maze.
import { beforeAll, describe, expect, it } from 'vitest';
import { KEYBOARD_FEATURE_NAMES, measureKeyboard } from '../../../../src/core/scoring/keyboard/measureKeyboard.js';
import { readKeystrokes } from '../../../../src/core/scoring/keyboard/readKeystrokes.js';
import { loadKernel, type Cell, type Maze, type RawEvent } from '../../../../src/kernel/index.js';
import { keyBetween, openNeighbours } from '../../../../calibration/keyboard/keyboardEvents.js';
import { announcementLength } from '../../../../src/core/scoring/keyboard/announcementLength.js';

let maze: Maze;
beforeAll(async () => {
  const kernel = await loadKernel();
  // A maze whose solution has straight runs, turns and junctions.
  for (let seed = 1; ; seed++) {
    maze = kernel.generateMaze({ seed, width: 8, height: 8, difficulty: 0.3 });
    const f = measure(
      solve(
        () => 200,
        () => 90,
      ),
    );
    if (!Number.isNaN(f.keyboard_decision_contrast) && !Number.isNaN(f.keyboard_choice_contrast)) break;
  }
});

const centre = (c: Cell) => ({ x: (c.x + 0.5) / maze.width, y: (c.y + 0.5) / maze.height });

function measure(events: RawEvent[]): Record<(typeof KEYBOARD_FEATURE_NAMES)[number], number> {
  const values = measureKeyboard(maze, readKeystrokes(maze, events));
  return Object.fromEntries(KEYBOARD_FEATURE_NAMES.map((n, i) => [n, values[i]!])) as never;
}

/** The solution by arrow keys: gap(i, turns, junction) before press i, hold(i) or null for no keyup. */
function solve(gap: (i: number, turns: boolean, junction: boolean) => number, hold: (i: number) => number | null): RawEvent[] {
  const cells = maze.solution;
  const events: RawEvent[] = [];
  let t = 0;
  for (let i = 1; i < cells.length; i++) {
    const key = keyBetween(cells[i - 1]!, cells[i]!);
    const turns = i > 1 && key !== keyBetween(cells[i - 2]!, cells[i - 1]!);
    const walls = maze.walls[cells[i - 1]!.y * maze.width + cells[i - 1]!.x]!;
    const junction = 4 - [1, 2, 4, 8].filter((w) => walls & w).length >= 3;
    if (i > 1) t += gap(i, turns, junction);
    events.push({ ...centre(cells[i]!), t, type: 'keydown', key });
    const h = hold(i);
    if (h !== null) events.push({ ...centre(cells[i]!), t: t + h, type: 'keyup', key });
  }
  return events;
}

describe('readKeystrokes', () => {
  it('pairs keyups with their press, marks held keys as repeats and rollover as overlap', () => {
    const a = centre(maze.start);
    const events: RawEvent[] = [
      { ...a, t: 0, type: 'keydown', key: 'ArrowRight' },
      { ...a, t: 40, type: 'keydown', key: 'ArrowRight' },
      { ...a, t: 70, type: 'keydown', key: 'ArrowDown' },
      { ...a, t: 100, type: 'keyup', key: 'ArrowRight' },
      { ...a, t: 150, type: 'keyup', key: 'ArrowDown' },
      { ...a, t: 200, type: 'keydown' },
      null as unknown as RawEvent,
      { ...a, t: Number.NaN, type: 'keydown', key: 'ArrowUp' },
    ];
    const strokes = readKeystrokes(maze, events);
    expect(strokes.map((s) => [s.key, s.repeat, s.overlapped, s.hold])).toEqual([
      ['ArrowRight', false, false, 100],
      ['ArrowRight', true, false, NaN],
      ['ArrowDown', false, true, 80],
      ['', false, false, NaN],
    ]);
  });
});

describe('measureKeyboard', () => {
  it('sees a person-like solve: pauses where the maze asks for a decision, ~90 ms holds, every key released', () => {
    const f = measure(
      solve(
        (i, turns, junction) => 180 + (turns ? 250 : 0) + (junction ? 300 : 0) + (i % 3) * 10,
        (i) => 80 + (i % 4) * 10,
      ),
    );
    expect(f.keyboard_keyup_fraction).toBe(1);
    expect(f.keyboard_hold_median).toBeCloseTo(0.095, 2);
    expect(f.keyboard_hold_spread).toBeGreaterThan(0);
    expect(f.keyboard_decision_contrast).toBe(1);
    expect(f.keyboard_load_correlation).toBeGreaterThan(0.8);
    expect(f.keyboard_choice_contrast).toBeGreaterThan(0.9);
    expect(f.keyboard_overlap_fraction).toBe(0);
  });

  it('puts gaps blind to the maze at no contrast: a fixed rhythm ties everything at 0.5 and has no spread', () => {
    const f = measure(
      solve(
        () => 150,
        () => 60,
      ),
    );
    expect(f.keyboard_decision_contrast).toBe(0.5);
    expect(f.keyboard_choice_contrast).toBe(0.5);
    expect(f.keyboard_gap_spread).toBe(0);
    expect(f.keyboard_load_correlation).toBe(0);
    expect(f.keyboard_hold_spread).toBe(0);
  });

  it('reads a solve without keyups as held keys: no keyups, and too few presses for the contrasts', () => {
    const f = measure(
      solve(
        () => 200,
        () => null,
      ),
    );
    expect(f.keyboard_keyup_fraction).toBe(0);
    expect(f.keyboard_hold_median).toBeNaN();
  });

  it('takes any events without throwing: stray keyups, times going back, points off the maze, odd keys', () => {
    const odd: RawEvent[] = [
      { x: 0.5, y: 0.5, t: 10, type: 'keyup', key: 'ArrowUp' },
      { x: -3, y: 9, t: 5, type: 'keydown', key: 'ArrowUp' },
      { x: 0.9, y: 0.1, t: -100, type: 'keydown', key: 7 as unknown as string },
      { x: Number.NaN, y: 0.1, t: 0, type: 'keydown', key: 'ArrowLeft' },
      { x: 0.2, y: 0.2, t: 1e12, type: 'keydown' },
      { x: 0.2, y: 0.2, t: 1e12, type: 'keyup' },
      ...Array.from({ length: 50 }, (_, i) => ({
        x: (i % 8) / 8,
        y: 0.1,
        t: i % 3 === 0 ? 0 : i * 10,
        type: i % 2 ? 'keydown' : 'keyup',
        key: 'ArrowRight',
      })),
    ];
    const values = measureKeyboard(maze, readKeystrokes(maze, odd));
    expect(values).toHaveLength(KEYBOARD_FEATURE_NAMES.length);
    for (const v of values) expect(Number.isNaN(v) || Number.isFinite(v)).toBe(true);
  });

  it('measures nothing from no keystrokes', () => {
    expect([...measureKeyboard(maze, readKeystrokes(maze, []))].every(Number.isNaN)).toBe(true);
  });
});

/** Arrow presses through `cells` (neighbours, or the same cell for a press into a wall by `wallKey`), gap(i) before press i. */
function pressThrough(cells: readonly Cell[], gap: (i: number) => number, wallKey = 'ArrowUp'): RawEvent[] {
  let t = 0;
  return cells.slice(1).flatMap((c, j) => {
    const i = j + 1;
    if (i > 1) t += gap(i);
    const from = cells[i - 1]!;
    const key = c.x === from.x && c.y === from.y ? wallKey : keyBetween(from, c);
    return [
      { ...centre(c), t, type: 'keydown', key },
      { ...centre(c), t: t + 80 + (i % 3) * 10, type: 'keyup', key },
    ];
  });
}

/** The solution with a detour: at each junction on it, one cell into a side branch and back. */
function withDetours(): Cell[] {
  const sol = maze.solution;
  const out: Cell[] = [sol[0]!];
  for (let i = 1; i < sol.length; i++) {
    const here = sol[i - 1]!;
    const side = openNeighbours(maze, here).find(
      (n) => !(n.x === sol[i]!.x && n.y === sol[i]!.y) && !(i > 1 && n.x === sol[i - 2]!.x && n.y === sol[i - 2]!.y),
    );
    if (side !== undefined) out.push(side, here);
    out.push(sol[i]!);
  }
  return out;
}

describe('measureKeyboard: what exploring, scanning and listening leave in the gaps', () => {
  it('sees gaps that follow the length of the announcement just heard, and not the same gaps reordered', () => {
    const cells = withDetours();
    const spoken = (i: number) => 40 * announcementLength(maze, cells[i - 1]!, false) + (i % 2) * 15;
    expect(measure(pressThrough(cells, spoken)).keyboard_gap_structure).toBeGreaterThan(3);
    const reordered = measure(pressThrough(cells, (i) => spoken(((i * 7) % (cells.length - 2)) + 2)));
    expect(reordered.keyboard_gap_structure).toBeLessThan(2);
  });

  it('sees gaps that hurry back through visited cells, and not the same gaps reordered', () => {
    const cells = withDetours();
    const seen = new Set<string>();
    const fresh = cells.map((c) => {
      const k = `${c.x},${c.y}`;
      const isNew = !seen.has(k);
      seen.add(k);
      return isNew;
    });
    expect(fresh.filter((f) => !f).length).toBeGreaterThanOrEqual(4);
    const hurried = (i: number) => (fresh[i] ? 1200 : 300) + (i % 4) * 40;
    expect(measure(pressThrough(cells, hurried)).keyboard_gap_structure).toBeGreaterThan(3);
    expect(measure(pressThrough(cells, (i) => hurried(((i * 7) % (cells.length - 2)) + 2))).keyboard_gap_structure).toBeLessThan(2);
  });

  it('finds the share of the gaps that is the key: near 1 for a delay per key, near 0 for the same gaps by the maze', () => {
    const byKey = { ArrowUp: 700, ArrowDown: 1400, ArrowLeft: 2100, ArrowRight: 2800 } as Record<string, number>;
    const keyed = measure(
      solve(
        (i) => byKey[keyBetween(maze.solution[i - 1]!, maze.solution[i]!)]! + (i % 3) * 20,
        () => 300,
      ),
    );
    expect(keyed.keyboard_key_gap_share).toBeGreaterThan(0.9);
    const blind = measure(
      solve(
        (i) => [700, 2800, 1400, 2100][(i * 5) % 4]!,
        () => 300,
      ),
    );
    expect(blind.keyboard_key_gap_share).toBeLessThan(0.5);
  });

  it('sees gap structure of any kind, little in gaps blind to the maze, and none in a fixed rhythm', () => {
    const fork = measure(
      solve(
        (i, turns, junction) => 180 + (turns ? 250 : 0) + (junction ? 300 : 0) + (i % 3) * 10,
        () => 90,
      ),
    );
    expect(fork.keyboard_gap_structure).toBeGreaterThan(3);
    // The same gaps in another order follow nothing.
    const gaps = maze.solution.map((_, i) => 180 + (i % 3) * 250 + (i % 2) * 300);
    expect(
      measure(
        solve(
          (i) => gaps[(i * 5) % gaps.length]!,
          () => 90,
        ),
      ).keyboard_gap_structure,
    ).toBeLessThan(2);
    // A fixed rhythm has nothing to explain: as far from a person as can be.
    expect(
      measure(
        solve(
          () => 150,
          () => 60,
        ),
      ).keyboard_gap_structure,
    ).toBe(-Infinity);
  });
});
