import type { RedisClient } from '../redis/connectRedis.js';
import { connectRedis } from '../redis/connectRedis.js';
import { closeRedis } from '../redis/helpers/closeRedis.js';
import { defineScripts } from '../redis/helpers/defineScripts.js';
import { unavailable } from '../redis/helpers/unavailable.js';
import { addCountsOfMinutes } from '../redis/scripts/addCountsOfMinutes.js';
import { appendTraceWithinBounds } from '../redis/scripts/appendTraceWithinBounds.js';
import type { RedisConfig } from '../parseStoreConfig.js';
import { COUNTS_RETENTION_MINUTES, type TraceBounds, type TrafficStore } from './TrafficStore.js';

const SCRIPTS = { addCountsOfMinutes, appendTraceWithinBounds };

/**
 * The TrafficStore every node shares, in Redis: a hash per minute (`{traffic}:<minute>`, fields
 * `site\tname`) living COUNTS_RETENTION_MINUTES, and the traces in a stream bounded by count and
 * bytes (one hash tag for the stream and its byte count). Each node adds its counts once a second
 * in one script call, so the dashboard of any node shows the traffic of all.
 */
export class RedisTrafficStore implements TrafficStore {
  readonly #redis: RedisClient;
  readonly #scripts: ReturnType<typeof defineScripts<typeof SCRIPTS>>;
  readonly #prefix: string;
  readonly #bounds: TraceBounds;

  /** Connects (in the background: counts and traces are dropped while Redis does not answer). */
  static open(config: RedisConfig, bounds: TraceBounds): RedisTrafficStore {
    const redis = connectRedis(config, 'ariadne-traffic');
    redis.connect().catch(() => undefined);
    return new RedisTrafficStore(redis, config.prefix, bounds);
  }

  private constructor(redis: RedisClient, prefix: string, bounds: TraceBounds) {
    this.#redis = redis;
    this.#prefix = prefix;
    this.#bounds = bounds;
    this.#scripts = defineScripts(redis, SCRIPTS);
  }

  async addCounts(counts: readonly (readonly [string, number])[]): Promise<void> {
    if (counts.length === 0) return;
    const byMinute = new Map<string, (string | number)[]>();
    for (const [field, n] of counts) {
      const tab = field.indexOf('\t');
      const minute = field.slice(0, tab);
      let pairs = byMinute.get(minute);
      if (pairs === undefined) {
        pairs = [];
        byMinute.set(minute, pairs);
      }
      pairs.push(field.slice(tab + 1), n);
    }
    const keys: string[] = [];
    const args: (string | number)[] = [COUNTS_RETENTION_MINUTES * 60];
    for (const [minute, pairs] of byMinute) {
      keys.push(this.#minuteKey(minute));
      args.push(pairs.length / 2, ...pairs);
    }
    await this.#scripts.addCountsOfMinutes(keys, args).catch(unavailable);
  }

  async counts(from: number, to: number): Promise<[string, number][]> {
    const pipeline = this.#redis.pipeline();
    for (let minute = from; minute <= to; minute++) pipeline.hgetall(this.#minuteKey(String(minute)));
    const replies = (await pipeline.exec().catch(unavailable)) ?? [];
    const out: [string, number][] = [];
    replies.forEach(([err, fields], i) => {
      if (err !== null) unavailable(err);
      for (const [rest, n] of Object.entries(fields as Record<string, string>)) out.push([`${from + i}\t${rest}`, Number(n)]);
    });
    return out;
  }

  async addTrace(line: string): Promise<void> {
    await this.#scripts
      .appendTraceWithinBounds([this.#streamKey, this.#bytesKey], [line, this.#bounds.maxCount, this.#bounds.maxBytes])
      .catch(unavailable);
  }

  async traces(): Promise<string[]> {
    const entries = await this.#redis.xrange(this.#streamKey, '-', '+').catch(unavailable);
    return entries.map(([, fields]) => fields[1]!);
  }

  async close(): Promise<void> {
    await closeRedis(this.#redis);
  }

  #minuteKey(minute: string): string {
    return `${this.#prefix}{traffic}:${minute}`;
  }

  get #streamKey(): string {
    return `${this.#prefix}{traces}:stream`;
  }

  get #bytesKey(): string {
    return `${this.#prefix}{traces}:bytes`;
  }
}
