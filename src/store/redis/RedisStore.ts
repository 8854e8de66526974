import calculateSlot from 'cluster-key-slot';
import { Cluster } from 'ioredis';
import type { RedisConfig } from '../parseStoreConfig.js';
import { type ConsumeResult, type Lifetime, type Store, type StoreEvents, type StoreHealth, StoreUnavailableError } from '../Store.js';
import { ConsumeBatcher } from './ConsumeBatcher.js';
import { IncrementBatcher } from './IncrementBatcher.js';
import { ListBatcher } from './ListBatcher.js';
import { LossFence } from './LossFence.js';
import { type RedisClient, connectRedis } from './connectRedis.js';
import { answers } from './helpers/answers.js';
import { closeRedis } from './helpers/closeRedis.js';
import { defineScripts } from './helpers/defineScripts.js';
import { ONE_SLOT } from './helpers/sendPerSlot.js';
import { unavailable } from './helpers/unavailable.js';
import { appendEachCapped } from './scripts/appendEachCapped.js';
import { consumeEachOnce } from './scripts/consumeEachOnce.js';
import { countEachInWindow } from './scripts/countEachInWindow.js';
import { openFence } from './scripts/openFence.js';
import { readEachList } from './scripts/readEachList.js';
import { CLUSTER_SLOTS, markerShardTags, shardOf } from './markerShards.js';

export interface RedisStoreOptions extends RedisConfig {
  /** How often the server's identity and the fences are re-checked. Default 1000 ms. */
  checkIntervalMs?: number;
  /** How long `open` waits for a first answer before serving 503s until Redis answers. Default 5000 ms. */
  connectWaitMs?: number;
  /** Clock in epoch ms. Default Date.now. */
  now?: () => number;
}

const SCRIPTS = { consumeEachOnce, countEachInWindow, appendEachCapped, readEachList, openFence };

/**
 * The Store shared by every node, in Redis (or Valkey): one Lua script per atomic operation, every
 * key with a TTL, a loss fence per shard of markers (see LossFence). A Redis that is down, slow
 * (REDIS_COMMAND_TIMEOUT_MS) or out of memory makes every method reject with
 * StoreUnavailableError at once or within the timeout; the client reconnects by itself.
 */
export class RedisStore implements Store {
  readonly #redis: RedisClient;
  readonly #scripts: ReturnType<typeof defineScripts<typeof SCRIPTS>>;
  readonly #fence: LossFence;
  readonly #consumes: ConsumeBatcher;
  readonly #increments: IncrementBatcher;
  readonly #lists: ListBatcher;
  readonly #prefix: string;
  /** Per shard: its fence key, and the start of its markers' keys (one hash tag each). */
  readonly #fenceKeys: readonly string[];
  readonly #markerPrefixes: readonly string[];
  /**
   * On a Cluster, per shard: the start of the counters' and lists' keys, in the shard's slot, so a
   * turn's counters or lists are at most one call per shard however many clients and trace
   * buckets it has (each key of its own slot would be a call each). Undefined on one Redis: no
   * hash tag, the keys of earlier versions.
   */
  readonly #batchedPrefixes: readonly string[] | undefined;
  readonly #now: () => number;
  readonly #timer: NodeJS.Timeout;
  /** On a Cluster: the primary of each slot at the last look, and how many slots changed primary since the first. */
  readonly #slotPrimaries: (string | undefined)[] = [];
  #slotsMoved = 0;

