/**
 * The Store contract (src/store/Store.ts), run alike against every implementation: the embedded
 * MemoryStore, the SharedMemoryStore of a process's threads, and RedisStore on a real redis-server,
 * on a real Redis Cluster (3 primaries, 3 replicas) and through real Sentinels. Real time, short lives.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/store/MemoryStore.js';
import { RedisStore } from '../../src/store/redis/RedisStore.js';
import { SharedMemoryStore, type SharedStoreMemory } from '../../src/store/shared/SharedMemoryStore.js';
import type { Lifetime, Store } from '../../src/store/Store.js';
import type { RedisConfig } from '../../src/store/parseStoreConfig.js';
import { type TestCluster, startRedisCluster } from '../helpers/redisCluster.js';
import { type TestRedis, startRedis } from '../helpers/redisServer.js';
import { type TestSentinels, startRedisSentinels } from '../helpers/redisSentinels.js';

interface Subject {
  /** A fresh, empty store. */
  open(): Promise<Store>;
  /** A second handle on the same shared state (another node), or the same store when embedded. */
  twin(store: Store): Promise<Store>;
  close(): Promise<void>;
}

let redis: TestRedis;
let cluster: TestCluster;
let sentinels: TestSentinels;
const opened: Store[] = [];

/** RedisStores on the servers `config` leads to, each with a key prefix of its own. */
function redisSubject(config: () => RedisConfig): Subject {
  const configs = new Map<Store, RedisConfig>();
  return {
    open: async () => {
      const c = config();
      const s = await RedisStore.open(c);
      configs.set(s, c);
      opened.push(s);
      return s;
    },
    twin: async (s) => {
      const t = await RedisStore.open(configs.get(s)!);
      opened.push(t);
      return t;
    },
    close: async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
    },
  };
}

const subjects: [string, Subject][] = [
  [
    'MemoryStore',
    {
      open: async () => new MemoryStore({ maxMarkers: 10_000, maxCounters: 10_000 }),
      twin: async (s) => s,
      close: async () => {},
    },
  ],
  [
    'SharedMemoryStore',
    (() => {
      const shared = new Map<Store, { memory: SharedStoreMemory; lists: MemoryStore }>();
      const handle = (tables: { memory: SharedStoreMemory; lists: MemoryStore }) => {
        const s = new SharedMemoryStore(tables);
        shared.set(s, tables);
        return s;
      };
      return {
        open: async () =>
          handle({
            memory: SharedMemoryStore.allocate({ maxMarkers: 10_000, maxCounters: 10_000 }),
            lists: new MemoryStore({ maxMarkers: 1, maxCounters: 1 }),
          }),
        // Another thread's handle: the same shared memory and list owner.
        twin: async (s) => handle(shared.get(s)!),
        close: async () => shared.clear(),
      };
    })(),
  ],
  ['RedisStore', redisSubject(() => redis.config())],
  ['RedisStore on a Redis Cluster', redisSubject(() => cluster.config())],
  ['RedisStore through Sentinel', redisSubject(() => sentinels.config())],
];

