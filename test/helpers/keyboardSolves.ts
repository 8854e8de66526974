// Arrow-key solves for the scoring tests: the human keyboard MODEL of the calibration (not human
// data; bench/calibrate/keyboard/humanKeyboard.ts) and the keyboard scripts it is fitted against.
import { type HoldStyle, type KeyboardBotFamily, keyboardBot } from '../../bench/calibrate/keyboard/keyboardBots.js';
import { type KeyboardWidget, keyboardEvents } from '../../bench/calibrate/keyboard/keyboardEvents.js';
import { humanKeyboard } from '../../bench/calibrate/keyboard/humanKeyboard.js';
import { Rng } from '../../bench/calibrate/random.js';
import type { Maze, RawEvent } from '../../src/kernel/types.js';

/** The modelled person `seed` solving `maze` as `widget` records it (ours starts with Enter). */
export function modelledPersonAtKeys(maze: Maze, seed: number, widget: KeyboardWidget = 'ours'): RawEvent[] {
  const rng = new Rng(seed);
  return keyboardEvents(maze, humanKeyboard(rng, maze), widget, widget === 'ours' ? { lead: 900, hold: 95 } : undefined);
}

/** A script of `family` pressing the arrows along the solution, releasing its keys by `holdStyle`. */
export function scriptAtKeys(maze: Maze, family: KeyboardBotFamily, holdStyle: HoldStyle, seed: number): RawEvent[] {
  return keyboardEvents(maze, keyboardBot(new Rng(seed), maze, family, holdStyle), 'ours');
}
