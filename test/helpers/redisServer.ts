/**
 * A real redis-server (Debian package) for tests: a random loopback port, a temporary directory,
 * no persistence unless asked, stopped and restarted at will.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis, type RedisOptions } from 'ioredis';
import type { RedisConfig } from '../../src/store/parseStoreConfig.js';
import { freePort } from './freePort.js';

export interface RedisServerOptions {
  /** appendonly yes with this appendfsync; default: no persistence at all. */
  aof?: 'always' | 'everysec';
  /** A command that runs it, e.g. `taskset -c 1` to keep it off the cores a benchmark measures. */
  launcher?: readonly string[];
  /** More redis-server arguments, given its port (e.g. a Cluster node's or a replica's settings). */
  args?: (port: number) => readonly string[];
  /** requirepass and masterauth: clients (and a replica of another server started so) need it. */
  password?: string;
}

export interface TestRedis {
  port: number;
  url: string;
  /** Where its files live. */
  dir: string;
  /** Its requirepass, if any. */
  password?: string | undefined;
  /** A RedisConfig for this server with a key prefix of its own and a short command timeout. */
  config(overrides?: Partial<RedisConfig>): RedisConfig;
  /** Runs one command on a short-lived connection. */
  command(...args: (string | number)[]): Promise<unknown>;
  /** Stops the process: SIGTERM (clean) or SIGKILL (crash). */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
  /** Starts it again on the same port and directory (with what it persisted, if anything). */
  start(): Promise<void>;
  /** Starts it again from a copy of its directory taken by `snapshot` (an older state of the data). */
  startFrom(snapshotDir: string): Promise<void>;
  /** SAVEs and copies the data directory: a replica that stops receiving writes from here on. */
  snapshot(): Promise<string>;
  /** Stops it and removes its files. */
  close(): Promise<void>;
}

let prefixes = 0;

export async function startRedis(opts: RedisServerOptions = {}): Promise<TestRedis> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ariadne-redis-'));
  const snapshots: string[] = [];
  let port = 0;
  let child: ChildProcess | undefined;

  const args = (dataDir: string) => [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dataDir,
    '--save',
    '',
    '--appendonly',
    opts.aof ? 'yes' : 'no',
    ...(opts.aof ? ['--appendfsync', opts.aof] : []),
    '--protected-mode',
    'no',
    '--daemonize',
    'no',
    '--logfile',
    '',
    '--loglevel',
    'warning',
    '--enable-debug-command',
    'yes',
    ...(opts.password === undefined ? [] : ['--requirepass', opts.password, '--masterauth', opts.password]),
    ...(opts.args?.(port) ?? []),
  ];
  /** A short-lived client of this server (with its password). */
  const client = (more: RedisOptions = {}) =>
    new Redis({
      port,
      host: '127.0.0.1',
      maxRetriesPerRequest: 0,
      ...(opts.password === undefined ? {} : { password: opts.password }),
      ...more,
    });

  async function launch(dataDir: string): Promise<void> {
    const [bin, ...rest] = [...(opts.launcher ?? []), 'redis-server', ...args(dataDir)] as [string, ...string[]];
    const proc = spawn(bin, rest, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    proc.stdout!.on('data', (d) => (out += d));
    proc.stderr!.on('data', (d) => (out += d));
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    const end = Date.now() + 10_000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`redis-server exited: ${out}`);
      if (Date.now() > end) {
        proc.kill('SIGKILL');
        throw new Error(`redis-server did not answer on port ${port}: ${out}`);
      }
      const c = client({ lazyConnect: true, retryStrategy: () => null });
      c.on('error', () => {});
      const pong = await c
        .connect()
        .then(() => c.ping())
        .catch(() => undefined);
      c.disconnect();
      if (pong === 'PONG') break;
      await new Promise((r) => setTimeout(r, 30));
    }
    child = proc;
    (child as ChildProcess & { exitedPromise?: Promise<void> }).exitedPromise = exited;
  }

  async function stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM'): Promise<void> {
    const proc = child as (ChildProcess & { exitedPromise?: Promise<void> }) | undefined;
    child = undefined;
    if (proc === undefined || proc.exitCode !== null) return;
    proc.kill(signal);
    await proc.exitedPromise;
  }

  // A port picked free can be taken before redis binds it: try a few.
  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    try {
      await launch(dir);
      break;
    } catch (e) {
      if (attempt >= 4) throw e;
    }
  }
  const url = opts.password === undefined ? `redis://127.0.0.1:${port}` : `redis://:${encodeURIComponent(opts.password)}@127.0.0.1:${port}`;

  return {
    port,
    url,
    dir,
    password: opts.password,
    config: (overrides = {}) => ({ url, prefix: `t${process.pid}-${++prefixes}:`, commandTimeoutMs: 500, clockSkewMs: 0, ...overrides }),
    async command(...a) {
      const c = client({ retryStrategy: () => null });
      c.on('error', () => {});
      try {
        return await c.call(String(a[0]), ...a.slice(1).map(String));
      } finally {
        c.disconnect();
      }
    },
    stop,
    start: () => launch(dir),
    startFrom: (snapshotDir) => launch(snapshotDir),
    async snapshot() {
      const c = client();
      await c.save();
      c.disconnect();
      const copy = `${dir}-snapshot${snapshots.length}`;
      await cp(dir, copy, { recursive: true });
      snapshots.push(copy);
      return copy;
    },
    async close() {
      await stop('SIGKILL');
      await Promise.all([dir, ...snapshots].map((d) => rm(d, { recursive: true, force: true })));
    },
  };
}
