import type { Cell, Maze } from '../../src/kernel/index.js';
import type { Rng } from '../random.js';
import { type PlannedStroke, keyBetween, keyIntoWall, openNeighbours } from './keyboardEvents.js';

/** What the model assumes of people, switched off one by one to see what the human figure rests on. */
export interface HumanAssumptions {
  /** Changing key takes a finger movement. */
  keyChangeCost: boolean;
  /** Leaving a junction takes a choice time, and sometimes a look ahead. */
  choiceTime: boolean;
}

export const FULL_MODEL: HumanAssumptions = { keyChangeCost: true, choiceTime: true };

/**
 * A MODEL of a person solving a maze with the arrow keys, built from the keystroke and
 * choice-reaction literature, not from recordings (there is no human keyboard data here):
 * - a straight run along a corridor is a tapping rhythm, 150-260 ms a press with 12-25%
 *   variation (self-paced repetitive tapping; slower than the 6-7 Hz maximum rate);
 * - changing key (a turn, a reversal) adds a finger movement of 60-200 ms;
 * - leaving a junction adds a choice time of 80-180 ms per bit over the options left
 *   (Hick-Hyman), and sometimes a look ahead along the maze (200-600 ms, more than half the time
 *   for some people, rarely for others who planned the route at the start);
 * - holds of 70-140 ms (median per person) varying by 15-35% from press to press;
 * - some people keep a key down along longer corridors: the first repeat after 300-600 ms, then
 *   one every 33-83 ms, released a reaction time (150-300 ms) after the cursor stops, so the
 *   last repeats meet the wall;
 * - rollover: at some key changes the new key goes down before the old one comes up;
 * - occasional hesitations anywhere, presses into a wall then the right key, and wrong turns at
 *   junctions: a few cells into the wrong branch (or to its dead end), a pause, and back.
 */
export function humanKeyboard(rng: Rng, maze: Maze, assume: HumanAssumptions = FULL_MODEL): PlannedStroke[] {
  const lognormal = (median: number, sd: number) => median * Math.exp(sd * rng.gauss());
  const person = {
    tap: rng.uniform(150, 260),
    tapSd: rng.uniform(0.12, 0.25),
    switchCost: rng.uniform(60, 200),
    hickPerBit: rng.uniform(80, 180),
    lookAhead: rng.uniform(0.1, 0.8),
    lookMedian: rng.uniform(200, 600),
    hold: rng.uniform(70, 140),
    holdSd: rng.uniform(0.15, 0.35),
    rollover: rng.uniform(0, 0.3),
    hesitation: rng.uniform(0.01, 0.06),
    wallSlip: rng.uniform(0, 0.04),
    wrongTurn: rng.uniform(0, 0.15),
    keepsKeysDown: rng.next() < 0.25,
    repeatDelay: rng.uniform(300, 600),
    repeatEvery: rng.pick([33, 33, 50, 83]),
  };
  const route = walkWithMistakes(rng, maze, person.wrongTurn);
  const strokes: PlannedStroke[] = [];
  let t = rng.uniform(600, 2500);
  let last: PlannedStroke | undefined;
  let previousKey: string | undefined;
  const press = (key: string, to: Cell) => {
    const hold = Math.max(25, lognormal(person.hold, person.holdSd));
    const stroke: PlannedStroke = { t, key, to, hold };
    // Rollover: the old key comes up after the new one went down.
    if (last !== undefined && last.key !== key && last.hold !== null && rng.next() < person.rollover) {
      last.hold = Math.max(last.hold, t - last.t + rng.uniform(10, 60));
    }
    strokes.push(stroke);
    last = stroke;
    previousKey = key;
  };
  for (let i = 1; i < route.length; i++) {
    const from = route[i - 1]!,
      to = route[i]!;
    const key = keyBetween(from.cell, to.cell);
    if (i > 1) {
      let gap = lognormal(person.tap, person.tapSd);
      if (key !== previousKey && assume.keyChangeCost) gap += lognormal(person.switchCost, 0.3);
      const options = openNeighbours(maze, from.cell).length - 1;
      if (options >= 2 && assume.choiceTime) {
        gap += person.hickPerBit * Math.log2(options + 1) * Math.exp(0.3 * rng.gauss());
        if (rng.next() < person.lookAhead) gap += lognormal(person.lookMedian, 0.5);
      }
      if (from.realises) gap += lognormal(450, 0.4);
      if (rng.next() < person.hesitation) gap += lognormal(350, 0.6);
      t += gap;
    }
    const slip = keyIntoWall(maze, from.cell, (keys) => rng.pick(keys));
    if (i > 1 && slip !== undefined && rng.next() < person.wallSlip) {
      press(slip, from.cell);
      t += lognormal(person.tap, person.tapSd) + lognormal(300, 0.4);
    }
    const run = straightRun(route, i);
    if (person.keepsKeysDown && key === previousKey && run >= 2 && i > 1) {
      // Held along the corridor: this press, then repeats every repeatEvery ms after the delay.
      press(key, to.cell);
      const down = last!;
      let at = t + person.repeatDelay;
      for (let k = 1; k < run; k++, at += person.repeatEvery) strokes.push({ t: at, key, to: route[i + k]!.cell, hold: null });
      const stop = at - person.repeatEvery;
      const end = route[i + run - 1]!.cell;
      const d = { x: 2 * end.x - route[i + run - 2]!.cell.x, y: 2 * end.y - route[i + run - 2]!.cell.y };
      const wallAhead = !openNeighbours(maze, end).some((n) => n.x === d.x && n.y === d.y);
      // Against a wall the key comes up a reaction time after the cursor stops (the last repeats
      // meet the wall); before an opening the person lets go just in time.
      const release = wallAhead ? stop + rng.uniform(150, 300) : stop + rng.uniform(10, person.repeatEvery - 5);
      for (; at < release; at += person.repeatEvery) strokes.push({ t: at, key, to: end, hold: null });
      down.hold = release - down.t;
      t = Math.max(release, stop);
      i += run - 1;
      continue;
    }
    press(key, to.cell);
  }
  return strokes;
}

