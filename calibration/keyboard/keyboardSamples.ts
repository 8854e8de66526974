import type { MazeParams, RawEvent } from '../../src/kernel/index.js';
import type { CalibrationKernel } from '../samples.js';
import { Rng } from '../random.js';
import { HOLD_STYLES, type HoldStyle, type KeyboardBotFamily, keyboardBot } from './keyboardBots.js';
import { type KeyboardWidget, keyboardEvents } from './keyboardEvents.js';
import { FULL_MODEL, type HumanAssumptions } from './humanKeyboard.js';
import { KEYBOARD_PEOPLE, type KeyboardPerson, keyboardPerson } from './keyboardPeople.js';

export interface KeyboardSample {
  /** A person is a MODEL (keyboardPeople.ts), not a recording. */
  kind: KeyboardPerson | KeyboardBotFamily;
  holdStyle?: HoldStyle;
  widget: KeyboardWidget;
  maze: MazeParams;
  events: RawEvent[];
}

/** Mazes the samples are solved on: the default policy's, or any size and branching a site may set. */
export type MazeSpread = 'default' | 'varied';

function mazeOf(rng: Rng, spread: MazeSpread): MazeParams {
  const seed = rng.int(0, 0xffffffff);
  if (spread === 'default') return { seed, width: 8, height: 8, difficulty: 0.3 };
  return { seed, width: rng.int(5, 12), height: rng.int(5, 12), difficulty: rng.uniform(0.1, 0.9) };
}

/**
 * `count` keyboard solves of `kind`, each on its own maze, from `seed`; bots cycle through the
 * hold styles, modelled sighted people follow `assume`.
 */
export function keyboardSamples(
  kernel: CalibrationKernel,
  kind: KeyboardSample['kind'],
  count: number,
  seed: number,
  spread: MazeSpread,
  assume: HumanAssumptions = FULL_MODEL,
): KeyboardSample[] {
  const rng = new Rng(seed);
  return Array.from({ length: count }, (_, i) => {
    const params = mazeOf(rng, spread);
    const maze = kernel.generateMaze(params);
    const widget = rng.pick(['ours', 'deployed'] as const);
    const enter = widget === 'ours' && rng.next() < 0.5 ? { lead: rng.uniform(300, 1500), hold: rng.uniform(60, 140) } : undefined;
    if (isPerson(kind))
      return { kind, widget, maze: params, events: keyboardEvents(maze, keyboardPerson(rng, maze, kind, assume), widget, enter) };
    const holdStyle = HOLD_STYLES[i % HOLD_STYLES.length]!;
    return { kind, holdStyle, widget, maze: params, events: keyboardEvents(maze, keyboardBot(rng, maze, kind, holdStyle), widget, enter) };
  });
}

export function isPerson(kind: KeyboardSample['kind']): kind is KeyboardPerson {
  return (KEYBOARD_PEOPLE as readonly string[]).includes(kind);
}
