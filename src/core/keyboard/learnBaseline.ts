import type { KeyboardDoorPolicy } from './KeyboardDoorPolicy.js';
import { type KeyboardRate, SHARE_FLOOR, surgeLevels } from './surgeLevels.js';

/** The baseline's time constant, in minutes: an exponentially weighted mean over about six hours. */
export const BASELINE_MINUTES = 360;
/** The most the baseline may rise in an hour: 25% (each minute at most 1.25^(1/60) times the last). */
export const BASELINE_RISE_PER_HOUR = 1.25;
const RISE_PER_MINUTE = BASELINE_RISE_PER_HOUR ** (1 / 60);

/**
 * The baseline after one closed minute of `keyboard` tokens out of `all`, learned slowly so that a
 * slow ramp of scripts cannot raise it quickly: each minute counts for 1/BASELINE_MINUTES, a
 * minute's value counts at most up to the surge level (a burst the surge check has not caught yet
 * teaches no more than a minute at the edge), and the baseline rises at most
 * BASELINE_RISE_PER_HOUR an hour whatever the traffic; it falls freely (a quieter site only becomes
 * more watchful). Never below the floors: a site with less traffic is judged by them.
 */
export function learnBaseline(
  base: KeyboardRate,
  minute: { keyboard: number; all: number },
  policy: Pick<KeyboardDoorPolicy, 'floorPerMinute' | 'surgeFactor'>,
): KeyboardRate {
  const level = surgeLevels(base, policy);
  const step = (from: number, seen: number, floor: number) => {
    const mean = from + (seen - from) / BASELINE_MINUTES;
    return Math.max(floor, Math.min(mean, from * RISE_PER_MINUTE));
  };
  const rate = step(base.rate, Math.min(minute.keyboard, level.rate), policy.floorPerMinute);
  const share = minute.all > 0 ? step(base.share, Math.min(minute.keyboard / minute.all, level.share), SHARE_FLOOR) : base.share;
  return { rate, share };
}
