import type { KeyboardDoorPolicy } from './KeyboardDoorPolicy.js';
import { type KeyboardRate, surgeLevels } from './surgeLevels.js';

/**
 * A surge's traffic is calm at or under this part of the surge level: two thirds, twice the
 * baseline at the default factor of 3, far enough above the baseline that a site's own traffic,
 * which varies from minute to minute, does not keep a surge open after the flood.
 */
export const CALM_SHARE_OF_LEVEL = 2 / 3;

/** Whether a site's keyboard door is in a surge, and since when its traffic has been calm in one. */
export interface SurgeState {
  surge: boolean;
  /** When the state began (epoch ms). */
  since: number;
  /** In a surge: when the traffic last fell under half the surge levels (undefined: not calm now). */
  calmSince: number | undefined;
}

/**
 * The surge state after a reading of the last minute's keyboard traffic (`now` in ms, minutes
 * `minuteMs` long), with hysteresis: a surge begins when the keyboard rate is above its surge
 * level and the share above its own (a site whose whole traffic grows keeps its share, and does
 * not surge); it ends only once the rate or the share has stayed at or under two thirds of its level for
 * `calmMinutes` minutes, so a flood that pauses between waves does not reopen the door each time.
 */
export function nextSurge(
  state: SurgeState,
  reading: KeyboardRate,
  base: KeyboardRate,
  policy: Pick<KeyboardDoorPolicy, 'floorPerMinute' | 'surgeFactor' | 'calmMinutes'>,
  now: number,
  minuteMs: number,
): SurgeState {
  const level = surgeLevels(base, policy);
  if (!state.surge) {
    return reading.rate > level.rate && reading.share > level.share ? { surge: true, since: now, calmSince: undefined } : state;
  }
  const calm = reading.rate <= level.rate * CALM_SHARE_OF_LEVEL || reading.share <= level.share * CALM_SHARE_OF_LEVEL;
  if (!calm) return state.calmSince === undefined ? state : { ...state, calmSince: undefined };
  const calmSince = state.calmSince ?? now;
  if (now - calmSince >= policy.calmMinutes * minuteMs) return { surge: false, since: now, calmSince: undefined };
  return state.calmSince === calmSince ? state : { ...state, calmSince };
}
