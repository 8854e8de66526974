/**
 * A property over interleavings, on a real redis-server: consumes on two stores (two nodes), alone
 * or many at once, mixed with losses of the markers, a Redis that refuses writes for a while, the
 * connections dropped, and pauses that let the stores re-open their fences by themselves. Whatever
 * the order, nothing is consumed `fresh` twice.
 *
 * A loss is what a failover to a cut-off replica leaves in Redis (every marker gone, the fences
 * naming another Redis process) or a FLUSHALL (the fences gone too). Refused writes are
 * `maxmemory` under what Redis holds, with `noeviction`: the re-opening of a fence fails then, and
 * a consume waiting on it must still be compared with the cutoff of the fence opened after.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RedisStore } from '../../../src/store/redis/RedisStore.js';
import { StoreUnavailableError } from '../../../src/store/Store.js';
import { type TestRedis, startRedis } from '../../helpers/redisServer.js';

let redis: TestRedis;

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await redis?.close();
});

/** Two things (a challenge, a token), each in a marker shard of its own. */
const ITEMS = ['challenge:a', 'token:b'];

type Step =
  | { kind: 'issue'; item: number }
  | { kind: 'consume'; node: number; item: number }
  | { kind: 'burst'; consumes: { node: number; item: number }[] }
  | { kind: 'loss'; fencesKept: boolean }
  | { kind: 'refuseWrites' }
  | { kind: 'allowWrites' }
  | { kind: 'dropConnections' }
  | { kind: 'pause'; ms: number };

const node = fc.integer({ min: 0, max: 1 });
const item = fc.integer({ min: 0, max: ITEMS.length - 1 });
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('issue' as const), item }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('consume' as const), node, item }), weight: 6 },
  {
    arbitrary: fc.record({
      kind: fc.constant('burst' as const),
      consumes: fc.array(fc.record({ node, item }), { minLength: 2, maxLength: 6 }),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('loss' as const), fencesKept: fc.boolean() }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('refuseWrites' as const) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('allowWrites' as const) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('dropConnections' as const) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('pause' as const), ms: fc.integer({ min: 1, max: 40 }) }), weight: 1 },
);

/**
 * Tried first, then the random ones: the failover of the report, a consume made while the
 * promoted replica refuses writes (its fence re-opening fails), then the same consume once writes
 * are allowed again.
 */
const FAILOVER_ONTO_A_REFUSING_REPLICA: Step[] = [
  { kind: 'consume', node: 0, item: 0 },
  { kind: 'loss', fencesKept: true },
  { kind: 'refuseWrites' },
  { kind: 'consume', node: 1, item: 0 },
  { kind: 'allowWrites' },
  { kind: 'consume', node: 1, item: 0 },
];

const totals = { fresh: 0, used: 0, unavailable: 0 };

it('consume, fence re-opening and failures in any order: nothing is consumed fresh twice', { timeout: 120_000 }, async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30 }), async (steps) => {
      // One clock for all: a skew of 1 ms is enough for a cutoff after everything issued before it.
      const config = redis.config({ clockSkewMs: 1, commandTimeoutMs: 500 });
      // The periodic check at its default (1 s) mostly falls outside a run: the fences are
      // re-opened by the consumes themselves, as right after a failover.
      const stores = await Promise.all([RedisStore.open(config), RedisStore.open(config)]);
      /** Per item: its current issue (a new one is a new thing: another key) and how often each issue came back fresh. */
      let issues = ITEMS.map((key) => ({ key: `${key}:0`, life: { issuedAt: Date.now(), expiresAt: Date.now() + 60_000 } }));
      const fresh = new Map<string, number>();
      let refusing = false;
      const consume = async (n: number, i: number) => {
        const { key, life } = issues[i]!;
        const result = await stores[n]!.consume(key, life).catch((e: unknown) => {
          if (e instanceof StoreUnavailableError) return 'unavailable' as const;
          throw e;
        });
        if (result === 'fresh') fresh.set(key, (fresh.get(key) ?? 0) + 1);
        totals[result === 'fresh' ? 'fresh' : result === 'unavailable' ? 'unavailable' : 'used']++;
      };
      try {
        for (const s of steps) {
          switch (s.kind) {
            case 'issue':
              issues = issues.map((it, i) =>
                i === s.item
                  ? {
                      key: `${ITEMS[i]}:${Number(it.key.split(':').pop()) + 1}`,
                      life: { issuedAt: Date.now(), expiresAt: Date.now() + 60_000 },
                    }
                  : it,
              );
              break;
            case 'consume':
              await consume(s.node, s.item);
              break;
            case 'burst':
              await Promise.all(s.consumes.map((c) => consume(c.node, c.item)));
              break;
            case 'loss': {
              const markers = (await redis.command('KEYS', `${config.prefix}*:marker:*`)) as string[];
              if (markers.length > 0) await redis.command('DEL', ...markers);
              const fences = (await redis.command('KEYS', `${config.prefix}*:fence`)) as string[];
              // The replica's copy is written whatever the refusal: lifted for the time of it.
              if (refusing) await redis.command('CONFIG', 'SET', 'maxmemory', '0');
              for (const key of fences) {
                if (!s.fencesKept) await redis.command('DEL', key);
                else {
                  const fence = String(await redis.command('GET', key));
                  // Another process's run_id and replication id.
                  await redis.command('SET', key, fence.replace(/\|[0-9a-f]+:[0-9a-f]+$/, `|${'0'.repeat(40)}:${'0'.repeat(40)}`));
                }
              }
              if (refusing) await redis.command('CONFIG', 'SET', 'maxmemory', '1');
              break;
            }
            case 'refuseWrites':
              await redis.command('CONFIG', 'SET', 'maxmemory', '1');
              refusing = true;
              break;
            case 'allowWrites':
              await redis.command('CONFIG', 'SET', 'maxmemory', '0');
              refusing = false;
              break;
            case 'dropConnections':
              await redis.command('CLIENT', 'KILL', 'TYPE', 'normal', 'SKIPME', 'yes');
              break;
            case 'pause':
              await new Promise((r) => setTimeout(r, s.ms));
              break;
          }
        }
      } finally {
        await redis.command('CONFIG', 'SET', 'maxmemory', '0');
        await Promise.all(stores.map((st) => st.close()));
      }
      const twice = [...fresh].filter(([, count]) => count > 1);
      expect(twice, `consumed fresh more than once after ${JSON.stringify(steps)}`).toEqual([]);
    }),
    { numRuns: 250, examples: [[FAILOVER_ONTO_A_REFUSING_REPLICA]] },
  );
  // The runs did reach every outcome: the property was not met by refusing everything.
  expect(totals.fresh).toBeGreaterThan(100);
  expect(totals.used).toBeGreaterThan(100);
  expect(totals.unavailable).toBeGreaterThan(10);
});
