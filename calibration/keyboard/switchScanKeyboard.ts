import { MOVES, type MoveKey, wallsAt } from '../../src/client/trace.js';
import type { Maze } from '../../src/kernel/index.js';
import type { Rng } from '../random.js';
import { walkWithMistakes } from './humanKeyboard.js';
import { type PlannedStroke, keyBetween, openNeighbours } from './keyboardEvents.js';

/** Orders in which scanning software highlights the four arrows (a list, or a cross read row by row). */
const SCAN_ORDERS: readonly (readonly MoveKey[])[] = [
  ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'],
  ['ArrowUp', 'ArrowLeft', 'ArrowRight', 'ArrowDown'],
  ['ArrowLeft', 'ArrowUp', 'ArrowDown', 'ArrowRight'],
];

/**
 * A MODEL of a sighted person using one switch with automatic scanning (switch-access software
 * highlighting the four arrows in turn and sending the highlighted one when the switch is
 * pressed), from what is published on switch access, not from recordings:
 * - a scan period of 0.5-2 s per person (the range switch-access software offers and clinicians
 *   set for a user's reaction time), the scan restarting at the first arrow after each selection,
 *   on which some software dwells longer (0-1 period more);
 * - the switch pressed 25-75% into the wanted highlight (the person waits for it and reacts), so a
 *   selection takes a whole number of scan steps plus a part of one;
 * - a decision that is not made by the time the wanted arrow is highlighted costs a whole cycle:
 *   at a junction the person chooses (Hick-Hyman 100-250 ms a bit) while the scan runs, sometimes
 *   looking ahead (0.3-1.2 s);
 * - a missed highlight (3-12% of selections) costs a cycle; a press a little late (1-4%) sends the
 *   next arrow instead: a wrong move (or a press into a wall) and then the way back;
 * - the route of the sighted model (humanKeyboard.ts): the solution with some wrong turns;
 * - long holds: the arrow's keydown comes at the press and its keyup at the release of the switch,
 *   200-900 ms later (median per person; people with motor impairments hold a switch long), under
 *   the time to the next selection. Software that sends a tap of its own at each selection instead
 *   is not modelled.
 */
export function switchScanKeyboard(rng: Rng, maze: Maze): PlannedStroke[] {
  const lognormal = (median: number, sd: number) => median * Math.exp(sd * rng.gauss());
  const person = {
    period: rng.uniform(500, 2000),
    order: rng.pick(SCAN_ORDERS),
    firstDwell: rng.uniform(0, 1),
    pressAt: rng.uniform(0.25, 0.75),
    hickPerBit: rng.uniform(100, 250),
    lookAhead: rng.uniform(0.1, 0.6),
    miss: rng.uniform(0.03, 0.12),
    late: rng.uniform(0.01, 0.04),
    hold: rng.uniform(200, 900),
    holdSd: rng.uniform(0.2, 0.4),
  };
  const route = walkWithMistakes(rng, maze, rng.uniform(0, 0.15));
  const strokes: PlannedStroke[] = [];
  let t = rng.uniform(1000, 4000);
  let at = maze.start;
  /** Time from the scan's restart until the switch sends `key`, given `ready` ms of thinking first. */
  const selection = (key: MoveKey, ready: number): number => {
    const slot = person.order.indexOf(key) + person.firstDwell;
    let start = slot * person.period;
    while (start + person.period * 0.9 < ready) start += person.order.length * person.period;
    if (rng.next() < person.miss) start += person.order.length * person.period;
    const within = Math.min(0.97, Math.max(0.05, person.pressAt + 0.12 * rng.gauss()));
    return start + within * person.period;
  };
  const press = (key: MoveKey, ready: number) => {
    t += strokes.length === 0 ? 0 : selection(key, ready);
    const blocked = (wallsAt(maze, at) & MOVES[key].wall) !== 0;
    const to = blocked ? at : { x: at.x + MOVES[key].dx, y: at.y + MOVES[key].dy };
    strokes.push({ t, key, to, hold: Math.min(lognormal(person.hold, person.holdSd), person.period * 0.9) });
    at = to;
  };
  for (let i = 1; i < route.length; i++) {
    const from = route[i - 1]!,
      key = keyBetween(from.cell, route[i]!.cell);
    let ready = lognormal(250, 0.4);
    const options = openNeighbours(maze, from.cell).length - 1;
    if (options >= 2) {
      ready += person.hickPerBit * Math.log2(options + 1) * Math.exp(0.3 * rng.gauss());
      if (rng.next() < person.lookAhead) ready += lognormal(600, 0.5);
    }
    if (from.realises) ready += lognormal(600, 0.4);
    const next = person.order[person.order.indexOf(key) + 1];
    if (next !== undefined && strokes.length > 0 && rng.next() < person.late) {
      // The next arrow went: undo it if it moved, then the wanted one.
      const wrongFrom = at;
      press(next, ready);
      if (at.x !== wrongFrom.x || at.y !== wrongFrom.y) press(keyBetween(at, wrongFrom), lognormal(500, 0.4));
      ready = lognormal(400, 0.4);
    }
    press(key, ready);
  }
  return strokes;
}
