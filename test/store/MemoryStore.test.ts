import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/store/MemoryStore.js';
import type { Lifetime } from '../../src/store/Store.js';

/** The life of a thing issued when the store's memory began (the earliest it accepts). */
const life = (store: MemoryStore, expiresAt: number): Lifetime => ({ issuedAt: store.since(), expiresAt });

/** A clock the test moves by hand. */
function manualClock(start = 1_700_000_000_000) {
  let t = start;
  return { now: () => t, advance: (ms: number) => void (t += ms), set: (ms: number) => void (t = ms) };
}

describe('MemoryStore.consume', () => {
  it('answers fresh once, then used until the guarded thing expires', async () => {
    const clock = manualClock();
    const store = new MemoryStore({ maxMarkers: 10, maxCounters: 10, now: clock.now });
    const expiresAt = clock.now() + 5_000;
    expect(await store.consume('a', life(store, expiresAt))).toBe('fresh');
    expect(await store.consume('a', life(store, expiresAt))).toBe('used');
    expect(await store.consume('b', life(store, expiresAt))).toBe('fresh');
    clock.set(expiresAt); // still the last millisecond of its life
    expect(await store.consume('a', life(store, expiresAt))).toBe('used');
    clock.advance(1);
    expect(await store.consume('a', life(store, expiresAt + 5_000))).toBe('fresh');
  });

  it('keeps a marker whose expiry is a fraction of a millisecond away', async () => {
    const clock = manualClock();
    const store = new MemoryStore({ maxMarkers: 10, maxCounters: 10, now: clock.now });
    const expiresAt = clock.now() + 0.4;
    expect(await store.consume('a', life(store, expiresAt))).toBe('fresh');
    expect(await store.consume('a', life(store, expiresAt))).toBe('used');
    // The clock reads whole milliseconds: the marker lives through the one its expiry falls in.
    clock.advance(1);
    expect(await store.consume('a', life(store, expiresAt + 10))).toBe('used');
    clock.advance(1);
    expect(await store.consume('a', life(store, expiresAt + 10))).toBe('fresh');
  });

  it('refuses (full) rather than drop a live marker, and reclaims space once markers expire', async () => {
    const clock = manualClock();
    const store = new MemoryStore({ maxMarkers: 100, maxCounters: 10, now: clock.now });
    for (let i = 0; i < 100; i++) {
      expect(await store.consume(`m${i}`, life(store, clock.now() + 10_000 + i))).toBe('fresh');
    }
    expect(await store.consume('late', life(store, clock.now() + 10_000))).toBe('full');
    // every marker is still there
    for (let i = 0; i < 100; i++) expect(await store.consume(`m${i}`, life(store, 0))).toBe('used');
    expect(await store.consume('late', life(store, clock.now() + 10_000))).toBe('full');

    clock.advance(10_000 + 5); // m0..m4 are now expired (their last live ms was +10_000+i)
    for (let i = 0; i < 5; i++) expect(await store.consume(`new${i}`, life(store, clock.now() + 60_000))).toBe('fresh');
    expect(await store.consume('new5', life(store, clock.now() + 60_000))).toBe('full');
    for (let i = 5; i < 100; i++) expect(await store.consume(`m${i}`, life(store, 0))).toBe('used');
    expect(store.size.markers).toBe(100);
  });

  it('does not sweep on every refusal while full, but does once the earliest marker expired', async () => {
    const clock = manualClock();
    const store = new MemoryStore({ maxMarkers: 3, maxCounters: 3, now: clock.now, reclaimIntervalMs: 1_000 });
    await store.consume('a', life(store, clock.now() + 100));
    await store.consume('b', life(store, clock.now() + 5_000));
    await store.consume('c', life(store, clock.now() + 5_000));
    expect(await store.consume('d', life(store, clock.now() + 5_000))).toBe('full'); // sweeps: nothing stale
    clock.advance(101); // 'a' expired, but the next sweep is due only after the interval
    expect(await store.consume('d', life(store, clock.now() + 5_000))).toBe('full');
    clock.advance(1_000);
    expect(await store.consume('d', life(store, clock.now() + 5_000))).toBe('fresh');
    expect(await store.consume('b', life(store, 0))).toBe('used');
    expect(await store.consume('c', life(store, 0))).toBe('used');
  });

  it('never evicts a live marker under heavy insertion', async () => {
    const clock = manualClock();
    const max = 1_000;
    const store = new MemoryStore({ maxMarkers: max, maxCounters: 10, now: clock.now });
    // Guarded markers that must survive, with long lives.
    for (let i = 0; i < 100; i++) await store.consume(`keep${i}`, life(store, clock.now() + 3_600_000));
    let fresh = 0;
    let full = 0;
    // 50,000 insertions of short-lived markers while time moves on: room is made only by expiry.
    for (let i = 0; i < 50_000; i++) {
      if (i % 100 === 0) clock.advance(50);
      const r = await store.consume(`flood${i}`, life(store, clock.now() + 2_000));
      if (r === 'fresh') fresh++;
      else if (r === 'full') full++;
      expect(store.size.markers).toBeLessThanOrEqual(max);
    }
    expect(fresh).toBeGreaterThan(max); // space was reclaimed many times
    expect(full).toBeGreaterThan(0); // and the store did fill up
    for (let i = 0; i < 100; i++) expect(await store.consume(`keep${i}`, life(store, 0))).toBe('used');
  });

  it('is atomic for concurrent callers: one fresh among 50', async () => {
    const store = new MemoryStore({ maxMarkers: 10, maxCounters: 10 });
    const results = await Promise.all(Array.from({ length: 50 }, () => store.consume('x', life(store, Date.now() + 60_000))));
    expect(results.filter((r) => r === 'fresh')).toHaveLength(1);
    expect(results.filter((r) => r === 'used')).toHaveLength(49);
  });

  it('rejects a non-positive size', () => {
    expect(() => new MemoryStore({ maxMarkers: 0, maxCounters: 1 })).toThrow(RangeError);
    expect(() => new MemoryStore({ maxMarkers: 1, maxCounters: 1.5 })).toThrow(RangeError);
  });
});

