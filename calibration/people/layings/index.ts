import { alongChord } from './alongChord.js';
import { bySubMovement } from './bySubMovement.js';
import type { Laying } from './laying.js';
import { steering } from './steering.js';
import { trendInCorridor } from './trendInCorridor.js';

export type { Laying } from './laying.js';

/** Every way calibrate lays people on mazes; each is held out in turn. */
export const LAYINGS: readonly Laying[] = [alongChord, bySubMovement, trendInCorridor];

/**
 * Layings measured with the shipped table and never fitted on (nor used to choose a feature or a
 * gate): what a laying nobody fitted against does to held-out people.
 */
export const HELD_OUT_LAYINGS: readonly Laying[] = [steering];
