import { describe, expect, it } from 'vitest';
import { FAILURE_WEIGHT, POW_WINDOW_MS, extraBits, notePowFailure, powDifficultyFor } from '../../../src/core/pow/adaptiveDifficulty.js';
import { MemoryStore } from '../../../src/store/MemoryStore.js';

const POW = { difficulty: 10, maxDifficulty: 14, freePerMinute: 10 };
const T0 = Date.UTC(2030, 0, 1); // a window boundary

function setup() {
  let now = T0;
  const store = new MemoryStore({ maxMarkers: 100, maxCounters: 1_000, now: () => now });
  return {
    store,
    at: (t: number) => (now = t),
    issue: (binding: string) => powDifficultyFor(store, binding, POW, now),
  };
}

describe('extraBits', () => {
  it('is 0 up to the free load, then one bit per doubling', () => {
    expect([0, 1, 10, 10.5, 20, 20.1, 40, 41, 80, 160, 1e6].map((l) => extraBits(l, 10))).toEqual([0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 17]);
  });
});

describe('powDifficultyFor', () => {
  it('rises under a burst from one binding, one bit per doubling, up to the maximum; others stay at the floor', async () => {
    const s = setup();
    const seen: number[] = [];
    for (let i = 1; i <= 200; i++) seen.push(await s.issue('203.0.113.1'));
    expect(seen.slice(0, 10).every((d) => d === 10)).toBe(true);
    expect(seen[10]).toBe(11); // the 11th
    expect(seen[20]).toBe(12); // the 21st
    expect(seen[40]).toBe(13);
    expect(seen[80]).toBe(14);
    expect(Math.max(...seen)).toBe(14);
    expect(seen.every((d, i) => i === 0 || d >= seen[i - 1]!)).toBe(true);
    expect(await s.issue('203.0.113.2')).toBe(10);
  });

  it('decays back: the last window weighs less as the new one goes on, and nothing after two quiet windows', async () => {
    const s = setup();
    for (let i = 0; i < 80; i++) await s.issue('a');
    // Half-way through the next window, 80 * 0.5 + 1 = 41 -> 3 bits.
    s.at(T0 + POW_WINDOW_MS * 1.5);
    expect(await s.issue('a')).toBe(13);
    // Two windows on, the counts of the burst are gone.
    s.at(T0 + POW_WINDOW_MS * 3);
    expect(await s.issue('a')).toBe(10);
  });

  it('counts a failed /verify as FAILURE_WEIGHT challenges', async () => {
    const s = setup();
    expect(FAILURE_WEIGHT).toBe(4);
    for (let i = 0; i < 3; i++) await notePowFailure(s.store, 'b', POW, T0);
    expect(await s.issue('b')).toBe(11); // 12 + 1 = 13 > 10
    expect(await s.issue('c')).toBe(10);
  });

  it('writes nothing when the policy does not adapt', async () => {
    const s = setup();
    const fixed = { ...POW, maxDifficulty: POW.difficulty };
    for (let i = 0; i < 50; i++) expect(await powDifficultyFor(s.store, 'd', fixed, T0)).toBe(10);
    await notePowFailure(s.store, 'd', fixed, T0);
    expect(s.store.size.counters).toBe(0);
  });
});

describe('a store that cannot answer', () => {
  it('issues at the most difficult (the load cannot be measured), and leaves no unhandled rejection', async () => {
    const { StoreUnavailableError } = await import('../../../src/store/Store.js');
    const down = new MemoryStore({ maxMarkers: 1, maxCounters: 1 });
    down.increment = async () => {
      throw new StoreUnavailableError('down');
    };
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      expect(await powDifficultyFor(down, 'a', POW, T0)).toBe(POW.maxDifficulty);
      await notePowFailure(down, 'a', POW, T0); // a lost failure count does not fail /verify
      await new Promise((r) => setTimeout(r, 20));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });

  it('lets any other failure through', async () => {
    const broken = new MemoryStore({ maxMarkers: 1, maxCounters: 1 });
    broken.increment = async () => {
      throw new TypeError('a bug');
    };
    await expect(powDifficultyFor(broken, 'a', POW, T0)).rejects.toThrow(TypeError);
  });
});
