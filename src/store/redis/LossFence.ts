import { randomBytes } from 'node:crypto';
import { StoreUnavailableError } from '../Store.js';
import type { ScriptCall } from './helpers/defineScripts.js';

export interface LossFenceOptions {
  /** The fence key of each shard (each in its shard's hash tag). */
  fenceKeys: readonly string[];
  /** open-fence-for-this-server. */
  openFence: ScriptCall;
  /** Largest difference between two nodes' clocks (REDIS_CLOCK_SKEW_MS). */
  clockSkewMs: number;
  now: () => number;
}

/** What this node saw the fences go through, since it started (for /metrics). */
export interface FenceEvents {
  /** Fences this node replaced: gone with the data they guarded ('lost') or of another Redis process ('process'). */
  replaced: { lost: number; process: number };
  /** New Redis processes the fences came to name after the first: failovers and restarts seen by this node. */
  processChanges: number;
}

/** One shard's state. */
interface Shard {
  /** The fence to send with a consume, once opened. */
  fence: string | undefined;
  /** Why the last opening failed, while it did. */
  problem: string | undefined;
  /** The newest stamp seen on the shard's fences (epoch ms), for Store.since. */
  since: number;
}

/**
 * What this node knows about the completeness of the markers in Redis, shard by shard.
 *
 * Each shard of markers has a fence key, `epoch|sinceMs|runId:replid`, without a TTL. Every consume sends
 * the fence it knows and the script refuses to write when the fence differs, so a loss that takes
 * the fence with it (a restart without persistence, FLUSHALL, SWAPDB) is seen atomically by the
 * first consume after it. A loss that keeps the fence (a failover to a replica that had not yet
 * received the newest markers, a restart whose AOF lost its last second, a process promoted again
 * after it was a replica that could not sync) changes the Redis process or its replication id
 * instead: the fence records both, as the process it was opened under had them, and the consume
 * script refuses a fence of another than the one running it, so the first consume there makes
 * this node open the fence again (openFence replaces it), and so does the check every second.
 * Whoever replaces a fence stamps it with its own clock plus the clock skew, and the consume script
 * refuses anything issued before the stamp of the fence it finds, in the step that writes the
 * marker (never here: a fence opened again after a comparison made here would let the consume
 * through on the new process). The newest stamp seen is this node's `since` (Store.since).
 *
 * Shards are opened independently: on a Redis Cluster a shard whose primary is down is refused
 * (503) while the others go on.
 */
export class LossFence {
  readonly #opts: LossFenceOptions;
  readonly #shards: Shard[];
  readonly events: FenceEvents = { replaced: { lost: 0, process: 0 }, processChanges: 0 };
  #checking: Promise<void> | undefined;
  #checksStarted = 0;
  /** The Redis processes (run_id and replication id) the fences were seen under. */
  readonly #processes = new Set<string>();

  constructor(opts: LossFenceOptions) {
    this.#opts = opts;
    this.#shards = opts.fenceKeys.map(() => ({ fence: undefined, problem: 'not checked yet', since: 0 }));
  }

  /** The latest `since` of every shard. */
  latestSince(): number {
    return Math.max(...this.#shards.map((s) => s.since));
  }

  /** Per shard, why its markers cannot be used now (undefined when they can). */
  problems(): (string | undefined)[] {
    return this.#shards.map((s) => s.problem);
  }

  /** The fence of `shard` to send with a consume; opens it first when the last opening failed. */
  async known(shard: number): Promise<string> {
    const ready = this.ready(shard);
    if (ready !== undefined) return ready;
    await this.check();
    const s = this.#shards[shard]!;
    if (s.problem !== undefined || s.fence === undefined) throw new StoreUnavailableError(s.problem ?? 'no loss fence');
    return s.fence;
  }

  /** The fence of `shard` when it can be sent now, without a check first (see `known`). */
  ready(shard: number): string | undefined {
    const s = this.#shards[shard]!;
    return s.problem === undefined ? s.fence : undefined;
  }

  /** A consume found `found` in place of the fence this node knew for `shard` (null: none, or another process's). */
  async moved(shard: number, found: string | null): Promise<void> {
    if (found !== null && this.#adopt(shard, found)) return;
    // A check already running may have read the fences before they went: wait for one that
    // starts from now on.
    const seen = this.#checksStarted;
    while (this.#checking !== undefined && this.#checksStarted === seen) await this.#checking.catch(() => undefined);
    await this.check();
    const s = this.#shards[shard]!;
    if (s.problem !== undefined) throw new StoreUnavailableError(s.problem);
  }

  /**
   * Opens every shard's fence under the process that holds it now (replacing what a loss or
   * another process left), each on its own: a shard that cannot be opened keeps its problem, the
   * others go on. Concurrent calls share one check.
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
    const candidate = `${randomBytes(8).toString('hex')}|${this.#opts.now() + this.#opts.clockSkewMs}`;
    await Promise.all(
      this.#opts.fenceKeys.map(async (key, shard) => {
        const s = this.#shards[shard]!;
        try {
          const reply = await this.#opts.openFence([key], [candidate]);
          if (!Array.isArray(reply) || typeof reply[0] !== 'string') throw new Error(`unexpected fence reply ${JSON.stringify(reply)}`);
          const why: unknown = reply[1];
          if (why === 'lost' || why === 'process') this.events.replaced[why]++;
          if (!this.#adopt(shard, reply[0])) throw new Error(`unreadable fence ${JSON.stringify(reply[0])}`);
          s.problem = undefined;
        } catch (e) {
          s.problem = e instanceof Error ? e.message.replace(/^ERR /, '') : String(e);
        }
      }),
    );
  }

  /** Takes `fence` as the shard's current one; false when it is not a fence. */
  #adopt(shard: number, fence: string): boolean {
    const [, sinceText, runId] = fence.split('|');
    const since = Number(sinceText);
    if (!Number.isFinite(since) || runId === undefined) return false;
    const s = this.#shards[shard]!;
    if (!this.#processes.has(runId)) {
      if (s.fence !== undefined) this.events.processChanges++;
      this.#processes.add(runId);
    }
    s.fence = fence;
    if (since > s.since) s.since = since;
    return true;
  }
}
