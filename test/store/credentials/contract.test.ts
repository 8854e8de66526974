/**
 * The CredentialStore contract, run alike against the file store (one node) and the Redis store
 * (several nodes) on a real redis-server.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CredentialStore, StoredCredential } from '../../../src/store/credentials/CredentialStore.js';
import { openFileCredentialStore } from '../../../src/store/credentials/FileCredentialStore.js';
import { RedisCredentialStore } from '../../../src/store/credentials/RedisCredentialStore.js';
import type { RedisConfig } from '../../../src/store/parseStoreConfig.js';
import { type TestRedis, startRedis } from '../../helpers/redisServer.js';
import { until } from '../../helpers/until.js';

/** Opens handles on one shared place: each call after the first is a reopen (or another node). */
type Place = () => Promise<CredentialStore>;

let redis: TestRedis;
const open: CredentialStore[] = [];
const dirs: string[] = [];

const subjects: [string, () => Promise<Place>][] = [
  [
    'file',
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'ariadne-credentials-'));
      dirs.push(dir);
      // One process per directory: a reopen closes the previous handle first.
      return async () => {
        await open.pop()?.close();
        const s = await openFileCredentialStore(dir);
        open.push(s);
        return s;
      };
    },
  ],
  [
    'redis',
    async () => {
      const config: RedisConfig = redis.config();
      return async () => {
        const { store } = await RedisCredentialStore.open(config);
        open.push(store);
        return store;
      };
    },
  ],
];

beforeAll(async () => {
  redis = await startRedis();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await redis.close();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

function credential(id: string, stableId = 'user-1', siteKey = 'site-a'): StoredCredential {
  return { id, siteKey, stableId, publicKey: 'pQECAyYgASFY', alg: -7, counter: 0, transports: ['internal'], createdAt: 1 };
}

describe.each(subjects)('CredentialStore contract: %s', (_name, place) => {
  it('adds, finds by id and by (site_key, stable_id), and keeps users apart', async () => {
    const s = await (await place())();
    expect(await s.add(credential('a'), 10)).toBe('added');
    expect(await s.add(credential('b'), 10)).toBe('added');
    expect(await s.add(credential('c', 'user-2'), 10)).toBe('added');
    expect(await s.add(credential('d', 'user-1', 'site-b'), 10)).toBe('added');
    expect((await s.listFor('site-a', 'user-1')).map((c) => c.id)).toEqual(['a', 'b']);
    expect((await s.listFor('site-b', 'user-1')).map((c) => c.id)).toEqual(['d']);
    expect(await s.listFor('site-a', 'nobody')).toEqual([]);
    expect(await s.get('c')).toEqual(credential('c', 'user-2'));
    expect(await s.get('zzz')).toBeUndefined();
  });

  it('refuses a duplicate id and a user over the limit, also among concurrent adds', async () => {
    const s = await (await place())();
    const results = await Promise.all([1, 2, 3, 4, 5].map((i) => s.add(credential(`c${i}`), 3)));
    expect(results.filter((r) => r === 'added')).toHaveLength(3);
    expect(results.filter((r) => r === 'limit')).toHaveLength(2);
    const dupes = await Promise.all([s.add(credential('x', 'u9'), 3), s.add(credential('x', 'u8'), 3)]);
    expect(dupes.sort()).toEqual(['added', 'duplicate']);
    expect(await s.add(credential('c1', 'someone-else'), 3)).toBe('duplicate');
  });

  it('hands out copies: a caller cannot change stored state by mutation', async () => {
    const s = await (await place())();
    await s.add(credential('a'), 10);
    const got = (await s.get('a'))!;
    got.counter = 99;
    got.transports.push('usb');
    expect(await s.get('a')).toEqual(credential('a'));
  });

  it('advances a counter only forward (compare-and-set)', async () => {
    const s = await (await place())();
    await s.add(credential('a'), 10);
    expect(await s.advanceCounter('a', 5)).toBe(true);
    expect(await s.advanceCounter('a', 5)).toBe(false);
    expect(await s.advanceCounter('a', 4)).toBe(false);
    expect(await s.advanceCounter('missing', 9)).toBe(false);
    const race = await Promise.all([s.advanceCounter('a', 7), s.advanceCounter('a', 7), s.advanceCounter('a', 6)]);
    expect(race).toEqual([true, false, false]);
    expect((await s.get('a'))?.counter).toBe(7);
    expect(await s.advanceCounter('a', 2 ** 32 - 1)).toBe(true);
    expect((await s.get('a'))?.counter).toBe(2 ** 32 - 1);
  });

  it('keeps credentials and counters across a reopen', async () => {
    const reopen = await place();
    let s = await reopen();
    await s.add(credential('a'), 10);
    await s.add(credential('b', 'user-2'), 10);
    await s.advanceCounter('a', 3);
    await s.advanceCounter('a', 8);
    s = await reopen();
    expect(await s.get('a')).toEqual({ ...credential('a'), counter: 8 });
    expect((await s.listFor('site-a', 'user-2')).map((c) => c.id)).toEqual(['b']);
    expect(await s.add(credential('a'), 10)).toBe('duplicate');
  });
});

describe('RedisCredentialStore across nodes', () => {
  it('holds the per-user cap and the forward-only counter across nodes racing', async () => {
    const node = await subjects[1]![1]();
    const [a, b] = [await node(), await node()];
    const adds = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).add(credential(`r${i}`, 'racer'), 5)));
    expect(adds.filter((r) => r === 'added')).toHaveLength(5);
    expect(await b.listFor('site-a', 'racer')).toHaveLength(5);
    const id = (await a.listFor('site-a', 'racer'))[0]!.id;
    const moves = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).advanceCounter(id, 10)));
    expect(moves.filter(Boolean)).toHaveLength(1);
  });
});

describe('RedisCredentialStore health', () => {
  it('is ok while Redis answers, not ok (saying why) while it is down, and ok again once it is back', async () => {
    const own = await startRedis();
    const { store } = await RedisCredentialStore.open({ ...own.config(), commandTimeoutMs: 300 });
    try {
      expect(await store.health()).toEqual({ ok: true });
      await own.stop();
      await until(async () => !(await store.health()).ok);
      expect(await store.health()).toEqual({ ok: false, detail: expect.stringMatching(/^redis: /) });
      await own.start();
      await until(async () => (await store.health()).ok);
    } finally {
      await store.close();
      await own.close();
    }
  });
});
