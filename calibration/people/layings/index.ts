import { alongChord } from './alongChord.js';
import { bySubMovement } from './bySubMovement.js';
import type { Laying } from './laying.js';
import { trendInCorridor } from './trendInCorridor.js';

export type { Laying } from './laying.js';

/** Every way calibrate lays people on mazes; each is held out in turn. */
export const LAYINGS: readonly Laying[] = [alongChord, bySubMovement, trendInCorridor];
