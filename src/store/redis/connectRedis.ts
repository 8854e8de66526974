import { Redis } from 'ioredis';
import type { RedisConfig } from '../parseStoreConfig.js';

/** Longest pause between two reconnection attempts. */
const MAX_RECONNECT_DELAY_MS = 2_000;

/**
 * An ioredis client that fails closed instead of waiting: no offline queue (a command while
 * disconnected fails at once), no replay of commands that were in flight when the connection
 * dropped (their outcome is unknown to us and must not be decided later on another server), a
 * command timeout, and reconnection forever with a capped back-off so service resumes by itself.
 */
export function connectRedis(config: RedisConfig, connectionName = 'ariadne'): Redis {
  const redis = new Redis(config.url, {
    connectionName,
    commandTimeout: config.commandTimeoutMs,
    connectTimeout: Math.max(config.commandTimeoutMs, 1_000),
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    // Each command is written in the turn it is made. The hot paths gather a turn's operations
    // into one script call themselves (TurnBatcher); ioredis' auto-pipeline would hold each call
    // one more turn and build a pipeline object for it, which cost a /verify on Redis ~40 us of
    // CPU for its fingerprint reads and writes.
    enableAutoPipelining: false,
    retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 6), MAX_RECONNECT_DELAY_MS),
    // A failover demotes the old primary: reconnect (and re-check the server) instead of
    // failing writes against a replica.
    reconnectOnError: (err) => err.message.startsWith('READONLY'),
    lazyConnect: true,
  });
  // Connection errors are reported as events too; callers see them as rejected commands.
  redis.on('error', () => {});
  return redis;
}
