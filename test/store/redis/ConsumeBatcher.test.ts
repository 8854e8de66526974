/**
 * The consumes of one event-loop turn share one consumeEachOnce call, grouped by shard, on a real
 * redis-server: each marker keeps its own verdict, and a group whose fence moved writes nothing.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsumeBatcher, type ConsumeReply } from '../../../src/store/redis/ConsumeBatcher.js';
import { type ScriptCall, defineScripts } from '../../../src/store/redis/helpers/defineScripts.js';
import { consumeEachOnce } from '../../../src/store/redis/scripts/consumeEachOnce.js';
import { type TestRedis, startRedis } from '../../helpers/redisServer.js';

let server: TestRedis;
let redis: Redis;
let calls = 0;
let counted: ScriptCall;
/** The run_id and replication id of the server: a fence names the process (and history) it was opened under. */
let runId: string;
const f = (shard: number) => `f${shard}|0|${runId}`;
const odd = () => `7 é |0|${runId}`;
/** An issue time after the cutoff (0) of every fence here. */
const ISSUED = 1;

beforeAll(async () => {
  server = await startRedis();
  redis = new Redis(server.url);
  runId = `${/run_id:(\w+)/.exec(await redis.info('server'))![1]}:${/master_replid:(\w+)/.exec(await redis.info('replication'))![1]}`;
  const script = defineScripts(redis, { consumeEachOnce }).consumeEachOnce;
  counted = (keys, args) => {
    calls++;
    return script(keys, args);
  };
  for (const shard of [0, 1, 2]) await redis.set(`{s${shard}}:fence`, f(shard));
});
afterAll(async () => {
  redis.disconnect();
  await server.close();
});

const marker = (shard: number, i: number) => `{s${shard}}:marker:${i}`;

