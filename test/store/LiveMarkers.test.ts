import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LiveMarkers } from '../../src/store/LiveMarkers.js';

describe('LiveMarkers', () => {
  it('never holds more than max, and never loses a live marker, whatever is inserted when', () => {
    const op = fc.record({
      key: fc.integer({ min: 0, max: 30 }),
      advance: fc.integer({ min: 0, max: 40 }),
      life: fc.integer({ min: 1, max: 120 }),
      tagged: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(op, { maxLength: 300 }), (max, ops) => {
        let now = 1_000;
        const markers = new LiveMarkers({ max, now: () => now, reclaimIntervalMs: 25 });
        const live = new Map<string, { expiresAt: number; tag: string | undefined }>();
        for (const o of ops) {
          now += o.advance;
          for (const [k, m] of live) if (now > m.expiresAt) live.delete(k);
          // Every live marker is still there, with its tag.
          for (const [k, m] of live) expect(markers.get(k)).toEqual({ tag: m.tag });
          const key = `k${o.key}`;
          if (live.has(key)) continue;
          expect(markers.get(key)).toBeUndefined();
          const tag = o.tagged ? `t${o.key}` : undefined;
          if (markers.insert(key, now + o.life, tag)) live.set(key, { expiresAt: now + o.life, tag });
          // Refused only when full.
          else expect(markers.size).toBe(max);
          expect(markers.size).toBeLessThanOrEqual(max);
        }
      }),
    );
  });

  it('refuses a new marker while full of live ones, then takes it once one has expired and the sweep is due', () => {
    let now = 0;
    const markers = new LiveMarkers({ max: 2, now: () => now, reclaimIntervalMs: 1_000 });
    expect(markers.insert('a', 10.5, undefined)).toBe(true);
    expect(markers.insert('b', 5_000, 'tag')).toBe(true);
    expect(markers.insert('c', 5_000, undefined)).toBe(false);
    now = 11; // a's expiry falls in millisecond 10, so it is live through it
    expect(markers.get('a')).toEqual({ tag: undefined });
    expect(markers.insert('c', 5_000, undefined)).toBe(false);
    now = 12;
    // The sweep at the first refusal (time 0) found none expired; the next is due 1,000 ms after it.
    expect(markers.insert('c', 5_000, undefined)).toBe(false);
    now = 1_001;
    expect(markers.insert('c', 5_000, undefined)).toBe(true);
    expect(markers.get('a')).toBeUndefined();
    expect(markers.get('b')).toEqual({ tag: 'tag' });
  });

  it('rejects a max that is not a positive integer', () => {
    for (const max of [0, -1, 1.5, Number.NaN])
      expect(() => new LiveMarkers({ max, now: Date.now, reclaimIntervalMs: 1 })).toThrow(RangeError);
  });
});
