import { MOVES, type MoveKey, wallsAt } from '../../src/client/trace.js';
import type { Maze } from '../../src/kernel/index.js';
import { type Rng, shuffle } from '../random.js';
import { walkWithMistakes } from './humanKeyboard.js';
import { type PlannedStroke, keyBetween, openNeighbours } from './keyboardEvents.js';

type Breath = 'hard puff' | 'soft puff' | 'hard sip' | 'soft sip';
const BREATHS: readonly Breath[] = ['hard puff', 'soft puff', 'hard sip', 'soft sip'];
/** The command confused with a breath: the same direction of air at the other strength. */
const CONFUSED: Record<Breath, Breath> = {
  'hard puff': 'soft puff',
  'soft puff': 'hard puff',
  'hard sip': 'soft sip',
  'soft sip': 'hard sip',
};

/**
 * A MODEL of a sighted person with a four-command sip-and-puff switch (hard and soft puff, hard
 * and soft sip, each mapped to an arrow; used by people with high spinal-cord injuries and others
 * without hand function), from what is published on such interfaces, not from recordings:
 * - one command a breath pulse: a regular-ish pace of 0.9-2.2 s a command (median per person,
 *   varying by 12-25%), slower than a hand on a key and paced by breathing;
 * - the same direction of air twice in a row (two puffs, two sips) needs a breath between them:
 *   0-400 ms more (an assumption: how much depends on the person and the pressure levels set);
 * - holds: the pressure stays past the threshold for the pulse, 200-500 ms (median per person);
 * - mis-selects: hard and soft are told apart by a pressure threshold and get confused at 3-10%
 *   of commands, sending the other strength's arrow (a wrong move, or a press into a wall), noticed
 *   after 400-900 ms and undone;
 * - fatigue: the pace slows by 0-30% over the solve; rests of 2-5 s at 2-6% of commands;
 * - the sighted model's route and decisions (humanKeyboard.ts): the solution with some wrong
 *   turns, a Hick-Hyman choice time at junctions (80-180 ms a bit), sometimes a look ahead.
 */
export function sipPuffKeyboard(rng: Rng, maze: Maze): PlannedStroke[] {
  const lognormal = (median: number, sd: number) => median * Math.exp(sd * rng.gauss());
  const mapping = shuffle(rng, [...BREATHS]);
  const keys = Object.keys(MOVES) as MoveKey[];
  const breathOf = (k: MoveKey) => mapping[keys.indexOf(k)]!;
  const keyOf = (b: Breath) => keys[mapping.indexOf(b)]!;
  const person = {
    pace: rng.uniform(900, 2200),
    paceSd: rng.uniform(0.12, 0.25),
    sameAir: rng.uniform(0, 400),
    hold: rng.uniform(200, 500),
    hickPerBit: rng.uniform(80, 180),
    lookAhead: rng.uniform(0.1, 0.6),
    confusion: rng.uniform(0.03, 0.1),
    fatigue: rng.uniform(0, 0.3),
    rest: rng.uniform(0.02, 0.06),
  };
  const route = walkWithMistakes(rng, maze, rng.uniform(0, 0.15));
  const strokes: PlannedStroke[] = [];
  let t = rng.uniform(1000, 4000);
  let at = maze.start;
  let lastAir: string | undefined;
  const press = (key: MoveKey, extra: number) => {
    if (strokes.length > 0) {
      const progress = strokes.length / route.length;
      let gap = lognormal(person.pace, person.paceSd) * (1 + person.fatigue * progress) + extra;
      if (breathOf(key).endsWith(lastAir ?? '-')) gap += person.sameAir;
      if (rng.next() < person.rest) gap += rng.uniform(2000, 5000);
      t += gap;
    }
    const blocked = (wallsAt(maze, at) & MOVES[key].wall) !== 0;
    const to = blocked ? at : { x: at.x + MOVES[key].dx, y: at.y + MOVES[key].dy };
    strokes.push({ t, key, to, hold: Math.max(60, lognormal(person.hold, 0.25)) });
    lastAir = breathOf(key).split(' ')[1];
    at = to;
  };
  for (let i = 1; i < route.length; i++) {
    const from = route[i - 1]!,
      key = keyBetween(from.cell, route[i]!.cell);
    let decide = 0;
    const options = openNeighbours(maze, from.cell).length - 1;
    if (options >= 2) {
      decide += person.hickPerBit * Math.log2(options + 1) * Math.exp(0.3 * rng.gauss());
      if (rng.next() < person.lookAhead) decide += lognormal(400, 0.5);
    }
    if (from.realises) decide += lognormal(450, 0.4);
    if (strokes.length > 0 && rng.next() < person.confusion) {
      const wrongFrom = at;
      press(keyOf(CONFUSED[breathOf(key)]), decide);
      if (at.x !== wrongFrom.x || at.y !== wrongFrom.y) press(keyBetween(at, wrongFrom), rng.uniform(400, 900));
      decide = rng.uniform(200, 500);
    }
    press(key, decide);
  }
  return strokes;
}
