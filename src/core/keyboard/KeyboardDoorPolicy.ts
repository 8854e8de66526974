/**
 * How a site's keyboard door behaves (docs/keyboard-solves.md, "The keyboard budget"): the mode
 * and the thresholds of its budget. Plain data, part of the site policy and its digest.
 */

/**
 * - `auto` (the default): people first until the site's keyboard tokens surge past its budget,
 *   then `surge` until the surge has passed;
 * - `people_first`: never escalates (the budget is still watched and shown);
 * - `strict`: keyboard solves are always scored by the strict keyboard model;
 * - `surge`: always escalated (the strict model and the larger keyboard proof of work).
 */
export type KeyboardDoorMode = 'auto' | 'people_first' | 'strict' | 'surge';

/** Every KeyboardDoorMode, as the sites file and KEYBOARD_DOOR spell them. */
export const KEYBOARD_DOOR_MODES: readonly KeyboardDoorMode[] = ['auto', 'people_first', 'strict', 'surge'];

/** What the door is now, as the challenge announces it (`keyboard_door`). */
export type KeyboardDoorState = 'people_first' | 'strict' | 'surge';

export interface KeyboardDoorPolicy {
  door: KeyboardDoorMode;
  /** Keyboard tokens per minute taken as the baseline of a site that has learned less (KEYBOARD_FLOOR_PER_MINUTE). */
  floorPerMinute: number;
  /** A surge: keyboard tokens per minute above this many times the baseline, and their share above this many times its own (KEYBOARD_SURGE_FACTOR). */
  surgeFactor: number;
  /** Minutes the rate or the share must stay at or under two thirds of its surge level before a surge ends (KEYBOARD_CALM_MINUTES). */
  calmMinutes: number;
  /** Keyboard solves one client may pass in an hour before its own are scored strictly; 0: no per-client budget (KEYBOARD_CLIENT_PER_HOUR). */
  clientPerHour: number;
}

/** Defaults of the KEYBOARD_* variables (docs/operating.md). */
export const KEYBOARD_DOOR_DEFAULTS: KeyboardDoorPolicy = {
  door: 'auto',
  floorPerMinute: 2,
  surgeFactor: 3,
  calmMinutes: 2,
  clientPerHour: 12,
};

/** Bounds of each threshold, in the environment and the sites file alike. */
export const KEYBOARD_DOOR_LIMITS = {
  floorPerMinute: { min: 0.1, max: 1_000_000 },
  surgeFactor: { min: 1.5, max: 100 },
  calmMinutes: { min: 1, max: 60 },
  clientPerHour: { min: 0, max: 100_000 },
} as const;
