import { describe, expect, it } from 'vitest';
import { SHAPE_POINTS } from '../../../src/kernel/features.js';
import { TraceFingerprints } from '../../../src/core/scoring/TraceFingerprints.js';
import { MemoryStore } from '../../../src/store/MemoryStore.js';
import type { Store } from '../../../src/store/Store.js';

const newStore = () => new MemoryStore({ maxMarkers: 10, maxCounters: 10 });

/** A shape: timing curve t^a, progress curve t^b (both rising from 0 to 1). */
function shape(a: number, b: number): Float64Array {
  const s = new Float64Array(2 * SHAPE_POINTS);
  for (let k = 0; k < SHAPE_POINTS; k++) {
    const f = (k + 0.5) / SHAPE_POINTS;
    s[k] = f ** a;
    s[SHAPE_POINTS + k] = f ** b;
  }
  return s;
}

describe('TraceFingerprints', async () => {
  it('matches a remembered shape and its near-copies, not a different trace', async () => {
    const fp = new TraceFingerprints(newStore());
    const original = shape(1.3, 0.8);
    expect(await fp.has(original)).toBe(false);
    await fp.remember(original);
    expect(await fp.has(original)).toBe(true);
    const copy = original.map((v, i) => v + (i < SHAPE_POINTS ? 0.004 : 0.1) * (i % 2 ? 1 : -1));
    expect(await fp.has(copy)).toBe(true);
    expect(await fp.has(shape(1.4, 0.8))).toBe(false);
    // Same timing, different progress: a different trace.
    expect(await fp.has(shape(1.3, 2))).toBe(false);
  });

  it('finds copies that fall across a bucket boundary', async () => {
    const fp = new TraceFingerprints(newStore());
    const original = shape(1, 1);
    // Sample 3 sits at 0.1458; move the original just under the 0.125 boundary.
    original[3] = 0.1249;
    await fp.remember(original);
    const copy = Float64Array.from(original);
    copy[3] = 0.1275;
    expect(await fp.has(copy)).toBe(true);
  });

  it('reads remembered bytes where the store puts them (a view inside a larger buffer), and never matches bytes of another length', async () => {
    const original = shape(1.3, 0.8);
    // A store that hands back what was appended as views at an odd offset of a larger buffer (as
    // a pooled Buffer from a network client is), beside a truncated and a padded copy.
    let kept: Uint8Array[] = [];
    const store = {
      async append(_key: string, item: Uint8Array) {
        const wide = new Uint8Array(item.length + 9);
        wide.set(item, 3);
        kept = [wide.subarray(3, 3 + item.length - 4), wide.subarray(0, item.length + 9), wide.subarray(3, 3 + item.length)];
      },
      async lists(keys: readonly string[]) {
        return keys.map(() => kept);
      },
    } as unknown as Store;
    const fp = new TraceFingerprints(store);
    await fp.remember(original);
    expect(await fp.has(original)).toBe(true);
    kept = kept.slice(0, 2);
    expect(await fp.has(original)).toBe(false);
  });

  it('ignores empty shapes and stays bounded', async () => {
    const fp = new TraceFingerprints(new MemoryStore({ maxMarkers: 1, maxCounters: 1, maxLists: 1 }));
    const empty = new Float64Array(2 * SHAPE_POINTS);
    await fp.remember(empty);
    expect(await fp.has(empty)).toBe(false);
    const first = shape(1, 1),
      second = shape(2, 1);
    await fp.remember(first);
    await fp.remember(second);
    expect(await fp.has(second)).toBe(true);
    expect(await fp.has(first)).toBe(false);
  });
});
