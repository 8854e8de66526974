import type { KeyboardDoorPolicy } from './KeyboardDoorPolicy.js';

/** A site's keyboard traffic: keyboard tokens per minute, and their share of all its tokens. */
export interface KeyboardRate {
  rate: number;
  share: number;
}

/** The share of keyboard tokens taken as the baseline of a site that has learned less. */
export const SHARE_FLOOR = 0.05;
/** The surge level of the share never goes above this, so a site of mostly keyboard users can still surge. */
export const MAX_SHARE_LEVEL = 0.9;

/**
 * Where a surge begins, from the learned baseline: `surgeFactor` times the baseline (never below
 * the floors), for the rate and for the share. A surge ends under two thirds of either (nextSurge).
 */
export function surgeLevels(base: KeyboardRate, policy: Pick<KeyboardDoorPolicy, 'floorPerMinute' | 'surgeFactor'>): KeyboardRate {
  return {
    rate: policy.surgeFactor * Math.max(policy.floorPerMinute, base.rate),
    share: Math.min(MAX_SHARE_LEVEL, policy.surgeFactor * Math.max(SHARE_FLOOR, base.share)),
  };
}
