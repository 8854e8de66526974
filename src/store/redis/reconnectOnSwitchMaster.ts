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
 * asking the Sentinels for the primary and finding the dead one, and its next attempt waits out
 * the back-off (up to 2 s by the time a promotion ends). Here the announcement starts an attempt
 * at once whatever the client is doing:
 * - between attempts: it connects now (the retry scheduled before then finds it connected, or
 *   connecting, and does nothing);
 * - connected (an old primary still alive, demoted): it drops the connection and connects again
 *   as soon as the client has closed it;
 * - connecting: the attempt may have been given the old primary; when it fails, the next starts
 *   at once.
 * One subscription per Sentinel, each with ioredis' reconnection and re-subscription; closed with
 * the client.
 */
export function reconnectOnSwitchMaster(client: Redis, sentinels: readonly RedisAddress[], name: string): void {
  const connectNow = () => void client.connect().catch(() => undefined);
  /** Whether the end of the current attempt is awaited already. */
  let awaiting = false;
  const afterThisAttempt = () => {
    if (awaiting) return;
    awaiting = true;
    const done = () => {
      client.off('reconnecting', onReconnecting);
      client.off('ready', done);
      awaiting = false;
    };
    const onReconnecting = () => {
      done();
      connectNow();
    };
    client.once('reconnecting', onReconnecting);
    client.once('ready', done);
  };
  const onSwitch = (message: string) => {
    if (message.split(' ')[0] !== name) return;
    switch (client.status) {
      case 'reconnecting':
        connectNow();
        break;
      case 'connecting':
        afterThisAttempt();
        break;
      case 'connect':
      case 'ready': {
        // Already on the new primary (its announcement came after the client found it): stay.
        const [, , , host, port] = message.split(' ');
        if (client.stream?.remoteAddress === host && String(client.stream?.remotePort) === port) return;
        afterThisAttempt();
        client.disconnect(true);
        break;
      }
    }
  };
  const subscribers = sentinels.map(({ host, port }) => {
    const subscriber = new Redis({ host, port, connectionName: 'ariadne-switch-master', maxRetriesPerRequest: null });
    subscriber.on('error', () => {});
    subscriber.on('message', (_channel: string, message: string) => onSwitch(message));
    void subscriber.subscribe(CHANNEL).catch(() => undefined);
    return subscriber;
  });
  client.once('end', () => {
    for (const s of subscribers) s.disconnect();
  });
}
