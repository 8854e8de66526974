/**
 * What the widget says when a challenge announces a keyboard door other than people first
 * (`keyboard_door`, docs/keyboard-solves.md): one short sentence after the ready text, in the
 * status line a screen reader reads, so that a person solving by keyboard knows why it may take
 * longer or fail, and that it will pass.
 */
import type { Challenge } from '../core/challenge/Challenge.js';

export type KeyboardDoor = NonNullable<Challenge['keyboard_door']>;

const NOTICES: Readonly<Record<Exclude<KeyboardDoor, 'people_first'>, string>> = {
  strict: 'This site checks keyboard solving strictly.',
  surge:
    'Automated traffic is using the keyboard path: for a few minutes keyboard solving is checked more strictly and takes longer. If it fails, try again later or use another way the site offers.',
};

/** `ready` followed by the door's sentence, or `ready` alone (people first, or an older server that says nothing). */
export function withKeyboardDoorNotice(ready: string, door: KeyboardDoor | undefined): string {
  return door === undefined || door === 'people_first' ? ready : `${ready} ${NOTICES[door]}`;
}
