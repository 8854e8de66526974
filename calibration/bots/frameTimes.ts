import type { Rng } from '../random.js';

/** Frame times (ms) for `count` points at `period`, jittered, with about 3% of frames dropped. */
export function frameTimes(rng: Rng, count: number, period: number): number[] {
  const out: number[] = [];
  let frame = 0;
  for (let i = 0; i < count; i++) {
    if (i > 0) frame += rng.next() < 0.03 ? 2 : 1;
    out.push(frame * period + Math.abs(rng.gauss()) * 0.8);
  }
  return out;
}
