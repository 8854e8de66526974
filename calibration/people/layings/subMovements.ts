import type { HumanTrace } from '../humans.js';

/** Speeds (px/ms) below this share of the faster neighbouring peak end a sub-movement. */
const VALLEY_SHARE = 0.5;
/** A gap between events longer than this (ms) ends a sub-movement: the hand rested. */
const REST_MS = 100;
/** Speeds are smoothed over this many events either side before peaks and valleys are read. */
const SMOOTH = 2;

/**
 * Splits a trace into sub-movements: runs of points between speed valleys (a local minimum of
 * the smoothed speed below VALLEY_SHARE of the faster of the peaks either side) and rests.
 * Returns the index of each sub-movement's first point, in order, starting with 0.
 */
export function subMovementStarts(points: HumanTrace['points']): number[] {
  const n = points.length;
  const speed = points.map((p, i) => {
    if (i === 0) return 0;
    const q = points[i - 1]!;
    return Math.hypot(p.x - q.x, p.y - q.y) / Math.max(1, p.t - q.t);
  });
  const smooth = speed.map((_, i) => {
    let s = 0,
      k = 0;
    for (let j = Math.max(1, i - SMOOTH); j <= Math.min(n - 1, i + SMOOTH); j++, k++) s += speed[j]!;
    return k > 0 ? s / k : 0;
  });
  const starts = [0];
  let peakBefore = 0;
  for (let i = 1; i < n - 1; i++) {
    const rested = points[i]!.t - points[i - 1]!.t > REST_MS;
    peakBefore = Math.max(peakBefore, smooth[i]!);
    const valley = smooth[i]! <= smooth[i - 1]! && smooth[i]! < smooth[i + 1]!;
    if (!rested && !valley) continue;
    let peakAfter = 0;
    for (let j = i + 1; j < n && smooth[j]! >= smooth[j - 1]!; j++) peakAfter = smooth[j]!;
    if (rested || smooth[i]! < VALLEY_SHARE * Math.max(peakBefore, peakAfter)) {
      if (i - starts[starts.length - 1]! >= 2) starts.push(i);
      peakBefore = 0;
    }
  }
  return starts;
}