beforeAll(async () => {
  [redis, cluster, sentinels] = await Promise.all([startRedis(), startRedisCluster(), startRedisSentinels()]);
});
afterAll(async () => {
  await Promise.all(subjects.map(([, s]) => s.close()));
  await Promise.all([redis?.close(), cluster?.close(), sentinels?.close()]);
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const lifeOf = (store: Store, ms: number): Lifetime => ({ issuedAt: Math.max(store.since(), Date.now()), expiresAt: Date.now() + ms });

describe.each(subjects)('Store contract: %s', (_name, subject) => {
  describe('consume', () => {
    it('answers fresh once, then used; keys are independent', async () => {
      const store = await subject.open();
      const life = lifeOf(store, 60_000);
      expect(await store.consume('a', life)).toBe('fresh');
      expect(await store.consume('a', life)).toBe('used');
      expect(await store.consume('b', life)).toBe('fresh');
      expect(await store.consume('b', life)).toBe('used');
    });

    it('answers again only for a retry with the same non-empty tag', async () => {
      const store = await subject.open();
      const life = lifeOf(store, 60_000);
      expect(await store.consume('t', life, 'session-1')).toBe('fresh');
      expect(await store.consume('t', life, 'session-1')).toBe('again');
      expect(await store.consume('t', life, 'session-2')).toBe('used');
      expect(await store.consume('t', life)).toBe('used');
      expect(await store.consume('u', life)).toBe('fresh');
      expect(await store.consume('u', life, '')).toBe('used');
      expect(await store.consume('v', life, '')).toBe('fresh');
      expect(await store.consume('v', life, '')).toBe('used');
    });

    it('answers used for anything issued before since(), without recording it', async () => {
      const store = await subject.open();
      const before = { issuedAt: store.since() - 1, expiresAt: Date.now() + 60_000 };
      expect(await store.consume('old', before)).toBe('used');
      expect(await store.consume('old', lifeOf(store, 60_000))).toBe('fresh');
    });

    it('keeps a marker until the thing expires, then forgets it', async () => {
      const store = await subject.open();
      expect(await store.consume('short', lifeOf(store, 300))).toBe('fresh');
      expect(await store.consume('short', lifeOf(store, 300))).toBe('used');
      await sleep(450);
      expect(await store.consume('short', lifeOf(store, 300))).toBe('fresh');
    });

    it('gives exactly one fresh among 200 concurrent consumes over two handles, for each of 5 keys', async () => {
      const store = await subject.open();
      const other = await subject.twin(store);
      for (let k = 0; k < 5; k++) {
        const life = lifeOf(store, 60_000);
        const results = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? store : other).consume(`race${k}`, life)));
        expect(results.filter((r) => r === 'fresh')).toHaveLength(1);
        expect(results.filter((r) => r === 'used')).toHaveLength(199);
      }
    });
  });

  describe('increment', () => {
    it('counts from 1, adds `by`, and by = 0 reads without creating', async () => {
      const store = await subject.open();
      expect(await store.increment('c0', 60_000, 0)).toBe(0);
      expect(await store.increment('c0', 60_000, 0)).toBe(0);
      expect(await store.increment('c1', 60_000)).toBe(1);
      expect(await store.increment('c1', 60_000)).toBe(2);
      expect(await store.increment('c1', 60_000, 5)).toBe(7);
      expect(await store.increment('c1', 60_000, 0)).toBe(7);
    });

    it('lives a fixed window from its first use', async () => {
      const store = await subject.open();
      expect(await store.increment('w', 300)).toBe(1);
      await sleep(150);
      expect(await store.increment('w', 300)).toBe(2); // does not extend the window
      await sleep(250);
      expect(await store.increment('w', 300, 0)).toBe(0);
      expect(await store.increment('w', 300)).toBe(1);
    });

    it('is shared by two handles and counts every concurrent call', async () => {
      const store = await subject.open();
      const other = await subject.twin(store);
      await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? store : other).increment('shared', 60_000)));
      expect(await other.increment('shared', 60_000, 0)).toBe(100);
    });
  });

  describe('append and lists', () => {
    it('keeps the newest `cap` items, oldest first, byte for byte', async () => {
      const store = await subject.open();
      const item = (n: number) => new Uint8Array([n, 0, 255, 10, 13]);
      for (let n = 0; n < 6; n++) await store.append('l', item(n), 60_000, 4);
      const [list, absent] = await store.lists(['l', 'nothing']);
      expect(list!.map((b) => Array.from(b))).toEqual([2, 3, 4, 5].map((n) => Array.from(item(n))));
      expect(absent).toEqual([]);
    });

    it('answers in the order of the keys asked for', async () => {
      const store = await subject.open();
      await store.append('x', new Uint8Array([1]), 60_000, 4);
      await store.append('y', new Uint8Array([2]), 60_000, 4);
      const lists = await store.lists(['y', 'z', 'x']);
      expect(lists.map((l) => l.map((b) => Array.from(b)))).toEqual([[[2]], [], [[1]]]);
    });

    it('forgets a list `ttlMs` after its last append', async () => {
      const store = await subject.open();
      await store.append('e', new Uint8Array([7]), 300, 4);
      await sleep(200);
      await store.append('e', new Uint8Array([8]), 300, 4); // extends
      await sleep(200);
      expect((await store.lists(['e']))[0]).toHaveLength(2);
      await sleep(250);
      expect((await store.lists(['e']))[0]).toEqual([]);
    });
  });

  it('reports healthy, and since() is not in the future beyond the clock skew', async () => {
    const store = await subject.open();
    expect(await store.health()).toEqual({ ok: true });
    expect(store.since()).toBeLessThanOrEqual(Date.now());
  });
});
