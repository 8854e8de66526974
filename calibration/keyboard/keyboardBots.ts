import type { Maze } from '../../src/kernel/index.js';
import { type Rng, shuffle } from '../random.js';
import { exploreBlind } from './exploreBlind.js';
import { type PlannedStroke, keyBetween, openNeighbours } from './keyboardEvents.js';
import { KEYBOARD_PEOPLE, keyboardPerson } from './keyboardPeople.js';

/**
 * Scripts pressing the arrow keys (the maze's solution is public from its seed). The first five
 * walk the solution, each gap drawn independently of the maze; `turn-pause` and `decision-pause`
 * know where a person would pause. Then three that imitate the slower people, gaps still blind to
 * the maze: `explorer-script` explores like a screen-reader user (wall follower or depth-first,
 * wall probes, backtracking) at a machine's pace of 0.25-4 s a key; `scan-script` walks the
 * solution in whole scan steps (0.5-2 s, one to four steps a key, drawn whatever the key);
 * `shuffled-person` takes a solve of a modelled person (any of the four) and shuffles its gaps and
 * holds, so its pace, pauses, holds and route are a person's and only where each gap falls is not.
 * `bursty` walks the solution in runs of quick and slow keys (a two-state chain switching at
 * 10-40% of keys, the slow state 2-6 times the quick one), so its gaps come in spells, blind to
 * the maze; it was written after the features were chosen and is never fitted on.
 */
export const KEYBOARD_BOT_FAMILIES = [
  'constant',
  'uniform',
  'gaussian',
  'exponential',
  'lognormal',
  'turn-pause',
  'decision-pause',
  'explorer-script',
  'scan-script',
  'shuffled-person',
  'bursty',
] as const;
export type KeyboardBotFamily = (typeof KEYBOARD_BOT_FAMILIES)[number];

/** Families whose gaps ignore the maze: the ones that must be rejected. */
export const INDEPENDENT_GAP_FAMILIES: readonly KeyboardBotFamily[] = [
  'constant',
  'uniform',
  'gaussian',
  'exponential',
  'lognormal',
  'explorer-script',
  'scan-script',
  'shuffled-person',
  'bursty',
];

/** Never fitted on: written after the features were chosen, and measured only. */
export const NEVER_FITTED: readonly KeyboardBotFamily[] = ['bursty'];

/** Families that send a person's own holds instead of a hold style. */
export const OWN_HOLDS: readonly KeyboardBotFamily[] = ['shuffled-person'];

/** How a script releases its keys: never, after a fixed time (a press() delay), or after a random one. */
export const HOLD_STYLES = ['none', 'fixed', 'random'] as const;
export type HoldStyle = (typeof HOLD_STYLES)[number];

/** A gap drawer of the family, its parameters drawn per solve. */
function gapsOf(rng: Rng, family: KeyboardBotFamily): () => number {
  switch (family) {
    case 'constant': {
      const g = rng.uniform(80, 300),
        jitter = rng.uniform(0, 5);
      return () => g + rng.uniform(-jitter, jitter);
    }
    case 'uniform': {
      const lo = rng.uniform(50, 200),
        hi = lo + rng.uniform(100, 500);
      return () => rng.uniform(lo, hi);
    }
    case 'gaussian': {
      const mean = rng.uniform(150, 400),
        sd = mean * rng.uniform(0.1, 0.4);
      return () => Math.max(30, mean + sd * rng.gauss());
    }
    case 'exponential': {
      const min = rng.uniform(30, 100),
        mean = rng.uniform(100, 300);
      return () => min - mean * Math.log(1 - rng.next());
    }
    default: {
      const median = rng.uniform(150, 350),
        sd = rng.uniform(0.2, 0.7);
      return () => median * Math.exp(sd * rng.gauss());
    }
  }
}

function holdsOf(rng: Rng, style: HoldStyle): () => number | null {
  if (style === 'none') return () => null;
  if (style === 'fixed') {
    const h = rng.uniform(0, 120);
    return () => h;
  }
  const lo = rng.uniform(20, 80),
    hi = lo + rng.uniform(30, 120);
  return () => rng.uniform(lo, hi);
}

