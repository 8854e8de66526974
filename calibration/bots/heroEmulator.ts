import { createRequire } from 'node:module';
import type { Maze, RawEvent } from '../../src/kernel/index.js';
import type { Pt } from '../people/mazePath.js';
import type { Rng } from '../random.js';
import { dispatch, type ToolPoint, type Variant } from './dispatch.js';
import { waypoints } from './waypoints.js';
import { withSeededRandom } from './withSeededRandom.js';

type GenerateVector = (
  from: Pt,
  to: Pt,
  targetWidth: number,
  minPoints: number,
  maxPoints: number,
  overshoot: { threshold: number; radius: number; spread: number },
) => Pt[];
interface Emulator {
  minMoveVectorPoints: number;
  maxMoveVectorPoints: number;
  overshootThreshold: number;
  overshootRadius: number;
  overshootSpread: number;
}

// Hero's emulator is CommonJS and keeps its mover in a module of its own (what moveMouseToPoint calls).
const require = createRequire(import.meta.url);
const generateVector = (require('@ulixee/default-human-emulator/generateVector') as { default: GenerateVector }).default;
const emulator = (require('@ulixee/default-human-emulator') as { default: Emulator }).default;

/**
 * @ulixee/default-human-emulator (Hero's mover): its `generateVector`, with the emulator's own
 * point counts and overshoot settings, chained through every solution cell (its Bezier spread
 * grows with the distance and cannot be set, so longer hops would leave the corridors). Hero
 * has no timing of its own: natively each point is one CDP call, dispatched back to back
 * (1 to 6 ms apart).
 */
export function heroEmulatorEvents(rng: Rng, maze: Maze, variant: Variant): RawEvent[] {
  const targets = waypoints(rng, maze, 0.1, 1);
  const points: ToolPoint[] = [targets[0]!];
  withSeededRandom(rng, () => {
    for (let i = 0; i + 1 < targets.length; i++) {
      const overshoot = { threshold: emulator.overshootThreshold, radius: emulator.overshootRadius, spread: emulator.overshootSpread };
      points.push(
        ...generateVector(targets[i]!, targets[i + 1]!, 1, emulator.minMoveVectorPoints, emulator.maxMoveVectorPoints, overshoot).slice(1),
      );
    }
  });
  let t = 0;
  for (const p of points) {
    p.t = t;
    t += rng.uniform(1, 6);
  }
  return dispatch(rng, maze, points, variant);
}
