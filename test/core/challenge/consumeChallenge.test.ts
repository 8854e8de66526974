import { describe, expect, it } from 'vitest';
import { consumeChallenge } from '../../../src/core/challenge/consumeChallenge.js';
import { MemoryStore } from '../../../src/store/MemoryStore.js';

describe('consumeChallenge', () => {
  // Issued when the store started: a store answers `used` for anything issued before it can vouch for its memory.
  const challenge = { id: 'ch-1', createdAt: 2_000, spentUntil: 10_000 };

  it('spends a challenge once: the next answer of it is challenge_not_found', async () => {
    const store = new MemoryStore({ maxMarkers: 10, maxCounters: 10, now: () => 2_000 });
    expect(await consumeChallenge(store, challenge)).toBeUndefined();
    expect(await consumeChallenge(store, challenge)).toMatchObject({ code: 'challenge_not_found' });
  });

  it('fails closed (store_unavailable) when the store cannot record it', async () => {
    const store = new MemoryStore({ maxMarkers: 1, maxCounters: 10, now: () => 2_000 });
    expect(await consumeChallenge(store, { ...challenge, id: 'other' })).toBeUndefined();
    expect(await consumeChallenge(store, challenge)).toMatchObject({ code: 'store_unavailable' });
  });
});
