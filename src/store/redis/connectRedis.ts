import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type { RedisConfig } from '../parseStoreConfig.js';
import { reconnectOnSwitchMaster } from './reconnectOnSwitchMaster.js';

/** One Redis (direct or found through Sentinel) or a Redis Cluster: the calls the store makes work on both. */
export type RedisClient = Redis | Cluster;

/** Longest pause between two reconnection attempts. */
const MAX_RECONNECT_DELAY_MS = 2_000;

const retryStrategy = (times: number) => Math.min(50 * 2 ** Math.min(times, 6), MAX_RECONNECT_DELAY_MS);

/**
 * An ioredis client that fails closed instead of waiting: no offline queue (a command while
 * disconnected fails at once), no replay of commands that were in flight when the connection
 * dropped (their outcome is unknown to us and must not be decided later on another server), a
 * command timeout, and reconnection forever with a capped back-off so service resumes by itself.
 *
 * With REDIS_SENTINELS it asks the Sentinels for the current primary on every (re)connection and
 * reconnects as soon as they announce a failover, whether connected or between two attempts. With REDIS_CLUSTER it is ioredis'
 * Cluster client: commands go to the primary of their key's slot, MOVED and ASK are followed, and
 * a slot whose primary does not answer fails its own commands within the timeout. Either way a
 * command may land on another Redis process than the one before: the single-use scripts check the
 * process they run on themselves (see LossFence).
 */
export function connectRedis(config: RedisConfig, connectionName = 'ariadne'): RedisClient {
  const common: RedisOptions = {
    connectionName,
    commandTimeout: config.commandTimeoutMs,
    connectTimeout: Math.max(config.commandTimeoutMs, 1_000),
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    // Each command is written in the turn it is made. The hot paths gather a turn's operations
    // into one script call themselves (TurnBatcher); ioredis' auto-pipeline would hold each call
    // one more turn and build a pipeline object for it, which cost a /verify on Redis ~40 us of
    // CPU for its fingerprint reads and writes.
    enableAutoPipelining: false,
    // A failover demotes the old primary: reconnect (and re-check the server) instead of
    // failing writes against a replica.
    reconnectOnError: (err) => err.message.startsWith('READONLY'),
  };
  const topology = config.topology;
  let client: RedisClient;
  if (topology?.kind === 'cluster') {
    client = new Cluster(
      topology.nodes.map((n) => ({ ...n })),
      {
        redisOptions: { ...common, ...serverAccessOf(config.url), db: 0 }, // a Cluster has database 0 only
        enableOfflineQueue: false,
        scaleReads: 'master',
        // MOVED and ASK (a resharding) are followed at once; a connection that closed under a
        // command (its primary died) is retried after the slots are read again, at most
        // maxRedirections times, each within the command timeout.
        maxRedirections: 6,
        retryDelayOnFailover: 100,
        retryDelayOnClusterDown: 100,
        retryDelayOnTryAgain: 50,
        slotsRefreshTimeout: Math.max(config.commandTimeoutMs, 500),
        slotsRefreshInterval: 1_000,
        clusterRetryStrategy: retryStrategy,
        lazyConnect: true,
      },
    );
  } else if (topology?.kind === 'sentinel') {
    client = new Redis({
      ...common,
      ...serverAccessOf(config.url),
      sentinels: topology.sentinels.map((n) => ({ ...n })),
      name: topology.name,
      role: 'master',
      // The Sentinels' +switch-master is followed by reconnectOnSwitchMaster (below), which also
      // covers a client between two attempts, where ioredis' detector (failoverDetector) waits.
      failoverDetector: false,
      enableOfflineQueue: false,
      retryStrategy,
      sentinelRetryStrategy: retryStrategy,
      lazyConnect: true,
    });
    reconnectOnSwitchMaster(client, topology.sentinels, topology.name);
  } else {
    client = new Redis(config.url, { ...common, enableOfflineQueue: false, retryStrategy, lazyConnect: true });
  }
  // Connection errors are reported as events too; callers see them as rejected commands.
  client.on('error', () => {});
  return client;
}

/** REDIS_URL's user, password, database and TLS, for the servers a Cluster or Sentinel leads to. */
function serverAccessOf(redisUrl: string): RedisOptions {
  const url = new URL(redisUrl);
  return {
    ...(url.username === '' ? {} : { username: decodeURIComponent(url.username) }),
    ...(url.password === '' ? {} : { password: decodeURIComponent(url.password) }),
    db: Number(url.pathname.slice(1)) || 0,
    ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}
