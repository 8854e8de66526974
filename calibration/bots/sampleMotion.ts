import type { Maze, RawEvent } from '../../src/kernel/index.js';
import type { Pt } from '../people/mazePath.js';
import type { Rng } from '../random.js';
import { dispatch, type Dpr } from './dispatch.js';
import { frameTimes } from './frameTimes.js';

/** Frame cadences (ms) of the self-written movers: every 125 Hz sensor report, 60 Hz frames, a 33 ms throttle. */
export type Cadence = 8 | 16 | 33;
export const CADENCES: readonly Cadence[] = [8, 16, 33];

const SENSOR_MS = 8;

/**
 * Events of a motion given at every ms (`path[t]`), as a browser reports a 125 Hz mouse: at the
 * 8 ms cadence every sensor report with its own time; at 16 and 33 ms one event per (jittered,
 * sometimes dropped) frame, at the position of the last report before it. So the steps between
 * events vary by whole sensor reports, as recorded mouse movement does; and, as a browser does,
 * no move is reported while the position stays on the same pixel.
 */
export function sampleMotion(rng: Rng, maze: Maze, path: readonly Pt[], cadence: Cadence, dpr: Dpr): RawEvent[] {
  const phase = rng.uniform(0, SENSOR_MS);
  const end = path.length - 1;
  const at = (t: number) => path[Math.min(end, Math.max(0, Math.floor(t)))]!;
  const points: { x: number; y: number; t: number }[] = [];
  if (cadence === SENSOR_MS) {
    for (let t = phase; t < end; t += SENSOR_MS + 0.2 * rng.gauss()) points.push({ ...at(t), t });
  } else {
    const period = cadence === 16 ? 1000 / 60 : cadence;
    for (const t of frameTimes(rng, Math.ceil(end / period), period)) {
      const report = phase + Math.floor((t - phase) / SENSOR_MS) * SENSOR_MS;
      points.push({ ...at(report), t });
    }
  }
  points.push({ ...path[end]!, t: end });
  // A browser reports a pointer move only when the position changes.
  const events = dispatch(rng, maze, points, { timing: 'native', dpr });
  return events.filter((e, i) => i === 0 || e.type !== 'move' || e.x !== events[i - 1]!.x || e.y !== events[i - 1]!.y);
}
