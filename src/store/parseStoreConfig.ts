/** Where short-lived state and passkey credentials live, from the environment. */
export interface StoreConfig {
  /** STORE: `memory` (embedded, one process) or `redis` (shared by every node). */
  kind: 'memory' | 'redis';
  /** CREDENTIALS: passkey credentials in a `file` under DATA_DIR or in `redis`; default follows STORE. */
  credentials: 'file' | 'redis';
  redis: RedisConfig;
  /**
   * SHARE_PORT: let several processes listen on the same port (SO_REUSEPORT). Only with
   * STORE=redis, where single use is kept in one place for all of them.
   */
  sharePort: boolean;
}

export interface RedisConfig {
  /** REDIS_URL, e.g. redis://user:password@host:6379/0 (rediss:// for TLS): one Redis. */
  url: string;
  /**
   * REDIS_CLUSTER (seed nodes of a Redis Cluster) or REDIS_SENTINELS with REDIS_SENTINEL_NAME (the
   * primary those Sentinels watch): either replaces REDIS_URL's host. User, password, TLS and
   * database still come from REDIS_URL (its host is then unused); REDIS_PASSWORD, when set, is the
   * password of the Redis servers in every mode.
   */
  topology?: RedisTopology;
  /** REDIS_PREFIX: put before every key, so deployments can share a server. */
  prefix: string;
  /** REDIS_COMMAND_TIMEOUT_MS: longest wait for one reply before the request fails closed (503). */
  commandTimeoutMs: number;
  /**
   * REDIS_CLOCK_SKEW_MS: largest difference between the clocks of any two nodes. After a data
   * loss, everything issued up to this long after the loss was seen is refused too.
   */
  clockSkewMs: number;
}

export type RedisTopology =
  | { kind: 'cluster'; nodes: readonly RedisAddress[] }
  | { kind: 'sentinel'; sentinels: readonly RedisAddress[]; name: string };

export interface RedisAddress {
  host: string;
  port: number;
}

export const STORE_DEFAULTS = {
  STORE: 'memory',
  REDIS_URL: 'redis://127.0.0.1:6379',
  REDIS_PREFIX: 'ariadne:',
  REDIS_COMMAND_TIMEOUT_MS: 1_000,
  REDIS_CLOCK_SKEW_MS: 1_000,
} as const;

type Env = Readonly<Record<string, string | undefined>>;

function text(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v === undefined || v === '' ? undefined : v;
}

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], def: T): T {
  const raw = text(env, name) ?? def;
  const v = values.find((x) => x === raw);
  if (v === undefined) throw new Error(`${name} must be ${values.join(' or ')}, not ${JSON.stringify(raw)}`);
  return v;
}

function integer(env: Env, name: string, def: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === undefined) return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new Error(`${name} must be an integer between ${min} and ${max}, not ${JSON.stringify(raw)}`);
  }
  return n;
}

function flag(env: Env, name: string): boolean {
  const raw = text(env, name)?.toLowerCase() ?? 'false';
  if (['true', 'on', 'yes', '1'].includes(raw)) return true;
  if (['false', 'off', 'no', '0'].includes(raw)) return false;
  throw new Error(`${name} must be true or false, not ${JSON.stringify(raw)}`);
}

/** `host:port,host:port,...` (IPv6 hosts in brackets), at most 64 addresses. */
function addresses(env: Env, name: string): RedisAddress[] | undefined {
  const raw = text(env, name);
  if (raw === undefined) return undefined;
  const list = raw.split(',').map((item) => {
    const m = /^(\[[0-9a-fA-F:.]+\]|[^\s:[\]]+):(\d{1,5})$/.exec(item.trim());
    const port = Number(m?.[2]);
    if (m === null || port < 1 || port > 65_535) throw new Error(`${name} must be host:port,host:port,... not ${JSON.stringify(raw)}`);
    return { host: m[1]!.replace(/^\[(.*)\]$/, '$1'), port };
  });
  if (list.length > 64) throw new Error(`${name} may list at most 64 addresses`);
  return list;
}

function topologyOf(env: Env): RedisTopology | undefined {
  const cluster = addresses(env, 'REDIS_CLUSTER');
  const sentinels = addresses(env, 'REDIS_SENTINELS');
  const name = text(env, 'REDIS_SENTINEL_NAME');
  if (cluster !== undefined && sentinels !== undefined) throw new Error('REDIS_CLUSTER and REDIS_SENTINELS cannot both be set');
  if (cluster !== undefined) return { kind: 'cluster', nodes: cluster };
  if (sentinels === undefined) {
    if (name !== undefined) throw new Error('REDIS_SENTINEL_NAME needs REDIS_SENTINELS');
    return undefined;
  }
  if (name === undefined) throw new Error('REDIS_SENTINELS needs REDIS_SENTINEL_NAME (the name of the primary the Sentinels watch)');
  return { kind: 'sentinel', sentinels, name };
}

/** REDIS_URL with REDIS_PASSWORD in place of its password, when set. */
function urlWithPassword(url: string, password: string | undefined): string {
  if (password === undefined) return url;
  const u = new URL(url);
  u.password = encodeURIComponent(password);
  return u.toString();
}

/**
 * STORE, CREDENTIALS, REDIS_URL, REDIS_PASSWORD, REDIS_CLUSTER, REDIS_SENTINELS, REDIS_SENTINEL_NAME, REDIS_PREFIX, REDIS_COMMAND_TIMEOUT_MS, REDIS_CLOCK_SKEW_MS and
 * SHARE_PORT. Throws an Error naming the variable for a bad value or combination.
 */
export function parseStoreConfig(env: Env): StoreConfig {
  const kind = oneOf(env, 'STORE', ['memory', 'redis'], STORE_DEFAULTS.STORE);
  const credentials = oneOf(env, 'CREDENTIALS', ['file', 'redis'], kind === 'redis' ? 'redis' : 'file');
  const plainUrl = text(env, 'REDIS_URL') ?? STORE_DEFAULTS.REDIS_URL;
  if (!/^rediss?:\/\//.test(plainUrl)) throw new Error(`REDIS_URL must start with redis:// or rediss://, not ${JSON.stringify(plainUrl)}`);
  const url = urlWithPassword(plainUrl, env.REDIS_PASSWORD === undefined || env.REDIS_PASSWORD === '' ? undefined : env.REDIS_PASSWORD);
  const topology = topologyOf(env);
  const prefix = env.REDIS_PREFIX ?? STORE_DEFAULTS.REDIS_PREFIX;
  if (prefix.length > 64 || /[\s{}]/.test(prefix)) {
    throw new Error('REDIS_PREFIX must be at most 64 characters without spaces or braces');
  }
  const sharePort = flag(env, 'SHARE_PORT');
  if (sharePort && kind !== 'redis') {
    throw new Error(
      'SHARE_PORT=true requires STORE=redis: processes sharing a port must share their single-use markers, ' +
        'or a token could be redeemed once per process',
    );
  }
  return {
    kind,
    credentials,
    sharePort,
    redis: {
      url,
      ...(topology === undefined ? {} : { topology }),
      prefix,
      commandTimeoutMs: integer(env, 'REDIS_COMMAND_TIMEOUT_MS', STORE_DEFAULTS.REDIS_COMMAND_TIMEOUT_MS, 10, 60_000),
      clockSkewMs: integer(env, 'REDIS_CLOCK_SKEW_MS', STORE_DEFAULTS.REDIS_CLOCK_SKEW_MS, 0, 600_000),
    },
  };
}