  /** Connects and checks the server; when Redis does not answer in time, starts anyway (503s until it does). */
  static async open(opts: RedisStoreOptions): Promise<RedisStore> {
    const store = new RedisStore(opts, connectRedis(opts, 'ariadne-store'));
    const wait = new Promise<void>((resolve) => setTimeout(resolve, opts.connectWaitMs ?? 5_000).unref());
    await Promise.race([
      store.#redis
        .connect()
        .then(() => store.#fence.check())
        .catch(() => undefined),
      wait,
    ]);
    return store;
  }

  private constructor(opts: RedisStoreOptions, redis: RedisClient) {
    this.#redis = redis;
    this.#prefix = opts.prefix;
    this.#now = opts.now ?? Date.now;
    this.#scripts = defineScripts(redis, SCRIPTS);
    // On a Cluster every call is split by slot (and fewer marker shards mean fewer calls); one
    // Redis takes any keys in one call.
    const cluster = redis instanceof Cluster;
    const tags = markerShardTags(cluster);
    this.#fenceKeys = tags.map((tag) => `${this.#prefix}{${tag}}:fence`);
    this.#markerPrefixes = tags.map((tag) => `${this.#prefix}{${tag}}:marker:`);
    this.#batchedPrefixes = cluster ? tags.map((tag) => `${this.#prefix}{${tag}}:`) : undefined;
    const slotOf = cluster ? calculateSlot : ONE_SLOT;
    this.#consumes = new ConsumeBatcher(this.#scripts.consumeEachOnce, slotOf);
    this.#increments = new IncrementBatcher(this.#scripts.countEachInWindow, slotOf);
    this.#lists = new ListBatcher(this.#scripts, slotOf);
    this.#fence = new LossFence({
      fenceKeys: this.#fenceKeys,
      openFence: this.#scripts.openFence,
      clockSkewMs: opts.clockSkewMs,
      now: this.#now,
    });
    redis.on('ready', () => void this.#fence.check().catch(() => undefined));
    if (redis instanceof Cluster) redis.on('refresh', () => this.#countSlotMoves(redis));
    this.#timer = setInterval(() => {
      if (redis.status === 'ready') void this.#fence.check().catch(() => undefined);
    }, opts.checkIntervalMs ?? 1_000);
    this.#timer.unref();
  }

  consume(key: string, life: Lifetime, tag = ''): Promise<ConsumeResult> {
    const shard = shardOf(key, this.#fenceKeys.length);
    return this.#consumeIn(shard, `${this.#markerPrefixes[shard]}${key}`, life, tag, 0);
  }

  /**
   * One attempt at a consume. A fence that moved is adopted and the consume tried again; three
   * moves in a row mean churn. Nothing is compared with the fence's cutoff here: the script
   * compares `life.issuedAt` with the cutoff of the fence it finds, in the step that writes the
   * marker, since a fence opened again while this call waited (`known`, `moved`) would otherwise
   * slip between a comparison made here and the write. Plain promise chains, no async function:
   * this runs for every request and each await would add a promise and a turn of the microtask
   * queue.
   */
  #consumeIn(shard: number, marker: string, life: Lifetime, tag: string, attempt: number): Promise<ConsumeResult> {
    if (attempt === 3) return Promise.reject(new StoreUnavailableError('the loss fence kept moving'));
    const fenceKey = this.#fenceKeys[shard]!;
    const ttl = Math.max(1, Math.ceil(life.expiresAt - this.#now()));
    const ready = this.#fence.ready(shard);
    const reply =
      ready !== undefined
        ? this.#consumes.consume(fenceKey, ready, marker, ttl, life.issuedAt, tag)
        : this.#fence.known(shard).then((fence) => this.#consumes.consume(fenceKey, fence, marker, ttl, life.issuedAt, tag));
    return reply.then(
      (r) =>
        typeof r === 'string' ? r : this.#fence.moved(shard, r.fence).then(() => this.#consumeIn(shard, marker, life, tag, attempt + 1)),
      unavailable,
    );
  }

  increment(key: string, windowMs: number, by = 1): Promise<number> {
    return this.#increments.increment(this.#batchedKey(`counter:${key}`), Math.max(1, Math.ceil(windowMs)), by).catch(unavailable);
  }

  async append(key: string, item: Uint8Array, ttlMs: number, cap: number): Promise<void> {
    const bytes = Buffer.from(item.buffer, item.byteOffset, item.byteLength);
    await this.#lists
      .append(this.#batchedKey(`list:${key}`), bytes, Math.max(1, Math.floor(cap)), Math.max(1, Math.ceil(ttlMs)))
      .catch(unavailable);
  }

  async lists(keys: readonly string[]): Promise<Uint8Array[][]> {
    const lists = await this.#lists.read(keys.map((k) => this.#batchedKey(`list:${k}`))).catch(unavailable);
    return lists.map((items) => items.map((b) => new Uint8Array(b)));
  }

  /** The Redis key of a counter or list (see #batchedPrefixes). */
  #batchedKey(name: string): string {
    const prefixes = this.#batchedPrefixes;
    return prefixes === undefined ? `${this.#prefix}${name}` : `${prefixes[shardOf(name, prefixes.length)]}${name}`;
  }

  since(): number {
    return this.#fence.latestSince();
  }

  events(): StoreEvents {
    const { replaced, processChanges } = this.#fence.events;
    return { failoversSeen: processChanges, fenceReplacements: { ...replaced }, slotsMoved: this.#slotsMoved };
  }

  /**
   * After ioredis read the Cluster's slots again (every second, on every node): counts the slots
   * now served by another primary. A plain loop over the slots into the same array: building a
   * new 16,384-entry array each time took about 2 ms of CPU per refresh (a profile of the cluster
   * bench), a share of every node's CPU whatever its load.
   */
  #countSlotMoves(cluster: Cluster): void {
    const known = this.#slotPrimaries;
    const counting = known.length > 0;
    for (let slot = 0; slot < CLUSTER_SLOTS; slot++) {
      const primary = cluster.slots[slot]?.[0];
      if (counting && primary !== undefined && primary !== known[slot]) this.#slotsMoved++;
      known[slot] = primary;
    }
  }

  /**
   * Not ok when no shard of markers can be used (Redis down, or every primary of a Cluster).
   * When only some can (a Cluster primary down), ok with `down`: what is down and why, by primary
   * and slot; every node sees the same Cluster, so taking them all out of a load balancer would
   * only turn a partial outage into a whole one.
   */
  async health(): Promise<StoreHealth> {
    const redis = this.#redis;
    // One Redis: is it answering right now? A Cluster's PING would go to any one node; its
    // primaries are checked shard by shard every second instead (the fences).
    const answering = await answers(redis, redis instanceof Cluster ? undefined : () => redis.ping());
    if (!answering.ok) return answering;
    const down = this.#downParts();
    if (down.length === 0) return { ok: true };
    const every = down.reduce((n, d) => n + d.shards, 0) === this.#fenceKeys.length;
    const detail = `redis: ${down.map((d) => `${d.part}: ${d.problem}`).join('; ')}`;
    return every ? { ok: false, detail } : { ok: true, detail, down: down.map(({ part, problem }) => ({ part, problem })) };
  }

  /** The shards that cannot be used now, grouped by the primary that holds them and why. */
  #downParts(): { part: string; problem: string; shards: number }[] {
    const parts = new Map<string, { shards: number[]; slots: number[]; problem: string; node: string | undefined }>();
    this.#fence.problems().forEach((problem, shard) => {
      if (problem === undefined) return;
      const slot = calculateSlot(this.#fenceKeys[shard]!);
      const node = this.#redis instanceof Cluster ? (this.#redis.slots[slot]?.[0] ?? 'no node') : undefined;
      const at = `${node ?? ''}\n${problem}`;
      let part = parts.get(at);
      if (part === undefined) parts.set(at, (part = { shards: [], slots: [], problem, node }));
      part.shards.push(shard);
      part.slots.push(slot);
    });
    return Array.from(parts.values(), ({ shards, slots, problem, node }) => ({
      part: `${node === undefined ? '' : `primary ${node}, `}marker shards ${shards.join(',')}${node === undefined ? '' : ` (slots ${slots.join(',')})`}`,
      problem,
      shards: shards.length,
    }));
  }

  async close(): Promise<void> {
    clearInterval(this.#timer);
    await closeRedis(this.#redis);
  }
}
