import { announcementLength } from '../../src/core/scoring/keyboard/announcementLength.js';
import type { Maze } from '../../src/kernel/index.js';
import type { Rng } from '../random.js';
import { type BlindStrategy, exploreBlind } from './exploreBlind.js';
import { type PlannedStroke, openNeighbours } from './keyboardEvents.js';

/**
 * A MODEL of a screen-reader user who cannot see the maze and solves it by the widget's
 * announcements ("Row r, column c. Open: ..." after a move, "Wall. Open: ..." after a press into a
 * wall), from what is published on screen-reader use, not from recordings:
 * - speech: the user's chosen speaking rate, 180-450 words a minute per person (synthesisers
 *   default near 180-200; experienced blind users commonly listen at 300 and more, some past 500:
 *   Asakawa 2003, Bragg et al. 2018), at 6 characters a word (the words-a-minute convention), after
 *   a latency of 80-300 ms for the screen reader to pick up the live region and the synthesiser to
 *   start;
 * - in a new cell the person hears the announcement to its end (the open sides come last); along
 *   cells they know (backing out of a dead end) they cut it short with the next key after 15-50%
 *   of it, as screen readers stop speaking at a keystroke;
 * - then a decision of 250-700 ms (median per person), plus a Hick-Hyman 80-200 ms a bit over the
 *   options at a junction; 0.6-1.5 s to take in a dead end; long pauses (1.5-8 s: re-orienting,
 *   recounting the way back) at 2-10% of keys;
 * - exploring, not following the solution: a wall follower or a depth-first search with memory
 *   (exploreBlind.ts), with presses into walls;
 * - holds of 70-160 ms (median per person) varying by 15-35%; no rollover (each key waits for
 *   speech).
 */
export function screenReaderKeyboard(rng: Rng, maze: Maze): PlannedStroke[] {
  const lognormal = (median: number, sd: number) => median * Math.exp(sd * rng.gauss());
  const wordsPerMinute = Math.exp(rng.uniform(Math.log(180), Math.log(450)));
  const person = {
    charsPerMs: (wordsPerMinute * 6) / 60_000,
    latency: rng.uniform(80, 300),
    knownListen: rng.uniform(0.15, 0.5),
    decide: rng.uniform(250, 700),
    hickPerBit: rng.uniform(80, 200),
    deadEnd: rng.uniform(600, 1500),
    longPause: rng.uniform(0.02, 0.1),
    hold: rng.uniform(70, 160),
    holdSd: rng.uniform(0.15, 0.35),
    strategy: rng.pick<BlindStrategy>(['right-hand', 'left-hand', 'depth-first', 'depth-first']),
  };
  const steps = exploreBlind(rng, maze, {
    strategy: person.strategy,
    probeHabit: rng.uniform(0.05, 0.4),
    towardsExit: rng.uniform(0.3, 0.9),
    memoryLapse: rng.uniform(0, 0.1),
  });
  const strokes: PlannedStroke[] = [];
  let t = rng.uniform(1500, 5000);
  steps.forEach((s, i) => {
    if (i > 0) {
      const before = steps[i - 1]!;
      const spoken = announcementLength(maze, before.to, before.intoWall) / person.charsPerMs;
      const listened = before.revisit && !before.intoWall && s.revisit ? rng.uniform(0.7, 1.3) * person.knownListen : rng.uniform(0.9, 1);
      let gap = person.latency * Math.exp(0.2 * rng.gauss()) + listened * spoken;
      gap += lognormal(person.decide, 0.4);
      const options = openNeighbours(maze, before.to).length - 1;
      if (options >= 2 && !before.intoWall) gap += person.hickPerBit * Math.log2(options + 1) * Math.exp(0.3 * rng.gauss());
      if (before.deadEnd) gap += lognormal(person.deadEnd, 0.4);
      if (rng.next() < person.longPause) gap += lognormal(3000, 0.5);
      t += gap;
    }
    strokes.push({ t, key: s.key, to: s.to, hold: Math.max(25, lognormal(person.hold, person.holdSd)) });
  });
  return strokes;
}