export function keyboardBot(rng: Rng, maze: Maze, family: KeyboardBotFamily, holdStyle: HoldStyle): PlannedStroke[] {
  if (family === 'shuffled-person') return shuffledPerson(rng, maze);
  if (family === 'explorer-script') return explorerScript(rng, maze, holdsOf(rng, holdStyle));
  if (family === 'scan-script') return scanScript(rng, maze, holdsOf(rng, holdStyle));
  if (family === 'bursty') return bursty(rng, maze, holdsOf(rng, holdStyle));
  // The scripted pauses sit on an independent base rhythm.
  const gap = gapsOf(
    rng,
    family === 'turn-pause' || family === 'decision-pause' ? rng.pick(['uniform', 'gaussian', 'lognormal'] as const) : family,
  );
  const hold = holdsOf(rng, holdStyle);
  const pause = { lo: rng.uniform(100, 300), span: rng.uniform(100, 600) };
  const sol = maze.solution;
  const strokes: PlannedStroke[] = [];
  let t = rng.uniform(300, 1500);
  for (let i = 1; i < sol.length; i++) {
    const key = keyBetween(sol[i - 1]!, sol[i]!);
    if (i > 1) {
      t += gap();
      const turns = key !== strokes.at(-1)!.key;
      const junction = openNeighbours(maze, sol[i - 1]!).length >= 3;
      if ((family === 'turn-pause' && turns) || (family === 'decision-pause' && (turns || junction)))
        t += pause.lo + rng.next() * pause.span;
    }
    strokes.push({ t, key, to: sol[i]!, hold: hold() });
  }
  return strokes;
}

/** Exploration without sight of the maze (exploreBlind.ts), each gap drawn blind to it. */
function explorerScript(rng: Rng, maze: Maze, hold: () => number | null): PlannedStroke[] {
  const scale = rng.uniform(3, 10);
  const gap = gapsOf(rng, rng.pick(['uniform', 'gaussian', 'exponential', 'lognormal'] as const));
  const steps = exploreBlind(rng, maze, {
    strategy: rng.pick(['right-hand', 'left-hand', 'depth-first'] as const),
    probeHabit: rng.uniform(0, 0.4),
    towardsExit: rng.uniform(0, 1),
    memoryLapse: rng.uniform(0, 0.1),
  });
  let t = rng.uniform(1000, 4000);
  return steps.map((s, i) => ({ t: (t += i === 0 ? 0 : scale * gap()), key: s.key, to: s.to, hold: hold() }));
}

/** The solution in whole scan steps: a period, and one to four steps a key drawn whatever the key. */
function scanScript(rng: Rng, maze: Maze, hold: () => number | null): PlannedStroke[] {
  const period = rng.uniform(500, 2000),
    within = rng.uniform(0.2, 0.8),
    jitter = rng.uniform(0, 0.15);
  const sol = maze.solution;
  let t = rng.uniform(1000, 4000);
  return sol.slice(1).map((to, i) => ({
    t: (t += i === 0 ? 0 : period * (rng.int(1, 4) + within + jitter * rng.gauss())),
    key: keyBetween(sol[i]!, to),
    to,
    hold: hold(),
  }));
}

/** The solution in spells of quick and slow keys, switching state at random. */
function bursty(rng: Rng, maze: Maze, hold: () => number | null): PlannedStroke[] {
  const quick = rng.uniform(120, 400),
    slow = quick * rng.uniform(2, 6),
    change = rng.uniform(0.1, 0.4),
    sd = rng.uniform(0.1, 0.4);
  const sol = maze.solution;
  let slowNow = rng.next() < 0.5;
  let t = rng.uniform(300, 2000);
  return sol.slice(1).map((to, i) => {
    if (rng.next() < change) slowNow = !slowNow;
    if (i > 0) t += (slowNow ? slow : quick) * Math.exp(sd * rng.gauss());
    return { t, key: keyBetween(sol[i]!, to), to, hold: hold() };
  });
}

/** A modelled person's solve with its gaps, and separately its holds, shuffled. */
function shuffledPerson(rng: Rng, maze: Maze): PlannedStroke[] {
  const strokes = keyboardPerson(rng, maze, rng.pick(KEYBOARD_PEOPLE));
  const gaps = shuffle(
    rng,
    strokes.slice(1).map((s, i) => s.t - strokes[i]!.t),
  );
  const holds = shuffle(
    rng,
    strokes.map((s) => s.hold),
  );
  let t = strokes[0]!.t;
  return strokes.map((s, i) => ({ ...s, t: (t += i === 0 ? 0 : gaps[i - 1]!), hold: holds[i]! }));
}
