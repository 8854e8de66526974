// Arrow-key solves for the scoring tests: the keyboard people MODELS of the calibration (not human
// data; calibration/keyboard/keyboardPeople.ts) and the keyboard scripts they are fitted against.
import { type HoldStyle, type KeyboardBotFamily, keyboardBot } from '../../calibration/keyboard/keyboardBots.js';
import { type KeyboardWidget, keyboardEvents } from '../../calibration/keyboard/keyboardEvents.js';
import { type KeyboardPerson, keyboardPerson } from '../../calibration/keyboard/keyboardPeople.js';
import { Rng } from '../../calibration/random.js';
import type { Maze, RawEvent } from '../../src/kernel/types.js';

/** The modelled person `seed` of `kind` solving `maze` as `widget` records it (ours starts with Enter). */
export function modelledPersonAtKeys(
  maze: Maze,
  seed: number,
  widget: KeyboardWidget = 'ours',
  kind: KeyboardPerson = 'sighted',
): RawEvent[] {
  const rng = new Rng(seed);
  return keyboardEvents(maze, keyboardPerson(rng, maze, kind), widget, widget === 'ours' ? { lead: 900, hold: 95 } : undefined);
}

/** A script of `family` pressing the arrows along the solution, releasing its keys by `holdStyle`. */
export function scriptAtKeys(maze: Maze, family: KeyboardBotFamily, holdStyle: HoldStyle, seed: number): RawEvent[] {
  return keyboardEvents(maze, keyboardBot(new Rng(seed), maze, family, holdStyle), 'ours');
}
