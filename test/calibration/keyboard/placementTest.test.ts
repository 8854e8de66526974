// The exact permutation test of where keyboard gaps fall: its level holds for gaps drawn
// independently of where they fall (whatever their distribution), and gaps that follow the
// placement get the smallest p-value the permutations allow.
import { describe, expect, it } from 'vitest';
import { placementPValue } from '../../../calibration/keyboard/placementTest.js';
import { Rng } from '../../../calibration/random.js';

const PERMUTATIONS = 49;

/** Rows like gapPlacement's: key (3 columns), change of key, junction, dead end, announcement length, wall met, revisit, into a wall. */
function placement(rng: Rng, n: number): number[][] {
  return Array.from({ length: n }, () => {
    const key = Math.floor(rng.next() * 4);
    const wall = rng.next() < 0.1 ? 1 : 0;
    return [
      key === 1 ? 1 : 0,
      key === 2 ? 1 : 0,
      key === 3 ? 1 : 0,
      rng.next() < 0.4 ? 1 : 0,
      rng.next() < 0.2 ? 1 : 0,
      rng.next() < 0.1 ? 1 : 0,
      20 + rng.next() * 40,
      wall,
      rng.next() < 0.2 ? 1 : 0,
      wall,
    ];
  });
}

describe('placementPValue', () => {
  it('accepts gaps drawn independently of where they fall at about its level, whatever they are drawn from', () => {
    const rng = new Rng(11);
    const draws = [() => rng.next(), () => -Math.log(1 - rng.next()), () => Math.exp(3 * rng.next()), () => (rng.next() < 0.9 ? 1 : 20)];
    for (const draw of draws) {
      const ps = Array.from({ length: 300 }, () => {
        const where = placement(rng, 12 + Math.floor(rng.next() * 40));
        return placementPValue(where, where.map(draw), rng, PERMUTATIONS);
      });
      for (const level of [0.1, 0.2, 0.5]) {
        // 300 draws: a share above level + 4 binomial standard deviations would mean the test is not exact.
        expect(ps.filter((p) => p <= level).length / ps.length).toBeLessThanOrEqual(level + 4 * Math.sqrt((level * (1 - level)) / 300));
      }
      expect(Math.min(...ps)).toBeGreaterThanOrEqual(1 / (PERMUTATIONS + 1));
      // Not stuck at 1 either: the p-values spread over (0, 1].
      expect(ps.filter((p) => p <= 0.5).length).toBeGreaterThan(90);
    }
  });

  it('gives gaps that follow where they fall the smallest p-value the permutations allow', () => {
    const rng = new Rng(12);
    const where = placement(rng, 30);
    const ys = where.map((row) => 3 * row[3]! + 2 * row[4]! + rng.next());
    expect(placementPValue(where, ys, rng, PERMUTATIONS)).toBe(1 / (PERMUTATIONS + 1));
  });

  it('is 1 when there are too few gaps to fit', () => {
    const rng = new Rng(13);
    expect(placementPValue(placement(rng, 3), [1, 2, 3], rng, PERMUTATIONS)).toBe(1);
  });
});
