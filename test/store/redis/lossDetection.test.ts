/**
 * A Redis that loses markers must not re-open single use: everything issued before the loss was
 * seen is refused, on the node that saw it and on every other node.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RedisStore } from '../../../src/store/redis/RedisStore.js';
import type { Lifetime } from '../../../src/store/Store.js';
import { startRedis } from '../../helpers/redisServer.js';
import { until } from '../../helpers/until.js';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function setup(opts: Parameters<typeof startRedis>[0] = {}) {
  const redis = await startRedis(opts);
  cleanup.push(() => redis.close());
  const config = redis.config({ clockSkewMs: 100 });
  const open = async () => {
    const s = await RedisStore.open({ ...config, checkIntervalMs: 200 });
    cleanup.push(() => s.close());
    return s;
  };
  return { redis, open };
}

const issuedNow = (): Lifetime => ({ issuedAt: Date.now(), expiresAt: Date.now() + 60_000 });

async function waitSince(store: RedisStore): Promise<Lifetime> {
  // Things issued once since() has passed are accepted.
  await until(async () => Date.now() > store.since());
  return issuedNow();
}

describe('RedisStore loss detection', () => {
  it('FLUSHALL between two redemptions: the second is refused, here and on another node', async () => {
    const { redis, open } = await setup();
    const a = await open();
    const b = await open();
    const token = await waitSince(a);
    const other = issuedNow();
    expect(await a.consume('token', token)).toBe('fresh');
    expect(await b.consume('other', other)).toBe('fresh');
    await redis.command('FLUSHALL');
    expect(await a.consume('token', token)).toBe('used');
    // b has not seen the loss itself; the fence it sends no longer matches.
    expect(await b.consume('other', other)).toBe('used');
    expect(b.since()).toBeGreaterThan(other.issuedAt);
    // What is issued after the loss was seen works as before.
    const later = await waitSince(a);
    expect(await b.consume('later', later)).toBe('fresh');
    expect(await a.consume('later', later)).toBe('used');
  });

  it('restart without persistence between two redemptions: the second is refused', async () => {
    const { redis, open } = await setup();
    const a = await open();
    const token = await waitSince(a);
    const challenge = issuedNow();
    expect(await a.consume('token', token)).toBe('fresh');
    expect(await a.consume('challenge', challenge, 'sess')).toBe('fresh');
    await redis.stop('SIGKILL');
    await expect(a.consume('token', token)).rejects.toMatchObject({ code: 'store_unavailable' });
    await redis.start();
    await until(async () => (await a.health()).ok);
    expect(await a.consume('token', token)).toBe('used');
    expect(await a.consume('challenge', challenge, 'sess')).toBe('used');
  });

  it('failover to a server holding an older copy (fence kept, newer markers lost): refused by run_id', async () => {
    const { redis, open } = await setup();
    const a = await open();
    await waitSince(a);
    // The "replica" stops receiving writes here: it has the fences, not what follows.
    const replica = await redis.snapshot();
    const token = issuedNow();
    expect(await a.consume('token', token)).toBe('fresh');
    await redis.stop('SIGKILL');
    await redis.startFrom(replica);
    await until(async () => (await a.health()).ok);
    // The marker really is gone: without detection the token would be fresh again.
    expect(await redis.command('KEYS', '*:marker:token')).toEqual([]);
    expect(await a.consume('token', token)).toBe('used');
    // A node that starts only now, having never seen the old server, refuses it too.
    const c = await open();
    expect(await c.consume('token2', token)).toBe('used');
  });

  it('the same process demoted to a replica and promoted again: what was issued before is refused', async () => {
    // While a replica that could not sync, it kept its own data and its fence; another primary may
    // have redeemed meanwhile what it never received (a split failover that promoted it twice).
    const { redis, open } = await setup();
    const a = await open();
    const opened = await waitSince(a);
    expect(await a.consume('opened', opened)).toBe('fresh');
    const before = issuedNow();
    // A primary that does not exist: the sync never starts, the data stays as it was.
    await redis.command('REPLICAOF', '127.0.0.1', '1');
    await redis.command('REPLICAOF', 'NO', 'ONE');
    expect(await a.consume('before', before)).toBe('used');
    const later = await waitSince(a);
    expect(await a.consume('later', later)).toBe('fresh');
  });

  it('a node started after a loss that no node saw yet still detects it (fence gone)', async () => {
    const { redis, open } = await setup();
    const a = await open();
    const token = await waitSince(a);
    expect(await a.consume('token', token)).toBe('fresh');
    await redis.command('FLUSHALL');
    const late = await open();
    expect(await late.consume('token', token)).toBe('used');
  });

  it('a restart with AOF (data intact) moves since too: a new process is not trusted blindly', async () => {
    const { redis, open } = await setup({ aof: 'always' });
    const a = await open();
    const token = await waitSince(a);
    expect(await a.consume('token', token)).toBe('fresh');
    await redis.stop('SIGTERM');
    await redis.start();
    await until(async () => (await a.health()).ok);
    expect(await a.consume('token', token)).toBe('used');
    expect(a.since()).toBeGreaterThan(token.issuedAt);
  });
});
