import type { Maze } from '../../../src/kernel/index.js';
import type { Rng } from '../random.js';
import { type PlannedStroke, keyBetween, openNeighbours } from './keyboardEvents.js';

/**
 * Scripts pressing the arrow keys along the maze's solution (public from its seed). The first
 * five draw each gap independently of the maze; the last two know where a person would pause.
 */
export const KEYBOARD_BOT_FAMILIES = ['constant', 'uniform', 'gaussian', 'exponential', 'lognormal', 'turn-pause', 'decision-pause'] as const;
export type KeyboardBotFamily = (typeof KEYBOARD_BOT_FAMILIES)[number];

/** Families whose gaps ignore the maze: the ones that must be rejected. */
export const INDEPENDENT_GAP_FAMILIES: readonly KeyboardBotFamily[] = ['constant', 'uniform', 'gaussian', 'exponential', 'lognormal'];

/** How a script releases its keys: never, after a fixed time (a press() delay), or after a random one. */
export const HOLD_STYLES = ['none', 'fixed', 'random'] as const;
export type HoldStyle = (typeof HOLD_STYLES)[number];

/** A gap drawer of the family, its parameters drawn per solve. */
function gapsOf(rng: Rng, family: KeyboardBotFamily): () => number {
  switch (family) {
    case 'constant': {
      const g = rng.uniform(80, 300), jitter = rng.uniform(0, 5);
      return () => g + rng.uniform(-jitter, jitter);
    }
    case 'uniform': {
      const lo = rng.uniform(50, 200), hi = lo + rng.uniform(100, 500);
      return () => rng.uniform(lo, hi);
    }
    case 'gaussian': {
      const mean = rng.uniform(150, 400), sd = mean * rng.uniform(0.1, 0.4);
      return () => Math.max(30, mean + sd * rng.gauss());
    }
    case 'exponential': {
      const min = rng.uniform(30, 100), mean = rng.uniform(100, 300);
      return () => min - mean * Math.log(1 - rng.next());
    }
    default: {
      const median = rng.uniform(150, 350), sd = rng.uniform(0.2, 0.7);
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
  const lo = rng.uniform(20, 80), hi = lo + rng.uniform(30, 120);
  return () => rng.uniform(lo, hi);
}

export function keyboardBot(rng: Rng, maze: Maze, family: KeyboardBotFamily, holdStyle: HoldStyle): PlannedStroke[] {
  // The scripted pauses sit on an independent base rhythm.
  const gap = gapsOf(rng, family === 'turn-pause' || family === 'decision-pause' ? rng.pick(['uniform', 'gaussian', 'lognormal'] as const) : family);
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
      if ((family === 'turn-pause' && turns) || (family === 'decision-pause' && (turns || junction))) t += pause.lo + rng.next() * pause.span;
    }
    strokes.push({ t, key, to: sol[i]!, hold: hold() });
  }
  return strokes;
}
