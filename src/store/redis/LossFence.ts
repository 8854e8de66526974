import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { StoreUnavailableError } from '../Store.js';
import type { ScriptCall } from './helpers/defineScripts.js';
import { readInfo } from './helpers/readInfo.js';

export interface LossFenceOptions {
  /** The fence key of each shard (each in its shard's hash tag). */
  fenceKeys: readonly string[];
  /** open-fence-for-this-server. */
  openFence: ScriptCall;
  /** Largest difference between two nodes' clocks (REDIS_CLOCK_SKEW_MS). */
  clockSkewMs: number;
  now: () => number;
}

/**
 * What this node knows about the completeness of the markers in Redis.
 *
 * Each shard of markers has a fence key, `epoch|sinceMs|runId`, without a TTL. Every consume sends
 * the fence it knows and the script refuses to write when the fence differs, so a loss that takes
 * the fence with it (a restart without persistence, FLUSHALL, SWAPDB) is seen atomically by the
 * first consume after it. A loss that keeps the fence (a failover to a replica that had not yet
 * received the newest markers, a restart whose AOF lost its last second) changes the Redis process
 * instead: the fence records the run_id of the process it was written under, and after every
 * (re)connection, and every second, this node compares it with the run_id of the process answering
 * now; a different one replaces the fence. Whoever replaces a fence stamps it with its own clock
 * plus the clock skew, and every node adopts the newest stamp as `since()`: anything issued before
 * is refused.
 */
export class LossFence {
  readonly #redis: Redis;
  readonly #opts: LossFenceOptions;
  readonly #known: (string | undefined)[];
  #since = 0;
  /** True once the server answering on the current connection was checked. */
  #checked = false;
  #checking: Promise<void> | undefined;
  #checksStarted = 0;
  /** Why the last check failed, while it did. */
  #problem: string | undefined = 'not checked yet';

  constructor(redis: Redis, opts: LossFenceOptions) {
    this.#redis = redis;
    this.#opts = opts;
    this.#known = opts.fenceKeys.map(() => undefined);
    // A new connection may lead to another server: nothing is consumed before it is checked.
    redis.on('close', () => {
      this.#checked = false;
    });
  }

  since(): number {
    return this.#since;
  }

  /** Why markers cannot be trusted now, or undefined when they can. */
  get problem(): string | undefined {
    return this.#checked ? this.#problem : (this.#problem ?? 'connection not checked yet');
  }

  /**
   * The fence of `shard` to send with a consume, once this connection's server was checked and
   * while the last check found nothing wrong (else it checks again, and fails with it).
   */
  async known(shard: number): Promise<string> {
    const ready = this.ready(shard);
    if (ready !== undefined) return ready;
    if (!this.#checked || this.#problem !== undefined) {
      if (this.#redis.status !== 'ready') throw new StoreUnavailableError(`Redis is not connected (${this.#redis.status})`);
      await this.check();
    }
    const fence = this.#known[shard];
    if (fence === undefined) throw new StoreUnavailableError(this.#problem ?? 'no loss fence');
    return fence;
  }

  /** The fence of `shard` when it can be sent now, without a check first (see `known`). */
  ready(shard: number): string | undefined {
    return this.#checked && this.#problem === undefined ? this.#known[shard] : undefined;
  }

  /** A consume found `found` in place of the fence this node knew for `shard`. */
  async moved(shard: number, found: string | null): Promise<void> {
    if (found !== null && this.#adopt(shard, found)) return;
    // A check already running may have read the fences before they went: wait for one that
    // starts from now on.
    const seen = this.#checksStarted;
    while (this.#checking !== undefined && this.#checksStarted === seen) await this.#checking.catch(() => undefined);
    await this.check();
  }

  /**
   * Reads the answering server's run_id and opens every shard's fence under it (replacing what a
   * loss or another process left). Concurrent calls share one check.
   */
  check(): Promise<void> {
    if (this.#checking === undefined) {
      this.#checksStarted++;
      this.#checking = this.#runCheck().finally(() => {
        this.#checking = undefined;
      });
    }
    return this.#checking;
  }

  async #runCheck(): Promise<void> {
    try {
      const info = await readInfo(this.#redis);
      if (info.maxmemory > 0 && info.maxmemoryPolicy !== 'noeviction') {
        throw new StoreUnavailableError(
          `Redis maxmemory-policy is ${info.maxmemoryPolicy}: it may evict single-use markers; set maxmemory-policy noeviction`,
        );
      }
      const candidate = `${randomBytes(8).toString('hex')}|${this.#opts.now() + this.#opts.clockSkewMs}|${info.runId}`;
      const fences = await Promise.all(this.#opts.fenceKeys.map((key) => this.#opts.openFence([key], [candidate, info.runId])));
      fences.forEach((fence, shard) => this.#adopt(shard, String(fence)));
      this.#checked = true;
      this.#problem = undefined;
    } catch (e) {
      this.#problem = e instanceof Error ? e.message : String(e);
      throw e instanceof StoreUnavailableError ? e : new StoreUnavailableError(this.#problem, { cause: e });
    }
  }

  /** Takes `fence` as the shard's current one; false when it is not a fence. */
  #adopt(shard: number, fence: string): boolean {
    const since = Number(fence.split('|')[1]);
    if (!Number.isFinite(since)) return false;
    this.#known[shard] = fence;
    if (since > this.#since) this.#since = since;
    return true;
  }
}
