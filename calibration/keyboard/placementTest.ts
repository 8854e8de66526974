import { gapStructure } from '../../src/core/scoring/keyboard/gapPlacement.js';
import type { Rng } from '../random.js';

/**
 * The p-value of an exact permutation test that the gaps of a solve fall independently of where
 * they fall: `ys` (ranks of the gaps) shuffled `permutations` times against `where`
 * (gapPlacement), the statistic keyboard_gap_structure each time, p = (1 + shuffles scoring at or
 * above the solve) / (1 + permutations). For a script whose gaps are exchangeable (drawn
 * independently of the maze, from any distribution, or a person's own gaps shuffled), P(p <= a)
 * <= a for every a, whatever it draws: no fitting is involved. So the share of a people model
 * with p <= a is the most a decision on where gaps fall can accept of those people while it
 * lets such scripts through at a (for this statistic). 1 when there is too little to measure.
 */
export function placementPValue(where: readonly (readonly number[])[], ys: readonly number[], rng: Rng, permutations: number): number {
  const observed = gapStructure(where, ys);
  if (!Number.isFinite(observed)) return 1;
  const shuffled = [...ys];
  let atLeast = 0;
  for (let k = 0; k < permutations; k++) {
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = Math.floor(rng.next() * (i + 1));
      [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
    }
    if (gapStructure(where, shuffled) >= observed) atLeast++;
  }
  return (1 + atLeast) / (1 + permutations);
}
