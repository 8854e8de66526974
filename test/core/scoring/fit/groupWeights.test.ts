import { describe, expect, it } from 'vitest';
import { groupWeights } from '../../../../src/core/scoring/fit/groupWeights.js';

describe('groupWeights', () => {
  const items = [
    { who: 'ann', human: true },
    { who: 'bob', human: true },
    { who: 'ann', human: true },
    { who: 'linear', human: false },
    { who: 'ann', human: false },
    { who: 'linear', human: false },
    { who: 'ann', human: true },
  ];
  const weights = groupWeights(
    items,
    (x) => x.human,
    (x) => x.who,
  );

  it('gives each class 1 in all and each group within a class an equal share, in the order given', () => {
    // People: ann (3 traces) and bob (1) weigh 1/2 each; bots: linear (2) and a family also named ann (1).
    expect(weights).toEqual([1 / 6, 1 / 2, 1 / 6, 1 / 4, 1 / 2, 1 / 4, 1 / 6]);
    const sum = (human: boolean) => weights.filter((_, i) => items[i]!.human === human).reduce((a, b) => a + b, 0);
    expect(sum(true)).toBeCloseTo(1, 12);
    expect(sum(false)).toBeCloseTo(1, 12);
  });

  it('makes each item a group of its own when the group is its index', () => {
    expect(
      groupWeights(
        ['a', 'b', 'c', 'd'],
        () => true,
        (_, i) => String(i),
      ),
    ).toEqual([0.25, 0.25, 0.25, 0.25]);
  });
});
