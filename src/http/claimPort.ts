import { type AddressInfo, type Server, createServer } from 'node:net';

export interface ClaimedPort {
  /** The port claimed (the one picked when 0 was asked for). */
  port: number;
  /** Lets another process claim it (at exit this happens anyway). */
  release(): void;
}

const taken = (host: string, port: number, why: string) => new Error(`could not listen on ${host}:${port} (${why})`);

/** The abstract unix socket a process holds while it has `host:port` to itself. */
const lockPath = (host: string, port: number) => `\0ariadne-port:${host}:${port}`;

/** Binds the port's lock; rejects when another process (or this one) holds it. */
async function holdLock(host: string, port: number): Promise<Server> {
  const lock = createServer();
  await new Promise<void>((resolve, reject) => {
    lock.once('error', () => reject(taken(host, port, 'another Ariadne process holds the port')));
    lock.listen({ path: lockPath(host, port) }, resolve);
  });
  return lock;
}

/**
 * Makes this process the only one serving `host:port` while its threads each listen with
 * SO_REUSEPORT. A plain bind (without SO_REUSEPORT) fails while any other process listens on
 * the port; then a lock named after host:port is held for the life of the process, so a second
 * Ariadne cannot join the threads' port: an abstract unix socket, which the kernel lets one
 * process bind at a time and frees when it exits, however it exits (Linux; elsewhere only the
 * bind check applies). Port 0 picks a free port.
 */
export async function claimPort(host: string, port: number): Promise<ClaimedPort> {
  const probe = createServer();
  const bound = await new Promise<number>((resolve, reject) => {
    probe.once('error', () => reject(taken(host, port, 'is another process using the port?')));
    probe.listen({ host, port }, () => resolve((probe.address() as AddressInfo).port));
  });
  await new Promise((resolve) => probe.close(resolve));
  if (process.platform !== 'linux') return { port: bound, release: () => {} };
  const lock = await holdLock(host, bound);
  lock.unref();
  return { port: bound, release: () => lock.close() };
}

/** Tries at taking the lock before a sharing process concludes another holds the port alone. */
const LOCK_CHECKS = 5;
const LOCK_CHECK_GAP_MS = 20;

/**
 * Rejects when an Ariadne process holds `host:port` to itself (claimPort): a process sharing the
 * port on purpose (SHARE_PORT) listens with SO_REUSEPORT, which the kernel would let it do beside
 * that process's threads, splitting traffic between two stores. The check takes the lock for a
 * moment, so sharing processes starting together may find it taken: only a lock held through
 * every try refuses.
 */
export async function refuseClaimedPort(host: string, port: number): Promise<void> {
  if (process.platform !== 'linux') return;
  for (let attempt = 1; ; attempt++) {
    try {
      const lock = await holdLock(host, port);
      await new Promise((resolve) => lock.close(resolve));
      return;
    } catch (e) {
      if (attempt === LOCK_CHECKS) throw e;
      await new Promise((resolve) => setTimeout(resolve, LOCK_CHECK_GAP_MS));
    }
  }
}
