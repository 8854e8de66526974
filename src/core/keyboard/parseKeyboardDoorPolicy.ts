import {
  KEYBOARD_DOOR_DEFAULTS,
  KEYBOARD_DOOR_LIMITS,
  KEYBOARD_DOOR_MODES,
  type KeyboardDoorMode,
  type KeyboardDoorPolicy,
} from './KeyboardDoorPolicy.js';

/**
 * KEYBOARD_DOOR, KEYBOARD_FLOOR_PER_MINUTE, KEYBOARD_SURGE_FACTOR, KEYBOARD_CALM_MINUTES and
 * KEYBOARD_CLIENT_PER_HOUR from the environment (defaults: KEYBOARD_DOOR_DEFAULTS). Throws an
 * Error naming the variable for a bad value.
 */
export function parseKeyboardDoorPolicy(env: Readonly<Record<string, string | undefined>>): KeyboardDoorPolicy {
  const doorText = env.KEYBOARD_DOOR?.trim();
  if (doorText && !KEYBOARD_DOOR_MODES.includes(doorText as KeyboardDoorMode)) {
    throw new Error(`KEYBOARD_DOOR must be ${KEYBOARD_DOOR_MODES.join(', ')}, not ${JSON.stringify(doorText)}`);
  }
  const number = (name: string, key: keyof typeof KEYBOARD_DOOR_LIMITS, integer: boolean): number => {
    const text = env[name]?.trim();
    if (!text) return KEYBOARD_DOOR_DEFAULTS[key];
    const n = Number(text);
    const { min, max } = KEYBOARD_DOOR_LIMITS[key];
    if (!Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < min || n > max) {
      throw new Error(`${name} must be ${integer ? 'an integer' : 'a number'} between ${min} and ${max}, not ${JSON.stringify(text)}`);
    }
    return n;
  };
  return {
    door: (doorText || KEYBOARD_DOOR_DEFAULTS.door) as KeyboardDoorMode,
    floorPerMinute: number('KEYBOARD_FLOOR_PER_MINUTE', 'floorPerMinute', false),
    surgeFactor: number('KEYBOARD_SURGE_FACTOR', 'surgeFactor', false),
    calmMinutes: number('KEYBOARD_CALM_MINUTES', 'calmMinutes', true),
    clientPerHour: number('KEYBOARD_CLIENT_PER_HOUR', 'clientPerHour', true),
  };
}