describe('MemoryStore.consume: tags and the start of its memory', () => {
  it('answers again to a retry with the same tag, used to any other second use', async () => {
    const clock = manualClock();
    const store = new MemoryStore({ maxMarkers: 10, maxCounters: 10, now: clock.now });
    const l = life(store, clock.now() + 5_000);
    expect(await store.consume('t', l, 'key-1')).toBe('fresh');
    expect(await store.consume('t', l, 'key-1')).toBe('again');
    expect(await store.consume('t', l, 'key-1')).toBe('again');
    expect(await store.consume('t', l, 'key-2')).toBe('used');
    expect(await store.consume('t', l)).toBe('used');
    expect(await store.consume('t', l, '')).toBe('used');
    // A marker written without a tag never answers again, even to an empty one.
    expect(await store.consume('u', l)).toBe('fresh');
    expect(await store.consume('u', l, '')).toBe('used');
  });

  it('refuses as used anything issued before the store was created', async () => {
    const clock = manualClock();
    const store = new MemoryStore({ maxMarkers: 10, maxCounters: 10, now: clock.now });
    const start = store.since();
    expect(start).toBe(clock.now());
    clock.advance(1_000);
    expect(await store.consume('before', { issuedAt: start - 1, expiresAt: clock.now() + 60_000 })).toBe('used');
    expect(await store.consume('before', { issuedAt: start - 1, expiresAt: clock.now() + 60_000 }, 'tag')).toBe('used');
    expect(await store.consume('at', { issuedAt: start, expiresAt: clock.now() + 60_000 })).toBe('fresh');
    expect(store.size.markers).toBe(1);
  });
});

