// groupShare: the share of variance explained by a grouping, corrected for chance.
import { describe, expect, it } from 'vitest';
import { groupShare } from '../../../../../src/core/scoring/keyboard/helpers/sampleStats.js';
import { Rng } from '../../../../../calibration/random.js';

describe('groupShare', () => {
  it('is 1 when each group is a constant of its own, and exact on a hand-worked example', () => {
    expect(
      groupShare(
        [
          [1, 1, 1],
          [5, 5, 5],
        ],
        2,
      ),
    ).toBe(1);
    // Groups [0, 2] and [4, 6]: total 20, within 4, between 16; (16 - 1 * 4 / 2) / 20 = 0.7.
    expect(
      groupShare(
        [
          [0, 2],
          [4, 6],
        ],
        1,
      ),
    ).toBeCloseTo(0.7, 12);
  });

  it('averages about 0 for groups drawn from one distribution', () => {
    const rng = new Rng(3);
    let sum = 0;
    for (let k = 0; k < 300; k++)
      sum += groupShare(
        [0, 1, 2, 3].map(() => Array.from({ length: 6 }, () => Math.exp(rng.gauss()))),
        2,
      );
    expect(Math.abs(sum / 300)).toBeLessThan(0.05);
  });

  it('is NaN with one group or too few samples, 0 when every sample is equal, and ignores empty groups', () => {
    expect(groupShare([[1, 2, 3]], 2)).toBeNaN();
    expect(groupShare([[1], [2]], 2)).toBeNaN();
    expect(
      groupShare(
        [
          [3, 3],
          [3, 3],
        ],
        1,
      ),
    ).toBe(0);
    expect(groupShare([[1, 1], [], [5, 5]], 1)).toBe(1);
  });
});
