/** TurnBatcher: what is added in one turn goes in one call, each caller gets its own outcome. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TurnBatcher } from '../../../src/store/redis/helpers/TurnBatcher.js';

/** A batcher that doubles numbers and records each batch it was asked to send. */
function doubling(maxBatch: number) {
  const batches: number[][] = [];
  const batcher = new TurnBatcher<number, number>(async (items) => {
    batches.push([...items]);
    return items.map((n) => n * 2);
  }, maxBatch);
  return { batcher, batches };
}

describe('TurnBatcher', () => {
  it('sends what is added in one turn as one batch, and later turns as their own', async () => {
    const { batcher, batches } = doubling(100);
    const first = await Promise.all([1, 2, 3].map((n) => batcher.add(n)));
    const second = await Promise.all([4, 5].map((n) => batcher.add(n)));
    expect(first).toEqual([2, 4, 6]);
    expect(second).toEqual([8, 10]);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('sends at once when maxBatch items have gathered; every item answered', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 0, max: 40 }), async (maxBatch, count) => {
        const { batcher, batches } = doubling(maxBatch);
        const items = Array.from({ length: count }, (_, i) => i);
        const replies = await Promise.all(items.map((n) => batcher.add(n)));
        expect(replies).toEqual(items.map((n) => n * 2));
        expect(batches.length).toBe(Math.ceil(count / maxBatch));
        expect(batches.every((b) => b.length <= maxBatch)).toBe(true);
        expect(batches.flat()).toEqual(items);
      }),
      { numRuns: 60 },
    );
  });

  it('an Error outcome rejects its own item only', async () => {
    const batcher = new TurnBatcher<number, number>(async (items) => items.map((n) => (n === 2 ? new Error('this one') : n)), 10);
    const results = await Promise.allSettled([1, 2, 3].map((n) => batcher.add(n)));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).toEqual([1, 'this one', 3]);
  });

  it('a failed call, a call that throws, and a wrong number of outcomes reject every item of the batch', async () => {
    const senders = [
      async () => Promise.reject(new Error('connection lost')),
      () => {
        throw new Error('thrown before any promise');
      },
      async () => [1],
    ];
    for (const send of senders) {
      const batcher = new TurnBatcher<number, number>(send, 10);
      const results = await Promise.allSettled([1, 2].map((n) => batcher.add(n)));
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    }
  });
});
