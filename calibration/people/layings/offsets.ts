import type { HumanTrace } from '../humans.js';

type Point = HumanTrace['points'][number];

/** Signed perpendicular distance (px) of `p` from the line through `a` and `b` (0 when they meet). */
export function sideOf(p: { x: number; y: number }, a: { x: number; y: number }, b: { x: number; y: number }): number {
  const cx = b.x - a.x,
    cy = b.y - a.y;
  const chord = Math.hypot(cx, cy);
  return chord > 0 ? ((p.x - a.x) * cy - (p.y - a.y) * cx) / chord : 0;
}

/** Cumulative path length (px) at each point. */
export function walked(points: readonly Point[]): number[] {
  const s = [0];
  for (let i = 1; i < points.length; i++) s.push(s[i - 1]! + Math.hypot(points[i]!.x - points[i - 1]!.x, points[i]!.y - points[i - 1]!.y));
  return s;
}

/** The points' centred moving average over `halfMs` either side (by time). */
export function trendOf(points: readonly Point[], halfMs: number): { x: number; y: number }[] {
  let lo = 0,
    hi = 0,
    sx = 0,
    sy = 0;
  return points.map((p) => {
    while (hi < points.length && points[hi]!.t <= p.t + halfMs) {
      sx += points[hi]!.x;
      sy += points[hi]!.y;
      hi++;
    }
    while (points[lo]!.t < p.t - halfMs) {
      sx -= points[lo]!.x;
      sy -= points[lo]!.y;
      lo++;
    }
    return { x: sx / (hi - lo), y: sy / (hi - lo) };
  });
}

/** The `p` quantile of |xs|. */
export function absQuantile(xs: readonly number[], p: number): number {
  const s = xs.map(Math.abs).sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
}
