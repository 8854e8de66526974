/** The TrafficStore contract, on the embedded store and on a real redis-server. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryTrafficStore } from '../../../src/store/traffic/MemoryTrafficStore.js';
import { RedisTrafficStore } from '../../../src/store/traffic/RedisTrafficStore.js';
import { COUNTS_RETENTION_MINUTES, type TraceBounds, type TrafficStore } from '../../../src/store/traffic/TrafficStore.js';
import { type TestRedis, startRedis } from '../../helpers/redisServer.js';
import { until } from '../../helpers/until.js';

let redis: TestRedis;
beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis.close();
});

const NOW = Date.UTC(2030, 0, 1, 12);
const MINUTE = Math.floor(NOW / 60_000);
const opened: TrafficStore[] = [];
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
});

const kinds: [string, (bounds: TraceBounds) => Promise<TrafficStore>][] = [
  ['memory', async (bounds) => new MemoryTrafficStore(bounds, () => NOW)],
  [
    'redis',
    async (bounds) => {
      const store = RedisTrafficStore.open(redis.config(), bounds);
      opened.push(store);
      // Connected in the background: ready once a read answers.
      await until(
        () =>
          store.traces().then(
            () => true,
            () => false,
          ),
        5_000,
      );
      return store;
    },
  ],
];

describe.each(kinds)('TrafficStore (%s)', (_, open) => {
  const line = (i: number, pad = 0) => JSON.stringify({ i, pad: 'x'.repeat(pad) });

  it('adds counts per minute and field, and reads a range of minutes', async () => {
    const store = await open({ maxCount: 10, maxBytes: 100_000 });
    await store.addCounts([
      [`${MINUTE}\tshop\tchallenge`, 2],
      [`${MINUTE}\t\tverify:ok`, 1],
      [`${MINUTE - 1}\tshop\tchallenge`, 5],
    ]);
    await store.addCounts([[`${MINUTE}\tshop\tchallenge`, 3]]);
    const counts = new Map(await store.counts(MINUTE - 1, MINUTE));
    expect(counts).toEqual(
      new Map([
        [`${MINUTE}\tshop\tchallenge`, 5],
        [`${MINUTE}\t\tverify:ok`, 1],
        [`${MINUTE - 1}\tshop\tchallenge`, 5],
      ]),
    );
    expect(await store.counts(MINUTE, MINUTE)).toHaveLength(2);
    expect(await store.counts(MINUTE + 1, MINUTE + 5)).toEqual([]);
  });

  it('keeps at most maxCount traces, the newest, oldest first', async () => {
    const store = await open({ maxCount: 3, maxBytes: 100_000 });
    for (let i = 0; i < 7; i++) await store.addTrace(line(i));
    expect(await store.traces()).toEqual([line(4), line(5), line(6)]);
  });

  it('keeps at most maxBytes of traces (UTF-8), dropping the oldest, and never one larger than the bound', async () => {
    const one = Buffer.byteLength(line(0, 100));
    const store = await open({ maxCount: 1_000, maxBytes: 3 * one });
    for (let i = 0; i < 5; i++) await store.addTrace(line(i, 100));
    expect(await store.traces()).toEqual([line(2, 100), line(3, 100), line(4, 100)]);
    await store.addTrace(line(5, 100));
    expect(await store.traces()).toEqual([line(3, 100), line(4, 100), line(5, 100)]);
    await store.addTrace(line(9, 4 * one));
    expect(await store.traces()).toEqual([line(3, 100), line(4, 100), line(5, 100)]);
    // Fewer characters than the bound, more bytes: counted in bytes, it is not kept.
    const multibyte = JSON.stringify({ s: 'é'.repeat(2 * one) });
    await store.addTrace(multibyte);
    expect(await store.traces()).not.toContain(multibyte);
  });
});

describe('MemoryTrafficStore', () => {
  it('forgets the minutes older than the retention', async () => {
    let now = NOW;
    const store = new MemoryTrafficStore({ maxCount: 1, maxBytes: 65_536 }, () => now);
    await store.addCounts([[`${MINUTE}\t\tchallenge`, 1]]);
    now += (COUNTS_RETENTION_MINUTES + 1) * 60_000;
    await store.addCounts([[`${MINUTE + COUNTS_RETENTION_MINUTES + 1}\t\tchallenge`, 1]]);
    expect(await store.counts(MINUTE, MINUTE)).toEqual([]);
  });

  it('holds the bytes of its traces within the bound after many drops', async () => {
    const store = new MemoryTrafficStore({ maxCount: 50, maxBytes: 65_536 });
    for (let i = 0; i < 5_000; i++) await store.addTrace(JSON.stringify({ i, pad: 'y'.repeat(i % 3_000) }));
    const kept = await store.traces();
    expect(kept.length).toBeLessThanOrEqual(50);
    expect(store.traceBytes).toBe(kept.reduce((n, l) => n + Buffer.byteLength(l), 0));
    expect(store.traceBytes).toBeLessThanOrEqual(65_536);
    expect(JSON.parse(kept.at(-1)!).i).toBe(4_999);
  });
});

describe('RedisTrafficStore', () => {
  it('gives every minute hash a TTL of the retention', async () => {
    const store = await kinds[1]![1]({ maxCount: 1, maxBytes: 65_536 });
    await store.addCounts([[`${MINUTE}\tshop\tchallenge`, 1]]);
    const keys = (await redis.command('KEYS', '*{traffic}:*')) as string[];
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      const ttl = (await redis.command('TTL', key)) as number;
      expect(ttl).toBeGreaterThan(COUNTS_RETENTION_MINUTES * 60 - 10);
      expect(ttl).toBeLessThanOrEqual(COUNTS_RETENTION_MINUTES * 60);
    }
  });
});
