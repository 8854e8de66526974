/**
 * A client through Sentinel follows +switch-master at once, on real Sentinels (a primary, two
 * replicas, three Sentinels): between two attempts after its primary died, and while connected to
 * a primary that a failover leaves. Its own back-off here is a minute, so only the announcement
 * can bring it to the new primary within the tests' bounds.
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { reconnectOnSwitchMaster } from '../../../src/store/redis/reconnectOnSwitchMaster.js';
import { SENTINEL_NAME, type TestSentinels, startRedisSentinels } from '../../helpers/redisSentinels.js';
import { until } from '../../helpers/until.js';

/** Longer than any bound below: a reconnection on the client's own schedule fails the test. */
const OWN_RETRY_MS = 60_000;

let sentinels: TestSentinels;
const clients: Redis[] = [];

beforeAll(async () => {
  sentinels = await startRedisSentinels();
});
afterEach(() => {
  for (const c of clients.splice(0)) c.disconnect();
});
afterAll(async () => {
  await sentinels?.close();
});

async function followingClient(): Promise<Redis> {
  const topology = sentinels.config().topology;
  if (topology?.kind !== 'sentinel') throw new Error('not a Sentinel config');
  const client = new Redis({
    sentinels: topology.sentinels.map((s) => ({ ...s })),
    name: SENTINEL_NAME,
    role: 'master',
    failoverDetector: false,
    retryStrategy: () => OWN_RETRY_MS,
    sentinelRetryStrategy: () => OWN_RETRY_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    lazyConnect: true,
  });
  client.on('error', () => {});
  clients.push(client);
  reconnectOnSwitchMaster(client, topology.sentinels, SENTINEL_NAME);
  await client.connect();
  return client;
}

/** Whether `client` is connected to the server the Sentinels name as the primary now, and it is one. */
async function onPrimary(client: Redis): Promise<boolean> {
  if (client.status !== 'ready') return false;
  const primary = await sentinels.primary();
  const role = (await client.call('ROLE').catch(() => undefined)) as unknown[] | undefined;
  return role?.[0] === 'master' && client.stream.remotePort === primary.port;
}

it('the primary killed: the client, waiting out a minute between attempts, is on the promoted replica within seconds of the announcement', {
  timeout: 60_000,
}, async () => {
  await sentinels.settled();
  const client = await followingClient();
  const killed = await sentinels.primary();
  const reconnecting = new Promise<number>((resolve) => client.once('reconnecting', (delay: number) => resolve(delay)));
  await killed.stop('SIGKILL');
  // The client lost its primary and scheduled its next attempt a minute away.
  expect(await reconnecting).toBe(OWN_RETRY_MS);
  await until(async () => (await sentinels.primary()) !== killed, 20_000);
  await until(() => onPrimary(client), 10_000);
  expect(await client.set('after-failover', '1')).toBe('OK');
});

it('a failover with the old primary alive (SENTINEL FAILOVER): the client leaves it for the new primary', { timeout: 60_000 }, async () => {
  await sentinels.settled();
  const client = await followingClient();
  const before = await sentinels.primary();
  await until(() => onPrimary(client), 10_000);
  const sentinelPort = Number(sentinels.sentinels.split(',')[0]!.split(':')[1]);
  const sentinel = new Redis({ port: sentinelPort, host: '127.0.0.1', lazyConnect: true });
  await sentinel.connect();
  // Refused (INPROG) while the Sentinel still ends the previous test's failover.
  await until(
    () =>
      sentinel.call('SENTINEL', 'FAILOVER', SENTINEL_NAME).then(
        () => true,
        () => false,
      ),
    20_000,
  );
  sentinel.disconnect();
  await until(async () => (await sentinels.primary()) !== before, 20_000);
  await until(() => onPrimary(client), 10_000);
  // The old primary is alive (the Sentinels make it a replica a few seconds later): the client left it.
  expect(client.stream.remotePort).not.toBe(before.port);
  expect(await before.command('PING')).toBe('PONG');
  expect(await client.set('after-switch', '1')).toBe('OK');
});

it('clients of the same Sentinels share one subscription to each, closed with the last of them', { timeout: 30_000 }, async () => {
  await sentinels.settled();
  const sentinelPorts = sentinels.sentinels.split(',').map((hp) => Number(hp.split(':')[1]));
  const listening = async () => {
    const counts = await Promise.all(
      sentinelPorts.map(async (port) => {
        const s = new Redis({ port, host: '127.0.0.1', lazyConnect: true });
        await s.connect();
        const list = String(await s.call('CLIENT', 'LIST'));
        s.disconnect();
        return list.split('\n').filter((line) => line.includes('name=ariadne-switch-master ')).length;
      }),
    );
    return counts;
  };
  const [first, second] = [await followingClient(), await followingClient()];
  await until(async () => (await listening()).every((n) => n === 1), 10_000);
  first.disconnect();
  // The other client still hears the announcements.
  await new Promise((r) => setTimeout(r, 300));
  expect(await listening()).toEqual(sentinelPorts.map(() => 1));
  second.disconnect();
  await until(async () => (await listening()).every((n) => n === 0), 10_000);
});