describe('ConsumeBatcher', () => {
  it('sends the consumes of several shards made in one turn as one call, each with its own verdict', async () => {
    const batcher = new ConsumeBatcher(counted);
    const before = calls;
    const first = await Promise.all(
      Array.from({ length: 30 }, (_, i) => batcher.consume(`{s${i % 3}}:fence`, f(i % 3), marker(i % 3, i), 60_000, ISSUED, '')),
    );
    expect(calls - before).toBe(1);
    expect(first).toEqual(Array(30).fill('fresh'));
    expect(await redis.exists(...Array.from({ length: 30 }, (_, i) => marker(i % 3, i)))).toBe(30);

    // Again in one turn: each used; a tagged one answers `again` to the same tag only.
    const tagged = await batcher.consume('{s0}:fence', f(0), marker(0, 100), 60_000, ISSUED, 'key-a');
    expect(tagged).toBe('fresh');
    const second = await Promise.all([
      batcher.consume('{s0}:fence', f(0), marker(0, 0), 60_000, ISSUED, ''),
      batcher.consume('{s1}:fence', f(1), marker(1, 1), 60_000, ISSUED, 'key-a'),
      batcher.consume('{s0}:fence', f(0), marker(0, 100), 60_000, ISSUED, 'key-a'),
      batcher.consume('{s0}:fence', f(0), marker(0, 100), 60_000, ISSUED, 'key-b'),
      batcher.consume('{s0}:fence', f(0), marker(0, 100), 60_000, ISSUED, ''),
    ]);
    expect(second).toEqual(['used', 'used', 'again', 'used', 'used']);
  });

  it('a group whose fence moved gets the fence found and writes nothing; the other groups proceed', async () => {
    const batcher = new ConsumeBatcher(counted);
    const before = calls;
    const replies: ConsumeReply[] = await Promise.all([
      batcher.consume('{s1}:fence', 'stale', marker(1, 200), 60_000, ISSUED, ''),
      batcher.consume('{s2}:fence', f(2), marker(2, 201), 60_000, ISSUED, ''),
      batcher.consume('{s1}:fence', 'stale', marker(1, 202), 60_000, ISSUED, ''),
      batcher.consume('{s9}:fence', f(9), marker(9, 203), 60_000, ISSUED, ''),
    ]);
    expect(calls - before).toBe(1);
    expect(replies).toEqual([{ fence: f(1) }, 'fresh', { fence: f(1) }, { fence: null }]);
    expect(await redis.exists(marker(1, 200), marker(1, 202), marker(9, 203))).toBe(0);
    expect(await redis.exists(marker(2, 201))).toBe(1);
  });

  it("a fence of another Redis process (a promoted replica's copy, a restart's) is answered as none, writing nothing", async () => {
    const batcher = new ConsumeBatcher(counted);
    const elsewhere = `f5|0|${'0'.repeat(40)}`;
    await redis.set('{s5}:fence', elsewhere);
    const replies = await Promise.all([
      batcher.consume('{s5}:fence', elsewhere, marker(5, 250), 60_000, ISSUED, ''),
      batcher.consume('{s0}:fence', f(0), marker(0, 251), 60_000, ISSUED, ''),
    ]);
    expect(replies).toEqual([{ fence: null }, 'fresh']);
    expect(await redis.exists(marker(5, 250))).toBe(0);
  });

  it('a shard whose fence changes within a turn: each value read is checked as a group of its own in the one call', async () => {
    const batcher = new ConsumeBatcher(counted);
    const before = calls;
    const replies = await Promise.all([
      batcher.consume('{s0}:fence', 'old', marker(0, 300), 60_000, ISSUED, ''),
      batcher.consume('{s1}:fence', f(1), marker(1, 301), 60_000, ISSUED, ''),
      batcher.consume('{s0}:fence', f(0), marker(0, 302), 60_000, ISSUED, ''),
      batcher.consume('{s0}:fence', 'old', marker(0, 303), 60_000, ISSUED, ''),
    ]);
    expect(calls - before).toBe(1);
    expect(replies).toEqual([{ fence: f(0) }, 'fresh', 'fresh', { fence: f(0) }]);
    expect(await redis.exists(marker(0, 303))).toBe(0);
    expect(await redis.exists(marker(0, 300))).toBe(0);
    expect(await redis.exists(marker(1, 301), marker(0, 302))).toBe(2);
  });

  it('compares each issue time with the cutoff of the fence it finds: issued before it is used, and nothing is written', async () => {
    const batcher = new ConsumeBatcher(counted);
    const cutoff = 1_700_000_000_123;
    const fence = `e|${cutoff}|${runId}`;
    await redis.set('{s6}:fence', fence);
    const replies = await Promise.all([
      batcher.consume('{s6}:fence', fence, marker(6, 500), 60_000, cutoff - 1, ''),
      batcher.consume('{s6}:fence', fence, marker(6, 501), 60_000, cutoff, ''),
      batcher.consume('{s6}:fence', fence, marker(6, 502), 60_000, cutoff - 0.5, 'key-a'),
      batcher.consume('{s6}:fence', fence, marker(6, 503), 60_000, cutoff + 0.5, ''),
      batcher.consume('{s6}:fence', fence, marker(6, 504), 60_000, Number.NaN, ''),
      batcher.consume('{s0}:fence', f(0), marker(0, 505), 60_000, cutoff - 1, ''),
    ]);
    expect(replies).toEqual(['used', 'fresh', 'used', 'fresh', 'used', 'fresh']);
    expect(await redis.exists(marker(6, 500), marker(6, 502), marker(6, 504))).toBe(0);
    // A tagged retry of a thing issued before the cutoff is refused too, even with its marker in place.
    await redis.set(marker(6, 506), 'tkey-b');
    expect(await batcher.consume('{s6}:fence', fence, marker(6, 506), 60_000, cutoff - 1, 'key-b')).toBe('used');
  });

  it('a fence whose cutoff cannot be read is answered as moved, writing nothing', async () => {
    const batcher = new ConsumeBatcher(counted);
    const unreadable = `e|soon|${runId}`;
    await redis.set('{s7}:fence', unreadable);
    expect(await batcher.consume('{s7}:fence', unreadable, marker(7, 600), 60_000, ISSUED, '')).toEqual({ fence: unreadable });
    expect(await redis.exists(marker(7, 600))).toBe(0);
  });

  it('carries tags and fences of any characters (spaces, digits, non-ASCII) intact', async () => {
    const batcher = new ConsumeBatcher(counted);
    await redis.set('{s3}:fence', odd());
    const tag = '12 tag with spaces, ünïcode ';
    const first = await Promise.all([
      batcher.consume('{s3}:fence', odd(), marker(3, 400), 60_000, ISSUED, tag),
      batcher.consume('{s3}:fence', odd(), marker(3, 401), 60_000, ISSUED, ''),
      batcher.consume('{s0}:fence', f(0), marker(0, 402), 60_000, ISSUED, ' '),
    ]);
    expect(first).toEqual(['fresh', 'fresh', 'fresh']);
    expect(await redis.get(marker(3, 400))).toBe(`t${tag}`);
    const again = await Promise.all([
      batcher.consume('{s3}:fence', odd(), marker(3, 400), 60_000, ISSUED, tag),
      batcher.consume('{s3}:fence', odd(), marker(3, 400), 60_000, ISSUED, tag.trim()),
      batcher.consume('{s0}:fence', f(0), marker(0, 402), 60_000, ISSUED, ' '),
      batcher.consume('{s3}:fence', '7 é |', marker(3, 403), 60_000, ISSUED, ''),
    ]);
    expect(again).toEqual(['again', 'used', 'again', { fence: odd() }]);
  });

  it('splits a turn of more than 128 consumes over several calls, every one answered', async () => {
    const batcher = new ConsumeBatcher(counted);
    const before = calls;
    const replies = await Promise.all(
      Array.from({ length: 300 }, (_, i) => batcher.consume(`{s${i % 3}}:fence`, f(i % 3), marker(i % 3, 1_000 + i), 60_000, ISSUED, '')),
    );
    expect(calls - before).toBe(3);
    expect(replies.every((r) => r === 'fresh')).toBe(true);
    expect(await redis.pttl(marker(2, 1_299))).toBeGreaterThan(59_000);
  });

  it('a group answered with something other than its verdicts rejects its own consumes only', async () => {
    const batcher = new ConsumeBatcher(async () => ['ff', 'not verdicts']);
    const results = await Promise.allSettled([
      batcher.consume('{s0}:fence', f(0), marker(0, 6_000), 1_000, ISSUED, ''),
      batcher.consume('{s1}:fence', f(1), marker(1, 6_001), 1_000, ISSUED, ''),
      batcher.consume('{s0}:fence', f(0), marker(0, 6_002), 1_000, ISSUED, ''),
    ]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : 'rejected'))).toEqual(['fresh', 'rejected', 'fresh']);
  });

  it('a failed call rejects every consume it carried', async () => {
    const batcher = new ConsumeBatcher(async () => {
      throw new Error('connection lost');
    });
    const results = await Promise.allSettled([
      batcher.consume('{s0}:fence', f(0), marker(0, 5_000), 1_000, ISSUED, ''),
      batcher.consume('{s1}:fence', f(1), marker(1, 5_001), 1_000, ISSUED, ''),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
