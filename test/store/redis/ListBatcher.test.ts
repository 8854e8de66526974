/**
 * The list reads and appends of one event-loop turn share one readEachList and one
 * appendEachCapped call on a real redis-server: each caller gets its own lists, binary items
 * arrive byte for byte, each list keeps its newest items and gets its own life.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ListBatcher } from '../../../src/store/redis/ListBatcher.js';
import { type ScriptCall, defineScripts } from '../../../src/store/redis/helpers/defineScripts.js';
import { appendEachCapped } from '../../../src/store/redis/scripts/appendEachCapped.js';
import { readEachList } from '../../../src/store/redis/scripts/readEachList.js';
import { type TestRedis, startRedis } from '../../helpers/redisServer.js';

let server: TestRedis;
let redis: Redis;
const calls = { readEachList: 0, appendEachCapped: 0 };
let scripts: { readEachList: ScriptCall; appendEachCapped: ScriptCall };

beforeAll(async () => {
  server = await startRedis();
  redis = new Redis(server.url);
  const defined = defineScripts(redis, { readEachList, appendEachCapped });
  const counted =
    (name: keyof typeof calls): ScriptCall =>
    (keys, args) => {
      calls[name]++;
      return defined[name](keys, args);
    };
  scripts = { readEachList: counted('readEachList'), appendEachCapped: counted('appendEachCapped') };
});
afterAll(async () => {
  redis.disconnect();
  await server.close();
});

const bytes = (...values: number[]) => Buffer.from(values);

describe('ListBatcher', () => {
  it('sends the appends made in one turn as one call, then the reads of one turn as one, each with its own lists', async () => {
    const lists = new ListBatcher(scripts);
    const before = { ...calls };
    await Promise.all([
      lists.append('l:a', bytes(0, 255, 32, 10), 4, 60_000),
      lists.append('l:b', bytes(1), 4, 60_000),
      lists.append('l:a', bytes(2, 0), 4, 60_000),
    ]);
    expect(calls.appendEachCapped - before.appendEachCapped).toBe(1);
    const read = await Promise.all([lists.read(['l:a', 'l:absent']), lists.read([]), lists.read(['l:b', 'l:a'])]);
    expect(calls.readEachList - before.readEachList).toBe(1);
    expect(read).toEqual([[[bytes(0, 255, 32, 10), bytes(2, 0)], []], [], [[bytes(1)], [bytes(0, 255, 32, 10), bytes(2, 0)]]]);
  });

  it("keeps each list's newest `cap` items and gives it its life from the last append", async () => {
    const lists = new ListBatcher(scripts);
    await Promise.all(Array.from({ length: 10 }, (_, i) => lists.append('l:capped', bytes(i), 3, 30_000)));
    await lists.append('l:other', bytes(9), 1, 90_000);
    expect(await lists.read(['l:capped'])).toEqual([[bytes(7), bytes(8), bytes(9)]]);
    const life = await redis.pttl('l:capped');
    expect(life).toBeGreaterThan(29_000);
    expect(life).toBeLessThanOrEqual(30_000);
    expect(await redis.pttl('l:other')).toBeGreaterThan(89_000);
  });

  it('splits a turn of more than 128 appends over several calls, every one done', async () => {
    const lists = new ListBatcher(scripts);
    const before = calls.appendEachCapped;
    await Promise.all(Array.from({ length: 300 }, (_, i) => lists.append(`l:many:${i % 7}`, bytes(i % 256), 64, 60_000)));
    expect(calls.appendEachCapped - before).toBe(3);
    const read = await lists.read(Array.from({ length: 7 }, (_, i) => `l:many:${i}`));
    expect(read.reduce((n, items) => n + items.length, 0)).toBe(300);
  });

  it('arguments that do not match the keys fail the call and write nothing', async () => {
    await expect(scripts.appendEachCapped(['l:bad', 'l:bad2'], ['4 1000 ', bytes(1), bytes(2)])).rejects.toThrow(
      /2 lists, 1 caps and 2 items/,
    );
    await expect(scripts.appendEachCapped(['l:bad'], ['4 1000 '])).rejects.toThrow(/1 lists, 1 caps and 0 items/);
    expect(await redis.exists('l:bad', 'l:bad2')).toBe(0);
  });
});
