import { createRequire } from 'node:module';
import type { Maze, RawEvent } from '../../src/kernel/index.js';
import type { Rng } from '../random.js';
import { dispatch, type ToolPoint, type Variant } from './dispatch.js';
import { waypoints } from './waypoints.js';
import { withSeededRandom } from './withSeededRandom.js';

// The package is CommonJS with its class as module.exports.
const WindMouse = createRequire(import.meta.url)('windmouse') as typeof import('windmouse').default;

/**
 * The `windmouse` package (a port of Benjamin J. Land's WindMouse) through the solution's turn
 * points, with settings a bot author would pick to stay in 40 px corridors (little wind, strong
 * gravity). Native timing is its own waits (minWait to maxWait ms per step, by step size).
 */
export async function windmousePackageEvents(rng: Rng, maze: Maze, variant: Variant): Promise<RawEvent[]> {
  const targets = waypoints(rng, maze, 0.15);
  const minWait = rng.uniform(2, 8);
  const settings = {
    gravity: rng.uniform(7, 12),
    wind: rng.uniform(1, 3),
    minWait,
    maxWait: minWait + rng.uniform(2, 12),
    maxStep: rng.uniform(5, 12),
    targetArea: rng.uniform(6, 12),
  };
  const points: ToolPoint[] = [{ ...targets[0]!, t: 0 }];
  for (let i = 0; i + 1 < targets.length; i++) {
    const from = points[points.length - 1]!;
    const to = targets[i + 1]!;
    const leg = await withSeededRandom(rng, () =>
      new WindMouse(rng.uniform(5, 15)).GeneratePoints({ ...settings, startX: from.x, startY: from.y, endX: to.x, endY: to.y }),
    );
    for (const [x, y, wait] of leg) points.push({ x: x!, y: y!, t: from.t! + wait! });
  }
  return dispatch(rng, maze, points, variant);
}
