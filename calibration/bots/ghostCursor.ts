import { path as ghostPath } from 'ghost-cursor';
import type { TimedVector } from 'ghost-cursor/lib/math.js';
import type { Maze, RawEvent } from '../../src/kernel/index.js';
import type { Rng } from '../random.js';
import { dispatch, type ToolPoint, type Variant } from './dispatch.js';
import { waypoints } from './waypoints.js';
import { withSeededRandom } from './withSeededRandom.js';

/**
 * ghost-cursor's path generator (`path(from, to, { useTimestamps })`, the points its
 * `cursor.move` dispatches) chained through the solution's turn points. The spread of its
 * Bezier anchors is set small (2 to 6 px) so the curves stay inside the 40 px corridors;
 * `moveSpeed` is left random per leg as the library does. Native timing is its own
 * timestamps.
 */
export function ghostCursorEvents(rng: Rng, maze: Maze, variant: Variant): RawEvent[] {
  const targets = waypoints(rng, maze, 0.15);
  const spreadOverride = rng.uniform(2, 6);
  const points: ToolPoint[] = [];
  withSeededRandom(rng, () => {
    for (let i = 0; i + 1 < targets.length; i++) {
      const leg = ghostPath(targets[i]!, targets[i + 1]!, { useTimestamps: true, spreadOverride }) as TimedVector[];
      const offset = points.length > 0 ? points[points.length - 1]!.t! - leg[0]!.timestamp : -leg[0]!.timestamp;
      for (const p of leg.slice(points.length > 0 ? 1 : 0)) points.push({ x: p.x, y: p.y, t: p.timestamp + offset });
    }
  });
  return dispatch(rng, maze, points, variant);
}
