import { describe, expect, it } from 'vitest';
import { percentile, summarizeTraffic } from '../../../src/core/traffic/summarizeTraffic.js';
import { LATENCY_BOUNDS_MS } from '../../../src/core/traffic/trafficNames.js';
import { MemoryTrafficStore } from '../../../src/store/traffic/MemoryTrafficStore.js';

const NOW = Date.UTC(2030, 0, 1, 12, 7, 30);
const MINUTE = Math.floor(NOW / 60_000);

describe('summarizeTraffic', () => {
  it('lays counts out per minute over the last hour, per site or summed over sites', async () => {
    const store = new MemoryTrafficStore({ maxCount: 1, maxBytes: 65_536 }, () => NOW);
    await store.addCounts([
      [`${MINUTE}\tshop\tchallenge`, 2],
      [`${MINUTE}\tblog\tchallenge`, 5],
      [`${MINUTE - 59}\tshop\tchallenge`, 1],
      // Outside the hour: not shown.
      [`${MINUTE - 60}\tshop\tchallenge`, 100],
    ]);
    const all = await summarizeTraffic(store, 'hour', null, NOW);
    expect(all.times).toHaveLength(60);
    expect(all.times.at(-1)).toBe(MINUTE * 60);
    expect(all.series.challenge!.at(-1)).toBe(7);
    expect(all.series.challenge![0]).toBe(1);
    expect(all.series.challenge!.reduce((a, b) => a + b)).toBe(8);
    expect(all.sites).toEqual(['blog', 'shop']);
    const shop = await summarizeTraffic(store, 'hour', 'shop', NOW);
    expect(shop.series.challenge!.at(-1)).toBe(2);
  });

  it('sums a day in quarter hours aligned to the clock', async () => {
    const store = new MemoryTrafficStore({ maxCount: 1, maxBytes: 65_536 }, () => NOW);
    // 12:07 and 12:00 share the quarter from 12:00; 11:59 is the one before.
    await store.addCounts([
      [`${MINUTE}\t\tverify:ok`, 1],
      [`${MINUTE - 7}\t\tverify:ok`, 2],
      [`${MINUTE - 8}\t\tverify:ok`, 4],
    ]);
    const day = await summarizeTraffic(store, 'day', null, NOW);
    expect(day.times).toHaveLength(96);
    expect(day.times.at(-1)).toBe((MINUTE - 7) * 60);
    expect(day.series['verify:ok']!.slice(-2)).toEqual([4, 3]);
  });

  it('reads p50 and p99 per route and step from the latency buckets, over every site', async () => {
    const store = new MemoryTrafficStore({ maxCount: 1, maxBytes: 65_536 }, () => NOW);
    await store.addCounts([
      [`${MINUTE}\t\tlatency:/verify:4`, 98],
      [`${MINUTE}\t\tlatency:/verify:10`, 2],
    ]);
    const s = await summarizeTraffic(store, 'hour', 'shop', NOW);
    expect(s.latency['/verify']!.p50.at(-1)).toBe(LATENCY_BOUNDS_MS[4]);
    expect(s.latency['/verify']!.p99.at(-1)).toBe(LATENCY_BOUNDS_MS[10]);
    expect(s.latency['/verify']!.p50[0]).toBeNull();
    expect(Object.keys(s.series)).toEqual([]);
  });
});

describe('percentile', () => {
  it('is the bound of the bucket where the cumulative count reaches the share', () => {
    const buckets = new Array(LATENCY_BOUNDS_MS.length + 1).fill(0);
    buckets[0] = 50;
    buckets[3] = 49;
    buckets[LATENCY_BOUNDS_MS.length] = 1;
    expect(percentile(buckets, 0.5)).toBe(LATENCY_BOUNDS_MS[0]);
    expect(percentile(buckets, 0.51)).toBe(LATENCY_BOUNDS_MS[3]);
    expect(percentile(buckets, 0.99)).toBe(LATENCY_BOUNDS_MS[3]);
    expect(percentile(buckets, 1)).toBeCloseTo(LATENCY_BOUNDS_MS.at(-1)! * Math.SQRT2);
    expect(percentile(new Array(buckets.length).fill(0), 0.5)).toBeNull();
  });
});