describe('MemoryStore.increment', () => {
  it('counts within a window and starts over after it', async () => {
    const clock = manualClock();
    const store = new MemoryStore({ maxMarkers: 10, maxCounters: 10, now: clock.now });
    expect(await store.increment('k', 1_000)).toBe(1);
    expect(await store.increment('k', 1_000)).toBe(2);
    expect(await store.increment('other', 1_000)).toBe(1);
    clock.advance(999);
    expect(await store.increment('k', 1_000)).toBe(3); // a fixed window: not extended by use
    clock.advance(2);
    expect(await store.increment('k', 1_000)).toBe(1);
  });

  it('when full of live counters, evicts the least recently used one instead of refusing', async () => {
    const clock = manualClock();
    const store = new MemoryStore({ maxMarkers: 10, maxCounters: 3, now: clock.now });
    for (const k of ['a', 'b', 'c']) expect(await store.increment(k, 60_000)).toBe(1);
    expect(await store.increment('a', 60_000)).toBe(2); // recency now: b, c, a
    expect(await store.increment('d', 60_000)).toBe(1); // evicts b: c, a, d
    expect(store.size.counters).toBe(3);
    expect(await store.increment('a', 60_000)).toBe(3); // kept: c, d, a
    expect(await store.increment('c', 60_000)).toBe(2); // kept: d, a, c
    expect(await store.increment('b', 60_000)).toBe(1); // b starts over, evicting d: a, c, b
    expect(await store.increment('a', 60_000)).toBe(4);
    expect(await store.increment('c', 60_000)).toBe(3);
    expect(await store.increment('d', 60_000)).toBe(1); // d was evicted and starts over
    expect(store.size.counters).toBe(3);
  });

  it('keeps counting a busy key exactly through a flood of new keys', async () => {
    const clock = manualClock();
    const store = new MemoryStore({ maxMarkers: 10, maxCounters: 100, now: clock.now });
    let busy = 0;
    for (let i = 0; i < 20_000; i++) {
      const n = await store.increment(`flood${i}`, 60_000);
      expect(n).toBe(1); // a new key is always counted, never refused
      if (i % 50 === 0) expect(await store.increment('busy', 60_000)).toBe(++busy);
      expect(store.size.counters).toBeLessThanOrEqual(100);
    }
    expect(busy).toBe(400);
    expect(await store.increment('flood0', 60_000)).toBe(1); // long evicted: it starts over
  });

  it('lets a counter full of flood never touch the markers, which still refuse when full', async () => {
    const clock = manualClock();
    const store = new MemoryStore({ maxMarkers: 3, maxCounters: 3, now: clock.now });
    for (const k of ['m1', 'm2', 'm3']) expect(await store.consume(k, life(store, clock.now() + 60_000))).toBe('fresh');
    for (let i = 0; i < 1_000; i++) expect(await store.increment(`c${i}`, 60_000)).toBe(1);
    expect(await store.consume('m4', life(store, clock.now() + 60_000))).toBe('full');
    for (const k of ['m1', 'm2', 'm3']) expect(await store.consume(k, life(store, 0))).toBe('used');
    expect(store.size).toEqual({ markers: 3, counters: 3, lists: 0 });
  });

  it('keeps counters and markers apart', async () => {
    const clock = manualClock();
    const store = new MemoryStore({ maxMarkers: 1, maxCounters: 1, now: clock.now });
    expect(await store.consume('k', life(store, clock.now() + 1_000))).toBe('fresh');
    expect(await store.increment('k', 1_000)).toBe(1);
    expect(await store.consume('k2', life(store, clock.now() + 1_000))).toBe('full');
  });

  it('forgets everything on close', async () => {
    const store = new MemoryStore({ maxMarkers: 2, maxCounters: 2 });
    await store.consume('a', life(store, Date.now() + 60_000));
    await store.increment('c', 60_000);
    await store.close();
    expect(store.size).toEqual({ markers: 0, counters: 0, lists: 0 });
  });
});

describe('MemoryStore.increment by', () => {
  it('adds any non-negative amount; 0 reads without creating', async () => {
    const clock = manualClock();
    const store = new MemoryStore({ maxMarkers: 10, maxCounters: 10, now: clock.now });
    expect(await store.increment('k', 1_000, 0)).toBe(0);
    expect(store.size.counters).toBe(0);
    expect(await store.increment('k', 1_000, 5)).toBe(5);
    expect(await store.increment('k', 1_000)).toBe(6);
    expect(await store.increment('k', 1_000, 0)).toBe(6);
    clock.advance(1_001);
    expect(await store.increment('k', 1_000, 0)).toBe(0);
  });
});

describe('MemoryStore lists', () => {
  const bytes = (...v: number[]) => Uint8Array.from(v);

  it('keeps the newest cap items per key, oldest first, for ttl after the last append', async () => {
    const clock = manualClock();
    const store = new MemoryStore({ maxMarkers: 1, maxCounters: 1, now: clock.now });
    for (let i = 1; i <= 5; i++) await store.append('a', bytes(i), 1_000, 3);
    await store.append('b', bytes(9), 1_000, 3);
    expect(await store.lists(['a', 'missing', 'b'])).toEqual([[bytes(3), bytes(4), bytes(5)], [], [bytes(9)]]);
    clock.advance(800);
    await store.append('a', bytes(6), 1_000, 3); // renews a, not b
    clock.advance(300);
    expect(await store.lists(['a', 'b'])).toEqual([[bytes(4), bytes(5), bytes(6)], []]);
  });

  it('copies what it is given', async () => {
    const store = new MemoryStore({ maxMarkers: 1, maxCounters: 1 });
    const item = bytes(1, 2);
    await store.append('a', item, 1_000, 3);
    item[0] = 7;
    expect(await store.lists(['a'])).toEqual([[bytes(1, 2)]]);
  });

  it('holds at most maxLists lists, forgetting the least recently used', async () => {
    const store = new MemoryStore({ maxMarkers: 1, maxCounters: 1, maxLists: 2 });
    await store.append('a', bytes(1), 60_000, 3);
    await store.append('b', bytes(2), 60_000, 3);
    await store.lists(['a']);
    await store.append('c', bytes(3), 60_000, 3);
    expect(await store.lists(['a', 'b', 'c'])).toEqual([[bytes(1)], [], [bytes(3)]]);
    expect(store.size.lists).toBe(2);
  });

  it('reports itself healthy', async () => {
    expect(await new MemoryStore({ maxMarkers: 1, maxCounters: 1 }).health()).toEqual({ ok: true });
  });
});