/** Cells after route[i] (itself included) reached in the same direction as route[i-1] -> route[i]. */
function straightRun(route: readonly Step[], i: number): number {
  const dx = route[i]!.cell.x - route[i - 1]!.cell.x,
    dy = route[i]!.cell.y - route[i - 1]!.cell.y;
  let n = 1;
  while (
    i + n < route.length &&
    route[i + n]!.cell.x - route[i + n - 1]!.cell.x === dx &&
    route[i + n]!.cell.y - route[i + n - 1]!.cell.y === dy
  )
    n++;
  return n;
}

export interface Step {
  cell: Cell;
  /** The person notices the wrong branch here and turns back. */
  realises: boolean;
}

/** The solution, with some junctions taken the wrong way first: a few cells in (or to the dead end), then back. */
export function walkWithMistakes(rng: Rng, maze: Maze, wrongTurn: number): Step[] {
  const sol = maze.solution;
  const steps: Step[] = [{ cell: sol[0]!, realises: false }];
  const same = (a: Cell, b: Cell | undefined) => b !== undefined && a.x === b.x && a.y === b.y;
  for (let i = 0; i < sol.length - 1; i++) {
    const here = sol[i]!;
    const wrong = openNeighbours(maze, here).filter((n) => !same(n, sol[i + 1]) && !same(n, sol[i - 1]));
    if (wrong.length > 0 && rng.next() < wrongTurn) {
      const branch = [rng.pick(wrong)];
      const depth = rng.int(1, 4);
      while (branch.length < depth) {
        const ahead = openNeighbours(maze, branch.at(-1)!).filter((n) => !same(n, branch.at(-2) ?? here));
        if (ahead.length === 0) break;
        branch.push(rng.pick(ahead));
      }
      branch.forEach((cell) => steps.push({ cell, realises: false }));
      steps.at(-1)!.realises = true;
      [...branch.slice(0, -1).reverse(), here].forEach((cell) => steps.push({ cell, realises: false }));
    }
    steps.push({ cell: sol[i + 1]!, realises: false });
  }
  return steps;
}
