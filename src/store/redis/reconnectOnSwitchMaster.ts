import { Redis } from 'ioredis';
import type { RedisAddress } from '../parseStoreConfig.js';

/** The Sentinels' announcement of a new primary: `<name> <old ip> <old port> <new ip> <new port>`. */
const CHANNEL = '+switch-master';

/**
 * Reconnects `client` (an ioredis client through Sentinel) as soon as any of `sentinels`
 * announces a new primary for `name`, rather than at the retry its back-off had scheduled.
 *
 * ioredis' own failover detector leaves the old primary when +switch-master comes, but only while
 * connected to it: when the primary died, the client is already between two attempts, each
 * asking a Sentinel for the primary and finding the dead one, and its next attempt waits out the
 * back-off (up to 2 s by the time a promotion ends). Here an announcement starts an attempt at
 * once whatever the client is doing (between attempts: now; connecting: when that attempt ends;
 * connected elsewhere: after dropping the connection), and each attempt that does not end on the
 * announced primary is followed at once by another, up to twice the number of Sentinels: ioredis
 * asks the Sentinels in turn, and the one that led the failover names the old primary until the
 * end of it (about a second later). Then the back-off resumes. A retry the back-off had scheduled
 * finds the client connected or connecting and does nothing.
 *
 * The announcements are heard once per thread for every client of the same Sentinels (the
 * store's and the dashboard's, and a Redis credential store's; each picks its own primary's
 * name): one subscription per Sentinel, each with ioredis' reconnection and re-subscription,
 * closed with the last of those clients.
 */
export function reconnectOnSwitchMaster(client: Redis, sentinels: readonly RedisAddress[], name: string): void {
  const maxAttempts = 2 * sentinels.length;
  /** The primary announced last, until the client is on it or the attempts run out. */
  let announced: { host: string; port: string } | undefined;
  let attemptsLeft = 0;
  const connectNow = () => {
    attemptsLeft--;
    void client.connect().catch(() => undefined);
  };
  const onAnnounced = () => {
    const stream = client.stream as { remoteAddress?: string; remotePort?: number } | undefined;
    return (
      announced !== undefined &&
      stream?.remoteAddress?.replace(/^::ffff:/, '') === announced.host &&
      String(stream.remotePort) === announced.port
    );
  };
  client.on('reconnecting', () => {
    if (attemptsLeft > 0) connectNow();
  });
  client.on('ready', () => {
    if (announced === undefined) return;
    if (onAnnounced() || attemptsLeft <= 0) {
      announced = undefined;
      attemptsLeft = 0;
    } else client.disconnect(true);
  });
  const onSwitch = (message: string) => {
    const [of, , , host, port] = message.split(' ');
    if (of !== name || host === undefined || port === undefined) return;
    announced = { host, port };
    attemptsLeft = maxAttempts;
    if (client.status === 'reconnecting') connectNow();
    else if ((client.status === 'ready' || client.status === 'connect') && !onAnnounced()) client.disconnect(true);
  };
  const unheard = hearSwitches(sentinels, onSwitch);
  client.once('end', unheard);
}

/** The announcements this thread hears, by Sentinels: their subscriptions and who listens. */
const hearings = new Map<string, { subscribers: Redis[]; listeners: Set<(message: string) => void> }>();

/** Calls `listener` with each +switch-master any of `sentinels` announces; the function returned stops it. */
function hearSwitches(sentinels: readonly RedisAddress[], listener: (message: string) => void): () => void {
  const key = JSON.stringify(sentinels.map(({ host, port }) => [host, port]));
  let hearing = hearings.get(key);
  if (hearing === undefined) {
    const listeners = new Set<(message: string) => void>();
    const subscribers = sentinels.map(({ host, port }) => {
      const subscriber = new Redis({ host, port, connectionName: 'ariadne-switch-master', maxRetriesPerRequest: null });
      subscriber.on('error', () => {});
      subscriber.on('message', (_channel: string, message: string) => {
        for (const l of listeners) l(message);
      });
      void subscriber.subscribe(CHANNEL).catch(() => undefined);
      return subscriber;
    });
    hearings.set(key, (hearing = { subscribers, listeners }));
  }
  const { subscribers, listeners } = hearing;
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    if (listeners.size > 0) return;
    hearings.delete(key);
    for (const s of subscribers) s.disconnect();
  };
}
