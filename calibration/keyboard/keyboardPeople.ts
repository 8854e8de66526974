import type { Maze } from '../../src/kernel/index.js';
import type { Rng } from '../random.js';
import { FULL_MODEL, type HumanAssumptions, humanKeyboard } from './humanKeyboard.js';
import type { PlannedStroke } from './keyboardEvents.js';
import { screenReaderKeyboard } from './screenReaderKeyboard.js';
import { sipPuffKeyboard } from './sipPuffKeyboard.js';
import { switchScanKeyboard } from './switchScanKeyboard.js';

/**
 * The MODELS of people solving by keyboard (none is human data): `sighted` with arrow keys
 * (humanKeyboard.ts), `screen-reader` exploring by the announcements without sight of the maze,
 * `switch-scan` with one switch and automatic scanning, `sip-puff` with a four-command
 * sip-and-puff switch.
 */
export const KEYBOARD_PEOPLE = ['sighted', 'screen-reader', 'switch-scan', 'sip-puff'] as const;
export type KeyboardPerson = (typeof KEYBOARD_PEOPLE)[number];

/** A solve by one person of `kind`, parameters drawn per person; `assume` shapes the sighted model only. */
export function keyboardPerson(rng: Rng, maze: Maze, kind: KeyboardPerson, assume: HumanAssumptions = FULL_MODEL): PlannedStroke[] {
  switch (kind) {
    case 'sighted':
      return humanKeyboard(rng, maze, assume);
    case 'screen-reader':
      return screenReaderKeyboard(rng, maze);
    case 'switch-scan':
      return switchScanKeyboard(rng, maze);
    case 'sip-puff':
      return sipPuffKeyboard(rng, maze);
  }
}
